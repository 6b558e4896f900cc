import { readMigrationFiles } from 'drizzle-orm/migrator'
import { sql } from 'drizzle-orm'
import type { Database, Tx } from './client'
import { join } from 'node:path'

const MIGRATIONS_FOLDER = join(import.meta.dir, '..', '..', 'drizzle')
const TABLE = '__drizzle_migrations'

/** Building an index over millions of rows takes a while: start-up waits this long for the migrations. */
const MIGRATION_TIMEOUT_MS = 10 * 60_000

/**
 * Applies drizzle-kit's migrations in one write transaction. The check of what is
 * applied happens under the write lock, so several instances starting at once on
 * one new database apply each migration exactly once and all come up.
 */
export function migrate(database: Database, folder = MIGRATIONS_FOLDER): Promise<number> {
  const migrations = readMigrationFiles({ migrationsFolder: folder })
  return database.write((tx) => apply(tx, migrations), { timeoutMs: MIGRATION_TIMEOUT_MS })
}

async function apply(tx: Tx, migrations: ReturnType<typeof readMigrationFiles>): Promise<number> {
  await tx.run(
    sql.raw(`CREATE TABLE IF NOT EXISTS ${TABLE} (id INTEGER PRIMARY KEY AUTOINCREMENT, hash TEXT NOT NULL, created_at NUMERIC)`),
  )
  const last = await tx.all<{ created_at: unknown }>(sql.raw(`SELECT created_at FROM ${TABLE} ORDER BY created_at DESC LIMIT 1`))
  const lastApplied = last.length > 0 ? Number(last[0].created_at) : -1
  let applied = 0
  for (const migration of migrations) {
    if (migration.folderMillis <= lastApplied) continue
    for (const statement of migration.sql) {
      if (statement.trim() !== '') await tx.run(sql.raw(statement))
    }
    await tx.run(sql`INSERT INTO ${sql.raw(TABLE)} (hash, created_at) VALUES (${migration.hash}, ${migration.folderMillis})`)
    applied++
  }
  return applied
}
