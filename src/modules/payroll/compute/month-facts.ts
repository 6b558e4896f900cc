import { addDays, daysBetween, weekday } from '../../../lib/local-time'
import { weekdayRules } from '../../attendance/records'
import { countedFrom, isWorkDayFor } from '../../calendar/work-days'
import { DAY_CODES, judgeMonth, type ApprovedLeave, type MonthRecord } from '../../exports/attendance-sheet'
import { datesOf } from '../../leave/repository'
import type { MonthFacts, PayRecord, PayslipInput, Source } from './types'

/*
 * The attendance figures of a payslip (CONTRACT §16): the same numbers GET /attendance/statistics
 * and the monthly sheet give, because they come from the same function (`judgeMonth`, which feeds
 * `computeStatistics` through `dayTotalsOf` and `leaveDatesOf`), over the employed part of the month.
 */

/** The ids behind each figure. */
export interface FactSources {
  /** the absent records (the sheet's A dates that have one) */
  absence: Source[]
  /** the unpaid requests that cover a counted work day */
  unpaidLeave: Source[]
  /** the counted (not free) late records */
  lateness: Source[]
  overtime: { workDay: Source[]; restDay: Source[]; statutoryHoliday: Source[] }
}

export type MonthDetail = MonthFacts & {
  /** late minutes of the counted late records */
  countedLateMinutes: number
  sources: FactSources
}

/** The first and last date of a 'YYYY-MM'. */
export function monthBounds(month: string): { first: string; last: string } {
  const year = Number(month.slice(0, 4))
  const index = Number(month.slice(5, 7))
  const next = index === 12 ? `${String(year + 1).padStart(4, '0')}-01-01` : `${month.slice(0, 4)}-${String(index + 1).padStart(2, '0')}-01`
  return { first: `${month}-01`, last: addDays(next, -1) }
}

const recordSources = (record: PayRecord): Source[] => [
  { kind: 'attendance_record', id: record.id },
  ...record.correctionIds.map((id) => ({ kind: 'correction' as const, id })),
]

/** As statistics count late_days (attendance-sheet `dayTotalsOf`). */
const isLate = (record: MonthRecord) => record.status === 1 || record.lateMinutes > 0

export function monthFacts(input: PayslipInput): MonthDetail {
  const { first, last } = monthBounds(input.month)
  const hire = input.employee.hireDate
  const left = input.employee.leftOn
  const from = hire !== null && hire > first ? hire : first
  const to = left !== null && left < last ? left : last
  const calendarDaysOfMonth = daysBetween(first, last) + 1
  const workDaysOfMonth = workDays(input, first, last)
  const none: MonthDetail = {
    from,
    to,
    workDaysOfMonth,
    employedWorkDays: 0,
    calendarDaysOfMonth,
    employedCalendarDays: 0,
    absentDays: 0,
    unpaidLeaveDays: 0,
    lateOccurrences: 0,
    freeLateOccurrences: 0,
    overtimeMinutes: { workDay: 0, restDay: 0, statutoryHoliday: 0 },
    countedLateMinutes: 0,
    sources: { absence: [], unpaidLeave: [], lateness: [], overtime: { workDay: [], restDay: [], statutoryHoliday: [] } },
  }
  if (from > to) return none

  const dates = datesOf(from, to)
  const judge = (leave: readonly ApprovedLeave[]) =>
    judgeMonth({ dates, today: input.today, attendanceFrom: input.attendanceFrom, rules: input.rules, calendar: input.calendar, records: input.records, leave })
  const { codes, statistics } = judge(input.leave)
  const unpaid = input.leave.filter((request) => !request.paid)

  const inRange = input.records.filter((record) => record.workDate >= from && record.workDate <= to)
  const byDate = new Map(inRange.map((record) => [record.workDate, record]))
  const absence = dates.flatMap((date, at) => {
    const record = byDate.get(date)
    return codes[at] === DAY_CODES.absent && record ? recordSources(record) : []
  })

  // the earliest late records are the free ones
  const late = inRange.filter(isLate).sort((a, b) => (a.workDate < b.workDate ? -1 : a.workDate > b.workDate ? 1 : a.id - b.id))
  const free = Math.min(late.length, input.settings.lateFreeOccurrences ?? statistics.late_days_allowed)
  const counted = late.slice(free)
  const overtime = overtimeOf(input, inRange, countedFrom(from, input.attendanceFrom))

  return {
    ...none,
    employedWorkDays: workDays(input, from, to),
    employedCalendarDays: dates.length,
    absentDays: statistics.absent_days,
    unpaidLeaveDays: judge(unpaid).statistics.leave_days,
    lateOccurrences: statistics.late_days,
    freeLateOccurrences: free,
    overtimeMinutes: overtime.minutes,
    countedLateMinutes: counted.reduce((sum, record) => sum + record.lateMinutes, 0),
    sources: {
      absence,
      unpaidLeave: unpaid.filter((request) => judge([request]).statistics.leave_days > 0).map((request) => ({ kind: 'leave_request', id: request.id })),
      lateness: counted.flatMap(recordSources),
      overtime: overtime.sources,
    },
  }
}

/** Statistics' work_days over [start, end] counted from `start` (neither the hire date nor the go-live date). */
function workDays(input: PayslipInput, start: string, end: string): number {
  if (start > end) return 0
  return judgeMonth({ dates: datesOf(start, end), today: input.today, attendanceFrom: null, rules: input.rules, calendar: input.calendar, records: [], leave: [] })
    .statistics.work_days
}

/**
 * Overtime minutes by the kind of their record's day: a holiday the calendar marks statutory; else
 * a work day for the employee (the rule of the weekday, the calendar, their attendance start);
 * else a rest day (weekends and holidays that are not statutory).
 */
function overtimeOf(input: PayslipInput, records: readonly PayRecord[], since: string) {
  const weekdays = weekdayRules(input.rules)
  const minutes = { workDay: 0, restDay: 0, statutoryHoliday: 0 }
  const sources: FactSources['overtime'] = { workDay: [], restDay: [], statutoryHoliday: [] }
  for (const record of records) {
    if (record.overtimeMinutes <= 0) continue
    const mark = input.calendar.get(record.workDate)
    const rule = weekdays[weekday(record.workDate)]
    const kind =
      mark?.kind === 'holiday' && mark.statutory
        ? 'statutoryHoliday'
        : rule.rule !== null && isWorkDayFor(rule.workDay, record.workDate, mark?.kind ?? null, since)
          ? 'workDay'
          : 'restDay'
    minutes[kind] += record.overtimeMinutes
    sources[kind].push(...recordSources(record), ...(kind === 'statutoryHoliday' && mark ? [{ kind: 'calendar_day' as const, id: mark.id }] : []))
  }
  return { minutes, sources }
}
