import { normalizeAddress, trustedAddresses } from '../lib/client-address'
import type { Logger } from '../lib/logger'
import { type Message, render } from '../lib/messages'
import { say } from './messages'

type Server = { requestIP(request: Request): { address: string } | null } | null

export interface ForwardingWatch {
  /** the onRequest hook: looks at requests until the first X-Forwarded-For from a peer that is not trusted */
  inspect(context: { request: Request; server: Server }): void
  /** what an administrator should know: the warning, once one was seen */
  warnings(): Message[]
}

/**
 * A reverse proxy the service does not trust (TRUSTED_PROXIES) has its X-Forwarded-For ignored, so
 * every client behind it has the proxy's address: the per-address sign-in bound then counts the
 * whole company as one client. Nothing fails, so it is said: one warning in the log at the first
 * such request (not one per request), and on /health for administrators.
 */
export function watchForwarding(trustedProxies: readonly string[], logger: Logger): ForwardingWatch {
  const trusted = trustedAddresses(trustedProxies)
  // behind a trusted proxy every request carries the header: its peer, as the socket spells it, is looked up once
  const trustedPeers = new Set<string>()
  let warning: Message | null = null
  return {
    inspect({ request, server }) {
      if (warning !== null || !request.headers.has('x-forwarded-for')) return
      const peer = server?.requestIP(request)?.address
      if (!peer || trustedPeers.has(peer)) return
      const address = normalizeAddress(peer) ?? peer
      if (trusted.has(address)) {
        trustedPeers.add(peer)
        return
      }
      warning = untrustedForwarding(address)
      logger.warn(render(warning, 'en'), { peer: address, trusted_proxies: [...trusted] })
    },
    warnings: () => (warning === null ? [] : [warning]),
  }
}

export const untrustedForwarding = (peer: string): Message => say.untrustedForwarding({ peer })
