import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { addDays } from '../../src/lib/local-time'
import { hoursOf } from '../../src/modules/attendance/policy'
import { weekdayRules } from '../../src/modules/attendance/records'
import type { RuleRow } from '../../src/modules/attendance/setup/repository'
import { computeStatistics, countedLeaveMinutes, countsAsLeave, type LeaveCounting } from '../../src/modules/attendance/statistics'
import type { CompanyCalendar, DayKind } from '../../src/modules/calendar/work-days'
import { datesOf } from '../../src/modules/leave/repository'
import { judgeMonth, leaveDatesOf, leaveMinutesOf, type ApprovedLeave, type MonthRecord } from '../../src/modules/exports/attendance-sheet'

/*
 * Hourly leave in statistics and the monthly sheet (CONTRACT §18): never a leave day (no V cell, not
 * in leave_days), its minutes counted on the employee's work days of the counted range and shown as
 * leave_hours, minutes ÷ 60 to the hundredth, by the one function both call. October 2024: the 1st
 * is a Tuesday.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20241018)
const OCTOBER = datesOf('2024-10-01', '2024-10-31')

const rule = (workDays: string): RuleRow =>
  ({
    id: 1,
    groupId: 1,
    name: 'Office',
    workStartTime: '09:00',
    workEndTime: '18:00',
    breakStartTime: '12:00',
    breakEndTime: '13:00',
    lateGracePeriod: 5,
    earlyGracePeriod: 0,
    requiredWorkHours: 8,
    allowedLateDays: 0,
    workDays,
    flexibleTime: false,
    status: 1,
  }) as RuleRow

const calendarOf = (days: Record<string, DayKind>): CompanyCalendar => new Map(Object.entries(days).map(([date, kind]) => [date, { kind, name: kind }]))
const hourly = (date: string, startTime: string, endTime: string, amount: number): ApprovedLeave => ({
  startDate: date,
  endDate: date,
  halfDay: null,
  startTime,
  endTime,
  amount,
})

const OFFICE = weekdayRules([rule('1,2,3,4,5')])
const counting = (fields: Partial<LeaveCounting> = {}): LeaveCounting => ({
  end: '2024-10-31',
  since: '2024-10-01',
  weekdays: OFFICE,
  calendar: calendarOf({ '2024-10-01': 'holiday', '2024-10-12': 'workday' }),
  ...fields,
})

describe('which dates of hourly leave count', () => {
  const cases: [string, string, Partial<LeaveCounting>, boolean][] = [
    ['a weekday', '2024-10-08', {}, true],
    ['a Saturday', '2024-10-05', {}, false],
    ['a holiday of the company', '2024-10-01', {}, false],
    ['a make-up Saturday', '2024-10-12', {}, true],
    ['before the attendance start', '2024-10-08', { since: '2024-10-09' }, false],
    ['the attendance start', '2024-10-09', { since: '2024-10-09' }, true],
    ['the last day employed', '2024-10-18', { until: '2024-10-18' }, true],
    ['after the last day employed', '2024-10-21', { until: '2024-10-18' }, false],
    ['a group without rules', '2024-10-08', { weekdays: weekdayRules([]) }, false],
  ]
  test.each(cases)('%s', (_, date, fields, expected) => expect(countsAsLeave(date, counting(fields))).toBe(expected))

  test('the counted minutes are summed before they are rounded', () => {
    const leave = ['2024-10-08', '2024-10-09', '2024-10-10'].map((date) => ({ date, minutes: 20 }))
    expect(countedLeaveMinutes(leave, counting())).toBe(60)
    expect(computeStatistics({ start: '2024-10-01', end: '2024-10-31', today: '2024-11-01', since: '2024-10-01', weekdays: OFFICE, totals: [], hourlyLeave: leave }).leave_hours).toBe(1)
  })

  test('to the hundredth: 10 minutes are 0.17 h; a Saturday and a date after left_on count nothing', () => {
    const leave = [
      { date: '2024-10-08', minutes: 10 },
      { date: '2024-10-05', minutes: 120 },
      { date: '2024-10-25', minutes: 120 },
    ]
    const statistics = computeStatistics({
      start: '2024-10-01',
      end: '2024-10-31',
      today: '2024-11-01',
      since: '2024-10-01',
      until: '2024-10-18',
      weekdays: OFFICE,
      totals: [],
      hourlyLeave: leave,
    })
    expect({ leave_hours: statistics.leave_hours, leave_days: statistics.leave_days }).toEqual({ leave_hours: 0.17, leave_days: 0 })
  })
})

describe('the sheet’s reading of approved requests', () => {
  const requests: ApprovedLeave[] = [
    { startDate: '2024-10-02', endDate: '2024-10-03', halfDay: null },
    hourly('2024-10-08', '09:00', '11:00', 120),
    hourly('2024-10-08', '14:00', '15:30', 90),
    { startDate: '2024-10-09', endDate: '2024-10-09', halfDay: 'am', startTime: null, endTime: null, amount: 1 },
    hourly('2024-11-04', '09:00', '10:00', 60),
  ]

  test('hourly requests are no leave dates', () => {
    expect(leaveDatesOf(requests, new Map(), '2024-10-01', '2024-10-31')).toEqual([
      { date: '2024-10-02', half: false, record: 'none' },
      { date: '2024-10-03', half: false, record: 'none' },
      { date: '2024-10-09', half: true, record: 'none' },
    ])
  })

  test('their minutes, within the range', () => {
    expect(leaveMinutesOf(requests, '2024-10-01', '2024-10-31')).toEqual([
      { date: '2024-10-08', minutes: 120 },
      { date: '2024-10-08', minutes: 90 },
    ])
    expect(leaveMinutesOf(requests, '2024-10-09', '2024-10-31')).toEqual([])
  })

  test('a month: no V cell for hourly leave, leave_hours 3.5, leave_days only the days', () => {
    const records: MonthRecord[] = [
      { workDate: '2024-10-08', status: 0, clockedIn: true, lateMinutes: 0, earlyMinutes: 0, workMinutes: 270, overtimeMinutes: 0 },
    ]
    const { codes, statistics } = judgeMonth({
      dates: OCTOBER,
      today: '2024-11-01',
      attendanceFrom: null,
      attendanceUntil: null,
      rules: [rule('1,2,3,4,5')],
      calendar: new Map(),
      records,
      leave: requests,
    })
    expect(codes[7]).toBe('✓')
    expect(codes[1]).toBe('V')
    // half a day of leave missed otherwise: absent, as ever
    expect(codes[8]).toBe('A')
    expect({ leave_days: statistics.leave_days, leave_hours: statistics.leave_hours }).toEqual({ leave_days: 2.5, leave_hours: 3.5 })
  })
})

describe('for any month', () => {
  const monthArb = fc.record({
    hireOffset: fc.option(fc.integer({ min: -5, max: 35 }), { nil: null }),
    leftOffset: fc.option(fc.integer({ min: -5, max: 35 }), { nil: null }),
    workDays: fc.constantFrom('1,2,3,4,5', '2,4', '6'),
    marks: fc.dictionary(fc.constantFrom(...OCTOBER), fc.constantFrom<DayKind>('holiday', 'workday'), { maxKeys: 5 }),
    days: fc.array(fc.record({ start: fc.integer({ min: -3, max: 30 }), length: fc.integer({ min: 0, max: 3 }), halfDay: fc.constantFrom(null, 'am' as const) }), {
      maxLength: 3,
    }),
    hours: fc.array(fc.record({ day: fc.integer({ min: -2, max: 32 }), minutes: fc.integer({ min: 1, max: 480 }) }), { maxLength: 6 }),
    records: fc.dictionary(fc.constantFrom(...OCTOBER), fc.record({ status: fc.integer({ min: 0, max: 4 }), clockedIn: fc.boolean() }), { maxKeys: 20 }),
  })

  test('hourly leave changes no code and no figure but leave_hours, which is the counted minutes in hours', () => {
    fc.assert(
      fc.property(monthArb, (month) => {
        const days: ApprovedLeave[] = month.days.map(({ start, length, halfDay }) => {
          const startDate = addDays('2024-10-01', start)
          return { startDate, endDate: halfDay ? startDate : addDays(startDate, length), halfDay }
        })
        const hours = month.hours.map(({ day, minutes }) => hourly(addDays('2024-10-01', day), '09:00', '10:00', minutes))
        const input = {
          dates: OCTOBER,
          today: '2024-10-20',
          attendanceFrom: month.hireOffset === null ? null : addDays('2024-10-01', month.hireOffset),
          attendanceUntil: month.leftOffset === null ? null : addDays('2024-10-01', month.leftOffset),
          rules: [rule(month.workDays)],
          calendar: calendarOf(month.marks),
          records: Object.entries(month.records).map(([workDate, fields]) => ({ workDate, lateMinutes: 0, earlyMinutes: 0, workMinutes: 0, overtimeMinutes: 0, ...fields })),
        }
        const without = judgeMonth({ ...input, leave: days })
        const withHours = judgeMonth({ ...input, leave: [...hours, ...days] })
        expect(withHours.codes).toEqual(without.codes)
        expect({ ...withHours.statistics, leave_hours: 0 }).toEqual(without.statistics)
        const since = input.attendanceFrom !== null && input.attendanceFrom > '2024-10-01' ? input.attendanceFrom : '2024-10-01'
        const minutes = countedLeaveMinutes(leaveMinutesOf(hours, '2024-10-01', '2024-10-31'), {
          end: '2024-10-31',
          since,
          until: input.attendanceUntil ?? undefined,
          weekdays: weekdayRules(input.rules),
          calendar: input.calendar,
        })
        expect(withHours.statistics.leave_hours).toBe(hoursOf(minutes))
      }),
      { numRuns: 300, seed: SEED },
    )
  })
})
