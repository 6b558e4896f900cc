import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'

/**
 * One row per change made through the API, written in the change's own transaction.
 * `actor_id` has no foreign key on purpose: the entry outlives the user who made it.
 */
export const auditLogs = sqliteTable(
  'audit_logs',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    actorId: integer('actor_id'),
    action: text('action').notNull(),
    resource: text('resource').notNull(),
    resourceId: text('resource_id'),
    /** JSON of the resource before and after the change; null where there is none. */
    before: text('before', { mode: 'json' }),
    after: text('after', { mode: 'json' }),
    ip: text('ip'),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [
    index('audit_logs_created_idx').on(t.createdAt),
    index('audit_logs_actor_idx').on(t.actorId, t.createdAt),
    index('audit_logs_resource_idx').on(t.resource, t.createdAt),
    index('audit_logs_action_idx').on(t.action, t.createdAt),
  ],
)
