import { MINUTES_PER_LEAVE_DAY } from '../../db/schema'
import { hoursOf, minutesOf as minutes } from '../attendance/policy'

/*
 * Hourly leave (CONTRACT §18, `unit: hour`): pure arithmetic. An hourly request's length is the
 * work time it covers, breaks excluded; a type's amounts (requests, ledger rows) are integers in its
 * unit: half-days for a day type, minutes for an hour type, so sums and guards stay exact.
 */

export type LeaveUnit = 'day' | 'hour'

/** The times of a rule an hourly request is measured against (HH:MM; an end earlier than the start: an overnight shift). */
export interface WorkTimes {
  workStart: string
  workEnd: string
  breakStart: string | null
  breakEnd: string | null
}

const DAY = 24 * 60

/** The overlap of [a, b) and [c, d), in minutes. */
const overlap = (a: number, b: number, c: number, d: number) => Math.max(0, Math.min(b, d) - Math.max(a, c))

/**
 * The minutes of [start, end) that are work time under the rule: inside its work hours and outside
 * its break. Times are read on the shift's own line: under an overnight rule a time before the
 * work start is the next morning's (02:00–04:00 of a 22:00–06:00 shift counts 120, while
 * 21:00–23:00 runs backwards on that line and counts nothing: ask for 22:00–23:00).
 */
export function workMinutesCovered(rule: WorkTimes, start: string, end: string): number {
  const workStart = minutes(rule.workStart)
  const overnight = minutes(rule.workEnd) < workStart
  const onShift = (hhmm: string) => minutes(hhmm) + (overnight && minutes(hhmm) < workStart ? DAY : 0)
  const [from, to, workEnd] = [onShift(start), onShift(end), onShift(rule.workEnd)]
  // the request inside the work hours, less the break inside that
  const [a, b] = [Math.max(from, workStart), Math.min(to, workEnd)]
  if (b <= a) return 0
  return b - a - (rule.breakStart === null || rule.breakEnd === null ? 0 : overlap(a, b, onShift(rule.breakStart), onShift(rule.breakEnd)))
}

/** Ledger units per half-day of a type's allowance: 1 for a day type, 240 minutes (half of 8 hours) for an hour type. */
export const unitsPerHalfDay = (unit: LeaveUnit): number => (unit === 'hour' ? MINUTES_PER_LEAVE_DAY / 2 : 1)

/** An amount in its unit as the API shows it: days (3 half-days → 1.5) or hours (150 minutes → 2.5, to the hundredth). */
export const figureOf = (unit: LeaveUnit, amount: number): number => (unit === 'hour' ? hoursOf(amount) : amount / 2)
