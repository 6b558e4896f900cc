/**
 * B4/B5, the same-work baselines (bench/baselines/same-work-server.ts): how to start the server,
 * and two checks that it does S1's and S2's work, neither more nor less: it answers what
 * Workforce answers (bodies, statuses, headers, the row a clock-in writes), and it runs the
 * statements Workforce runs (against the query plans run.ts catches).
 */
import { createClient } from '@libsql/client'
import { HOT_STATEMENTS } from '../baselines/same-work-db'
import type { LoadRequest } from '../lib/load'
import type { Plan } from '../lib/plans'
import { startServer, type ServerProcess } from '../lib/server'
import { requests, type Seeded } from './service'

export const SAME_WORK_COMMAND = ['bun', 'bench/baselines/same-work-server.ts']

/** The baseline server on the seeded database: the environment it reads from Workforce's. */
export function sameWorkEnv(env: { DATABASE_URL: string; JWT_SECRET: string }): Record<string, string> {
  return { DATABASE_PATH: env.DATABASE_URL.replace(/^file:/, ''), JWT_SECRET: env.JWT_SECRET }
}

export const startSameWork = (env: { DATABASE_URL: string; JWT_SECRET: string }): Promise<ServerProcess> =>
  startServer({ env: sameWorkEnv(env), command: SAME_WORK_COMMAND })

/** Headers that differ between any two answers. */
const VARYING_HEADERS = new Set(['date', 'content-length'])
/** Fields that differ between any two answers: when they were made, and which row a clock-in got. */
const VARYING_FIELDS = new Set(['timestamp', 'attendance_id', 'clock_in_time', 'id', 'created_at', 'updated_at'])

interface Answer {
  status: number
  headers: Record<string, string>
  body: unknown
}

async function answer({ url, init }: LoadRequest): Promise<Answer> {
  const response = await fetch(url, init)
  const headers = Object.fromEntries([...response.headers].filter(([name]) => !VARYING_HEADERS.has(name)))
  const text = await response.text()
  let body: unknown = text
  try {
    body = strip(JSON.parse(text))
  } catch {
    // not JSON: compared as it is
  }
  return { status: response.status, headers, body }
}

/** The value with the fields that always vary left out, at any depth. */
function strip(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(strip)
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(Object.entries(value).filter(([key]) => !VARYING_FIELDS.has(key)).map(([key, inner]) => [key, strip(inner)]))
}

const rebase = (request: LoadRequest, base: string): LoadRequest => ({ ...request, url: request.url.replace(/^http:\/\/[^/]+/, base) })

/**
 * Differences between Workforce's answers (at `seeded.base`) and the baseline's (at `baseBase`)
 * for the first `count` of `seeded.people`: today's record and a month's salary before and after a
 * clock-in, the clock-in itself and the row it wrote (each side's clock-in is undone before the
 * other's), a missing token and a month with no salary. Empty when they agree.
 */
export async function sameAnswers(seeded: Seeded, baselineBase: string, dbUrl: string, count: number): Promise<string[]> {
  const differences: string[] = []
  const client = createClient({ url: dbUrl })
  const compare = async (what: string, request: LoadRequest) => {
    const [ours, theirs] = await Promise.all([answer(request), answer(rebase(request, baselineBase))])
    if (!Bun.deepEquals(ours, theirs)) differences.push(`${what}: Workforce ${JSON.stringify(ours)}, baseline ${JSON.stringify(theirs)}`)
  }
  const writtenRow = async (employeeId: number, workDate: string) => {
    const { rows } = await client.execute({ sql: 'SELECT * FROM attendance_records WHERE employee_id = ? AND work_date = ?', args: [employeeId, workDate] })
    return rows[0] ? (strip({ ...rows[0], clock_in_time: undefined }) as Record<string, unknown>) : null
  }
  try {
    for (let i = 0; i < count; i++) {
      const person = seeded.people[i]
      const only = { ...seeded, people: [person] }
      const read = (n: number) => requests.employeeRead(only, n)
      await compare(`today of employee ${person.employeeId} before clocking in`, read(0))
      await compare(`salary of employee ${person.employeeId}`, read(1))

      // the clock-in on each side in turn, from the same state; within one minute, so late minutes agree
      for (let attempt = 0; ; attempt++) {
        const minute = Math.floor(Date.now() / 60_000)
        const ours = await answer(requests.clockIn(only, 0))
        const workDate = String((ours.body as { data?: { work_date?: string } }).data?.work_date)
        const ourRow = await writtenRow(person.employeeId, workDate)
        await client.execute({ sql: 'DELETE FROM attendance_records WHERE employee_id = ? AND work_date = ?', args: [person.employeeId, workDate] })
        const theirs = await answer(rebase(requests.clockIn(only, 0), baselineBase))
        const theirRow = await writtenRow(person.employeeId, workDate)
        if (Math.floor(Date.now() / 60_000) !== minute && attempt === 0) {
          await client.execute({ sql: 'DELETE FROM attendance_records WHERE employee_id = ? AND work_date = ?', args: [person.employeeId, workDate] })
          continue
        }
        if (!Bun.deepEquals(ours, theirs)) differences.push(`clock-in of employee ${person.employeeId}: Workforce ${JSON.stringify(ours)}, baseline ${JSON.stringify(theirs)}`)
        if (ourRow === null || !Bun.deepEquals(ourRow, theirRow))
          differences.push(`row of employee ${person.employeeId}'s clock-in: Workforce ${JSON.stringify(ourRow)}, baseline ${JSON.stringify(theirRow)}`)
        break
      }
      await compare(`today of employee ${person.employeeId} after clocking in`, read(0))
    }
    const someone = requests.employeeRead(seeded, 1)
    await compare('salary of a month with none', { ...someone, url: someone.url.replace(/\d{4}-\d{2}$/, '1999-01') })
    await compare('no token', { url: someone.url })
    return differences
  } finally {
    client.close()
  }
}

/** Statements of S1 and S2 that Workforce ran and the baseline does not, and the other way round. */
export function sameStatements(plans: Record<string, Plan[]>, scenarios: string[]): { missing: string[]; extra: string[] } {
  const ran = new Set(scenarios.flatMap((name) => (plans[name] ?? []).map((plan) => plan.sql)))
  return { missing: [...ran].filter((sql) => !HOT_STATEMENTS.includes(sql)), extra: HOT_STATEMENTS.filter((sql) => !ran.has(sql)) }
}
