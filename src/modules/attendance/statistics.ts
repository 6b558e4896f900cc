import { addDays, daysBetween, weekday } from '../../lib/local-time'
import { hoursOf } from './policy'
import { countedUntil, isWorkDayFor, NO_CALENDAR, workDayBy, type CompanyCalendar } from '../calendar/work-days'
import type { StatisticsResponse } from './model'
import type { DayTotals } from './repository'

/** Rounds to 2 decimals in decimal, not binary (1.005 → 1.01). */
export function round2(value: number): number {
  return Number(`${Math.round(Number(`${value}e2`))}e-2`)
}

/** Days of [start, end] (inclusive) whose ISO weekday `counts`. */
export function countDays(start: string, end: string, counts: (weekday: number) => boolean): number {
  if (end < start) return 0
  // whole weeks hold each weekday once; the rest are counted one by one
  const days = daysBetween(start, end) + 1
  const first = weekday(start)
  let total = 0
  for (let day = 1; day <= 7; day++) if (counts(day)) total += Math.floor(days / 7)
  // counted by offset: the day after 9999-12-31 is not a date to step to, nor to compare as text
  for (let offset = 0; offset < days % 7; offset++) if (counts(((first - 1 + offset) % 7) + 1)) total++
  return total
}

/** The rule that applies on an ISO weekday, as far as statistics need it. */
export interface DayRule {
  /** the rule's id; null when the group has no enabled rule */
  rule: number | null
  /** the weekday is one of that rule's work days */
  workDay: boolean
  allowedLateDays: number
}

export interface StatisticsInput {
  start: string
  end: string
  /** the caller's work date now: work days before it with no record count as absent */
  today: string
  /**
   * The first date of the range that counts (the later of start and the employee's attendance
   * start, CONTRACT §23): no date before it is a work day, an absence or leave.
   */
  since: string
  /**
   * The last date of the range that counts (the earlier of end and the employee's `left_on`,
   * CONTRACT §18): no date after it is a work day, an absence or leave, and `totals` hold no
   * record after it. Default: end.
   */
  until?: string
  /** the rule of each ISO weekday, indexed 1–7 */
  weekdays: readonly DayRule[]
  totals: DayTotals[]
  /** the company calendar's marked dates over at least [start, end] */
  calendar?: CompanyCalendar
  /** the dates of [start, end] the employee's approved leave of days covers (CONTRACT §9) */
  leave?: readonly LeaveDate[]
  /** the employee's approved hourly leave in [start, end] (CONTRACT §18) */
  hourlyLeave?: readonly LeaveMinutes[]
}

/** CONTRACT §8 extension: `holiday_days`, the dates of the range the company marks as holidays. */
export type StatisticsResult = StatisticsResponse & { holiday_days: number }

/** A date of approved leave: half or whole, and what record it has (none, an absent record, or another). */
export interface LeaveDate {
  date: string
  half: boolean
  record: 'none' | 'absent' | 'other'
}

/** An approved hourly leave request (CONTRACT §18): its date and the minutes of work time it covers, breaks excluded (its `amount`). */
export interface LeaveMinutes {
  date: string
  minutes: number
}

/** What decides which dates of leave count: the employee's rules, calendar and counted range, as `StatisticsInput` has them. */
export type LeaveCounting = Pick<StatisticsInput, 'end' | 'since' | 'until' | 'weekdays' | 'calendar'>

/**
 * Whether leave on a date counts (leave_days, leave_hours): a work day for the employee (the rule
 * of its weekday, the company calendar, their attendance start) from `since` to `until` (their last
 * day employed, else `end`). A request counts only its work days; so do statistics.
 */
export function countsAsLeave(date: string, { end, since, until, weekdays, calendar = NO_CALENDAR }: LeaveCounting): boolean {
  const day = weekdays[weekday(date)]
  return date <= countedUntil(end, until) && day.rule !== null && isWorkDayFor(day.workDay, date, calendar.get(date)?.kind ?? null, since)
}

/**
 * The minutes of approved hourly leave that count (see `countsAsLeave`), summed: `leave_hours` of
 * statistics and the sheet is this in hours to the hundredth; payroll reads the same minutes.
 */
export function countedLeaveMinutes(hourly: readonly LeaveMinutes[], counting: LeaveCounting): number {
  return hourly.reduce((sum, leave) => sum + (countsAsLeave(leave.date, counting) ? leave.minutes : 0), 0)
}

/**
 * The statistics object of CONTRACT §4 from per-month, per-weekday SQL totals. Each date
 * is judged by the rule that applies on it: whether it is a work day, and, per month and
 * rule, how many late days that rule allows.
 */
export function computeStatistics({
  start,
  end,
  today,
  since,
  until,
  weekdays,
  totals,
  calendar = NO_CALENDAR,
  leave = [],
  hourlyLeave = [],
}: StatisticsInput): StatisticsResult {
  const isWorkDay = (day: number) => weekdays[day].workDay
  // the calendar's marks count only where a rule applies: with no enabled rule no date is a work day
  const isWorkDate = (day: number, kind: DayTotals['kind']) => weekdays[day].rule !== null && workDayBy(isWorkDay(day), kind ?? null)
  /** Work days of [from, to]: by weekday, then corrected on the dates the calendar marks. */
  const workDaysOf = (from: string, to: string) => {
    let total = countDays(from, to, isWorkDay)
    for (const [date, { kind }] of calendar)
      if (date >= from && date <= to) total += Number(isWorkDate(weekday(date), kind)) - Number(isWorkDay(weekday(date)))
    return total
  }
  // work days, absences and leave count from `since` to `last`: the days outside are outside the employee's attendance
  const last = countedUntil(end, until)
  const workDayCount = workDaysOf(since, last)
  const yesterday = addDays(today, -1)
  const lastPast = yesterday < last ? yesterday : last
  const pastWorkDays = workDaysOf(since, lastPast)
  let holidayDays = 0
  for (const [date, { kind }] of calendar) if (kind === 'holiday' && date >= start && date <= end) holidayDays++
  // leave counts on work days only (a request's days are its work days); a full day of it is no absence
  const counting: LeaveCounting = { end, since, until, weekdays, calendar }
  const leaveOnWorkDays = leave.filter(({ date }) => countsAsLeave(date, counting))
  const leaveHalves = leaveOnWorkDays.reduce((acc, day) => acc + (day.half ? 1 : 2), 0)
  const excusedAbsences = leaveOnWorkDays.filter(
    (day) => !day.half && (day.record === 'absent' || (day.record === 'none' && day.date >= since && day.date <= lastPast)),
  ).length
  // the totals summed in one pass (a payroll run does this for thousands of employees)
  let attendanceDays = 0
  let lateDays = 0
  let earlyDays = 0
  let absentRecords = 0
  let exceptionDays = 0
  let workHundredths = 0
  let lateMinutes = 0
  let earlyMinutes = 0
  let overtimeMinutes = 0
  let pastWorkDayRecords = 0
  // the allowance is per month and per rule: the late days on the dates each rule applies on
  const lateByMonthAndRule = new Map<string, { late: number; allowed: number }>()
  for (const day of totals) {
    const late = Number(day.lateDays)
    attendanceDays += Number(day.attendanceDays)
    lateDays += late
    earlyDays += Number(day.earlyDays)
    absentRecords += Number(day.absentDays)
    exceptionDays += Number(day.exceptionDays)
    workHundredths += Number(day.workHundredths)
    lateMinutes += Number(day.lateMinutes)
    earlyMinutes += Number(day.earlyMinutes)
    overtimeMinutes += Number(day.overtimeMinutes)
    if (isWorkDate(day.weekday, day.kind)) pastWorkDayRecords += Number(day.pastRecords)
    const { rule, allowedLateDays } = weekdays[day.weekday]
    const key = `${day.month} ${rule}`
    const entry = lateByMonthAndRule.get(key)
    if (entry) entry.late += late
    else lateByMonthAndRule.set(key, { late, allowed: allowedLateDays })
  }
  const allowed = [...lateByMonthAndRule.values()].reduce((acc, { late, allowed }) => acc + Math.min(late, allowed), 0)
  return {
    total_days: daysBetween(start, end) + 1,
    work_days: workDayCount,
    attendance_days: attendanceDays,
    late_days: lateDays,
    early_days: earlyDays,
    absent_days: Math.max(0, absentRecords + Math.max(0, pastWorkDays - pastWorkDayRecords) - excusedAbsences),
    exception_days: exceptionDays,
    // the sum of the hours the records show, and the average of that
    total_work_hours: workHundredths / 100,
    avg_work_hours: attendanceDays === 0 ? 0 : Math.round(workHundredths / attendanceDays) / 100,
    total_late_minutes: lateMinutes,
    total_early_minutes: earlyMinutes,
    overtime_hours: hoursOf(overtimeMinutes),
    attendance_rate: workDayCount === 0 ? 0 : round2((attendanceDays / workDayCount) * 100),
    late_days_allowed: allowed,
    late_days_over_allowance: lateDays - allowed,
    holiday_days: holidayDays,
    leave_days: leaveHalves / 2,
    leave_hours: hoursOf(countedLeaveMinutes(hourlyLeave, counting)),
  }
}
