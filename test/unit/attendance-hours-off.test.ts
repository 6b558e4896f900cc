import { describe, expect, test } from 'bun:test'
import { hoursOffShift, judgeClockIn, judgeClockOut, judgeRecord, shiftFor, type PolicyRule, type Shift } from '../../src/modules/attendance/policy'
import { hoursOffOn, type HoursSpan } from '../../src/modules/attendance/records'

/*
 * CONTRACT §18: hours of approved leave on a work date. Leave from the shift's start moves the
 * start (lateness runs from the leave's end), leave up to its end moves the end (early leave runs
 * to the leave's start), leave in between moves neither; the required hours drop by the work time
 * the spans cover, breaks excluded. 2024-03-14 is a Thursday; times are UTC.
 */

const UTC = 'UTC'
const DATE = '2024-03-14'
const NEXT = '2024-03-15'
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
const noBreak: PolicyRule = { ...office, breakStart: null, breakEnd: null, requiredWorkHours: 7.5 }
const overnight: PolicyRule = { ...office, workStart: '22:00', workEnd: '06:00', breakStart: '02:00', breakEnd: '02:30', requiredWorkHours: 7.5 }
const flexible: PolicyRule = { ...office, flexible: true }

const spans = (...pairs: [string, string][]): HoursSpan[] => pairs.map(([startTime, endTime]) => ({ startTime, endTime }))
/** The shift of DATE under the rule with the spans on leave, as clock-in builds it (records.ts `shiftOfDay`). */
const shiftWith = (rule: PolicyRule, ...pairs: [string, string][]): Shift =>
  hoursOffShift(shiftFor(rule, UTC, DATE), hoursOffOn(rule, UTC, DATE, spans(...pairs)))

describe('the spans as instants, with the work time each covers', () => {
  const cases: [string, PolicyRule, [string, string], { start: Date; end: Date; minutes: number } | null][] = [
    ['in the morning', office, ['09:00', '11:00'], { start: at('09:00'), end: at('11:00'), minutes: 120 }],
    ['across the break: 11:00–14:00 less 12:00–13:00 is 2 h', office, ['11:00', '14:00'], { start: at('11:00'), end: at('14:00'), minutes: 120 }],
    ['inside the break: no work time', office, ['12:10', '12:50'], { start: at('12:10'), end: at('12:50'), minutes: 0 }],
    ['before the work hours: only the part inside counts', office, ['08:00', '10:00'], { start: at('08:00'), end: at('10:00'), minutes: 60 }],
    ['no break: all of it', noBreak, ['11:00', '14:00'], { start: at('11:00'), end: at('14:00'), minutes: 180 }],
    ['overnight, after midnight: the next morning', overnight, ['03:00', '06:00'], { start: at('03:00', NEXT), end: at('06:00', NEXT), minutes: 180 }],
    ['overnight, across its break', overnight, ['01:00', '03:00'], { start: at('01:00', NEXT), end: at('03:00', NEXT), minutes: 90 }],
    ['overnight, before midnight', overnight, ['22:00', '23:30'], { start: at('22:00'), end: at('23:30'), minutes: 90 }],
    ['overnight, a span that runs backwards on the shift’s line is left out', overnight, ['21:00', '23:00'], null],
  ]
  test.each(cases)('%s', (_, rule, pair, expected) => {
    expect(hoursOffOn(rule, UTC, DATE, spans(pair))).toEqual(expected ? [expected] : [])
  })

  test('in a zone: local times of the work date', () => {
    expect(hoursOffOn(office, 'Asia/Shanghai', DATE, spans(['09:00', '11:00']))).toEqual([
      { start: new Date('2024-03-14T01:00:00.000Z'), end: new Date('2024-03-14T03:00:00.000Z'), minutes: 120 },
    ])
  })
})

describe('the shift with hours of it on leave', () => {
  const cases: [string, PolicyRule, [string, string][], { start: string; end: string; required: number }][] = [
    ['from the start: the shift starts when the leave ends', office, [['09:00', '11:00']], { start: '11:00', end: '18:00', required: 6 }],
    ['to the end: the shift ends when the leave starts', office, [['16:00', '18:00']], { start: '09:00', end: '16:00', required: 6 }],
    ['in the middle: only the required hours drop', office, [['14:00', '15:30']], { start: '09:00', end: '18:00', required: 6.5 }],
    ['across the break, in the middle: 2 h of work time', office, [['11:00', '14:00']], { start: '09:00', end: '18:00', required: 6 }],
    ['from before the start: covers it, counts from 09:00', office, [['08:00', '10:00']], { start: '10:00', end: '18:00', required: 7 }],
    ['beyond the end: covers it', office, [['17:00', '19:00']], { start: '09:00', end: '17:00', required: 7 }],
    ['a morning up to the break: the start moves on to the break’s end', office, [['09:00', '12:00']], { start: '13:00', end: '18:00', required: 5 }],
    ['ending inside the break: the same', office, [['09:00', '12:30']], { start: '13:00', end: '18:00', required: 5 }],
    ['an afternoon from the break: the end moves back to the break’s start', office, [['13:00', '18:00']], { start: '09:00', end: '12:00', required: 3 }],
    ['two spans one after the other from the start', office, [['10:00', '11:00'], ['09:00', '10:00']], { start: '11:00', end: '18:00', required: 6 }],
    ['spans on either side of the break from the start', office, [['09:00', '12:00'], ['13:00', '14:00']], { start: '14:00', end: '18:00', required: 4 }],
    ['a gap: the second span does not move the start', office, [['09:00', '10:00'], ['10:30', '11:00']], { start: '10:00', end: '18:00', required: 6.5 }],
    ['both ends', office, [['09:00', '10:00'], ['17:00', '18:00']], { start: '10:00', end: '17:00', required: 6 }],
    ['one minute after the start does not cover it', office, [['09:01', '11:00']], { start: '09:00', end: '18:00', required: 6.02 }],
    ['an odd length: the hours rounded up to the hundredth', noBreak, [['14:00', '16:05']], { start: '09:00', end: '18:00', required: 5.42 }],
    ['no break: no jump past a break', noBreak, [['09:00', '12:00']], { start: '12:00', end: '18:00', required: 4.5 }],
    ['only the break: nothing moves, nothing drops', office, [['12:00', '13:00']], { start: '09:00', end: '18:00', required: 8 }],
  ]
  test.each(cases)('%s', (_, rule, pairs, expected) => {
    const shift = shiftWith(rule, ...pairs)
    expect({ start: shift.start, end: shift.end, required: shift.requiredWorkHours }).toEqual({
      start: at(expected.start),
      end: at(expected.end),
      required: expected.required,
    })
  })

  test('more leave than the required hours: never below 0', () => {
    const short: PolicyRule = { ...office, requiredWorkHours: 2 }
    expect(shiftWith(short, ['14:00', '17:00']).requiredWorkHours).toBe(0)
  })

  test('an overnight shift: leave to its end the next morning', () => {
    const shift = shiftWith(overnight, ['04:00', '06:00'])
    expect({ start: shift.start, end: shift.end, required: shift.requiredWorkHours }).toEqual({
      start: at('22:00'),
      end: at('04:00', NEXT),
      required: 5.5,
    })
  })

  test('the whole shift on leave: flexible, nothing required, start and end kept', () => {
    const whole = shiftFor(office, UTC, DATE)
    const shift = shiftWith(office, ['09:00', '12:00'], ['13:00', '18:00'])
    expect(shift).toEqual({ ...whole, flexible: true, requiredWorkHours: 0 })
    expect(judgeClockIn(shift, at('11:00'))).toEqual({ status: 0, lateMinutes: 0 })
    expect(judgeClockOut(shift, at('11:00'), at('11:20'), 0)).toMatchObject({ status: 0, earlyMinutes: 0 })
  })

  test('a day off stays as it is', () => {
    const saturday = shiftFor(office, UTC, '2024-03-16')
    expect(hoursOffShift(saturday, hoursOffOn(office, UTC, '2024-03-16', spans(['09:00', '11:00'])))).toEqual(saturday)
  })

  test('no spans: the shift itself', () => {
    const whole = shiftFor(office, UTC, DATE)
    expect(hoursOffShift(whole, [])).toBe(whole)
  })

  test('the break, the grace periods, the overtime start and the rest are kept', () => {
    const whole = shiftFor(office, UTC, DATE)
    const shift = shiftWith(office, ['09:00', '10:00'], ['16:00', '18:00'])
    expect({ ...shift, start: whole.start, end: whole.end, requiredWorkHours: whole.requiredWorkHours }).toEqual(whole)
    expect(shift.overtimeFrom).toEqual(at('18:00'))
  })
})

describe('judging a date with hours of leave', () => {
  const morning = shiftWith(office, ['09:00', '11:00'])
  const evening = shiftWith(office, ['16:00', '18:00'])
  const middle = shiftWith(office, ['14:00', '15:00'])

  const clockIns: [string, Shift, string, { status: 0 | 1; lateMinutes: number }][] = [
    ['09:00–11:00 off, in at 11:03: within the grace from 11:00', morning, '11:03', { status: 0, lateMinutes: 0 }],
    ['09:00–11:00 off, in at 11:05: the last minute of grace', morning, '11:05', { status: 0, lateMinutes: 0 }],
    ['09:00–11:00 off, in at 11:06: late 6 minutes from 11:00', morning, '11:06', { status: 1, lateMinutes: 6 }],
    ['09:00–11:00 off, in at 10:00: early is fine', morning, '10:00', { status: 0, lateMinutes: 0 }],
    ['16:00–18:00 off, in at 09:10: late as on a whole day', evening, '09:10', { status: 1, lateMinutes: 10 }],
    ['14:00–15:00 off, in at 09:06: late as on a whole day', middle, '09:06', { status: 1, lateMinutes: 6 }],
  ]
  test.each(clockIns)('clock-in: %s', (_, shift, time, expected) => expect(judgeClockIn(shift, at(time))).toEqual(expected))

  const clockOuts: [string, Shift, string, string, number, { status: 0 | 1 | 2 | 4; earlyMinutes: number; workHours: number }][] = [
    ['09:00–11:00 off, 11:00 to 18:00: 6 h of the 6 required', morning, '11:00', '18:00', 0, { status: 0, earlyMinutes: 0, workHours: 6 }],
    ['09:00–11:00 off, out at 17:54: early 6 minutes', morning, '11:00', '17:54', 0, { status: 2, earlyMinutes: 6, workHours: 5.9 }],
    ['16:00–18:00 off, out at 16:00: normal', evening, '09:00', '16:00', 0, { status: 0, earlyMinutes: 0, workHours: 6 }],
    ['16:00–18:00 off, out at 15:55: within the grace, but short', evening, '09:00', '15:55', 0, { status: 4, earlyMinutes: 0, workHours: 5.92 }],
    ['16:00–18:00 off, out at 15:54: early 6 minutes before 16:00', evening, '09:00', '15:54', 0, { status: 2, earlyMinutes: 6, workHours: 5.9 }],
    ['14:00–15:00 off, 09:00 to 18:00 through it: normal', middle, '09:00', '18:00', 0, { status: 0, earlyMinutes: 0, workHours: 8 }],
    ['14:00–15:00 off, out at 17:00: the end does not move, early 60 minutes', middle, '09:00', '17:00', 0, { status: 2, earlyMinutes: 60, workHours: 7 }],
    ['09:00–11:00 off, late and otherwise fine: late', morning, '11:10', '18:00', 10, { status: 1, earlyMinutes: 0, workHours: 5.83 }],
  ]
  test.each(clockOuts)('clock-out: %s', (_, shift, from, to, late, expected) => {
    const { status, earlyMinutes, workHours } = judgeClockOut(shift, at(from), at(to), late)
    expect({ status, earlyMinutes, workHours }).toEqual(expected)
  })

  test('overtime still counts from the rule’s work end', () => {
    expect(judgeClockOut(evening, at('09:00'), at('18:40'), 0).overtimeMinutes).toBe(40)
  })

  test('a record judged as a whole (corrections, the history import) by the same shift', () => {
    expect(judgeRecord(morning, at('10:58'), at('18:00'), true)).toEqual({ status: 0, lateMinutes: 0, earlyMinutes: 0, workMinutes: 362, overtimeMinutes: 0 })
    expect(judgeRecord(morning, at('11:20'), null, true)).toEqual({ status: 4, lateMinutes: 20, earlyMinutes: 0, workMinutes: 0, overtimeMinutes: 0 })
  })

  test('flexible rules: no lateness, the hours left make the day', () => {
    const shift = shiftWith(flexible, ['09:00', '11:00'])
    expect(judgeClockIn(shift, at('14:00'))).toEqual({ status: 0, lateMinutes: 0 })
    expect(judgeClockOut(shift, at('13:00'), at('19:00'), 0)).toMatchObject({ status: 0, earlyMinutes: 0 })
    expect(judgeClockOut(shift, at('13:00'), at('18:30'), 0)).toMatchObject({ status: 2, earlyMinutes: 30 })
  })
})
