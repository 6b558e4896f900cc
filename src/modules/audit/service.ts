import type { Locale } from '../../config'
import type { Queryable } from '../../db/client'
import { ValidationError } from '../../http/errors'
import { p1, pageWindow } from '../../http/pagination'
import { isCalendarDate } from '../../lib/dates'
import type { Message } from '../../lib/messages'
import { say } from './messages'
import type { AuditLogQuery, AuditLogResponse } from './model'
import * as repo from './repository'
import { actionText, employeeName, targetText, wantedIds, type NamedKind, type TargetNames } from './targets'

const DAY_MS = 86_400_000

/** A query bound as an instant: a bare date is a whole UTC day, so `to` ends at its midnight. */
function bound(value: string | undefined, field: 'from' | 'to'): Date | undefined {
  if (value === undefined) return undefined
  const dateOnly = value.length === 10
  const at = new Date(dateOnly ? `${value}T00:00:00Z` : value)
  if ((dateOnly && !isCalendarDate(value)) || Number.isNaN(at.getTime()))
    throw new ValidationError(say.notRealMoment({ field, value }), [{ field, message: say.notRealMomentField() }])
  // `to` is inclusive: a whole day, or the given instant's millisecond
  return field === 'to' ? new Date(at.getTime() + (dateOnly ? DAY_MS : 1)) : at
}

type Row = Awaited<ReturnType<typeof repo.listAuditLogs>>['rows'][number]

function toAuditLogResponse({ entry, actorUsername }: Row, names: TargetNames, locale: Locale): AuditLogResponse {
  return {
    id: entry.id,
    actor_id: entry.actorId,
    actor_username: actorUsername,
    action: entry.action,
    action_text: actionText(entry.action, locale),
    resource: entry.resource,
    resource_id: entry.resourceId,
    target_text: targetText(entry.resource, entry.resourceId, names, locale),
    before: entry.before,
    after: entry.after,
    ip: entry.ip,
    created_at: entry.createdAt.toISOString(),
  }
}

/** The names of the targets the entries of a page name: one query per kind of target. */
async function namesFor(db: Queryable, rows: Row[]): Promise<TargetNames> {
  const wanted = wantedIds(rows.map(({ entry }) => entry))
  const found = await Promise.all(
    [...wanted].map(async ([kind, ids]): Promise<[NamedKind, Map<string, Message | string>]> => {
      const targets = await repo.targetRows(db, kind, ids)
      return [kind, new Map(targets.map((target) => [target.id, kind === 'employee' ? employeeName(target.name, target.no) : target.name]))]
    }),
  )
  return new Map(found)
}

export function createAuditService({ db }: { db: Queryable }) {
  return {
    async list(query: AuditLogQuery, locale: Locale) {
      const window = pageWindow(query, 10)
      const from = bound(query.from, 'from')
      const until = bound(query.to, 'to')
      if (from && until && from >= until) throw new ValidationError(say.fromAfterTo(), [{ field: 'from', message: say.fromAfterToField() }])
      const { rows, total } = await repo.listAuditLogs(
        db,
        { actorId: query.actor_id, resource: query.resource?.trim(), action: query.action?.trim(), from, until },
        window,
      )
      const names = await namesFor(db, rows)
      return p1(
        rows.map((row) => toAuditLogResponse(row, names, locale)),
        total,
        window,
      )
    },
  }
}

export type AuditService = ReturnType<typeof createAuditService>
