import type { Db } from '../../db/client'
import { ForbiddenError } from '../../http/errors'
import { ttlCache } from '../../lib/ttl-cache'
import { defineAbility, type AppAbility, type RoleGrant } from './ability'
import { say } from './messages'
import { findPrincipal } from './repository'

export interface Principal {
  userId: number
  status: number
  tokenVersion: number
  employeeId: number | null
  /** Names of the caller's enabled roles. */
  roles: string[]
  ability: AppAbility
}

/**
 * Who the caller is, re-read from the database at most once per `ttlMs` per user.
 * A change made by this process calls `invalidate` and shows on the next request;
 * another instance sharing the database sees it once the entry expires.
 */
export interface AccessResolver {
  get(userId: number): Promise<Principal | null>
  invalidate(userId?: number): void
}

/**
 * Half a second: another instance's change must show within one second, and a request
 * that read the cache just before the change still counts against that second.
 */
export const ACCESS_CACHE_TTL_MS = 500

/** Abilities by the exact grants they were built from: most callers share a few role sets. */
const ABILITY_CACHE_SIZE = 1000

export function createAccessResolver(db: Db, ttlMs = ACCESS_CACHE_TTL_MS): AccessResolver {
  const principals = ttlCache<number, Principal | null>(ttlMs)
  const abilities = new Map<string, AppAbility>()

  const abilityOf = (grants: RoleGrant[]): AppAbility => {
    const key = JSON.stringify(grants.map((grant) => [grant.role, [...grant.permissions].sort()]).sort())
    let ability = abilities.get(key)
    if (!ability) {
      if (abilities.size >= ABILITY_CACHE_SIZE) abilities.clear()
      abilities.set(key, (ability = defineAbility(grants)))
    }
    return ability
  }

  const load = async (userId: number): Promise<Principal | null> => {
    const row = await findPrincipal(db, userId)
    if (!row) return null
    return {
      userId: row.id,
      status: row.status,
      tokenVersion: row.tokenVersion,
      employeeId: row.employeeId,
      roles: row.grants.map((grant) => grant.role).sort(),
      ability: abilityOf(row.grants),
    }
  }

  return {
    get: (userId) => principals.get(userId, () => load(userId)),
    invalidate(userId) {
      if (userId === undefined) principals.clear()
      else principals.delete(userId)
    },
  }
}

/** What an account with no employee record has none of, as the refusal names it. */
const MISSING = { attendance: say.ownAttendance, 'salary records': say.ownSalaries, leave: say.ownLeave } as const

/** The caller's employee id; employee endpoints answer 403 saying so for an account with none (CONTRACT §2). */
export function linkedEmployee(principal: Principal, missing: keyof typeof MISSING): number {
  if (principal.employeeId === null) throw new ForbiddenError(say.notLinked({ what: MISSING[missing]() }))
  return principal.employeeId
}
