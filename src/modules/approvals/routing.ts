import { aliasedTable, and, eq, ne, sql } from 'drizzle-orm'
import type { SQLiteColumn, SQLiteSelect } from 'drizzle-orm/sqlite-core'
import { attendanceGroupMembers, attendanceGroups, employees } from '../../db/schema'

/** The employee who decides a request, joined as `manager` (CONTRACT §10). */
export const manager = aliasedTable(employees, 'manager')

/** The employee who decides a request: the requester's manager_id, else their attendance group's manager. */
const approverIdOf = sql<number | null>`coalesce(${employees.managerId}, ${attendanceGroups.managerId})`

/**
 * Joins to a query of requests (leave, corrections) their requester (`employees`), the requester's
 * attendance group and the `manager` who decides them: the one place the routing of §10 is written.
 * Nobody decides their own request, so a requester who is their own group's manager has none.
 */
export function joinApprover<T extends SQLiteSelect>(query: T, requester: SQLiteColumn) {
  return query
    .innerJoin(employees, eq(employees.id, requester))
    .leftJoin(attendanceGroupMembers, eq(attendanceGroupMembers.employeeId, requester))
    .leftJoin(attendanceGroups, eq(attendanceGroups.id, attendanceGroupMembers.groupId))
    .leftJoin(manager, and(eq(manager.id, approverIdOf), ne(manager.id, requester)))
}
