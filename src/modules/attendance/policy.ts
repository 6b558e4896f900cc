import { addDays, instantAt, localDate, localMinuteOfDay, parseHHMM, weekday } from '../../lib/local-time'

export interface PolicyRule {
  workStart: string
  /** earlier than workStart: an overnight shift ending the next day */
  workEnd: string
  breakStart: string | null
  breakEnd: string | null
  lateGrace: number
  earlyGrace: number
  /** may be fractional, e.g. 7.5 */
  requiredWorkHours: number
  /** ISO weekdays, 1 = Monday … 7 = Sunday */
  workDays: number[]
  flexible: boolean
}

/** status 0 on time, 1 late */
export interface ClockIn {
  workDate: string
  status: 0 | 1
  lateMinutes: number
  isWorkDay: boolean
}

/** status 0 normal, 1 late, 2 early, 4 short of the required hours */
export interface ClockOut {
  status: 0 | 1 | 2 | 4
  earlyMinutes: number
  workMinutes: number
  workHours: number
}

const MINUTE_MS = 60_000

function minutesOf(hhmm: string): number {
  const minutes = parseHHMM(hhmm)
  if (minutes === null) throw new RangeError(`not an HH:MM time: ${hhmm}`)
  return minutes
}

/** Whole minutes of real time since the epoch; comparing these drops the seconds. */
function minuteOf(instant: Date): number {
  return Math.floor(instant.getTime() / MINUTE_MS)
}

function requiredMinutes(rule: PolicyRule): number {
  return Math.round(rule.requiredWorkHours * 60)
}

export function isOvernight(rule: PolicyRule): boolean {
  return minutesOf(rule.workEnd) < minutesOf(rule.workStart)
}

/** work_date of a clock-in: the local date in `zone`; for an overnight rule, a clock-in whose local time is before workEnd belongs to the previous day's shift. */
export function workDateOf(rule: PolicyRule, zone: string, at: Date): string {
  const date = localDate(at, zone)
  if (isOvernight(rule) && localMinuteOfDay(at, zone) < minutesOf(rule.workEnd)) return addDays(date, -1)
  return date
}

export function isWorkDay(rule: PolicyRule, workDate: string): boolean {
  return rule.workDays.includes(weekday(workDate))
}

/** shift start and end instants of a work date (end on the next day for overnight rules) */
export function shiftOf(rule: PolicyRule, zone: string, workDate: string): { start: Date; end: Date } {
  const endDate = isOvernight(rule) ? addDays(workDate, 1) : workDate
  return { start: instantAt(workDate, rule.workStart, zone), end: instantAt(endDate, rule.workEnd, zone) }
}

export function evaluateClockIn(rule: PolicyRule, zone: string, at: Date): ClockIn {
  const workDate = workDateOf(rule, zone, at)
  if (!isWorkDay(rule, workDate)) return { workDate, status: 0, lateMinutes: 0, isWorkDay: false }
  if (rule.flexible) return { workDate, status: 0, lateMinutes: 0, isWorkDay: true }

  const start = minuteOf(shiftOf(rule, zone, workDate).start)
  const clockIn = minuteOf(at)
  if (clockIn > start + rule.lateGrace) return { workDate, status: 1, lateMinutes: clockIn - start, isWorkDay: true }
  return { workDate, status: 0, lateMinutes: 0, isWorkDay: true }
}

export function evaluateClockOut(
  rule: PolicyRule,
  zone: string,
  workDate: string,
  clockIn: Date,
  clockOut: Date,
  lateMinutes: number,
): ClockOut {
  const workMinutes = workedMinutes(rule, zone, workDate, clockIn, clockOut)
  const worked = { workMinutes, workHours: hoursOf(workMinutes) }
  if (!isWorkDay(rule, workDate)) return { status: 0, earlyMinutes: 0, ...worked }

  const required = requiredMinutes(rule)
  if (rule.flexible) {
    if (workMinutes < required) return { status: 2, earlyMinutes: required - workMinutes, ...worked }
    return { status: 0, earlyMinutes: 0, ...worked }
  }

  const end = minuteOf(shiftOf(rule, zone, workDate).end)
  const out = minuteOf(clockOut)
  if (out < end - rule.earlyGrace) return { status: 2, earlyMinutes: end - out, ...worked }
  if (lateMinutes > 0) return { status: 1, earlyMinutes: 0, ...worked }
  if (workMinutes < required) return { status: 4, earlyMinutes: 0, ...worked }
  return { status: 0, earlyMinutes: 0, ...worked }
}

/** The break window of a work date, or null when the rule has none. */
function breakOf(rule: PolicyRule, zone: string, workDate: string): { start: Date; end: Date } | null {
  if (rule.breakStart === null || rule.breakEnd === null) return null
  const breakStart = minutesOf(rule.breakStart)
  // on an overnight shift, break times before workStart fall after midnight
  const startDate = isOvernight(rule) && breakStart < minutesOf(rule.workStart) ? addDays(workDate, 1) : workDate
  const endDate = minutesOf(rule.breakEnd) < breakStart ? addDays(startDate, 1) : startDate
  return { start: instantAt(startDate, rule.breakStart, zone), end: instantAt(endDate, rule.breakEnd, zone) }
}

/** minutes worked between two instants, seconds dropped from both, minus the overlap with the break window of that work date */
export function workedMinutes(rule: PolicyRule, zone: string, workDate: string, clockIn: Date, clockOut: Date): number {
  const from = minuteOf(clockIn)
  const to = minuteOf(clockOut)
  const breakWindow = breakOf(rule, zone, workDate)
  const overlap = breakWindow ? Math.max(0, Math.min(to, minuteOf(breakWindow.end)) - Math.max(from, minuteOf(breakWindow.start))) : 0
  return Math.max(0, to - from - overlap)
}

/** minutes / 60 rounded to 2 decimals */
export function hoursOf(minutes: number): number {
  // rounds a count of hundredths (minutes × 5/3, never a half for whole minutes) rather than a binary fraction of an hour
  return Math.round((minutes * 5) / 3) / 100
}
