import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { spawnSync } from 'node:child_process'
import { closeSync, mkdirSync, openSync, rmSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { createApp, type App, type AppDeps } from '../src/app'
import { prepare } from '../src/bootstrap'
import { fixedClock } from '../src/lib/clock'
import { createLogger } from '../src/lib/logger'
import { onSqld } from './sqld'
import { loginAdmin, NOW, req, tempDir, testConfig } from './helpers'

/*
 * Issue 31, CONTRACT §25: the database's filesystem fills up. A small tmpfs made by the test (the
 * tests run as root, as CI does) holds the database and the file store; a filler file takes the last
 * bytes. Writes answer 503 with Retry-After and a message naming the disk, the log has one line for
 * the episode, and the first write after space is freed succeeds.
 */

const root = tempDir('workforce-disk-')
const mountpoint = join(root, 'small-disk')
mkdirSync(mountpoint)
const mounted = !onSqld && spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=12m', 'tmpfs', mountpoint]).status === 0
if (!onSqld && !mounted) console.warn('disk-full.test.ts: cannot mount a tmpfs here (not root?): the full-disk tests are skipped')

const lines: Record<string, unknown>[] = []
const clock = fixedClock(NOW)
let deps: AppDeps
let app: App
let admin = ''
const filler = join(mountpoint, 'filler')

/** Writes zeros until the filesystem refuses: the disk is full. */
function fillDisk(): void {
  const fd = openSync(filler, 'w')
  const block = new Uint8Array(64 * 1024)
  try {
    for (;;) writeSync(fd, block)
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOSPC') throw error
  } finally {
    closeSync(fd)
  }
}

beforeAll(async () => {
  if (!mounted) return
  deps = await prepare(testConfig(mountpoint), { clock, logger: createLogger('debug', (line) => void lines.push(JSON.parse(line))) })
  app = createApp(deps)
  admin = await loginAdmin(app)
}, 30_000)

afterAll(async () => {
  if (mounted) {
    await deps?.database.close()
    spawnSync('umount', ['-l', mountpoint])
  }
  rmSync(root, { recursive: true, force: true })
})

describe.skipIf(!mounted)('a full disk under the database', () => {
  test('each write answers 503 with Retry-After naming the disk; one log line for the episode; the next write after space is freed succeeds', async () => {
    expect((await req(app, 'POST', '/api/v1/admin/departments', { token: admin, body: { name: 'Before' } })).status).toBe(201)
    lines.length = 0
    fillDisk()
    // enough rows that the database must grow past the pages it has
    const refusals = []
    for (let i = 0; i < 2000 && refusals.length < 20; i++) {
      const reply = await req(app, 'POST', '/api/v1/admin/departments', { token: admin, body: { name: `Department ${i} ${'x'.repeat(80)}` } })
      if (reply.status !== 201) refusals.push(reply)
    }
    expect(refusals.length).toBeGreaterThan(0)
    for (const reply of refusals) {
      expect(reply.status).toBe(503)
      expect(reply.headers.get('retry-after')).toBe('30')
      expect(reply.body).toEqual({
        code: 503,
        message: 'The server’s disk is full, so this change was not saved; try again later. The operator has been told: space must be freed on the database’s disk',
        data: null,
        timestamp: NOW,
      })
    }
    // the same refusal in Chinese
    let inChinese = null
    for (let i = 0; i < 2000 && !inChinese; i++) {
      const reply = await req(app, 'POST', '/api/v1/admin/departments', {
        token: admin,
        headers: { 'accept-language': 'zh' },
        body: { name: `部门 ${i} ${'x'.repeat(80)}` },
      })
      if (reply.status !== 201) inChinese = reply
    }
    expect(inChinese?.body).toEqual({
      code: 503,
      message: '服务器磁盘已满，此次修改未保存；请稍后再试。已通知运维人员：需要清理数据库所在磁盘的空间',
      data: null,
      timestamp: NOW,
    })
    const faults = lines.filter((line) => String(line.message).startsWith('database disk fault'))
    expect(faults).toHaveLength(1)
    expect(faults[0]).toMatchObject({ level: 'error', message: 'database disk fault: full', free_bytes: { [mountpoint]: expect.any(Number) } })
    expect(lines.filter((line) => line.message === 'unhandled error')).toEqual([])

    // /health says so: 503 degraded, the write probe down, reads fine
    const health = await req(app, 'GET', '/health')
    expect(health.status).toBe(503)
    expect(health.body.data).toMatchObject({ status: 'degraded', database: 'up', checks: { database_read: 'up', database_write: 'down' } })

    rmSync(filler)
    const after = await req(app, 'POST', '/api/v1/admin/departments', { token: admin, body: { name: 'After' } })
    expect([after.status, after.body.data?.name]).toEqual([201, 'After'])
    clock.set(new Date(Date.parse(NOW) + 60_000).toISOString())
    const healed = await req(app, 'GET', '/health')
    expect([healed.status, healed.body.data.status, healed.body.data.checks.database_write]).toEqual([200, 'ok', 'up'])
  })
})
