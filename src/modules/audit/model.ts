import { t } from 'elysia'
import { PositiveInt, Timestamp } from '../../http/models'
import { pageQuery } from '../../http/pagination'
import { ruleText } from '../../lib/messages'

export const AuditLog = t.Object({
  id: t.Integer(),
  actor_id: t.Nullable(t.Integer({ description: 'user who made the change; null when nobody was signed in' })),
  actor_username: t.Nullable(t.String({ description: 'that user’s current username; null once the user is deleted' })),
  action: t.String({ examples: ['role.create'] }),
  action_text: t.String({
    description: 'extension: the action in words, in the language of the request (the code itself when it has none)',
    examples: ['Created a role'],
  }),
  resource: t.String({ examples: ['role'] }),
  resource_id: t.Nullable(t.String()),
  target_text: t.String({
    description:
      'extension: the target as a person knows it, read now: an employee by name and number, an account by username, a company, department, attendance group or rule, leave type, role, permission or file by its name; "employee #126 (deleted)" once it is gone; any other by its type and id; a change of many at once by its type alone',
    examples: ['Zhang San (E001)'],
  }),
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
    error: ruleText({
      en: `${field} must be a date YYYY-MM-DD or an ISO 8601 timestamp such as 2024-03-15T09:30:00Z`,
      zh: `${field} 必须是 YYYY-MM-DD 格式的日期，或带时区的 ISO 8601 时间（例如 2024-03-15T09:30:00Z）`,
    }),
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
