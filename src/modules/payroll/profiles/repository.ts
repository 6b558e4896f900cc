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

type ProfileTuple = [
  id: number,
  employeeId: number,
  effectiveMonth: string,
  basicSalary: number,
  seniorityPay: number,
  allowance: number,
  contributionBase: number,
  housingFundBase: number,
  schemeId: number | null,
  bankAccount: string | null,
  createdAt: number,
  updatedAt: number,
]

/**
 * Each employee's profile in effect in `month` (the latest whose effective month is not after it),
 * in one query, read as plain rows (a run asks this of its pages of 500; Drizzle's mapping of
 * them took as long as the query).
 */
export async function profilesInEffect(db: Queryable, employeeIds: number[], month: string): Promise<Map<number, ProfileRow>> {
  const found = new Map<number, ProfileRow>()
  if (employeeIds.length === 0) return found
  const p = payProfiles
  const rows = await db.values<ProfileTuple>(sql`
    SELECT ${p.id}, ${p.employeeId}, ${p.effectiveMonth}, ${p.basicSalary}, ${p.seniorityPay}, ${p.allowance}, ${p.contributionBase}, ${p.housingFundBase}, ${p.schemeId}, ${p.bankAccount}, ${p.createdAt}, ${p.updatedAt}
    FROM ${p}
    JOIN (
      SELECT employee_id, max(effective_month) AS month FROM ${p}
      WHERE ${and(inIds(p.employeeId, employeeIds), lte(p.effectiveMonth, month))}
      GROUP BY employee_id
    ) AS latest ON latest.employee_id = ${p.employeeId} AND latest.month = ${p.effectiveMonth}`)
  // by index: the client's rows are array-like, not iterable
  for (const row of rows)
    found.set(row[1], {
      id: row[0],
      employeeId: row[1],
      effectiveMonth: row[2],
      basicSalary: row[3],
      seniorityPay: row[4],
      allowance: row[5],
      contributionBase: row[6],
      housingFundBase: row[7],
      schemeId: row[8],
      bankAccount: row[9],
      createdAt: new Date(row[10]),
      updatedAt: new Date(row[11]),
    })
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
