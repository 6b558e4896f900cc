import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { users } from './users'

/**
 * The write probe of /health (CONTRACT §25): one row per instance, rewritten at most every few
 * seconds in its own transaction, so a database that takes reads but no writes shows.
 */
export const healthProbes = sqliteTable('health_probes', {
  instance: text('instance').primaryKey(),
  probedAt: integer('probed_at', { mode: 'timestamp_ms' }).notNull(),
})

/**
 * `Idempotency-Key` of create requests (CONTRACT §25), kept 24 hours per account: the request's
 * fingerprint, and its answer once there is one (`status` null while the first request runs).
 */
export const idempotencyKeys = sqliteTable(
  'idempotency_keys',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    /** method, path and a SHA-256 of the body: the same key with another request is a 409 */
    fingerprint: text('fingerprint').notNull(),
    status: integer('status'),
    /** the answer's body as sent (JSON text) */
    body: text('body'),
    /** the answer's content type */
    contentType: text('content_type'),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [uniqueIndex('idempotency_keys_user_key_unique').on(t.userId, t.key), index('idempotency_keys_created_idx').on(t.createdAt)],
)
