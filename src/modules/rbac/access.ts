import type { Db } from '../../db/client'
import { ForbiddenError } from '../../http/errors'
import { defineAbility, type AppAbility } from './ability'
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

export function createAccessResolver(db: Db, ttlMs = ACCESS_CACHE_TTL_MS): AccessResolver {
  const cache = new Map<number, { until: number; principal: Promise<Principal | null> }>()
  let generation = 0

  const load = async (userId: number): Promise<Principal | null> => {
    const row = await findPrincipal(db, userId)
    if (!row) return null
    return {
      userId: row.id,
      status: row.status,
      tokenVersion: row.tokenVersion,
      employeeId: row.employeeId,
      roles: row.grants.map((grant) => grant.role).sort(),
      ability: defineAbility(row.grants),
    }
  }

  return {
    get(userId) {
      const now = performance.now()
      const hit = cache.get(userId)
      if (hit && hit.until > now) return hit.principal
      const startedIn = generation
      const principal = load(userId)
      principal.then(
        () => {
          // a change that happened while loading must not be masked by this result
          if (generation !== startedIn) cache.delete(userId)
        },
        () => cache.delete(userId),
      )
      cache.set(userId, { until: now + ttlMs, principal })
      return principal
    },
    invalidate(userId) {
      generation++
      if (userId === undefined) cache.clear()
      else cache.delete(userId)
    },
  }
}

/** The caller's employee id; employee endpoints answer 403 saying so for an account with none (CONTRACT §2). */
export function linkedEmployee(principal: Principal, missing: string): number {
  if (principal.employeeId === null)
    throw new ForbiddenError(`Your account is not linked to an employee, so it has no ${missing}; ask an administrator to link it`)
  return principal.employeeId
}
