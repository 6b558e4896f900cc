import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { LibsqlError } from '@libsql/client'
import { eq } from 'drizzle-orm'
import Database from 'libsql'
import { join } from 'node:path'
import { createApp } from '../src/app'
import { healthProbes } from '../src/db/schema'
import { alive } from '../src/health-check'
import { writeProbe, type WriteVerdict } from '../src/modules/health/probes'
import { healthyChecks, healthyData, loginAdmin, NOW, okBody, req, startApp, tempDir, type TestApp } from './helpers'
import { startServer } from './server-process'
import { onSqld } from './sqld'

/*
 * CONTRACT §25, /health tells the truth: a write probe (its own transaction on `health_probes`, at
 * most once per interval, with a deadline), the free space of the data locations against
 * HEALTH_MIN_FREE_MB, and 503 unless every part is well.
 */

const MiB = 1024 ** 2
const degraded = (data: Record<string, unknown>, message: string) => ({ ...okBody({ status: 'degraded', database: 'up', storage: 'up', ...data }, message), code: 503 })
const at = (ms: number) => new Date(new Date(NOW).getTime() + ms)

let t: TestApp
let adminToken: string
beforeAll(async () => {
  t = await startApp()
  adminToken = await loginAdmin(t.app)
})
afterAll(() => t.close())

/** The app of `t` with another write probe. */
const withWrites = (databaseWrite: () => Promise<WriteVerdict>) => createApp({ ...t.deps, probes: { ...t.deps.probes, databaseWrite } })

describe('a healthy service', () => {
  test('200 ok with every check and its figure; the probe wrote its row at the clock\'s time', async () => {
    const reply = await req(t.app, 'GET', '/health')
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual({
      code: 200,
      message: 'healthy',
      data: {
        status: 'ok',
        database: 'up',
        storage: 'up',
        checks: {
          database_read: 'up',
          database_read_ms: expect.any(Number),
          database_write: 'up',
          database_write_ms: expect.any(Number),
          storage: 'up',
          disk_free_bytes: expect.any(Number),
          disk_min_free_bytes: 0,
        },
      },
      timestamp: NOW,
    })
    const { checks } = reply.body.data
    expect(Number.isInteger(checks.disk_free_bytes) && checks.disk_free_bytes > 0).toBe(true)
    expect(checks.database_write_ms).toBeLessThan(2000)
    const rows = await t.deps.database.db.select().from(healthProbes)
    expect(rows).toEqual([{ instance: expect.stringContaining(`/${process.pid}/`), probedAt: new Date(NOW) }])
  })

  test('an administrator gets no warnings when nothing is wrong', async () => {
    const reply = await req(t.app, 'GET', '/health', { token: adminToken })
    expect(reply.body).toEqual(okBody(healthyData({ warnings: [] }), 'healthy'))
  })

  test('in Chinese with Accept-Language: zh', async () => {
    const reply = await req(t.app, 'GET', '/health', { headers: { 'accept-language': 'zh-CN' } })
    expect(reply.body).toEqual(okBody(healthyData(), '正常'))
  })
})

describe('free space', () => {
  test('under HEALTH_MIN_FREE_MB: 503 degraded, with the figure; administrators see which folder', async () => {
    const min = 100_000_000 // MiB: about 95 TiB, more than any test machine has
    const low = await startApp({ env: { HEALTH_MIN_FREE_MB: String(min) } })
    try {
      const reply = await req(low.app, 'GET', '/health')
      expect(reply.status).toBe(503)
      const free = reply.body.data.checks.disk_free_bytes as number
      expect(free).toBeGreaterThan(0)
      expect(free).toBeLessThan(min * MiB)
      const message = `Free disk space is ${Math.floor(free / MiB)} MiB, under the ${min} MiB of HEALTH_MIN_FREE_MB; free some before writes fail`
      expect(reply.body).toEqual(degraded({ checks: healthyChecks({ disk_free_bytes: free, disk_min_free_bytes: min * MiB }) }, message))

      const token = await loginAdmin(low.app)
      const admin = await req(low.app, 'GET', '/health', { token })
      expect(admin.body.data.warnings).toEqual([expect.stringMatching(new RegExp(`^/.* has \\d+ bytes free, under HEALTH_MIN_FREE_MB \\(${min * MiB} bytes\\)$`))])
      const zh = await req(low.app, 'GET', '/health', { token, headers: { 'accept-language': 'zh' } })
      // free space moves between requests (other tests write): each reply is judged by its own figure
      const zhFree = zh.body.data.checks.disk_free_bytes as number
      expect(zh.body.message).toBe(`磁盘剩余空间为 ${Math.floor(zhFree / MiB)} MiB，低于 HEALTH_MIN_FREE_MB 设定的 ${min} MiB；请在写入失败之前释放空间`)
      expect(zh.body.data.warnings).toEqual([expect.stringMatching(new RegExp(`^/.* 剩余 \\d+ 字节，低于 HEALTH_MIN_FREE_MB（${min * MiB} 字节）$`))])
    } finally {
      low.close()
    }
  })

  test('the default threshold is 256 MiB; 0 turns the check off', async () => {
    // this machine has more than 256 MiB free: the default holds, and 0 never degrades
    const defaulted = await startApp({ env: { HEALTH_MIN_FREE_MB: '' } })
    try {
      const reply = await req(defaulted.app, 'GET', '/health')
      expect(reply.body.data.checks.disk_min_free_bytes).toBe(256 * MiB)
    } finally {
      defaulted.close()
    }
    expect((await req(t.app, 'GET', '/health')).body.data.checks.disk_min_free_bytes).toBe(0)
  })
})

describe('a database that takes reads but not writes', () => {
  test('writes refused (a full disk): 503 degraded, database_write down; administrators see the database\'s reason', async () => {
    let refusing = true
    const logged: string[] = []
    const note = (level: string) => (message: string) => logged.push(`${level}: ${message}`)
    const full = withWrites(
      writeProbe({
        database: {
          ...t.deps.database,
          write: async (work, options) => {
            if (!refusing) return t.deps.database.write(work, options)
            throw new LibsqlError('SQLITE_FULL: database or disk is full', 'SQLITE_FULL')
          },
        },
        clock: t.clock,
        logger: { debug: note('debug'), info: note('info'), warn: note('warn'), error: note('error') },
        intervalMs: 5000,
        timeoutMs: 1000,
      }),
    )
    try {
      const reply = await req(full, 'GET', '/health')
      expect(reply.status).toBe(503)
      expect(reply.body).toEqual(degraded({ checks: healthyChecks({ database_write: 'down' }) }, 'Database writes fail; changes answer 503'))
      const admin = await req(full, 'GET', '/health', { token: adminToken })
      expect(admin.body.data.warnings).toEqual(['The database write probe failed: SQLITE_FULL: database or disk is full'])
      const zh = await req(full, 'GET', '/health', { token: adminToken, headers: { 'accept-language': 'zh' } })
      expect(zh.body).toEqual(
        degraded({ checks: healthyChecks({ database_write: 'down' }), warnings: ['数据库写入探测失败：SQLITE_FULL: database or disk is full'] }, '数据库写入失败；修改操作将返回 503'),
      )
      // the next probes fail the same way: one log line for the episode, one when it ends
      t.clock.advance(5000)
      expect((await req(full, 'GET', '/health')).status).toBe(503)
      refusing = false
      t.clock.advance(5000)
      expect((await req(full, 'GET', '/health')).status).toBe(200)
      expect(logged).toEqual([
        'warn: the database write probe of /health failed: changes may not be saved',
        'info: the database write probe of /health succeeds again',
      ])
    } finally {
      t.clock.set(NOW)
    }
  })

  test('writes that hang: database_write timeout, answered by the probe\'s deadline', async () => {
    const hung = withWrites(
      writeProbe({ database: { ...t.deps.database, write: () => new Promise<never>(() => {}) }, clock: t.clock, intervalMs: 5000, timeoutMs: 300 }),
    )
    const started = performance.now()
    const reply = await req(hung, 'GET', '/health')
    const took = performance.now() - started
    expect(reply.status).toBe(503)
    expect(reply.body).toEqual(
      degraded({ checks: healthyChecks({ database_write: 'timeout' }) }, 'Database writes do not finish in time; changes may answer 503'),
    )
    expect(reply.body.data.checks.database_write_ms).toBeGreaterThanOrEqual(290)
    expect(took).toBeLessThan(1500)
    // two problems at once, one after the other, in either language
    const slow = writeProbe({ database: { ...t.deps.database, write: () => new Promise<never>(() => {}) }, clock: t.clock, intervalMs: 5000, timeoutMs: 100 })
    const both = createApp({ ...t.deps, probes: { ...t.deps.probes, databaseWrite: slow, storage: async () => false } })
    const en = await req(both, 'GET', '/health', { token: adminToken })
    expect(en.body.message).toBe(
      'Database writes do not finish in time; changes may answer 503. The file store does not answer; file endpoints answer 503',
    )
    expect(en.body.data.warnings).toEqual([
      'The database write probe failed: a write did not finish within 100 ms (a held write lock, or a database that hangs on writes)',
    ])
    const zh = await req(both, 'GET', '/health', { token: adminToken, headers: { 'accept-language': 'zh' } })
    expect(zh.body.message).toBe('数据库写入未能及时完成；修改操作可能返回 503。此外，文件存储没有响应；文件接口将返回 503')
    expect(zh.body.data.warnings).toEqual(['数据库写入探测失败：一次写入未在 100 毫秒内完成（写锁被占用，或数据库写入时卡住）'])
  })

  test(`a write lock held by another connection (${onSqld ? 'libSQL server' : 'embedded file'}): degraded within the deadline, the probe at most once per interval, ok again once released`, async () => {
    const dir = tempDir()
    const env = { HEALTH_WRITE_PROBE_TIMEOUT_MS: '300', HEALTH_WRITE_PROBE_INTERVAL_MS: '5000', DATABASE_TIMEOUT_MS: '1000' }
    const locked = await startApp({ dir, env })
    const lock = await holdWriteLock(locked.deps.config.databaseUrl)
    try {
      const started = performance.now()
      const reply = await req(locked.app, 'GET', '/health')
      const took = performance.now() - started
      const stuck = degraded({ checks: healthyChecks({ database_write: 'timeout' }) }, 'Database writes do not finish in time; changes may answer 503')
      expect({ status: reply.status, body: reply.body }).toEqual({ status: 503, body: stuck })
      // a libSQL server: the probe's own deadline; an embedded file: SQLite waits for the lock
      // synchronously, up to its busy timeout (min(5 s, DATABASE_TIMEOUT_MS) = 1 s here)
      expect(took).toBeLessThan(onSqld ? 1500 : 2500)

      await lock.release()
      // within the interval the last verdict stands; then a new probe, which writes again
      locked.clock.advance(4999)
      expect((await req(locked.app, 'GET', '/health')).body).toEqual({ ...stuck, timestamp: at(4999).toISOString() })
      locked.clock.advance(1)
      const recovered = await req(locked.app, 'GET', '/health')
      expect({ status: recovered.status, body: recovered.body }).toEqual({
        status: 200,
        body: { ...okBody(healthyData(), 'healthy'), timestamp: at(5000).toISOString() },
      })
      expect(await locked.deps.database.db.select({ probedAt: healthProbes.probedAt }).from(healthProbes)).toEqual([{ probedAt: at(5000) }])
    } finally {
      await lock.release()
      locked.close()
    }
  }, 20_000)
})

describe('the write probe', () => {
  test('writes at most once per interval: concurrent calls share one probe; a clock set back probes again', async () => {
    let writes = 0
    const { database } = t.deps
    const probe = writeProbe({
      database: { ...database, write: (work, options) => (writes++, database.write(work, options)) },
      clock: t.clock,
      intervalMs: 5000,
      timeoutMs: 1000,
      instance: 'counted',
    })
    const app = withWrites(probe)
    const probedAt = async () =>
      (await database.db.select({ at: healthProbes.probedAt }).from(healthProbes).where(eq(healthProbes.instance, 'counted')))[0]?.at

    const first = await Promise.all(Array.from({ length: 5 }, () => req(app, 'GET', '/health')))
    expect(first.map((reply) => reply.status)).toEqual([200, 200, 200, 200, 200])
    expect(writes).toBe(1)
    for (let i = 0; i < 3; i++) await req(app, 'GET', '/health')
    expect(writes).toBe(1)
    t.clock.advance(4999)
    await req(app, 'GET', '/health')
    expect(writes).toBe(1)
    expect(await probedAt()).toEqual(new Date(NOW))
    t.clock.advance(1)
    await Promise.all([req(app, 'GET', '/health'), req(app, 'GET', '/health')])
    expect(writes).toBe(2)
    expect(await probedAt()).toEqual(at(5000))
    t.clock.set(NOW)
    await req(app, 'GET', '/health')
    expect(writes).toBe(3)
    expect(await probedAt()).toEqual(new Date(NOW))
  })

  test('rows of instances silent for a day are removed; the others stay', async () => {
    const { database } = t.deps
    await database.db.insert(healthProbes).values([
      { instance: 'gone', probedAt: new Date(new Date(NOW).getTime() - 86_400_001) },
      { instance: 'recent', probedAt: new Date(new Date(NOW).getTime() - 3_600_000) },
    ])
    await writeProbe({ database, clock: t.clock, intervalMs: 5000, timeoutMs: 1000, instance: 'cleaner' })()
    const instances = (await database.db.select({ instance: healthProbes.instance }).from(healthProbes)).map((row) => row.instance)
    expect(instances).toContain('recent')
    expect(instances).toContain('cleaner')
    expect(instances).not.toContain('gone')
  })
})

describe('the container health check', () => {
  test('alive when ok or degraded (a restart cures neither a full disk nor a stalled write); not when down or not the service', () => {
    expect(alive(200, { data: { status: 'ok' } })).toBe(true)
    expect(alive(503, { data: { status: 'degraded' } })).toBe(true)
    expect(alive(503, { data: { status: 'down' } })).toBe(false)
    expect(alive(503, null)).toBe(false)
    expect(alive(502, { data: { status: 'degraded' } })).toBe(false)
  })

  test('against a real server short of space: /health 503 degraded, the check exits 0 and says why', async () => {
    const dir = tempDir()
    const env = { DATABASE_URL: `file:${join(dir, 'workforce.db')}`, STORAGE_URL: `file:${join(dir, 'files')}`, HEALTH_MIN_FREE_MB: '100000000' }
    const server = await startServer(env)
    try {
      const health = await fetch(`${server.base}/health`)
      expect(health.status).toBe(503)
      expect(((await health.json()) as { data: { status: string } }).data.status).toBe('degraded')
      const check = Bun.spawn(['bun', join(import.meta.dir, '..', 'src', 'health-check.ts')], {
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env, HOST: '127.0.0.1', PORT: String(server.port) },
        stdout: 'pipe',
        stderr: 'pipe',
      })
      const [code, stdout, stderr] = await Promise.all([check.exited, new Response(check.stdout).text(), new Response(check.stderr).text()])
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' })
      expect(stdout).toStartWith(`http://127.0.0.1:${server.port}/health answered 503, degraded: Free disk space is `)
    } finally {
      await server.stop()
    }
  }, 30_000)
})

/** Another connection holds the write lock of the database (a write transaction left open) until released. */
async function holdWriteLock(url: string): Promise<{ release(): Promise<void> }> {
  let released = false
  if (url.startsWith('file:')) {
    const other = new Database(url.slice('file:'.length), { timeout: 0 })
    other.exec('BEGIN IMMEDIATE')
    other.exec(`INSERT INTO health_probes (instance, probed_at) VALUES ('holder', 0) ON CONFLICT DO NOTHING`)
    return {
      async release() {
        if (released) return
        released = true
        other.exec('ROLLBACK')
        other.close()
      },
    }
  }
  const { createClient } = await import('@libsql/client')
  const client = createClient({ url })
  const tx = await client.transaction('write')
  await tx.execute(`INSERT INTO health_probes (instance, probed_at) VALUES ('holder', 0) ON CONFLICT DO NOTHING`)
  return {
    async release() {
      if (released) return
      released = true
      await tx.rollback()
      tx.close()
      client.close()
    },
  }
}
