import { describe, expect, test } from 'bun:test'
import { halfDayShift, judgeClockIn, judgeClockOut, shiftFor, type PolicyRule } from '../../src/modules/attendance/policy'

/*
 * CONTRACT §9: on a half day of approved leave, lateness runs from the break's end (morning off;
 * from the middle of the work hours without a break), early leave from the break's start
 * (afternoon off), and half the required hours are required. 2024-03-14 is a Thursday.
 */

const UTC = 'UTC'
const DATE = '2024-03-14'
const at = (hhmm: string, date = DATE) => new Date(`${date}T${hhmm}:00.000Z`)
const office: PolicyRule = {
  workStart: '09:00',
  workEnd: '18:00',
  breakStart: '12:00',
  breakEnd: '13:00',
  lateGrace: 5,
  earlyGrace: 5,
  requiredWorkHours: 8,
  overtimeThreshold: 30,
  workDays: [1, 2, 3, 4, 5],
  flexible: false,
}
const noBreak: PolicyRule = { ...office, breakStart: null, breakEnd: null, requiredWorkHours: 7 }
// 08:00 to 17:01: the middle is 12:30 (the half minute dropped)
const oddLength: PolicyRule = { ...noBreak, workStart: '08:00', workEnd: '17:01' }
const overnight: PolicyRule = { ...office, workStart: '22:00', workEnd: '06:00', breakStart: '02:00', breakEnd: '02:30', requiredWorkHours: 7.5 }
const flexible: PolicyRule = { ...office, flexible: true }

describe('the shift of a half day', () => {
  const cases: [string, PolicyRule, 'am' | 'pm', { start: string; end: string; required: number }][] = [
    ['morning off: from the break’s end', office, 'am', { start: '13:00', end: '18:00', required: 4 }],
    ['afternoon off: until the break’s start', office, 'pm', { start: '09:00', end: '12:00', required: 4 }],
    ['morning off, no break: from the middle', noBreak, 'am', { start: '13:30', end: '18:00', required: 3.5 }],
    ['afternoon off, no break: until the middle', noBreak, 'pm', { start: '09:00', end: '13:30', required: 3.5 }],
    ['an odd number of minutes: the middle rounds down', oddLength, 'am', { start: '12:30', end: '17:01', required: 3.5 }],
  ]
  test.each(cases)('%s', (_, rule, off, expected) => {
    const shift = halfDayShift(shiftFor(rule, UTC, DATE), off)
    expect({ start: shift.start, end: shift.end, required: shift.requiredWorkHours }).toEqual({
      start: at(expected.start),
      end: at(expected.end),
      required: expected.required,
    })
  })

  test('an overnight shift: the morning off starts after the break, the next day', () => {
    const shift = halfDayShift(shiftFor(overnight, UTC, DATE), 'am')
    expect({ start: shift.start, end: shift.end, required: shift.requiredWorkHours }).toEqual({
      start: at('02:30', '2024-03-15'),
      end: at('06:00', '2024-03-15'),
      required: 3.75,
    })
  })

  test('a day off stays a day off (nothing to halve)', () => {
    const saturday = shiftFor(office, UTC, '2024-03-16')
    expect(halfDayShift(saturday, 'am')).toEqual(saturday)
  })

  test('the break, the grace periods and the rest are kept', () => {
    const whole = shiftFor(office, UTC, DATE)
    const half = halfDayShift(whole, 'pm')
    expect({ ...half, end: whole.end, requiredWorkHours: whole.requiredWorkHours }).toEqual(whole)
  })
})

describe('judging a half day', () => {
  const morningOff = halfDayShift(shiftFor(office, UTC, DATE), 'am')
  const afternoonOff = halfDayShift(shiftFor(office, UTC, DATE), 'pm')
  const noBreakMorningOff = halfDayShift(shiftFor(noBreak, UTC, DATE), 'am')

  const clockIns: [string, typeof morningOff, string, { status: 0 | 1; lateMinutes: number }][] = [
    ['morning off, 13:05: within the grace after the break', morningOff, '13:05', { status: 0, lateMinutes: 0 }],
    ['morning off, 13:06: late 6 minutes from the break’s end', morningOff, '13:06', { status: 1, lateMinutes: 6 }],
    ['morning off, 09:30: early is fine', morningOff, '09:30', { status: 0, lateMinutes: 0 }],
    ['no break, morning off, 13:40: late 10 minutes from the middle', noBreakMorningOff, '13:40', { status: 1, lateMinutes: 10 }],
    ['afternoon off, 09:06: late as on a whole day', afternoonOff, '09:06', { status: 1, lateMinutes: 6 }],
  ]
  test.each(clockIns)('clock-in: %s', (_, shift, time, expected) => expect(judgeClockIn(shift, at(time))).toEqual(expected))

  const clockOuts: [string, typeof morningOff, string, string, number, { status: 0 | 1 | 2 | 4; earlyMinutes: number; workHours: number }][] = [
    ['afternoon off, out at 12:00 after 09:00: 3 h of the 4 required', afternoonOff, '09:00', '12:00', 0, { status: 4, earlyMinutes: 0, workHours: 3 }],
    ['afternoon off, out at 11:54: early 6 minutes before the break', afternoonOff, '08:00', '11:54', 0, { status: 2, earlyMinutes: 6, workHours: 3.9 }],
    ['afternoon off, out at 11:55: within the grace', afternoonOff, '07:55', '11:55', 0, { status: 0, earlyMinutes: 0, workHours: 4 }],
    ['morning off, 13:00 to 17:55: more than the 4 required hours', morningOff, '13:00', '17:55', 0, { status: 0, earlyMinutes: 0, workHours: 4.92 }],
    ['morning off, out at 17:54: early 6 minutes', morningOff, '13:00', '17:54', 0, { status: 2, earlyMinutes: 6, workHours: 4.9 }],
    ['morning off, late and otherwise fine: late', morningOff, '13:10', '18:00', 10, { status: 1, earlyMinutes: 0, workHours: 4.83 }],
  ]
  test.each(clockOuts)('clock-out: %s', (_, shift, from, to, late, expected) => {
    const { status, earlyMinutes, workHours } = judgeClockOut(shift, at(from), at(to), late)
    expect({ status, earlyMinutes, workHours }).toEqual(expected)
  })

  test('flexible rules: no lateness, and half the hours make the day', () => {
    const shift = halfDayShift(shiftFor(flexible, UTC, DATE), 'am')
    expect(judgeClockIn(shift, at('15:00'))).toEqual({ status: 0, lateMinutes: 0 })
    expect(judgeClockOut(shift, at('13:00'), at('17:00'), 0)).toMatchObject({ status: 0, earlyMinutes: 0 })
    expect(judgeClockOut(shift, at('13:00'), at('16:30'), 0)).toMatchObject({ status: 2, earlyMinutes: 30 })
  })
})
