import { addDays, instantAt, localDate, localMinuteOfDay, parseHHMM, weekday } from '../../lib/local-time'
import { isWorkDate, type DayKind } from '../calendar/work-days'

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
  /** overtime on a work day counts only from this many minutes on */
  overtimeThreshold: number
}

/**
 * A work date's shift under a rule: its instants and the rule's terms. A record keeps
 * the one it was opened under and is judged by it to the end, whatever later happens
 * to the rule, the group or its zone.
 */
export interface Shift {
  start: Date
  /** the next day for an overnight rule */
  end: Date
  /**
   * When the work date is over: until then a clock-in is dated on it (see `shiftAt`). Its
   * local midnight, or for an overnight rule the shift's end the next morning.
   */
  workDateEnd: Date
  /** both null when the rule has no break */
  breakStart: Date | null
  breakEnd: Date | null
  lateGrace: number
  earlyGrace: number
  requiredWorkHours: number
  flexible: boolean
  /** false on a day off: no lateness, no early leave, no required hours */
  workDay: boolean
  /** the rule's work end on the date, also when half the day is on leave: overtime counts from it */
  overtimeFrom: Date
  overtimeThreshold: number
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
  overtimeMinutes: number
}

const MINUTE_MS = 60_000

/** Minutes since midnight of an HH:MM time; anything else is a programming error. */
export function minutesOf(hhmm: string): number {
  const minutes = parseHHMM(hhmm)
  if (minutes === null) throw new RangeError(`not an HH:MM time: ${hhmm}`)
  return minutes
}

/** Whole minutes of real time since the epoch; comparing these drops the seconds. */
function minuteOf(instant: Date): number {
  return Math.floor(instant.getTime() / MINUTE_MS)
}

export function isOvernight(rule: PolicyRule): boolean {
  return minutesOf(rule.workEnd) < minutesOf(rule.workStart)
}

/**
 * A work day under the rule, the company calendar's mark on the date (`kind`; null: unmarked)
 * and the first date the employee's attendance counts (`from`; null: no bound), by the calendar's one rule.
 */
export function isWorkDay(rule: PolicyRule, workDate: string, kind: DayKind | null = null, from: string | null = null): boolean {
  return isWorkDate(rule.workDays, workDate, kind, from)
}

/** Among enabled rules (lowest id first): the first whose work days hold the ISO weekday, else the first. */
export function ruleOfWeekday<R>(rules: readonly R[], policy: (rule: R) => PolicyRule, day: number): R | null {
  return rules.find((rule) => policy(rule).workDays.includes(day)) ?? rules[0] ?? null
}

/** The rule that applies on a date: the same choice for clock-in, day close and statistics. */
export function ruleOn<R>(rules: readonly R[], policy: (rule: R) => PolicyRule, date: string): R | null {
  return ruleOfWeekday(rules, policy, weekday(date))
}

/**
 * The work date and rule of a clock-in at `at`, the one place they are decided: the
 * previous date's, while the rule of that date is an overnight one whose end (local
 * time) has not come; else the local date's.
 */
export function shiftAt<R>(
  rules: readonly R[],
  policy: (rule: R) => PolicyRule,
  zone: string,
  at: Date,
): { rule: R; workDate: string } | null {
  const today = localDate(at, zone)
  const yesterday = addDays(today, -1)
  const previous = ruleOn(rules, policy, yesterday)
  if (previous !== null) {
    const terms = policy(previous)
    if (isOvernight(terms) && localMinuteOfDay(at, zone) < minutesOf(terms.workEnd)) return { rule: previous, workDate: yesterday }
  }
  const rule = ruleOn(rules, policy, today)
  return rule === null ? null : { rule, workDate: today }
}

const itself = (rule: PolicyRule) => rule

/** work_date of a clock-in under one rule: the local date in `zone`, or the previous one while its overnight shift runs. */
export function workDateOf(rule: PolicyRule, zone: string, at: Date): string {
  return shiftAt([rule], itself, zone, at)!.workDate
}

/** shift start and end instants of a work date (end on the next day for overnight rules) */
export function shiftOf(rule: PolicyRule, zone: string, workDate: string): { start: Date; end: Date } {
  const endDate = isOvernight(rule) ? addDays(workDate, 1) : workDate
  return { start: instantAt(workDate, rule.workStart, zone), end: instantAt(endDate, rule.workEnd, zone) }
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

/**
 * The shift of a work date under a rule, as a record opened on it keeps it; `kind` is how
 * the company calendar marks the date (a holiday is a day off, a make-up workday a work day),
 * `from` the first date the employee's attendance counts (a date before it is a day off).
 */
export function shiftFor(rule: PolicyRule, zone: string, workDate: string, kind: DayKind | null = null, from: string | null = null): Shift {
  const { start, end } = shiftOf(rule, zone, workDate)
  const pause = breakOf(rule, zone, workDate)
  return {
    start,
    end,
    workDateEnd: isOvernight(rule) ? end : instantAt(addDays(workDate, 1), '00:00', zone),
    breakStart: pause?.start ?? null,
    breakEnd: pause?.end ?? null,
    lateGrace: rule.lateGrace,
    earlyGrace: rule.earlyGrace,
    requiredWorkHours: rule.requiredWorkHours,
    flexible: rule.flexible,
    workDay: isWorkDay(rule, workDate, kind, from),
    overtimeFrom: end,
    overtimeThreshold: rule.overtimeThreshold,
  }
}

/**
 * When day close closes a record still open: the local midnight after its shift ends
 * (a day later for an overnight shift). A work date is closed at the same instant for
 * its rule's shift, after which no clock-in can be dated on it.
 */
export function closesAt(shiftEnd: Date, zone: string): Date {
  return instantAt(addDays(localDate(shiftEnd, zone), 1), '00:00', zone)
}

export function judgeClockIn(shift: Shift, at: Date): { status: 0 | 1; lateMinutes: number } {
  if (!shift.workDay || shift.flexible) return { status: 0, lateMinutes: 0 }
  const start = minuteOf(shift.start)
  const clockIn = minuteOf(at)
  if (clockIn > start + shift.lateGrace) return { status: 1, lateMinutes: clockIn - start }
  return { status: 0, lateMinutes: 0 }
}

export function judgeClockOut(shift: Shift, clockIn: Date, clockOut: Date, lateMinutes: number): ClockOut {
  const workMinutes = minutesWorked(shift, clockIn, clockOut)
  const workHours = hoursOf(workMinutes)
  const worked = { workMinutes, workHours, overtimeMinutes: overtimeOf(shift, clockOut, workMinutes) }
  if (!shift.workDay) return { status: 0, earlyMinutes: 0, ...worked }

  // compared as the record shows it: 8.33 h is short of 8.34 h
  const short = workHours < shift.requiredWorkHours
  if (shift.flexible) {
    if (short) return { status: 2, earlyMinutes: requiredMinutes(shift.requiredWorkHours) - workMinutes, ...worked }
    return { status: 0, earlyMinutes: 0, ...worked }
  }

  const end = minuteOf(shift.end)
  const out = minuteOf(clockOut)
  if (out < end - shift.earlyGrace) return { status: 2, earlyMinutes: end - out, ...worked }
  if (lateMinutes > 0) return { status: 1, earlyMinutes: 0, ...worked }
  if (short) return { status: 4, earlyMinutes: 0, ...worked }
  return { status: 0, earlyMinutes: 0, ...worked }
}

/**
 * Overtime (CONTRACT §11): on a work day the minutes from the rule's work end to the clock-out
 * (for a flexible rule, the work time beyond the required hours), counted only when they reach
 * the threshold, counted on no more than the time worked; on any other day all the time worked.
 */
export function overtimeOf(shift: Shift, clockOut: Date, workMinutes: number): number {
  if (!shift.workDay) return workMinutes
  const beyond = shift.flexible ? workMinutes - requiredMinutes(shift.requiredWorkHours) : minuteOf(clockOut) - minuteOf(shift.overtimeFrom)
  // the threshold applies to what was worked: in at 18:50 and out at 19:05 is 15 minutes, not 65
  const counted = Math.min(beyond, workMinutes)
  return counted > 0 && counted >= shift.overtimeThreshold ? counted : 0
}

/** The fewest whole minutes whose hours (as shown, 2 decimals) reach `hours`. */
export function requiredMinutes(hours: number): number {
  let minutes = Math.max(0, Math.floor(hours * 60) - 1)
  while (hoursOf(minutes) < hours) minutes++
  return minutes
}

export function evaluateClockIn(rule: PolicyRule, zone: string, at: Date): ClockIn {
  const workDate = workDateOf(rule, zone, at)
  const shift = shiftFor(rule, zone, workDate)
  return { workDate, ...judgeClockIn(shift, at), isWorkDay: shift.workDay }
}

export function evaluateClockOut(
  rule: PolicyRule,
  zone: string,
  workDate: string,
  clockIn: Date,
  clockOut: Date,
  lateMinutes: number,
): ClockOut {
  return judgeClockOut(shiftFor(rule, zone, workDate), clockIn, clockOut, lateMinutes)
}

/** What a record's figures are, judged from its clock times (a correction's recomputation, CONTRACT §11). */
export interface Judgement {
  status: 0 | 1 | 2 | 3 | 4
  lateMinutes: number
  earlyMinutes: number
  workMinutes: number
  overtimeMinutes: number
}

/**
 * A record judged as a whole from its clock times, by the same rules as a clock-in and a
 * clock-out: no clock-in is an absence; a clock-in alone is open, or an exception (as day
 * close leaves it) once `closed`; with both, the clock-out's verdict.
 */
export function judgeRecord(shift: Shift, clockIn: Date | null, clockOut: Date | null, closed: boolean): Judgement {
  const none = { lateMinutes: 0, earlyMinutes: 0, workMinutes: 0, overtimeMinutes: 0 }
  if (clockIn === null) return { status: 3, ...none }
  const arrival = judgeClockIn(shift, clockIn)
  if (clockOut === null) return { ...none, status: closed ? 4 : arrival.status, lateMinutes: arrival.lateMinutes }
  const { status, earlyMinutes, workMinutes, overtimeMinutes } = judgeClockOut(shift, clockIn, clockOut, arrival.lateMinutes)
  return { status, lateMinutes: arrival.lateMinutes, earlyMinutes, workMinutes, overtimeMinutes }
}

/** minutes worked between two instants, seconds dropped from both, minus the overlap with the shift's break */
export function minutesWorked(shift: Shift, clockIn: Date, clockOut: Date): number {
  const from = minuteOf(clockIn)
  const to = minuteOf(clockOut)
  const overlap =
    shift.breakStart && shift.breakEnd
      ? Math.max(0, Math.min(to, minuteOf(shift.breakEnd)) - Math.max(from, minuteOf(shift.breakStart)))
      : 0
  return Math.max(0, to - from - overlap)
}

/** minutes worked on a work date under a rule, its break excluded */
export function workedMinutes(rule: PolicyRule, zone: string, workDate: string, clockIn: Date, clockOut: Date): number {
  return minutesWorked(shiftFor(rule, zone, workDate), clockIn, clockOut)
}

/** minutes / 60 rounded to 2 decimals */
export function hoursOf(minutes: number): number {
  return hundredthsOf(minutes) / 100
}

/** hundredths of an hour in whole minutes, rounded (minutes × 5/3 is never a half, so no tie to break) */
export function hundredthsOf(minutes: number): number {
  return Math.round((minutes * 5) / 3)
}

/**
 * The shift of a work date with half of it on approved leave (CONTRACT §9): with the morning
 * off (`am`) it starts when the break ends, or at the middle of the work hours without a break;
 * with the afternoon off (`pm`) it ends when the break starts, or at that middle. Either way
 * half the required hours are required. A day off stays as it is.
 */
export function halfDayShift(shift: Shift, off: 'am' | 'pm'): Shift {
  if (!shift.workDay) return shift
  const middle = new Date(minuteOf(shift.start) * MINUTE_MS + Math.floor((minuteOf(shift.end) - minuteOf(shift.start)) / 2) * MINUTE_MS)
  const requiredWorkHours = shift.requiredWorkHours / 2
  if (off === 'am') return { ...shift, start: shift.breakEnd ?? middle, requiredWorkHours }
  return { ...shift, end: shift.breakStart ?? middle, requiredWorkHours }
}

/** Approved hourly leave on a work date (CONTRACT §18): its span, and the minutes of work time it covers, breaks excluded. */
export interface HoursOff {
  start: Date
  end: Date
  minutes: number
}

/** Hours rounded up to the hundredth: a record's hours (to the hundredth) fall short of them exactly when they fall short of the unrounded ones. */
const hundredthsUp = (hours: number) => Math.ceil(Math.round(hours * 1e8) / 1e6) / 100

/**
 * The shift of a work date with hours of it on approved leave (CONTRACT §18), as `halfDayShift` is
 * for half a day. Leave from the shift's start (one span, or spans that follow it without a gap; a
 * break is no gap) moves the start to where it ends, so lateness runs from then; leave up to the
 * shift's end moves the end to where it starts, so early leave runs to then; a start moved into the
 * break moves on to the break's end, an end moved into it back to the break's start. Leave in
 * between moves neither. The required hours drop by the work time the spans cover, never below 0.
 * With the whole shift on leave there is nothing to be late or early for: flexible, nothing
 * required. A day off stays as it is; overtime still counts from the rule's work end.
 */
export function hoursOffShift(shift: Shift, spans: readonly HoursOff[]): Shift {
  if (!shift.workDay || spans.length === 0) return shift
  const covered = spans.reduce((sum, span) => sum + span.minutes, 0)
  const requiredWorkHours = hundredthsUp(Math.max(0, shift.requiredWorkHours - covered / 60))
  const pause = shift.breakStart && shift.breakEnd ? { from: minuteOf(shift.breakStart), to: minuteOf(shift.breakEnd) } : null
  let start = minuteOf(shift.start)
  for (const span of [...spans].sort((a, b) => a.start.getTime() - b.start.getTime()))
    if (minuteOf(span.start) <= start && minuteOf(span.end) > start) {
      start = minuteOf(span.end)
      if (pause && start >= pause.from && start < pause.to) start = pause.to
    }
  let end = minuteOf(shift.end)
  for (const span of [...spans].sort((a, b) => b.end.getTime() - a.end.getTime()))
    if (minuteOf(span.end) >= end && minuteOf(span.start) < end) {
      end = minuteOf(span.start)
      if (pause && end > pause.from && end <= pause.to) end = pause.from
    }
  if (start >= end) return { ...shift, flexible: true, requiredWorkHours: 0 }
  return { ...shift, start: new Date(start * MINUTE_MS), end: new Date(end * MINUTE_MS), requiredWorkHours }
}
