import type { Client } from '@libsql/client'
import { addDays, instantAt, weekday } from '../../src/lib/local-time'
import { WORK_DAYS } from './attendance-rows'
import { BulkInsert } from './bulk'
import type { Organization } from './organization'
import type { Random } from './random'

export type DayKind = 'holiday' | 'workday'

/** Share of employees on a full day of approved leave on the S8 close date. */
export const CLOSE_DATE_LEAVE_SHARE = 0.05
/** Share of employees with one approved leave of 1–3 work days somewhere else in the period. */
const SPREAD_LEAVE_SHARE = 0.3
/** Of those spread requests, every UNPAID_EVERY-th (by request id) is of the unpaid type, which payroll deducts (S11). */
const UNPAID_EVERY = 4

export interface BenchCalendar {
  /** the company's calendar days: date → kind */
  days: Map<string, DayKind>
  /** names, as the calendar shows them */
  names: Map<string, string>
  /** S8 (a): a seeded work day (not in the calendar) on which CLOSE_DATE_LEAVE_SHARE of employees are on leave */
  closeDate: string
  /** S8 (b): a weekday that the calendar makes a holiday */
  holiday: string
}

/** The `back`-th weekday (Monday to Friday) before `end`, counting `end` itself as 0 when it is one. */
function weekdayBack(end: string, back: number): string {
  let date = end
  while (!WORK_DAYS.includes(weekday(date))) date = addDays(date, -1)
  for (let left = back; left > 0; ) {
    date = addDays(date, -1)
    if (WORK_DAYS.includes(weekday(date))) left--
  }
  return date
}

/**
 * The company calendar over the seeded period, placed by the number of weekdays before
 * the last seeded date so a smoke run gets them too: weekday holidays (one of them S8's),
 * one Saturday make-up workday, and S8's close date, a plain work day.
 */
export function benchCalendar(endDate: string, days: number): BenchCalendar {
  const calendar = new Map<string, DayKind>()
  const names = new Map<string, string>()
  const holiday = weekdayBack(endDate, 7)
  const closeDate = weekdayBack(endDate, 4)
  const holidays = [holiday, ...[Math.floor(days / 2), Math.floor((days * 3) / 4)].filter((back) => back > 9).map((back) => weekdayBack(endDate, back))]
  for (const [i, date] of holidays.entries()) {
    calendar.set(date, 'holiday')
    names.set(date, i === 0 ? 'Bench holiday (S8)' : `Bench holiday ${i}`)
  }
  // the Saturday before the S8 holiday is worked in its stead
  let makeUp = addDays(holiday, -1)
  while (weekday(makeUp) !== 6) makeUp = addDays(makeUp, -1)
  calendar.set(makeUp, 'workday')
  names.set(makeUp, 'Make-up workday')
  return { days: calendar, names, closeDate, holiday }
}

export interface LeaveInput {
  org: Organization
  /** seeded work dates (the calendar applied), oldest first */
  dates: string[]
  calendar: BenchCalendar
  adminId: number
  zone: string
  rowsPerStatement: number
}

/**
 * The company's calendar days, two leave types (annual, paid; personal, unpaid), and approved full-day leave requests with
 * their ledger rows (pending on request; release and taken on approval, as the leave
 * service writes them). Returns who is on leave on which date, so attendance leaves them out.
 */
export async function seedCalendarAndLeave(client: Client, random: Random, input: LeaveInput) {
  const started = performance.now()
  const { org, dates, calendar, zone } = input
  const onLeave = new Map<string, Set<number>>()
  const tx = await client.transaction('write')
  let requests = 0
  let ledger = 0
  try {
    const founded = instantAt(addDays(dates[0], -30), '09:00', zone).getTime()
    const days = new BulkInsert(tx, 'calendar_days', ['company_id', 'date', 'kind', 'name', 'created_at', 'updated_at'], input.rowsPerStatement)
    for (const [date, kind] of [...calendar.days].sort(([a], [b]) => a.localeCompare(b)))
      await days.add([org.companyId, date, kind, calendar.names.get(date)!, founded, founded])
    await days.finish()

    const type = await tx.execute({
      sql: 'INSERT INTO leave_types (name, paid, requires_balance, annual_half_days, status, created_at, updated_at) VALUES (?, 1, 1, 20, 1, ?, ?)',
      args: ['Annual leave', founded, founded],
    })
    const typeId = Number(type.lastInsertRowid)
    const unpaid = await tx.execute({
      sql: 'INSERT INTO leave_types (name, paid, requires_balance, annual_half_days, status, created_at, updated_at) VALUES (?, 0, 0, 0, 1, ?, ?)',
      args: ['Personal leave (unpaid)', founded, founded],
    })
    const unpaidTypeId = Number(unpaid.lastInsertRowid)

    // request ids are assigned here so the ledger rows can name them in the same bulk style
    let requestId = 0
    const requestRows = new BulkInsert(
      tx,
      'leave_requests',
      ['id', 'employee_id', 'type_id', 'start_date', 'end_date', 'half_day', 'amount', 'reason', 'status', 'decided_by', 'decided_at', 'decision_note', 'created_at', 'updated_at'],
      input.rowsPerStatement,
    )
    const ledgerRows = new BulkInsert(
      tx,
      'leave_ledger',
      ['employee_id', 'type_id', 'year', 'kind', 'amount', 'reason', 'request_id', 'actor_id', 'created_at'],
      input.rowsPerStatement,
    )
    // the ledger rows name their request: they go in once every request has
    const ledgerLater: (string | number)[][] = []
    const closeIndex = dates.indexOf(calendar.closeDate)
    const approve = async (employeeId: number, userId: number, from: number, to: number, spread: boolean) => {
      // decided by the request's id, not drawn: the random sequence, and so every other seeded row, stays as it was
      const type = spread && (requestId + 1) % UNPAID_EVERY === 0 ? unpaidTypeId : typeId
      const reason = type === typeId ? 'Annual leave' : 'Personal matters'
      const start = dates[from]
      const end = dates[to]
      const halfDays = 2 * (to - from + 1)
      const requestedAt = instantAt(addDays(start, -7 - random.int(0, 14)), '10:00', zone).getTime() + random.int(0, 3_600_000)
      const decidedAt = requestedAt + random.int(600_000, 86_400_000)
      requestId++
      await requestRows.add([requestId, employeeId, type, start, end, null, halfDays, reason, 'approved', input.adminId, decidedAt, null, requestedAt, decidedAt])
      const year = Number(start.slice(0, 4))
      ledgerLater.push([employeeId, type, year, 'pending', halfDays, 'requested', requestId, userId, requestedAt])
      ledgerLater.push([employeeId, type, year, 'release', -halfDays, 'approved', requestId, input.adminId, decidedAt])
      ledgerLater.push([employeeId, type, year, 'taken', halfDays, 'approved', requestId, input.adminId, decidedAt])
      for (let i = from; i <= to; i++) {
        let set = onLeave.get(dates[i])
        if (!set) onLeave.set(dates[i], (set = new Set()))
        set.add(employeeId)
      }
    }
    for (let offset = 0; offset <= org.employees.last - org.employees.first; offset++) {
      const employeeId = org.employees.first + offset
      const userId = org.users.first + offset
      if (closeIndex >= 0 && random.chance(CLOSE_DATE_LEAVE_SHARE)) await approve(employeeId, userId, closeIndex, closeIndex, false)
      else if (random.chance(SPREAD_LEAVE_SHARE)) {
        const from = random.int(0, dates.length - 1)
        let to = Math.min(dates.length - 1, from + random.int(0, 2))
        // one year per request (its ledger rows name one), and the close date's share stays as drawn
        while (to > from && (dates[to].slice(0, 4) !== dates[from].slice(0, 4) || (from <= closeIndex && closeIndex <= to))) to--
        if (from !== closeIndex) await approve(employeeId, userId, from, to, true)
      }
    }
    requests = await requestRows.finish()
    for (const row of ledgerLater) await ledgerRows.add(row)
    ledger = await ledgerRows.finish()
    await tx.commit()
  } finally {
    tx.close()
  }
  return {
    onLeave,
    counts: { calendar_days: calendar.days.size, leave_types: 2, leave_requests: requests, leave_ledger: ledger },
    ms: Math.round(performance.now() - started),
  }
}
