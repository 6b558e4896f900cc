import { and, asc, eq, gte, inArray, isNull, lt, lte, sql, type SQL } from 'drizzle-orm'
import type { Db, Queryable } from '../../db/client'
import { preparedQuery } from '../../db/prepared'
import { attendanceClosedDays, attendanceGroups, attendanceRecords, calendarDays } from '../../db/schema'
import { NO_CALENDAR, type CompanyCalendar, type DayKind } from './work-days'

export type CalendarDayRow = typeof calendarDays.$inferSelect
export type NewCalendarDay = typeof calendarDays.$inferInsert

/** The calendar days of a company in [start, end], in one query over the (company, date) index; none without a company. */
export async function calendarBetween(db: Queryable, companyId: number | null, start: string, end: string): Promise<CompanyCalendar> {
  if (companyId === null) return NO_CALENDAR
  const rows = await daysBetween(db, companyId, start, end)
  return new Map(rows.map((row) => [row.date, { kind: row.kind, name: row.name }]))
}

/** The rows of a company's calendar in [start, end], by date. */
export function daysBetween(db: Queryable, companyId: number, start: string, end: string): Promise<CalendarDayRow[]> {
  return db
    .select()
    .from(calendarDays)
    .where(and(eq(calendarDays.companyId, companyId), gte(calendarDays.date, start), lte(calendarDays.date, end)))
    .orderBy(asc(calendarDays.date))
}

const kindRows = preparedQuery((db) =>
  db
    .select({ kind: calendarDays.kind })
    .from(calendarDays)
    .where(and(eq(calendarDays.companyId, sql.placeholder('companyId')), eq(calendarDays.date, sql.placeholder('date'))))
    .limit(1)
    .prepare(),
)

/** How the company marks one date (null: not at all, or no company). Prepared, one point lookup: every clock-in asks it. */
export async function kindOn(db: Db, companyId: number | null, date: string): Promise<DayKind | null> {
  if (companyId === null) return null
  const [row] = await kindRows(db).all({ companyId, date })
  return row?.kind ?? null
}

/** The same inside a transaction (day close). */
export async function kindOnIn(tx: Queryable, companyId: number | null, date: string): Promise<DayKind | null> {
  if (companyId === null) return null
  const [row] = await tx
    .select({ kind: calendarDays.kind })
    .from(calendarDays)
    .where(and(eq(calendarDays.companyId, companyId), eq(calendarDays.date, date)))
    .limit(1)
  return row?.kind ?? null
}

export async function findDay(db: Queryable, companyId: number, date: string): Promise<CalendarDayRow | null> {
  const [row] = await db
    .select()
    .from(calendarDays)
    .where(and(eq(calendarDays.companyId, companyId), eq(calendarDays.date, date)))
    .limit(1)
  return row ?? null
}

/** Creates or replaces the days (one statement; the (company, date) index decides which); returns them as stored. */
export async function upsertDays(db: Queryable, values: NewCalendarDay[]): Promise<CalendarDayRow[]> {
  if (values.length === 0) return []
  return db
    .insert(calendarDays)
    .values(values)
    .onConflictDoUpdate({
      target: [calendarDays.companyId, calendarDays.date],
      set: { kind: sql`excluded.kind`, name: sql`excluded.name`, statutory: sql`excluded.statutory`, updatedAt: sql`excluded.updated_at` },
    })
    .returning()
}

export async function deleteDay(db: Queryable, companyId: number, date: string): Promise<boolean> {
  const rows = await db
    .delete(calendarDays)
    .where(and(eq(calendarDays.companyId, companyId), eq(calendarDays.date, date)))
    .returning({ id: calendarDays.id })
  return rows.length > 0
}

const groupsOfCompany = (companyId: number) =>
  sql`(SELECT ${attendanceGroups.id} FROM ${attendanceGroups} WHERE ${attendanceGroups.companyId} = ${companyId})`

/** Absent records (status 3 with no clock times) under a group of the company whose date `dated` selects. Deleted; returns them as they were. */
function deleteAbsencesWhere(db: Queryable, companyId: number, dated: SQL) {
  return db
    .delete(attendanceRecords)
    .where(
      and(
        dated,
        eq(attendanceRecords.status, 3),
        isNull(attendanceRecords.clockInTime),
        isNull(attendanceRecords.clockOutTime),
        inArray(attendanceRecords.groupId, groupsOfCompany(companyId)),
      ),
    )
    .returning()
}

/** The absences on `dates`: what a date turned holiday no longer means. */
export async function deleteAbsences(db: Queryable, companyId: number, dates: string[]) {
  if (dates.length === 0) return []
  return deleteAbsencesWhere(db, companyId, inArray(attendanceRecords.workDate, dates))
}

/** The absences dated before `date`: what a later attendance start of the company (CONTRACT §23) no longer means. */
export function deleteAbsencesBefore(db: Queryable, companyId: number, date: string) {
  return deleteAbsencesWhere(db, companyId, lt(attendanceRecords.workDate, date))
}

/** Forgets that the company's groups closed the dates from `from` (null: any) to before `before`, so day close judges them again. */
export async function reopenClosedDaysBetween(db: Queryable, companyId: number, from: string | null, before: string): Promise<void> {
  await db
    .delete(attendanceClosedDays)
    .where(
      and(
        from === null ? undefined : gte(attendanceClosedDays.workDate, from),
        lt(attendanceClosedDays.workDate, before),
        inArray(attendanceClosedDays.groupId, groupsOfCompany(companyId)),
      ),
    )
}

/** Forgets that the company's groups closed the dates, so the day-close job closes them again under the calendar. */
export async function reopenClosedDays(db: Queryable, companyId: number, dates: string[]): Promise<void> {
  if (dates.length === 0) return
  await db
    .delete(attendanceClosedDays)
    .where(and(inArray(attendanceClosedDays.workDate, dates), inArray(attendanceClosedDays.groupId, groupsOfCompany(companyId))))
}

/** One employee's records dated in [start, end], by date: what the month calendar shows of each. */
export function recordsBetween(db: Queryable, employeeId: number, start: string, end: string) {
  return db
    .select({
      id: attendanceRecords.id,
      workDate: attendanceRecords.workDate,
      status: attendanceRecords.status,
      clockInTime: attendanceRecords.clockInTime,
      clockOutTime: attendanceRecords.clockOutTime,
      workMinutes: attendanceRecords.workMinutes,
    })
    .from(attendanceRecords)
    .where(and(eq(attendanceRecords.employeeId, employeeId), gte(attendanceRecords.workDate, start), lte(attendanceRecords.workDate, end)))
    .orderBy(asc(attendanceRecords.workDate))
}
