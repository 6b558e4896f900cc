import type { AppDeps } from './app'
import type { Config } from './config'
import { openDatabase } from './db/client'
import { migrate } from './db/migrate'
import { systemClock, type Clock } from './lib/clock'
import { localDataFolders } from './lib/disk-space'
import { createLogger, type Logger } from './lib/logger'
import { keepSetting } from './modules/auth/repository'
import { createTokenService, newSecret } from './modules/auth/tokens'
import { createUrlSigner } from './lib/url-signer'
import { backupAge } from './modules/backups/schedule'
import { databaseProbe, diskFreeProbe, writeProbe } from './modules/health/probes'
import { createAccessResolver } from './modules/rbac/access'
import { seedAccessControl } from './modules/rbac/seed'
import { openStore } from './modules/storage/open-store'
import { ensureFirstAdmin } from './modules/users/first-admin'

/**
 * Opens the database, applies migrations, creates the permission catalogue, the
 * built-in roles, the signing key and the first administrator, and returns what
 * createApp needs. Safe when several instances start together on one database.
 */
export async function prepare(
  config: Config,
  options: { clock?: Clock; logger?: Logger } = {},
): Promise<AppDeps> {
  const clock = options.clock ?? systemClock
  const logger = options.logger ?? createLogger(config.logLevel)
  const database = await openDatabase(config.databaseUrl, config.databaseAuthToken, {
    timeoutMs: config.databaseTimeoutMs,
    maxWrites: config.databaseMaxWrites,
    backgroundCheckpoints: true,
    dataFolders: [...(config.storage.kind === 'file' ? [config.storage.dir] : []), config.backup.dir],
    tightened: (changes) => logger.warn('closed the data files to other users: they hold personal data', { changes }),
  })
  try {
    const applied = await migrate(database)
    if (applied > 0) logger.info('database migrated', { migrations: applied })
    await seedAccessControl(database, clock.now())
    const secret = config.jwtSecret ?? (await database.write((tx) => keepSetting(tx, 'jwt_secret', newSecret())))
    const admin = await ensureFirstAdmin(database, clock, config.adminUsername, config.adminPassword)
    if (admin.generatedPassword)
      logger.warn('created the first administrator with a generated password; it is shown only this once, change it after signing in', {
        username: config.adminUsername,
        password: admin.generatedPassword,
      })
    else if (admin.created) logger.info('created the first administrator', { username: config.adminUsername })

    const store = openStore(config.storage)
    return {
      config,
      database,
      clock,
      logger,
      tokens: createTokenService(secret, clock, config.accessTokenTtl),
      access: createAccessResolver(database.db),
      store,
      urlSigner: createUrlSigner(secret),
      probes: {
        database: databaseProbe(database),
        databaseWrite: writeProbe({
          database,
          clock,
          logger,
          intervalMs: config.health.writeProbeIntervalMs,
          timeoutMs: config.health.writeProbeTimeoutMs,
        }),
        storage: () => store.probe(),
        diskFree: diskFreeProbe(localDataFolders(config)),
        ...(config.backup.intervalHours > 0 && { backupAge: backupAge(config.backup.dir, clock) }),
      },
    }
  } catch (error) {
    await database.close()
    throw error
  }
}
