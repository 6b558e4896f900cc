import { and, count, desc, eq, gte, lt, type SQL } from 'drizzle-orm'
import type { Queryable } from '../../db/client'
import { auditLogs, users } from '../../db/schema'
import type { PageWindow } from '../../http/pagination'

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
