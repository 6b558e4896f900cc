import { createApp } from './app'
import { loadConsole } from './http/console'
import { prepare } from './bootstrap'
import { ConfigError, loadConfig } from './config'
import { startUpProblem } from './db/unavailable'
import { PRIVATE_UMASK } from './lib/private-files'
import { QUIET_RELEASE, quietRelease, scheduleQuietRelease } from './lib/quiet-release'
import { checkCanListen, checkDataLocations, listenProblem, StartUpError } from './lib/start-up-checks'
import { createDayClose, scheduleDayClose } from './modules/attendance/day-close'
import { createBackupJob, scheduleBackups } from './modules/backups/schedule'
import { reconcileStorage, scheduleStorageSweep } from './modules/storage/reconcile'

// everything this process writes (database, uploads, backups) is its user's only
process.umask(PRIVATE_UMASK)

let config
try {
  config = loadConfig()
  checkCanListen(config.host, config.port, config.reusePort)
  checkDataLocations(config)
} catch (error) {
  if (!(error instanceof ConfigError) && !(error instanceof StartUpError)) throw error
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
let app
try {
  app = createApp({ ...deps, console: webConsole }).onRequest(release.touch).listen({
    port: config.port,
    hostname: config.host,
    reusePort: config.reusePort,
    // a batch upload may carry 20 files of the maximum size; the service enforces the real limits as it streams
    maxRequestBodySize: config.maxFileSize * 20 + 1024 * 1024,
  })
} catch (error) {
  // another process took the port since the check above, or it was skipped (REUSE_PORT=true)
  const problem = listenProblem(config.host, config.port, config.reusePort, error)
  if (!problem) throw error
  console.error(problem.message)
  await deps.database.close()
  process.exit(1)
}
const port = app.server?.port
// PUBLIC_URL's default names the configured port, which with PORT=0 is not the one bound
const publicUrl = config.port === 0 ? config.publicUrl.replace(/^http:\/\/localhost:0$/, `http://localhost:${port}`) : config.publicUrl
deps.logger.info('Workforce is listening', {
  url: `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`,
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

let stopping = false
const shutdown = async (signal: string) => {
  if (stopping) return
  stopping = true
  deps.logger.info('stopping: finishing requests in flight', { signal })
  stopDayClose()
  stopQuietRelease()
  stopStorageSweep()
  await Promise.all([app.stop(false), stopBackups()])
  await deps.database.close()
  deps.logger.info('stopped')
  process.exit(0)
}
process.on('SIGTERM', () => void shutdown('SIGTERM'))
process.on('SIGINT', () => void shutdown('SIGINT'))
