import { describe, expect, test } from 'bun:test'
import { availableParallelism } from 'node:os'
import { ConfigError, loadConfig } from '../../src/config'

describe('configuration', () => {
  test('defaults make it run with zero setup', () => {
    expect(loadConfig({})).toEqual({
      port: 8080,
      host: '0.0.0.0',
      tls: undefined,
      databaseUrl: 'file:data/workforce.db',
      databaseAuthToken: undefined,
      databaseTimeoutMs: 10000,
      databaseMaxWrites: 4,
      storage: { kind: 'file', dir: 'data/files' },
      storageSweepSeconds: 300,
      backup: { dir: 'data/backups', intervalHours: 0, keep: 7 },
      health: { minFreeBytes: 256 * 1024 ** 2, writeProbeIntervalMs: 5000, writeProbeTimeoutMs: 2000 },
      publicUrl: 'http://localhost:8080',
      jwtSecret: undefined,
      accessTokenTtl: 7200,
      refreshTokenTtl: 1209600,
      adminUsername: 'admin',
      adminPassword: undefined,
      defaultTimezone: 'UTC',
      maxFileSize: 104857600,
      uploadQuota: 2147483648,
      loginConcurrency: Math.max(1, availableParallelism() - 1),
      trustedProxies: [],
      reusePort: false,
      logLevel: 'info',
      locale: 'en',
    })
  })

  test('a libSQL server and an S3 store by configuration alone', () => {
    const config = loadConfig({
      DATABASE_URL: 'libsql://db.example.internal',
      DATABASE_AUTH_TOKEN: 'tok',
      DATABASE_TIMEOUT_MS: '2500',
      DATABASE_MAX_WRITES: '8',
      STORAGE_URL: 's3://workforce-files',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      AWS_ACCESS_KEY_ID: 'id',
      AWS_SECRET_ACCESS_KEY: 'secret',
      PUBLIC_URL: 'https://hr.example.com/',
      DEFAULT_TIMEZONE: 'Asia/Shanghai',
      LOCALE: 'zh-CN',
    })
    expect(config.databaseUrl).toBe('libsql://db.example.internal')
    expect(config.databaseAuthToken).toBe('tok')
    expect([config.databaseTimeoutMs, config.databaseMaxWrites]).toEqual([2500, 8])
    expect(config.storage).toEqual({
      kind: 's3',
      bucket: 'workforce-files',
      endpoint: 'http://127.0.0.1:9000',
      region: 'us-east-1',
      forcePathStyle: true,
      accessKeyId: 'id',
      secretAccessKey: 'secret',
    })
    expect(config.publicUrl).toBe('https://hr.example.com')
    expect(config.defaultTimezone).toBe('Asia/Shanghai')
    expect(config.locale).toBe('zh')
  })

  test('TLS_CERT_FILE and TLS_KEY_FILE together serve HTTPS, and PUBLIC_URL then defaults to https://localhost:$PORT', () => {
    const files = { TLS_CERT_FILE: ' /etc/workforce/cert.pem ', TLS_KEY_FILE: '/etc/workforce/key.pem', PORT: '8443' }
    const config = loadConfig(files)
    expect(config.tls).toEqual({ certFile: '/etc/workforce/cert.pem', keyFile: '/etc/workforce/key.pem' })
    expect(config.publicUrl).toBe('https://localhost:8443')
    expect(loadConfig({ ...files, PUBLIC_URL: 'https://hr.example.com/' }).publicUrl).toBe('https://hr.example.com')
    expect(loadConfig({ TLS_CERT_FILE: '', TLS_KEY_FILE: ' ' }).tls).toBeUndefined()
    expect(() => loadConfig({ TLS_CERT_FILE: '/etc/workforce/cert.pem' })).toThrow(
      'Invalid setting TLS_KEY_FILE: TLS_CERT_FILE is set, so TLS_KEY_FILE must name the PEM file of its private key: set both for HTTPS, or neither',
    )
    expect(() => loadConfig({ TLS_KEY_FILE: '/etc/workforce/key.pem' })).toThrow(
      'Invalid setting TLS_CERT_FILE: TLS_KEY_FILE is set, so TLS_CERT_FILE must name the PEM file of its certificate: set both for HTTPS, or neither',
    )
  })

  test('trusted proxies are a list of addresses; a quota of 0 means none', () => {
    const config = loadConfig({ TRUSTED_PROXIES: ' 127.0.0.1, ::1 ,', UPLOAD_QUOTA: '0', LOGIN_CONCURRENCY: '3' })
    expect(config.trustedProxies).toEqual(['127.0.0.1', '::1'])
    expect(config.uploadQuota).toBe(0)
    expect(config.loginConcurrency).toBe(3)
  })

  const bad: [string, Record<string, string>][] = [
    ['PORT', { PORT: 'eighty' }],
    ['PORT', { PORT: '70000' }],
    ['DATABASE_URL', { DATABASE_URL: 'postgres://x' }],
    ['DATABASE_URL', { DATABASE_URL: ':memory:' }],
    ['DATABASE_TIMEOUT_MS', { DATABASE_TIMEOUT_MS: '10s' }],
    ['DATABASE_TIMEOUT_MS', { DATABASE_TIMEOUT_MS: '50' }],
    ['DATABASE_MAX_WRITES', { DATABASE_MAX_WRITES: '0' }],
    ['STORAGE_URL', { STORAGE_URL: 'ftp://files' }],
    ['STORAGE_URL', { STORAGE_URL: 's3://A_Bad_Bucket' }],
    ['S3_ENDPOINT', { STORAGE_URL: 's3://files', S3_ENDPOINT: 'not a url' }],
    ['S3_FORCE_PATH_STYLE', { STORAGE_URL: 's3://files', S3_FORCE_PATH_STYLE: 'maybe' }],
    ['PUBLIC_URL', { PUBLIC_URL: 'hr.example.com' }],
    ['JWT_SECRET', { JWT_SECRET: 'too-short' }],
    ['ACCESS_TOKEN_TTL', { ACCESS_TOKEN_TTL: '-5' }],
    ['REFRESH_TOKEN_TTL', { REFRESH_TOKEN_TTL: '1.5' }],
    ['ADMIN_USERNAME', { ADMIN_USERNAME: 'a b' }],
    ['ADMIN_PASSWORD', { ADMIN_PASSWORD: 'short' }],
    ['DEFAULT_TIMEZONE', { DEFAULT_TIMEZONE: 'Mars/Olympus' }],
    ['MAX_FILE_SIZE', { MAX_FILE_SIZE: '0' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'loud' }],
    ['UPLOAD_QUOTA', { UPLOAD_QUOTA: '-1' }],
    ['LOGIN_CONCURRENCY', { LOGIN_CONCURRENCY: '0' }],
    ['TRUSTED_PROXIES', { TRUSTED_PROXIES: '127.0.0.1, proxy.internal' }],
    ['REUSE_PORT', { REUSE_PORT: 'several' }],
    ['TLS_KEY_FILE', { TLS_CERT_FILE: 'cert.pem' }],
    ['TLS_CERT_FILE', { TLS_KEY_FILE: 'key.pem' }],
    ['HEALTH_MIN_FREE_MB', { HEALTH_MIN_FREE_MB: '0.5' }],
    ['HEALTH_WRITE_PROBE_INTERVAL_MS', { HEALTH_WRITE_PROBE_INTERVAL_MS: '-1' }],
    ['HEALTH_WRITE_PROBE_TIMEOUT_MS', { HEALTH_WRITE_PROBE_TIMEOUT_MS: '10' }],
  ]
  test.each(bad)('a bad %s stops the start with a message naming it', (setting, env) => {
    let thrown: unknown
    try {
      loadConfig(env)
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(ConfigError)
    expect((thrown as ConfigError).setting).toBe(setting)
    expect((thrown as ConfigError).message).toStartWith(`Invalid setting ${setting}: `)
  })
})
