/**
 * The query plans of the scenarios: each scenario's request is run once in this process
 * against the seeded database, every statement it prepares is caught, and SQLite's
 * EXPLAIN QUERY PLAN of each is kept, so RESULTS.md shows which index serves what.
 */
import Database from 'libsql'
import { createApp } from '../../src/app'
import { prepare } from '../../src/bootstrap'
import { loadConfig } from '../../src/config'
import { silentLogger } from '../../src/lib/logger'

export interface Plan {
  sql: string
  plan: string[]
}

type Connection = InstanceType<typeof Database>

/** Statements that are not worth a plan: transaction control and pragmas. */
const SKIP = /^\s*(BEGIN|COMMIT|ROLLBACK|PRAGMA|SAVEPOINT|RELEASE)\b/i

export async function queryPlans(env: Record<string, string>, requests: Record<string, Request>): Promise<Record<string, Plan[]>> {
  const deps = await prepare(loadConfig({ ...env, LOG_LEVEL: 'error' }), { logger: silentLogger })
  const app = createApp(deps)
  const prototype = Database.prototype as { prepare(this: Connection, sql: string): unknown }
  const original = prototype.prepare
  let caught: Set<string> | null = null
  prototype.prepare = function (this: Connection, sql: string) {
    if (caught && !SKIP.test(sql)) caught.add(sql)
    return original.call(this, sql)
  }
  const plans: Record<string, Plan[]> = {}
  try {
    for (const [name, request] of Object.entries(requests)) {
      caught = new Set()
      const response = await app.handle(request)
      if (!response.ok) throw new Error(`${name}: HTTP ${response.status} ${await response.text()}`)
      await response.arrayBuffer()
      const statements = [...caught]
      caught = null
      plans[name] = []
      for (const sql of statements) {
        const nulls = Array.from(sql.matchAll(/\?/g), () => null)
        const rows = (await deps.database.client.execute({ sql: `EXPLAIN QUERY PLAN ${sql}`, args: nulls })).rows
        plans[name].push({ sql, plan: rows.map((row) => String(row.detail)) })
      }
    }
  } finally {
    prototype.prepare = original
    deps.database.close()
  }
  return plans
}
