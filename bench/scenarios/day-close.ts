/**
 * S8: the day close of every group for one date, through POST /api/v1/admin/attendance/close-day
 * handled in this process (the app as the server builds it, no network) against the seeded
 * database. Each run first puts the date back as the day close found it: its absent records
 * (no clock-in) deleted and its closed-day rows removed for every group.
 */
import { createClient } from '@libsql/client'
import { createApp } from '../../src/app'
import { prepare } from '../../src/bootstrap'
import { loadConfig } from '../../src/config'
import { silentLogger } from '../../src/lib/logger'

export interface DayCloseRun {
  date: string
  /** median of the timed runs, ms */
  ms: number
  runs: number[]
  groups: number
  /** absent records the close wrote (the same every run) */
  absences: number
  exceptions: number
  /** closed-day rows written: one per group */
  closedDays: number
  /** members of the groups */
  employees: number
  /** members on approved full-day leave on the date */
  onLeave: number
  /** records on the date of members on approved full-day leave, after the close: 0 expected */
  leaveRecords: number
}

/** Puts `date` back to unclosed: its absences deleted, its closed-day rows removed. */
export async function reopenDay(dbUrl: string, date: string): Promise<void> {
  const client = createClient({ url: dbUrl })
  try {
    await client.batch(
      [
        { sql: 'DELETE FROM attendance_records WHERE work_date = ? AND status = 3 AND clock_in_time IS NULL', args: [date] },
        { sql: 'DELETE FROM attendance_closed_days WHERE work_date = ?', args: [date] },
      ],
      'write',
    )
  } finally {
    client.close()
  }
}

/** The close-day request for every group. */
export const closeDayRequest = (base: string, token: string, date: string) =>
  new Request(`${base}/api/v1/admin/attendance/close-day`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ date }),
  })

export async function dayCloseScenario(
  env: Record<string, string>,
  token: string,
  dates: { workDay: string; holiday: string },
  repeat: number,
): Promise<{ workDay: DayCloseRun; holiday: DayCloseRun }> {
  const dbUrl = env.DATABASE_URL
  const deps = await prepare(loadConfig({ ...env, LOG_LEVEL: 'error' }), { logger: silentLogger })
  const app = createApp(deps)
  const close = async (date: string) => {
    await reopenDay(dbUrl, date)
    const started = performance.now()
    const response = await app.handle(closeDayRequest('http://localhost', token, date))
    const body = (await response.json()) as { data?: { groups: { closed: boolean; absent_records: number; exception_records: number }[] } }
    const ms = performance.now() - started
    if (!response.ok || !body.data) throw new Error(`S8 close-day ${date}: HTTP ${response.status} ${JSON.stringify(body)}`)
    return { ms, groups: body.data.groups }
  }
  const measure = async (date: string): Promise<DayCloseRun> => {
    const runs: number[] = []
    let last: Awaited<ReturnType<typeof close>> | null = null
    for (let i = 0; i < repeat; i++) {
      last = await close(date)
      runs.push(last.ms)
    }
    const groups = last!.groups
    const facts = await deps.database.client.execute({
      sql: `SELECT
              (SELECT count(*) FROM attendance_group_members) AS employees,
              (SELECT count(*) FROM leave_requests WHERE status = 'approved' AND half_day IS NULL AND start_time IS NULL AND start_date <= ?1 AND end_date >= ?1) AS on_leave,
              (SELECT count(*) FROM attendance_records r JOIN leave_requests l ON l.employee_id = r.employee_id
                 AND l.status = 'approved' AND l.half_day IS NULL AND l.start_date <= ?1 AND l.end_date >= ?1
               WHERE r.work_date = ?1) AS leave_records`,
      args: [date],
    })
    const row = facts.rows[0]
    const sorted = [...runs].sort((a, b) => a - b)
    return {
      date,
      ms: sorted[Math.floor(sorted.length / 2)],
      runs,
      groups: groups.length,
      absences: groups.reduce((sum, group) => sum + group.absent_records, 0),
      exceptions: groups.reduce((sum, group) => sum + group.exception_records, 0),
      closedDays: groups.filter((group) => group.closed).length,
      employees: Number(row.employees),
      onLeave: Number(row.on_leave),
      leaveRecords: Number(row.leave_records),
    }
  }
  try {
    // warm-up, unmeasured: the route's code paths and the date's pages
    await close(dates.workDay)
    return { workDay: await measure(dates.workDay), holiday: await measure(dates.holiday) }
  } finally {
    deps.database.close()
  }
}
