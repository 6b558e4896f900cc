import { readFileSync } from 'node:fs'
import { join } from 'node:path'

const JOURNAL = join(import.meta.dir, '..', '..', '..', 'drizzle', 'meta', '_journal.json')

export interface KnownMigration {
  tag: string
  /** drizzle's `folderMillis`, kept in `__drizzle_migrations.created_at` when applied */
  createdAt: number
}

/** The migrations this code knows (drizzle-kit's journal), in the order they apply. */
export function knownMigrations(journal = JOURNAL): KnownMigration[] {
  const { entries } = JSON.parse(readFileSync(journal, 'utf8')) as { entries: { tag: string; when: number }[] }
  return entries.map((entry) => ({ tag: entry.tag, createdAt: entry.when })).sort((a, b) => a.createdAt - b.createdAt)
}
