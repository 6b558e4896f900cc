import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { createClient, LibsqlError, type Client, type InArgs, type InStatement, type Replicated, type ResultSet, type Transaction, type TransactionMode } from '@libsql/client'
import { sql } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/libsql'
import { Elysia } from 'elysia'
import { databaseOver, openDatabase, type Database } from '../../src/db/client'
import { DEFAULT_RETRY, type RetryPolicy } from '../../src/db/guard'
import { DatabaseUnavailableError, startUpProblem, timeoutError } from '../../src/db/unavailable'
import { migrate } from '../../src/db/migrate'
import { createDiskFaultLog, FAULT_EPISODE_GAP_MS } from '../../src/db/disk-faults'
import { errorHandler } from '../../src/http/error-handler'
import { fixedClock } from '../../src/lib/clock'
import { createLogger } from '../../src/lib/logger'
import { tempDir } from '../helpers'

/*
 * The database's guards (src/db/guard.ts, src/db/client.ts) against a client that misbehaves on
 * purpose: a real database file underneath, and in front of it a client that answers busy, has the
 * write lock taken back, or stalls, on the calls a test picks.
 */

/** what a busy machine may add to a time limit before an answer: far less than "hangs" */
const SLACK_MS = 500

type Call = { kind: 'execute' | 'begin' | 'statement' | 'commit'; tx: number; sql: string }
type Fault = 'busy' | 'lock-taken' | 'stall' | undefined

const busy = () => new LibsqlError('SQLite error: database is locked', 'SQLITE_BUSY')
const lockTaken = () => new LibsqlError('TRANSACTION_TIMEOUT: Transaction timed out', 'TRANSACTION_TIMEOUT')
const never = () => new Promise<never>(() => {})

function raise(fault: Fault): Promise<never> | null {
  if (fault === 'busy') return Promise.reject(busy())
  if (fault === 'lock-taken') return Promise.reject(lockTaken())
  if (fault === 'stall') return never()
  return null
}

const sqlOf = (stmt: InStatement | string) => (typeof stmt === 'string' ? stmt : stmt.sql)

/** A client that passes every call on to `real`, unless `fault` picks a misbehaviour for it; it counts what it was asked. */
class FaultyClient implements Client {
  readonly calls: Call[] = []
  transactions = 0
  readonly closedTransactions = new Set<number>()

  constructor(
    private readonly real: Client,
    private readonly fault: (call: Call) => Fault,
    /** transactions that touch no file, so that several can be open at once, as on a libSQL server */
    private readonly detached = false,
  ) {}

  get closed() {
    return this.real.closed
  }
  get protocol() {
    return this.real.protocol
  }

  execute(stmt: InStatement): Promise<ResultSet>
  execute(sql: string, args?: InArgs): Promise<ResultSet>
  execute(stmt: InStatement | string, args?: InArgs): Promise<ResultSet> {
    const call: Call = { kind: 'execute', tx: 0, sql: sqlOf(stmt) }
    this.calls.push(call)
    return raise(this.fault(call)) ?? (typeof stmt === 'string' ? this.real.execute(stmt, args) : this.real.execute(stmt))
  }

  batch(stmts: Array<InStatement | [string, InArgs?]>, mode?: TransactionMode) {
    return this.real.batch(stmts, mode)
  }
  migrate(stmts: InStatement[]) {
    return this.real.migrate(stmts)
  }
  executeMultiple(sql: string) {
    return this.real.executeMultiple(sql)
  }

  async transaction(mode?: TransactionMode): Promise<Transaction> {
    const number = ++this.transactions
    const real = this.detached ? detachedTransaction() : await this.real.transaction(mode)
    let statements = 0
    const faultOf = (kind: Call['kind'], text: string) => {
      const call: Call = { kind: kind === 'statement' && statements++ === 0 ? 'begin' : kind, tx: number, sql: text }
      this.calls.push(call)
      return this.fault(call)
    }
    const closed = this.closedTransactions
    return {
      execute: (stmt) => raise(faultOf('statement', sqlOf(stmt))) ?? real.execute(stmt),
      batch: (stmts) => real.batch(stmts),
      executeMultiple: (text) => real.executeMultiple(text),
      commit: () => raise(faultOf('commit', 'COMMIT')) ?? real.commit(),
      rollback: () => real.rollback(),
      close() {
        closed.add(number)
        real.close()
      },
      get closed() {
        return real.closed
      },
    }
  }

  sync(): Promise<Replicated> {
    return this.real.sync()
  }
  close() {
    this.real.close()
  }
  reconnect() {
    this.real.reconnect()
  }
}

function detachedTransaction(): Transaction {
  const empty = { columns: [], columnTypes: [], rows: [], rowsAffected: 0, lastInsertRowid: undefined, toJSON: () => ({}) }
  let closed = false
  return {
    execute: async () => empty,
    batch: async (stmts) => stmts.map(() => empty),
    executeMultiple: async () => {},
    commit: async () => void (closed = true),
    rollback: async () => void (closed = true),
    close: () => void (closed = true),
    get closed() {
      return closed
    },
  }
}

let dir: string
let real: Client
let opened: Database[]
let key = 0

beforeEach(async () => {
  dir = tempDir('workforce-guard-')
  real = createClient({ url: `file:${join(dir, 'guard.db')}` })
  await real.execute('CREATE TABLE entries (id INTEGER PRIMARY KEY, label TEXT NOT NULL UNIQUE)')
  opened = []
})

afterEach(() => {
  for (const database of opened) database.close()
  real.close()
  rmSync(dir, { recursive: true, force: true })
})

/** Pauses the retries take, recorded instead of slept (a pause still yields to the event loop). */
function recordingRetry(random = () => 0.5): RetryPolicy & { pauses: number[] } {
  const pauses: number[] = []
  return { ...DEFAULT_RETRY, random, pauses, sleep: async (ms) => void pauses.push(ms) }
}

function over(client: Client, options: { timeoutMs?: number; maxWrites?: number; embedded?: boolean; retry?: RetryPolicy } = {}): Database {
  const database = databaseOver(client, {
    timeoutMs: options.timeoutMs ?? 2000,
    maxWrites: options.maxWrites ?? 4,
    retry: options.retry ?? DEFAULT_RETRY,
    key: `guard-test-${++key}`,
    embedded: options.embedded ?? false,
  })
  opened.push(database)
  return database
}

const labels = async () => (await real.execute('SELECT label FROM entries ORDER BY id')).rows.map((row) => row.label)

/** The rejection of `promise`, with how long it took to come. */
async function rejection(promise: Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const started = performance.now()
  try {
    await promise
  } catch (error) {
    return { error, ms: performance.now() - started }
  }
  throw new Error('expected a rejection, got an answer')
}

describe('busy: the whole transaction again, after jittered pauses that double', () => {
  test('busy three times at BEGIN, then through: the work ran four times, one row, pauses 5, 10, 20 ms (half of 10, 20, 40)', async () => {
    const client = new FaultyClient(real, (call) => (call.kind === 'begin' && call.tx <= 3 ? 'busy' : undefined))
    const retry = recordingRetry()
    const database = over(client, { retry })
    let runs = 0
    const id = await database.write(async (tx) => {
      runs++
      await tx.run(sql`INSERT INTO entries (label) VALUES ('first')`)
      return runs
    })
    expect(id).toBe(4)
    expect(client.transactions).toBe(4)
    expect(retry.pauses).toEqual([5, 10, 20])
    expect(await labels()).toEqual(['first'])
  })

  test('the pauses stop doubling at 500 ms, and each is a random share of its ceiling', async () => {
    const shares = [0.9, 0.1, 0.99, 0.5, 0.25, 0.75, 1 - 1e-9, 0.5, 0.5]
    const client = new FaultyClient(real, (call) => (call.kind === 'begin' && call.tx <= shares.length ? 'busy' : undefined))
    const retry = recordingRetry(() => shares[retry.pauses.length])
    await over(client, { retry, timeoutMs: 60_000 }).write((tx) => tx.run(sql`INSERT INTO entries (label) VALUES ('late')`))
    const ceilings = [10, 20, 40, 80, 160, 320, 500, 500, 500]
    expect(retry.pauses.map((pause) => Math.round(pause * 1000) / 1000)).toEqual(ceilings.map((ceiling, i) => Math.round(ceiling * shares[i] * 1000) / 1000))
  })

  test('the write lock taken back at COMMIT (a libSQL server rolled it back): the work runs again from the start, the first attempt leaves nothing', async () => {
    const client = new FaultyClient(real, (call) => (call.kind === 'commit' && call.tx === 1 ? 'lock-taken' : undefined))
    const database = over(client, { retry: recordingRetry() })
    const attempts: number[] = []
    await database.write(async (tx) => {
      attempts.push(client.transactions)
      await tx.run(sql`INSERT INTO entries (label) VALUES (${`attempt ${client.transactions}`})`)
    })
    expect(attempts).toEqual([1, 2])
    expect(await labels()).toEqual(['attempt 2'])
  })

  test('busy for good: a 503 error (busy, Retry-After 1) within the time limit, after several tries, and nothing written', async () => {
    const client = new FaultyClient(real, (call) => (call.kind === 'begin' ? 'busy' : undefined))
    // real pauses, each half its ceiling (5, 10, 20, 40 … ms): the tries before the limit do not depend on a random draw
    const database = over(client, { timeoutMs: 300, retry: { ...DEFAULT_RETRY, random: () => 0.5 } })
    let runs = 0
    const { error, ms } = await rejection(
      database.write(async (tx) => {
        runs++
        await tx.run(sql`INSERT INTO entries (label) VALUES ('never')`)
      }),
    )
    expect(error).toBeInstanceOf(DatabaseUnavailableError)
    const unavailable = error as DatabaseUnavailableError
    expect([unavailable.reason, unavailable.retryAfterSeconds, unavailable.outcomeUnknown, unavailable.message]).toEqual([
      'busy',
      1,
      false,
      'The database is busy with other changes; try again in a moment',
    ])
    expect(runs).toBeGreaterThan(3)
    expect(ms).toBeLessThan(300 + SLACK_MS)
    expect(await labels()).toEqual([])
  })

  test('a statement on its own is tried again by itself; an error that is not busy is not tried again', async () => {
    let refusals = 2
    const client = new FaultyClient(real, (call) => (call.kind === 'execute' && call.sql.startsWith('INSERT') && refusals-- > 0 ? 'busy' : undefined))
    const database = over(client, { retry: recordingRetry() })
    await database.exclusive(() => database.db.run(sql`INSERT INTO entries (label) VALUES ('alone')`))
    expect(client.calls.filter((call) => call.sql.startsWith('INSERT')).length).toBe(3)
    expect(await labels()).toEqual(['alone'])

    const before = client.calls.length
    const { error } = await rejection(database.exclusive(() => database.db.run(sql`INSERT INTO entries (label) VALUES ('alone')`)))
    expect(String((error as Error).cause)).toContain('UNIQUE constraint failed: entries.label')
    expect(client.calls.length - before).toBe(1)
  })
})

describe('a time limit on every call', () => {
  test('a timeout mid-write is a 503 and no retry: the transaction is closed, never committed, and the file is free for the next write', async () => {
    const client = new FaultyClient(real, (call) => (call.tx === 1 && call.kind === 'statement' ? 'stall' : undefined))
    const database = over(client, { timeoutMs: 250 })
    let runs = 0
    const { error, ms } = await rejection(
      database.write(async (tx) => {
        runs++
        await tx.run(sql`INSERT INTO entries (label) VALUES ('one')`)
        await tx.run(sql`INSERT INTO entries (label) VALUES ('two')`)
      }),
    )
    expect(ms).toBeGreaterThanOrEqual(245)
    expect(ms).toBeLessThan(250 + SLACK_MS)
    const unavailable = (error as { cause?: unknown }).cause as DatabaseUnavailableError
    expect(unavailable).toBeInstanceOf(DatabaseUnavailableError)
    expect([unavailable.reason, unavailable.retryAfterSeconds, unavailable.outcomeUnknown, unavailable.message]).toEqual([
      'timeout',
      5,
      false,
      'The database did not answer within 0.3 s; try again later',
    ])
    expect(runs).toBe(1)
    expect(client.transactions).toBe(1)
    expect(client.calls.filter((call) => call.kind === 'commit')).toEqual([])
    expect(client.closedTransactions).toEqual(new Set([1]))
    expect(await labels()).toEqual([])
    // the abandoned transaction holds nothing: the next write goes through
    await database.write((tx) => tx.run(sql`INSERT INTO entries (label) VALUES ('after')`))
    expect(await labels()).toEqual(['after'])
  })

  test('a COMMIT that does not answer: a 503 that says the change may or may not have been saved, and no retry', async () => {
    const client = new FaultyClient(real, (call) => (call.kind === 'commit' ? 'stall' : undefined))
    const database = over(client, { timeoutMs: 200 })
    let runs = 0
    const { error } = await rejection(
      database.write(async (tx) => {
        runs++
        await tx.run(sql`INSERT INTO entries (label) VALUES ('maybe')`)
      }),
    )
    expect(error).toBeInstanceOf(DatabaseUnavailableError)
    expect([(error as DatabaseUnavailableError).outcomeUnknown, (error as Error).message]).toEqual([
      true,
      'The database did not answer within 0.2 s: this change may or may not have been saved; check before repeating it, or repeat it with the same Idempotency-Key',
    ])
    expect(runs).toBe(1)
    expect(client.transactions).toBe(1)
  })

  test('a read that does not answer ends at the time limit with a 503 error; a statement that timed out is not sent again', async () => {
    const client = new FaultyClient(real, (call) => (call.sql.startsWith('select') ? 'stall' : undefined))
    const database = over(client, { timeoutMs: 150 })
    const { error, ms } = await rejection(database.db.all(sql`select count(*) from entries`))
    expect(ms).toBeLessThan(150 + SLACK_MS)
    expect(((error as { cause?: unknown }).cause as DatabaseUnavailableError).message).toBe('The database did not answer within 0.2 s; try again later')
    expect(client.calls.filter((call) => call.sql.startsWith('select')).length).toBe(1)
  })
})

describe('writes in flight', () => {
  test('a libSQL server: at most DATABASE_MAX_WRITES of this process at once; the others wait their turn, in order', async () => {
    const client = new FaultyClient(real, () => undefined, true)
    const database = over(client, { maxWrites: 2, timeoutMs: 5000 })
    let running = 0
    let most = 0
    const order: number[] = []
    const writes = Array.from({ length: 6 }, (_, i) =>
      database.write(async (tx) => {
        most = Math.max(most, ++running)
        order.push(i)
        await tx.run(sql`INSERT INTO entries (label) VALUES (${`w${i}`})`)
        await Bun.sleep(20)
        running--
      }),
    )
    await Promise.all(writes)
    expect(most).toBe(2)
    expect(order).toEqual([0, 1, 2, 3, 4, 5])
    expect(client.transactions).toBe(6)
  })

  test('a write that cannot get its turn within the time limit is a busy 503 and sends nothing', async () => {
    const client = new FaultyClient(real, () => undefined)
    const database = over(client, { maxWrites: 1, timeoutMs: 200 })
    let release!: () => void
    const holding = database.write(async (tx) => {
      await tx.run(sql`INSERT INTO entries (label) VALUES ('holder')`)
      await new Promise<void>((resolve) => (release = resolve))
    })
    await Bun.sleep(10)
    const { error, ms } = await rejection(database.write((tx) => tx.run(sql`INSERT INTO entries (label) VALUES ('waiter')`)))
    expect((error as DatabaseUnavailableError).reason).toBe('busy')
    expect(ms).toBeLessThan(200 + SLACK_MS)
    expect(client.transactions).toBe(1)
    release()
    // the holder itself ran past its own limit while waiting on the test: its COMMIT is refused too
    await holding.catch(() => undefined)
    await database.write((tx) => tx.run(sql`INSERT INTO entries (label) VALUES ('next')`))
    expect(await labels()).toEqual(['next'])
  })

  test('an embedded file takes one write at a time whatever DATABASE_MAX_WRITES says', async () => {
    const database = over(new FaultyClient(real, () => undefined), { maxWrites: 8, embedded: true })
    let running = 0
    let most = 0
    await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        database.write(async (tx) => {
          most = Math.max(most, ++running)
          await Bun.sleep(5)
          await tx.run(sql`INSERT INTO entries (label) VALUES (${`e${i}`})`)
          running--
        }),
      ),
    )
    expect(most).toBe(1)
  })
})

describe('the answer and the log', () => {
  const clock = fixedClock('2024-03-15T09:30:00.000Z')

  async function answer(error: () => Promise<unknown>, headers: Record<string, string> = {}) {
    const lines: Record<string, unknown>[] = []
    const logger = createLogger('debug', (line) => void lines.push(JSON.parse(line)))
    const app = new Elysia().use(errorHandler(clock, logger, 'en', createDiskFaultLog({ logger, clock, folders: [dir] }))).get('/fail', async () => {
      await error()
      return 'unreachable'
    })
    const response = await app.handle(new Request('http://localhost/fail', { headers }))
    return { status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.json(), lines }
  }

  /** A real SQLITE_BUSY from the file, through Drizzle (whose error lists the statement's parameters). */
  async function realBusy(): Promise<unknown> {
    const holder = await real.transaction('write')
    await holder.execute(`INSERT INTO entries (label) VALUES ('holder')`)
    const other = createClient({ url: `file:${join(dir, 'guard.db')}`, timeout: 0 } as Parameters<typeof createClient>[0])
    try {
      await drizzle(other).run(sql`INSERT INTO entries (label) VALUES (${'secret-parameter'})`)
      throw new Error('expected SQLITE_BUSY')
    } catch (error) {
      return error
    } finally {
      holder.close()
      other.close()
    }
  }

  test('a busy database nothing retried: 503 with Retry-After 1; the log has the database’s code and message, not the parameters', async () => {
    const error = await realBusy()
    const reply = await answer(() => Promise.reject(error))
    expect(reply).toMatchObject({ status: 503, retryAfter: '1' })
    expect(reply.body).toEqual({
      code: 503,
      message: 'The database is busy with other changes; try again in a moment',
      data: null,
      timestamp: '2024-03-15T09:30:00.000Z',
    })
    expect(reply.lines).toEqual([
      {
        time: expect.any(String),
        level: 'warn',
        message: 'database unavailable',
        method: 'GET',
        path: '/fail',
        reason: 'busy',
        outcome_unknown: false,
        database: { code: 'SQLITE_BUSY', message: 'database is locked' },
      },
    ])
    expect(JSON.stringify(reply.lines)).not.toContain('secret-parameter')
  })

  test('a call past its time limit: 503 with Retry-After 5 and the message of the error', async () => {
    const client = new FaultyClient(real, () => 'stall')
    const database = over(client, { timeoutMs: 100 })
    const reply = await answer(() => database.db.all(sql`select 1`))
    expect(reply).toMatchObject({ status: 503, retryAfter: '5', body: { code: 503, message: 'The database did not answer within 0.1 s; try again later' } })
    expect(reply.lines[0]).toMatchObject({ level: 'warn', reason: 'timeout', database: null })
    const inChinese = await answer(() => database.db.all(sql`select 1`), { 'Accept-Language': 'zh-CN,zh;q=0.9' })
    expect(inChinese).toMatchObject({ status: 503, retryAfter: '5', body: { code: 503, message: '数据库在 0.1 秒内没有响应；请稍后再试', data: null } })
  })

  test('a full, read-only or failing disk: 503 with Retry-After 30 naming the cause, logged once per episode with the free space', async () => {
    const lines: Record<string, unknown>[] = []
    const logger = createLogger('debug', (line) => void lines.push(JSON.parse(line)))
    const episodes = fixedClock('2024-03-15T09:30:00.000Z')
    let fault = new LibsqlError('SQLite error: database or disk is full', 'SQLITE_FULL')
    const app = new Elysia().use(errorHandler(episodes, logger, 'en', createDiskFaultLog({ logger, clock: episodes, folders: [dir] }))).post('/write', () => {
      throw new Error('Failed query: insert into "entries" ... params: [redacted]', { cause: fault })
    })
    const write = async (headers: Record<string, string> = {}) => {
      const response = await app.handle(new Request('http://localhost/write', { method: 'POST', headers }))
      return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as { message: string } }
    }
    const full = {
      status: 503,
      retryAfter: '30',
      body: {
        code: 503,
        message: 'The server’s disk is full, so this change was not saved; try again later. The operator has been told: space must be freed on the database’s disk',
        data: null,
        timestamp: '2024-03-15T09:30:00.000Z',
      },
    }
    expect(await write()).toEqual(full)
    for (let i = 0; i < 50; i++) expect((await write()).status).toBe(503)
    expect(lines).toEqual([
      {
        time: expect.any(String),
        level: 'error',
        message: 'database disk fault: full',
        method: 'POST',
        path: '/write',
        database: { code: 'SQLITE_FULL', message: 'SQLite error: database or disk is full' },
        free_bytes: { [dir]: expect.any(Number) },
        note: 'logged once; further faults of this kind less than 60 s apart are not',
      },
    ])
    // a quiet minute ends the episode: the next fault is logged again; another kind is its own episode
    episodes.set(new Date(Date.parse('2024-03-15T09:30:00.000Z') + FAULT_EPISODE_GAP_MS + 1).toISOString())
    await write()
    fault = new LibsqlError('SQLite error: attempt to write a readonly database', 'SQLITE_READONLY')
    expect((await write()).body.message).toBe(
      'The database’s disk is read-only, so this change was not saved; try again later. The operator has been told: the disk must be writable again',
    )
    fault = new LibsqlError('SQLite error: disk I/O error', 'SQLITE_IOERR_WRITE')
    expect((await write()).body.message).toStartWith('The database’s disk failed to read or write (I/O error)')
    expect((await write({ 'Accept-Language': 'zh' })).body.message).toBe(
      '数据库所在磁盘读写失败（I/O 错误），此次修改未保存；请稍后再试。已通知运维人员：需要检查磁盘',
    )
    expect(lines.map((line) => line.message)).toEqual([
      'database disk fault: full',
      'database disk fault: full',
      'database disk fault: read-only',
      'database disk fault: io',
    ])
  })

  test('any other database failure stays a 500, and its log names the database’s code and message, not the parameters', async () => {
    await real.execute(`INSERT INTO entries (label) VALUES ('taken')`)
    const reply = await answer(() => drizzle(real).run(sql`INSERT INTO entries (label) VALUES (${'taken'})`))
    expect(reply.status).toBe(500)
    expect(reply.lines).toHaveLength(1)
    expect(reply.lines[0]).toMatchObject({
      level: 'error',
      message: 'unhandled error',
      database: { code: 'SQLITE_CONSTRAINT_UNIQUE', message: 'UNIQUE constraint failed: entries.label' },
    })
    expect(String(reply.lines[0].error)).toContain('params: [redacted]')
    expect(String(reply.lines[0].error)).not.toContain('taken')
  })
})

describe('a start-up that cannot use its database', () => {
  test('a libSQL server nobody answers at: one line naming the setting and the cause (the token in the URL left out)', async () => {
    const url = 'http://127.0.0.1:9?authToken=secret-token'
    const database = await openDatabase(url)
    try {
      const { error } = await rejection(migrate(database))
      expect(startUpProblem(error, url)).toBe(
        'Cannot start: the libSQL server at DATABASE_URL http://127.0.0.1:9 cannot be reached (ECONNREFUSED); check that it runs and that this host can reach it',
      )
    } finally {
      database.close()
    }
  })

  test('a server that refuses the token, one that does not answer, and an error that is not the database’s', () => {
    const refused = new LibsqlError('Server returned HTTP status 401', 'SERVER_ERROR', undefined, undefined, Object.assign(new Error('Server returned HTTP status 401'), { name: 'HttpServerError', status: 401 }))
    expect(startUpProblem(refused, 'libsql://db.example.internal')).toBe(
      'Cannot start: the libSQL server at DATABASE_URL libsql://db.example.internal refused the credentials (HTTP 401); check DATABASE_AUTH_TOKEN',
    )
    const slow = timeoutError(10_000, false)
    expect(startUpProblem(slow, 'http://db:8080')).toBe('Cannot start: the database at DATABASE_URL http://db:8080 did not answer in time (DATABASE_TIMEOUT_MS); check the libSQL server')
    expect(startUpProblem(new Error('a bug'), 'http://db:8080')).toBeNull()
  })
})
