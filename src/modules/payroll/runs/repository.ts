import { and, asc, desc, eq, gt, gte, inArray, isNotNull, isNull, lt, lte, or, sql, type SQL } from 'drizzle-orm'
import { inIds } from '../../../db/batches'
import type { Queryable } from '../../../db/client'
import {
  attendanceCorrections,
  attendanceGroupMembers,
  attendanceGroups,
  attendanceRecords,
  calendarDays,
  companies,
  employees,
  leaveRequests,
  leaveTypes,
  payrollRuns,
  payslips,
  salaries,
  users,
} from '../../../db/schema'
import type { Membership } from '../../attendance/setup/repository'
import { approvedTouching, spanColumns } from '../../leave/repository'
import type { PayCalendar, PayLeave, PayRecord } from '../compute/types'

export type RunRow = typeof payrollRuns.$inferSelect
export type PayslipRow = typeof payslips.$inferSelect
export type NewPayslip = typeof payslips.$inferInsert

export async function insertRun(db: Queryable, values: typeof payrollRuns.$inferInsert): Promise<RunRow> {
  const [row] = await db.insert(payrollRuns).values(values).returning()
  return row
}

/** A run with its company's name and its approver's username. */
export async function findRun(db: Queryable, id: number) {
  const [row] = await db
    .select({ run: payrollRuns, company: companies.name, approver: users.username })
    .from(payrollRuns)
    .innerJoin(companies, eq(companies.id, payrollRuns.companyId))
    .leftJoin(users, eq(users.id, payrollRuns.approvedBy))
    .where(eq(payrollRuns.id, id))
    .limit(1)
  return row ?? null
}
export type RunWithNames = NonNullable<Awaited<ReturnType<typeof findRun>>>

export async function findRunOf(db: Queryable, companyId: number, month: string): Promise<RunRow | null> {
  const [row] = await db.select().from(payrollRuns).where(and(eq(payrollRuns.companyId, companyId), eq(payrollRuns.month, month))).limit(1)
  return row ?? null
}

export function listRuns(db: Queryable, filter: { companyId?: number; year?: number; status?: 'draft' | 'approved' }) {
  const conditions: SQL[] = []
  if (filter.companyId !== undefined) conditions.push(eq(payrollRuns.companyId, filter.companyId))
  if (filter.year !== undefined) conditions.push(sql`substr(${payrollRuns.month}, 1, 4) = ${String(filter.year).padStart(4, '0')}`)
  if (filter.status !== undefined) conditions.push(eq(payrollRuns.status, filter.status))
  return db
    .select({ run: payrollRuns, company: companies.name, approver: users.username })
    .from(payrollRuns)
    .innerJoin(companies, eq(companies.id, payrollRuns.companyId))
    .leftJoin(users, eq(users.id, payrollRuns.approvedBy))
    .where(conditions.length > 0 ? and(...conditions) : undefined)
    .orderBy(desc(payrollRuns.month), asc(payrollRuns.companyId))
}

/** The totals of a run's payslips, in fen. */
export async function runTotals(db: Queryable, runIds: number[]) {
  if (runIds.length === 0) return new Map<number, RunTotals>()
  const p = payslips
  const rows = await db
    .select({
      runId: p.runId,
      gross: sql<number>`coalesce(sum(${p.gross}), 0)`,
      deductions: sql<number>`coalesce(sum(${p.deductions}), 0)`,
      employee: sql<number>`coalesce(sum(${p.personalInsurance} + ${p.housingFund}), 0)`,
      employer: sql<number>`coalesce(sum(${p.employerContributions}), 0)`,
      tax: sql<number>`coalesce(sum(${p.personalTax}), 0)`,
      net: sql<number>`coalesce(sum(${p.net}), 0)`,
      headCount: sql<number>`count(*)`,
    })
    .from(p)
    .where(inArray(p.runId, runIds))
    .groupBy(p.runId)
  return new Map(rows.map((row) => [row.runId, row]))
}
export type RunTotals = { gross: number; deductions: number; employee: number; employer: number; tax: number; net: number; headCount: number }

/** A run's payslips with their employees' names and numbers, by employee number then id. */
export function payslipsOf(db: Queryable, runId: number, employeeId?: number) {
  return db
    .select({ payslip: payslips, name: employees.name, employeeNo: employees.employeeNo })
    .from(payslips)
    .innerJoin(employees, eq(employees.id, payslips.employeeId))
    .where(and(eq(payslips.runId, runId), employeeId === undefined ? undefined : eq(payslips.employeeId, employeeId)))
    .orderBy(asc(payslips.employeeId))
}
export type PayslipWithEmployee = Awaited<ReturnType<typeof payslipsOf>>[number]

export async function findPayslip(db: Queryable, runId: number, id: number): Promise<PayslipWithEmployee | null> {
  const [row] = await db
    .select({ payslip: payslips, name: employees.name, employeeNo: employees.employeeNo })
    .from(payslips)
    .innerJoin(employees, eq(employees.id, payslips.employeeId))
    .where(and(eq(payslips.runId, runId), eq(payslips.id, id)))
    .limit(1)
  return row ?? null
}

/** An employee's approved payslips, newest month first, optionally of one year or one month. */
export function approvedPayslipsOf(db: Queryable, employeeId: number, filter: { year?: number; month?: string }) {
  return db
    .select({ payslip: payslips, name: employees.name, employeeNo: employees.employeeNo })
    .from(payslips)
    .innerJoin(payrollRuns, eq(payrollRuns.id, payslips.runId))
    .innerJoin(employees, eq(employees.id, payslips.employeeId))
    .where(
      and(
        eq(payslips.employeeId, employeeId),
        eq(payrollRuns.status, 'approved'),
        filter.month === undefined ? undefined : eq(payslips.month, filter.month),
        filter.year === undefined ? undefined : sql`substr(${payslips.month}, 1, 4) = ${String(filter.year).padStart(4, '0')}`,
      ),
    )
    .orderBy(desc(payslips.month))
}

/** An employee a run pays, with what their attendance context needs (attendance/caller.ts `contextFrom`). */
export type RunEmployee = Membership & { id: number; name: string; employeeNo: string | null }

type EmployeeTuple = [id: number, name: string, employeeNo: string | null, hireDate: string | null, leftOn: string | null, status: number, groupId: number | null, zone: string | null, startsOn: string | null]

/**
 * A page of the employees a company's run of [first, last] pays, after the id `after`: of the
 * company, hired by the last day (or with no hire date), not left before the first day, and
 * active or with a leaving date (someone marked as left without one is not paid). Read as plain
 * rows (Drizzle's mapping of the joined group row for each employee took as long as the query),
 * the page's few groups in a query of their own.
 */
export async function runEmployees(db: Queryable, companyId: number, first: string, last: string, after: number, limit: number, only?: number[]): Promise<RunEmployee[]> {
  const e = employees
  const rows = await db.values<EmployeeTuple>(sql`
    SELECT ${e.id}, ${e.name}, ${e.employeeNo}, ${e.hireDate}, ${e.leftOn}, ${e.status}, ${attendanceGroups.id}, ${companies.timezone}, ${companies.attendanceStartsOn}
    FROM ${e}
    LEFT JOIN ${attendanceGroupMembers} ON ${attendanceGroupMembers.employeeId} = ${e.id}
    LEFT JOIN ${attendanceGroups} ON ${attendanceGroups.id} = ${attendanceGroupMembers.groupId}
    LEFT JOIN ${companies} ON ${companies.id} = ${attendanceGroups.companyId}
    WHERE ${and(
      eq(e.companyId, companyId),
      gt(e.id, after),
      only === undefined ? undefined : inIds(e.id, only),
      or(isNull(e.hireDate), lte(e.hireDate, last)),
      or(isNull(e.leftOn), gte(e.leftOn, first)),
      or(eq(e.status, 1), isNotNull(e.leftOn)),
    )}
    ORDER BY ${e.id}
    LIMIT ${limit}`)
  const groupIds = [...new Set(rows.map((row) => row[6]).filter((id) => id !== null))]
  const groups = new Map((groupIds.length === 0 ? [] : await db.select().from(attendanceGroups).where(inIds(attendanceGroups.id, groupIds))).map((group) => [group.id, group]))
  // by index: the client's rows are array-like, not iterable
  return rows.map((row) => ({
    id: row[0],
    name: row[1],
    employeeNo: row[2],
    hireDate: row[3],
    leftOn: row[4],
    status: row[5],
    group: row[6] === null ? null : groups.get(row[6])!,
    companyTimezone: row[7],
    companyStartsOn: row[8],
  }))
}

const NO_CORRECTIONS: readonly number[] = Object.freeze([])
const byWorkDate = (a: PayRecord, b: PayRecord) => (a.workDate < b.workDate ? -1 : a.workDate > b.workDate ? 1 : 0)

type RecordTuple = [id: number, workDate: string, status: number, clockedIn: 0 | 1, lateMinutes: number, earlyMinutes: number, workMinutes: number, overtimeMinutes: number]

/** The employees' records of [first, last] with their ids and the approved corrections behind them: one row per employee (see exports/repository `recordsOf`). */
export async function payRecordsOf(db: Queryable, employeeIds: number[], first: string, last: string): Promise<Map<number, PayRecord[]>> {
  const found = new Map<number, PayRecord[]>()
  if (employeeIds.length === 0) return found
  const r = attendanceRecords
  const [rows, corrections] = await Promise.all([
    db
      .select({
        employeeId: r.employeeId,
        records: sql<string>`json_group_array(json_array(${r.id}, ${r.workDate}, ${r.status}, ${r.clockInTime} IS NOT NULL, ${r.lateMinutes}, ${r.earlyMinutes}, ${r.workMinutes}, ${r.overtimeMinutes}))`,
      })
      .from(r)
      .where(and(inIds(r.employeeId, employeeIds), gte(r.workDate, first), lte(r.workDate, last)))
      .groupBy(r.employeeId),
    db
      .select({ id: attendanceCorrections.id, employeeId: attendanceCorrections.employeeId, workDate: attendanceCorrections.workDate })
      .from(attendanceCorrections)
      .where(
        and(
          inIds(attendanceCorrections.employeeId, employeeIds),
          eq(attendanceCorrections.status, 'approved'),
          gte(attendanceCorrections.workDate, first),
          lte(attendanceCorrections.workDate, last),
        ),
      )
      .orderBy(asc(attendanceCorrections.id)),
  ])
  const correctionsOf = new Map<string, number[]>()
  for (const c of corrections) {
    const key = `${c.employeeId} ${c.workDate}`
    correctionsOf.set(key, [...(correctionsOf.get(key) ?? []), c.id])
  }
  for (const row of rows)
    found.set(
      row.employeeId,
      (JSON.parse(row.records) as RecordTuple[])
        .map(([id, workDate, status, clockedIn, lateMinutes, earlyMinutes, workMinutes, overtimeMinutes]) => ({
          id,
          workDate,
          status,
          clockedIn: clockedIn === 1,
          lateMinutes,
          earlyMinutes,
          workMinutes,
          overtimeMinutes,
          correctionIds: corrections.length === 0 ? NO_CORRECTIONS : (correctionsOf.get(`${row.employeeId} ${workDate}`) ?? NO_CORRECTIONS),
        }))
        .sort(byWorkDate),
    )
  return found
}

/** The employees' approved leave touching [first, last], with ids and whether the type is paid. */
export async function payLeaveOf(db: Queryable, employeeIds: number[], first: string, last: string): Promise<Map<number, PayLeave[]>> {
  const found = new Map<number, PayLeave[]>()
  if (employeeIds.length === 0) return found
  const rows = await db
    .select({ id: leaveRequests.id, employeeId: leaveRequests.employeeId, ...spanColumns, paid: leaveTypes.paid })
    .from(leaveRequests)
    .innerJoin(leaveTypes, eq(leaveTypes.id, leaveRequests.typeId))
    .where(and(inIds(leaveRequests.employeeId, employeeIds), approvedTouching(first, last)))
    .orderBy(asc(leaveRequests.id))
  for (const { employeeId, ...leave } of rows) found.set(employeeId, [...(found.get(employeeId) ?? []), leave])
  return found
}

/** A company's calendar days of [first, last] with their ids and statutory marks. */
export async function payCalendarOf(db: Queryable, companyId: number, first: string, last: string): Promise<PayCalendar> {
  const rows = await db
    .select({ id: calendarDays.id, date: calendarDays.date, kind: calendarDays.kind, name: calendarDays.name, statutory: calendarDays.statutory })
    .from(calendarDays)
    .where(and(eq(calendarDays.companyId, companyId), gte(calendarDays.date, first), lte(calendarDays.date, last)))
  return new Map(rows.map(({ date, ...day }) => [date, day]))
}

/** The approved payslips of the employees at this company in [firstMonth, before) — the year so far, and what adjustments compare against. */
export function approvedPayslipsBetween(db: Queryable, companyId: number, employeeIds: number[], firstMonth: string, beforeMonth: string) {
  if (employeeIds.length === 0) return Promise.resolve([])
  return db
    .select({ payslip: payslips })
    .from(payslips)
    .innerJoin(payrollRuns, eq(payrollRuns.id, payslips.runId))
    .where(
      and(
        eq(payrollRuns.companyId, companyId),
        eq(payrollRuns.status, 'approved'),
        inIds(payslips.employeeId, employeeIds),
        gte(payslips.month, firstMonth),
        lt(payslips.month, beforeMonth),
      ),
    )
    .orderBy(asc(payslips.month))
}

/**
 * A payslip's columns but its run's and times, as its write binds them: lines and facts already
 * JSON text. A run keeps its computed pages so until it writes them (strings, not some 150
 * objects a payslip for the collector to trace).
 */
export type PayslipValues = Omit<NewPayslip, 'id' | 'runId' | 'createdAt' | 'updatedAt' | 'lines' | 'facts' | 'schemeId' | 'taxDeductionId'> & {
  lines: string
  facts: string
  /** bound as given: null when none, never left out (a parameter must have a value) */
  schemeId: number | null
  taxDeductionId: number | null
}

/** A payslip's columns but its run's and times, with their keys in `PayslipValues`. */
const PAGE_COLUMNS = [
  ['employee_id', 'employeeId'],
  ['month', 'month'],
  ['profile_id', 'profileId'],
  ['gross', 'gross'],
  ['base_gross', 'baseGross'],
  ['deductions', 'deductions'],
  ['net', 'net'],
  ['personal_insurance', 'personalInsurance'],
  ['housing_fund', 'housingFund'],
  ['special_deductions', 'specialDeductions'],
  ['personal_tax', 'personalTax'],
  ['employer_contributions', 'employerContributions'],
  ['scheme_id', 'schemeId'],
  ['tax_deduction_id', 'taxDeductionId'],
  ['lines', 'lines'],
  ['facts', 'facts'],
  ['performance_pay', 'performancePay'],
  ['bonus', 'bonus'],
  ['other_income', 'otherIncome'],
  ['other_deductions', 'otherDeductions'],
  ['note', 'note'],
] as const satisfies readonly (readonly [string, keyof PayslipValues])[]

/** Rows per INSERT: one statement (and one trip through Drizzle, the guard and the pool) for this many payslips; 27 parameters a row. */
const ROWS_PER_INSERT = 50

/** Each row's parameter names by column (`gross7`), made once: a run of 5,500 payslips binds some 140,000 parameters. */
const PARAMETER_NAMES = Array.from({ length: ROWS_PER_INSERT }, (_, row) => PAGE_COLUMNS.map(([, key]) => `${key}${row}`))

const updates = Object.fromEntries(PAGE_COLUMNS.filter(([column]) => column !== 'employee_id').map(([column, key]) => [key, sql.raw(`excluded.${column}`)]))

/** The INSERT of `count` payslips, its parameters named by column and row (`gross7`); lines and facts bound as the text they are (a bare placeholder, not the JSON column's, which would encode them again). */
function insertOf(db: Queryable, count: number) {
  const rows = Array.from({ length: count }, (_, row) => ({
    ...Object.fromEntries(PAGE_COLUMNS.map(([, key]) => [key, key === 'lines' || key === 'facts' ? sql`${sql.placeholder(`${key}${row}`)}` : sql.placeholder(`${key}${row}`)])),
    runId: sql.placeholder('runId'),
    createdAt: sql.placeholder('at'),
    updatedAt: sql.placeholder('at'),
  }))
  return db
    .insert(payslips)
    .values(rows as unknown as NewPayslip[])
    .onConflictDoUpdate({ target: [payslips.runId, payslips.employeeId], set: { ...updates, updatedAt: sql.raw('excluded.updated_at') } })
    .prepare()
}

/**
 * Writes a run's payslips, `ROWS_PER_INSERT` to a statement prepared once for the write. An
 * employee's payslip already in the run keeps its id and creation time (links to it stay good);
 * with `all`, the run's payslips of anyone else are deleted (a recomputation's whole set).
 */
export async function writePayslips(db: Queryable, runId: number, rows: readonly PayslipValues[], at: Date, all?: readonly number[]): Promise<void> {
  // one statement for the full chunks, one for the rest
  const statements = new Map<number, ReturnType<typeof insertOf>>()
  for (let first = 0; first < rows.length; first += ROWS_PER_INSERT) {
    const chunk = rows.slice(first, first + ROWS_PER_INSERT)
    const params: Record<string, unknown> = { runId, at }
    chunk.forEach((row, i) => {
      const names = PARAMETER_NAMES[i]
      for (let column = 0; column < PAGE_COLUMNS.length; column++) params[names[column]] = row[PAGE_COLUMNS[column][1]]
    })
    let statement = statements.get(chunk.length)
    if (!statement) statements.set(chunk.length, (statement = insertOf(db, chunk.length)))
    await statement.run(params)
  }
  if (all !== undefined) await db.run(sql`DELETE FROM payslips WHERE run_id = ${runId} AND NOT ${inIds(payslips.employeeId, all)}`)
}

/** Locks a draft run; false when it was no longer a draft (another approval got there first). */
export async function approveRun(db: Queryable, id: number, by: number | null, at: Date): Promise<boolean> {
  const rows = await db
    .update(payrollRuns)
    .set({ status: 'approved', approvedBy: by, approvedAt: at, updatedAt: at })
    .where(and(eq(payrollRuns.id, id), eq(payrollRuns.status, 'draft')))
    .returning({ id: payrollRuns.id })
  return rows.length > 0
}

export async function touchRun(db: Queryable, id: number, at: Date, settings: unknown): Promise<void> {
  await db.update(payrollRuns).set({ computedAt: at, updatedAt: at, settings }).where(eq(payrollRuns.id, id))
}

export async function deleteRun(db: Queryable, id: number): Promise<boolean> {
  const rows = await db.delete(payrollRuns).where(and(eq(payrollRuns.id, id), eq(payrollRuns.status, 'draft'))).returning({ id: payrollRuns.id })
  return rows.length > 0
}

/** The salary records of the employees for the month (to refuse ones no run wrote, and to replace ones a run wrote). */
export function salariesOf(db: Queryable, employeeIds: number[], month: string) {
  if (employeeIds.length === 0) return Promise.resolve([])
  return db
    .select({ id: salaries.id, employeeId: salaries.employeeId, payrollRunId: salaries.payrollRunId })
    .from(salaries)
    .where(and(inIds(salaries.employeeId, employeeIds), eq(salaries.month, month)))
}

export async function insertSalaries(db: Queryable, rows: (typeof salaries.$inferInsert)[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 50) await db.insert(salaries).values(rows.slice(i, i + 50))
}
