import { and, count, desc, eq, exists, gt, isNull, lte, notExists, sql } from 'drizzle-orm'
import type { Queryable } from '../../db/client'
import { auditLogs, loginFailures, refreshTokens, settings, users } from '../../db/schema'

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
  /** an address is spraying once any one of these is reached inside the window */
  spraying: SprayingLimits
}

export interface SprayingLimits {
  /** failures from the address, whatever the usernames */
  failures: number
  /** distinct usernames with a failure from the address */
  usernames: number
  /** distinct usernames with a failure from the address that name no account */
  unknownUsernames: number
}

/** The throttle's time frames: failures count after `windowStart`; a sign-in after `knownSince` makes a username known at the address. */
export interface AttemptWindows {
  windowStart: Date
  knownSince: Date
}

const fromAddress = (address: string | null) => sql`${loginFailures.address} IS ${address}`
const ofPair = (key: AttemptKey) => and(eq(loginFailures.usernameKey, key.usernameKey), fromAddress(key.address))
const ofAddressSince = (address: string | null, since: Date) => and(fromAddress(address), gt(loginFailures.failedAt, since))

/** The failure's username names no account (lower(username) is the unique index users are found by). */
const namesNobody = (db: Queryable) =>
  notExists(db.select({ one: sql`1` }).from(users).where(sql`lower(${users.username}) = ${loginFailures.usernameKey}`))

/**
 * The username's account signed in from the address after `since`: the audit log's
 * `auth.login` entries carry the account and the client address, and are kept for good.
 */
const signedInFrom = (db: Queryable, key: AttemptKey, since: Date) =>
  db
    .select({ one: sql`1` })
    .from(auditLogs)
    .innerJoin(users, eq(users.id, auditLogs.actorId))
    .where(
      and(
        sql`lower(${users.username}) = ${key.usernameKey}`,
        eq(auditLogs.action, 'auth.login'),
        sql`${auditLogs.ip} IS ${key.address}`,
        gt(auditLogs.createdAt, since),
      ),
    )
    .limit(1)

/** True when the address has reached a spraying limit inside the window. */
const spraying = (db: Queryable, address: string | null, since: Date, limits: SprayingLimits) =>
  sql`(${db
    .select({
      reached: sql`count(*) >= ${limits.failures}
        OR count(DISTINCT ${loginFailures.usernameKey}) >= ${limits.usernames}
        OR count(DISTINCT CASE WHEN ${namesNobody(db)} THEN ${loginFailures.usernameKey} END) >= ${limits.unknownUsernames}`,
    })
    .from(loginFailures)
    .where(ofAddressSince(address, since))})`

/**
 * Counts a sign-in attempt as a failure before its password is checked, unless a limit
 * already holds inside the window: the pair's, or the address's spraying limits for a
 * username that has not signed in from that address before. One statement, so parallel
 * attempts (on any instance) cannot all slip under the limits. Failures older than the window
 * are purged first (by the failed_at index), so nothing is kept for good. Returns the
 * attempt's id (remove it when the password turns out right), or null when a limit holds.
 */
export async function reserveAttempt(db: Queryable, key: AttemptKey, at: Date, windows: AttemptWindows, limits: FailureLimits): Promise<number | null> {
  const { windowStart, knownSince } = windows
  await db.delete(loginFailures).where(lte(loginFailures.failedAt, windowStart))
  const pairFailures = db.select({ n: count() }).from(loginFailures).where(and(ofPair(key), gt(loginFailures.failedAt, windowStart)))
  const [row] = await db
    .insert(loginFailures)
    .select(
      sql`SELECT NULL, ${key.usernameKey}, ${key.address}, ${at.getTime()}
          WHERE (${pairFailures}) < ${limits.perPair}
            AND (NOT ${spraying(db, key.address, windowStart, limits.spraying)} OR ${exists(signedInFrom(db, key, knownSince))})`,
    )
    .returning({ id: loginFailures.id })
  return row?.id ?? null
}

/** The usernames (lower-cased) whose accounts signed in from the address after `since`: the ones its spraying limits never refuse. */
export async function usernamesSignedInFrom(db: Queryable, address: string | null, since: Date): Promise<string[]> {
  const username = sql<string>`lower(${users.username})`
  const rows = await db
    .selectDistinct({ username })
    .from(auditLogs)
    .innerJoin(users, eq(users.id, auditLogs.actorId))
    .where(and(eq(auditLogs.action, 'auth.login'), sql`${auditLogs.ip} IS ${address}`, gt(auditLogs.createdAt, since)))
  return rows.map((row) => row.username)
}

/**
 * The `limit`-th newest failure of the pair inside the window, or null when there are
 * fewer: the pair's limit holds until that failure leaves the window.
 */
export async function limitingPairFailure(db: Queryable, key: AttemptKey, since: Date, limit: number): Promise<Date | null> {
  const [row] = await db
    .select({ failedAt: loginFailures.failedAt })
    .from(loginFailures)
    .where(and(ofPair(key), gt(loginFailures.failedAt, since)))
    .orderBy(desc(loginFailures.failedAt))
    .limit(1)
    .offset(limit - 1)
  return row?.failedAt ?? null
}

/**
 * Why the address's spraying limits refuse this username: for each limit reached, the
 * failure whose leaving the window brings the address under it (for the username limits,
 * the last failure of the `limit`-th most recently failed username). Empty when none is
 * reached or the username signed in from the address before, so none refuses it.
 */
export async function limitingSprayFailures(db: Queryable, key: AttemptKey, windows: AttemptWindows, limits: SprayingLimits): Promise<Date[]> {
  const { windowStart, knownSince } = windows
  const [known] = await signedInFrom(db, key, knownSince)
  if (known) return []
  const inWindow = ofAddressSince(key.address, windowStart)
  const lastFailure = sql<number>`max(${loginFailures.failedAt})`
  const nthUsername = (limit: number, unknownOnly: boolean) =>
    db
      .select({ at: lastFailure })
      .from(loginFailures)
      .where(unknownOnly ? and(inWindow, namesNobody(db)) : inWindow)
      .groupBy(loginFailures.usernameKey)
      .orderBy(desc(lastFailure))
      .limit(1)
      .offset(limit - 1)
  const [failures, usernames, unknown] = await Promise.all([
    db.select({ at: loginFailures.failedAt }).from(loginFailures).where(inWindow).orderBy(desc(loginFailures.failedAt)).limit(1).offset(limits.failures - 1),
    nthUsername(limits.usernames, false),
    nthUsername(limits.unknownUsernames, true),
  ])
  return [failures[0]?.at, usernames[0] && new Date(Number(usernames[0].at)), unknown[0] && new Date(Number(unknown[0].at))].filter(
    (at): at is Date => at instanceof Date,
  )
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
