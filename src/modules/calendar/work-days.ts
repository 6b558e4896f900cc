import { weekday } from '../../lib/local-time'

/** How a company marks a date in its calendar: a day off, or a working day on a weekly day off. */
export type DayKind = 'holiday' | 'workday'

/**
 * The one rule of "is this a work day" (CONTRACT §8), given whether the date's weekday is
 * one of the applicable rule's work days and how the company of the employee's group
 * marks the date: `workday` makes it one, `holiday` makes it none, else the weekday says.
 */
export function workDayBy(weeklyWorkDay: boolean, kind: DayKind | null): boolean {
  if (kind === 'workday') return true
  if (kind === 'holiday') return false
  return weeklyWorkDay
}

/**
 * The same for a date and a rule's ISO work days (1 = Monday … 7 = Sunday). Clock-in
 * lateness, day close, statistics, the month calendar and leave day counting all ask this.
 */
export function isWorkDate(workDays: readonly number[], date: string, kind: DayKind | null): boolean {
  return workDayBy(workDays.includes(weekday(date)), kind)
}

/** A company's calendar over a range: each date it marks, with its kind and name. */
export type CompanyCalendar = ReadonlyMap<string, { kind: DayKind; name: string }>

export const NO_CALENDAR: CompanyCalendar = new Map()
