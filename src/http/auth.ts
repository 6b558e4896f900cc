import { Elysia } from 'elysia'
import type { TokenService } from '../modules/auth/tokens'
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
  if (!claims) throw new UnauthorizedError('The access token is invalid or has expired; refresh it or sign in again')
  const principal = await access.get(claims.userId)
  if (!principal) throw new UnauthorizedError('The account of this token no longer exists')
  if (principal.status !== 1) throw new UnauthorizedError('This account is disabled; ask an administrator to enable it')
  if (principal.tokenVersion !== claims.tokenVersion)
    throw new UnauthorizedError('This session has ended (signed out or password changed); sign in again')
  return principal
}

const SECURED = { security: [{ bearer: [] }] }

/**
 * Route options `{ auth: true }` (any signed-in user) and `{ permission: 'x:y' }`
 * (a signed-in user whose enabled roles grant x:y). Both add `principal` to the context.
 */
export function createAuthGuard(tokens: TokenService, access: AccessResolver) {
  return new Elysia({ name: 'auth-guard' }).macro({
    auth: {
      detail: SECURED,
      async resolve({ headers }) {
        return { principal: await authenticate(headers.authorization, tokens, access) }
      },
    },
    permission: (permission: PermissionName) => ({
      detail: { ...SECURED, description: `Needs permission \`${permission}\`.` },
      async resolve({ headers }) {
        const principal = await authenticate(headers.authorization, tokens, access)
        if (!allows(principal.ability, permission))
          throw new ForbiddenError(`Your roles do not grant the permission ${permission}; ask an administrator for it`)
        return { principal }
      },
    }),
  })
}

export type AuthGuard = ReturnType<typeof createAuthGuard>
