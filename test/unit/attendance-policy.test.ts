import { describe, expect, test } from 'bun:test'
import {
  closesAt,
  evaluateClockIn,
  evaluateClockOut,
  hoursOf,
  hundredthsOf,
  isOvernight,
  isWorkDay,
  judgeClockIn,
  judgeClockOut,
  requiredMinutes,
  ruleOn,
  shiftAt,
  shiftFor,
  shiftOf,
  workDateOf,
  workedMinutes,
  type ClockIn,
  type ClockOut,
  type PolicyRule,
  type Shift,
} from '../../src/modules/attendance/policy'

// 2024-03-14 is a Thursday, 2024-03-15 a Friday, 2024-03-16 a Saturday
const weekdays = [1, 2, 3, 4, 5]
const everyDay = [1, 2, 3, 4, 5, 6, 7]
const dayShift: PolicyRule = {
  workStart: '09:00',
  workEnd: '18:00',
  breakStart: '12:00',
  breakEnd: '13:00',
  lateGrace: 5,
  earlyGrace: 5,
  requiredWorkHours: 8,
  workDays: weekdays,
  flexible: false,
  overtimeThreshold: 30,
}
const nightShift: PolicyRule = {
  ...dayShift,
  workStart: '22:00',
  workEnd: '06:00',
  breakStart: '02:00',
  breakEnd: '02:30',
  requiredWorkHours: 7.5,
}
const flexible: PolicyRule = { ...dayShift, flexible: true }
const noBreak = { breakStart: null, breakEnd: null }
const newYorkEarly: PolicyRule = {
  ...dayShift,
  ...noBreak,
  workStart: '00:00',
  workEnd: '06:00',
  lateGrace: 0,
  earlyGrace: 0,
  requiredWorkHours: 6,
  workDays: everyDay,
}
const newYorkDay: PolicyRule = { ...dayShift, workStart: '08:00', workEnd: '17:00', workDays: everyDay }
const newYorkNight: PolicyRule = { ...nightShift, workDays: everyDay }

const NEW_YORK = 'America/New_York'
const SHANGHAI = 'Asia/Shanghai'
const AUCKLAND = 'Pacific/Auckland'

describe('overnight rules', () => {
  test.each([
    ['09:00', '18:00', false],
    ['22:00', '06:00', true],
    ['00:00', '23:59', false],
    ['23:59', '00:00', true],
    ['18:00', '17:59', true],
    ['09:00', '09:00', false],
  ])('%s–%s overnight: %p', (workStart, workEnd, expected) => {
    expect(isOvernight({ ...dayShift, workStart, workEnd })).toBe(expected)
  })
})

describe('work days', () => {
  test.each([
    [weekdays, '2024-03-15', true],
    [weekdays, '2024-03-16', false],
    [weekdays, '2024-03-17', false],
    [weekdays, '2024-03-11', true],
    [[6, 7], '2024-03-16', true],
    [[7], '2024-03-17', true],
    [[], '2024-03-15', false],
    [[4], '2024-02-29', true],
  ])('%p contains the weekday of %s: %p', (workDays, date, expected) => {
    expect(isWorkDay({ ...dayShift, workDays }, date)).toBe(expected)
  })
})

describe('shift instants', () => {
  test.each([
    ['day shift, UTC', dayShift, 'UTC', '2024-03-15', '2024-03-15T09:00:00Z', '2024-03-15T18:00:00Z'],
    ['night shift ends the next day', nightShift, 'UTC', '2024-03-14', '2024-03-14T22:00:00Z', '2024-03-15T06:00:00Z'],
    ['night shift across a year end', nightShift, 'UTC', '2024-12-31', '2024-12-31T22:00:00Z', '2025-01-01T06:00:00Z'],
    ['night shift into a leap day', nightShift, 'UTC', '2024-02-28', '2024-02-28T22:00:00Z', '2024-02-29T06:00:00Z'],
    ['day shift, Shanghai', dayShift, SHANGHAI, '2024-03-15', '2024-03-15T01:00:00Z', '2024-03-15T10:00:00Z'],
    ['night shift, Shanghai', nightShift, SHANGHAI, '2024-03-14', '2024-03-14T14:00:00Z', '2024-03-14T22:00:00Z'],
    ['day shift, Auckland', dayShift, AUCKLAND, '2024-03-15', '2024-03-14T20:00:00Z', '2024-03-15T05:00:00Z'],
    // spring forward: 08:00–17:00 is 9 real hours, 00:00–06:00 only 5; fall back: 00:00–06:00 is 7
    ['New York 08:00–17:00, spring forward', newYorkDay, NEW_YORK, '2024-03-10', '2024-03-10T12:00:00Z', '2024-03-10T21:00:00Z'],
    ['New York 00:00–06:00, spring forward', newYorkEarly, NEW_YORK, '2024-03-10', '2024-03-10T05:00:00Z', '2024-03-10T10:00:00Z'],
    ['New York 00:00–06:00, the day before', newYorkEarly, NEW_YORK, '2024-03-09', '2024-03-09T05:00:00Z', '2024-03-09T11:00:00Z'],
    ['New York 00:00–06:00, fall back', newYorkEarly, NEW_YORK, '2024-11-03', '2024-11-03T04:00:00Z', '2024-11-03T11:00:00Z'],
    ['New York night shift into spring forward', newYorkNight, NEW_YORK, '2024-03-09', '2024-03-10T03:00:00Z', '2024-03-10T10:00:00Z'],
    ['New York night shift into fall back', newYorkNight, NEW_YORK, '2024-11-02', '2024-11-03T02:00:00Z', '2024-11-03T11:00:00Z'],
  ])('%s', (_name, rule, zone, date, start, end) => {
    expect(shiftOf(rule, zone, date)).toEqual({ start: new Date(start), end: new Date(end) })
  })
})

describe('work date of a clock-in', () => {
  test.each([
    ['day shift: the local date', dayShift, 'UTC', '2024-03-15T00:30:00Z', '2024-03-15'],
    ['night shift: before start, that evening', nightShift, 'UTC', '2024-03-14T21:55:00Z', '2024-03-14'],
    ['night shift: after midnight, the day before', nightShift, 'UTC', '2024-03-15T00:30:00Z', '2024-03-14'],
    ['night shift: the last minute before workEnd', nightShift, 'UTC', '2024-03-15T05:59:59Z', '2024-03-14'],
    ['night shift: from workEnd on, that day', nightShift, 'UTC', '2024-03-15T06:00:00Z', '2024-03-15'],
    ['night shift: after midnight on New Year', nightShift, 'UTC', '2025-01-01T01:00:00Z', '2024-12-31'],
    ['night shift: after midnight on 1 March 2024', nightShift, 'UTC', '2024-03-01T01:00:00Z', '2024-02-29'],
    ['Shanghai: 01:10Z is 09:10 on the 15th', dayShift, SHANGHAI, '2024-03-15T01:10:00Z', '2024-03-15'],
    ['Shanghai: 16:30Z on the 14th is 00:30 on the 15th', dayShift, SHANGHAI, '2024-03-14T16:30:00Z', '2024-03-15'],
    ['Shanghai night shift: 00:30 belongs to the 14th', nightShift, SHANGHAI, '2024-03-14T16:30:00Z', '2024-03-14'],
    ['Auckland: 20:00Z on the 14th is 09:00 on the 15th', dayShift, AUCKLAND, '2024-03-14T20:00:00Z', '2024-03-15'],
    ['New York night shift: 01:30 EST after spring forward', newYorkNight, NEW_YORK, '2024-03-10T06:30:00Z', '2024-03-09'],
  ])('%s', (_name, rule, zone, at, workDate) => {
    expect(workDateOf(rule, zone, new Date(at))).toBe(workDate)
  })
})

type ClockInRow = [name: string, at: string, workDate: string, status: ClockIn['status'], lateMinutes: number]

function clockInCases(title: string, rule: PolicyRule, zone: string, rows: ClockInRow[]) {
  describe(title, () => {
    test.each(rows)('%s', (_name, at, workDate, status, lateMinutes) => {
      expect(evaluateClockIn(rule, zone, new Date(at))).toEqual({ workDate, status, lateMinutes, isWorkDay: true })
    })
  })
}

describe('clock-in', () => {
  clockInCases('09:00, grace 5, UTC', dayShift, 'UTC', [
    ['early arrival', '2024-03-15T08:30:00Z', '2024-03-15', 0, 0],
    ['exactly at start', '2024-03-15T09:00:00Z', '2024-03-15', 0, 0],
    ['seconds dropped at start', '2024-03-15T09:00:59Z', '2024-03-15', 0, 0],
    ['grace − 1', '2024-03-15T09:04:00Z', '2024-03-15', 0, 0],
    ['grace', '2024-03-15T09:05:00Z', '2024-03-15', 0, 0],
    ['grace, last millisecond', '2024-03-15T09:05:59.999Z', '2024-03-15', 0, 0],
    ['grace + 1', '2024-03-15T09:06:00Z', '2024-03-15', 1, 6],
    ['grace + 1, seconds dropped', '2024-03-15T09:06:30Z', '2024-03-15', 1, 6],
    ['an hour and a half late', '2024-03-15T10:30:00Z', '2024-03-15', 1, 90],
    ['after the shift ended', '2024-03-15T18:30:00Z', '2024-03-15', 1, 570],
  ])

  clockInCases('09:00, grace 0, UTC', { ...dayShift, lateGrace: 0 }, 'UTC', [
    ['a second early', '2024-03-15T08:59:59Z', '2024-03-15', 0, 0],
    ['seconds dropped', '2024-03-15T09:00:59Z', '2024-03-15', 0, 0],
    ['a minute late', '2024-03-15T09:01:00Z', '2024-03-15', 1, 1],
  ])

  clockInCases('09:00, grace 15, UTC', { ...dayShift, lateGrace: 15 }, 'UTC', [
    ['grace − 1', '2024-03-15T09:14:00Z', '2024-03-15', 0, 0],
    ['grace', '2024-03-15T09:15:00Z', '2024-03-15', 0, 0],
    ['grace + 1', '2024-03-15T09:16:00Z', '2024-03-15', 1, 16],
  ])

  clockInCases('every day a work day, UTC', { ...dayShift, workDays: everyDay }, 'UTC', [
    ['Saturday', '2024-03-16T10:00:00Z', '2024-03-16', 1, 60],
    ['Sunday', '2024-03-17T09:05:00Z', '2024-03-17', 0, 0],
  ])

  clockInCases('flexible, UTC', flexible, 'UTC', [
    ['late by the clock, not late', '2024-03-15T11:00:00Z', '2024-03-15', 0, 0],
    ['after workEnd', '2024-03-15T19:00:00Z', '2024-03-15', 0, 0],
  ])

  clockInCases('22:00–06:00, grace 5, UTC', nightShift, 'UTC', [
    ['before start', '2024-03-14T21:55:00Z', '2024-03-14', 0, 0],
    ['grace', '2024-03-14T22:05:00Z', '2024-03-14', 0, 0],
    ['grace + 1', '2024-03-14T22:06:00Z', '2024-03-14', 1, 6],
    ['after midnight', '2024-03-15T00:30:00Z', '2024-03-14', 1, 150],
    ['the last minute of the shift', '2024-03-15T05:59:00Z', '2024-03-14', 1, 479],
    ['from workEnd on: early for that night', '2024-03-15T06:00:00Z', '2024-03-15', 0, 0],
    ['Saturday 00:30 closes Friday', '2024-03-16T00:30:00Z', '2024-03-15', 1, 150],
  ])

  clockInCases('09:00, grace 5, Shanghai', dayShift, SHANGHAI, [
    ['09:10', '2024-03-15T01:10:00Z', '2024-03-15', 1, 10],
    ['09:05:59', '2024-03-15T01:05:59Z', '2024-03-15', 0, 0],
    ['00:30 is early for that day', '2024-03-14T16:30:00Z', '2024-03-15', 0, 0],
  ])

  clockInCases('22:00–06:00, Shanghai', nightShift, SHANGHAI, [
    ['00:30 closes the day before', '2024-03-14T16:30:00Z', '2024-03-14', 1, 150],
  ])

  clockInCases('09:00, grace 5, Auckland', dayShift, AUCKLAND, [
    ['09:00', '2024-03-14T20:00:00Z', '2024-03-15', 0, 0],
    ['09:06', '2024-03-14T20:06:00Z', '2024-03-15', 1, 6],
  ])

  clockInCases('08:00, grace 5, New York', newYorkDay, NEW_YORK, [['08:06 on spring forward', '2024-03-10T12:06:00Z', '2024-03-10', 1, 6]])

  // lateness is real elapsed time: 00:00 EST → 03:00 EDT is 2 hours, not 3
  clockInCases('00:00, grace 0, New York', newYorkEarly, NEW_YORK, [
    ['03:00 EDT on spring forward', '2024-03-10T07:00:00Z', '2024-03-10', 1, 120],
    ['the first 01:30 on fall back', '2024-11-03T05:30:00Z', '2024-11-03', 1, 90],
    ['the second 01:30 on fall back', '2024-11-03T06:30:00Z', '2024-11-03', 1, 150],
  ])

  clockInCases('22:00–06:00, New York', newYorkNight, NEW_YORK, [
    ['01:30 EST after spring forward', '2024-03-10T06:30:00Z', '2024-03-09', 1, 210],
  ])

  describe('not a work day: no lateness', () => {
    test.each([
      ['Saturday', dayShift, 'UTC', '2024-03-16T10:00:00Z', '2024-03-16'],
      ['Sunday', dayShift, 'UTC', '2024-03-17T12:00:00Z', '2024-03-17'],
      ['flexible on Saturday', flexible, 'UTC', '2024-03-16T10:00:00Z', '2024-03-16'],
      ['night shift, Saturday evening', nightShift, 'UTC', '2024-03-16T23:00:00Z', '2024-03-16'],
      ['night shift, Monday 00:30 closes Sunday', nightShift, 'UTC', '2024-03-18T00:30:00Z', '2024-03-17'],
      ['Shanghai Saturday 00:30, Friday in UTC', dayShift, SHANGHAI, '2024-03-15T16:30:00Z', '2024-03-16'],
      ['Auckland Saturday 09:00, Friday in UTC', dayShift, AUCKLAND, '2024-03-15T20:00:00Z', '2024-03-16'],
    ])('%s', (_name, rule, zone, at, workDate) => {
      expect(evaluateClockIn(rule, zone, new Date(at))).toEqual({ workDate, status: 0, lateMinutes: 0, isWorkDay: false })
    })
  })
})

type ClockOutRow = [
  name: string,
  clockIn: string,
  clockOut: string,
  lateMinutes: number,
  status: ClockOut['status'],
  earlyMinutes: number,
  workMinutes: number,
  workHours: number,
]

function clockOutCases(title: string, rule: PolicyRule, zone: string, workDate: string, rows: ClockOutRow[]) {
  describe(title, () => {
    test.each(rows)('%s', (_name, clockIn, clockOut, lateMinutes, status, earlyMinutes, workMinutes, workHours) => {
      // overtime has its own table below
      const { overtimeMinutes: _, ...result } = evaluateClockOut(rule, zone, workDate, new Date(clockIn), new Date(clockOut), lateMinutes)
      expect(result).toEqual({ status, earlyMinutes, workMinutes, workHours })
    })
  })
}

describe('clock-out', () => {
  // columns: clock-in, clock-out, late minutes in → status, early minutes, work minutes, work hours
  clockOutCases('09:00–18:00, break 12:00–13:00, grace 5, 8 h, UTC', dayShift, 'UTC', '2024-03-15', [
    ['a full day', '2024-03-15T09:00:00Z', '2024-03-15T18:00:00Z', 0, 0, 0, 480, 8],
    ['seconds dropped from both ends', '2024-03-15T09:00:59Z', '2024-03-15T18:00:01Z', 0, 0, 0, 480, 8],
    ['overtime', '2024-03-15T08:30:00Z', '2024-03-15T19:30:00Z', 0, 0, 0, 600, 10],
    ['grace + 1: early', '2024-03-15T09:00:00Z', '2024-03-15T17:54:00Z', 0, 2, 6, 474, 7.9],
    ['grace + 1, seconds dropped: early', '2024-03-15T09:00:00Z', '2024-03-15T17:54:59Z', 0, 2, 6, 474, 7.9],
    ['grace: not early, but short', '2024-03-15T09:00:00Z', '2024-03-15T17:55:00Z', 0, 4, 0, 475, 7.92],
    ['grace − 1: not early, but short', '2024-03-15T09:00:00Z', '2024-03-15T17:56:00Z', 0, 4, 0, 476, 7.93],
    // status precedence: early beats late beats short hours
    ['late, then a full day: late', '2024-03-15T09:06:00Z', '2024-03-15T18:00:00Z', 6, 1, 0, 474, 7.9],
    ['late and early: early', '2024-03-15T09:30:00Z', '2024-03-15T17:00:00Z', 30, 2, 60, 390, 6.5],
    ['late with overtime: late', '2024-03-15T09:30:00Z', '2024-03-15T20:00:00Z', 30, 1, 0, 570, 9.5],
    // break overlap
    ['clock-in inside the break', '2024-03-15T12:30:00Z', '2024-03-15T18:00:00Z', 210, 1, 0, 300, 5],
    ['clock-out inside the break', '2024-03-15T09:00:00Z', '2024-03-15T12:30:00Z', 0, 2, 330, 180, 3],
    ['both inside the break', '2024-03-15T12:10:00Z', '2024-03-15T12:50:00Z', 190, 2, 310, 0, 0],
    ['clock-out as the break starts', '2024-03-15T09:00:00Z', '2024-03-15T12:00:00Z', 0, 2, 360, 180, 3],
    ['clock-in as the break ends', '2024-03-15T13:00:00Z', '2024-03-15T18:00:00Z', 240, 1, 0, 300, 5],
    ['clock-in a second before the break ends', '2024-03-15T12:59:59Z', '2024-03-15T18:00:00Z', 239, 1, 0, 300, 5],
    ['morning only, before the break', '2024-03-15T09:00:00Z', '2024-03-15T11:20:00Z', 0, 2, 400, 140, 2.33],
    // never negative
    ['clock-out before clock-in', '2024-03-15T10:00:00Z', '2024-03-15T09:00:00Z', 60, 2, 540, 0, 0],
    ['within one minute', '2024-03-15T09:00:10Z', '2024-03-15T09:00:50Z', 0, 2, 540, 0, 0],
  ])

  clockOutCases('with 7 h required', { ...dayShift, requiredWorkHours: 7 }, 'UTC', '2024-03-15', [
    ['grace: on time', '2024-03-15T09:00:00Z', '2024-03-15T17:55:00Z', 0, 0, 0, 475, 7.92],
  ])

  clockOutCases('with 9 h required', { ...dayShift, requiredWorkHours: 9 }, 'UTC', '2024-03-15', [
    ['a full day is short', '2024-03-15T09:00:00Z', '2024-03-15T18:00:00Z', 0, 4, 0, 480, 8],
  ])

  clockOutCases('early grace 0', { ...dayShift, earlyGrace: 0 }, 'UTC', '2024-03-15', [
    ['a minute early', '2024-03-15T09:00:00Z', '2024-03-15T17:59:59Z', 0, 2, 1, 479, 7.98],
    ['on time', '2024-03-15T09:00:00Z', '2024-03-15T18:00:00Z', 0, 0, 0, 480, 8],
  ])

  clockOutCases('early grace 30, 7 h required', { ...dayShift, earlyGrace: 30, requiredWorkHours: 7 }, 'UTC', '2024-03-15', [
    ['grace − 1', '2024-03-15T09:00:00Z', '2024-03-15T17:31:00Z', 0, 0, 0, 451, 7.52],
    ['grace', '2024-03-15T09:00:00Z', '2024-03-15T17:30:00Z', 0, 0, 0, 450, 7.5],
    ['grace + 1', '2024-03-15T09:00:00Z', '2024-03-15T17:29:00Z', 0, 2, 31, 449, 7.48],
  ])

  // 7.5 h = 450 minutes
  clockOutCases('7.5 h required, break 12:00–13:30', { ...dayShift, breakEnd: '13:30', requiredWorkHours: 7.5 }, 'UTC', '2024-03-15', [
    ['reached exactly', '2024-03-15T09:00:00Z', '2024-03-15T18:00:00Z', 0, 0, 0, 450, 7.5],
  ])
  clockOutCases('7.5 h required, break 12:00–13:31', { ...dayShift, breakEnd: '13:31', requiredWorkHours: 7.5 }, 'UTC', '2024-03-15', [
    ['missed by a minute', '2024-03-15T09:00:00Z', '2024-03-15T18:00:00Z', 0, 4, 0, 449, 7.48],
  ])

  clockOutCases('no break', { ...dayShift, ...noBreak }, 'UTC', '2024-03-15', [
    ['a full day', '2024-03-15T09:00:00Z', '2024-03-15T18:00:00Z', 0, 0, 0, 540, 9],
  ])
  clockOutCases('break end missing: no break', { ...dayShift, breakEnd: null }, 'UTC', '2024-03-15', [
    ['a full day', '2024-03-15T09:00:00Z', '2024-03-15T18:00:00Z', 0, 0, 0, 540, 9],
  ])

  clockOutCases('flexible, 8 h', flexible, 'UTC', '2024-03-15', [
    ['reached', '2024-03-15T10:00:00Z', '2024-03-15T19:00:00Z', 0, 0, 0, 480, 8],
    ['reached before workEnd', '2024-03-15T07:00:00Z', '2024-03-15T16:00:00Z', 0, 0, 0, 480, 8],
    ['an hour short', '2024-03-15T10:00:00Z', '2024-03-15T18:00:00Z', 0, 2, 60, 420, 7],
    ['a minute short', '2024-03-15T10:00:00Z', '2024-03-15T18:59:59Z', 0, 2, 1, 479, 7.98],
    ['lateness passed in is ignored', '2024-03-15T10:00:00Z', '2024-03-15T19:00:00Z', 60, 0, 0, 480, 8],
  ])
  clockOutCases('flexible, 7.5 h', { ...flexible, requiredWorkHours: 7.5 }, 'UTC', '2024-03-15', [
    ['half an hour short', '2024-03-15T10:00:00Z', '2024-03-15T18:00:00Z', 0, 2, 30, 420, 7],
    ['reached exactly', '2024-03-15T10:00:00Z', '2024-03-15T18:30:00Z', 0, 0, 0, 450, 7.5],
  ])

  // a non-work day: hours still counted, no status
  clockOutCases('Saturday', dayShift, 'UTC', '2024-03-16', [
    ['short and early', '2024-03-16T10:00:00Z', '2024-03-16T12:30:00Z', 0, 0, 0, 120, 2],
  ])
  clockOutCases('flexible on Saturday', flexible, 'UTC', '2024-03-16', [
    ['short', '2024-03-16T10:00:00Z', '2024-03-16T11:00:00Z', 0, 0, 0, 60, 1],
  ])

  // the 02:00–02:30 break falls on the day after the work date
  clockOutCases('22:00–06:00, break 02:00–02:30, grace 5, 7.5 h, UTC', nightShift, 'UTC', '2024-03-14', [
    ['a full night after midnight', '2024-03-14T21:55:00Z', '2024-03-15T06:00:00Z', 0, 0, 0, 455, 7.58],
    ['grace: not early, but short', '2024-03-14T22:00:00Z', '2024-03-15T05:55:00Z', 0, 4, 0, 445, 7.42],
    ['grace + 1: early', '2024-03-14T22:00:00Z', '2024-03-15T05:54:00Z', 0, 2, 6, 444, 7.4],
    ['late after midnight', '2024-03-15T00:30:00Z', '2024-03-15T06:00:00Z', 150, 1, 0, 300, 5],
    ['clock-out inside the break', '2024-03-14T22:00:00Z', '2024-03-15T02:15:00Z', 0, 2, 225, 240, 4],
    ['clock-in inside the break', '2024-03-15T02:10:00Z', '2024-03-15T06:00:00Z', 250, 1, 0, 210, 3.5],
    ['clock-out as the break starts', '2024-03-14T22:00:00Z', '2024-03-15T02:00:00Z', 0, 2, 240, 240, 4],
  ])

  clockOutCases(
    '22:00–06:00, break 23:30–00:30 across midnight',
    { ...nightShift, breakStart: '23:30', breakEnd: '00:30' },
    'UTC',
    '2024-03-14',
    [
      ['a full night', '2024-03-14T22:00:00Z', '2024-03-15T06:00:00Z', 0, 4, 0, 420, 7],
      ['clock-in at midnight', '2024-03-15T00:00:00Z', '2024-03-15T06:00:00Z', 120, 1, 0, 330, 5.5],
    ],
  )

  const lateDay: PolicyRule = { ...dayShift, workStart: '16:00', workEnd: '23:59', breakStart: '23:30', breakEnd: '00:30' }
  clockOutCases('16:00–23:59, break 23:30–00:30 across midnight', lateDay, 'UTC', '2024-03-15', [
    ['staying past midnight', '2024-03-15T16:00:00Z', '2024-03-16T01:00:00Z', 0, 0, 0, 480, 8],
  ])

  clockOutCases('09:00–18:00, Shanghai', dayShift, SHANGHAI, '2024-03-15', [
    ['a full day', '2024-03-15T01:00:00Z', '2024-03-15T10:00:00Z', 0, 0, 0, 480, 8],
    ['leaving at 17:00', '2024-03-15T01:10:00Z', '2024-03-15T09:00:00Z', 10, 2, 60, 410, 6.83],
  ])
  clockOutCases('22:00–06:00, Shanghai', nightShift, SHANGHAI, '2024-03-14', [
    ['late after midnight', '2024-03-14T16:30:00Z', '2024-03-14T22:00:00Z', 150, 1, 0, 300, 5],
  ])
  clockOutCases('09:00–18:00, Auckland', dayShift, AUCKLAND, '2024-03-15', [
    ['a full day', '2024-03-14T20:00:00Z', '2024-03-15T05:00:00Z', 0, 0, 0, 480, 8],
  ])

  // elapsed time is real time across a DST change
  clockOutCases('08:00–17:00, New York, spring forward', newYorkDay, NEW_YORK, '2024-03-10', [
    ['a full day', '2024-03-10T12:00:00Z', '2024-03-10T21:00:00Z', 0, 0, 0, 480, 8],
  ])
  clockOutCases('00:00–06:00, 6 h, New York, spring forward', newYorkEarly, NEW_YORK, '2024-03-10', [
    ['the whole shift is 5 h: short', '2024-03-10T05:00:00Z', '2024-03-10T10:00:00Z', 0, 4, 0, 300, 5],
    ['05:59 EDT: a minute early', '2024-03-10T05:00:00Z', '2024-03-10T09:59:00Z', 0, 2, 1, 299, 4.98],
  ])
  clockOutCases('00:00–06:00, 6 h, New York, fall back', newYorkEarly, NEW_YORK, '2024-11-03', [
    ['the whole shift is 7 h', '2024-11-03T04:00:00Z', '2024-11-03T11:00:00Z', 0, 0, 0, 420, 7],
  ])
  clockOutCases('00:00–06:00, 6 h, New York, an ordinary Saturday', newYorkEarly, NEW_YORK, '2024-03-09', [
    ['the whole shift is 6 h', '2024-03-09T05:00:00Z', '2024-03-09T11:00:00Z', 0, 0, 0, 360, 6],
  ])
  // 02:00–02:30 does not exist on spring-forward night, and comes once, in EST, on fall-back night
  clockOutCases('22:00–06:00, New York, into spring forward', newYorkNight, NEW_YORK, '2024-03-09', [
    ['7 real hours, no break', '2024-03-10T03:00:00Z', '2024-03-10T10:00:00Z', 0, 4, 0, 420, 7],
  ])
  clockOutCases('22:00–06:00, New York, into fall back', newYorkNight, NEW_YORK, '2024-11-02', [
    ['9 real hours, 30 min break', '2024-11-03T02:00:00Z', '2024-11-03T11:00:00Z', 0, 0, 0, 510, 8.5],
  ])
})

describe('worked minutes', () => {
  const ambiguousBreak: PolicyRule = { ...newYorkNight, breakStart: '01:00', breakEnd: '01:30' }
  test.each([
    [
      'an ambiguous break is the first 01:00–01:30',
      ambiguousBreak,
      NEW_YORK,
      '2024-11-02',
      '2024-11-03T05:00:00Z',
      '2024-11-03T06:00:00Z',
      30,
    ],
    ['the second 01:00–01:30 is worked', ambiguousBreak, NEW_YORK, '2024-11-02', '2024-11-03T06:00:00Z', '2024-11-03T06:30:00Z', 30],
    ['only the break of that work date counts', dayShift, 'UTC', '2024-03-15', '2024-03-16T12:00:00Z', '2024-03-16T13:00:00Z', 60],
    ['the break is local time', dayShift, SHANGHAI, '2024-03-15', '2024-03-15T03:00:00Z', '2024-03-15T06:00:00Z', 120],
    ['a whole day without a break', { ...dayShift, ...noBreak }, 'UTC', '2024-03-15', '2024-03-15T09:00:00Z', '2024-03-16T09:00:00Z', 1440],
  ])('%s', (_name, rule, zone, workDate, clockIn, clockOut, minutes) => {
    expect(workedMinutes(rule, zone, workDate, new Date(clockIn), new Date(clockOut))).toBe(minutes)
  })
})

describe('hours of minutes', () => {
  test.each([
    [0, 0],
    [1, 0.02],
    [2, 0.03],
    [20, 0.33],
    [30, 0.5],
    [40, 0.67],
    [59, 0.98],
    [60, 1],
    [61, 1.02],
    [100, 1.67],
    [450, 7.5],
    [455, 7.58],
    [475, 7.92],
    [479, 7.98],
    [1439, 23.98],
  ])('%p min → %p h', (minutes, hours) => {
    expect(hoursOf(minutes)).toBe(hours)
  })
})

// Issue 20: a group's rules together decide a clock-in's work date and rule.
describe('the shift a clock-in belongs to, among a group’s rules', () => {
  const nights: PolicyRule = { ...nightShift, workDays: weekdays }
  const weekendDays: PolicyRule = { ...dayShift, workStart: '09:00', workEnd: '17:00', workDays: [6, 7] }
  const saturdayNights: PolicyRule = { ...nightShift, workStart: '23:00', workEnd: '07:00', workDays: [6] }
  const named = new Map<PolicyRule, string>([
    [nights, 'nights'],
    [weekendDays, 'weekend days'],
    [dayShift, 'day shift'],
    [saturdayNights, 'saturday nights'],
    [nightShift, 'night shift'],
  ])
  const itself = (rule: PolicyRule) => rule
  test.each([
    // 2024-03-15 is a Friday
    ['Friday 21:55: Friday night', [nights, weekendDays], 'UTC', '2024-03-15T21:55:00Z', '2024-03-15', 'nights'],
    ['Saturday 05:59: still Friday night', [nights, weekendDays], 'UTC', '2024-03-16T05:59:00Z', '2024-03-15', 'nights'],
    ['Saturday 06:00: Saturday, under the weekend rule', [nights, weekendDays], 'UTC', '2024-03-16T06:00:00Z', '2024-03-16', 'weekend days'],
    ['Sunday 00:30: Sunday (Saturday is a day rule)', [nights, weekendDays], 'UTC', '2024-03-17T00:30:00Z', '2024-03-17', 'weekend days'],
    ['Monday 00:30: Monday night, early (Sunday is a day rule)', [nights, weekendDays], 'UTC', '2024-03-18T00:30:00Z', '2024-03-18', 'nights'],
    ['Tuesday 00:30: Monday night', [nights, weekendDays], 'UTC', '2024-03-19T00:30:00Z', '2024-03-18', 'nights'],
    ['Shanghai Saturday 05:00 is Friday 21:00 UTC', [nights, weekendDays], SHANGHAI, '2024-03-15T21:00:00Z', '2024-03-15', 'nights'],
    ['a day rule, then a night rule on Saturday: Sunday 06:30 is Saturday night', [dayShift, saturdayNights], 'UTC', '2024-03-17T06:30:00Z', '2024-03-16', 'saturday nights'],
    ['the same at 07:00: Sunday, under the first rule', [dayShift, saturdayNights], 'UTC', '2024-03-17T07:00:00Z', '2024-03-17', 'day shift'],
    ['one overnight rule: Sunday 00:30 is Saturday night, a day off', [nightShift], 'UTC', '2024-03-17T00:30:00Z', '2024-03-16', 'night shift'],
  ])('%s', (_name, rules, zone, at, workDate, rule) => {
    const shift = shiftAt(rules, itself, zone, new Date(at))
    expect(shift && { workDate: shift.workDate, rule: named.get(shift.rule) }).toEqual({ workDate, rule })
  })

  test('no rules: no shift', () => {
    expect(shiftAt([], itself, 'UTC', new Date('2024-03-15T09:00:00Z'))).toBeNull()
  })

  test.each([
    ['Friday', '2024-03-15', 'nights'],
    ['Saturday', '2024-03-16', 'weekend days'],
    ['Sunday', '2024-03-17', 'weekend days'],
  ])('the rule that applies on a %s', (_day, date, rule) => {
    expect(named.get(ruleOn([nights, weekendDays], itself, date)!)).toBe(rule)
  })

  test('a weekday no rule names falls to the first rule', () => {
    expect(named.get(ruleOn([weekendDays, nights], itself, '2024-03-15')!)).toBe('nights')
    expect(named.get(ruleOn([dayShift], itself, '2024-03-16')!)).toBe('day shift')
  })
})

describe('the shift a record keeps', () => {
  test('a day shift in Shanghai: its instants and the rule’s terms', () => {
    expect(shiftFor(dayShift, SHANGHAI, '2024-03-15')).toEqual({
      start: new Date('2024-03-15T01:00:00Z'),
      end: new Date('2024-03-15T10:00:00Z'),
      // clock-ins are dated the 15th until its local midnight
      workDateEnd: new Date('2024-03-15T16:00:00Z'),
      breakStart: new Date('2024-03-15T04:00:00Z'),
      breakEnd: new Date('2024-03-15T05:00:00Z'),
      lateGrace: 5,
      earlyGrace: 5,
      requiredWorkHours: 8,
      flexible: false,
      workDay: true,
      overtimeFrom: new Date('2024-03-15T10:00:00Z'),
      overtimeThreshold: 30,
    } satisfies Shift)
  })

  test('a night shift on a day off, without a break', () => {
    expect(shiftFor({ ...nightShift, ...noBreak }, 'UTC', '2024-03-16')).toEqual({
      start: new Date('2024-03-16T22:00:00Z'),
      end: new Date('2024-03-17T06:00:00Z'),
      // … and until the night shift's end
      workDateEnd: new Date('2024-03-17T06:00:00Z'),
      breakStart: null,
      breakEnd: null,
      lateGrace: 5,
      earlyGrace: 5,
      requiredWorkHours: 7.5,
      flexible: false,
      workDay: false,
      overtimeFrom: new Date('2024-03-17T06:00:00Z'),
      overtimeThreshold: 30,
    } satisfies Shift)
  })

  test('judged by the kept shift, not by the rule as it is now', () => {
    const kept = shiftFor(dayShift, 'UTC', '2024-03-15')
    const clockIn = new Date('2024-03-15T09:06:00Z')
    expect(judgeClockIn(kept, clockIn)).toEqual({ status: 1, lateMinutes: 6 })
    // the rule was since moved to 08:00–17:00 without a break: the kept shift still says 18:00 and 12:00–13:00
    expect(judgeClockOut(kept, clockIn, new Date('2024-03-15T17:30:00Z'), 6)).toEqual({
      status: 2,
      earlyMinutes: 30,
      workMinutes: 444,
      workHours: 7.4,
      overtimeMinutes: 0,
    })
  })
})

describe('day close closes a shift at the local midnight after it ends', () => {
  test.each([
    ['a day shift, UTC', '2024-03-15T18:00:00Z', 'UTC', '2024-03-16T00:00:00Z'],
    ['a night shift ending on Saturday morning', '2024-03-16T06:00:00Z', 'UTC', '2024-03-17T00:00:00Z'],
    ['a shift ending at midnight closes then', '2024-03-16T00:00:00Z', 'UTC', '2024-03-17T00:00:00Z'],
    ['Shanghai 18:00 (10:00Z)', '2024-03-15T10:00:00Z', SHANGHAI, '2024-03-15T16:00:00Z'],
    ['New York, the night into spring forward', '2024-03-10T10:00:00Z', NEW_YORK, '2024-03-11T04:00:00Z'],
    ['New York, the night into fall back', '2024-11-03T11:00:00Z', NEW_YORK, '2024-11-04T05:00:00Z'],
  ])('%s', (_name, end, zone, closes) => {
    expect(closesAt(new Date(end), zone)).toEqual(new Date(closes))
  })
})

describe('required hours compare with the hours as shown', () => {
  // 09:00–17:50 with a 12:00–12:30 break is 500 minutes, shown as 8.33 hours
  const fine: PolicyRule = { ...dayShift, workEnd: '17:50', breakEnd: '12:30', lateGrace: 0, earlyGrace: 0, requiredWorkHours: 8.34 }
  clockOutCases('8.34 h required', fine, 'UTC', '2024-03-15', [
    ['8.33 h is short', '2024-03-15T09:00:00Z', '2024-03-15T17:50:00Z', 0, 4, 0, 500, 8.33],
    ['8.35 h is enough', '2024-03-15T08:59:00Z', '2024-03-15T17:50:00Z', 0, 0, 0, 501, 8.35],
  ])
  clockOutCases('8.34 h required, flexible', { ...fine, flexible: true }, 'UTC', '2024-03-15', [
    ['short by the one minute 8.33 h lacks', '2024-03-15T09:00:00Z', '2024-03-15T17:50:00Z', 0, 2, 1, 500, 8.33],
    ['enough', '2024-03-15T08:59:00Z', '2024-03-15T17:50:00Z', 0, 0, 0, 501, 8.35],
  ])
  clockOutCases('8.33 h required', { ...fine, requiredWorkHours: 8.33 }, 'UTC', '2024-03-15', [
    ['8.33 h is enough', '2024-03-15T09:00:00Z', '2024-03-15T17:50:00Z', 0, 0, 0, 500, 8.33],
  ])

  test.each([
    [0, 0],
    [0.01, 1],
    [0.02, 1],
    [0.03, 2],
    [1, 60],
    [7.5, 450],
    [8, 480],
    [8.33, 500],
    [8.34, 501],
    [8.335, 501],
    [24, 1440],
  ])('%p h needs %p whole minutes', (hours, minutes) => {
    expect(requiredMinutes(hours)).toBe(minutes)
    expect(hoursOf(minutes)).toBeGreaterThanOrEqual(hours)
    if (minutes > 0) expect(hoursOf(minutes - 1)).toBeLessThan(hours)
  })
})

describe('hundredths of an hour', () => {
  test('the SQL statistics sum, (minutes × 5 + 1) / 3 in integers, is the same rounding for every minute of two days', () => {
    for (let minutes = 0; minutes <= 2880; minutes++) expect(Math.floor((minutes * 5 + 1) / 3)).toBe(hundredthsOf(minutes))
  })
})
