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
const RUNS = ['all', 'get', 'run', 'iterate'] as const
type Run = (typeof RUNS)[number]

/** Statements that are not worth a plan: transaction control and pragmas. */
const SKIP = /^\s*(BEGIN|COMMIT|ROLLBACK|PRAGMA|SAVEPOINT|RELEASE)\b/i

export async function queryPlans(env: Record<string, string>, requests: Record<string, Request>): Promise<Record<string, Plan[]>> {
  // each connection prepares a statement once (src/db/embedded.ts): what a request runs is caught at
  // the statement's run, named by the text it was prepared from
  const connection = Database.prototype as { prepare(this: Connection, sql: string): object }
  const prepareStatement = connection.prepare
  const textOf = new WeakMap<object, string>()
  connection.prepare = function (this: Connection, sql: string) {
    const statement = prepareStatement.call(this, sql)
    textOf.set(statement, sql)
    return statement
  }
  const statement = Object.getPrototypeOf(new Database(':memory:').prepare('SELECT 1')) as Record<Run, (...args: unknown[]) => unknown>
  const runs = Object.fromEntries(RUNS.map((run) => [run, statement[run]])) as Record<Run, (...args: unknown[]) => unknown>
  let caught: Set<string> | null = null
  for (const run of RUNS)
    statement[run] = function (this: object, ...args: unknown[]) {
      const sql = textOf.get(this)
      if (caught && sql !== undefined && !SKIP.test(sql)) caught.add(sql)
      return runs[run].apply(this, args)
    }
  const deps = await prepare(loadConfig({ ...env, LOG_LEVEL: 'error' }), { logger: silentLogger })
  const app = createApp(deps)
  const plans: Record<string, Plan[]> = {}
  // plans are asked on a connection of their own: the libsql driver leaves the EXPLAIN of a write in
  // progress, and a connection with a statement in progress can commit nothing more
  const explainer = new Database(env.DATABASE_URL.replace(/^file:/, ''), { timeout: 5000 })
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
        const rows = explainer.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(nulls) as { detail: string }[]
        plans[name].push({ sql, plan: rows.map((row) => String(row.detail)) })
      }
    }
  } finally {
    explainer.close()
    connection.prepare = prepareStatement
    Object.assign(statement, runs)
    deps.database.close()
  }
  return plans
}
