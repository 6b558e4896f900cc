import { addDays, daysBetween, weekday } from '../../lib/local-time'
import type { StatisticsResponse } from './model'
import { hoursOf } from './policy'
import type { MonthTotals } from './repository'

/** Rounds to 2 decimals in decimal, not binary (1.005 → 1.01). */
export function round2(value: number): number {
  return Number(`${Math.round(Number(`${value}e2`))}e-2`)
}

/** Days of [start, end] (inclusive) whose ISO weekday is one of `workDays`. */
export function countWorkDays(start: string, end: string, workDays: readonly number[]): number {
  if (end < start || workDays.length === 0) return 0
  let total = 0
  // counted by offset: the day after 9999-12-31 is not a date to step to, nor to compare as text
  for (let offset = 0, last = daysBetween(start, end); offset <= last; offset++)
    if (workDays.includes(weekday(addDays(start, offset)))) total++
  return total
}

export interface StatisticsInput {
  start: string
  end: string
  /** the caller's local today: work days before it with no record count as absent */
  today: string
  /** the first day that can be missed (the later of start and the hire date) */
  since: string
  workDays: readonly number[]
  allowedLateDays: number
  totals: MonthTotals[]
}

/** The statistics object of CONTRACT §4 from per-month SQL totals. */
export function computeStatistics({ start, end, today, since, workDays, allowedLateDays, totals }: StatisticsInput): StatisticsResponse {
  const sum = (pick: (month: MonthTotals) => number) => totals.reduce((acc, month) => acc + Number(pick(month)), 0)
  const workDayCount = countWorkDays(start, end, workDays)
  const lastPast = addDays(today, -1) < end ? addDays(today, -1) : end
  const pastWorkDays = countWorkDays(since, lastPast, workDays)
  const attendanceDays = sum((m) => m.attendanceDays)
  const workMinutes = sum((m) => m.workMinutes)
  const lateDays = sum((m) => m.lateDays)
  const allowed = sum((m) => Math.min(Number(m.lateDays), allowedLateDays))
  return {
    total_days: daysBetween(start, end) + 1,
    work_days: workDayCount,
    attendance_days: attendanceDays,
    late_days: lateDays,
    early_days: sum((m) => m.earlyDays),
    absent_days: sum((m) => m.absentDays) + Math.max(0, pastWorkDays - sum((m) => m.pastWorkDayRecords)),
    exception_days: sum((m) => m.exceptionDays),
    total_work_hours: hoursOf(workMinutes),
    avg_work_hours: attendanceDays === 0 ? 0 : round2(workMinutes / 60 / attendanceDays),
    total_late_minutes: sum((m) => m.lateMinutes),
    total_early_minutes: sum((m) => m.earlyMinutes),
    attendance_rate: workDayCount === 0 ? 0 : round2((attendanceDays / workDayCount) * 100),
    late_days_allowed: allowed,
    late_days_over_allowance: lateDays - allowed,
  }
}
