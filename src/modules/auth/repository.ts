import { and, count, desc, eq, gt, isNull, lte, sql, type SQL } from 'drizzle-orm'
import type { Queryable } from '../../db/client'
import { loginFailures, refreshTokens, settings } from '../../db/schema'

export type RefreshTokenRow = typeof refreshTokens.$inferSelect

export async function insertRefreshToken(db: Queryable, values: typeof refreshTokens.$inferInsert): Promise<void> {
  await db.insert(refreshTokens).values(values)
}

export async function findRefreshToken(db: Queryable, tokenHash: string): Promise<RefreshTokenRow | null> {
  const [row] = await db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, tokenHash)).limit(1)
  return row ?? null
}

/** Marks a token used; false when it was already used (a concurrent refresh won). */
export async function markRefreshTokenUsed(db: Queryable, id: number, at: Date): Promise<boolean> {
  const rows = await db
    .update(refreshTokens)
    .set({ usedAt: at })
    .where(and(eq(refreshTokens.id, id), isNull(refreshTokens.usedAt), isNull(refreshTokens.revokedAt)))
    .returning({ id: refreshTokens.id })
  return rows.length > 0
}

export async function revokeRefreshFamily(db: Queryable, familyId: string, at: Date): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: at })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)))
}

export async function revokeUserRefreshTokens(db: Queryable, userId: number, at: Date): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: at })
    .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)))
}

/** Who made a sign-in attempt: the lower-cased username and the client's address (null: unknown, one address of its own). */
export interface AttemptKey {
  usernameKey: string
  address: string | null
}

export interface FailureLimits {
  /** failures of one username from one address */
  perPair: number
  /** failures from one address, whatever the usernames */
  perAddress: number
}

const fromAddress = (address: string | null) => sql`${loginFailures.address} IS ${address}`
const ofPair = (key: AttemptKey) => and(eq(loginFailures.usernameKey, key.usernameKey), fromAddress(key.address))

/**
 * Counts a sign-in attempt as a failure before its password is checked, unless a limit is
 * already reached inside the window: one statement, so parallel attempts (on any instance)
 * cannot all slip under the limits. Failures older than the window are purged first (by the
 * failed_at index), so nothing is kept for good. Returns the attempt's id (remove it when the
 * password turns out right), or null when a limit holds.
 */
export async function reserveAttempt(db: Queryable, key: AttemptKey, at: Date, windowStart: Date, limits: FailureLimits): Promise<number | null> {
  await db.delete(loginFailures).where(lte(loginFailures.failedAt, windowStart))
  const recent = (scope: SQL | undefined) => db.select({ n: count() }).from(loginFailures).where(and(scope, gt(loginFailures.failedAt, windowStart)))
  const [row] = await db
    .insert(loginFailures)
    .select(
      sql`SELECT NULL, ${key.usernameKey}, ${key.address}, ${at.getTime()}
          WHERE (${recent(ofPair(key))}) < ${limits.perPair} AND (${recent(fromAddress(key.address))}) < ${limits.perAddress}`,
    )
    .returning({ id: loginFailures.id })
  return row?.id ?? null
}

/**
 * The `limit`-th newest failure of the pair (or of the address alone) inside the window, or
 * null when there are fewer: the limit holds until that failure leaves the window.
 */
export async function limitingFailure(db: Queryable, scope: AttemptKey | { address: string | null }, since: Date, limit: number): Promise<Date | null> {
  const [row] = await db
    .select({ failedAt: loginFailures.failedAt })
    .from(loginFailures)
    .where(and('usernameKey' in scope ? ofPair(scope) : fromAddress(scope.address), gt(loginFailures.failedAt, since)))
    .orderBy(desc(loginFailures.failedAt))
    .limit(1)
    .offset(limit - 1)
  return row?.failedAt ?? null
}

export async function removeAttempt(db: Queryable, id: number): Promise<void> {
  await db.delete(loginFailures).where(eq(loginFailures.id, id))
}

/** A right password clears the failures of that username from that address only. */
export async function clearFailures(db: Queryable, key: AttemptKey): Promise<void> {
  await db.delete(loginFailures).where(ofPair(key))
}

/** Stores `value` under `key` unless one is there already; returns the value that is kept. */
export async function keepSetting(db: Queryable, key: string, value: string): Promise<string> {
  await db.insert(settings).values({ key, value }).onConflictDoNothing()
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, key))
  return row.value
}
