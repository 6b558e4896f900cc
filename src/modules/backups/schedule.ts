import { randomUUID } from 'node:crypto'
import type { BackupSettings, StorageConfig } from '../../config'
import type { Database } from '../../db/client'
import { createLease } from '../../db/leases'
import type { Clock } from '../../lib/clock'
import type { Logger } from '../../lib/logger'
import type { BackupResult } from './backup'
import { newestArchive, pruneArchives } from './retention'

const LEASE = 'backups'
/** Renewed every minute while the holder lives (and while it writes an archive); a dead holder's lapses after this. */
const LEASE_MS = 3 * 60_000
const CHECK_MS = 60_000
/** After a failed backup the next try waits this long (or the interval, if shorter), not a minute. */
const RETRY_MS = 15 * 60_000

export interface BackupJobDeps {
  database: Database
  databaseUrl: string
  storage: StorageConfig
  settings: BackupSettings
  clock: Clock
  logger: Logger
}

/**
 * The scheduled backup: every `intervalHours` after the newest archive in BACKUP_DIR (at once when
 * there is none), one archive; then the oldest beyond BACKUP_KEEP go. Among instances sharing the
 * database only the holder of the `backups` lease makes them.
 */
export function createBackupJob({ database, databaseUrl, storage, settings, clock, logger }: BackupJobDeps) {
  const lease = createLease(database, LEASE, randomUUID(), LEASE_MS)
  const intervalMs = settings.intervalHours * 3600_000
  let failedAt: number | null = null

  return {
    /** Makes a backup when one is due and this instance holds the lease; null when it made none. */
    async tick(signal?: AbortSignal): Promise<BackupResult | null> {
      const now = clock.now()
      if (failedAt !== null && now.getTime() - failedAt < Math.min(RETRY_MS, intervalMs)) return null
      if (!(await lease.take(now))) return null
      const started = performance.now()
      // a backup may outlast the lease: the holder keeps it while it works
      const renew = setInterval(() => void lease.take(clock.now()).catch(() => {}), LEASE_MS / 3)
      let result: BackupResult
      let pruned: string[]
      try {
        const newest = await newestArchive(settings.dir)
        if (newest && now.getTime() - newest.at.getTime() < intervalMs) return null
        // loaded with the first backup, not at start: the archive writer (tar-stream, zlib, the snapshot thread) is about 3 MB of every process
        const { writeBackup } = await import('./backup')
        result = await writeBackup({ databaseUrl, storage, dir: settings.dir, now, signal })
        pruned = await pruneArchives(settings.dir, settings.keep, clock.now())
        failedAt = null
      } catch (error) {
        failedAt = now.getTime()
        throw error
      } finally {
        clearInterval(renew)
      }
      logger.info('backup written', {
        archive: result.path,
        bytes: result.bytes,
        seconds: Math.round(performance.now() - started) / 1000,
        objects: result.manifest.files.objects,
        pruned,
      })
      return result
    },
  }
}

export type BackupJob = ReturnType<typeof createBackupJob>

/**
 * Checks every `checkMs` whether a backup is due; returns a function that stops the schedule and
 * abandons a backup in progress (its partial files are removed), resolving once it has.
 */
export function scheduleBackups(job: BackupJob, logger: Logger, checkMs = CHECK_MS): () => Promise<void> {
  const stopping = new AbortController()
  let running: Promise<void> | null = null
  const run = () => {
    if (running || stopping.signal.aborted) return
    running = job
      .tick(stopping.signal)
      .then(() => undefined)
      .catch((error: unknown) => {
        if (!stopping.signal.aborted) logger.error('backup failed', { error: error instanceof Error ? error.message : String(error) })
      })
      .finally(() => {
        running = null
      })
  }
  run()
  const timer = setInterval(run, checkMs)
  return async () => {
    clearInterval(timer)
    stopping.abort(new Error('the service is stopping'))
    await running
  }
}

/** The age of the newest archive in seconds, for /health; null when there is none. */
export const backupAge = (dir: string, clock: Clock) => async (): Promise<number | null> => {
  const newest = await newestArchive(dir).catch(() => null)
  return newest ? Math.max(0, Math.floor((clock.now().getTime() - newest.at.getTime()) / 1000)) : null
}
