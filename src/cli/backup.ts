/**
 * `bun run backup`: one archive of the database and the local file store into BACKUP_DIR, taken
 * while the service runs; then the oldest beyond BACKUP_KEEP are removed. Reads the same settings as
 * the service. Exit 0 when the archive is written, 1 when it could not be (the reason on stderr).
 */
import { loadConfigOrExit } from '../config'
import { systemClock } from '../lib/clock'
import { createLogger } from '../lib/logger'
import { PRIVATE_UMASK } from '../lib/private-files'
import { writeBackup } from '../modules/backups/backup'
import { pruneArchives } from '../modules/backups/retention'

const USAGE = `usage: bun run backup
  Writes workforce-backup-<UTC time>.tar.gz into BACKUP_DIR (database snapshot, file objects,
  manifest with checksums) and keeps the newest BACKUP_KEEP archives. Settings as for the service.`

process.umask(PRIVATE_UMASK)

const args = process.argv.slice(2)
if (args.length > 0) {
  const help = args.includes('--help') || args.includes('-h')
  ;(help ? console.log : console.error)(USAGE)
  process.exit(help ? 0 : 2)
}

const config = loadConfigOrExit()

const logger = createLogger(config.logLevel)
const stopping = new AbortController()
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => stopping.abort(new Error(`stopped by ${signal}: no archive was written`)))

const started = performance.now()
try {
  const now = systemClock.now()
  const result = await writeBackup({ databaseUrl: config.databaseUrl, storage: config.storage, dir: config.backup.dir, now, signal: stopping.signal })
  const pruned = await pruneArchives(config.backup.dir, config.backup.keep, now)
  logger.info('backup written', {
    archive: result.path,
    bytes: result.bytes,
    seconds: Math.round(performance.now() - started) / 1000,
    migration: result.manifest.migration.tag,
    rows: Object.values(result.manifest.database.rows).reduce((sum, rows) => sum + rows, 0),
    objects: result.manifest.files.objects,
    ...(result.manifest.files.note && { note: result.manifest.files.note }),
    pruned,
  })
} catch (error) {
  console.error(`Backup failed: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
}
