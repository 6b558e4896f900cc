import { afterAll, beforeAll, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'libsql'
import { openDatabase, type Database as AppDatabase } from '../../src/db/client'
import { tempDir } from '../helpers'

let dir: string
let database: AppDatabase

beforeAll(async () => {
  dir = tempDir('workforce-statements-')
  database = await openDatabase(`file:${join(dir, 'db.sqlite')}`)
  await database.client.execute('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL)')
  await database.client.execute("INSERT INTO t (id, name) VALUES (1, 'one'), (2, 'two'), (3, 'three')")
})

afterAll(() => {
  database.close()
  rmSync(dir, { recursive: true, force: true })
})

test('one prepared statement per connection and SQL text, reused', () => {
  const connection = new Database(join(dir, 'db.sqlite'))
  const first = connection.prepare('SELECT name FROM t WHERE id = ?')
  expect(connection.prepare('SELECT name FROM t WHERE id = ?')).toBe(first)
  expect(connection.prepare('SELECT id FROM t WHERE id = ?')).not.toBe(first)
  expect(new Database(join(dir, 'db.sqlite')).prepare('SELECT name FROM t WHERE id = ?')).not.toBe(first)
  connection.close()
})

test('a reused statement answers for its new arguments, with its columns', async () => {
  const query = (id: number) => database.client.execute({ sql: 'SELECT id, name FROM t WHERE id >= ? ORDER BY id', args: [id] })
  for (const [id, names] of [
    [1, ['one', 'two', 'three']],
    [3, ['three']],
    [4, []],
    [2, ['two', 'three']],
  ] as const) {
    const result = await query(id)
    expect(result.columns).toEqual(['id', 'name'])
    expect(result.rows.map((row) => row.name)).toEqual([...names])
  }
})

test('writes, a refused write and transactions still behave', async () => {
  const insert = (id: number, name: string) => database.client.execute({ sql: 'INSERT INTO t (id, name) VALUES (?, ?)', args: [id, name] })
  await insert(4, 'four')
  await expect(insert(4, 'again')).rejects.toThrow(/UNIQUE/)
  await expect(
    database.write(async (tx) => {
      await tx.run(`INSERT INTO t (id, name) VALUES (5, 'five')`)
      throw new Error('roll back')
    }),
  ).rejects.toThrow('roll back')
  await insert(6, 'six')
  const names = await database.client.execute('SELECT name FROM t ORDER BY id')
  expect(names.rows.map((row) => row.name)).toEqual(['one', 'two', 'three', 'four', 'six'])
})

test('every connection commits with synchronous NORMAL and caches 64 MiB of pages, also one opened while a transaction holds the first', async () => {
  const tx = await database.client.transaction('write')
  try {
    for (const pragma of ['synchronous', 'cache_size'])
      expect([
        Number((await tx.execute(`PRAGMA ${pragma}`)).rows[0][0]),
        Number((await database.client.execute(`PRAGMA ${pragma}`)).rows[0][0]),
      ]).toEqual(pragma === 'synchronous' ? [1, 1] : [-65536, -65536])
  } finally {
    await tx.rollback()
  }
})
