import { weekday } from '../../lib/local-time'

/** How a company marks a date in its calendar: a day off, or a working day on a weekly day off. */
export type DayKind = 'holiday' | 'workday'

/**
 * The first date an employee's attendance counts (CONTRACT §23): the later of the
 * `attendance_starts_on` of the company whose calendar applies to them (their group's) and
 * their `hire_date`; null when neither is set (no bound).
 */
export function attendanceStart(companyStartsOn: string | null, hireDate: string | null): string | null {
  if (companyStartsOn === null) return hireDate
  if (hireDate === null) return companyStartsOn
  return companyStartsOn > hireDate ? companyStartsOn : hireDate
}

/** The later of a range's first date and the attendance start: the first date of the range that counts. */
export const countedFrom = (start: string, from: string | null): string => (from !== null && from > start ? from : start)

/** The earlier of a range's last date and the last day employed (CONTRACT §18 `left_on`): the last date of the range that counts. */
export const countedUntil = (end: string, until: string | null | undefined): string => (until != null && until < end ? until : end)

/**
 * How a company's mark on a date (`kind`; null: unmarked) changes the weekday's verdict:
 * `workday` makes it a work day, `holiday` makes it none, else the weekday says.
 */
export function workDayBy(weeklyWorkDay: boolean, kind: DayKind | null): boolean {
  if (kind === 'workday') return true
  if (kind === 'holiday') return false
  return weeklyWorkDay
}

/**
 * The one rule of "is this a work day for this employee" (CONTRACT §8, §23): never before
 * `from`, the first date their attendance counts (`attendanceStart`); from then on, whether
 * the date's weekday is a work day of the applicable rule (`weeklyWorkDay`), as the company
 * of their group marks the date.
 */
export function isWorkDayFor(weeklyWorkDay: boolean, date: string, kind: DayKind | null, from: string | null): boolean {
  return (from === null || date >= from) && workDayBy(weeklyWorkDay, kind)
}

/**
 * The same for a rule's ISO work days (1 = Monday … 7 = Sunday). Clock-in lateness, day
 * close, statistics, the exported sheet, the month calendar and leave day counting all ask this.
 */
export function isWorkDate(workDays: readonly number[], date: string, kind: DayKind | null, from: string | null): boolean {
  return isWorkDayFor(workDays.includes(weekday(date)), date, kind, from)
}

/** A company's calendar over a range: each date it marks, with its kind and name. */
export type CompanyCalendar = ReadonlyMap<string, { kind: DayKind; name: string }>

export const NO_CALENDAR: CompanyCalendar = new Map()
