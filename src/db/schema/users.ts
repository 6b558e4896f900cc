import { sql } from 'drizzle-orm'
import { check, index, integer, sqliteTable, text, uniqueIndex, type AnySQLiteColumn } from 'drizzle-orm/sqlite-core'
import { timestamps } from './columns'

export const users = sqliteTable(
  'users',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    username: text('username').notNull(),
    passwordHash: text('password_hash').notNull(),
    name: text('name').notNull(),
    phone: text('phone'),
    email: text('email'),
    avatar: text('avatar'),
    status: integer('status').notNull().default(1),
    /** Raised on logout and password change; access tokens carrying an older value stop working. */
    tokenVersion: integer('token_version').notNull().default(0),
    /** The account that created this one (CONTRACT §15: a fresh account of one's own making may not be made a decider without approvals:manage). */
    createdBy: integer('created_by').references((): AnySQLiteColumn => users.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('users_username_unique').on(sql`lower(${t.username})`),
    index('users_status_idx').on(t.status),
    check('users_status_check', sql`${t.status} IN (0, 1)`),
  ],
)

/** Refresh tokens are opaque; only their SHA-256 is kept. A family is one login's rotation chain. */
export const refreshTokens = sqliteTable(
  'refresh_tokens',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    familyId: text('family_id').notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    usedAt: integer('used_at', { mode: 'timestamp_ms' }),
    revokedAt: integer('revoked_at', { mode: 'timestamp_ms' }),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [
    uniqueIndex('refresh_tokens_hash_unique').on(t.tokenHash),
    index('refresh_tokens_user_idx').on(t.userId),
    index('refresh_tokens_family_idx').on(t.familyId),
  ],
)

/**
 * Failed sign-ins, for throttling: by lower-cased username and the client's address
 * (null when the address is unknown). Rows older than the throttle window are purged.
 */
export const loginFailures = sqliteTable(
  'login_failures',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    usernameKey: text('username_key').notNull(),
    address: text('address'),
    failedAt: integer('failed_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [
    index('login_failures_key_time_idx').on(t.usernameKey, t.failedAt),
    index('login_failures_address_time_idx').on(t.address, t.failedAt),
    index('login_failures_time_idx').on(t.failedAt),
  ],
)

/** Small key/value facts the service keeps about itself (e.g. the generated JWT secret). */
export const settings = sqliteTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
})
