import { and, eq, getTableColumns, gte, inArray, isNotNull, lte, or, sql } from 'drizzle-orm'
import type { Queryable } from '../../../db/client'
import { inBatches } from '../../../db/batches'
import { attendanceCorrections, attendanceRecords, employees, leaveRequests } from '../../../db/schema'
import { timeOffOf } from '../../leave/repository'
import type { TimeOff } from '../records'
import type { NewRecord, RecordRow } from '../repository'
import { membershipColumns, withMembership } from '../setup/repository'

/*
 * The history import's reads, each for the whole file in a few statements (whatever its size), and
 * its one write: the records upserted by the (employee, work date) index, a batch per statement.
 */

/** The employees the file names by number, with what their attendance context is built from (setup/repository `membershipOf`). */
export async function employeesByNumber(db: Queryable, numbers: string[]) {
  const rows = []
  for (const batch of inBatches(numbers, 1))
    rows.push(
      ...(await withMembership(
        db.select(membershipColumns({ id: employees.id, employeeNo: employees.employeeNo, name: employees.name })).from(employees).$dynamic(),
      )
        .where(inArray(employees.employeeNo, batch))),
    )
  return rows
}

export type NumberedEmployee = Awaited<ReturnType<typeof employeesByNumber>>[number]

/** `${employeeId} ${workDate}`: how the reads below key what they find. */
export const dayKey = (employeeId: number, workDate: string) => `${employeeId} ${workDate}`

type Span = { employeeIds: number[]; first: string; last: string }

/** The employees' records dated in [first, last]. */
export async function recordsBetween(db: Queryable, { employeeIds, first, last }: Span): Promise<Map<string, RecordRow>> {
  const found = new Map<string, RecordRow>()
  for (const batch of inBatches(employeeIds, 1))
    for (const row of await db
      .select()
      .from(attendanceRecords)
      .where(and(inArray(attendanceRecords.employeeId, batch), gte(attendanceRecords.workDate, first), lte(attendanceRecords.workDate, last))))
      found.set(dayKey(row.employeeId, row.workDate), row)
  return found
}

/** The days (dayKey) in [first, last] for which the employees have a pending correction. */
export async function pendingCorrectionsBetween(db: Queryable, { employeeIds, first, last }: Span): Promise<Set<string>> {
  const found = new Set<string>()
  for (const batch of inBatches(employeeIds, 1))
    for (const row of await db
      .select({ employeeId: attendanceCorrections.employeeId, workDate: attendanceCorrections.workDate })
      .from(attendanceCorrections)
      .where(
        and(
          inArray(attendanceCorrections.employeeId, batch),
          eq(attendanceCorrections.status, 'pending'),
          gte(attendanceCorrections.workDate, first),
          lte(attendanceCorrections.workDate, last),
        ),
      ))
      found.add(dayKey(row.employeeId, row.workDate))
  return found
}

/** What of each date in [first, last] the employees have on approved leave besides whole days (leave/repository `timeOffOn`), by day. */
export async function timeOffBetween(db: Queryable, { employeeIds, first, last }: Span): Promise<Map<string, TimeOff>> {
  const rows = new Map<string, Parameters<typeof timeOffOf>[0][number][]>()
  for (const batch of inBatches(employeeIds, 1))
    for (const row of await db
      .select({
        employeeId: leaveRequests.employeeId,
        date: leaveRequests.startDate,
        halfDay: leaveRequests.halfDay,
        startTime: leaveRequests.startTime,
        endTime: leaveRequests.endTime,
      })
      .from(leaveRequests)
      .where(
        and(
          inArray(leaveRequests.employeeId, batch),
          eq(leaveRequests.status, 'approved'),
          or(isNotNull(leaveRequests.halfDay), isNotNull(leaveRequests.startTime)),
          gte(leaveRequests.startDate, first),
          lte(leaveRequests.startDate, last),
        ),
      )) {
      const key = dayKey(row.employeeId, row.date)
      rows.set(key, [...(rows.get(key) ?? []), row])
    }
  return new Map([...rows].map(([key, found]) => [key, timeOffOf(found)]))
}

const { id: _id, employeeId: _employee, workDate: _date, createdAt: _created, ...replaceable } = getTableColumns(attendanceRecords)

/** On a date that has a record already, every column but the key and its creation is the imported one's. */
const REPLACE = Object.fromEntries(Object.entries(replaceable).map(([key, column]) => [key, sql.raw(`excluded."${column.name}"`)]))

/**
 * Writes the records: inserted, or, where the employee has a record of the date, written over it
 * (its id and creation kept). Returns them as stored.
 */
export async function upsertRecords(db: Queryable, records: NewRecord[]): Promise<RecordRow[]> {
  const written: RecordRow[] = []
  for (const batch of inBatches(records, Object.keys(getTableColumns(attendanceRecords)).length))
    written.push(
      ...(await db
        .insert(attendanceRecords)
        .values(batch)
        .onConflictDoUpdate({ target: [attendanceRecords.employeeId, attendanceRecords.workDate], set: REPLACE })
        .returning()),
    )
  return written
}
