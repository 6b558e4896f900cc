import { aliasedTable, and, asc, count, desc, eq, gte, inArray, isNotNull, isNull, lte, or, sql, type SQL } from 'drizzle-orm'
import type { Db, Queryable } from '../../db/client'
import { preparedQuery } from '../../db/prepared'
import {
  attendanceRecords,
  employees,
  leaveLedger,
  leaveRequests,
  leaveTypes,
  users,
} from '../../db/schema'
import type { PageWindow } from '../../http/pagination'
import { NO_TIME_OFF, type HoursSpan, type TimeOff } from '../attendance/records'
import type { LeaveDate, LeaveMinutes } from '../attendance/statistics'
import { addDays } from '../../lib/local-time'
import { decidableWhere, joinApprover, manager, type DecidableFilter } from '../approvals/routing'
import { unitsPerHalfDay } from './hours'

export type TypeRow = typeof leaveTypes.$inferSelect
export type NewType = typeof leaveTypes.$inferInsert
export type RequestRow = typeof leaveRequests.$inferSelect
export type LedgerKind = (typeof leaveLedger.$inferSelect)['kind']

// ---- types

export async function findType(db: Queryable, id: number): Promise<TypeRow | null> {
  const [row] = await db.select().from(leaveTypes).where(eq(leaveTypes.id, id)).limit(1)
  return row ?? null
}

export async function listTypes(db: Queryable, status: number | undefined, window: PageWindow | null) {
  const where = status === undefined ? undefined : eq(leaveTypes.status, status)
  const query = db.select().from(leaveTypes).where(where).orderBy(asc(leaveTypes.id))
  const [rows, [{ total }]] = await Promise.all([
    window ? query.limit(window.pageSize).offset(window.offset) : query,
    db.select({ total: count() }).from(leaveTypes).where(where),
  ])
  return { rows, total }
}

export async function insertType(db: Queryable, values: NewType): Promise<TypeRow> {
  const [row] = await db.insert(leaveTypes).values(values).returning()
  return row
}

export async function updateType(db: Queryable, id: number, values: Partial<NewType>): Promise<TypeRow> {
  const [row] = await db.update(leaveTypes).set(values).where(eq(leaveTypes.id, id)).returning()
  return row
}

/** Deletes the type with the rows its accrual wrote (grants, carries, lapses); its requests and adjustments keep it (the foreign key refuses). */
export async function deleteType(db: Queryable, id: number): Promise<void> {
  await db.delete(leaveLedger).where(and(eq(leaveLedger.typeId, id), isNotNull(leaveLedger.event)))
  await db.delete(leaveTypes).where(eq(leaveTypes.id, id))
}

// ---- balances

/** The ledger kinds that count in `granted` (signed): adjustments, accrual's grants, carries and lapses, and a leaver's payout. */
export const GRANTING_KINDS = ['adjustment', 'grant', 'carry', 'lapse', 'payout'] as const

/** What a ledger row does to `remaining`: a granting kind adds its (signed) amount, every other kind takes (pending, taken) or gives back (release, reversal). */
export const remainingEffect = sql`CASE WHEN ${inArray(leaveLedger.kind, [...GRANTING_KINDS])} THEN ${leaveLedger.amount} ELSE -${leaveLedger.amount} END`

/** What a type grants each year without a ledger row, in its unit: `annual_days` under accrual none (CONTRACT §9), nothing when it accrues (§18). */
export const impliedGrant = (type: Pick<TypeRow, 'accrual' | 'annualHalfDays' | 'unit'>) =>
  type.accrual === 'none' ? type.annualHalfDays * unitsPerHalfDay(type.unit) : 0

/** The same in SQL, for the type of a ledger row. */
const impliedGrantSql = sql`CASE ${leaveTypes.accrual} WHEN 'none' THEN ${leaveTypes.annualHalfDays} * CASE ${leaveTypes.unit} WHEN 'hour' THEN ${unitsPerHalfDay('hour')} ELSE 1 END ELSE 0 END`

/** A balance's three sums over its ledger rows, in the type's unit (SQL aggregates for a GROUP BY). */
export const balanceColumns = {
  /** what the ledger adds to `granted`: adjustments, grants, carries and lapses */
  credited: sql<number>`coalesce(sum(CASE WHEN ${inArray(leaveLedger.kind, [...GRANTING_KINDS])} THEN ${leaveLedger.amount} END), 0)`,
  pending: sql<number>`coalesce(sum(CASE WHEN ${leaveLedger.kind} IN ('pending', 'release') THEN ${leaveLedger.amount} END), 0)`,
  taken: sql<number>`coalesce(sum(CASE WHEN ${leaveLedger.kind} IN ('taken', 'reversal') THEN ${leaveLedger.amount} END), 0)`,
}

export interface LedgerSums {
  credited: number
  pending: number
  taken: number
}

export const ledgerSumsOf = (row: { credited: number; pending: number; taken: number }): LedgerSums => ({
  credited: Number(row.credited),
  pending: Number(row.pending),
  taken: Number(row.taken),
})

/** Per type, the ledger's sums of one employee's year, in each type's unit. */
export async function ledgerSums(db: Queryable, employeeId: number, year: number, typeId?: number): Promise<Map<number, LedgerSums>> {
  const rows = await db
    .select({ typeId: leaveLedger.typeId, ...balanceColumns })
    .from(leaveLedger)
    .where(
      and(
        eq(leaveLedger.employeeId, employeeId),
        eq(leaveLedger.year, year),
        typeId === undefined ? undefined : eq(leaveLedger.typeId, typeId),
      ),
    )
    .groupBy(leaveLedger.typeId)
  return new Map(rows.map((row) => [row.typeId, ledgerSumsOf(row)]))
}

export interface LedgerEntry {
  employeeId: number
  typeId: number
  year: number
  kind: LedgerKind
  /** in the type's unit: half-days, or minutes */
  amount: number
  reason: string
  requestId: number | null
  actorId: number | null
  createdAt: Date
}

/**
 * Writes a ledger row only while the balance stays at or above zero after it: one statement,
 * so parallel requests (on any number of instances) cannot overdraw. False when refused.
 */
export async function appendGuarded(db: Queryable, entry: LedgerEntry, effect: number): Promise<boolean> {
  const remaining = sql`(SELECT ${impliedGrantSql} FROM ${leaveTypes} WHERE ${leaveTypes.id} = ${entry.typeId})
    + coalesce((SELECT sum(${remainingEffect}) FROM ${leaveLedger}
        WHERE ${leaveLedger.employeeId} = ${entry.employeeId} AND ${leaveLedger.typeId} = ${entry.typeId} AND ${leaveLedger.year} = ${entry.year}), 0)`
  const rows = await db.all<{ id: number }>(sql`
    INSERT INTO ${leaveLedger} (employee_id, type_id, year, kind, amount, reason, request_id, actor_id, created_at)
    SELECT ${entry.employeeId}, ${entry.typeId}, ${entry.year}, ${entry.kind}, ${entry.amount}, ${entry.reason}, ${entry.requestId}, ${entry.actorId}, ${entry.createdAt.getTime()}
    WHERE ${remaining} + ${effect} >= 0
    RETURNING id`)
  return rows.length > 0
}

export async function append(db: Queryable, entries: LedgerEntry[]): Promise<void> {
  if (entries.length > 0) await db.insert(leaveLedger).values(entries)
}

/** An employee's ledger rows of a year, oldest first, with each type's name and the name of whoever wrote the row (null: the service). */
export function ledgerEntries(db: Queryable, employeeId: number, year: number) {
  return db
    .select({ entry: leaveLedger, typeName: leaveTypes.name, unit: leaveTypes.unit, actorName: users.name })
    .from(leaveLedger)
    .innerJoin(leaveTypes, eq(leaveTypes.id, leaveLedger.typeId))
    .leftJoin(users, eq(users.id, leaveLedger.actorId))
    .where(and(eq(leaveLedger.employeeId, employeeId), eq(leaveLedger.year, year)))
    .orderBy(asc(leaveLedger.id))
}

/** A request's ledger rows of one kind (one per year it spans). */
export function ledgerOf(db: Queryable, requestId: number, kind: LedgerKind) {
  return db
    .select()
    .from(leaveLedger)
    .where(and(eq(leaveLedger.requestId, requestId), eq(leaveLedger.kind, kind)))
    .orderBy(asc(leaveLedger.id))
}

// ---- requests

export interface NewRequest {
  employeeId: number
  typeId: number
  startDate: string
  endDate: string
  halfDay: 'am' | 'pm' | null
  /** an hourly request's span (HH:MM), else null */
  startTime: string | null
  endTime: string | null
  /** half-days, or minutes for an hourly request */
  amount: number
  reason: string
  at: Date
  /** CONTRACT §15: who made it, the account linked to the employee then, and who decides it */
  createdBy: number | null
  linkedUserId: number | null
  approverId: number | null
}

/**
 * Inserts the request unless one of the employee's pending or approved requests covers one of
 * its days: one statement. Null when refused. Two halves of one date do not overlap, nor do two
 * hourly requests of one date whose times do not; hourly leave and a half or whole day on the
 * same date do.
 */
export async function insertRequestUnlessOverlap(db: Queryable, r: NewRequest): Promise<number | null> {
  const rows = await db.all<{ id: number }>(sql`
    INSERT INTO ${leaveRequests} (employee_id, type_id, start_date, end_date, half_day, start_time, end_time, amount, reason, status, created_by, linked_user_id, approver_id, created_at, updated_at)
    SELECT ${r.employeeId}, ${r.typeId}, ${r.startDate}, ${r.endDate}, ${r.halfDay}, ${r.startTime}, ${r.endTime}, ${r.amount}, ${r.reason}, 'pending', ${r.createdBy}, ${r.linkedUserId}, ${r.approverId}, ${r.at.getTime()}, ${r.at.getTime()}
    WHERE NOT EXISTS (${overlapping(r)})
    RETURNING id`)
  return rows[0]?.id ?? null
}

type Span = { employeeId: number; startDate: string; endDate: string; halfDay: 'am' | 'pm' | null; startTime: string | null; endTime: string | null }
const overlapCondition = (r: Span) =>
  sql`${leaveRequests.employeeId} = ${r.employeeId}
      AND ${leaveRequests.status} IN ('pending', 'approved')
      AND ${leaveRequests.startDate} <= ${r.endDate} AND ${leaveRequests.endDate} >= ${r.startDate}
      AND NOT (${leaveRequests.halfDay} IS NOT NULL AND ${r.halfDay} IS NOT NULL AND ${leaveRequests.halfDay} <> ${r.halfDay})
      AND NOT (${leaveRequests.startTime} IS NOT NULL AND ${r.startTime} IS NOT NULL
        AND (${leaveRequests.startTime} >= ${r.endTime} OR ${leaveRequests.endTime} <= ${r.startTime}))`
const overlapping = (r: Span) => sql`SELECT 1 FROM ${leaveRequests} WHERE ${overlapCondition(r)}`

/** The first of the employee's pending or approved requests covering a day of the range, with its type's name (for the 409's message). */
export async function overlappingRequest(db: Queryable, r: Span): Promise<(RequestRow & { typeName: string }) | null> {
  const [row] = await db
    .select({ request: leaveRequests, typeName: leaveTypes.name })
    .from(leaveRequests)
    .innerJoin(leaveTypes, eq(leaveTypes.id, leaveRequests.typeId))
    .where(overlapCondition(r))
    .orderBy(asc(leaveRequests.startDate))
    .limit(1)
  return row ? { ...row.request, typeName: row.typeName } : null
}

/**
 * Sets the status only while it is one of `from`: of two changes at once exactly one happens.
 * A decision also stores who made it, when, and the note. The row after, or null.
 */
export async function transition(
  db: Queryable,
  id: number,
  from: RequestRow['status'][],
  to: RequestRow['status'],
  at: Date,
  decision?: { by: number | null; note: string | null },
): Promise<RequestRow | null> {
  const [row] = await db
    .update(leaveRequests)
    .set({ status: to, updatedAt: at, ...(decision ? { decidedBy: decision.by, decidedAt: at, decisionNote: decision.note } : {}) })
    .where(and(eq(leaveRequests.id, id), inArray(leaveRequests.status, from)))
    .returning()
  return row ?? null
}

const decider = aliasedTable(users, 'decider')
const fullColumns = {
  request: leaveRequests,
  employeeName: employees.name,
  typeName: leaveTypes.name,
  approverId: manager.id,
  approverName: manager.name,
  approverStatus: manager.status,
  deciderName: decider.name,
}
export interface FullRequest {
  request: RequestRow
  employeeName: string
  typeName: string
  approverId: number | null
  approverName: string | null
  approverStatus: number | null
  deciderName: string | null
}


function fullRequests(db: Queryable, where: SQL | undefined) {
  return joinApprover(db.select(fullColumns).from(leaveRequests).$dynamic(), leaveRequests.employeeId, leaveRequests.approverId)
    .innerJoin(leaveTypes, eq(leaveTypes.id, leaveRequests.typeId))
    .leftJoin(decider, eq(decider.id, leaveRequests.decidedBy))
    .where(where)
}

export async function findRequest(db: Queryable, id: number): Promise<FullRequest | null> {
  const [row]: FullRequest[] = await fullRequests(db, eq(leaveRequests.id, id)).limit(1)
  return row ?? null
}

export interface RequestFilter {
  employeeId?: number
  typeId?: number
  status?: RequestRow['status']
  /** requests with a day in [from, to] */
  from?: string
  to?: string
}

/** Newest start first. */
export async function listRequests(db: Queryable, filter: RequestFilter, window: PageWindow) {
  const where = and(
    filter.employeeId === undefined ? undefined : eq(leaveRequests.employeeId, filter.employeeId),
    filter.typeId === undefined ? undefined : eq(leaveRequests.typeId, filter.typeId),
    filter.status === undefined ? undefined : eq(leaveRequests.status, filter.status),
    filter.from === undefined ? undefined : gte(leaveRequests.endDate, filter.from),
    filter.to === undefined ? undefined : lte(leaveRequests.startDate, filter.to),
  )
  const [rows, [{ total }]] = await Promise.all([
    fullRequests(db, where).orderBy(desc(leaveRequests.startDate), desc(leaveRequests.id)).limit(window.pageSize).offset(window.offset),
    db.select({ total: count() }).from(leaveRequests).where(where),
  ])
  return { rows: rows as FullRequest[], total }
}

/** The requests a caller may decide (approvals inbox, CONTRACT §10), oldest first. */
export async function listDecidable(db: Queryable, filter: DecidableFilter, window: PageWindow) {
  const where = decidableWhere(leaveRequests, filter)
  const [rows, [{ total }]] = await Promise.all([
    fullRequests(db, where).orderBy(asc(leaveRequests.createdAt), asc(leaveRequests.id)).limit(window.pageSize).offset(window.offset),
    joinApprover(db.select({ total: count() }).from(leaveRequests).$dynamic(), leaveRequests.employeeId, leaveRequests.approverId).where(where),
  ])
  return { rows: rows as FullRequest[], total }
}

/** What a request covers, as the sheet, statistics and payroll read it (exports/attendance-sheet `ApprovedLeave`): its dates, half day, hours and amount. */
export const spanColumns = {
  startDate: leaveRequests.startDate,
  endDate: leaveRequests.endDate,
  halfDay: leaveRequests.halfDay,
  startTime: leaveRequests.startTime,
  endTime: leaveRequests.endTime,
  amount: leaveRequests.amount,
}

/** Approved requests with a day in [first, last]. */
export const approvedTouching = (first: string, last: string) =>
  and(eq(leaveRequests.status, 'approved'), lte(leaveRequests.startDate, last), gte(leaveRequests.endDate, first))

/** An employee's approved requests with a day in [start, end], with their type's name. */
export function approvedBetween(db: Queryable, employeeId: number, start: string, end: string) {
  return db
    .select({ id: leaveRequests.id, ...spanColumns, typeName: leaveTypes.name })
    .from(leaveRequests)
    .innerJoin(leaveTypes, eq(leaveTypes.id, leaveRequests.typeId))
    .where(and(eq(leaveRequests.employeeId, employeeId), approvedTouching(start, end)))
    .orderBy(asc(leaveRequests.startDate))
}

/** The minutes of the employee's pending and approved hourly leave on a date. */
export async function hourlyMinutesOn(db: Queryable, employeeId: number, date: string): Promise<number> {
  const [row] = await db
    .select({ minutes: sql<number>`coalesce(sum(${leaveRequests.amount}), 0)` })
    .from(leaveRequests)
    .where(
      and(
        eq(leaveRequests.employeeId, employeeId),
        inArray(leaveRequests.status, ['pending', 'approved']),
        isNotNull(leaveRequests.startTime),
        eq(leaveRequests.startDate, date),
      ),
    )
  return Number(row.minutes)
}

/** Of the employees, those on approved full-day leave on the date (not a half day, not hours): day close writes them no absence. */
export async function onFullDayLeave(db: Queryable, employeeIds: number[], date: string): Promise<Set<number>> {
  if (employeeIds.length === 0) return new Set()
  const rows = await db
    .select({ employeeId: leaveRequests.employeeId })
    .from(leaveRequests)
    .where(
      and(
        inArray(leaveRequests.employeeId, employeeIds),
        eq(leaveRequests.status, 'approved'),
        isNull(leaveRequests.halfDay),
        isNull(leaveRequests.startTime),
        lte(leaveRequests.startDate, date),
        gte(leaveRequests.endDate, date),
      ),
    )
  return new Set(rows.map((row) => row.employeeId))
}

/** The absent records (status 3, no clock times) of the employee in [start, end]: approved leave is not absence. Deleted; returns them. */
export function deleteAbsences(db: Queryable, employeeId: number, start: string, end: string) {
  return db
    .delete(attendanceRecords)
    .where(
      and(
        eq(attendanceRecords.employeeId, employeeId),
        gte(attendanceRecords.workDate, start),
        lte(attendanceRecords.workDate, end),
        eq(attendanceRecords.status, 3),
        isNull(attendanceRecords.clockInTime),
        isNull(attendanceRecords.clockOutTime),
      ),
    )
    .returning({ id: attendanceRecords.id, workDate: attendanceRecords.workDate })
}

export async function employeeName(db: Queryable, id: number): Promise<string | null> {
  const [row] = await db.select({ name: employees.name }).from(employees).where(eq(employees.id, id)).limit(1)
  return row?.name ?? null
}

/** Whether any request or ledger row counts in the type's unit. */
export async function hasLedgerOrRequests(db: Queryable, typeId: number): Promise<boolean> {
  const requests = await db.select({ id: leaveRequests.id }).from(leaveRequests).where(eq(leaveRequests.typeId, typeId)).limit(1)
  return requests.length > 0 || (await db.select({ id: leaveLedger.id }).from(leaveLedger).where(eq(leaveLedger.typeId, typeId)).limit(1)).length > 0
}

/**
 * The employee's approved leave in [start, end] as statistics count it: the dates its leave of days
 * covers, each with its record (hourly leave is no leave day), and its hourly leave, each request's
 * date and minutes (CONTRACT §18). One query for the leave, one for the records of its dates.
 */
export async function leaveInRange(db: Queryable, employeeId: number, start: string, end: string): Promise<{ dates: LeaveDate[]; hours: LeaveMinutes[] }> {
  const dates = new Map<string, boolean>()
  const hours: LeaveMinutes[] = []
  for (const request of await approvedBetween(db, employeeId, start, end)) {
    if (request.startTime !== null) {
      hours.push({ date: request.startDate, minutes: request.amount })
      continue
    }
    const first = request.startDate > start ? request.startDate : start
    const last = request.endDate < end ? request.endDate : end
    // two approved halves of one date make a whole day
    for (const date of datesOf(first, last)) dates.set(date, dates.has(date) ? false : request.halfDay !== null)
  }
  if (dates.size === 0) return { dates: [], hours }
  const records = await db
    .select({ workDate: attendanceRecords.workDate, status: attendanceRecords.status, clockIn: attendanceRecords.clockInTime })
    .from(attendanceRecords)
    .where(and(eq(attendanceRecords.employeeId, employeeId), inArray(attendanceRecords.workDate, [...dates.keys()])))
  const byDate = new Map(records.map((row) => [row.workDate, row.status === 3 && row.clockIn === null ? ('absent' as const) : ('other' as const)]))
  return { dates: [...dates].map(([date, half]) => ({ date, half, record: byDate.get(date) ?? 'none' })), hours }
}

/** The dates of [start, end] the employee's approved leave of days covers (hourly leave is not a leave day), each with its record. */
export async function leaveDates(db: Queryable, employeeId: number, start: string, end: string): Promise<LeaveDate[]> {
  return (await leaveInRange(db, employeeId, start, end)).dates
}

/** The dates of [first, last], inclusive (none when last is before first); never steps past last. */
export function datesOf(first: string, last: string): string[] {
  const dates: string[] = []
  if (last < first) return dates
  for (let date = first; ; date = addDays(date, 1)) {
    dates.push(date)
    if (date === last) return dates
  }
}

/** What of one date approved leave of part of it takes: half of it, and each span of hours (CONTRACT §9, §18), read together. */
const timeOffColumns = { halfDay: leaveRequests.halfDay, startTime: leaveRequests.startTime, endTime: leaveRequests.endTime }
const partOfDay = or(isNotNull(leaveRequests.halfDay), isNotNull(leaveRequests.startTime))

/** The rows of one date's leave of part of it as what clock-in judges the date by (half-days and hours do not overlap: the first half found). */
export function timeOffOf(rows: readonly { halfDay: 'am' | 'pm' | null; startTime: string | null; endTime: string | null }[]): TimeOff {
  if (rows.length === 0) return NO_TIME_OFF
  const hours: HoursSpan[] = []
  let half: 'am' | 'pm' | null = null
  for (const row of rows) {
    if (row.startTime !== null && row.endTime !== null) hours.push({ startTime: row.startTime, endTime: row.endTime })
    else half ??= row.halfDay
  }
  return { half, hours: hours.sort((a, b) => (a.startTime < b.startTime ? -1 : a.startTime > b.startTime ? 1 : 0)) }
}

const timeOffRows = preparedQuery((db) =>
  db
    .select(timeOffColumns)
    .from(leaveRequests)
    .where(
      and(
        eq(leaveRequests.employeeId, sql.placeholder('employeeId')),
        eq(leaveRequests.startDate, sql.placeholder('date')),
        eq(leaveRequests.status, 'approved'),
        partOfDay,
      ),
    )
    .prepare(),
)

/**
 * The half of the date and the spans of hours the employee has approved leave for: clock-in judges
 * the rest of the date (CONTRACT §9, §18). Prepared, one query: every clock-in asks it (building its
 * SQL each time was a tenth of a clock-in's cost).
 */
export async function timeOffNow(db: Db, employeeId: number, date: string): Promise<TimeOff> {
  return timeOffOf(await timeOffRows(db).all({ employeeId, date }))
}

/** The same in any connection or transaction (a correction's plan reads it in the transaction that writes it). */
export async function timeOffOn(db: Queryable, employeeId: number, date: string): Promise<TimeOff> {
  return timeOffOf(
    await db
      .select(timeOffColumns)
      .from(leaveRequests)
      .where(and(eq(leaveRequests.employeeId, employeeId), eq(leaveRequests.startDate, date), eq(leaveRequests.status, 'approved'), partOfDay)),
  )
}
