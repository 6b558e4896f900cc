import { and, asc, count, eq, inArray, sql, type SQL } from 'drizzle-orm'
import type { Queryable } from '../../db/client'
import { attendanceCorrections, leaveRequests, users } from '../../db/schema'
import { inBatches } from '../../db/batches'
import { containsAny } from '../../db/search'
import type { PageWindow } from '../../http/pagination'

export type UserRow = typeof users.$inferSelect
export type NewUser = typeof users.$inferInsert

export async function findUserById(db: Queryable, id: number): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1)
  return row ?? null
}

/** Usernames are unique ignoring case; the lookup uses the lower(username) index. */
export async function findUserByUsername(db: Queryable, username: string): Promise<UserRow | null> {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.username}) = ${username.toLowerCase()}`)
    .limit(1)
  return row ?? null
}

export async function insertUser(db: Queryable, values: NewUser): Promise<UserRow> {
  const [row] = await db.insert(users).values(values).returning()
  return row
}

/** Inserts many users with few statements; each one's id by its username lower-cased (usernames are unique ignoring case). */
export async function insertUsers(db: Queryable, rows: NewUser[]): Promise<Map<string, number>> {
  const ids = new Map<string, number>()
  for (const batch of inBatches(rows, 11))
    for (const row of await db.insert(users).values(batch).returning({ id: users.id, username: users.username }))
      ids.set(row.username.toLowerCase(), row.id)
  return ids
}

/** Of `usernames`, those an account already has ignoring case, lower-cased; the lookup uses the lower(username) index. */
export async function takenUsernames(db: Queryable, usernames: string[]): Promise<Set<string>> {
  const taken = new Set<string>()
  const lowered = [...new Set(usernames.map((name) => name.toLowerCase()))]
  for (const batch of inBatches(lowered, 1))
    for (const row of await db.select({ username: users.username }).from(users).where(inArray(sql`lower(${users.username})`, batch)))
      taken.add(row.username.toLowerCase())
  return taken
}

export async function updateUser(db: Queryable, id: number, values: Partial<NewUser>): Promise<UserRow | null> {
  const [row] = await db.update(users).set(values).where(eq(users.id, id)).returning()
  return row ?? null
}

/** Ends every session of the user: access tokens with an older version stop working. */
export async function bumpTokenVersion(db: Queryable, id: number, at: Date): Promise<UserRow | null> {
  const [row] = await db
    .update(users)
    .set({ tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: at })
    .where(eq(users.id, id))
    .returning()
  return row ?? null
}

export async function deleteUser(db: Queryable, id: number): Promise<boolean> {
  // ON DELETE SET NULL by hand: SQLite cannot add it to the columns added later (migration 0012)
  await db.update(users).set({ createdBy: null }).where(eq(users.createdBy, id))
  await db.update(leaveRequests).set({ createdBy: null }).where(eq(leaveRequests.createdBy, id))
  await db.update(leaveRequests).set({ linkedUserId: null }).where(eq(leaveRequests.linkedUserId, id))
  await db.update(attendanceCorrections).set({ linkedUserId: null }).where(eq(attendanceCorrections.linkedUserId, id))
  const deleted = await db.delete(users).where(eq(users.id, id)).returning({ id: users.id })
  return deleted.length > 0
}

export async function listUsers(
  db: Queryable,
  filter: { search?: string; status?: number },
  window: PageWindow,
): Promise<{ rows: UserRow[]; total: number }> {
  const conditions: SQL[] = []
  if (filter.search?.trim()) conditions.push(containsAny(filter.search, [users.username, users.name, users.phone, users.email]))
  if (filter.status !== undefined) conditions.push(eq(users.status, filter.status))
  const where = conditions.length > 0 ? and(...conditions) : undefined
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(users).where(where).orderBy(asc(users.id)).limit(window.pageSize).offset(window.offset),
    db.select({ total: count() }).from(users).where(where),
  ])
  return { rows, total }
}
