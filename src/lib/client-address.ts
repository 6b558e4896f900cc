import { isIP } from 'node:net'

const BRACKETED = /^\[([^\]]+)\](?::\d{1,5})?$/
const IPV4_WITH_PORT = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/
const IPV4_MAPPED = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/

/**
 * One spelling per address, or null when `value` is not an IP address. Accepts what proxies
 * write into X-Forwarded-For: `1.2.3.4`, `1.2.3.4:5678`, `2001:db8::1`, `[2001:db8::1]:443`.
 * IPv6 is written in its short lower-case form, and an IPv4 address mapped into IPv6
 * (`::ffff:1.2.3.4`, what a dual-stack socket reports) as the IPv4 address.
 */
export function normalizeAddress(value: string): string | null {
  let address = value.trim()
  address = BRACKETED.exec(address)?.[1] ?? IPV4_WITH_PORT.exec(address)?.[1] ?? address
  const kind = isIP(address)
  if (kind === 4) return address
  if (kind !== 6) return null
  let short: string
  try {
    short = new URL(`http://[${address.split('%')[0]}]/`).hostname.slice(1, -1)
  } catch {
    return null
  }
  const mapped = IPV4_MAPPED.exec(short)
  if (!mapped) return short
  const [high, low] = [parseInt(mapped[1], 16), parseInt(mapped[2], 16)]
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`
}

/** The set of trusted proxy addresses, each in its normalized spelling. */
export function trustedAddresses(addresses: readonly string[]): ReadonlySet<string> {
  return new Set(addresses.map((address) => normalizeAddress(address)).filter((address) => address !== null))
}

/**
 * Who the client is. The socket's peer, unless the peer is a trusted proxy: then the
 * right-most X-Forwarded-For entry that is not itself a trusted proxy (each proxy appends
 * the address it saw, so entries to the left of it are the client's own word and are not
 * believed). An entry that is no address ends the walk at the last hop that can be vouched
 * for. A header from a peer that is not trusted is ignored. Null when the peer is unknown
 * (a request handled in-process, or a connection already closed).
 */
export function clientAddress(peer: string | null, forwardedFor: string | null, trusted: ReadonlySet<string>): string | null {
  if (peer === null) return null
  let nearest = normalizeAddress(peer) ?? peer
  if (!trusted.has(nearest) || !forwardedFor) return nearest
  const hops = forwardedFor.split(',').filter((hop) => hop.trim() !== '')
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = normalizeAddress(hops[i])
    if (hop === null) return nearest
    if (!trusted.has(hop)) return hop
    nearest = hop
  }
  return nearest
}
