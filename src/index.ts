import { createApp } from './app'
import { loadConsole } from './http/console'
import { prepare } from './bootstrap'
import { ConfigError, loadConfig } from './config'
import { startUpProblem } from './db/unavailable'
import { PRIVATE_UMASK } from './lib/private-files'
import { QUIET_RELEASE, quietRelease, scheduleQuietRelease } from './lib/quiet-release'
import { checkCanListen, checkDataLocations, listenProblem, StartUpError } from './lib/start-up-checks'
import { readTlsFiles, TlsFileError, type TlsMaterial } from './lib/tls-files'
import { describeCertificate, tlsOptions, tlsReloader } from './http/tls-listener'
import { createDayClose, scheduleDayClose } from './modules/attendance/day-close'
import { createBackupJob, scheduleBackups } from './modules/backups/schedule'
import { reconcileStorage, scheduleStorageSweep } from './modules/storage/reconcile'

// everything this process writes (database, uploads, backups) is its user's only
process.umask(PRIVATE_UMASK)

let config
let tls: TlsMaterial | undefined
try {
  config = loadConfig()
  tls = config.tls ? readTlsFiles(config.tls) : undefined
  checkCanListen(config.host, config.port, config.reusePort)
  checkDataLocations(config)
} catch (error) {
  if (!(error instanceof ConfigError) && !(error instanceof StartUpError) && !(error instanceof TlsFileError)) throw error
  console.error(error.message)
  process.exit(1)
}

let deps
try {
  deps = await prepare(config)
} catch (error) {
  // a libSQL server that cannot be reached, refuses the token or does not answer: a line saying so, not a stack trace
  const problem = startUpProblem(error, config.databaseUrl)
  if (!problem) throw error
  console.error(problem)
  process.exit(1)
}
// a stray rejection is a bug to log, not a reason to drop every request in flight
process.on('unhandledRejection', (error) => deps.logger.error('unhandled rejection', { error: String(error) }))
const webConsole = loadConsole()
if (!webConsole) deps.logger.warn('the web console is not built, so / shows the API docs: build it with `bun src/console/build.ts` (`bun run start` does)')
const release = quietRelease(QUIET_RELEASE)
const listenOptions = {
  port: config.port,
  hostname: config.host,
  // a TLS listener shares its port with its successor while a SIGHUP swaps them (http/tls-listener.ts)
  reusePort: config.reusePort || tls !== undefined,
  // a batch upload may carry 20 files of the maximum size; the service enforces the real limits as it streams
  maxRequestBodySize: config.maxFileSize * 20 + 1024 * 1024,
}
let app
try {
  app = createApp({ ...deps, console: webConsole })
    .onRequest(release.touch)
    .listen({ ...listenOptions, ...(tls ? { tls: tlsOptions(tls) } : {}) })
} catch (error) {
  // another process took the port since the check above, or it was skipped (REUSE_PORT=true)
  const problem = listenProblem(config.host, config.port, config.reusePort, error)
  if (!problem) throw error
  console.error(problem.message)
  await deps.database.close()
  process.exit(1)
}
let stopping = false
const tlsReload = config.tls ? tlsReloader(app, listenOptions, config.tls, deps.logger) : null
// SIGHUP: the certificate files are read again (after a renewal) and served to new connections; without TLS it
// changes nothing. Handled before the listening line, which tells a supervisor the process is ready for it.
process.on('SIGHUP', () => {
  if (stopping) return
  if (tlsReload) tlsReload.reload()
  else deps.logger.info('SIGHUP: nothing to reload, the service serves plain HTTP (TLS_CERT_FILE and TLS_KEY_FILE are unset)')
})

const port = app.server?.port
// PUBLIC_URL's default names the configured port, which with PORT=0 is not the one bound
const publicUrl = config.port === 0 ? config.publicUrl.replace(/^(https?):\/\/localhost:0$/, `$1://localhost:${port}`) : config.publicUrl
if (config.tls && tls) deps.logger.info('serving HTTPS', describeCertificate(config.tls, tls))
deps.logger.info('Workforce is listening', {
  url: `${tls ? 'https' : 'http'}://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`,
  docs: `${publicUrl}/swagger`,
  ...(webConsole ? { console: `${publicUrl}/` } : {}),
})

const stopStorageSweep = scheduleStorageSweep(
  () => reconcileStorage(deps.database, deps.store, deps.clock.now(), deps.logger),
  config.storageSweepSeconds,
  deps.logger,
)

const stopQuietRelease = scheduleQuietRelease(release)

const stopDayClose = scheduleDayClose(
  createDayClose({ database: deps.database, clock: deps.clock, defaultZone: config.defaultTimezone, logger: deps.logger }),
  deps.logger,
)

const stopBackups =
  config.backup.intervalHours > 0
    ? scheduleBackups(
        createBackupJob({ ...deps, databaseUrl: config.databaseUrl, storage: config.storage, settings: config.backup }),
        deps.logger,
      )
    : async () => {}

const shutdown = async (signal: string) => {
  if (stopping) return
  stopping = true
  deps.logger.info('stopping: finishing requests in flight', { signal })
  stopDayClose()
  stopQuietRelease()
  stopStorageSweep()
  // the stopped server itself is not awaited as a value: its type (the whole app) is too deep for Promise.all
  await Promise.all([app.stop(false).then(() => {}), stopBackups(), tlsReload?.drained()])
  await deps.database.close()
  deps.logger.info('stopped')
  process.exit(0)
}
process.on('SIGTERM', () => void shutdown('SIGTERM'))
process.on('SIGINT', () => void shutdown('SIGINT'))
