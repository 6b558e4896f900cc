import type { Queryable } from '../../db/client'
import { ValidationError } from '../../http/errors'
import { p1, pageWindow } from '../../http/pagination'
import { isCalendarDate } from '../../lib/dates'
import type { AuditLogQuery, AuditLogResponse } from './model'
import * as repo from './repository'

const DAY_MS = 86_400_000

/** A query bound as an instant: a bare date is a whole UTC day, so `to` ends at its midnight. */
function bound(value: string | undefined, field: 'from' | 'to'): Date | undefined {
  if (value === undefined) return undefined
  const dateOnly = value.length === 10
  const at = new Date(dateOnly ? `${value}T00:00:00Z` : value)
  if ((dateOnly && !isCalendarDate(value)) || Number.isNaN(at.getTime()))
    throw new ValidationError(`${field} "${value}" is not a real date or time`, [{ field, message: 'is not a real date or time' }])
  // `to` is inclusive: a whole day, or the given instant's millisecond
  return field === 'to' ? new Date(at.getTime() + (dateOnly ? DAY_MS : 1)) : at
}

function toAuditLogResponse({ entry, actorUsername }: Awaited<ReturnType<typeof repo.listAuditLogs>>['rows'][number]): AuditLogResponse {
  return {
    id: entry.id,
    actor_id: entry.actorId,
    actor_username: actorUsername,
    action: entry.action,
    resource: entry.resource,
    resource_id: entry.resourceId,
    before: entry.before,
    after: entry.after,
    ip: entry.ip,
    created_at: entry.createdAt.toISOString(),
  }
}

export function createAuditService({ db }: { db: Queryable }) {
  return {
    async list(query: AuditLogQuery) {
      const window = pageWindow(query, 10)
      const from = bound(query.from, 'from')
      const until = bound(query.to, 'to')
      if (from && until && from >= until)
        throw new ValidationError('from must not be later than to', [{ field: 'from', message: 'is later than to' }])
      const { rows, total } = await repo.listAuditLogs(
        db,
        { actorId: query.actor_id, resource: query.resource?.trim(), action: query.action?.trim(), from, until },
        window,
      )
      return p1(rows.map(toAuditLogResponse), total, window)
    },
  }
}

export type AuditService = ReturnType<typeof createAuditService>
