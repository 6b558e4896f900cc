import { and, asc, desc, eq, sql } from 'drizzle-orm'
import { inIds } from '../../../db/batches'
import type { Queryable } from '../../../db/client'
import { companies, payrollRuns, payslips, taxDeductions } from '../../../db/schema'
import type { TaxDeclaration } from '../compute/types'
import { runOfPayslip } from '../schemes/repository'

export type DeclarationRow = typeof taxDeductions.$inferSelect

/* Declarations of special additional deductions (CONTRACT §17), per employee and year. */

export function declarationsOfEmployee(db: Queryable, employeeId: number): Promise<DeclarationRow[]> {
  return db.select().from(taxDeductions).where(eq(taxDeductions.employeeId, employeeId)).orderBy(desc(taxDeductions.year))
}

export async function findDeclaration(db: Queryable, employeeId: number, year: number): Promise<DeclarationRow | null> {
  const [row] = await db.select().from(taxDeductions).where(and(eq(taxDeductions.employeeId, employeeId), eq(taxDeductions.year, year))).limit(1)
  return row ?? null
}

/** Writes the employee's declaration of the year, replacing one already there (keeping its id, which payslips name). */
export async function upsertDeclaration(db: Queryable, values: typeof taxDeductions.$inferInsert): Promise<DeclarationRow> {
  const { employeeId, year, createdAt, ...rest } = values
  const [row] = await db
    .insert(taxDeductions)
    .values(values)
    .onConflictDoUpdate({ target: [taxDeductions.employeeId, taxDeductions.year], set: rest })
    .returning()
  return row
}

export async function deleteDeclaration(db: Queryable, id: number): Promise<void> {
  await db.delete(taxDeductions).where(eq(taxDeductions.id, id))
}

/** A payslip counting the declaration (with its run), if any. */
export async function declarationUse(db: Queryable, id: number) {
  const [payslip] = await runOfPayslip(db, eq(payslips.taxDeductionId, id))
  return payslip ?? null
}

/** The monthly total of a declaration row, fen. */
export const monthlyTotal = (row: DeclarationRow): number =>
  row.childrenEducation + row.infantCare + row.continuingEducation + row.housingLoanInterest + row.housingRent + row.elderlySupport

/** The employees' declarations of a year, as the computation reads them. */
export async function declarationsOf(db: Queryable, employeeIds: number[], year: number): Promise<Map<number, TaxDeclaration>> {
  if (employeeIds.length === 0) return new Map()
  const rows = await db
    .select()
    .from(taxDeductions)
    .where(and(inIds(taxDeductions.employeeId, employeeIds), eq(taxDeductions.year, year)))
  return new Map(rows.map((row) => [row.employeeId, { id: row.id, fromMonth: row.fromMonth, monthlyTotal: monthlyTotal(row) }]))
}

/** An employee's approved payslips of a year with their run's company, by month then company. */
export function approvedOfYear(db: Queryable, employeeId: number, year: number) {
  return db
    .select({ payslip: payslips, companyId: payrollRuns.companyId, company: companies.name })
    .from(payslips)
    .innerJoin(payrollRuns, eq(payrollRuns.id, payslips.runId))
    .innerJoin(companies, eq(companies.id, payrollRuns.companyId))
    .where(and(eq(payslips.employeeId, employeeId), eq(payrollRuns.status, 'approved'), sql`substr(${payslips.month}, 1, 4) = ${String(year).padStart(4, '0')}`))
    .orderBy(asc(payslips.month), asc(payrollRuns.companyId))
}
