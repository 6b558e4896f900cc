import { and, asc, count, eq, inArray, sql, type SQL } from 'drizzle-orm'
import type { Queryable } from '../../db/client'
import { attendanceCorrections, attendanceGroupMembers, departments, employees, leaveRequests } from '../../db/schema'
import type { PageWindow } from '../../http/pagination'
import { containsAny } from '../../db/search'
import { inBatches } from '../../db/batches'

export type EmployeeRow = typeof employees.$inferSelect
export type NewEmployee = typeof employees.$inferInsert
export type EmployeeWithDepartment = EmployeeRow & { department: { id: number; name: string } | null; attendanceGroupId: number | null }

const withDepartment = {
  employee: employees,
  departmentName: departments.name,
  attendanceGroupId: sql<number | null>`(SELECT ${attendanceGroupMembers.groupId} FROM ${attendanceGroupMembers} WHERE ${attendanceGroupMembers.employeeId} = ${employees.id})`,
}

function merge(row: { employee: EmployeeRow; departmentName: string | null; attendanceGroupId: number | null }): EmployeeWithDepartment {
  const { employee, departmentName, attendanceGroupId } = row
  return {
    ...employee,
    attendanceGroupId,
    department: employee.departmentId !== null && departmentName !== null ? { id: employee.departmentId, name: departmentName } : null,
  }
}

export async function findEmployee(db: Queryable, id: number): Promise<EmployeeWithDepartment | null> {
  const [row] = await db
    .select(withDepartment)
    .from(employees)
    .leftJoin(departments, eq(departments.id, employees.departmentId))
    .where(eq(employees.id, id))
    .limit(1)
  return row ? merge(row) : null
}

export async function insertEmployee(db: Queryable, values: NewEmployee): Promise<number> {
  const [row] = await db.insert(employees).values(values).returning({ id: employees.id })
  return row.id
}

/**
 * Inserts many employees with few statements; the rows as stored, in the order of `rows`. SQLite
 * numbers the rows of one INSERT in the order of its VALUES, so each statement's rows sorted by id
 * are in that order.
 */
export async function insertEmployees(db: Queryable, rows: NewEmployee[]): Promise<EmployeeRow[]> {
  const stored: EmployeeRow[] = []
  for (const batch of inBatches(rows, 13)) stored.push(...(await db.insert(employees).values(batch).returning()).sort((a, b) => a.id - b.id))
  return stored
}

/** Of `ids`, those that name no employee. */
export async function missingEmployeeIds(db: Queryable, ids: number[]): Promise<Set<number>> {
  const missing = new Set(ids)
  for (const batch of inBatches([...missing], 1))
    for (const row of await db.select({ id: employees.id }).from(employees).where(inArray(employees.id, batch))) missing.delete(row.id)
  return missing
}

/** Of the employee numbers `numbers`, those some employee already has, with that employee's id. */
export async function employeeIdsByNo(db: Queryable, numbers: string[]): Promise<Map<string, number>> {
  const found = new Map<string, number>()
  for (const batch of inBatches(numbers, 1))
    for (const row of await db.select({ id: employees.id, no: employees.employeeNo }).from(employees).where(inArray(employees.employeeNo, batch)))
      if (row.no !== null) found.set(row.no, row.id)
  return found
}

/** Of the employee numbers `numbers`, those some employee already has. */
export async function takenEmployeeNos(db: Queryable, numbers: string[]): Promise<Set<string>> {
  return new Set((await employeeIdsByNo(db, numbers)).keys())
}

/** Makes `managerId` the manager of the employees `ids`. */
export async function setManager(db: Queryable, ids: number[], managerId: number, at: Date): Promise<void> {
  for (const batch of inBatches(ids, 1)) await db.update(employees).set({ managerId, updatedAt: at }).where(inArray(employees.id, batch))
}

export async function updateEmployee(db: Queryable, id: number, values: Partial<typeof employees.$inferInsert>): Promise<boolean> {
  const rows = await db.update(employees).set(values).where(eq(employees.id, id)).returning({ id: employees.id })
  return rows.length > 0
}

export async function deleteEmployee(db: Queryable, id: number): Promise<boolean> {
  const rows = await db.delete(employees).where(eq(employees.id, id)).returning({ id: employees.id })
  return rows.length > 0
}

export interface EmployeeFilter {
  search?: string
  departmentId?: number
  companyId?: number
  status?: number
}

export async function listEmployees(db: Queryable, filter: EmployeeFilter, window: PageWindow) {
  const conditions: SQL[] = []
  if (filter.search?.trim())
    conditions.push(containsAny(filter.search, [employees.name, employees.employeeNo, employees.phone, employees.email]))
  if (filter.departmentId !== undefined) conditions.push(eq(employees.departmentId, filter.departmentId))
  if (filter.companyId !== undefined) conditions.push(eq(employees.companyId, filter.companyId))
  if (filter.status !== undefined) conditions.push(eq(employees.status, filter.status))
  const where = conditions.length > 0 ? and(...conditions) : undefined
  const [rows, [{ total }]] = await Promise.all([
    db
      .select(withDepartment)
      .from(employees)
      .leftJoin(departments, eq(departments.id, employees.departmentId))
      .where(where)
      .orderBy(asc(employees.id))
      .limit(window.pageSize)
      .offset(window.offset),
    db.select({ total: count() }).from(employees).where(where),
  ])
  return { rows: rows.map(merge), total }
}

/** The employee's name, employee number and manager_id; null when there is no such employee. */
export async function managerOf(db: Queryable, id: number): Promise<{ name: string; employeeNo: string | null; managerId: number | null } | null> {
  const [row] = await db
    .select({ name: employees.name, employeeNo: employees.employeeNo, managerId: employees.managerId })
    .from(employees)
    .where(eq(employees.id, id))
    .limit(1)
  return row ?? null
}

/** Reports of a departing employee lose their manager. */
export async function clearManager(db: Queryable, managerId: number): Promise<void> {
  await db.update(employees).set({ managerId: null }).where(eq(employees.managerId, managerId))
  // requests this employee was to decide fall to holders of approvals:manage (the columns were added without ON DELETE)
  await db.update(leaveRequests).set({ approverId: null }).where(eq(leaveRequests.approverId, managerId))
  await db.update(attendanceCorrections).set({ approverId: null }).where(eq(attendanceCorrections.approverId, managerId))
}
