import { readMigrationFiles } from 'drizzle-orm/migrator'
import type { Database } from './client'
import { join } from 'node:path'

const MIGRATIONS_FOLDER = join(import.meta.dir, '..', '..', 'drizzle')
const TABLE = '__drizzle_migrations'

/**
 * Applies drizzle-kit's migrations in one write transaction. The check of what is
 * applied happens under the write lock, so several instances starting at once on
 * one new database apply each migration exactly once and all come up.
 */
export function migrate(database: Database, folder = MIGRATIONS_FOLDER): Promise<number> {
  const migrations = readMigrationFiles({ migrationsFolder: folder })
  return database.exclusive(() => apply(database, migrations))
}

async function apply(database: Database, migrations: ReturnType<typeof readMigrationFiles>): Promise<number> {
  const tx = await database.client.transaction('write')
  try {
    await tx.execute(
      `CREATE TABLE IF NOT EXISTS ${TABLE} (id INTEGER PRIMARY KEY AUTOINCREMENT, hash TEXT NOT NULL, created_at NUMERIC)`,
    )
    const last = await tx.execute(`SELECT created_at FROM ${TABLE} ORDER BY created_at DESC LIMIT 1`)
    const lastApplied = last.rows.length > 0 ? Number(last.rows[0].created_at) : -1
    let applied = 0
    for (const migration of migrations) {
      if (migration.folderMillis <= lastApplied) continue
      for (const statement of migration.sql) {
        if (statement.trim() !== '') await tx.execute(statement)
      }
      await tx.execute({
        sql: `INSERT INTO ${TABLE} (hash, created_at) VALUES (?, ?)`,
        args: [migration.hash, migration.folderMillis],
      })
      applied++
    }
    await tx.commit()
    return applied
  } finally {
    tx.close()
  }
}
