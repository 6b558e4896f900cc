import { and, count, desc, eq, gte, inArray, lte, sql, type SQL } from 'drizzle-orm'
import type { Db, Queryable } from '../../db/client'
import { preparedQuery } from '../../db/prepared'
import { employees, salaries } from '../../db/schema'
import type { PageWindow } from '../../http/pagination'

export type SalaryRow = typeof salaries.$inferSelect
export type NewSalary = typeof salaries.$inferInsert
export type SalaryWithName = SalaryRow & { employeeName: string }

const withName = { salary: salaries, employeeName: employees.name }
const merge = (row: { salary: SalaryRow; employeeName: string | null }): SalaryWithName => ({
  ...row.salary,
  employeeName: row.employeeName ?? '',
})

export async function findSalary(db: Queryable, id: number): Promise<SalaryWithName | null> {
  const [row] = await db
    .select(withName)
    .from(salaries)
    .leftJoin(employees, eq(employees.id, salaries.employeeId))
    .where(eq(salaries.id, id))
    .limit(1)
  return row ? merge(row) : null
}

const salaryOfRows = preparedQuery((db) =>
  db
    .select(withName)
    .from(salaries)
    .leftJoin(employees, eq(employees.id, salaries.employeeId))
    .where(and(eq(salaries.employeeId, sql.placeholder('employeeId')), eq(salaries.month, sql.placeholder('month'))))
    .limit(1)
    .prepare(),
)

export async function findSalaryOf(db: Db, employeeId: number, month: string): Promise<SalaryWithName | null> {
  const [row] = await salaryOfRows(db).all({ employeeId, month })
  return row ? merge(row) : null
}

export async function insertSalary(db: Queryable, values: NewSalary): Promise<number> {
  const [row] = await db.insert(salaries).values(values).returning({ id: salaries.id })
  return row.id
}

export async function updateSalary(db: Queryable, id: number, values: Partial<NewSalary>): Promise<void> {
  await db.update(salaries).set(values).where(eq(salaries.id, id))
}

export async function deleteSalary(db: Queryable, id: number): Promise<void> {
  await db.delete(salaries).where(eq(salaries.id, id))
}

export async function statusesOf(db: Queryable, ids: number[]) {
  return db
    .select({ id: salaries.id, employeeId: salaries.employeeId, status: salaries.status, paymentDate: salaries.paymentDate })
    .from(salaries)
    .where(inArray(salaries.id, ids))
}

export async function setStatuses(db: Queryable, ids: number[], status: number, at: Date): Promise<void> {
  await db.update(salaries).set({ status, updatedAt: at }).where(inArray(salaries.id, ids))
}

export async function setPaymentDates(db: Queryable, ids: number[], paymentDate: string | null): Promise<void> {
  await db.update(salaries).set({ paymentDate }).where(inArray(salaries.id, ids))
}

export interface SalaryFilter {
  employeeId?: number
  month?: string
  status?: number
  startMonth?: string
  endMonth?: string
}

/** Newest month first. */
export async function listSalaries(db: Queryable, filter: SalaryFilter, window: PageWindow) {
  const conditions: SQL[] = []
  if (filter.employeeId !== undefined) conditions.push(eq(salaries.employeeId, filter.employeeId))
  if (filter.month) conditions.push(eq(salaries.month, filter.month))
  if (filter.status !== undefined) conditions.push(eq(salaries.status, filter.status))
  if (filter.startMonth) conditions.push(gte(salaries.month, filter.startMonth))
  if (filter.endMonth) conditions.push(lte(salaries.month, filter.endMonth))
  const where = conditions.length > 0 ? and(...conditions) : undefined
  const [rows, [{ total }]] = await Promise.all([
    db
      .select(withName)
      .from(salaries)
      .leftJoin(employees, eq(employees.id, salaries.employeeId))
      .where(where)
      .orderBy(desc(salaries.month), desc(salaries.id))
      .limit(window.pageSize)
      .offset(window.offset),
    db.select({ total: count() }).from(salaries).where(where),
  ])
  return { rows: rows.map(merge), total }
}

/** Aggregates of net salary (fen) over one month or all, from the (month, employee, net) index. */
export async function salaryStats(db: Queryable, month: string | undefined) {
  const [row] = await db
    .select({
      employees: sql<number>`count(DISTINCT ${salaries.employeeId})`,
      total: sql<number>`coalesce(sum(${salaries.netSalary}), 0)`,
      records: count(),
      max: sql<number>`coalesce(max(${salaries.netSalary}), 0)`,
      min: sql<number>`coalesce(min(${salaries.netSalary}), 0)`,
    })
    .from(salaries)
    .where(month ? eq(salaries.month, month) : undefined)
  return {
    employees: Number(row.employees),
    total: Number(row.total),
    records: Number(row.records),
    max: Number(row.max),
    min: Number(row.min),
  }
}

/** The employee's name and number, or null when there is no such employee. */
export async function findEmployee(db: Queryable, id: number): Promise<{ name: string; employeeNo: string | null } | null> {
  const [row] = await db.select({ name: employees.name, employeeNo: employees.employeeNo }).from(employees).where(eq(employees.id, id)).limit(1)
  return row ?? null
}
