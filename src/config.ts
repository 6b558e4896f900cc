import { isIP } from 'node:net'
import { availableParallelism } from 'node:os'
import { dirname, isAbsolute, join, relative, resolve } from 'node:path'
import { isValidTimeZone } from './lib/timezone'
import type { TlsFiles } from './lib/tls-files'

export type LogLevel = 'debug' | 'info' | 'warn' | 'error'
export type Locale = 'en' | 'zh'

export type StorageConfig =
  | { kind: 'file'; dir: string }
  | {
      kind: 's3'
      bucket: string
      endpoint?: string
      region: string
      forcePathStyle: boolean
      accessKeyId?: string
      secretAccessKey?: string
    }

/** Backups (CONTRACT §14): `bun run backup`, `bun run restore` and the schedule in the service. */
export interface BackupSettings {
  /** BACKUP_DIR: where archives are written */
  dir: string
  /** BACKUP_INTERVAL_HOURS: the service makes one every so many hours; 0: never */
  intervalHours: number
  /** BACKUP_KEEP: the newest this many archives are kept, older ones removed */
  keep: number
}

/** What `GET /health` checks beyond "the database answers" (CONTRACT §25). */
export interface HealthSettings {
  /** HEALTH_MIN_FREE_MB in bytes: less free space than this where the service keeps data makes it "degraded"; 0: never */
  minFreeBytes: number
  /** HEALTH_WRITE_PROBE_INTERVAL_MS: the write probe runs at most once in this long; /health answers in between from its last result */
  writeProbeIntervalMs: number
  /** HEALTH_WRITE_PROBE_TIMEOUT_MS: a write probe not done by then counts as failed ("timeout") */
  writeProbeTimeoutMs: number
}

export interface Config {
  port: number
  host: string
  /** TLS_CERT_FILE and TLS_KEY_FILE: the service serves HTTPS on PORT and reloads them on SIGHUP; undefined: plain HTTP */
  tls?: TlsFiles
  databaseUrl: string
  databaseAuthToken?: string
  /** milliseconds a database call (a write as a whole) may take; past it the request gets 503 */
  databaseTimeoutMs: number
  /** writes of this process in flight at once to a libSQL server; an embedded file takes one at a time */
  databaseMaxWrites: number
  storage: StorageConfig
  /** STORAGE_SWEEP_SECONDS: crash leftovers (partial uploads, objects without rows) are looked for this often, not only at start */
  storageSweepSeconds: number
  backup: BackupSettings
  health: HealthSettings
  publicUrl: string
  /** undefined: generated once and kept in the database */
  jwtSecret?: string
  accessTokenTtl: number
  refreshTokenTtl: number
  adminUsername: string
  /** undefined: generated on first start and printed once */
  adminPassword?: string
  defaultTimezone: string
  maxFileSize: number
  /** bytes of files one account may keep; 0 means no limit */
  uploadQuota: number
  /** password hashes (sign-in checks) running at once in this process; beyond, requests wait briefly or get 503 */
  loginConcurrency: number
  /** addresses of reverse proxies whose X-Forwarded-For is believed; empty: the socket's address is the client's */
  trustedProxies: string[]
  /** several instances on this host share PORT (SO_REUSEPORT); false: a port another process serves stops the start */
  reusePort: boolean
  logLevel: LogLevel
  locale: Locale
}

export class ConfigError extends Error {
  constructor(
    readonly setting: string,
    problem: string,
  ) {
    super(`Invalid setting ${setting}: ${problem}`)
    this.name = 'ConfigError'
  }
}

type Env = Record<string, string | undefined>

function text(env: Env, name: string): string | undefined {
  const value = env[name]?.trim()
  return value === '' ? undefined : value
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = text(env, name)
  if (raw === undefined) return fallback
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `expected a whole number, got "${raw}"`)
  const value = Number(raw)
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`)
  return value
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = text(env, name)?.toLowerCase()
  if (raw === undefined) return fallback
  if (['true', '1', 'yes'].includes(raw)) return true
  if (['false', '0', 'no'].includes(raw)) return false
  throw new ConfigError(name, `expected true or false, got "${raw}"`)
}

function oneOf<T extends string>(env: Env, name: string, fallback: T, allowed: readonly T[]): T {
  const raw = text(env, name)
  if (raw === undefined) return fallback
  if (!(allowed as readonly string[]).includes(raw))
    throw new ConfigError(name, `expected one of ${allowed.join(', ')}, got "${raw}"`)
  return raw as T
}

const DATABASE_SCHEMES = ['file:', 'libsql:', 'http:', 'https:', 'ws:', 'wss:']

function databaseUrl(env: Env): string {
  const url = text(env, 'DATABASE_URL') ?? 'file:data/workforce.db'
  if (!DATABASE_SCHEMES.some((scheme) => url.startsWith(scheme)))
    throw new ConfigError('DATABASE_URL', `expected file:<path>, libsql://, http(s):// or ws(s)://, got "${url}"`)
  if (url === 'file:' || url === ':memory:' || url.includes(':memory:'))
    throw new ConfigError('DATABASE_URL', 'an in-memory database cannot be shared by the service; give a file path')
  return url
}

function storage(env: Env): StorageConfig {
  const url = text(env, 'STORAGE_URL') ?? 'file:data/files'
  const endpoint = text(env, 'S3_ENDPOINT')
  if (url.startsWith('file:')) {
    const dir = url.slice('file:'.length)
    if (dir === '') throw new ConfigError('STORAGE_URL', 'file: needs a folder, e.g. file:data/files')
    return { kind: 'file', dir }
  }
  if (url.startsWith('s3://')) {
    const bucket = url.slice('s3://'.length).replace(/\/+$/, '')
    if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket))
      throw new ConfigError('STORAGE_URL', `"${bucket}" is not a valid S3 bucket name`)
    if (endpoint !== undefined && !isHttpUrl(endpoint))
      throw new ConfigError('S3_ENDPOINT', `expected an http(s) URL, got "${endpoint}"`)
    return {
      kind: 's3',
      bucket,
      endpoint,
      region: text(env, 'S3_REGION') ?? 'us-east-1',
      forcePathStyle: boolean(env, 'S3_FORCE_PATH_STYLE', endpoint !== undefined),
      accessKeyId: text(env, 'AWS_ACCESS_KEY_ID'),
      secretAccessKey: text(env, 'AWS_SECRET_ACCESS_KEY'),
    }
  }
  throw new ConfigError('STORAGE_URL', `expected file:<folder> or s3://<bucket>, got "${url}"`)
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value)
    return url.protocol === 'http:' || url.protocol === 'https:'
  } catch {
    return false
  }
}

/** A comma-separated list of IP addresses; `TRUSTED_PROXIES=127.0.0.1,::1` for a proxy on the same host. */
function trustedProxies(env: Env): string[] {
  const raw = text(env, 'TRUSTED_PROXIES')
  if (raw === undefined) return []
  const addresses = raw.split(',').map((part) => part.trim()).filter((part) => part !== '')
  const bad = addresses.filter((address) => isIP(address) === 0)
  if (bad.length > 0) throw new ConfigError('TRUSTED_PROXIES', `expected IP addresses separated by commas, got "${bad.join('", "')}"`)
  return addresses
}

/** Both PEM files or neither: a certificate without its key (or a key alone) cannot serve. */
function tlsFiles(env: Env): TlsFiles | undefined {
  const certFile = text(env, 'TLS_CERT_FILE')
  const keyFile = text(env, 'TLS_KEY_FILE')
  if (certFile === undefined && keyFile === undefined) return undefined
  if (keyFile === undefined)
    throw new ConfigError('TLS_KEY_FILE', 'TLS_CERT_FILE is set, so TLS_KEY_FILE must name the PEM file of its private key: set both for HTTPS, or neither')
  if (certFile === undefined)
    throw new ConfigError('TLS_CERT_FILE', 'TLS_KEY_FILE is set, so TLS_CERT_FILE must name the PEM file of its certificate: set both for HTTPS, or neither')
  return { certFile, keyFile }
}

/**
 * BACKUP_DIR defaults to `backups` beside the database file (`data/backups` for the default
 * DATABASE_URL, `/data/backups` in the container). Scheduled backups need the embedded file.
 */
function backupSettings(env: Env, databaseUrl: string, storage: StorageConfig): BackupSettings {
  const file = databaseUrl.startsWith('file:') ? databaseUrl.slice('file:'.length).split('?')[0] : null
  const dir = text(env, 'BACKUP_DIR') ?? (file !== null ? join(dirname(file), 'backups') : join('data', 'backups'))
  const intervalHours = integer(env, 'BACKUP_INTERVAL_HOURS', 0, 0, 8760)
  const keep = integer(env, 'BACKUP_KEEP', 7, 1, 10_000)
  if (intervalHours > 0 && file === null)
    throw new ConfigError(
      'BACKUP_INTERVAL_HOURS',
      "scheduled backups copy the embedded database file, and DATABASE_URL names a libSQL server: leave it 0 and use the server's own backups",
    )
  if (storage.kind === 'file') {
    const inside = relative(resolve(storage.dir), resolve(dir))
    if (inside === '' || (!inside.startsWith('..') && !isAbsolute(inside)))
      throw new ConfigError('BACKUP_DIR', `"${dir}" is inside the file store (STORAGE_URL=file:${storage.dir}); give a folder outside it`)
  }
  return { dir, intervalHours, keep }
}

const DAY = 86_400

/** The settings for a command line tool: a bad value is one line on stderr and exit 1, never a stack trace. */
export function loadConfigOrExit(env: Env = process.env): Config {
  try {
    return loadConfig(env)
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    console.error(error.message)
    process.exit(1)
  }
}

/** Reads and validates every setting once; a bad value throws a ConfigError naming it. */
export function loadConfig(env: Env = process.env): Config {
  const port = integer(env, 'PORT', 8080, 0, 65_535)
  const tls = tlsFiles(env)
  const publicUrl = (text(env, 'PUBLIC_URL') ?? `${tls ? 'https' : 'http'}://localhost:${port}`).replace(/\/+$/, '')
  if (!isHttpUrl(publicUrl)) throw new ConfigError('PUBLIC_URL', `expected an http(s) URL, got "${publicUrl}"`)

  const jwtSecret = text(env, 'JWT_SECRET')
  if (jwtSecret !== undefined && Buffer.byteLength(jwtSecret) < 32)
    throw new ConfigError('JWT_SECRET', 'must be at least 32 bytes long')

  const adminUsername = text(env, 'ADMIN_USERNAME') ?? 'admin'
  if (!USERNAME_PATTERN.test(adminUsername))
    throw new ConfigError('ADMIN_USERNAME', USERNAME_RULE)
  const adminPassword = env.ADMIN_PASSWORD === '' ? undefined : env.ADMIN_PASSWORD
  if (adminPassword !== undefined && (adminPassword.length < 8 || adminPassword.length > 128))
    throw new ConfigError('ADMIN_PASSWORD', 'must be 8 to 128 characters long')

  const defaultTimezone = text(env, 'DEFAULT_TIMEZONE') ?? 'UTC'
  if (!isValidTimeZone(defaultTimezone))
    throw new ConfigError('DEFAULT_TIMEZONE', `"${defaultTimezone}" is not an IANA time zone such as Asia/Shanghai`)

  const accessTokenTtl = integer(env, 'ACCESS_TOKEN_TTL', 7200, 60, 30 * DAY)
  const refreshTokenTtl = integer(env, 'REFRESH_TOKEN_TTL', 14 * DAY, 60, 365 * DAY)

  return {
    port,
    host: text(env, 'HOST') ?? '0.0.0.0',
    tls,
    databaseUrl: databaseUrl(env),
    databaseAuthToken: text(env, 'DATABASE_AUTH_TOKEN'),
    databaseTimeoutMs: integer(env, 'DATABASE_TIMEOUT_MS', 10_000, 1000, 600_000),
    databaseMaxWrites: integer(env, 'DATABASE_MAX_WRITES', 4, 1, 64),
    storage: storage(env),
    storageSweepSeconds: integer(env, 'STORAGE_SWEEP_SECONDS', 300, 1, 86_400),
    backup: backupSettings(env, databaseUrl(env), storage(env)),
    health: {
      minFreeBytes: integer(env, 'HEALTH_MIN_FREE_MB', 256, 0, 1_000_000_000) * 1024 ** 2,
      writeProbeIntervalMs: integer(env, 'HEALTH_WRITE_PROBE_INTERVAL_MS', 5000, 0, 3_600_000),
      writeProbeTimeoutMs: integer(env, 'HEALTH_WRITE_PROBE_TIMEOUT_MS', 2000, 100, 60_000),
    },
    publicUrl,
    jwtSecret,
    accessTokenTtl,
    refreshTokenTtl,
    adminUsername,
    adminPassword,
    defaultTimezone,
    maxFileSize: integer(env, 'MAX_FILE_SIZE', 104_857_600, 1, Number.MAX_SAFE_INTEGER),
    uploadQuota: integer(env, 'UPLOAD_QUOTA', 2 * 1024 ** 3, 0, Number.MAX_SAFE_INTEGER),
    loginConcurrency: integer(env, 'LOGIN_CONCURRENCY', Math.max(1, availableParallelism() - 1), 1, 64),
    trustedProxies: trustedProxies(env),
    reusePort: boolean(env, 'REUSE_PORT', false),
    logLevel: oneOf(env, 'LOG_LEVEL', 'info', ['debug', 'info', 'warn', 'error'] as const),
    locale: text(env, 'LOCALE')?.toLowerCase().startsWith('zh') ? 'zh' : 'en',
  }
}

export const USERNAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.@-]{2,63}$/
export const USERNAME_RULE =
  'must be 3 to 64 characters: letters, digits, "_", ".", "@" or "-", starting with a letter or digit'
