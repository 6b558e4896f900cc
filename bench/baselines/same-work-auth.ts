/**
 * B4/B5's caller check, the same as Workforce's (src/http/auth.ts, src/modules/auth/tokens.ts,
 * src/modules/rbac/access.ts) without Elysia or CASL: the bearer token verified with `jose`
 * (HS256, expiry against now) and kept, up to 10,000, so a client's next request skips the
 * signature; the account, its employee and permissions read in one query and kept half a
 * second; status, session version and permission checked on every request.
 */
import { jwtVerify } from 'jose'
import { ForbiddenError, UnauthorizedError } from '../../src/http/errors'
import { say } from '../../src/http/messages'
import { say as rbac } from '../../src/modules/rbac/messages'
import type { SameWorkDb } from './same-work-db'

const BEARER = /^Bearer\s+(\S+)\s*$/i
const VERIFIED_CACHE_SIZE = 10_000
const PRINCIPAL_TTL_MS = 500
const PRINCIPAL_CACHE_SIZE = 10_000

export interface Caller {
  userId: number
  status: number
  tokenVersion: number
  employeeId: number | null
  admin: boolean
  permissions: Set<string>
}

export function createCallerCheck(db: SameWorkDb, secret: string) {
  const key = new TextEncoder().encode(secret)
  const verified = new Map<string, { userId: number; tokenVersion: number; expiresAt: number }>()
  const callers = new Map<number, { until: number; caller: Caller | null }>()

  const claimsOf = async (token: string) => {
    const known = verified.get(token)
    if (known) {
      if (Date.now() < known.expiresAt) return known
      verified.delete(token)
      return null
    }
    let payload
    try {
      payload = (await jwtVerify(token, key, { currentDate: new Date(), algorithms: ['HS256'] })).payload
    } catch {
      return null
    }
    if (payload.typ !== 'access' || typeof payload.sv !== 'number') return null
    if (typeof payload.sub !== 'string' || !/^[1-9]\d{0,15}$/.test(payload.sub)) return null
    if (typeof payload.exp !== 'number') return null
    const claims = { userId: Number(payload.sub), tokenVersion: payload.sv, expiresAt: payload.exp * 1000 }
    if (verified.size >= VERIFIED_CACHE_SIZE) verified.delete(verified.keys().next().value!)
    verified.set(token, claims)
    return claims
  }

  const load = (userId: number): Caller | null => {
    const rows = db.principalRows(userId)
    if (rows.length === 0) return null
    const [id, status, tokenVersion, employeeId] = rows[0] as [number, number, number, number | null]
    const caller: Caller = { userId: id, status, tokenVersion, employeeId, admin: false, permissions: new Set() }
    for (const [, , , , role, permission] of rows) {
      if (role === null) continue // no roles, or a disabled one
      if (role === 'admin') caller.admin = true
      if (permission !== null) caller.permissions.add(permission as string)
    }
    return caller
  }

  const callerOf = (userId: number): Caller | null => {
    const now = performance.now()
    const hit = callers.get(userId)
    if (hit && hit.until > now) return hit.caller
    const caller = load(userId)
    if (callers.size >= PRINCIPAL_CACHE_SIZE) callers.clear()
    callers.set(userId, { until: now + PRINCIPAL_TTL_MS, caller })
    return caller
  }

  /** The caller of a request holding `permission` (admin holds all; `x:manage` every action on x), else 401/403 as Workforce answers. */
  return async (authorization: string | null, permission: string): Promise<Caller> => {
    const match = authorization ? BEARER.exec(authorization) : null
    if (!match) throw new UnauthorizedError()
    const claims = await claimsOf(match[1])
    if (!claims) throw new UnauthorizedError(say.tokenInvalid())
    const caller = callerOf(claims.userId)
    if (!caller) throw new UnauthorizedError(say.accountGone())
    if (caller.status !== 1) throw new UnauthorizedError(say.accountDisabled())
    if (caller.tokenVersion !== claims.tokenVersion) throw new UnauthorizedError(say.sessionEnded())
    const resource = permission.slice(0, permission.indexOf(':'))
    if (!caller.admin && !caller.permissions.has(permission) && !caller.permissions.has(`${resource}:manage`))
      throw new ForbiddenError(say.permissionMissing({ permission }))
    return caller
  }
}

/** What an account with no employee record has none of, as the refusal names it (rbac/access.ts). */
const MISSING = { attendance: rbac.ownAttendance, 'salary records': rbac.ownSalaries, leave: rbac.ownLeave } as const

/** The caller's employee; 403 for an account linked to none, as Workforce says it. */
export function linkedEmployee(caller: Caller, missing: keyof typeof MISSING): number {
  if (caller.employeeId === null) throw new ForbiddenError(rbac.notLinked({ what: MISSING[missing]() }))
  return caller.employeeId
}
