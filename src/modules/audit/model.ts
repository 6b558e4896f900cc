import { t } from 'elysia'
import { PositiveInt, Timestamp } from '../../http/models'
import { pageQuery } from '../../http/pagination'

export const AuditLog = t.Object({
  id: t.Integer(),
  actor_id: t.Nullable(t.Integer({ description: 'user who made the change; null when nobody was signed in' })),
  actor_username: t.Nullable(t.String({ description: 'that user’s current username; null once the user is deleted' })),
  action: t.String({ examples: ['role.create'] }),
  resource: t.String({ examples: ['role'] }),
  resource_id: t.Nullable(t.String()),
  before: t.Unknown({ description: 'the resource before the change (null when created)' }),
  after: t.Unknown({ description: 'the resource after the change (null when deleted)' }),
  ip: t.Nullable(t.String()),
  created_at: Timestamp,
})
export type AuditLogResponse = typeof AuditLog.static

const Moment = (field: string) =>
  t.String({
    pattern: '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2}))?$',
    description: 'YYYY-MM-DD (a whole UTC day) or an ISO 8601 timestamp with its offset',
    error: `${field} must be a date YYYY-MM-DD or an ISO 8601 timestamp such as 2024-03-15T09:30:00Z`,
  })

export const AuditLogQuery = t.Object({
  ...pageQuery(10),
  actor_id: t.Optional(PositiveInt('actor_id', 'only changes made by this user')),
  resource: t.Optional(t.String({ maxLength: 50, description: 'resource type, e.g. role, user, department' })),
  action: t.Optional(t.String({ maxLength: 100, description: 'exact action, e.g. role.permission.add' })),
  from: t.Optional(Moment('from')),
  to: t.Optional(Moment('to')),
})
export type AuditLogQuery = typeof AuditLogQuery.static
