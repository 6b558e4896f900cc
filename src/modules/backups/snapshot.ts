import { Worker } from 'node:worker_threads'
import Database from 'libsql'
import { createPrivateFile } from '../../lib/private-files'

/** What the snapshot itself says: its row counts and its migration level. */
export interface SnapshotFacts {
  rows: Record<string, number>
  /** the last drizzle migration applied; null when none was (not a Workforce database) */
  migration: { createdAt: number; applied: number } | null
}

const BUSY_TIMEOUT_MS = 5000

/**
 * Copies the embedded database at `source` into a new file `target` with `VACUUM INTO`: one read
 * transaction, so the copy is consistent as of its start while writers go on (in WAL mode readers
 * and the writer do not block each other), and compact. It runs synchronously on its own
 * connection, so the service runs it in a worker thread (`takeSnapshot`) to keep serving.
 */
export function snapshotDatabase(source: string, target: string): SnapshotFacts {
  // VACUUM INTO fills an empty file as it is: made first, it keeps its private mode
  createPrivateFile(target)
  const live = new Database(source, { timeout: BUSY_TIMEOUT_MS })
  try {
    live.prepare('VACUUM INTO ?').run(target)
  } finally {
    live.close()
  }
  const copy = new Database(target)
  try {
    const tables = copy
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name`)
      .all() as { name: string }[]
    const rows: Record<string, number> = {}
    for (const { name } of tables) {
      const { n } = copy.prepare(`SELECT count(*) AS n FROM "${name.replaceAll('"', '""')}"`).get() as { n: number }
      rows[name] = Number(n)
    }
    let migration: SnapshotFacts['migration'] = null
    if ('__drizzle_migrations' in rows && rows.__drizzle_migrations > 0) {
      const last = copy.prepare('SELECT max(created_at) AS at FROM __drizzle_migrations').get() as { at: number }
      migration = { createdAt: Number(last.at), applied: rows.__drizzle_migrations }
    }
    return { rows, migration }
  } finally {
    copy.close()
  }
}

/** `snapshotDatabase` in a worker thread: the calling thread's event loop keeps running. */
export function takeSnapshot(source: string, target: string, signal?: AbortSignal): Promise<SnapshotFacts> {
  if (signal?.aborted) return Promise.reject(signal.reason)
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./snapshot-worker.ts', import.meta.url), { workerData: { source, target } })
    let settled = false
    const settle = (outcome: () => void) => {
      if (settled) return
      settled = true
      signal?.removeEventListener('abort', stop)
      outcome()
      void worker.terminate()
    }
    const stop = () => settle(() => reject(signal!.reason))
    signal?.addEventListener('abort', stop, { once: true })
    worker.once('message', (answer: { facts: SnapshotFacts } | { error: string }) =>
      settle(() => ('facts' in answer ? resolve(answer.facts) : reject(new Error(answer.error)))),
    )
    worker.once('error', (error) => settle(() => reject(error)))
    worker.once('exit', (code) => settle(() => reject(new Error(`the snapshot worker stopped (exit code ${code}) before it answered`))))
  })
}
