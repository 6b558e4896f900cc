import { and, asc, desc, eq, inArray, type SQL } from 'drizzle-orm'
import { inIds } from '../../../db/batches'
import type { Queryable } from '../../../db/client'
import { companies, contributionSchemeItems, contributionSchemes, employees, payProfiles, payrollRuns, payslips } from '../../../db/schema'
import { ITEM_CODES, type ContributionScheme } from '../compute/types'

export type SchemeRow = typeof contributionSchemes.$inferSelect
export type ItemRow = typeof contributionSchemeItems.$inferSelect
export type SchemeWithItems = SchemeRow & { items: ItemRow[] }

const byCode = (a: ItemRow, b: ItemRow) => ITEM_CODES.indexOf(a.code) - ITEM_CODES.indexOf(b.code)

/** Schemes with their items (in ITEM_CODES order), by name then newest effective month first; or the ones with these ids. */
export async function schemesWithItems(db: Queryable, ids?: number[]): Promise<SchemeWithItems[]> {
  const schemes = await db
    .select()
    .from(contributionSchemes)
    .where(ids === undefined ? undefined : inIds(contributionSchemes.id, ids))
    .orderBy(asc(contributionSchemes.name), desc(contributionSchemes.effectiveFrom))
  if (schemes.length === 0) return []
  const items = await db
    .select()
    .from(contributionSchemeItems)
    .where(inArray(contributionSchemeItems.schemeId, schemes.map((scheme) => scheme.id)))
  return schemes.map((scheme) => ({ ...scheme, items: items.filter((item) => item.schemeId === scheme.id).sort(byCode) }))
}

export async function findScheme(db: Queryable, id: number): Promise<SchemeWithItems | null> {
  const [found] = await schemesWithItems(db, [id])
  return found ?? null
}

/** Every scheme as the computation reads it: a run's few dozen at most. */
export async function computeSchemes(db: Queryable): Promise<ContributionScheme[]> {
  return (await schemesWithItems(db)).map(({ id, name, effectiveFrom, items }) => ({
    id,
    name,
    effectiveFrom,
    items: items.map(({ code, employeeRate, employerRate, baseMin, baseMax, employeeFixed }) => ({ code, employeeRate, employerRate, baseMin, baseMax, employeeFixed })),
  }))
}

/** The id of the scheme of this name from this month, if any (what a 409 names). */
export async function schemeIdOf(db: Queryable, name: string, effectiveFrom: string): Promise<number | null> {
  const [row] = await db
    .select({ id: contributionSchemes.id })
    .from(contributionSchemes)
    .where(and(eq(contributionSchemes.name, name), eq(contributionSchemes.effectiveFrom, effectiveFrom)))
    .limit(1)
  return row?.id ?? null
}

export async function insertScheme(db: Queryable, values: typeof contributionSchemes.$inferInsert): Promise<SchemeRow> {
  const [row] = await db.insert(contributionSchemes).values(values).returning()
  return row
}

export async function updateScheme(db: Queryable, id: number, values: Partial<typeof contributionSchemes.$inferInsert>): Promise<void> {
  await db.update(contributionSchemes).set(values).where(eq(contributionSchemes.id, id))
}

/** Replaces a scheme's items. */
export async function replaceItems(db: Queryable, schemeId: number, items: Omit<typeof contributionSchemeItems.$inferInsert, 'schemeId'>[]): Promise<void> {
  await db.delete(contributionSchemeItems).where(eq(contributionSchemeItems.schemeId, schemeId))
  if (items.length > 0) await db.insert(contributionSchemeItems).values(items.map((item) => ({ ...item, schemeId })))
}

export async function deleteScheme(db: Queryable, id: number): Promise<void> {
  await db.delete(contributionSchemes).where(eq(contributionSchemes.id, id))
}

/** The run (and its company and month) of the first payslip matching `where`. */
export function runOfPayslip(db: Queryable, where: SQL) {
  return db
    .select({ runId: payslips.runId, month: payrollRuns.month, company: companies.name })
    .from(payslips)
    .innerJoin(payrollRuns, eq(payrollRuns.id, payslips.runId))
    .innerJoin(companies, eq(companies.id, payrollRuns.companyId))
    .where(where)
    .limit(1)
}

/** What keeps a scheme: a pay profile naming it, or a payslip computed with it (with its run). */
export async function schemeUses(db: Queryable, id: number) {
  const [profile] = await db
    .select({ name: employees.name, employeeNo: employees.employeeNo, effectiveMonth: payProfiles.effectiveMonth })
    .from(payProfiles)
    .innerJoin(employees, eq(employees.id, payProfiles.employeeId))
    .where(eq(payProfiles.schemeId, id))
    .limit(1)
  const [payslip] = await runOfPayslip(db, eq(payslips.schemeId, id))
  return { profile: profile ?? null, payslip: payslip ?? null }
}
