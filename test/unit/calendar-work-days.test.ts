import { describe, expect, test } from 'bun:test'
import { isWorkDay, shiftFor, type PolicyRule } from '../../src/modules/attendance/policy'
import { computeStatistics, type DayRule } from '../../src/modules/attendance/statistics'
import type { DayTotals } from '../../src/modules/attendance/repository'
import { attendanceStart, isWorkDate, isWorkDayFor, workDayBy, type CompanyCalendar, type DayKind } from '../../src/modules/calendar/work-days'

// 2024-10-01 is a Tuesday, 2024-10-05 a Saturday, 2024-10-06 a Sunday
const WEEKDAYS = [1, 2, 3, 4, 5]

describe('workDayBy: the weekday says, unless the company marks the date', () => {
  test.each([
    [true, null, true],
    [false, null, false],
    [true, 'holiday', false],
    [false, 'holiday', false],
    [true, 'workday', true],
    [false, 'workday', true],
  ] as [boolean, DayKind | null, boolean][])('weekly work day %p, marked %p → %p', (weekly, kind, expected) => {
    expect(workDayBy(weekly, kind)).toBe(expected)
  })
})

describe('isWorkDate: a date, a rule’s ISO work days and the calendar’s mark', () => {
  test.each([
    ['a Tuesday under Mon–Fri', WEEKDAYS, '2024-10-01', null, true],
    ['a Tuesday holiday', WEEKDAYS, '2024-10-01', 'holiday', false],
    ['a Saturday under Mon–Fri', WEEKDAYS, '2024-10-05', null, false],
    ['a make-up Saturday', WEEKDAYS, '2024-10-05', 'workday', true],
    ['a Sunday marked workday', WEEKDAYS, '2024-10-06', 'workday', true],
    ['a Sunday holiday (a day off either way)', WEEKDAYS, '2024-10-06', 'holiday', false],
    ['a Saturday under a Saturday rule', [6], '2024-10-05', null, true],
    ['a Saturday under a Saturday rule, a holiday', [6], '2024-10-05', 'holiday', false],
    ['a Tuesday marked workday (already one)', WEEKDAYS, '2024-10-01', 'workday', true],
    ['a rule with no work days, a workday', [], '2024-10-02', 'workday', true],
    ['a rule with no work days, unmarked', [], '2024-10-02', null, false],
    ['29 February in a leap year, a Thursday', WEEKDAYS, '2024-02-29', null, true],
    ['the last date there is, a Friday', WEEKDAYS, '9999-12-31', null, true],
    ['Sunday 31 December 2023 marked workday', [1, 2, 3, 4, 5, 6], '2023-12-31', 'workday', true],
  ] as [string, number[], string, DayKind | null, boolean][])('%s', (_, workDays, date, kind, expected) => {
    expect(isWorkDate(workDays, date, kind, null)).toBe(expected)
  })
})

describe('isWorkDate with an attendance start (CONTRACT §23): nothing before it is a work day', () => {
  test.each([
    ['a Tuesday before the start', WEEKDAYS, '2024-10-01', null, '2024-10-02', false],
    ['a Tuesday on the start', WEEKDAYS, '2024-10-01', null, '2024-10-01', true],
    ['a Tuesday after the start', WEEKDAYS, '2024-10-01', null, '2024-09-30', true],
    ['a make-up Saturday before the start', WEEKDAYS, '2024-10-05', 'workday', '2024-10-07', false],
    ['a make-up Saturday on the start', WEEKDAYS, '2024-10-05', 'workday', '2024-10-05', true],
    ['a holiday after the start', WEEKDAYS, '2024-10-01', 'holiday', '2024-09-01', false],
    ['a Saturday after the start', WEEKDAYS, '2024-10-05', null, '2024-09-01', false],
  ] as [string, number[], string, DayKind | null, string, boolean][])('%s', (_, workDays, date, kind, from, expected) => {
    expect(isWorkDate(workDays, date, kind, from)).toBe(expected)
    expect(isWorkDayFor(workDays.includes(new Date(`${date}T00:00:00Z`).getUTCDay() || 7), date, kind, from)).toBe(expected)
  })

  test.each([
    [null, null, null],
    ['2024-10-15', null, '2024-10-15'],
    [null, '2024-10-03', '2024-10-03'],
    ['2024-10-15', '2024-10-03', '2024-10-15'],
    ['2024-10-15', '2024-10-20', '2024-10-20'],
  ] as [string | null, string | null, string | null][])('attendanceStart(company %p, hired %p) → %p', (company, hired, expected) => {
    expect(attendanceStart(company, hired)).toBe(expected)
  })
})

const RULE: PolicyRule = {
  workStart: '09:00',
  workEnd: '18:00',
  breakStart: '12:00',
  breakEnd: '13:00',
  lateGrace: 5,
  earlyGrace: 0,
  requiredWorkHours: 8,
  overtimeThreshold: 30,
  workDays: WEEKDAYS,
  flexible: false,
}

describe('the policy asks the same question', () => {
  test('isWorkDay and a shift’s workDay follow the calendar’s mark; unmarked dates are as before', () => {
    expect([isWorkDay(RULE, '2024-10-01'), isWorkDay(RULE, '2024-10-01', 'holiday'), isWorkDay(RULE, '2024-10-05', 'workday')]).toEqual([
      true,
      false,
      true,
    ])
    expect(shiftFor(RULE, 'Asia/Shanghai', '2024-10-01', 'holiday').workDay).toBe(false)
    expect([isWorkDay(RULE, '2024-10-01', null, '2024-10-02'), shiftFor(RULE, 'Asia/Shanghai', '2024-10-01', null, '2024-10-02').workDay]).toEqual([false, false])
    expect(shiftFor(RULE, 'Asia/Shanghai', '2024-10-05', 'workday')).toEqual({
      ...shiftFor(RULE, 'Asia/Shanghai', '2024-10-05'),
      workDay: true,
    })
  })
})

const ONE_RULE: DayRule[] = [
  { rule: null, workDay: false, allowedLateDays: 0 },
  ...[1, 2, 3, 4, 5].map(() => ({ rule: 1, workDay: true, allowedLateDays: 0 })),
  { rule: 1, workDay: false, allowedLateDays: 0 },
  { rule: 1, workDay: false, allowedLateDays: 0 },
]
const NO_RULES: DayRule[] = Array.from({ length: 8 }, () => ({ rule: null, workDay: false, allowedLateDays: 0 }))

const totals = (month: string, weekday: number, kind: DayKind | null, fields: Partial<DayTotals>): DayTotals => ({
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
  kind,
  ...fields,
})

const calendar = (...days: [string, DayKind][]): CompanyCalendar => new Map(days.map(([date, kind]) => [date, { kind, name: kind }]))

describe('statistics under a calendar', () => {
  // Tuesday 1 to Monday 7 October 2024: five weekdays, asked on the 8th
  const WEEK = { start: '2024-10-01', end: '2024-10-07', today: '2024-10-08', since: '2024-10-01' }

  test('a weekday holiday is no work day and cannot be missed; a make-up Saturday is one and can', () => {
    const result = computeStatistics({ ...WEEK, weekdays: ONE_RULE, totals: [], calendar: calendar(['2024-10-01', 'holiday'], ['2024-10-05', 'workday']) })
    expect(result).toMatchObject({ total_days: 7, work_days: 5, absent_days: 5, holiday_days: 1 })
  })

  test('a record on a make-up Saturday counts for it; one on a holiday is no work day’s', () => {
    const result = computeStatistics({
      ...WEEK,
      weekdays: ONE_RULE,
      totals: [
        totals('2024-10', 6, 'workday', { records: 1, attendanceDays: 1, pastRecords: 1, workHundredths: 817 }),
        totals('2024-10', 2, 'holiday', { records: 1, attendanceDays: 1, pastRecords: 1, workHundredths: 400 }),
      ],
      calendar: calendar(['2024-10-01', 'holiday'], ['2024-10-05', 'workday']),
    })
    // work days: 2, 3, 4, 5 (Saturday), 7; the Saturday has its record, the other four are missed
    expect(result).toMatchObject({ work_days: 5, attendance_days: 2, absent_days: 4, total_work_hours: 12.17, attendance_rate: 40 })
  })

  test('holidays on weekly days off and outside the range: holiday_days counts the range’s holidays, work_days is unchanged', () => {
    const result = computeStatistics({
      ...WEEK,
      weekdays: ONE_RULE,
      totals: [],
      calendar: calendar(['2024-09-30', 'holiday'], ['2024-10-06', 'holiday'], ['2024-10-08', 'holiday']),
    })
    expect(result).toMatchObject({ work_days: 5, absent_days: 5, holiday_days: 1 })
  })

  test('a make-up day before the hire date or from today on is not missed', () => {
    const result = computeStatistics({
      start: '2024-10-01',
      end: '2024-10-13',
      today: '2024-10-12',
      since: '2024-10-06',
      weekdays: ONE_RULE,
      totals: [],
      calendar: calendar(['2024-10-05', 'workday'], ['2024-10-12', 'workday']),
    })
    // work days from the hire date on (CONTRACT §23): 7–11 October and Saturday the 12th; missed: 7–11 (the 12th is today)
    expect(result).toMatchObject({ work_days: 6, absent_days: 5 })
  })

  test('without an enabled rule nothing is a work day, make-up days included', () => {
    const result = computeStatistics({ ...WEEK, weekdays: NO_RULES, totals: [], calendar: calendar(['2024-10-05', 'workday']) })
    expect(result).toMatchObject({ work_days: 0, absent_days: 0, holiday_days: 0, attendance_rate: 0 })
  })
})
