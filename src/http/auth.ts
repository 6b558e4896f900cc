import { say } from './messages'
import { Elysia } from 'elysia'
import { clientAddress, trustedAddresses } from '../lib/client-address'
import type { TokenService } from '../modules/auth/tokens'
import type { Actor } from '../modules/audit/recorder'
import type { AccessResolver, Principal } from '../modules/rbac/access'
import { allows } from '../modules/rbac/ability'
import type { PermissionName } from '../modules/rbac/catalogue'
import { ForbiddenError, UnauthorizedError } from './errors'

const BEARER = /^Bearer\s+(\S+)\s*$/i

/** Who is calling: a valid access token of an existing, enabled user whose session is current. */
export async function authenticate(
  authorization: string | undefined,
  tokens: TokenService,
  access: AccessResolver,
): Promise<Principal> {
  const match = authorization ? BEARER.exec(authorization) : null
  if (!match) throw new UnauthorizedError()
  const claims = await tokens.verifyAccess(match[1])
  if (!claims) throw new UnauthorizedError(say.tokenInvalid())
  const principal = await access.get(claims.userId)
  if (!principal) throw new UnauthorizedError(say.accountGone())
  if (principal.status !== 1) throw new UnauthorizedError(say.accountDisabled())
  if (principal.tokenVersion !== claims.tokenVersion)
    throw new UnauthorizedError(say.sessionEnded())
  return principal
}

const SECURED = { security: [{ bearer: [] }] }

type Server = { requestIP(request: Request): { address: string } | null } | null

/** The caller's address for throttling and the audit log; see `clientAddress`. */
export type ClientIp = (server: Server, request: Request) => string | null

/** `trustedProxies`: peers whose X-Forwarded-For is believed (setting TRUSTED_PROXIES). */
export function createClientIp(trustedProxies: readonly string[]): ClientIp {
  const trusted = trustedAddresses(trustedProxies)
  return (server, request) =>
    clientAddress(server?.requestIP(request)?.address ?? null, trusted.size > 0 ? request.headers.get('x-forwarded-for') : null, trusted)
}

/** Each request's caller once the guard has checked it, for what is kept per account (Idempotency-Key). */
export type Callers = WeakMap<Request, Principal>

/**
 * Route options `{ auth: true }` (any signed-in user) and `{ permission: 'x:y' }`
 * (a signed-in user whose enabled roles grant x:y). Both add `principal` and `actor`
 * to the context. The check runs in `transform`, before the request is validated,
 * so a caller without access learns nothing about the route's input rules.
 */
export function createAuthGuard(tokens: TokenService, access: AccessResolver, clientIp: ClientIp, checked: Callers = new WeakMap()) {
  const resolve = ({ request, server }: { request: Request; server: Server }) => {
    const principal = checked.get(request)!
    // the address is looked up only when something (an audit entry) asks for it: most requests never do
    const actor: Actor = {
      userId: principal.userId,
      get ip() {
        return clientIp(server, request)
      },
    }
    return { principal, actor }
  }

  return new Elysia({ name: 'auth-guard' }).macro({
    auth: {
      detail: SECURED,
      async transform({ headers, request }) {
        checked.set(request, await authenticate(headers.authorization, tokens, access))
      },
      resolve,
    },
    permission: (permission: PermissionName) => ({
      // the document says "Needs permission …" from x-permission (src/http/openapi.ts), after the route's own description
      detail: { ...SECURED, 'x-permission': permission },
      async transform({ headers, request }) {
        const principal = await authenticate(headers.authorization, tokens, access)
        if (!allows(principal.ability, permission))
          throw new ForbiddenError(say.permissionMissing({ permission }))
        checked.set(request, principal)
      },
      resolve,
    }),
  })
}

export type AuthGuard = ReturnType<typeof createAuthGuard>
