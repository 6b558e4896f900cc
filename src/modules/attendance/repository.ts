import { and, asc, count, desc, eq, getTableColumns, gt, gte, inArray, is, isNotNull, isNull, lt, lte, or, sql, SQL } from 'drizzle-orm'
import type { Db, Queryable } from '../../db/client'
import { preparedQuery } from '../../db/prepared'
import { attendanceAttempts, attendanceGroupMembers, attendanceRecords, calendarDays, employees, OPEN_RECORD } from '../../db/schema'
import type { DayKind } from '../calendar/work-days'
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
  'groupId',
  'workDate',
  'timezone',
  'shiftStart',
  'shiftEnd',
  'workDateEnd',
  'breakStart',
  'breakEnd',
  'lateGracePeriod',
  'earlyGracePeriod',
  'requiredWorkHours',
  'flexibleTime',
  'isWorkDay',
  'overtimeFrom',
  'overtimeThreshold',
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

/** A record clocked in and neither clocked out nor closed: the open index's condition, written as that index has it. */
const open = sql.raw(OPEN_RECORD)

/**
 * The clock-in insert, as INSERT … SELECT so that one statement also refuses (inserts
 * nothing) while the employee has a clock-in on a later work date (a zone moved west)
 * or an open record of an earlier date that is not over yet (after a move or a re-zone):
 * two records never cover one stretch of real time, and an open record stays the latest,
 * the one clock-out closes, until its work date is over. The unique index refuses a
 * second clock-in on the same work date. Prepared once: clocking in is the morning's hot path.
 */
const clockInInsert = preparedQuery((db) => {
  const given = new Set<string>(CLOCK_IN_COLUMNS)
  // INSERT … SELECT names every column: the given ones from placeholders (a null break
  // passes unconverted: the timestamp encoder would call getTime on it), the rest their defaults
  const values = Object.entries(getTableColumns(attendanceRecords)).map(([key, column]) => {
    const encoder = { mapToDriverValue: (value: unknown) => (value === null ? null : column.mapToDriverValue(value)) }
    if (given.has(key)) return sql.param(sql.placeholder(key), encoder)
    if (column.default === undefined) return sql`null`
    return is(column.default, SQL) ? column.default : sql.param(column.default, column)
  })
  const { employeeId, workDate, workDateEnd, clockInTime } = attendanceRecords
  const mine = sql`${employeeId} = ${sql.placeholder('employeeId')}`
  const later = sql`${mine} and ${workDate} > ${sql.placeholder('workDate')} and ${clockInTime} is not null`
  const now = sql.param(sql.placeholder('clockInTime'), workDateEnd)
  const running = sql`${mine} and ${open} and ${workDateEnd} > ${now} and ${workDate} < ${sql.placeholder('workDate')}`
  const none = (where: SQL) => sql`not exists (select 1 from ${attendanceRecords} where ${where})`
  // the clock-in answers with these; the rest of the row is what it was given
  const { id, status, lateMinutes } = attendanceRecords
  return db
    .insert(attendanceRecords)
    .select(sql`select ${sql.join(values, sql`, `)} where ${none(later)} and ${none(running)}`)
    .returning({ id, workDate, status, lateMinutes })
    .prepare()
})

/** What a clock-in answers with, of the record it opens; null when the employee's other records refuse it (see `refusingRecord`). */
export async function insertClockIn(db: Db, values: ClockInRecord): Promise<Pick<RecordRow, 'id' | 'workDate' | 'status' | 'lateMinutes'> | null> {
  const [row] = await clockInInsert(db).all(values)
  return row ?? null
}

/** Why a clock-in at `at` for `workDate` inserted nothing: the employee's record on a later date, or an open one not over yet. */
export async function refusingRecord(db: Queryable, employeeId: number, workDate: string, at: Date): Promise<RecordRow | null> {
  const [row] = await db
    .select()
    .from(attendanceRecords)
    .where(
      and(
        eq(attendanceRecords.employeeId, employeeId),
        isNotNull(attendanceRecords.clockInTime),
        or(
          gt(attendanceRecords.workDate, workDate),
          and(open, gt(attendanceRecords.workDateEnd, at), lt(attendanceRecords.workDate, workDate)),
        ),
      ),
    )
    .orderBy(desc(attendanceRecords.workDate))
    .limit(1)
  return row ?? null
}

const latestClockInRows = preparedQuery((db) =>
  db
    .select()
    .from(attendanceRecords)
    .where(and(eq(attendanceRecords.employeeId, sql.placeholder('employeeId')), isNotNull(attendanceRecords.clockInTime)))
    .orderBy(desc(attendanceRecords.workDate))
    .limit(1)
    .prepare(),
)

/**
 * The employee's latest record with a clock-in, open or not, found by record: whatever
 * group, zone or rule the employee has now. Clock-out closes it, never an older one left
 * open (which day close takes), so two records never overlap.
 */
export async function latestClockIn(db: Db, employeeId: number): Promise<RecordRow | null> {
  const [row] = await latestClockInRows(db).all({ employeeId })
  return row ?? null
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

/** One employee's totals over the records of one month falling on one ISO weekday. */
export interface DayTotals {
  month: string
  /** ISO weekday, 1 = Monday … 7 = Sunday */
  weekday: number
  records: number
  attendanceDays: number
  lateDays: number
  earlyDays: number
  /** absent records (status 3) dated from `since` */
  absentDays: number
  exceptionDays: number
  /** the sum of the records' work_hours, in hundredths of an hour */
  workHundredths: number
  lateMinutes: number
  earlyMinutes: number
  overtimeMinutes: number
  /** records dated from `since` to before `today` */
  pastRecords: number
  /** how the company calendar marks these records' dates (null or left out: unmarked) */
  kind?: DayKind | null
}

/**
 * One employee's totals per month, weekday and calendar mark over [start, end], by SQL
 * aggregates over the (employee_id, work_date) index; never loads the records. The weekday
 * tells which rule applies on the records' dates; the mark of the company `companyId`
 * (the employee's group's, null for none; one lookup per record in its (company, date)
 * index) whether they are work days.
 */
export async function dayTotals(
  db: Queryable,
  employeeId: number,
  start: string,
  end: string,
  since: string,
  today: string,
  companyId: number | null = null,
): Promise<DayTotals[]> {
  const month = sql<string>`substr(${attendanceRecords.workDate}, 1, 7)`
  const weekday = sql<number>`((CAST(strftime('%w', ${attendanceRecords.workDate}) AS INTEGER) + 6) % 7 + 1)`
  return db
    .select({
      month,
      weekday,
      records: count(),
      attendanceDays: sql<number>`count(${attendanceRecords.clockInTime})`,
      lateDays: sql<number>`coalesce(sum(${attendanceRecords.status} = 1 OR ${attendanceRecords.lateMinutes} > 0), 0)`,
      earlyDays: sql<number>`coalesce(sum(${attendanceRecords.earlyMinutes} > 0), 0)`,
      // an absent record dated before `since` (the attendance start) is no absence (CONTRACT §23)
      absentDays: sql<number>`coalesce(sum(${attendanceRecords.status} = 3 AND ${attendanceRecords.workDate} >= ${since}), 0)`,
      exceptionDays: sql<number>`coalesce(sum(${attendanceRecords.status} = 4), 0)`,
      // each record's hours as it shows them (policy.hundredthsOf: round(minutes × 5/3), never a tie), then summed
      workHundredths: sql<number>`coalesce(sum((${attendanceRecords.workMinutes} * 5 + 1) / 3), 0)`,
      lateMinutes: sql<number>`coalesce(sum(${attendanceRecords.lateMinutes}), 0)`,
      earlyMinutes: sql<number>`coalesce(sum(${attendanceRecords.earlyMinutes}), 0)`,
      overtimeMinutes: sql<number>`coalesce(sum(${attendanceRecords.overtimeMinutes}), 0)`,
      pastRecords: sql<number>`coalesce(sum(${attendanceRecords.workDate} >= ${since} AND ${attendanceRecords.workDate} < ${today}), 0)`,
      kind: calendarDays.kind,
    })
    .from(attendanceRecords)
    .leftJoin(calendarDays, and(eq(calendarDays.companyId, companyId ?? 0), eq(calendarDays.date, attendanceRecords.workDate)))
    .where(and(eq(attendanceRecords.employeeId, employeeId), gte(attendanceRecords.workDate, start), lte(attendanceRecords.workDate, end)))
    .groupBy(month, weekday, calendarDays.kind)
}

/**
 * Keeps a refused attempt unless the employee already has `max` kept since `since`: one
 * statement, so a burst of refusals cannot slip past the bound. False when not kept.
 */
export async function keepAttempt(db: Queryable, values: typeof attendanceAttempts.$inferInsert, since: Date, max: number): Promise<boolean> {
  const recent = db
    .select({ n: count() })
    .from(attendanceAttempts)
    .where(and(eq(attendanceAttempts.employeeId, values.employeeId), gt(attendanceAttempts.attemptedAt, since)))
  const kept = await db
    .insert(attendanceAttempts)
    .select(
      sql`SELECT NULL, ${values.employeeId}, ${values.ruleId ?? null}, ${values.kind}, ${values.latitude ?? null}, ${values.longitude ?? null}, ${values.distance ?? null}, ${values.radius}, ${values.attemptedAt.getTime()} WHERE (${recent}) < ${max}`,
    )
    .returning({ id: attendanceAttempts.id })
  return kept.length > 0
}

/** When the oldest attempt kept since `since` was made, or null. */
export async function oldestAttemptSince(db: Queryable, employeeId: number, since: Date): Promise<Date | null> {
  const [row] = await db
    .select({ at: attendanceAttempts.attemptedAt })
    .from(attendanceAttempts)
    .where(and(eq(attendanceAttempts.employeeId, employeeId), gt(attendanceAttempts.attemptedAt, since)))
    .orderBy(asc(attendanceAttempts.attemptedAt))
    .limit(1)
  return row?.at ?? null
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

/** Active members of a group, still employed on `date`, who have no record for it, with their hire dates (day close decides whose work day it is). */
export async function membersWithoutRecord(db: Queryable, groupId: number, date: string): Promise<{ id: number; hireDate: string | null }[]> {
  return db
    .select({ id: employees.id, hireDate: employees.hireDate })
    .from(attendanceGroupMembers)
    .innerJoin(employees, eq(employees.id, attendanceGroupMembers.employeeId))
    .leftJoin(attendanceRecords, and(eq(attendanceRecords.employeeId, employees.id), eq(attendanceRecords.workDate, date)))
    .where(
      and(
        eq(attendanceGroupMembers.groupId, groupId),
        eq(employees.status, 1),
        // nobody is absent after their last day employed (CONTRACT §18 left_on)
        or(isNull(employees.leftOn), gte(employees.leftOn, date)),
        isNull(attendanceRecords.id),
      ),
    )
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

/**
 * Open records whose shift ended by `at` (or whose shift is not kept: records from before
 * records kept one), by record, whatever group their employee is in now; optionally only
 * those dated `workDate` and opened in group `groupId`.
 */
export async function endedOpenRecords(db: Queryable, at: Date, only: { workDate?: string; groupId?: number } = {}): Promise<RecordRow[]> {
  return db
    .select()
    .from(attendanceRecords)
    .where(
      and(
        open,
        or(isNull(attendanceRecords.shiftEnd), lte(attendanceRecords.shiftEnd, at)),
        only.workDate === undefined ? undefined : eq(attendanceRecords.workDate, only.workDate),
        only.groupId === undefined ? undefined : eq(attendanceRecords.groupId, only.groupId),
      ),
    )
}

/** The records, if still open, become exceptions (status 4); returns how many did. */
export async function markExceptions(db: Queryable, ids: number[], at: Date): Promise<number> {
  if (ids.length === 0) return 0
  const rows = await db
    .update(attendanceRecords)
    .set({ status: 4, updatedAt: at })
    .where(and(inArray(attendanceRecords.id, ids), open))
    .returning({ id: attendanceRecords.id })
  return rows.length
}
