/**
 * `bun run restore ARCHIVE`: restores an archive of `bun run backup` into the data location of the
 * settings it runs with (DATABASE_URL's file, STORAGE_URL's folder), which must be empty. Every
 * checksum is verified before anything is put in place. Exit 0 when restored, 1 when refused (the
 * reason on stderr), 2 for a wrong command line.
 */
import { resolve } from 'node:path'
import { loadConfigOrExit } from '../config'
import { createLogger } from '../lib/logger'
import { PRIVATE_UMASK } from '../lib/private-files'
import { restoreBackup } from '../modules/backups/restore'

const USAGE = `usage: bun run restore <archive.tar.gz>
  Restores a backup into DATABASE_URL's database file and STORAGE_URL's folder, which must not exist
  or be empty. Start the service on them afterwards: it applies any newer migrations.`

process.umask(PRIVATE_UMASK)

const args = process.argv.slice(2)
if (args.includes('--help') || args.includes('-h')) {
  console.log(USAGE)
  process.exit(0)
}
if (args.length !== 1 || args[0].startsWith('-')) {
  console.error(USAGE)
  process.exit(2)
}

const config = loadConfigOrExit()

const logger = createLogger(config.logLevel)
const started = performance.now()
try {
  const result = await restoreBackup(resolve(args[0]), { databaseUrl: config.databaseUrl, storage: config.storage })
  const { manifest } = result
  logger.info('backup restored', {
    archive: resolve(args[0]),
    taken_at: manifest.created_at,
    made_by: manifest.service_version,
    migration: manifest.migration.tag,
    database: result.database,
    rows: Object.values(manifest.database.rows).reduce((sum, rows) => sum + rows, 0),
    storage: result.storage,
    objects: manifest.files.objects,
    seconds: Math.round(performance.now() - started) / 1000,
  })
  for (const note of result.notes) logger.warn(note)
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error))
  process.exit(1)
}
