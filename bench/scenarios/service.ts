/** S1–S5: the service under load on the seeded database. */
import { runLoad, type LoadRequest, type LoadResult } from '../lib/load'
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

/** A month of seeded work dates, a different one for each i. */
function monthRange(seeded: Seeded, i: number): { start: string; end: string } {
  const endIndex = seeded.dates.length - 1 - ((i * 13) % Math.max(1, seeded.dates.length - 31))
  return { start: seeded.dates[Math.max(0, endIndex - 30)], end: seeded.dates[endIndex] }
}

/** The i-th request of each scenario. */
export const requests = {
  /** S1: person i clocks in */
  clockIn: (seeded: Seeded, i: number): LoadRequest => {
    const person = seeded.people[i]
    return { url: `${seeded.base}/api/v1/attendance/clock-in`, init: json(person.token, { ...person.position, note: 'bench' }) }
  },
  /** S2: today's record, or a month's salary, of a random person */
  employeeRead: (seeded: Seeded, i: number): LoadRequest => ({
    url: i % 2 === 0 ? `${seeded.base}/api/v1/attendance/today` : `${seeded.base}/api/v1/employees/salaries/${pick(seeded.months, i, 31)}`,
    init: json(pick(seeded.people, i, 7919).token),
  }),
  /** S3: one employee's records over a month */
  recordsByEmployee: (seeded: Seeded, i: number): LoadRequest => {
    const { start, end } = monthRange(seeded, i)
    const employee = pick(seeded.people, i, 7919).employeeId
    return {
      url: `${seeded.base}/api/v1/admin/attendance/records?employee_id=${employee}&start_date=${start}&end_date=${end}&page_size=31`,
      init: json(seeded.adminToken),
    }
  },
  /** S3: records by status alone (a large result, with its total), paging through it */
  recordsByStatus: (seeded: Seeded, i: number): LoadRequest => ({
    url: `${seeded.base}/api/v1/admin/attendance/records?status=${[1, 2, 3, 4][i % 4]}&page=${1 + (i % 50)}&page_size=20`,
    init: json(seeded.adminToken),
  }),
  /** S4: a person's statistics for a month */
  monthlyStatistics: (seeded: Seeded, i: number): LoadRequest => {
    const { start, end } = monthRange(seeded, i)
    return {
      url: `${seeded.base}/api/v1/attendance/statistics?start_date=${start}&end_date=${end}`,
      init: json(pick(seeded.people, i, 7919).token),
    }
  },
  /** S5: salary statistics for a month (even i) or all months (odd i) */
  salaryStatistics: (seeded: Seeded, i: number): LoadRequest => ({
    url: `${seeded.base}/api/v1/admin/salaries/stats${i % 2 === 0 ? `?month=${pick(seeded.months, i, 7)}` : ''}`,
    init: json(seeded.adminToken),
  }),
}

/** S1: every person clocks in once, over `connections` connections. */
export const morningBurst = (seeded: Seeded, connections: number): Promise<LoadResult> =>
  runLoad({ connections, requests: seeded.people.length, next: (i) => requests.clockIn(seeded, i) })

/** S2: employees read today's record and a month's salary, alternately, as random people. */
export const employeeReads = (seeded: Seeded, connections: number, durationMs: number): Promise<LoadResult> =>
  runLoad({ connections, durationMs, next: (i) => requests.employeeRead(seeded, i) })

/** S3a: an administrator lists one employee's records over a month. */
export const adminListByEmployee = (seeded: Seeded, connections: number, durationMs: number): Promise<LoadResult> =>
  runLoad({ connections, durationMs, next: (i) => requests.recordsByEmployee(seeded, i) })

/** S3b: an administrator lists records by status alone. */
export const adminListByStatus = (seeded: Seeded, connections: number, durationMs: number): Promise<LoadResult> =>
  runLoad({ connections, durationMs, next: (i) => requests.recordsByStatus(seeded, i) })

/** S4: an employee's statistics for one month. */
export const monthlyStatistics = (seeded: Seeded, connections: number, durationMs: number): Promise<LoadResult> =>
  runLoad({ connections, durationMs, next: (i) => requests.monthlyStatistics(seeded, i) })

/** S5: salary statistics for one month and for all months, one request at a time. */
export const salaryStatistics = (seeded: Seeded, count: number): Promise<LoadResult> =>
  runLoad({ connections: 1, requests: count, next: (i) => requests.salaryStatistics(seeded, i) })
