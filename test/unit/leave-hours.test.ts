import { describe, expect, test } from 'bun:test'
import { figureOf, unitsPerHalfDay, workMinutesCovered, type WorkTimes } from '../../src/modules/leave/hours'

/*
 * Hourly leave (CONTRACT §18): a request's length is the work time its span covers, breaks
 * excluded. Each case worked by hand: [request, minutes, why].
 */

const OFFICE: WorkTimes = { workStart: '09:00', workEnd: '18:00', breakStart: '12:00', breakEnd: '13:00' }
const NO_BREAK: WorkTimes = { workStart: '09:00', workEnd: '17:00', breakStart: null, breakEnd: null }
const NIGHT: WorkTimes = { workStart: '22:00', workEnd: '06:00', breakStart: '02:00', breakEnd: '02:30' }

const cases: [string, WorkTimes, string, string, number, string][] = [
  ['office', OFFICE, '10:00', '12:00', 120, 'a morning span before the break: 2 h'],
  ['office', OFFICE, '11:00', '14:00', 120, 'across the break: 11–12 and 13–14, the break’s hour not counted'],
  ['office', OFFICE, '11:30', '13:15', 45, 'into the break and out of it: 30 + 15 minutes'],
  ['office', OFFICE, '12:00', '13:00', 0, 'the break alone: nothing to take leave from'],
  ['office', OFFICE, '12:30', '13:30', 30, 'half in the break: the 30 minutes after it'],
  ['office', OFFICE, '08:00', '10:00', 60, 'from before work starts: only 09–10 counts'],
  ['office', OFFICE, '17:00', '19:00', 60, 'past the end of work: only 17–18 counts'],
  ['office', OFFICE, '07:00', '20:00', 480, 'the whole day: 9 h less the 1 h break'],
  ['office', OFFICE, '18:00', '19:00', 0, 'after work: nothing'],
  ['office', OFFICE, '09:00', '09:01', 1, 'one minute'],
  ['no break', NO_BREAK, '11:00', '14:00', 180, 'no break: the span as it is'],
  ['night', NIGHT, '23:00', '01:00', 120, 'an overnight shift: 01:00 is the next morning’s'],
  ['night', NIGHT, '01:00', '04:00', 150, 'the next morning, across its 02:00–02:30 break: 3 h less 30 minutes'],
  ['night', NIGHT, '05:00', '07:00', 60, 'the next morning, past the shift’s end at 06:00'],
  ['night', NIGHT, '21:00', '23:00', 0, 'before the start, read as the next evening: runs backwards, nothing (ask 22:00–23:00)'],
  ['night', NIGHT, '22:00', '23:59', 119, 'the evening part'],
]

describe('the work time an hourly request covers', () => {
  for (const [name, rule, start, end, minutes, why] of cases)
    test(`${name}, ${start}–${end}: ${minutes} minutes (${why})`, () => {
      expect(workMinutesCovered(rule, start, end)).toBe(minutes)
    })
})

describe('amounts in a type’s unit', () => {
  test('a day type counts half-days; an hour type minutes, 240 to a half-day (a day of allowance is 8 hours)', () => {
    expect(unitsPerHalfDay('day')).toBe(1)
    expect(unitsPerHalfDay('hour')).toBe(240)
  })

  test('shown as days (3 half-days: 1.5) or hours to the hundredth (150 minutes: 2.5; 20 minutes: 0.33; 40: 0.67)', () => {
    expect(figureOf('day', 3)).toBe(1.5)
    expect(figureOf('day', -4)).toBe(-2)
    expect(figureOf('hour', 150)).toBe(2.5)
    expect(figureOf('hour', 20)).toBe(0.33)
    expect(figureOf('hour', 40)).toBe(0.67)
    expect(figureOf('hour', -90)).toBe(-1.5)
  })
})
