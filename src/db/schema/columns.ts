import { sql } from 'drizzle-orm'
import { integer } from 'drizzle-orm/sqlite-core'

/** Creation and update instants, stored as epoch milliseconds. */
export const timestamps = {
  createdAt: integer('created_at', { mode: 'timestamp_ms' })
    .notNull()
    .default(sql`(unixepoch('subsec') * 1000)`),
  updatedAt: integer('updated_at', { mode: 'timestamp_ms' })
    .notNull()
    .default(sql`(unixepoch('subsec') * 1000)`),
}
