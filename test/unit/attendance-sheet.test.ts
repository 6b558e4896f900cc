import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { addDays, weekday } from '../../src/lib/local-time'
import type { DayTotals } from '../../src/modules/attendance/repository'
import type { RuleRow } from '../../src/modules/attendance/setup/repository'
import type { LeaveDate } from '../../src/modules/attendance/statistics'
import { workDayBy, type CompanyCalendar, type DayKind } from '../../src/modules/calendar/work-days'
import { datesOf } from '../../src/modules/leave/repository'
import {
  dayCode,
  dayTotalsOf,
  judgeMonth,
  leaveDatesOf,
  type ApprovedLeave,
  type DayFacts,
  type MonthRecord,
} from '../../src/modules/exports/attendance-sheet'
import { weekdayRules } from '../../src/modules/attendance/records'
import { hoursOf } from '../../src/modules/attendance/policy'

/** FUZZ_SEED=<n> varies the generated cases. */
const SEED = Number(process.env.FUZZ_SEED ?? 20241001)

/* The attendance sheet's pure part (src/modules/exports/attendance-sheet.ts). October 2024: the 1st is a Tuesday. */

const record = (workDate: string, fields: Partial<MonthRecord> = {}): MonthRecord => ({
  workDate,
  status: 0,
  clockedIn: true,
  lateMinutes: 0,
  earlyMinutes: 0,
  workMinutes: 480,
  overtimeMinutes: 0,
  ...fields,
})

const calendarOf = (days: Record<string, DayKind>): CompanyCalendar => new Map(Object.entries(days).map(([date, kind]) => [date, { kind, name: kind }]))

const rule = (id: number, workDays: string, allowedLateDays = 0): RuleRow =>
  ({
    id,
    groupId: 1,
    name: `rule ${id}`,
    workStartTime: '09:00',
    workEndTime: '18:00',
    breakStartTime: '12:00',
    breakEndTime: '13:00',
    lateGracePeriod: 0,
    earlyGracePeriod: 0,
    requiredWorkHours: 8,
    allowedLateDays,
    workDays,
    flexibleTime: false,
    status: 1,
  }) as RuleRow

const byKey = (rows: DayTotals[]) => [...rows].sort((a, b) => `${a.month} ${a.weekday} ${a.kind}`.localeCompare(`${b.month} ${b.weekday} ${b.kind}`))

describe('dayTotalsOf: repository.dayTotals over loaded records', () => {
  test('grouped by month, weekday and calendar mark, with the SQL’s sums', () => {
    const records = [
      // Tuesdays 1 (a holiday) and 8, 15
      record('2024-10-01', { workMinutes: 300 }),
      record('2024-10-08', { status: 1, lateMinutes: 20, workMinutes: 470 }),
      record('2024-10-15', { status: 3, clockedIn: false, workMinutes: 0 }),
      // Wednesday 9: early and late at once (status 2), and overtime
      record('2024-10-09', { status: 2, lateMinutes: 5, earlyMinutes: 60, workMinutes: 1, overtimeMinutes: 45 }),
      // Saturday 12, a make-up day, an exception
      record('2024-10-12', { status: 4, workMinutes: 0 }),
      // outside [start, end]: left out
      record('2024-09-30'),
      record('2024-11-01'),
      // November's first Friday (another month) within a wider range below
    ]
    const calendar = calendarOf({ '2024-10-01': 'holiday', '2024-10-12': 'workday' })
    const totals = dayTotalsOf(records, { start: '2024-10-01', end: '2024-10-31', since: '2024-10-05', today: '2024-10-15' }, calendar)
    const zero = { records: 0, attendanceDays: 0, lateDays: 0, earlyDays: 0, absentDays: 0, exceptionDays: 0, workHundredths: 0, lateMinutes: 0, earlyMinutes: 0, overtimeMinutes: 0, pastRecords: 0 }
    expect(byKey(totals)).toEqual(
      byKey([
        // 300 minutes: ⌊(1500 + 1) / 3⌋ = 500 hundredths; before `since`: not past
        { ...zero, month: '2024-10', weekday: 2, kind: 'holiday', records: 1, attendanceDays: 1, workHundredths: 500 },
        // 470 → ⌊2351 / 3⌋ = 783 (7.83 h); the 15th is today: not past
        { ...zero, month: '2024-10', weekday: 2, kind: null, records: 2, attendanceDays: 1, lateDays: 1, lateMinutes: 20, absentDays: 1, workHundredths: 783, pastRecords: 1 },
        // 1 minute → ⌊6 / 3⌋ = 2 hundredths
        { ...zero, month: '2024-10', weekday: 3, kind: null, records: 1, attendanceDays: 1, lateDays: 1, earlyDays: 1, lateMinutes: 5, earlyMinutes: 60, overtimeMinutes: 45, workHundredths: 2, pastRecords: 1 },
        { ...zero, month: '2024-10', weekday: 6, kind: 'workday', records: 1, attendanceDays: 1, exceptionDays: 1, pastRecords: 1 },
      ]),
    )
  })

  test('a record’s hours as it shows them, for every minute count of a day', () => {
    for (let minutes = 0; minutes <= 1440; minutes++) {
      const [totals] = dayTotalsOf([record('2024-10-02', { workMinutes: minutes })], { start: '2024-10-01', end: '2024-10-31', since: '2024-10-01', today: '2024-11-01' }, new Map())
      expect(totals.workHundredths).toBe(Math.round((minutes / 60) * 100))
    }
  })

  test('months apart in a longer range; nothing at all is no group', () => {
    const totals = dayTotalsOf([record('2024-10-31'), record('2024-11-01')], { start: '2024-10-01', end: '2024-11-30', since: '2024-10-01', today: '2024-12-01' }, new Map())
    expect(totals.map((t) => [t.month, t.weekday])).toEqual([
      ['2024-10', 4],
      ['2024-11', 5],
    ])
    expect(dayTotalsOf([], { start: '2024-10-01', end: '2024-10-31', since: '2024-10-01', today: '2024-10-02' }, new Map())).toEqual([])
  })
})

describe('leaveDatesOf: leave.leaveDates over loaded requests and records', () => {
  test('dates within the range; two halves of one date a whole day; what record each has', () => {
    const requests: ApprovedLeave[] = [
      { startDate: '2024-09-29', endDate: '2024-10-02', halfDay: null },
      { startDate: '2024-10-08', endDate: '2024-10-08', halfDay: 'am' },
      { startDate: '2024-10-08', endDate: '2024-10-08', halfDay: 'pm' },
      { startDate: '2024-10-09', endDate: '2024-10-09', halfDay: 'pm' },
      { startDate: '2024-10-30', endDate: '2024-11-02', halfDay: null },
    ]
    const records = new Map([
      ['2024-10-01', record('2024-10-01', { status: 3, clockedIn: false })],
      ['2024-10-02', record('2024-10-02', { status: 3, clockedIn: true })],
      ['2024-10-09', record('2024-10-09')],
    ])
    expect(leaveDatesOf(requests, records, '2024-10-01', '2024-10-31')).toEqual([
      { date: '2024-10-01', half: false, record: 'absent' },
      { date: '2024-10-02', half: false, record: 'other' },
      { date: '2024-10-08', half: false, record: 'none' },
      { date: '2024-10-09', half: true, record: 'other' },
      { date: '2024-10-30', half: false, record: 'none' },
      { date: '2024-10-31', half: false, record: 'none' },
    ])
  })
})

describe('the code of a date', () => {
  const facts = (fields: Partial<DayFacts>): DayFacts => ({ record: undefined, workDay: true, holiday: false, leave: undefined, missable: true, counted: true, ...fields })
  const full = (record: LeaveDate['record'] = 'none'): LeaveDate => ({ date: '2024-10-02', half: false, record })
  const half = (record: LeaveDate['record'] = 'none'): LeaveDate => ({ date: '2024-10-02', half: true, record })
  const absentRecord = record('2024-10-02', { status: 3, clockedIn: false })
  const cases: [string, Partial<DayFacts>, string][] = [
    ['a normal record', { record: record('2024-10-02') }, '✓'],
    ['late', { record: record('2024-10-02', { status: 1 }) }, 'L'],
    ['early', { record: record('2024-10-02', { status: 2 }) }, 'E'],
    ['an exception', { record: record('2024-10-02', { status: 4 }) }, 'X'],
    ['an absent record', { record: absentRecord }, 'A'],
    ['a missed work day', {}, 'A'],
    ['a work day to come', { missable: false }, ''],
    ['a day off', { workDay: false }, ''],
    ['a holiday', { workDay: false, holiday: true }, 'H'],
    ['a holiday with a record: its code', { workDay: false, holiday: true, record: record('2024-10-02') }, '✓'],
    ['a holiday worked late: its code', { workDay: false, holiday: true, record: record('2024-10-02', { status: 1 }) }, 'L'],
    ['an absent record on a holiday still counts', { workDay: false, holiday: true, record: absentRecord }, 'A'],
    ['a full day of leave, missed', { leave: full() }, 'V'],
    ['a full day of leave to come', { leave: full(), missable: false }, 'V'],
    ['a full day of leave with its absent record', { record: absentRecord, leave: full('absent') }, 'V'],
    ['a full day of leave worked normally', { record: record('2024-10-02'), leave: full('other') }, 'V'],
    ['a full day of leave, but late: the record', { record: record('2024-10-02', { status: 1 }), leave: full('other') }, 'L'],
    ['a full day of leave, an absent record with a clock-in: not excused', { record: record('2024-10-02', { status: 3 }), leave: full('other') }, 'A'],
    ['half a day, the other half normal', { record: record('2024-10-02'), leave: half('other') }, '½V'],
    ['half a day, the other half late', { record: record('2024-10-02', { status: 1 }), leave: half('other') }, 'L'],
    ['half a day, the other half missed', { leave: half() }, 'A'],
    ['half a day, an absent record', { record: absentRecord, leave: half('absent') }, 'A'],
    ['half a day to come', { leave: half(), missable: false }, '½V'],
    ['leave on a day off is no leave', { workDay: false, leave: full() }, ''],
    ['leave on a holiday', { workDay: false, holiday: true, leave: full() }, 'H'],
    // before the attendance start (CONTRACT §23) a date is no work day, and an absent record written before the start was set is no absence
    ['before the attendance start, no record', { workDay: false, missable: false, counted: false }, ''],
    ['before the attendance start, an absent record', { workDay: false, missable: false, counted: false, record: absentRecord }, ''],
    ['before the attendance start, leave', { workDay: false, missable: false, counted: false, leave: full() }, ''],
    ['before the attendance start, a holiday', { workDay: false, missable: false, counted: false, holiday: true }, 'H'],
    ['before the attendance start, a record clocked in', { workDay: false, missable: false, counted: false, record: record('2024-10-02') }, '✓'],
    ['before the attendance start, a late record', { workDay: false, missable: false, counted: false, record: record('2024-10-02', { status: 1 }) }, 'L'],
  ]
  test.each(cases)('%s → %s', (_name, fields, code) => {
    expect<string>(dayCode(facts(fields))).toBe(code)
  })
})

describe('judgeMonth', () => {
  const OCTOBER = datesOf('2024-10-01', '2024-10-31')

  test('weekdayRules: each weekday’s rule as statistics choose it (the first enabled rule holding it, else the first)', () => {
    expect(weekdayRules([rule(3, '1,2,3,4,5', 2), rule(4, '6', 1)]).slice(1)).toEqual([
      ...[1, 2, 3, 4, 5].map(() => ({ rule: 3, workDay: true, allowedLateDays: 2 })),
      { rule: 4, workDay: true, allowedLateDays: 1 },
      { rule: 3, workDay: false, allowedLateDays: 2 },
    ])
    expect(weekdayRules([]).slice(1)).toEqual(Array.from({ length: 7 }, () => ({ rule: null, workDay: false, allowedLateDays: 0 })))
  })

  const monthArb = fc.record({
    todayOffset: fc.integer({ min: 0, max: 33 }),
    hireOffset: fc.option(fc.integer({ min: -40, max: 35 }), { nil: null }),
    // left_on (CONTRACT §18): before, inside or after the month
    leftOffset: fc.option(fc.integer({ min: -5, max: 35 }), { nil: null }),
    rules: fc.constantFrom([rule(1, '1,2,3,4,5')], [rule(1, '1,2,3,4,5'), rule(2, '6', 1)], [rule(1, '2,4')], []),
    marks: fc.dictionary(fc.constantFrom(...OCTOBER), fc.constantFrom<DayKind>('holiday', 'workday'), { maxKeys: 6 }),
    records: fc.dictionary(
      fc.constantFrom(...OCTOBER),
      fc.record({
        status: fc.integer({ min: 0, max: 4 }),
        clockedIn: fc.boolean(),
        lateMinutes: fc.constantFrom(0, 0, 7),
        earlyMinutes: fc.constantFrom(0, 0, 12),
        workMinutes: fc.integer({ min: 0, max: 700 }),
        overtimeMinutes: fc.constantFrom(0, 0, 45),
      }),
      { maxKeys: 25 },
    ),
    leave: fc.array(
      fc.record({ start: fc.integer({ min: -3, max: 30 }), length: fc.integer({ min: 0, max: 4 }), halfDay: fc.constantFrom(null, null, 'am' as const, 'pm' as const) }),
      { maxLength: 4 },
    ),
  })

  test('for any month: the A cells are exactly absent_days, V cells lie on full days of leave, ½V on half days, and leave_days is what the leave dates make', () => {
    fc.assert(
      fc.property(monthArb, (month) => {
        const calendar = calendarOf(month.marks)
        const leave: ApprovedLeave[] = month.leave.map(({ start, length, halfDay }) => {
          const startDate = addDays('2024-10-01', start)
          return { startDate, endDate: halfDay ? startDate : addDays(startDate, length), halfDay }
        })
        const records = Object.entries(month.records).map(([workDate, fields]) => ({ workDate, ...fields }))
        const until = month.leftOffset === null ? null : addDays('2024-10-01', month.leftOffset)
        const last = until !== null && until < '2024-10-31' ? until : '2024-10-31'
        const { codes, statistics } = judgeMonth({
          dates: OCTOBER,
          today: addDays('2024-10-01', month.todayOffset),
          attendanceFrom: month.hireOffset === null ? null : addDays('2024-10-01', month.hireOffset),
          attendanceUntil: until,
          rules: month.rules,
          calendar,
          records,
          leave,
        })
        expect(codes.filter((code) => code === 'A').length).toBe(statistics.absent_days)
        // after the last day employed a date shows nothing but a holiday, whatever its record or leave
        codes.forEach((code, i) => {
          if (OCTOBER[i] > last) expect(code).toBe(calendar.get(OCTOBER[i])?.kind === 'holiday' ? 'H' : '')
        })
        const leaveDates = new Map(leaveDatesOf(leave, new Map(records.map((r) => [r.workDate, r])), '2024-10-01', last).map((d) => [d.date, d]))
        codes.forEach((code, i) => {
          if (code === 'V') expect(leaveDates.get(OCTOBER[i])?.half).toBe(false)
          if (code === '½V') expect(leaveDates.get(OCTOBER[i])?.half).toBe(true)
          if (code === 'H') expect(calendar.get(OCTOBER[i])?.kind).toBe('holiday')
        })
        // the leave shown plus the leave behind another code (a record's, or A for a missed other half) is leave_days
        const weekdays = weekdayRules(month.rules)
        // no date before the attendance start is a work day (CONTRACT §23)
        const from = month.hireOffset === null ? '0000-01-01' : addDays('2024-10-01', month.hireOffset)
        const isWork = (date: string) =>
          date >= from && date <= last && weekdays[weekday(date)].rule !== null && workDayBy(weekdays[weekday(date)].workDay, calendar.get(date)?.kind ?? null)
        const hidden = codes.reduce((sum, code, i) => {
          const day = leaveDates.get(OCTOBER[i])
          return day && isWork(OCTOBER[i]) && code !== 'V' && code !== '½V' && code !== '' && code !== 'H' ? sum + (day.half ? 0.5 : 1) : sum
        }, 0)
        const shown = codes.filter((code) => code === 'V').length + codes.filter((code) => code === '½V').length / 2
        expect(shown + hidden).toBe(statistics.leave_days)
        // work days are those of [attendance start, last day employed]; records after it count nowhere
        expect(statistics.work_days).toBe(OCTOBER.filter(isWork).length)
        expect(statistics.total_days).toBe(31)
        const counted = records.filter((r) => r.workDate <= last)
        expect(statistics.attendance_days).toBe(counted.filter((r) => r.clockedIn).length)
        expect(statistics.overtime_hours).toBe(hoursOf(counted.reduce((sum, r) => sum + r.overtimeMinutes, 0)))
      }),
      { numRuns: 500, seed: SEED },
    )
  })
})
