import { and, asc, count, eq, gt, isNull, lte, sql } from 'drizzle-orm'
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

/** Failed logins of a username key since `since`, oldest first. */
export async function recentFailures(db: Queryable, usernameKey: string, since: Date): Promise<Date[]> {
  const rows = await db
    .select({ failedAt: loginFailures.failedAt })
    .from(loginFailures)
    .where(and(eq(loginFailures.usernameKey, usernameKey), gt(loginFailures.failedAt, since)))
    .orderBy(asc(loginFailures.failedAt))
  return rows.map((row) => row.failedAt)
}

/**
 * Counts a sign-in attempt as a failure before its password is checked, unless `max` failures of the
 * key are already inside the window: one statement, so parallel attempts cannot all slip under the
 * limit. Returns the attempt's id (remove it when the password turns out right), or null when locked.
 */
export async function reserveAttempt(db: Queryable, usernameKey: string, at: Date, windowStart: Date, max: number): Promise<number | null> {
  const recent = db
    .select({ n: count() })
    .from(loginFailures)
    .where(and(eq(loginFailures.usernameKey, usernameKey), gt(loginFailures.failedAt, windowStart)))
  const [row] = await db
    .insert(loginFailures)
    .select(sql`SELECT NULL, ${usernameKey}, ${at.getTime()} WHERE (${recent}) < ${max}`)
    .returning({ id: loginFailures.id })
  if (!row) return null
  await db.delete(loginFailures).where(and(eq(loginFailures.usernameKey, usernameKey), lte(loginFailures.failedAt, windowStart)))
  return row.id
}

export async function removeAttempt(db: Queryable, id: number): Promise<void> {
  await db.delete(loginFailures).where(eq(loginFailures.id, id))
}

export async function clearFailures(db: Queryable, usernameKey: string): Promise<void> {
  await db.delete(loginFailures).where(eq(loginFailures.usernameKey, usernameKey))
}

/** Stores `value` under `key` unless one is there already; returns the value that is kept. */
export async function keepSetting(db: Queryable, key: string, value: string): Promise<string> {
  await db.insert(settings).values({ key, value }).onConflictDoNothing()
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, key))
  return row.value
}
