import { aliasedTable, sql } from 'drizzle-orm'
import { attendanceGroups, employees } from '../../db/schema'

/** The employee who decides a request, joined as `manager` (CONTRACT §10). */
export const manager = aliasedTable(employees, 'manager')

/**
 * The employee who decides a request: the employee's manager_id, else their attendance group's
 * manager. Written over `employees` (the requester) and `attendance_groups` (their group) joined
 * into the query; a join of `manager` on it must also leave out the requester (nobody decides
 * their own request).
 */
export const approverIdOf = sql<number | null>`coalesce(${employees.managerId}, ${attendanceGroups.managerId})`
