import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { createClient, LibsqlBatchError, LibsqlError, type Client, type ResultSet } from '@libsql/client'
import Database from 'libsql'
import { openDatabase, type Database as AppDatabase } from '../../src/db/client'
import { EmbeddedClient } from '../../src/db/embedded'
import { tempDir } from '../helpers'

let dir: string
let path: string
let database: AppDatabase
let ours: EmbeddedClient
/** `@libsql/client` on the same file: what our client must answer like */
let theirs: Client

beforeAll(async () => {
  dir = tempDir('workforce-embedded-')
  path = join(dir, 'db.sqlite')
  database = await openDatabase(`file:${path}`)
  await database.client.executeMultiple(`
    CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, amount INTEGER, ratio REAL, data BLOB);
    CREATE TABLE u (id INTEGER PRIMARY KEY, t_id INTEGER REFERENCES t(id), name TEXT);
    INSERT INTO t VALUES (1, 'one', 9007199254740991, 0.5, x'00ff10'), (2, 'two', -12345, NULL, NULL), (3, 'three', 0, 1e300, x'');
    INSERT INTO u VALUES (10, 1, 'first'), (11, 1, 'second'), (12, 2, NULL);
  `)
  ours = new EmbeddedClient(path, { busyTimeoutMs: 1000 })
  theirs = createClient({ url: `file:${path}` })
})

afterAll(() => {
  ours.close()
  theirs.close()
  database.close()
  rmSync(dir, { recursive: true, force: true })
})

/** A result as a caller can see it: by name, by position, as JSON. */
function seen(result: ResultSet) {
  return {
    columns: result.columns,
    columnTypes: result.columnTypes,
    byName: result.rows.map((row) => ({ ...row })),
    keys: result.rows.map((row) => Object.keys(row)),
    byPosition: result.rows.map((row) => Array.prototype.slice.call(row)),
    lengths: result.rows.map((row) => row.length),
    json: JSON.stringify(result.rows),
    rowsAffected: result.rowsAffected,
  }
}

describe('answers as @libsql/client answers', () => {
  const statements: [string, unknown[]][] = [
    ['SELECT * FROM t ORDER BY id', []],
    ['SELECT id, name FROM t WHERE id >= ? ORDER BY id', [2]],
    ['SELECT id, name FROM t WHERE id >= ? ORDER BY id', [4]],
    // a join whose columns repeat names: the first of a name by name, every one by position
    ['SELECT t.id, u.id, t.name, u.name FROM t JOIN u ON u.t_id = t.id ORDER BY u.id', []],
    ['SELECT name, amount FROM t WHERE id = ? limit ?', [1, 1]],
    ['SELECT name, amount FROM t WHERE id > ? limit ?', [0, 2]],
    ['SELECT name FROM t WHERE id = ? limit ?', [99, 1]],
    ['SELECT count(*) AS n, sum(amount) AS total, 1 = 1 AS yes FROM t', []],
    ['SELECT ? AS a, ? AS b, ? AS c, ? AS d', [true, false, new Date(86_400_000), null]],
    ['PRAGMA table_info(t)', []],
  ]
  for (const [sql, args] of statements)
    test(sql, async () => {
      const args_ = args as never
      expect(seen(await ours.execute({ sql, args: args_ }))).toEqual(seen(await theirs.execute({ sql, args: args_ })))
    })

  test('integers are numbers, blobs are ArrayBuffers of their own bytes', async () => {
    const { rows } = await ours.execute('SELECT amount, data FROM t ORDER BY id')
    expect(rows.map((row) => row.amount)).toEqual([9007199254740991, -12345, 0])
    expect(rows.map((row) => (row.data instanceof ArrayBuffer ? [...new Uint8Array(row.data)] : row.data))).toEqual([[0, 255, 16], null, []])
  })

  test('a write says how many rows it changed and the last rowid', async () => {
    const insert = { sql: 'INSERT INTO u (id, t_id, name) VALUES (?, ?, ?)', args: [20, 3, 'third'] }
    const result = await ours.execute(insert)
    expect([result.rowsAffected, result.lastInsertRowid, result.rows, result.columns]).toEqual([1, 20n, [], []])
    const update = await ours.execute({ sql: 'UPDATE u SET name = upper(name) WHERE t_id = ?', args: [1] })
    expect(update.rowsAffected).toBe(2)
    await ours.execute('DELETE FROM u WHERE id = 20')
    await ours.execute("UPDATE u SET name = lower(name) WHERE t_id = 1")
  })
})

test('each connection prepares a statement once and reuses it with new arguments', async () => {
  const prototype = Database.prototype as { prepare(sql: string): unknown }
  const original = prototype.prepare
  const prepared: string[] = []
  prototype.prepare = function (this: unknown, sql: string) {
    prepared.push(sql)
    return original.call(this, sql)
  }
  try {
    const client = new EmbeddedClient(path, { busyTimeoutMs: 1000 })
    const names = async (id: number) =>
      (await client.execute({ sql: 'SELECT name FROM t WHERE id >= ? ORDER BY id', args: [id] })).rows.map((row) => row.name)
    expect([await names(1), await names(3), await names(4), await names(2)]).toEqual([['one', 'two', 'three'], ['three'], [], ['two', 'three']])
    expect(prepared.filter((sql) => sql.startsWith('SELECT name'))).toHaveLength(1)
    client.close()
  } finally {
    prototype.prepare = original
  }
})

test("the database's refusals are LibsqlErrors with SQLite's codes, and a failed statement leaves no trace", async () => {
  const error = await ours.execute({ sql: 'INSERT INTO t (id, name) VALUES (?, ?)', args: [9, 'one'] }).catch((e) => e)
  expect(error).toBeInstanceOf(LibsqlError)
  expect([error.code, error.extendedCode, error.message]).toEqual(['SQLITE_CONSTRAINT', 'SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT: UNIQUE constraint failed: t.name'])
  const syntax = await ours.execute('SELEC 1').catch((e) => e)
  expect([syntax.constructor, syntax.code]).toEqual([LibsqlError, 'SQLITE_ERROR'])
  await expect(ours.execute({ sql: 'SELECT ?', args: [undefined as never] })).rejects.toThrow(TypeError)
  expect((await ours.execute('SELECT count(*) AS n FROM t')).rows[0].n).toBe(3)
})

test('a batch is one transaction: a failure names its statement and undoes the ones before it', async () => {
  const error = await ours
    .batch([
      { sql: 'INSERT INTO u (id, t_id, name) VALUES (?, ?, ?)', args: [30, 1, 'kept?'] },
      { sql: 'INSERT INTO t (id, name) VALUES (?, ?)', args: [31, 'two'] },
    ])
    .catch((e) => e)
  expect(error).toBeInstanceOf(LibsqlBatchError)
  expect([error.statementIndex, error.code]).toEqual([1, 'SQLITE_CONSTRAINT'])
  expect((await ours.execute('SELECT count(*) AS n FROM u WHERE id = 30')).rows[0].n).toBe(0)
  const results = await ours.batch(['SELECT 1 AS one', ['SELECT ? AS two', [2]]], 'read')
  expect(results.map((result) => ({ ...result.rows[0] }) as Record<string, unknown>)).toEqual([{ one: 1 }, { two: 2 }])
})

test('a transaction holds its connection: reads go on beside it and see only what it committed', async () => {
  const tx = await ours.transaction('write')
  await tx.execute({ sql: 'INSERT INTO u (id, t_id, name) VALUES (?, ?, ?)', args: [40, 2, 'pending'] })
  const count = async () => (await ours.execute('SELECT count(*) AS n FROM u WHERE id = 40')).rows[0].n
  expect([(await tx.execute('SELECT count(*) AS n FROM u WHERE id = 40')).rows[0].n, await count()]).toEqual([1, 0])
  await tx.rollback()
  expect([tx.closed, await count()]).toEqual([true, 0])
  await expect(tx.execute('SELECT 1')).rejects.toThrow('The transaction is closed')

  const committed = await ours.transaction('write')
  await committed.execute({ sql: 'INSERT INTO u (id, t_id, name) VALUES (?, ?, ?)', args: [41, 2, 'done'] })
  await committed.commit()
  expect(await (async () => (await ours.execute('SELECT name FROM u WHERE id = 41')).rows[0].name)()).toBe('done')
  // closing an open transaction rolls it back
  const closed = await ours.transaction('write')
  await closed.execute('DELETE FROM u WHERE id = 41')
  closed.close()
  expect((await ours.execute('SELECT count(*) AS n FROM u WHERE id = 41')).rows[0].n).toBe(1)
  await ours.execute('DELETE FROM u WHERE id = 41')
})

test('every connection commits with synchronous NORMAL and caches 64 MiB of pages, also one opened while a transaction holds the first; with background checkpoints none checkpoints on commit', async () => {
  for (const backgroundCheckpoints of [false, true]) {
    const client = new EmbeddedClient(path, { busyTimeoutMs: 1000, backgroundCheckpoints })
    const tx = await client.transaction('write')
    try {
      const pragmas = async (on: { execute: Client['execute'] }) =>
        Promise.all(['synchronous', 'cache_size', 'wal_autocheckpoint'].map(async (pragma) => Number((await on.execute(`PRAGMA ${pragma}`)).rows[0][0])))
      const expected = [1, -65536, backgroundCheckpoints ? 0 : 1000]
      expect([await pragmas(tx), await pragmas(client)]).toEqual([expected, expected])
    } finally {
      await tx.rollback()
      client.close()
    }
  }
})

test('a closed client refuses calls and a file that cannot be opened fails at once', async () => {
  const client = new EmbeddedClient(path, { busyTimeoutMs: 1000 })
  client.close()
  expect(client.closed).toBe(true)
  await expect(client.execute('SELECT 1')).rejects.toThrow('The client is closed')
  expect(() => new EmbeddedClient(join(dir, 'missing', 'folder', 'db.sqlite'), { busyTimeoutMs: 1000 })).toThrow('Unable to open connection')
})

test('calls outside a transaction all run on the connection used last, however many are in flight; a transaction takes another', async () => {
  const client = new EmbeddedClient(path, { busyTimeoutMs: 1000 })
  const prototype = Database.prototype as { prepare(sql: string): unknown }
  const original = prototype.prepare
  const connections = new Set<unknown>()
  prototype.prepare = function (this: unknown, sql: string) {
    connections.add(this)
    return original.call(this, sql)
  }
  try {
    // many calls at once, each with its own statement text so that each prepares on the connection it runs on
    await Promise.all(Array.from({ length: 50 }, (_, i) => client.execute(`SELECT ${i} AS n`)))
    expect(connections.size).toBe(1)
    const tx = await client.transaction('write')
    await tx.execute('SELECT 100 AS n')
    await Promise.all(Array.from({ length: 10 }, (_, i) => client.execute(`SELECT ${200 + i} AS n`)))
    await tx.rollback()
    expect(connections.size).toBe(2)
  } finally {
    prototype.prepare = original
    client.close()
  }
})
