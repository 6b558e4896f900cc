import { and, asc, count, eq, gt, gte, inArray, isNull, lte, or, sql, type SQL } from 'drizzle-orm'
import type { Queryable } from '../../db/client'
import {
  attendanceGroupMembers,
  attendanceGroups,
  attendanceRecords,
  companies,
  departments,
  employees,
  leaveRequests,
  salaries,
} from '../../db/schema'
import { approvedTouching, spanColumns } from '../leave/repository'
import type { ApprovedLeave, MonthRecord } from './attendance-sheet'

/*
 * The exports' reads, a page at a time by keyset over the employee id, each page in a fixed
 * number of queries whatever its size (employees with their group, their records of the month,
 * their approved leave).
 */

export interface AttendanceScope {
  first: string
  last: string
  departmentId?: number
  groupId?: number
}

/**
 * Who the attendance sheet lists: employees hired by the month's last day (or with no hire date)
 * who are active, or who are marked as left but have a record in the month (they worked in it);
 * of one department, or now in one attendance group, when asked.
 */
function attendanceConditions(scope: AttendanceScope): SQL[] {
  const workedInMonth = sql`EXISTS (SELECT 1 FROM ${attendanceRecords} WHERE ${attendanceRecords.employeeId} = ${employees.id} AND ${attendanceRecords.workDate} >= ${scope.first} AND ${attendanceRecords.workDate} <= ${scope.last})`
  const conditions = [or(isNull(employees.hireDate), lte(employees.hireDate, scope.last))!, or(eq(employees.status, 1), workedInMonth)!]
  if (scope.departmentId !== undefined) conditions.push(eq(employees.departmentId, scope.departmentId))
  if (scope.groupId !== undefined) conditions.push(eq(attendanceGroupMembers.groupId, scope.groupId))
  return conditions
}

export async function countAttendanceRows(db: Queryable, scope: AttendanceScope): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(employees)
    .leftJoin(attendanceGroupMembers, eq(attendanceGroupMembers.employeeId, employees.id))
    .where(and(...attendanceConditions(scope)))
  return Number(row.n)
}

/** The next page of the sheet's employees after the id `after`, with department and attendance group. */
export function attendanceEmployees(db: Queryable, scope: AttendanceScope, after: number, limit: number) {
  return db
    .select({
      id: employees.id,
      employeeNo: employees.employeeNo,
      name: employees.name,
      hireDate: employees.hireDate,
      leftOn: employees.leftOn,
      department: departments.name,
      status: employees.status,
      group: attendanceGroups,
      companyTimezone: companies.timezone,
      companyStartsOn: companies.attendanceStartsOn,
    })
    .from(employees)
    .leftJoin(departments, eq(departments.id, employees.departmentId))
    .leftJoin(attendanceGroupMembers, eq(attendanceGroupMembers.employeeId, employees.id))
    .leftJoin(attendanceGroups, eq(attendanceGroups.id, attendanceGroupMembers.groupId))
    .leftJoin(companies, eq(companies.id, attendanceGroups.companyId))
    .where(and(gt(employees.id, after), ...attendanceConditions(scope)))
    .orderBy(asc(employees.id))
    .limit(limit)
}

/** The attendance groups of the sheet's employees with their companies (for the sheet layout's title and shading). */
export function groupsOfSheet(db: Queryable, scope: AttendanceScope) {
  return db
    .selectDistinct({
      id: attendanceGroups.id,
      status: attendanceGroups.status,
      companyId: companies.id,
      company: companies.name,
      timezone: companies.timezone,
    })
    .from(employees)
    .innerJoin(attendanceGroupMembers, eq(attendanceGroupMembers.employeeId, employees.id))
    .innerJoin(attendanceGroups, eq(attendanceGroups.id, attendanceGroupMembers.groupId))
    .innerJoin(companies, eq(companies.id, attendanceGroups.companyId))
    .where(and(...attendanceConditions(scope)))
}

export type AttendanceEmployee = Awaited<ReturnType<typeof attendanceEmployees>>[number]

type RecordTuple = [workDate: string, status: number, clockedIn: 0 | 1, lateMinutes: number, earlyMinutes: number, workMinutes: number, overtimeMinutes: number]

/**
 * The records of the employees dated in [first, last], in one query over the (employee, work
 * date) index: one row per employee with its records as a JSON array of tuples, since a result
 * row costs the client far more than a JSON value (a page is most of an export's allocations).
 */
export async function recordsOf(db: Queryable, employeeIds: number[], first: string, last: string): Promise<Map<number, MonthRecord[]>> {
  const records = new Map<number, MonthRecord[]>()
  if (employeeIds.length === 0) return records
  const r = attendanceRecords
  const rows = await db
    .select({
      employeeId: r.employeeId,
      records: sql<string>`json_group_array(json_array(${r.workDate}, ${r.status}, ${r.clockInTime} IS NOT NULL, ${r.lateMinutes}, ${r.earlyMinutes}, ${r.workMinutes}, ${r.overtimeMinutes}))`,
    })
    .from(r)
    .where(and(inArray(r.employeeId, employeeIds), gte(r.workDate, first), lte(r.workDate, last)))
    .groupBy(r.employeeId)
  for (const row of rows)
    records.set(
      row.employeeId,
      (JSON.parse(row.records) as RecordTuple[]).map(([workDate, status, clockedIn, lateMinutes, earlyMinutes, workMinutes, overtimeMinutes]) => ({
        workDate,
        status,
        clockedIn: clockedIn === 1,
        lateMinutes,
        earlyMinutes,
        workMinutes,
        overtimeMinutes,
      })),
    )
  return records
}

/** The employees' approved leave requests with a day in [first, last] (hourly ones with their span and minutes), in one query over the (employee, status, dates) index. */
export async function approvedLeaveOf(
  db: Queryable,
  employeeIds: number[],
  first: string,
  last: string,
): Promise<(ApprovedLeave & { employeeId: number })[]> {
  if (employeeIds.length === 0) return []
  return db
    .select({ employeeId: leaveRequests.employeeId, ...spanColumns })
    .from(leaveRequests)
    .where(and(inArray(leaveRequests.employeeId, employeeIds), approvedTouching(first, last)))
    .orderBy(asc(leaveRequests.startDate))
}

export async function departmentExists(db: Queryable, id: number): Promise<boolean> {
  return (await db.select({ id: departments.id }).from(departments).where(eq(departments.id, id)).limit(1)).length > 0
}

export async function groupExists(db: Queryable, id: number): Promise<boolean> {
  return (await db.select({ id: attendanceGroups.id }).from(attendanceGroups).where(eq(attendanceGroups.id, id)).limit(1)).length > 0
}

export async function countSalaryRows(db: Queryable, month: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(salaries).where(eq(salaries.month, month))
  return Number(row.n)
}

/** The next page of the month's salary records after employee `after`, by employee, over the (month, employee) index. */
export function salaryPage(db: Queryable, month: string, after: number, limit: number) {
  return db
    .select({
      salary: salaries,
      employeeNo: employees.employeeNo,
      name: employees.name,
      department: departments.name,
    })
    .from(salaries)
    .innerJoin(employees, eq(employees.id, salaries.employeeId))
    .leftJoin(departments, eq(departments.id, employees.departmentId))
    .where(and(eq(salaries.month, month), gt(salaries.employeeId, after)))
    .orderBy(asc(salaries.employeeId))
    .limit(limit)
}

export type SalaryExportRow = Awaited<ReturnType<typeof salaryPage>>[number]

/** The companies (through their attendance groups) of the employees with a salary record of the month. */
export function companiesOfSalaries(db: Queryable, month: string) {
  return db
    .selectDistinct({ companyId: companies.id, company: companies.name, timezone: companies.timezone })
    .from(salaries)
    .innerJoin(attendanceGroupMembers, eq(attendanceGroupMembers.employeeId, salaries.employeeId))
    .innerJoin(attendanceGroups, eq(attendanceGroups.id, attendanceGroupMembers.groupId))
    .innerJoin(companies, eq(companies.id, attendanceGroups.companyId))
    .where(eq(salaries.month, month))
}
