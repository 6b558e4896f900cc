import { and, asc, count, eq, sql, type SQL } from 'drizzle-orm'
import type { Queryable } from '../../db/client'
import { attendanceGroupMembers, departments, employees } from '../../db/schema'
import type { PageWindow } from '../../http/pagination'
import { containsAny } from '../../db/search'

export type EmployeeRow = typeof employees.$inferSelect
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

export async function insertEmployee(db: Queryable, values: typeof employees.$inferInsert): Promise<number> {
  const [row] = await db.insert(employees).values(values).returning({ id: employees.id })
  return row.id
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

/** The employee's name and manager_id; null when there is no such employee. */
export async function managerOf(db: Queryable, id: number): Promise<{ name: string; managerId: number | null } | null> {
  const [row] = await db.select({ name: employees.name, managerId: employees.managerId }).from(employees).where(eq(employees.id, id)).limit(1)
  return row ?? null
}

/** Reports of a departing employee lose their manager. */
export async function clearManager(db: Queryable, managerId: number): Promise<void> {
  await db.update(employees).set({ managerId: null }).where(eq(employees.managerId, managerId))
}
