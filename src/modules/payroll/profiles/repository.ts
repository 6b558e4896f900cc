import { and, desc, eq, lte, sql } from 'drizzle-orm'
import { inIds } from '../../../db/batches'
import type { Queryable } from '../../../db/client'
import { payProfiles, paySettings } from '../../../db/schema'

export type ProfileRow = typeof payProfiles.$inferSelect
export type NewProfile = typeof payProfiles.$inferInsert
export type SettingsRow = typeof paySettings.$inferSelect
export type NewSettings = typeof paySettings.$inferInsert

/** Writes the employee's profile of that month, replacing one already there. */
export async function upsertProfile(db: Queryable, values: NewProfile): Promise<ProfileRow> {
  const { employeeId, effectiveMonth, createdAt, ...rest } = values
  const [row] = await db
    .insert(payProfiles)
    .values(values)
    .onConflictDoUpdate({ target: [payProfiles.employeeId, payProfiles.effectiveMonth], set: rest })
    .returning()
  return row
}

export function profilesOf(db: Queryable, employeeId: number): Promise<ProfileRow[]> {
  return db.select().from(payProfiles).where(eq(payProfiles.employeeId, employeeId)).orderBy(desc(payProfiles.effectiveMonth))
}

export async function findProfile(db: Queryable, id: number): Promise<ProfileRow | null> {
  const [row] = await db.select().from(payProfiles).where(eq(payProfiles.id, id)).limit(1)
  return row ?? null
}

/** Each employee's profile in effect in `month` (the latest whose effective month is not after it), in one query. */
export async function profilesInEffect(db: Queryable, employeeIds: number[], month: string): Promise<Map<number, ProfileRow>> {
  const found = new Map<number, ProfileRow>()
  if (employeeIds.length === 0) return found
  const latest = db
    .select({ employeeId: payProfiles.employeeId, month: sql<string>`max(${payProfiles.effectiveMonth})`.as('month') })
    .from(payProfiles)
    .where(and(inIds(payProfiles.employeeId, employeeIds), lte(payProfiles.effectiveMonth, month)))
    .groupBy(payProfiles.employeeId)
    .as('latest')
  const rows = await db
    .select({ profile: payProfiles })
    .from(payProfiles)
    .innerJoin(latest, and(eq(latest.employeeId, payProfiles.employeeId), eq(latest.month, payProfiles.effectiveMonth)))
  for (const { profile } of rows) found.set(profile.employeeId, profile)
  return found
}

export async function findSettings(db: Queryable, companyId: number): Promise<SettingsRow | null> {
  const [row] = await db.select().from(paySettings).where(eq(paySettings.companyId, companyId)).limit(1)
  return row ?? null
}

export async function upsertSettings(db: Queryable, values: NewSettings): Promise<SettingsRow> {
  const { companyId, createdAt, ...rest } = values
  const [row] = await db.insert(paySettings).values(values).onConflictDoUpdate({ target: paySettings.companyId, set: rest }).returning()
  return row
}
