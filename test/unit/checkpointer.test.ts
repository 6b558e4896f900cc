import { afterAll, expect, test } from 'bun:test'
import { existsSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { openDatabase } from '../../src/db/client'
import { createCheckpointer } from '../../src/db/checkpointer'
import { EmbeddedClient } from '../../src/db/embedded'
import { tempDir } from '../helpers'

const dirs: string[] = []
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

function newFile(): string {
  const dir = tempDir('workforce-checkpoints-')
  dirs.push(dir)
  return join(dir, 'db.sqlite')
}

const sizeOf = (path: string) => statSync(path).size

/** Waits until `check` holds, or fails after `ms`. */
async function eventually(check: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms`)
    await Bun.sleep(20)
  }
}

/** About 2 MB of rows in 20 commits: well past the 1,000 pages at which a commit would checkpoint by itself. */
async function writeRows(client: EmbeddedClient, from: number) {
  for (let i = 0; i < 20; i++) await client.execute({ sql: 'INSERT INTO t (id, body) VALUES (?, randomblob(100000))', args: [from + i] })
}

const SETTINGS = { commits: 1, intervalMs: 20, idleMs: 300, busyTimeoutMs: 1000 }

test('commits leave the WAL to the thread, which copies it into the file while it changes and ends when it stops changing', async () => {
  const path = newFile()
  const client = new EmbeddedClient(path, { busyTimeoutMs: 1000, backgroundCheckpoints: true })
  await client.execute('PRAGMA journal_mode = WAL')
  await client.execute('CREATE TABLE t (id INTEGER PRIMARY KEY, body BLOB)')
  const checkpointer = createCheckpointer(path, SETTINGS)
  try {
    const before = sizeOf(path)
    await writeRows(client, 0)
    // no commit checkpointed: the rows are all in the WAL, none in the file
    expect([sizeOf(path), sizeOf(`${path}-wal`) > 2_000_000, checkpointer.running]).toEqual([before, true, false])

    checkpointer.nudge()
    expect(checkpointer.running).toBe(true)
    await eventually(() => sizeOf(path) > before + 2_000_000)
    await eventually(() => !checkpointer.running)
    const ran = checkpointer.checkpoints
    expect(ran).toBeGreaterThan(0)

    // the next write starts it again; the WAL is reused from its start, not grown
    const walSize = sizeOf(`${path}-wal`)
    const size = sizeOf(path)
    await writeRows(client, 100)
    checkpointer.nudge()
    await eventually(() => sizeOf(path) > size + 2_000_000)
    await eventually(() => !checkpointer.running)
    expect(checkpointer.checkpoints).toBeGreaterThan(ran)
    expect(sizeOf(`${path}-wal`)).toBeLessThanOrEqual(walSize * 1.1)
    expect((await client.execute('SELECT count(*) AS n FROM t')).rows[0].n).toBe(40)
  } finally {
    await checkpointer.stop()
    client.close()
  }
})

test("the service's database leaves checkpoints to the thread, which its writes start", async () => {
  const path = newFile()
  const database = await openDatabase(`file:${path}`, undefined, { timeoutMs: 5000, maxWrites: 1, backgroundCheckpoints: true })
  try {
    expect(Number((await database.client.execute('PRAGMA wal_autocheckpoint')).rows[0][0])).toBe(0)
    await database.exclusive(() => database.client.execute('CREATE TABLE t (id INTEGER PRIMARY KEY, body BLOB)'))
    const before = sizeOf(path)
    for (let i = 0; i < 40; i++) await database.write((tx) => tx.run(sql`INSERT INTO t (id, body) VALUES (${i}, randomblob(60000))`))
    await eventually(() => sizeOf(path) > before + 2_000_000)
  } finally {
    database.close()
  }
})

test('the thread starts once enough commits have come, and again only after as many more', async () => {
  const path = newFile()
  const client = new EmbeddedClient(path, { busyTimeoutMs: 1000, backgroundCheckpoints: true })
  await client.execute('PRAGMA journal_mode = WAL')
  await client.execute('CREATE TABLE t (id INTEGER PRIMARY KEY, body BLOB)')
  const checkpointer = createCheckpointer(path, { ...SETTINGS, commits: 3 })
  try {
    checkpointer.nudge()
    checkpointer.nudge()
    expect(checkpointer.running).toBe(false)
    checkpointer.nudge()
    expect(checkpointer.running).toBe(true)
    await eventually(() => !checkpointer.running)
    checkpointer.nudge()
    checkpointer.nudge()
    expect(checkpointer.running).toBe(false)
  } finally {
    await checkpointer.stop()
    client.close()
  }
})

test('a stopped checkpointer starts no thread', async () => {
  const path = newFile()
  const checkpointer = createCheckpointer(path, SETTINGS)
  await checkpointer.stop()
  for (let i = 0; i < 3; i++) checkpointer.nudge()
  expect(checkpointer.running).toBe(false)
})

test('a thread whose file is gone ends quietly, and creates no file', async () => {
  const path = newFile()
  rmSync(path, { force: true })
  const checkpointer = createCheckpointer(path, SETTINGS)
  checkpointer.nudge()
  await eventually(() => !checkpointer.running)
  expect([checkpointer.checkpoints, existsSync(path)]).toEqual([0, false])
  await checkpointer.stop()
})
