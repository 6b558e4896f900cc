import { afterEach, describe, expect, test } from 'bun:test'
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { prepare } from '../src/bootstrap'
import type { AppDeps } from '../src/app'
import { silentLogger, type Logger } from '../src/lib/logger'
import { createBackupJob, scheduleBackups } from '../src/modules/backups/schedule'
import { listArchives } from '../src/modules/backups/retention'
import { healthyData, okBody, req, startApp, testConfig, type TestApp } from './helpers'

const HOUR = 3600_000
const opened: { close(): void }[] = []
afterEach(() => opened.splice(0).forEach((item) => item.close()))

async function app(env: Record<string, string>): Promise<TestApp> {
  const t = await startApp({ env })
  opened.push(t)
  return t
}

const jobOf = (deps: AppDeps, settings = deps.config.backup, logger = deps.logger) =>
  createBackupJob({ ...deps, databaseUrl: deps.config.databaseUrl, storage: deps.config.storage, settings, logger })

const archives = async (dir: string) => (await listArchives(dir)).map((archive) => archive.name)

function recordingLogger() {
  const lines: { level: string; message: string; fields?: Record<string, unknown> }[] = []
  const at = (level: string) => (message: string, fields?: Record<string, unknown>) => lines.push({ level, message, fields })
  const logger: Logger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }
  return { logger, lines }
}

describe('scheduled backups', () => {
  test('one every BACKUP_INTERVAL_HOURS after the newest (at once when there is none), by the injected clock; the oldest beyond BACKUP_KEEP go, nothing else', async () => {
    const t = await app({ BACKUP_INTERVAL_HOURS: '6', BACKUP_KEEP: '2' })
    const { dir } = t.deps.config.backup
    expect(dir).toBe(join(t.dir, 'backups'))
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, 'notes.txt'), 'mine')
    writeFileSync(join(dir, 'workforce-backup-latest.tar.gz'), 'not one of the service')
    const job = jobOf(t.deps)

    expect((await job.tick())?.name).toBe('workforce-backup-20240315T093000Z.tar.gz')
    expect(await job.tick()).toBeNull()
    t.clock.advance(6 * HOUR - 1000)
    expect(await job.tick()).toBeNull()
    t.clock.advance(1000)
    expect((await job.tick())?.name).toBe('workforce-backup-20240315T153000Z.tar.gz')
    expect(await archives(dir)).toEqual(['workforce-backup-20240315T093000Z.tar.gz', 'workforce-backup-20240315T153000Z.tar.gz'])
    t.clock.advance(6 * HOUR)
    expect((await job.tick())?.name).toBe('workforce-backup-20240315T213000Z.tar.gz')
    expect(readdirSync(dir).sort()).toEqual([
      'notes.txt',
      'workforce-backup-20240315T153000Z.tar.gz',
      'workforce-backup-20240315T213000Z.tar.gz',
      'workforce-backup-latest.tar.gz',
    ])
  })

  test('among instances on one database only the holder of the lease makes them; another takes over when the holder is gone', async () => {
    const env = { BACKUP_INTERVAL_HOURS: '6' }
    const t = await app(env)
    const second = await prepare(testConfig(t.dir, env), { clock: t.clock, logger: silentLogger })
    opened.push(second.database)
    const jobs = [jobOf(t.deps), jobOf(second)]

    const results = await Promise.all(jobs.map((job) => job.tick()))
    expect(results.filter((result) => result !== null)).toHaveLength(1)
    const other = jobs[results[0] === null ? 0 : 1]
    // the backup is not due for the holder, and the other may not even look while the lease is held
    t.clock.advance(60_000)
    expect(await Promise.all(jobs.map((job) => job.tick()))).toEqual([null, null])
    // the holder stops renewing (it died); once its lease has lapsed and a backup is due, the other makes it
    t.clock.advance(6 * HOUR)
    expect((await other.tick())?.name).toBe('workforce-backup-20240315T153100Z.tar.gz')
    expect(await archives(t.deps.config.backup.dir)).toEqual([
      'workforce-backup-20240315T093000Z.tar.gz',
      'workforce-backup-20240315T153100Z.tar.gz',
    ])
  })

  test('a failed backup is logged and tried again after 15 minutes, not every minute', async () => {
    const t = await app({ BACKUP_INTERVAL_HOURS: '6' })
    const blocked = join(t.dir, 'not-a-folder')
    writeFileSync(blocked, 'a file where the backup folder should be')
    const job = jobOf(t.deps, { ...t.deps.config.backup, dir: blocked })
    const { logger, lines } = recordingLogger()
    const stop = scheduleBackups(job, logger, 60_000)
    while (lines.length === 0) await Bun.sleep(5)
    await stop()
    expect(lines).toEqual([{ level: 'error', message: 'backup failed', fields: { error: expect.stringContaining(blocked) } }])

    t.clock.advance(15 * 60_000 - 1000)
    expect(await job.tick()).toBeNull()
    t.clock.advance(1000)
    await expect(job.tick()).rejects.toThrow(blocked)
  })

  test('the schedule runs the job at start and on its timer; stopping it stops both', async () => {
    const t = await app({ BACKUP_INTERVAL_HOURS: '1' })
    const { dir } = t.deps.config.backup
    const { logger, lines } = recordingLogger()
    const stop = scheduleBackups(jobOf(t.deps, t.deps.config.backup, logger), logger, 20)
    while ((await archives(dir)).length < 1) await Bun.sleep(10)
    t.clock.advance(HOUR)
    while ((await archives(dir)).length < 2) await Bun.sleep(10)
    await stop()
    t.clock.advance(HOUR)
    await Bun.sleep(100)
    expect(await archives(dir)).toEqual(['workforce-backup-20240315T093000Z.tar.gz', 'workforce-backup-20240315T103000Z.tar.gz'])
    expect(lines.map((line) => [line.level, line.message, line.fields?.archive])).toEqual([
      ['info', 'backup written', join(dir, 'workforce-backup-20240315T093000Z.tar.gz')],
      ['info', 'backup written', join(dir, 'workforce-backup-20240315T103000Z.tar.gz')],
    ])
    expect(lines[0].fields).toEqual({
      archive: join(dir, 'workforce-backup-20240315T093000Z.tar.gz'),
      bytes: expect.any(Number),
      seconds: expect.any(Number),
      objects: 0,
      pruned: [],
    })
  })
})

describe('/health and backups', () => {
  test('while the service makes backups, /health says how old the newest is (null before the first)', async () => {
    const t = await app({ BACKUP_INTERVAL_HOURS: '24' })
    const health = async () => (await req(t.app, 'GET', '/health')).body
    const healthy = (age: number | null) => ({
      ...okBody(healthyData({ last_backup_age_seconds: age }), 'healthy'),
      timestamp: t.clock.now().toISOString(),
    })
    expect(await health()).toEqual(healthy(null))
    await jobOf(t.deps).tick()
    expect(await health()).toEqual(healthy(0))
    t.clock.advance(90_500)
    expect(await health()).toEqual(healthy(90))
  })

  test('with backups off, /health has no backup field, whatever BACKUP_DIR holds', async () => {
    const t = await app({})
    mkdirSync(t.deps.config.backup.dir, { recursive: true })
    writeFileSync(join(t.deps.config.backup.dir, 'workforce-backup-20240315T093000Z.tar.gz'), '')
    expect((await req(t.app, 'GET', '/health')).body).toEqual(okBody(healthyData(), 'healthy'))
  })
})
