import { and, count, desc, eq, gte, inArray, isNotNull, isNull, lt, lte, ne, sql, type SQL } from 'drizzle-orm'
import type { Db, Queryable } from '../../db/client'
import { preparedQuery } from '../../db/prepared'
import { attendanceAttempts, attendanceGroupMembers, attendanceRecords, employees } from '../../db/schema'
import type { PageWindow } from '../../http/pagination'

export type RecordRow = typeof attendanceRecords.$inferSelect
export type NewRecord = typeof attendanceRecords.$inferInsert
export type RecordWithEmployee = RecordRow & { employee: { id: number; name: string; phone: string | null } | null }

const withEmployee = { record: attendanceRecords, name: employees.name, phone: employees.phone }

/** Records of the employees now in the group. */
const ofGroupMembers = (groupId: number) =>
  inArray(
    attendanceRecords.employeeId,
    sql`(SELECT ${attendanceGroupMembers.employeeId} FROM ${attendanceGroupMembers} WHERE ${attendanceGroupMembers.groupId} = ${groupId})`,
  )

function merge(row: { record: RecordRow; name: string | null; phone: string | null }): RecordWithEmployee {
  const { record, name, phone } = row
  return { ...record, employee: name === null ? null : { id: record.employeeId, name, phone } }
}

/** The columns a clock-in writes; every other column takes its default. */
const CLOCK_IN_COLUMNS = [
  'employeeId',
  'ruleId',
  'workDate',
  'timezone',
  'clockInTime',
  'clockInLat',
  'clockInLng',
  'status',
  'lateMinutes',
  'note',
  'createdAt',
  'updatedAt',
] as const satisfies readonly (keyof NewRecord)[]

export type ClockInRecord = Pick<NewRecord, (typeof CLOCK_IN_COLUMNS)[number]>

const clockInInsert = preparedQuery((db) =>
  db
    .insert(attendanceRecords)
    .values(Object.fromEntries(CLOCK_IN_COLUMNS.map((column) => [column, sql.placeholder(column)])) as unknown as NewRecord)
    .returning()
    .prepare(),
)

/** The record a clock-in opens (prepared once: clocking in is the morning's hot path). */
export async function insertClockIn(db: Db, values: ClockInRecord): Promise<RecordRow> {
  const [row] = await clockInInsert(db).all(values)
  return row
}

export async function findRecord(db: Queryable, id: number): Promise<RecordWithEmployee | null> {
  const [row] = await db
    .select(withEmployee)
    .from(attendanceRecords)
    .leftJoin(employees, eq(employees.id, attendanceRecords.employeeId))
    .where(eq(attendanceRecords.id, id))
    .limit(1)
  return row ? merge(row) : null
}

const recordOnRows = preparedQuery((db) =>
  db
    .select(withEmployee)
    .from(attendanceRecords)
    .leftJoin(employees, eq(employees.id, attendanceRecords.employeeId))
    .where(
      and(eq(attendanceRecords.employeeId, sql.placeholder('employeeId')), eq(attendanceRecords.workDate, sql.placeholder('workDate'))),
    )
    .limit(1)
    .prepare(),
)

export async function findRecordOn(db: Db, employeeId: number, workDate: string): Promise<RecordWithEmployee | null> {
  const [row] = await recordOnRows(db).all({ employeeId, workDate })
  return row ? merge(row) : null
}

/** Sets the clock-out of a record that has none yet; false when another clock-out got there first. */
export async function closeRecord(db: Queryable, id: number, values: Partial<NewRecord>): Promise<boolean> {
  const rows = await db
    .update(attendanceRecords)
    .set(values)
    .where(and(eq(attendanceRecords.id, id), isNull(attendanceRecords.clockOutTime)))
    .returning({ id: attendanceRecords.id })
  return rows.length > 0
}

export interface RecordFilter {
  employeeId?: number
  groupId?: number
  startDate?: string
  endDate?: string
  status?: number
}

function recordConditions(filter: RecordFilter): SQL | undefined {
  const conditions: SQL[] = []
  if (filter.employeeId !== undefined) conditions.push(eq(attendanceRecords.employeeId, filter.employeeId))
  if (filter.groupId !== undefined) conditions.push(ofGroupMembers(filter.groupId))
  if (filter.startDate) conditions.push(gte(attendanceRecords.workDate, filter.startDate))
  if (filter.endDate) conditions.push(lte(attendanceRecords.workDate, filter.endDate))
  if (filter.status !== undefined) conditions.push(eq(attendanceRecords.status, filter.status))
  return conditions.length > 0 ? and(...conditions) : undefined
}

/** Newest work date first. */
export async function listRecords(db: Queryable, filter: RecordFilter, window: PageWindow) {
  const where = recordConditions(filter)
  const [rows, [{ total }]] = await Promise.all([
    db
      .select(withEmployee)
      .from(attendanceRecords)
      .leftJoin(employees, eq(employees.id, attendanceRecords.employeeId))
      .where(where)
      .orderBy(desc(attendanceRecords.workDate), desc(attendanceRecords.id))
      .limit(window.pageSize)
      .offset(window.offset),
    db.select({ total: count() }).from(attendanceRecords).where(where),
  ])
  return { rows: rows.map(merge), total }
}

export async function recentRecords(db: Queryable, employeeId: number, limit: number): Promise<RecordRow[]> {
  return db
    .select()
    .from(attendanceRecords)
    .where(eq(attendanceRecords.employeeId, employeeId))
    .orderBy(desc(attendanceRecords.workDate))
    .limit(limit)
}

export interface MonthTotals {
  month: string
  records: number
  attendanceDays: number
  lateDays: number
  earlyDays: number
  absentDays: number
  exceptionDays: number
  workMinutes: number
  lateMinutes: number
  earlyMinutes: number
  /** records on days from `since` to before `today` whose ISO weekday is one of the work days */
  pastWorkDayRecords: number
}

/**
 * One employee's totals per month over [start, end], by SQL aggregates over the
 * (employee_id, work_date) index; never loads the records.
 */
export async function monthlyTotals(
  db: Queryable,
  employeeId: number,
  start: string,
  end: string,
  since: string,
  today: string,
  workDays: number[],
): Promise<MonthTotals[]> {
  const weekday = sql`((CAST(strftime('%w', ${attendanceRecords.workDate}) AS INTEGER) + 6) % 7 + 1)`
  const onPastWorkDay =
    workDays.length === 0
      ? sql`0`
      : sql`${attendanceRecords.workDate} >= ${since} AND ${attendanceRecords.workDate} < ${today} AND ${weekday} IN (${sql.join(
          workDays.map((day) => sql`${day}`),
          sql`, `,
        )})`
  return db
    .select({
      month: sql<string>`substr(${attendanceRecords.workDate}, 1, 7)`,
      records: count(),
      attendanceDays: sql<number>`count(${attendanceRecords.clockInTime})`,
      lateDays: sql<number>`coalesce(sum(${attendanceRecords.status} = 1 OR ${attendanceRecords.lateMinutes} > 0), 0)`,
      earlyDays: sql<number>`coalesce(sum(${attendanceRecords.earlyMinutes} > 0), 0)`,
      absentDays: sql<number>`coalesce(sum(${attendanceRecords.status} = 3), 0)`,
      exceptionDays: sql<number>`coalesce(sum(${attendanceRecords.status} = 4), 0)`,
      workMinutes: sql<number>`coalesce(sum(${attendanceRecords.workMinutes}), 0)`,
      lateMinutes: sql<number>`coalesce(sum(${attendanceRecords.lateMinutes}), 0)`,
      earlyMinutes: sql<number>`coalesce(sum(${attendanceRecords.earlyMinutes}), 0)`,
      pastWorkDayRecords: sql<number>`coalesce(sum(${onPastWorkDay}), 0)`,
    })
    .from(attendanceRecords)
    .where(and(eq(attendanceRecords.employeeId, employeeId), gte(attendanceRecords.workDate, start), lte(attendanceRecords.workDate, end)))
    .groupBy(sql`substr(${attendanceRecords.workDate}, 1, 7)`)
}

export async function insertAttempt(db: Queryable, values: typeof attendanceAttempts.$inferInsert): Promise<void> {
  await db.insert(attendanceAttempts).values(values)
}

export async function listAttempts(db: Queryable, filter: { employeeId?: number; from?: Date; until?: Date }, window: PageWindow) {
  const conditions: SQL[] = []
  if (filter.employeeId !== undefined) conditions.push(eq(attendanceAttempts.employeeId, filter.employeeId))
  if (filter.from) conditions.push(gte(attendanceAttempts.attemptedAt, filter.from))
  if (filter.until) conditions.push(lt(attendanceAttempts.attemptedAt, filter.until))
  const where = conditions.length > 0 ? and(...conditions) : undefined
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({ attempt: attendanceAttempts, name: employees.name, phone: employees.phone })
      .from(attendanceAttempts)
      .leftJoin(employees, eq(employees.id, attendanceAttempts.employeeId))
      .where(where)
      .orderBy(desc(attendanceAttempts.attemptedAt), desc(attendanceAttempts.id))
      .limit(window.pageSize)
      .offset(window.offset),
    db.select({ total: count() }).from(attendanceAttempts).where(where),
  ])
  return { rows, total }
}

/** Active members of a group hired on or before `date`, who have no record for it. */
export async function membersWithoutRecord(db: Queryable, groupId: number, date: string): Promise<number[]> {
  const rows = await db
    .select({ id: employees.id })
    .from(attendanceGroupMembers)
    .innerJoin(employees, eq(employees.id, attendanceGroupMembers.employeeId))
    .leftJoin(attendanceRecords, and(eq(attendanceRecords.employeeId, employees.id), eq(attendanceRecords.workDate, date)))
    .where(
      and(
        eq(attendanceGroupMembers.groupId, groupId),
        eq(employees.status, 1),
        sql`(${employees.hireDate} IS NULL OR ${employees.hireDate} <= ${date})`,
        isNull(attendanceRecords.id),
      ),
    )
  return rows.map((row) => row.id)
}

/** Absent records for the employees; one that already has a record for the date keeps it. */
export async function insertAbsences(
  db: Queryable,
  employeeIds: number[],
  values: Omit<NewRecord, 'employeeId' | 'status'>,
): Promise<number> {
  if (employeeIds.length === 0) return 0
  const rows = await db
    .insert(attendanceRecords)
    .values(employeeIds.map((employeeId) => ({ ...values, employeeId, status: 3 })))
    .onConflictDoNothing()
    .returning({ id: attendanceRecords.id })
  return rows.length
}

/** Records of the group's members for the date with a clock-in and no clock-out become exceptions. */
export async function markOpenRecordsException(db: Queryable, groupId: number, date: string, at: Date): Promise<number> {
  const rows = await db
    .update(attendanceRecords)
    .set({ status: 4, updatedAt: at })
    .where(
      and(
        eq(attendanceRecords.workDate, date),
        isNotNull(attendanceRecords.clockInTime),
        isNull(attendanceRecords.clockOutTime),
        ne(attendanceRecords.status, 4),
        ofGroupMembers(groupId),
      ),
    )
    .returning({ id: attendanceRecords.id })
  return rows.length
}
