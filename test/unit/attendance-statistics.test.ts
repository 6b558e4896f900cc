import { describe, expect, test } from 'bun:test'
import type { DayTotals } from '../../src/modules/attendance/repository'
import { computeStatistics, countDays, type DayRule } from '../../src/modules/attendance/statistics'

const weekdays = (day: number) => day <= 5
const saturdays = (day: number) => day === 6

describe('days of a range on chosen weekdays', () => {
  // 2024-03-04 is a Monday
  test.each([
    ['one Monday', '2024-03-04', '2024-03-04', weekdays, 1],
    ['one Saturday', '2024-03-09', '2024-03-09', weekdays, 0],
    ['a whole week', '2024-03-04', '2024-03-10', weekdays, 5],
    ['Wednesday to the next Tuesday', '2024-03-06', '2024-03-12', weekdays, 5],
    ['Saturday to Monday', '2024-03-09', '2024-03-11', weekdays, 1],
    ['March 2024', '2024-03-01', '2024-03-31', weekdays, 21],
    ['Saturdays of March 2024', '2024-03-01', '2024-03-31', saturdays, 5],
    ['a leap year', '2024-01-01', '2024-12-31', weekdays, 262],
    ['366 days over a year end', '2023-03-13', '2024-03-12', weekdays, 262],
    ['end before start', '2024-03-05', '2024-03-04', weekdays, 0],
    ['no work days', '2024-03-01', '2024-03-31', () => false, 0],
    ['up to the last date there is', '9999-12-25', '9999-12-31', weekdays, 5],
  ])('%s', (_name, start, end, counts, expected) => {
    expect(countDays(start, end, counts)).toBe(expected)
  })

  test('agrees with counting day by day over every start and length up to three weeks', () => {
    const start = Date.parse('2024-03-01T00:00:00Z')
    const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10)
    for (let from = 0; from < 7; from++)
      for (let length = 1; length <= 21; length++) {
        let expected = 0
        for (let i = 0; i < length; i++) if (weekdays(new Date(start + (from + i) * 86_400_000).getUTCDay() || 7)) expected++
        expect(countDays(iso(start + from * 86_400_000), iso(start + (from + length - 1) * 86_400_000), weekdays)).toBe(expected)
      }
  })
})

const NO_RULE: DayRule = { rule: null, workDay: false, allowedLateDays: 0 }
/** Weekdays under rule 1 (one late day a month), Saturdays under rule 2 (two), Sundays off (rule 1 again). */
const TWO_RULES: DayRule[] = [
  NO_RULE,
  ...[1, 2, 3, 4, 5].map(() => ({ rule: 1, workDay: true, allowedLateDays: 1 })),
  { rule: 2, workDay: true, allowedLateDays: 2 },
  { rule: 1, workDay: false, allowedLateDays: 1 },
]

const totals = (month: string, weekday: number, fields: Partial<DayTotals>): DayTotals => ({
  month,
  weekday,
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
  ...fields,
})

const EMPTY = {
  attendance_days: 0,
  late_days: 0,
  early_days: 0,
  absent_days: 0,
  exception_days: 0,
  total_work_hours: 0,
  avg_work_hours: 0,
  total_late_minutes: 0,
  total_early_minutes: 0,
  overtime_hours: 0,
  attendance_rate: 0,
  late_days_allowed: 0,
  late_days_over_allowance: 0,
  holiday_days: 0,
  leave_days: 0,
  leave_hours: 0,
}

const MARCH_4_TO_10 = { start: '2024-03-04', end: '2024-03-10' }

describe('statistics from per-month, per-weekday totals', () => {
  test('no records: past work days of every rule are absent, today is not', () => {
    // Monday 4 to Sunday 10 March 2024, asked on Saturday the 9th
    expect(
      computeStatistics({ ...MARCH_4_TO_10, today: '2024-03-09', since: '2024-03-04', weekdays: TWO_RULES, totals: [] }),
    ).toEqual({ ...EMPTY, total_days: 7, work_days: 6, absent_days: 5 })
  })

  test('days before `since` (the attendance start: hire date, company go-live) are neither work days nor missed (CONTRACT §23)', () => {
    expect(
      computeStatistics({ ...MARCH_4_TO_10, today: '2024-03-11', since: '2024-03-07', weekdays: TWO_RULES, totals: [] }),
    ).toEqual({ ...EMPTY, total_days: 7, work_days: 3, absent_days: 3 })
  })

  test('an absent record before `since` is no absence; a record clocked in before it still counts as attended', () => {
    const result = computeStatistics({
      ...MARCH_4_TO_10,
      today: '2024-03-11',
      since: '2024-03-07',
      weekdays: TWO_RULES,
      totals: [
        // the SQL counts absent records from `since` only: Monday's absent record before it is left out
        totals('2024-03', 1, { records: 1, absentDays: 0, pastRecords: 0 }),
        totals('2024-03', 2, { records: 1, attendanceDays: 1, workHundredths: 800, pastRecords: 0 }),
        totals('2024-03', 4, { records: 1, attendanceDays: 1, workHundredths: 800, pastRecords: 1 }),
      ],
    })
    expect(result).toEqual({ ...EMPTY, total_days: 7, work_days: 3, attendance_days: 2, absent_days: 2, total_work_hours: 16, avg_work_hours: 8, attendance_rate: 66.67 })
  })

  test('a range wholly before `since` has no work days', () => {
    expect(computeStatistics({ ...MARCH_4_TO_10, today: '2024-03-20', since: '2024-03-11', weekdays: TWO_RULES, totals: [] })).toEqual({
      ...EMPTY,
      total_days: 7,
      work_days: 0,
    })
  })

  test('late days are allowed per month and per rule', () => {
    const result = computeStatistics({
      start: '2024-02-26',
      end: '2024-03-09',
      today: '2024-03-11',
      since: '2024-02-26',
      weekdays: TWO_RULES,
      totals: [
        // February: three late weekdays (one allowed), one late Saturday (two allowed)
        totals('2024-02', 1, { records: 1, attendanceDays: 1, lateDays: 1, lateMinutes: 5, workHundredths: 800, pastRecords: 1 }),
        totals('2024-02', 2, { records: 2, attendanceDays: 2, lateDays: 2, lateMinutes: 10, workHundredths: 1600, pastRecords: 2 }),
        // March: one late Saturday (two allowed), one late Monday (one allowed)
        totals('2024-03', 6, { records: 1, attendanceDays: 1, lateDays: 1, lateMinutes: 30, workHundredths: 350, pastRecords: 1 }),
        totals('2024-03', 1, { records: 1, attendanceDays: 1, lateDays: 1, lateMinutes: 1, workHundredths: 833, pastRecords: 1 }),
      ],
    })
    expect(result).toEqual({
      total_days: 13,
      // ten weekdays and two Saturdays
      work_days: 12,
      attendance_days: 5,
      late_days: 5,
      early_days: 0,
      absent_days: 7,
      exception_days: 0,
      total_work_hours: 35.83,
      avg_work_hours: 7.17,
      total_late_minutes: 46,
      total_early_minutes: 0,
      overtime_hours: 0,
      attendance_rate: 41.67,
      // February weekdays 1 of 3, March Saturdays 1 of 1, March weekdays 1 of 1
      late_days_allowed: 3,
      late_days_over_allowance: 2,
      holiday_days: 0,
      leave_days: 0,
      leave_hours: 0,
    })
  })

  test('hours: the total is the sum of what the records show, the average rounds that', () => {
    const result = computeStatistics({
      start: '2024-03-05',
      end: '2024-03-07',
      today: '2024-03-08',
      since: '2024-03-05',
      weekdays: TWO_RULES,
      // three records of 1 minute each, 0.02 hours as shown
      totals: [2, 3, 4].map((weekday) => totals('2024-03', weekday, { records: 1, attendanceDays: 1, workHundredths: 2, pastRecords: 1 })),
    })
    expect([result.total_work_hours, result.avg_work_hours]).toEqual([0.06, 0.02])
  })

  test('an average halfway between two hundredths rounds up', () => {
    const result = computeStatistics({
      start: '2024-03-04',
      end: '2024-03-05',
      today: '2024-03-06',
      since: '2024-03-04',
      weekdays: TWO_RULES,
      totals: [
        totals('2024-03', 1, { records: 1, attendanceDays: 1, workHundredths: 1 }),
        totals('2024-03', 2, { records: 1, attendanceDays: 1, workHundredths: 2 }),
      ],
    })
    expect([result.total_work_hours, result.avg_work_hours]).toEqual([0.03, 0.02])
  })

  test('a group without rules has no work days', () => {
    expect(
      computeStatistics({
        start: '2024-03-04',
        end: '2024-03-10',
        today: '2024-03-11',
        since: '2024-03-04',
        weekdays: Array.from({ length: 8 }, () => NO_RULE),
        totals: [],
      }),
    ).toEqual({ ...EMPTY, total_days: 7, work_days: 0 })
  })
})
