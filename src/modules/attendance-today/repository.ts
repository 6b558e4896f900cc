import { and, asc, eq, inArray, or, type SQL } from 'drizzle-orm'
import type { Queryable } from '../../db/client'
import { inBatches } from '../../db/batches'
import { attendanceGroupMembers, attendanceGroups, attendanceRecords, employees } from '../../db/schema'
import type { RecordRow } from '../attendance/repository'
import { membershipColumns, withMembership, type Membership } from '../attendance/setup/repository'

/** An employee of the board, with what their attendance context is built from (attendance/caller.ts). */
export interface BoardEmployee extends Membership {
  id: number
  name: string
}

/**
 * The active employees (status 1) of the board, by id: everyone, or those `managerId` manages (their
 * reports, and the members of the groups they manage); only group `groupId`'s members when given.
 */
export async function boardEmployees(db: Queryable, scope: { managerId?: number; groupId?: number }): Promise<BoardEmployee[]> {
  const conditions: (SQL | undefined)[] = [eq(employees.status, 1)]
  if (scope.groupId !== undefined) conditions.push(eq(attendanceGroupMembers.groupId, scope.groupId))
  if (scope.managerId !== undefined) conditions.push(or(eq(employees.managerId, scope.managerId), eq(attendanceGroups.managerId, scope.managerId)))
  return withMembership(db.select(membershipColumns({ id: employees.id, name: employees.name })).from(employees).$dynamic())
    .where(and(...conditions))
    .orderBy(asc(employees.id))
}

/** The employee linked to the account when it is active and manages someone (an employee's or a group's manager_id); else null. */
export async function activeManager(db: Queryable, userId: number): Promise<number | null> {
  const [self] = await db
    .select({ id: employees.id })
    .from(employees)
    .where(and(eq(employees.userId, userId), eq(employees.status, 1)))
    .limit(1)
  if (!self) return null
  const [report] = await db.select({ id: employees.id }).from(employees).where(eq(employees.managerId, self.id)).limit(1)
  if (report) return self.id
  const [group] = await db.select({ id: attendanceGroups.id }).from(attendanceGroups).where(eq(attendanceGroups.managerId, self.id)).limit(1)
  return group ? self.id : null
}

/** The records of the employees on the given work dates (each employee has at most one per date). */
export async function recordsOn(db: Queryable, employeeIds: number[], dates: string[]): Promise<RecordRow[]> {
  const rows: RecordRow[] = []
  if (dates.length === 0) return rows
  for (const batch of inBatches(employeeIds, 1))
    rows.push(
      ...(await db
        .select()
        .from(attendanceRecords)
        .where(and(inArray(attendanceRecords.employeeId, batch), inArray(attendanceRecords.workDate, dates)))),
    )
  return rows
}
