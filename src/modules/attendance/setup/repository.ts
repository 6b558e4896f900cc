import type { SQLiteSelect } from 'drizzle-orm/sqlite-core'
import { and, asc, count, desc, eq, inArray, ne, sql, type SQL } from 'drizzle-orm'
import type { Db, Queryable } from '../../../db/client'
import { preparedQuery } from '../../../db/prepared'
import { attendanceGroupMembers, attendanceGroups, attendanceRules, companies, employees } from '../../../db/schema'
import { containsAny } from '../../../db/search'
import type { PageWindow } from '../../../http/pagination'
import { ttlCache, type TtlCache } from '../../../lib/ttl-cache'
import { ACCESS_CACHE_TTL_MS } from '../../rbac/access'

export type RuleRow = typeof attendanceRules.$inferSelect
export type NewRule = typeof attendanceRules.$inferInsert
export type GroupRow = typeof attendanceGroups.$inferSelect
export type NewGroup = typeof attendanceGroups.$inferInsert

export interface RuleWithGroup {
  rule: RuleRow
  groupName: string | null
}

export interface GroupDetail {
  group: GroupRow
  companyName: string | null
  companyTimezone: string | null
  /** the company's attendance_starts_on (CONTRACT §23) */
  companyStartsOn: string | null
  manager: { id: number; name: string; phone: string | null } | null
  employeeCount: number
  ruleCount: number
}

const ruleWithGroup = { rule: attendanceRules, groupName: attendanceGroups.name }

export async function findRule(db: Queryable, id: number): Promise<RuleWithGroup | null> {
  const [row] = await db
    .select(ruleWithGroup)
    .from(attendanceRules)
    .leftJoin(attendanceGroups, eq(attendanceGroups.id, attendanceRules.groupId))
    .where(eq(attendanceRules.id, id))
    .limit(1)
  return row ?? null
}

export async function insertRule(db: Queryable, values: NewRule): Promise<number> {
  const [row] = await db.insert(attendanceRules).values(values).returning({ id: attendanceRules.id })
  return row.id
}

export async function updateRule(db: Queryable, id: number, values: Partial<NewRule>): Promise<void> {
  await db.update(attendanceRules).set(values).where(eq(attendanceRules.id, id))
}

export async function deleteRule(db: Queryable, id: number): Promise<void> {
  await db.delete(attendanceRules).where(eq(attendanceRules.id, id))
}

const RULE_ORDER = {
  id: attendanceRules.id,
  name: attendanceRules.name,
  created_at: attendanceRules.createdAt,
  updated_at: attendanceRules.updatedAt,
  work_start_time: attendanceRules.workStartTime,
} as const

export async function listRules(
  db: Queryable,
  filter: { groupId?: number; status?: number; sort: keyof typeof RULE_ORDER; order: 'asc' | 'desc' },
  window: PageWindow,
) {
  const conditions: SQL[] = []
  if (filter.groupId !== undefined) conditions.push(eq(attendanceRules.groupId, filter.groupId))
  if (filter.status !== undefined) conditions.push(eq(attendanceRules.status, filter.status))
  const where = conditions.length > 0 ? and(...conditions) : undefined
  const direction = filter.order === 'asc' ? asc : desc
  const [rows, [{ total }]] = await Promise.all([
    db
      .select(ruleWithGroup)
      .from(attendanceRules)
      .leftJoin(attendanceGroups, eq(attendanceGroups.id, attendanceRules.groupId))
      .where(where)
      .orderBy(direction(RULE_ORDER[filter.sort]), direction(attendanceRules.id))
      .limit(window.pageSize)
      .offset(window.offset),
    db.select({ total: count() }).from(attendanceRules).where(where),
  ])
  return { rows, total }
}

/** The group's enabled rules, lowest id first. */
/** Enabled rules by group id, shared by the clocking and setup services (the setup service clears it on every change). */
export type RuleCache = TtlCache<number, RuleRow[]>

/** Another instance's rule change shows within half a second, as a permission change does. */
export const createRuleCache = (): RuleCache => ttlCache(ACCESS_CACHE_TTL_MS)

export async function enabledRulesOfGroup(db: Queryable, groupId: number): Promise<RuleRow[]> {
  return db
    .select()
    .from(attendanceRules)
    .where(and(eq(attendanceRules.groupId, groupId), eq(attendanceRules.status, 1)))
    .orderBy(asc(attendanceRules.id))
}

const memberCount = sql<number>`(SELECT count(*) FROM ${attendanceGroupMembers} WHERE ${attendanceGroupMembers.groupId} = ${attendanceGroups.id})`
const ruleCount = sql<number>`(SELECT count(*) FROM ${attendanceRules} WHERE ${attendanceRules.groupId} = ${attendanceGroups.id})`

function groupDetails(db: Queryable) {
  return db
    .select({
      group: attendanceGroups,
      companyName: companies.name,
      companyTimezone: companies.timezone,
      companyStartsOn: companies.attendanceStartsOn,
      managerId: employees.id,
      managerName: employees.name,
      managerPhone: employees.phone,
      employeeCount: memberCount,
      ruleCount,
    })
    .from(attendanceGroups)
    .leftJoin(companies, eq(companies.id, attendanceGroups.companyId))
    .leftJoin(employees, eq(employees.id, attendanceGroups.managerId))
}

function toDetail(row: Awaited<ReturnType<ReturnType<typeof groupDetails>['execute']>>[number]): GroupDetail {
  return {
    group: row.group,
    companyName: row.companyName,
    companyTimezone: row.companyTimezone,
    companyStartsOn: row.companyStartsOn,
    manager: row.managerId === null ? null : { id: row.managerId, name: row.managerName!, phone: row.managerPhone },
    employeeCount: row.employeeCount,
    ruleCount: row.ruleCount,
  }
}

export async function findGroup(db: Queryable, id: number): Promise<GroupDetail | null> {
  const [row] = await groupDetails(db).where(eq(attendanceGroups.id, id)).limit(1)
  return row ? toDetail(row) : null
}

export async function insertGroup(db: Queryable, values: NewGroup): Promise<number> {
  const [row] = await db.insert(attendanceGroups).values(values).returning({ id: attendanceGroups.id })
  return row.id
}

export async function updateGroup(db: Queryable, id: number, values: Partial<NewGroup>): Promise<void> {
  await db.update(attendanceGroups).set(values).where(eq(attendanceGroups.id, id))
}

export async function deleteGroup(db: Queryable, id: number): Promise<void> {
  await db.delete(attendanceGroups).where(eq(attendanceGroups.id, id))
}

export async function listGroups(db: Queryable, filter: { companyId?: number; status?: number; search?: string }, window: PageWindow) {
  const conditions: SQL[] = []
  if (filter.companyId !== undefined) conditions.push(eq(attendanceGroups.companyId, filter.companyId))
  if (filter.status !== undefined) conditions.push(eq(attendanceGroups.status, filter.status))
  if (filter.search?.trim()) conditions.push(containsAny(filter.search, [attendanceGroups.name]))
  const where = conditions.length > 0 ? and(...conditions) : undefined
  const [rows, [{ total }]] = await Promise.all([
    groupDetails(db).where(where).orderBy(asc(attendanceGroups.id)).limit(window.pageSize).offset(window.offset),
    db.select({ total: count() }).from(attendanceGroups).where(where),
  ])
  return { rows: rows.map(toDetail), total }
}

export async function membersOfGroup(db: Queryable, groupId: number) {
  return db
    .select({ id: employees.id, name: employees.name, phone: employees.phone })
    .from(attendanceGroupMembers)
    .innerJoin(employees, eq(employees.id, attendanceGroupMembers.employeeId))
    .where(eq(attendanceGroupMembers.groupId, groupId))
    .orderBy(asc(employees.id))
}

/** Puts the employees in the group, moving them out of any other. */
export async function addMembers(db: Queryable, groupId: number, employeeIds: number[], at: Date): Promise<void> {
  await db
    .insert(attendanceGroupMembers)
    .values(employeeIds.map((employeeId) => ({ employeeId, groupId, createdAt: at })))
    .onConflictDoUpdate({ target: attendanceGroupMembers.employeeId, set: { groupId, createdAt: at } })
}

/** The groups other than `groupId` that some of the employees are in now, in id order. */
export async function otherGroupsOf(db: Queryable, employeeIds: number[], groupId: number): Promise<number[]> {
  const rows = await db
    .selectDistinct({ groupId: attendanceGroupMembers.groupId })
    .from(attendanceGroupMembers)
    .where(and(inArray(attendanceGroupMembers.employeeId, employeeIds), ne(attendanceGroupMembers.groupId, groupId)))
    .orderBy(asc(attendanceGroupMembers.groupId))
  return rows.map((row) => row.groupId)
}

export async function removeMembers(db: Queryable, groupId: number, employeeIds: number[]): Promise<void> {
  await db
    .delete(attendanceGroupMembers)
    .where(and(eq(attendanceGroupMembers.groupId, groupId), inArray(attendanceGroupMembers.employeeId, employeeIds)))
}

export async function existingEmployeeIds(db: Queryable, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return []
  const rows = await db.select({ id: employees.id }).from(employees).where(inArray(employees.id, ids))
  return rows.map((row) => row.id)
}

/** The columns of a Membership, beside `more` of the employee's own. */
export const membershipColumns = <T extends Record<string, unknown>>(more: T) => ({
  ...more,
  hireDate: employees.hireDate,
  leftOn: employees.leftOn,
  status: employees.status,
  group: attendanceGroups,
  companyTimezone: companies.timezone,
  companyStartsOn: companies.attendanceStartsOn,
})

/** Employees joined with their attendance group and its company: a Membership's sources (attendance/caller.ts). */
export const withMembership = <T extends SQLiteSelect>(query: T) =>
  query
    .leftJoin(attendanceGroupMembers, eq(attendanceGroupMembers.employeeId, employees.id))
    .leftJoin(attendanceGroups, eq(attendanceGroups.id, attendanceGroupMembers.groupId))
    .leftJoin(companies, eq(companies.id, attendanceGroups.companyId))

/** The group an employee is in, or null. */
const membershipRows = preparedQuery((db) =>
  withMembership(db.select(membershipColumns({})).from(employees).$dynamic())
    .where(eq(employees.id, sql.placeholder('employeeId')))
    .limit(1)
    .prepare(),
)

/** What an employee's attendance context is built from (see attendance/caller.ts). */
export interface Membership {
  hireDate: string | null
  /** the last day employed (CONTRACT §18), null while employed */
  leftOn: string | null
  status: number
  group: GroupRow | null
  companyTimezone: string | null
  /** the group's company's attendance_starts_on (CONTRACT §23) */
  companyStartsOn: string | null
}

/** An employee's hire date, status and attendance group (with its company's zone and attendance start), in one query; null when the employee is gone. */
export async function membershipOf(db: Db, employeeId: number): Promise<Membership | null> {
  const [row] = await membershipRows(db).all({ employeeId })
  return row ?? null
}
