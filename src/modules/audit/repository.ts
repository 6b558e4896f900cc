import { and, count, desc, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm'
import type { Queryable } from '../../db/client'
import {
  attendanceGroups,
  attendanceRules,
  auditLogs,
  companies,
  departments,
  employees,
  files,
  leaveTypes,
  permissions,
  roles,
  users,
} from '../../db/schema'
import type { PageWindow } from '../../http/pagination'
import type { NamedKind } from './targets'

export interface AuditFilter {
  actorId?: number
  resource?: string
  action?: string
  /** inclusive */
  from?: Date
  /** exclusive */
  until?: Date
}

export async function listAuditLogs(db: Queryable, filter: AuditFilter, window: PageWindow) {
  const conditions: SQL[] = []
  if (filter.actorId !== undefined) conditions.push(eq(auditLogs.actorId, filter.actorId))
  if (filter.resource) conditions.push(eq(auditLogs.resource, filter.resource))
  if (filter.action) conditions.push(eq(auditLogs.action, filter.action))
  if (filter.from) conditions.push(gte(auditLogs.createdAt, filter.from))
  if (filter.until) conditions.push(lt(auditLogs.createdAt, filter.until))
  const where = conditions.length > 0 ? and(...conditions) : undefined
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({ entry: auditLogs, actorUsername: users.username })
      .from(auditLogs)
      .leftJoin(users, eq(users.id, auditLogs.actorId))
      .where(where)
      .orderBy(desc(auditLogs.createdAt), desc(auditLogs.id))
      .limit(window.pageSize)
      .offset(window.offset),
    db.select({ total: count() }).from(auditLogs).where(where),
  ])
  return { rows, total }
}

/** What names a target: its name (an account's username, a file's original name) and an employee's number. */
export interface TargetRow {
  id: string
  name: string
  no: string | null
}

const NAMED_TABLES = {
  company: companies,
  department: departments,
  attendance_group: attendanceGroups,
  attendance_rule: attendanceRules,
  leave_type: leaveTypes,
  role: roles,
  permission: permissions,
} as const

/** The targets of one kind among `ids` (as audit entries write them) that still exist: one query. */
export async function targetRows(db: Queryable, kind: NamedKind, ids: readonly string[]): Promise<TargetRow[]> {
  if (kind === 'file') {
    const rows = await db.select({ id: files.id, name: files.originalName }).from(files).where(inArray(files.id, [...ids]))
    return rows.map((row) => ({ ...row, no: null }))
  }
  const numbers = ids.filter((id) => /^\d{1,15}$/.test(id)).map(Number)
  if (numbers.length === 0) return []
  const found =
    kind === 'employee'
      ? await db.select({ id: employees.id, name: employees.name, no: employees.employeeNo }).from(employees).where(inArray(employees.id, numbers))
      : kind === 'user'
        ? await db.select({ id: users.id, name: users.username, no: sql<null>`NULL` }).from(users).where(inArray(users.id, numbers))
        : await db
            .select({ id: NAMED_TABLES[kind].id, name: NAMED_TABLES[kind].name, no: sql<null>`NULL` })
            .from(NAMED_TABLES[kind])
            .where(inArray(NAMED_TABLES[kind].id, numbers))
  return found.map((row) => ({ id: String(row.id), name: row.name, no: row.no }))
}
