import { isLeapYear } from '../../../lib/dates'
import { daysBetween, weekday } from '../../../lib/local-time'
import { weekdayRules } from '../../attendance/records'
import type { RuleRow } from '../../attendance/setup/repository'
import { computeStatistics, countedLeaveMinutes, countsAsLeave, type DayRule, type LeaveCounting, type LeaveDate } from '../../attendance/statistics'
import { countedFrom, countedUntil, isWorkDayFor } from '../../calendar/work-days'
import { DAY_CODES, dayCode, dayTotalsOf, isHourly, leaveDatesOf, leaveMinutesOf, type MonthRecord } from '../../exports/attendance-sheet'
import { datesOf } from '../../leave/repository'
import type { MonthFacts, PayCalendar, PayLeave, PayRecord, PayslipInput, Source } from './types'

/*
 * The attendance figures of a payslip (CONTRACT §16): the same numbers GET /attendance/statistics
 * and the monthly sheet give, because they come from the same functions (`computeStatistics` fed
 * through `dayTotalsOf` and `leaveDatesOf`, as `judgeMonth` feeds it; the absent dates by the
 * sheet's own `dayCode`), over the employed part of the month.
 */

/** The ids behind each figure. */
export interface FactSources {
  /** the absent records (the sheet's A dates that have one) */
  absence: Source[]
  /** the unpaid requests of days that cover a counted work day */
  unpaidLeave: Source[]
  /** the unpaid hourly requests on counted work days of the employed part */
  unpaidLeaveHours: Source[]
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
  // counted, not stepped back from the next month's first day: 9999-12 has no next month
  const days = index === 2 ? (isLeapYear(year) ? 29 : 28) : [4, 6, 9, 11].includes(index) ? 30 : 31
  return { first: `${month}-01`, last: `${month}-${days}` }
}

/** A record's sources added to `sources`: the record, then the approved corrections behind it. */
function addRecordSources(sources: Source[], record: PayRecord): Source[] {
  sources.push({ kind: 'attendance_record', id: record.id })
  for (const id of record.correctionIds) sources.push({ kind: 'correction', id })
  return sources
}

/** As statistics count late_days (attendance-sheet `dayTotalsOf`). */
const isLate = (record: MonthRecord) => record.status === 1 || record.lateMinutes > 0

export function monthFacts(input: PayslipInput): MonthDetail {
  const { first, last, calendarDays: calendarDaysOfMonth } = monthOf(input.month)
  // the employed part of the month
  const from = countedFrom(first, input.employee.hireDate)
  const to = countedUntil(last, input.employee.leftOn)
  const workDaysOfMonth = workDays(input, first, last)
  if (from > to)
    return {
      from,
      to,
      workDaysOfMonth,
      employedWorkDays: 0,
      calendarDaysOfMonth,
      employedCalendarDays: 0,
      absentDays: 0,
      unpaidLeaveDays: 0,
      unpaidLeaveMinutes: 0,
      lateOccurrences: 0,
      freeLateOccurrences: 0,
      overtimeMinutes: { workDay: 0, restDay: 0, statutoryHoliday: 0 },
      countedLateMinutes: 0,
      sources: { absence: [], unpaidLeave: [], unpaidLeaveHours: [], lateness: [], overtime: { workDay: [], restDay: [], statutoryHoliday: [] } },
    }

  // what `judgeMonth` does over [from, to], without the codes of the dates it would not read
  const range = rangeOf(from, to)
  const { dates } = range
  const { today, calendar } = input
  const since = countedFrom(from, input.attendanceFrom)
  const weekdays = weekdaysOf(input.rules)
  const inside = (record: PayRecord) => record.workDate >= from && record.workDate <= to
  // a month employed whole holds all its records: no copy of them
  const inRange = input.records.every(inside) ? input.records : input.records.filter(inside)
  // the records by date, made when leave or an absence needs them (most of a run's payslips have neither)
  let recordsByDate: Map<string, PayRecord> | undefined
  const byDate = () => (recordsByDate ??= new Map(inRange.map((record) => [record.workDate, record])))
  const totals = dayTotalsOf(input.records, { start: from, end: to, since, today }, calendar)
  const judge = (leave: readonly LeaveDate[]) => computeStatistics({ start: from, end: to, today, since, weekdays, totals, calendar, leave })
  // hourly leave is not a leave day (leaveDatesOf skips it, as statistics do): its minutes are a line of their own
  const dayLeave = input.leave.filter((request) => !isHourly(request))
  const leave = dayLeave.length === 0 ? [] : leaveDatesOf(dayLeave, byDate(), from, to)
  const statistics = judge(leave)
  // each unpaid request's days (a source when it covers a counted work day), and all of them together
  const unpaid = dayLeave.filter((request) => !request.paid)
  const unpaidDays = (requests: readonly PayLeave[]) => judge(leaveDatesOf(requests, byDate(), from, to)).leave_days
  const unpaidEach = unpaid.map((request) => unpaidDays([request]))
  // none: statistics give 0 for no leave; one: the same count as its own
  const unpaidLeaveDays = unpaid.length === 0 ? 0 : unpaid.length === 1 ? unpaidEach[0] : unpaidDays(unpaid)

  // the sheet's A dates that have a record: only those dates' codes are needed (none without an absence)
  const absence: Source[] = []
  if (statistics.absent_days > 0) {
    const records = byDate()
    const leaveByDate = new Map(leave.map((day) => [day.date, day]))
    for (let at = 0; at < dates.length; at++) {
      const date = dates[at]
      const record = records.get(date)
      if (!record) continue
      const kind = calendar.get(date)?.kind ?? null
      const rule = weekdays[range.weekdays[at]]
      const code = dayCode({
        record,
        workDay: rule.rule !== null && isWorkDayFor(rule.workDay, date, kind, since),
        holiday: kind === 'holiday',
        leave: leaveByDate.get(date),
        missable: date >= since && date < today,
        counted: date >= since,
      })
      if (code === DAY_CODES.absent) addRecordSources(absence, record)
    }
  }

  // an hourly request is on one date, its amount the work time it covers (breaks excluded); it counts on a work day of
  // the employed part from the attendance start: statistics' own functions for leave_hours decide which and how many
  const counting: LeaveCounting = { end: to, since, weekdays, calendar }
  const unpaidHours = input.leave.filter(
    (request) => !request.paid && isHourly(request) && request.startDate >= from && request.startDate <= to && countsAsLeave(request.startDate, counting),
  )

  // the earliest late records are the free ones
  const late = inRange.filter(isLate).sort((a, b) => (a.workDate < b.workDate ? -1 : a.workDate > b.workDate ? 1 : a.id - b.id))
  const free = Math.min(late.length, input.settings.lateFreeOccurrences ?? statistics.late_days_allowed)
  const counted = late.slice(free)
  const overtime = overtimeOf(input, inRange, since, range)

  return {
    from,
    to,
    workDaysOfMonth,
    // the whole month: the count above
    employedWorkDays: from === first && to === last ? workDaysOfMonth : workDays(input, from, to),
    calendarDaysOfMonth,
    employedCalendarDays: dates.length,
    absentDays: statistics.absent_days,
    unpaidLeaveDays,
    unpaidLeaveMinutes: countedLeaveMinutes(leaveMinutesOf(unpaidHours, from, to), counting),
    lateOccurrences: statistics.late_days,
    freeLateOccurrences: free,
    overtimeMinutes: overtime.minutes,
    countedLateMinutes: counted.reduce((sum, record) => sum + record.lateMinutes, 0),
    sources: {
      absence,
      unpaidLeave: unpaid.filter((_, at) => unpaidEach[at] > 0).map((request) => ({ kind: 'leave_request', id: request.id })),
      unpaidLeaveHours: unpaidHours.map((request) => ({ kind: 'leave_request', id: request.id })),
      lateness: counted.reduce<Source[]>(addRecordSources, []),
      overtime: overtime.sources,
    },
  }
}

/*
 * What every employee of a run asks the same: a month's bounds, a range's dates and weekdays, a
 * group's weekday rules and the work days of a range under its rules and calendar. They are
 * kept, so that a run of thousands works each out once. The work-day counts are keyed by the
 * rules array and the calendar map themselves (the run passes the same objects to every member
 * of a group and company; both are read-only, so a new rule or calendar is a new object).
 */

const MAX_KEPT = 1000

function kept<V>(cache: Map<string, V>, key: string, make: () => V): V {
  let value = cache.get(key)
  if (value === undefined) {
    if (cache.size >= MAX_KEPT) cache.clear()
    cache.set(key, (value = make()))
  }
  return value
}

const months = new Map<string, { first: string; last: string; calendarDays: number }>()
const monthOf = (month: string) =>
  kept(months, month, () => {
    const { first, last } = monthBounds(month)
    return { first, last, calendarDays: daysBetween(first, last) + 1 }
  })

interface Range {
  dates: readonly string[]
  /** the ISO weekday of each date */
  weekdays: readonly number[]
  weekdayOf: ReadonlyMap<string, number>
}
const ranges = new Map<string, Range>()
/** The dates of [from, to] (from ≤ to) and their ISO weekdays. */
const rangeOf = (from: string, to: string) =>
  kept(ranges, `${from} ${to}`, (): Range => {
    const dates = datesOf(from, to)
    const first = weekday(from)
    const weekdays = dates.map((_, at) => ((first - 1 + at) % 7) + 1)
    return { dates, weekdays, weekdayOf: new Map(dates.map((date, at) => [date, weekdays[at]])) }
  })

const weekdayTables = new WeakMap<readonly RuleRow[], DayRule[]>()
function weekdaysOf(rules: readonly RuleRow[]): DayRule[] {
  let weekdays = weekdayTables.get(rules)
  if (!weekdays) weekdayTables.set(rules, (weekdays = weekdayRules(rules)))
  return weekdays
}

const workDayCounts = new WeakMap<readonly RuleRow[], WeakMap<PayCalendar, Map<string, number>>>()

/**
 * Statistics' work_days over [start, end] counted from `start` (neither the hire date nor the
 * go-live date): no records, no leave. They depend on the rules, the calendar and the range only
 * (not on today, which decides absences), so each is computed once.
 */
function workDays({ rules, calendar }: PayslipInput, start: string, end: string): number {
  if (start > end) return 0
  let byCalendar = workDayCounts.get(rules)
  if (!byCalendar) workDayCounts.set(rules, (byCalendar = new WeakMap()))
  let counts = byCalendar.get(calendar)
  if (!counts) byCalendar.set(calendar, (counts = new Map()))
  return kept(counts, `${start} ${end}`, () =>
    computeStatistics({ start, end, today: start, since: start, weekdays: weekdaysOf(rules), totals: [], calendar, leave: [] }).work_days,
  )
}

/**
 * Overtime minutes by the kind of their record's day: a holiday the calendar marks statutory; else
 * a work day for the employee (the rule of the weekday, the calendar, their attendance start);
 * else a rest day (weekends and holidays that are not statutory).
 */
function overtimeOf(input: PayslipInput, records: readonly PayRecord[], since: string, range: Range) {
  const weekdays = weekdaysOf(input.rules)
  const minutes = { workDay: 0, restDay: 0, statutoryHoliday: 0 }
  const sources: FactSources['overtime'] = { workDay: [], restDay: [], statutoryHoliday: [] }
  for (const record of records) {
    if (record.overtimeMinutes <= 0) continue
    const mark = input.calendar.get(record.workDate)
    // a record of [from, to]: its weekday is in the range's table
    const rule = weekdays[range.weekdayOf.get(record.workDate)!]
    const kind =
      mark?.kind === 'holiday' && mark.statutory
        ? 'statutoryHoliday'
        : rule.rule !== null && isWorkDayFor(rule.workDay, record.workDate, mark?.kind ?? null, since)
          ? 'workDay'
          : 'restDay'
    minutes[kind] += record.overtimeMinutes
    addRecordSources(sources[kind], record)
    if (kind === 'statutoryHoliday' && mark) sources[kind].push({ kind: 'calendar_day', id: mark.id })
  }
  return { minutes, sources }
}
