import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { addDays, daysBetween, instantAt, localDate, localMinuteOfDay, parseHHMM, weekday } from '../../src/lib/local-time'

describe('local date and minute of an instant', () => {
  test.each([
    ['2024-03-15T01:10:00Z', 'Asia/Shanghai', '2024-03-15', 9 * 60 + 10],
    ['2024-03-14T16:30:00Z', 'Asia/Shanghai', '2024-03-15', 30],
    ['2024-03-14T15:59:59Z', 'Asia/Shanghai', '2024-03-14', 23 * 60 + 59],
    ['2024-03-14T20:00:00Z', 'Pacific/Auckland', '2024-03-15', 9 * 60],
    ['2024-07-14T21:00:00Z', 'Pacific/Auckland', '2024-07-15', 9 * 60],
    ['2024-03-15T00:00:00Z', 'UTC', '2024-03-15', 0],
    ['2024-03-15T23:59:59.999Z', 'UTC', '2024-03-15', 1439],
    ['2024-03-15T09:00:59Z', 'UTC', '2024-03-15', 9 * 60],
    ['2024-03-10T06:59:59Z', 'America/New_York', '2024-03-10', 1 * 60 + 59],
    ['2024-03-10T07:00:00Z', 'America/New_York', '2024-03-10', 3 * 60],
    ['2024-11-03T05:30:00Z', 'America/New_York', '2024-11-03', 1 * 60 + 30],
    ['2024-11-03T06:30:00Z', 'America/New_York', '2024-11-03', 1 * 60 + 30],
    ['2024-11-03T03:59:00Z', 'America/New_York', '2024-11-02', 23 * 60 + 59],
    ['2024-02-29T12:00:00Z', 'America/New_York', '2024-02-29', 7 * 60],
    ['2024-03-01T04:00:00Z', 'America/New_York', '2024-02-29', 23 * 60],
    ['2024-12-31T16:00:00Z', 'Asia/Shanghai', '2025-01-01', 0],
    ['2024-10-05T15:30:00Z', 'Australia/Lord_Howe', '2024-10-06', 2 * 60 + 30],
    ['2024-03-15T12:00:00Z', 'Asia/Kolkata', '2024-03-15', 17 * 60 + 30],
  ])('%s in %s is %s, minute %d', (iso, zone, date, minute) => {
    expect(localDate(new Date(iso), zone)).toBe(date)
    expect(localMinuteOfDay(new Date(iso), zone)).toBe(minute)
  })
})

describe('instant of a wall-clock time', () => {
  test.each([
    ['2024-03-15', '09:00', 'Asia/Shanghai', '2024-03-15T01:00:00.000Z'],
    ['2024-03-15', '00:30', 'Asia/Shanghai', '2024-03-14T16:30:00.000Z'],
    ['2024-03-15', '09:00', 'Pacific/Auckland', '2024-03-14T20:00:00.000Z'],
    ['2024-03-15', '09:00', 'UTC', '2024-03-15T09:00:00.000Z'],
    ['2024-03-15', '23:59', 'UTC', '2024-03-15T23:59:00.000Z'],
    ['2024-02-29', '00:00', 'America/New_York', '2024-02-29T05:00:00.000Z'],
    // spring forward: 02:00–02:59 does not exist, the clock jumps to 03:00 EDT
    ['2024-03-10', '01:59', 'America/New_York', '2024-03-10T06:59:00.000Z'],
    ['2024-03-10', '02:00', 'America/New_York', '2024-03-10T07:00:00.000Z'],
    ['2024-03-10', '02:30', 'America/New_York', '2024-03-10T07:00:00.000Z'],
    ['2024-03-10', '02:59', 'America/New_York', '2024-03-10T07:00:00.000Z'],
    ['2024-03-10', '03:00', 'America/New_York', '2024-03-10T07:00:00.000Z'],
    ['2024-03-10', '08:00', 'America/New_York', '2024-03-10T12:00:00.000Z'],
    // fall back: 01:00–01:59 happens twice, the earlier (EDT) one wins
    ['2024-11-03', '00:59', 'America/New_York', '2024-11-03T04:59:00.000Z'],
    ['2024-11-03', '01:00', 'America/New_York', '2024-11-03T05:00:00.000Z'],
    ['2024-11-03', '01:30', 'America/New_York', '2024-11-03T05:30:00.000Z'],
    ['2024-11-03', '02:00', 'America/New_York', '2024-11-03T07:00:00.000Z'],
    ['2024-03-31', '01:30', 'Europe/London', '2024-03-31T01:00:00.000Z'],
    ['2024-10-27', '01:30', 'Europe/London', '2024-10-27T00:30:00.000Z'],
    ['2024-09-29', '02:30', 'Pacific/Auckland', '2024-09-28T14:00:00.000Z'],
    ['2024-04-07', '02:30', 'Pacific/Auckland', '2024-04-06T13:30:00.000Z'],
    // half-hour shifts
    ['2024-10-06', '02:15', 'Australia/Lord_Howe', '2024-10-05T15:30:00.000Z'],
    ['2024-04-07', '01:45', 'Australia/Lord_Howe', '2024-04-06T14:45:00.000Z'],
    // Samoa skipped the whole of 2011-12-30
    ['2011-12-30', '10:00', 'Pacific/Apia', '2011-12-30T10:00:00.000Z'],
  ])('%s %s in %s is %s', (date, hhmm, zone, iso) => {
    expect(instantAt(date, hhmm, zone).toISOString()).toBe(iso)
  })

  test.each([
    ['2024-02-30', '09:00'],
    ['2024-03-15', '24:00'],
    ['2024-03-15', '9:00'],
  ])('%s %s is refused', (date, hhmm) => {
    expect(() => instantAt(date, hhmm, 'UTC')).toThrow(RangeError)
  })
})

// dayjs(instant).tz(zone) renders a wrong wall clock when it falls in a DST gap of the host zone
describe('results do not depend on the host time zone', () => {
  const hostZone = process.env.TZ
  beforeAll(() => {
    process.env.TZ = 'America/New_York'
  })
  afterAll(() => {
    if (hostZone === undefined) delete process.env.TZ
    else process.env.TZ = hostZone
  })

  test('a Shanghai wall time inside the New York spring-forward gap', () => {
    expect(localDate(new Date('2024-03-09T18:30:00Z'), 'Asia/Shanghai')).toBe('2024-03-10')
    expect(localMinuteOfDay(new Date('2024-03-09T18:30:00Z'), 'Asia/Shanghai')).toBe(2 * 60 + 30)
    expect(instantAt('2024-03-10', '02:30', 'Asia/Shanghai').toISOString()).toBe('2024-03-09T18:30:00.000Z')
  })

  test('calendar arithmetic across the host DST change', () => {
    expect(addDays('2024-03-09', 1)).toBe('2024-03-10')
    expect(addDays('2024-03-10', 1)).toBe('2024-03-11')
    expect(daysBetween('2024-03-01', '2024-03-31')).toBe(30)
    expect(daysBetween('2024-11-01', '2024-11-30')).toBe(29)
    expect(weekday('2024-03-10')).toBe(7)
  })
})

describe('ISO weekday', () => {
  test.each([
    ['2024-03-11', 1],
    ['2024-03-12', 2],
    ['2024-03-13', 3],
    ['2024-03-14', 4],
    ['2024-03-15', 5],
    ['2024-03-16', 6],
    ['2024-03-17', 7],
    ['2024-02-29', 4],
    ['2000-01-01', 6],
    ['2024-12-31', 2],
    ['2025-01-01', 3],
  ])('%s is %d', (date, expected) => {
    expect(weekday(date)).toBe(expected)
  })
})

describe('adding days', () => {
  test.each([
    ['2024-03-15', 1, '2024-03-16'],
    ['2024-03-15', 0, '2024-03-15'],
    ['2024-03-15', -15, '2024-02-29'],
    ['2024-02-28', 1, '2024-02-29'],
    ['2024-02-29', 1, '2024-03-01'],
    ['2023-02-28', 1, '2023-03-01'],
    ['2024-12-31', 1, '2025-01-01'],
    ['2025-01-01', -1, '2024-12-31'],
    ['2024-01-01', 366, '2025-01-01'],
    ['2023-01-01', 365, '2024-01-01'],
    ['2024-03-10', 1, '2024-03-11'],
    ['2024-11-03', -1, '2024-11-02'],
  ])('%s plus %d days is %s', (date, days, expected) => {
    expect(addDays(date, days)).toBe(expected)
  })
})

describe('days between', () => {
  test.each([
    ['2024-03-01', '2024-03-31', 30],
    ['2024-03-15', '2024-03-15', 0],
    ['2024-03-16', '2024-03-15', -1],
    ['2024-02-28', '2024-03-01', 2],
    ['2023-02-28', '2023-03-01', 1],
    ['2024-01-01', '2025-01-01', 366],
    ['2023-01-01', '2024-01-01', 365],
    ['2024-03-09', '2024-03-11', 2],
    ['2024-11-02', '2024-11-04', 2],
  ])('%s → %s is %d', (start, end, expected) => {
    expect(daysBetween(start, end)).toBe(expected)
  })

  test('an impossible date is refused rather than rolled over', () => {
    expect(() => daysBetween('2024-02-30', '2024-03-01')).toThrow(RangeError)
    expect(() => addDays('2023-02-29', 1)).toThrow(RangeError)
    expect(() => weekday('2024-13-01')).toThrow(RangeError)
  })
})

describe('HH:MM', () => {
  test.each([
    ['00:00', 0],
    ['09:00', 540],
    ['12:30', 750],
    ['23:59', 1439],
    ['24:00', null],
    ['9:00', null],
    ['12:60', null],
    ['ab:cd', null],
    ['', null],
    ['09:00:00', null],
    [' 09:00', null],
    ['-1:00', null],
  ])('%p is %p', (value, expected) => {
    expect(parseHHMM(value)).toBe(expected)
  })
})
