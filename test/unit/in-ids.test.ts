import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { asc, inArray, sql } from 'drizzle-orm'
import { inIds } from '../../src/db/batches'
import { openDatabase, type Database } from '../../src/db/client'
import { employees } from '../../src/db/schema'
import { tempDir } from '../helpers'

let dir: string
let database: Database

beforeAll(async () => {
  dir = tempDir('workforce-in-ids-')
  database = await openDatabase(`file:${join(dir, 'db.sqlite')}`)
  // the columns of employees the query names, no more (the table's other constraints are not the point)
  await database.client.executeMultiple(`
    CREATE TABLE employees (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) INSERT INTO employees SELECT i, 'e' || i FROM n;
  `)
})

afterAll(() => {
  database.close()
  rmSync(dir, { recursive: true, force: true })
})

const idsWhere = (where: ReturnType<typeof inIds>) =>
  database.db
    .select({ id: employees.id })
    .from(employees)
    .where(where)
    .orderBy(asc(employees.id))
    .then((rows) => rows.map((row) => row.id))

describe('inIds: column IN the ids, bound as one JSON array', () => {
  test('the same rows as inArray, whatever the order, repeats and ids that match nothing', async () => {
    const ids = [1500, 3, 3, 999_999, 42, 1, 2000, -7]
    expect(await idsWhere(inIds(employees.id, ids))).toEqual([1, 3, 42, 1500, 2000])
    expect(await idsWhere(inIds(employees.id, ids))).toEqual(await idsWhere(inArray(employees.id, ids)))
  })

  test('no ids: no row (and NOT of it: every row)', async () => {
    expect(await idsWhere(inIds(employees.id, []))).toEqual([])
    expect(await idsWhere(sql`NOT ${inIds(employees.id, [])}`)).toHaveLength(2000)
  })

  test('one parameter however many ids: 2,000 ids where an IN list of one each would need 2,000', async () => {
    const all = Array.from({ length: 2000 }, (_, i) => i + 1)
    const query = database.db.select({ id: employees.id }).from(employees).where(inIds(employees.id, all)).toSQL()
    expect(query.params).toEqual([JSON.stringify(all)])
    expect(await idsWhere(inIds(employees.id, all))).toEqual(all)
  })
})
