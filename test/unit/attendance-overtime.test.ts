import { describe, expect, test } from 'bun:test'
import {
  evaluateClockOut,
  halfDayShift,
  judgeClockOut,
  judgeRecord,
  overtimeOf,
  shiftFor,
  type ClockOut,
  type Judgement,
  type PolicyRule,
  type Shift,
} from '../../src/modules/attendance/policy'

/*
 * CONTRACT §11, overtime: on a work day the minutes from the rule's work end to the clock-out
 * (a flexible rule: the work time beyond the required hours), counted only when they reach the
 * rule's overtime_threshold_minutes, never more than the time worked; on any other day (a weekly
 * day off, a holiday) all the time worked, the break excluded, whatever the threshold. A half
 * day of leave moves the shift's end, not where overtime starts. And `judgeRecord`, the whole
 * record judged from its clock times as a correction recomputes it.
 *
 * UTC throughout; 2024-03-14 is a Thursday, 2024-03-16 a Saturday.
 */

const UTC = 'UTC'
const DATE = '2024-03-14'
const SATURDAY = '2024-03-16'
const at = (hhmm: string, date = DATE) => new Date(`${date}T${hhmm.length === 5 ? `${hhmm}:00` : hhmm}.000Z`)
const next = (hhmm: string) => at(hhmm, '2024-03-15')

const office: PolicyRule = {
  workStart: '09:00',
  workEnd: '18:00',
  breakStart: '12:00',
  breakEnd: '13:00',
  lateGrace: 5,
  earlyGrace: 5,
  requiredWorkHours: 8,
  workDays: [1, 2, 3, 4, 5],
  flexible: false,
  overtimeThreshold: 30,
}
const noThreshold: PolicyRule = { ...office, overtimeThreshold: 0 }
const hourThreshold: PolicyRule = { ...office, overtimeThreshold: 60 }
const flexible: PolicyRule = { ...office, flexible: true }
const overnight: PolicyRule = { ...office, workStart: '22:00', workEnd: '06:00', breakStart: '02:00', breakEnd: '02:30', requiredWorkHours: 7.5 }

const out = (status: ClockOut['status'], earlyMinutes: number, workMinutes: number, workHours: number, overtimeMinutes: number): ClockOut => ({
  status,
  earlyMinutes,
  workMinutes,
  workHours,
  overtimeMinutes,
})

describe('overtime at clock-out under a rule (evaluateClockOut)', () => {
  // rule, date, clock-in, clock-out, late minutes as the clock-in judged them, the whole clock-out verdict
  const cases: [string, PolicyRule, string, Date, Date, number, ClockOut][] = [
    // 09:00–18:29 = 569 − 60 break = 509 min = 8.48 h; 29 past the end is under the 30-minute default
    ['29 minutes past the end: under the default threshold → 0', office, DATE, at('09:00'), at('18:29'), 0, out(0, 0, 509, 8.48, 0)],
    ['18:29:59 is 29 minutes (seconds dropped) → 0', office, DATE, at('09:00'), at('18:29:59'), 0, out(0, 0, 509, 8.48, 0)],
    ['exactly 30 minutes past the end: counted', office, DATE, at('09:00'), at('18:30'), 0, out(0, 0, 510, 8.5, 30)],
    ['two hours past the end: all of them', office, DATE, at('09:00'), at('20:00'), 0, out(0, 0, 600, 10, 120)],
    ['a clock-out before the end (within the grace): none, and short of the hours', office, DATE, at('09:00'), at('17:58'), 0, out(4, 0, 478, 7.97, 0)],
    ['a late day still earns its overtime', office, DATE, at('09:20'), at('18:45'), 20, out(1, 0, 505, 8.42, 45)],
    ['threshold 0: one minute counts', noThreshold, DATE, at('09:00'), at('18:01'), 0, out(0, 0, 481, 8.02, 1)],
    ['threshold 0: leaving at the end is still none', noThreshold, DATE, at('09:00'), at('18:00'), 0, out(0, 0, 480, 8, 0)],
    ['threshold 60: 59 minutes → 0', hourThreshold, DATE, at('09:00'), at('18:59'), 0, out(0, 0, 539, 8.98, 0)],
    ['threshold 60: 60 minutes → 60', hourThreshold, DATE, at('09:00'), at('19:00'), 0, out(0, 0, 540, 9, 60)],
    // flexible: 8 h required = 480 min; the work end does not matter
    ['flexible: 29 minutes beyond the required hours → 0', flexible, DATE, at('10:00'), at('19:29'), 0, out(0, 0, 509, 8.48, 0)],
    ['flexible: 30 minutes beyond → 30', flexible, DATE, at('10:00'), at('19:30'), 0, out(0, 0, 510, 8.5, 30)],
    ['flexible: beyond the required hours though gone before the work end', flexible, DATE, at('07:00'), at('16:30'), 0, out(0, 0, 510, 8.5, 30)],
    ['flexible: short of the hours → early, no overtime', flexible, DATE, at('10:00'), at('17:00'), 0, out(2, 120, 360, 6, 0)],
    // Saturday is not in work_days: every minute worked, the break excluded, no threshold
    ['a day off: 20 minutes count, under the threshold', office, SATURDAY, at('10:00', SATURDAY), at('10:20', SATURDAY), 0, out(0, 0, 20, 0.33, 20)],
    ['a day off: the whole day, less the break', office, SATURDAY, at('09:00', SATURDAY), at('18:00', SATURDAY), 0, out(0, 0, 480, 8, 480)],
    // 22:00 → 06:00 the next morning, break 02:00–02:30
    ['overnight: 29 minutes past the next morning’s end → 0', overnight, DATE, at('22:00'), next('06:29'), 0, out(0, 0, 479, 7.98, 0)],
    ['overnight: 30 minutes past the next morning’s end → 30', overnight, DATE, at('22:00'), next('06:30'), 0, out(0, 0, 480, 8, 30)],
    ['overnight: two hours past the end', overnight, DATE, at('22:00'), next('08:00'), 0, out(0, 0, 570, 9.5, 120)],
    ['overnight: a clock-out before midnight is no overtime', overnight, DATE, at('22:00'), at('23:50'), 0, out(2, 370, 110, 1.83, 0)],
    // a clock-in after the work end: 19:00–19:45 is 105 minutes past 18:00, but only 45 were worked
    ['never more than the time worked: clock-in after the work end', office, DATE, at('19:00'), at('19:45'), 600, out(1, 0, 45, 0.75, 45)],
    ['never more than the time worked: threshold 0, 50 minutes past the end, 30 worked', noThreshold, DATE, at('18:20'), at('18:50'), 560, out(1, 0, 30, 0.5, 30)],
  ]
  test.each(cases)('%s', (_, rule, date, clockIn, clockOut, late, expected) => {
    expect(evaluateClockOut(rule, UTC, date, clockIn, clockOut, late)).toEqual(expected)
    // the same verdict through the shift the record keeps
    expect(judgeClockOut(shiftFor(rule, UTC, date), clockIn, clockOut, late)).toEqual(expected)
  })
})

describe('overtime on a shift the calendar or leave changed (judgeClockOut)', () => {
  const holiday = shiftFor(office, UTC, DATE, 'holiday')
  const makeUpSaturday = shiftFor(office, UTC, SATURDAY, 'workday')
  const afternoonOff = halfDayShift(shiftFor(office, UTC, DATE), 'pm')
  const morningOff = halfDayShift(shiftFor(office, UTC, DATE), 'am')

  const cases: [string, Shift, Date, Date, number, ClockOut][] = [
    ['a holiday: all the time worked, less the break, no threshold', holiday, at('09:00'), at('18:30'), 0, out(0, 0, 510, 8.5, 510)],
    ['a holiday: 25 minutes count too', holiday, at('14:00'), at('14:25'), 0, out(0, 0, 25, 0.42, 25)],
    ['a make-up Saturday is a work day: from the work end, with the threshold', makeUpSaturday, at('09:00', SATURDAY), at('18:40', SATURDAY), 0, out(0, 0, 520, 8.67, 40)],
    ['a make-up Saturday: under the threshold → 0', makeUpSaturday, at('09:00', SATURDAY), at('18:20', SATURDAY), 0, out(0, 0, 500, 8.33, 0)],
    // afternoon off: the shift ends at 12:00 (the break's start), overtime still from 18:00
    ['afternoon off, stayed until 18:30: 30 from the rule’s end, not 390 from noon', afternoonOff, at('09:00'), at('18:30'), 0, out(0, 0, 510, 8.5, 30)],
    ['afternoon off, left 12:45: 45 minutes past the halved end are no overtime', afternoonOff, at('08:00'), at('12:45'), 0, out(0, 0, 240, 4, 0)],
    ['morning off: from 13:00, overtime from 18:00', morningOff, at('13:00'), at('18:40'), 0, out(0, 0, 340, 5.67, 40)],
  ]
  test.each(cases)('%s', (_, shift, clockIn, clockOut, late, expected) => {
    expect(judgeClockOut(shift, clockIn, clockOut, late)).toEqual(expected)
  })

  test('a half day keeps the rule’s work end as where overtime starts', () => {
    const whole = shiftFor(office, UTC, DATE)
    expect(whole.overtimeFrom).toEqual(at('18:00'))
    expect({ end: afternoonOff.end, overtimeFrom: afternoonOff.overtimeFrom }).toEqual({ end: at('12:00'), overtimeFrom: at('18:00') })
    expect({ start: morningOff.start, overtimeFrom: morningOff.overtimeFrom }).toEqual({ start: at('13:00'), overtimeFrom: at('18:00') })
    // and the threshold is the rule's
    expect(shiftFor(hourThreshold, UTC, DATE).overtimeThreshold).toBe(60)
    expect(shiftFor(overnight, UTC, DATE).overtimeFrom).toEqual(next('06:00'))
  })
})

describe('overtimeOf', () => {
  const workDay = shiftFor(office, UTC, DATE)
  const dayOff = shiftFor(office, UTC, SATURDAY)
  const cases: [string, Shift, Date, number, number][] = [
    ['a work day: minutes from the work end', workDay, at('18:45'), 500, 45],
    // 45 minutes past the end but 10 worked: the threshold applies to the 10
    ['a work day: capped by the minutes worked, then under the threshold → 0', workDay, at('18:45'), 10, 0],
    ['a work day: capped by the minutes worked (80 past the end, 35 worked)', workDay, at('19:20'), 35, 35],
    ['a work day: before the end → 0', workDay, at('17:00'), 420, 0],
    ['a work day: nothing worked → 0', workDay, at('18:45'), 0, 0],
    ['a day off: the minutes worked, as given', dayOff, at('18:45'), 7, 7],
    ['a day off: nothing worked → 0', dayOff, at('18:45'), 0, 0],
  ]
  test.each(cases)('%s', (_, shift, clockOut, workMinutes, expected) => {
    expect(overtimeOf(shift, clockOut, workMinutes)).toBe(expected)
  })
})

describe('judgeRecord: a record as a whole from its clock times', () => {
  const workDay = shiftFor(office, UTC, DATE)
  const holiday = shiftFor(office, UTC, DATE, 'holiday')
  const flexibleDay = shiftFor(flexible, UTC, DATE)
  const night = shiftFor(overnight, UTC, DATE)
  const judged = (status: Judgement['status'], lateMinutes: number, earlyMinutes = 0, workMinutes = 0, overtimeMinutes = 0): Judgement => ({
    status,
    lateMinutes,
    earlyMinutes,
    workMinutes,
    overtimeMinutes,
  })

  // shift, clock-in, clock-out, closed (the day close has passed), the judgement
  const cases: [string, Shift, Date | null, Date | null, boolean, Judgement][] = [
    ['no clock-in: absent', workDay, null, null, false, judged(3, 0)],
    ['no clock-in, closed: absent', workDay, null, null, true, judged(3, 0)],
    ['no clock-in on a holiday: absent all the same (no times to judge)', holiday, null, null, true, judged(3, 0)],
    ['clock-in only, on time, open: the clock-in’s status', workDay, at('08:58'), null, false, judged(0, 0)],
    ['clock-in only, late, open: late, with its minutes', workDay, at('09:20'), null, false, judged(1, 20)],
    ['clock-in only, within the grace, open: on time', workDay, at('09:05'), null, false, judged(0, 0)],
    ['clock-in only, late, closed: an exception that keeps the late minutes', workDay, at('09:20'), null, true, judged(4, 20)],
    ['clock-in only, on time, closed: an exception', workDay, at('08:58'), null, true, judged(4, 0)],
    ['clock-in only on a flexible rule: never late', flexibleDay, at('11:00'), null, false, judged(0, 0)],
    ['both, late and overtime: the clock-out’s verdict', workDay, at('09:20'), at('18:40'), false, judged(1, 20, 0, 500, 40)],
    ['both, late and early: early wins', workDay, at('09:20'), at('17:00'), false, judged(2, 20, 60, 400, 0)],
    ['both, on time: normal; closed does not matter once clocked out', workDay, at('08:58'), at('18:00'), true, judged(0, 0, 0, 482, 0)],
    ['both, too few hours: 4', workDay, at('09:00'), at('17:55'), false, judged(4, 0, 0, 475, 0)],
    ['both on a holiday: normal, all the time is overtime', holiday, at('10:00'), at('12:30'), false, judged(0, 0, 0, 120, 120)],
    ['both overnight: 22:05 → 06:30, the break out', night, at('22:05'), next('06:30'), true, judged(0, 0, 0, 475, 30)],
  ]
  test.each(cases)('%s', (_, shift, clockIn, clockOut, closed, expected) => {
    expect(judgeRecord(shift, clockIn, clockOut, closed)).toEqual(expected)
  })
})
