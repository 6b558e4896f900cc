import { describe, expect, test } from 'bun:test'

// the console's modules read the browser's storage and document when loaded: the least of them here
Object.assign(globalThis, {
  localStorage: { getItem: () => null, setItem: () => {}, removeItem: () => {} },
  document: { documentElement: {} },
})
const { addDays, addMonths, lastDayOf, localInstant, localToInstant } = await import('../../src/console/components/dates')
const { dateTimeIn, wallClock } = await import('../../src/console/components/format')

describe('the console’s dates and zones', () => {
  test.each([
    ['2024-03-15', '09:00', 'Asia/Shanghai', '2024-03-15T01:00:00.000Z'],
    ['2024-03-15', '00:30', 'Asia/Shanghai', '2024-03-14T16:30:00.000Z'],
    ['2024-03-10', '01:59', 'America/New_York', '2024-03-10T06:59:00.000Z'],
    ['2024-03-10', '03:00', 'America/New_York', '2024-03-10T07:00:00.000Z'],
    ['2024-11-03', '02:00', 'America/New_York', '2024-11-03T07:00:00.000Z'],
    ['2024-03-15', '09:00', 'Pacific/Auckland', '2024-03-14T20:00:00.000Z'],
  ])('%s %s in %s is %s', (date, time, zone, instant) => {
    expect(localInstant(date, time, zone)).toBe(instant)
    expect(localToInstant(`${date} ${time}`, zone)).toBe(instant)
    // and back: the wall clock of that instant is the time written
    expect(dateTimeIn(instant, zone)).toBe(`${date} ${time}`)
  })

  test('what is not a local time is refused', () => {
    for (const text of ['2024-03-15', '2024-13-01 09:00', '2024-03-15 24:00', '15/03/2024 09:00', '']) expect(localToInstant(text, 'UTC')).toBeNull()
  })

  test('the wall clock of an instant, as numbers', () => {
    expect(wallClock(Date.parse('2024-12-31T16:00:00Z'), 'Asia/Shanghai')).toEqual({ year: 2025, month: 1, day: 1, hour: 0, minute: 0, second: 0 })
  })

  test('calendar arithmetic', () => {
    expect([addMonths('2024-12', 1), addMonths('2024-01', -1), addMonths('2024-03', -14)]).toEqual(['2025-01', '2023-12', '2023-01'])
    expect([lastDayOf('2024-02'), lastDayOf('2023-02'), lastDayOf('2024-12')]).toEqual(['2024-02-29', '2023-02-28', '2024-12-31'])
    expect([addDays('2024-02-28', 1), addDays('2024-03-01', -1), addDays('2024-12-31', 1)]).toEqual(['2024-02-29', '2024-02-29', '2025-01-01'])
  })
})
