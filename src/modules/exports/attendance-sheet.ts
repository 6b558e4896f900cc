import { weekday } from '../../lib/local-time'
import { weekdayRules } from '../attendance/records'
import type { DayTotals } from '../attendance/repository'
import type { RuleRow } from '../attendance/setup/repository'
import { computeStatistics, type DayRule, type LeaveDate, type LeaveMinutes, type StatisticsResult } from '../attendance/statistics'
import { countedFrom, countedUntil, isWorkDayFor, type CompanyCalendar } from '../calendar/work-days'
import { datesOf } from '../leave/repository'

/*
 * The attendance sheet's pure part: an employee's month from the rows already loaded for a page,
 * judged as GET /attendance/statistics judges it. The totals come from `computeStatistics` itself,
 * fed the same inputs the statistics endpoint gives it (its per-day SQL totals computed here in JS
 * from the records, its leave dates from the approved requests); the codes of the dates are chosen
 * so that they count what those totals count (see `dayCode`).
 */

/** What the sheet reads of a record (the columns `dayTotals` aggregates). */
export interface MonthRecord {
  workDate: string
  status: number
  clockedIn: boolean
  lateMinutes: number
  earlyMinutes: number
  workMinutes: number
  overtimeMinutes: number
}

/**
 * An approved leave request, as far as its dates go. An hourly one (CONTRACT §18) has its span
 * (`startTime`, `endTime`, on startDate = endDate) and `amount`, the minutes of work time it
 * covers; it is no leave day, only minutes (`leaveMinutesOf`). Rows that leave the three out
 * (or null) are requests of days.
 */
export interface ApprovedLeave {
  startDate: string
  endDate: string
  halfDay: 'am' | 'pm' | null
  startTime?: string | null
  endTime?: string | null
  /** half-days for a request of days, minutes for an hourly one (leave_requests.amount) */
  amount?: number
}

/** An hourly request: one with a start time. */
export const isHourly = (request: ApprovedLeave): boolean => request.startTime != null

/** A date's month and ISO weekday, and the two as one key. */
interface DateParts {
  month: string
  weekday: number
  key: string
}
const MAX_DATES = 10_000
const dateParts = new Map<string, DateParts>()

/**
 * Each date's parts are worked out once and kept: a payroll run groups the same thirty-odd dates
 * for thousands of employees, and a kept key is hashed once, where a new string would be each time.
 */
function datePartsOf(date: string): DateParts {
  let parts = dateParts.get(date)
  if (!parts) {
    const month = date.slice(0, 7)
    const day = weekday(date)
    if (dateParts.size >= MAX_DATES) dateParts.clear()
    dateParts.set(date, (parts = { month, weekday: day, key: `${month} ${day}` }))
  }
  return parts
}

/**
 * `attendance/repository.dayTotals` over records already loaded: the records of [start, end]
 * grouped by month, ISO weekday and the company calendar's mark of their date, with the same
 * aggregates as its SQL (a record's hours counted as it shows them: ⌊(minutes × 5 + 1) / 3⌋
 * hundredths; `absentDays` and `pastRecords` those dated from `since`, the latter to before `today`).
 */
export function dayTotalsOf(
  records: readonly MonthRecord[],
  range: { start: string; end: string; since: string; today: string },
  calendar: CompanyCalendar,
): DayTotals[] {
  // by month and weekday (the kept key of the date), then by the calendar's mark; `all` in the order found
  const groups = new Map<string, Map<DayTotals['kind'], DayTotals>>()
  const all: DayTotals[] = []
  for (const record of records) {
    const date = record.workDate
    if (date < range.start || date > range.end) continue
    const { month, weekday: day, key } = datePartsOf(date)
    const kind = calendar.get(date)?.kind ?? null
    let byKind = groups.get(key)
    if (!byKind) groups.set(key, (byKind = new Map()))
    let totals = byKind.get(kind)
    if (!totals) {
      totals = {
        month,
        weekday: day,
        records: 0,
        attendanceDays: 0,
        lateDays: 0,
        earlyDays: 0,
        absentDays: 0,
        exceptionDays: 0,
        workHundredths: 0,
        lateMinutes: 0,
        earlyMinutes: 0,
        overtimeMinutes: 0,
        pastRecords: 0,
        kind,
      }
      byKind.set(kind, totals)
      all.push(totals)
    }
    totals.records++
    totals.attendanceDays += Number(record.clockedIn)
    totals.lateDays += Number(record.status === 1 || record.lateMinutes > 0)
    totals.earlyDays += Number(record.earlyMinutes > 0)
    totals.absentDays += Number(record.status === 3 && date >= range.since)
    totals.exceptionDays += Number(record.status === 4)
    totals.workHundredths += Math.trunc((record.workMinutes * 5 + 1) / 3)
    totals.lateMinutes += record.lateMinutes
    totals.earlyMinutes += record.earlyMinutes
    totals.overtimeMinutes += record.overtimeMinutes
    totals.pastRecords += Number(date >= range.since && date < range.today)
  }
  return all
}

/**
 * `leave/repository.leaveDates` over rows already loaded: each date of [start, end] under an
 * approved request of days, half or whole (two approved halves of one date make a whole day), with
 * what record it has (none, an absent record without a clock-in, or another). Hourly requests are
 * no leave day and left out.
 */
export function leaveDatesOf(
  requests: readonly ApprovedLeave[],
  records: ReadonlyMap<string, MonthRecord>,
  start: string,
  end: string,
): LeaveDate[] {
  const dates = new Map<string, boolean>()
  for (const request of requests) {
    if (isHourly(request)) continue
    const first = request.startDate > start ? request.startDate : start
    const last = request.endDate < end ? request.endDate : end
    for (const date of datesOf(first, last)) dates.set(date, dates.has(date) ? false : request.halfDay !== null)
  }
  return [...dates].map(([date, half]) => {
    const record = records.get(date)
    return { date, half, record: !record ? 'none' : record.status === 3 && !record.clockedIn ? 'absent' : 'other' }
  })
}

/**
 * `leave/repository.leaveInRange`'s hours over rows already loaded: each approved hourly request
 * dated in [start, end], with its minutes (its `amount`). Which of them count, and how many minutes
 * in all, is `attendance/statistics.countedLeaveMinutes`.
 */
export function leaveMinutesOf(requests: readonly ApprovedLeave[], start: string, end: string): LeaveMinutes[] {
  const found: LeaveMinutes[] = []
  for (const request of requests)
    if (isHourly(request) && request.startDate >= start && request.startDate <= end) found.push({ date: request.startDate, minutes: request.amount ?? 0 })
  return found
}

export const DAY_CODES = {
  normal: '✓',
  late: 'L',
  early: 'E',
  absent: 'A',
  exception: 'X',
  leave: 'V',
  halfLeave: '½V',
  holiday: 'H',
  none: '',
} as const
export type DayCode = (typeof DAY_CODES)[keyof typeof DAY_CODES]

const PROBLEM: Record<number, DayCode> = { 1: DAY_CODES.late, 2: DAY_CODES.early, 4: DAY_CODES.exception }

export interface DayFacts {
  record: MonthRecord | undefined
  /** a work day for the employee (the rule of its weekday, the company calendar and their attendance start, as statistics decide it) */
  workDay: boolean
  /** the company calendar marks it a holiday */
  holiday: boolean
  leave: LeaveDate | undefined
  /** from the attendance start (or the month's first day) to before today: a work day without a record here was missed */
  missable: boolean
  /** on or after the employee's attendance start (CONTRACT §23): before it, an absent record is no absence */
  counted: boolean
}

/**
 * The code of one date, where several could apply, in this order:
 * 1. a record late, early or an exception: L, E, X (its status, as `status_text` says; a day both
 *    late and early has status 2, E, and counts in both late_days and early_days);
 * 2. absent as statistics count it, A: an absent record, or a missed work day, unless a full day of
 *    approved leave excuses it (a half day does not: the other half was missed);
 * 3. approved leave on a work day: V for a full day, ½V for a half (also when the other half was
 *    worked normally: the leave is what the day is about);
 * 4. any other record, normal: ✓ (also on a holiday or a day off: a record shows its own code);
 * 5. a holiday without a record: H; anything else (a day off, a future work day, a day before
 *    the attendance start, with or without an absent record written before that start was set): empty.
 * So the A cells are exactly absent_days, and, where no record overrides rule 3, V + ½ × ½V is leave_days.
 */
export function dayCode({ record: kept, workDay, holiday, leave, missable, counted }: DayFacts): DayCode {
  if (kept && PROBLEM[kept.status]) return PROBLEM[kept.status]
  const record = kept && (counted || kept.status !== 3) ? kept : undefined
  const fullLeave = workDay && leave !== undefined && !leave.half
  const excused = fullLeave && (leave.record === 'absent' || (leave.record === 'none' && missable))
  const absent = record ? record.status === 3 : workDay && missable
  if (absent && !excused) return DAY_CODES.absent
  if (workDay && leave) return leave.half ? DAY_CODES.halfLeave : DAY_CODES.leave
  if (record) return DAY_CODES.normal
  return holiday ? DAY_CODES.holiday : DAY_CODES.none
}

/** Who the sheet judges, as the statistics endpoint would see them at the moment of the export. */
export interface EmployeeMonth {
  /** the month's dates, first to last */
  dates: readonly string[]
  /** the employee's work date now (`caller.todayWorkDate`) */
  today: string
  /** the first date the employee's attendance counts (`caller.CallerContext.attendanceFrom`) */
  attendanceFrom: string | null
  /** the last date it counts: the employee's `left_on` (`caller.CallerContext.attendanceUntil`) */
  attendanceUntil: string | null
  rules: readonly RuleRow[]
  calendar: CompanyCalendar
  records: readonly MonthRecord[]
  leave: readonly ApprovedLeave[]
}

/** An employee's codes for every date of the month and their statistics over it. */
export function judgeMonth(input: EmployeeMonth): { codes: DayCode[]; statistics: StatisticsResult } {
  const { dates, today, calendar } = input
  const start = dates[0]
  const end = dates[dates.length - 1]
  const since = countedFrom(start, input.attendanceFrom)
  // after the last day employed nothing counts (CONTRACT §18): no record, leave or missed day
  const last = countedUntil(end, input.attendanceUntil)
  const weekdays = weekdayRules(input.rules)
  const byDate = new Map(input.records.map((record) => [record.workDate, record]))
  const leave = leaveDatesOf(input.leave, byDate, start, last)
  const statistics = computeStatistics({
    start,
    end,
    today,
    since,
    until: last,
    weekdays,
    totals: dayTotalsOf(input.records, { start, end: last, since, today }, calendar),
    calendar,
    leave,
    hourlyLeave: leaveMinutesOf(input.leave, start, last),
  })
  const leaveByDate = new Map(leave.map((day) => [day.date, day]))
  const codes = dates.map((date) => {
    const kind = calendar.get(date)?.kind ?? null
    if (date > last) return dayCode({ record: undefined, workDay: false, holiday: kind === 'holiday', leave: undefined, missable: false, counted: false })
    const rule = weekdays[weekday(date)]
    return dayCode({
      record: byDate.get(date),
      workDay: rule.rule !== null && isWorkDayFor(rule.workDay, date, kind, since),
      holiday: kind === 'holiday',
      leave: leaveByDate.get(date),
      missable: date >= since && date < today,
      counted: date >= since,
    })
  })
  return { codes, statistics }
}
