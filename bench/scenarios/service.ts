/** S1–S5: the service under load on the seeded database. */
import { runLoad, type LoadResult } from '../lib/load'
import type { Person } from '../lib/people'

export interface Seeded {
  base: string
  people: Person[]
  adminToken: string
  /** seeded work dates, oldest first */
  dates: string[]
  /** months with salaries, `YYYY-MM`, oldest first */
  months: string[]
}

const json = (token: string, body?: unknown): RequestInit => ({
  method: body === undefined ? 'GET' : 'POST',
  headers:
    body === undefined ? { authorization: `Bearer ${token}` } : { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  body: body === undefined ? undefined : JSON.stringify(body),
})

const pick = <T>(list: T[], i: number, stride: number): T => list[(i * stride) % list.length]

/** S1: every person clocks in once, over `connections` connections. */
export function morningBurst(seeded: Seeded, connections: number): Promise<LoadResult> {
  return runLoad({
    connections,
    requests: seeded.people.length,
    next: (i) => {
      const person = seeded.people[i]
      return { url: `${seeded.base}/api/v1/attendance/clock-in`, init: json(person.token, { ...person.position, note: 'bench' }) }
    },
  })
}

/** S2: employees read today's record and a month's salary, alternately, as random people. */
export function employeeReads(seeded: Seeded, connections: number, durationMs: number): Promise<LoadResult> {
  return runLoad({
    connections,
    durationMs,
    next: (i) => {
      const person = pick(seeded.people, i, 7919)
      const url =
        i % 2 === 0 ? `${seeded.base}/api/v1/attendance/today` : `${seeded.base}/api/v1/employees/salaries/${pick(seeded.months, i, 31)}`
      return { url, init: json(person.token) }
    },
  })
}

/** The month of work dates ending `days` before the last seeded one. */
function monthRange(seeded: Seeded, i: number): { start: string; end: string } {
  const endIndex = seeded.dates.length - 1 - ((i * 13) % Math.max(1, seeded.dates.length - 31))
  return { start: seeded.dates[Math.max(0, endIndex - 30)], end: seeded.dates[endIndex] }
}

/** S3a: an administrator lists one employee's records over a month. */
export function adminListByEmployee(seeded: Seeded, connections: number, durationMs: number): Promise<LoadResult> {
  return runLoad({
    connections,
    durationMs,
    next: (i) => {
      const { start, end } = monthRange(seeded, i)
      const employee = pick(seeded.people, i, 7919).employeeId
      return {
        url: `${seeded.base}/api/v1/admin/attendance/records?employee_id=${employee}&start_date=${start}&end_date=${end}&page_size=31`,
        init: json(seeded.adminToken),
      }
    },
  })
}

/** S3b: an administrator lists records by status alone (a large result, with its total), paging through it. */
export function adminListByStatus(seeded: Seeded, connections: number, durationMs: number): Promise<LoadResult> {
  return runLoad({
    connections,
    durationMs,
    next: (i) => ({
      url: `${seeded.base}/api/v1/admin/attendance/records?status=${[1, 2, 3, 4][i % 4]}&page=${1 + (i % 50)}&page_size=20`,
      init: json(seeded.adminToken),
    }),
  })
}

/** S4: an employee's statistics for one month. */
export function monthlyStatistics(seeded: Seeded, connections: number, durationMs: number): Promise<LoadResult> {
  return runLoad({
    connections,
    durationMs,
    next: (i) => {
      const { start, end } = monthRange(seeded, i)
      return {
        url: `${seeded.base}/api/v1/attendance/statistics?start_date=${start}&end_date=${end}`,
        init: json(pick(seeded.people, i, 7919).token),
      }
    },
  })
}

/** S5: salary statistics for one month and for all months, one request at a time. */
export function salaryStatistics(seeded: Seeded, requests: number): Promise<LoadResult> {
  return runLoad({
    connections: 1,
    requests,
    next: (i) => ({
      url: `${seeded.base}/api/v1/admin/salaries/stats${i % 2 === 0 ? `?month=${pick(seeded.months, i, 7)}` : ''}`,
      init: json(seeded.adminToken),
    }),
  })
}
