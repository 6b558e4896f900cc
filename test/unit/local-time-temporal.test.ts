import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { instantAt, localDate, localMinuteOfDay } from '../../src/lib/local-time'
import * as intl from './local-time-intl'

/*
 * src/lib/local-time.ts converts with Temporal since issue 18; before, it converted with
 * Intl.DateTimeFormat#formatToParts. The Intl version (local-time-intl.ts) is the oracle: over
 * random instants, wall times and every zone the runtime knows, both give the same local date,
 * minute of the day and instant of a wall time, with the most cases near DST transitions.
 * FUZZ_SEED=<n> varies the cases, FUZZ_RUNS=<n> sets how many of each (default 3000).
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20261124)
const RUNS = Number(process.env.FUZZ_RUNS ?? 3000)

const ALL_ZONES = Intl.supportedValuesOf('timeZone')
/** zones with daylight saving or odd moves: negative DST (Dublin), half-hour DST (Lord Howe), a skipped day (Apia), 45-minute offsets (Chatham) */
const DST_ZONES = [
  'America/New_York',
  'America/Los_Angeles',
  'America/Santiago',
  'America/St_Johns',
  'America/Havana',
  'Europe/London',
  'Europe/Berlin',
  'Europe/Dublin',
  'Europe/Moscow',
  'Africa/Casablanca',
  'Asia/Tehran',
  'Asia/Shanghai',
  'Australia/Sydney',
  'Australia/Lord_Howe',
  'Pacific/Auckland',
  'Pacific/Chatham',
  'Pacific/Apia',
]

/** Instants the old version dates right: it wrote years before 1 AD by era (1 BC as 0001), see the last test. */
const EARLIEST = Date.parse('0001-01-02T00:00:00Z')
const LATEST = Date.parse('9999-12-30T00:00:00Z')
const MINUTE = 60_000

const zone = fc.oneof(fc.constantFrom(...ALL_ZONES), fc.constantFrom(...DST_ZONES))

/** A zone's transition near a year (from Temporal: it only places the cases, the oracle judges them), or null without one. */
function transitionNear(zoneName: string, year: number): number | null {
  const start = Temporal.ZonedDateTime.from({ year, month: 1, day: 1, timeZone: zoneName })
  return start.getTimeZoneTransition('next')?.epochMilliseconds ?? null
}

/** Instants anywhere in 0001–9999, mostly in 1900–2100, many within hours of one of the zone's transitions. */
const instantIn = (zoneName: string) =>
  fc.oneof(
    fc.integer({ min: EARLIEST, max: LATEST }),
    fc.integer({ min: Date.parse('1900-01-01T00:00:00Z'), max: Date.parse('2100-01-01T00:00:00Z') }),
    fc
      .tuple(fc.integer({ min: 1900, max: 2100 }), fc.integer({ min: -180 * MINUTE, max: 180 * MINUTE }))
      .map(([year, offset]) => (transitionNear(zoneName, year) ?? Date.UTC(year, 5, 1)) + offset),
  )

const pad = (value: number, width = 2) => String(value).padStart(width, '0')

/** A wall time (date, HH:MM) in the zone, many of them inside or next to a gap or an overlap. */
const wallTimeIn = (zoneName: string) =>
  fc.oneof(
    fc.tuple(fc.integer({ min: Date.parse('0100-01-01T00:00:00Z'), max: LATEST }), fc.integer({ min: 0, max: 1439 })).map(([ms, minute]) => ({
      date: new Date(ms).toISOString().slice(0, 10),
      hhmm: `${pad(Math.floor(minute / 60))}:${pad(minute % 60)}`,
    })),
    fc
      .tuple(fc.integer({ min: 1900, max: 2100 }), fc.integer({ min: -150, max: 150 }))
      .map(([year, minutes]) => {
        const at = transitionNear(zoneName, year)
        // the wall clock just before the transition, moved by a few minutes: inside a gap, an overlap or next to one
        const before = Temporal.Instant.fromEpochMilliseconds((at ?? Date.UTC(year, 5, 1)) - MINUTE)
          .toZonedDateTimeISO(zoneName)
          .toPlainDateTime()
          .add({ minutes: minutes + 1 })
        return { date: before.toPlainDate().toString(), hhmm: `${pad(before.hour)}:${pad(before.minute)}` }
      }),
  )

function outcome(work: () => number): number | string {
  try {
    return work()
  } catch (error) {
    return error instanceof RangeError ? 'RangeError' : String(error)
  }
}

describe('Temporal against the Intl oracle', () => {
  test('the local date and minute of an instant', () => {
    fc.assert(
      fc.property(
        zone.chain((name) => fc.tuple(fc.constant(name), instantIn(name))),
        ([zoneName, ms]) => {
          const at = new Date(ms)
          expect([localDate(at, zoneName), localMinuteOfDay(at, zoneName)]).toEqual([intl.localDate(at, zoneName), intl.localMinuteOfDay(at, zoneName)])
        },
      ),
      { seed: SEED, numRuns: RUNS },
    )
  })

  test('the instant of a wall time: a skipped one is the jump, a repeated one the earlier', () => {
    fc.assert(
      fc.property(
        zone.chain((name) => fc.tuple(fc.constant(name), wallTimeIn(name))),
        ([zoneName, { date, hhmm }]) => {
          const ours = outcome(() => instantAt(date, hhmm, zoneName).getTime())
          expect(ours).toBe(outcome(() => intl.computeInstantAt(date, hhmm, zoneName)))
        },
      ),
      { seed: SEED, numRuns: RUNS },
    )
  })

  test.each(DST_ZONES)('every minute of the days around the 2024–2026 transitions of %s', (zoneName) => {
    for (let year = 2024; year <= 2026; year++) {
      let at = transitionNear(zoneName, year)
      for (let i = 0; at !== null && i < 2 && new Date(at).getUTCFullYear() === year; i++) {
        const date = Temporal.Instant.fromEpochMilliseconds(at).toZonedDateTimeISO(zoneName).toPlainDate()
        for (const day of [date.subtract({ days: 1 }), date]) {
          for (let minute = 0; minute < 1440; minute++) {
            const hhmm = `${pad(Math.floor(minute / 60))}:${pad(minute % 60)}`
            const expected = intl.computeInstantAt(day.toString(), hhmm, zoneName)
            if (instantAt(day.toString(), hhmm, zoneName).getTime() !== expected) expect(`${day} ${hhmm}`).toBe(new Date(expected).toISOString())
          }
        }
        for (let ms = at - 3 * 3600_000; ms <= at + 3 * 3600_000; ms += MINUTE) {
          const instant = new Date(ms)
          if (localDate(instant, zoneName) !== intl.localDate(instant, zoneName) || localMinuteOfDay(instant, zoneName) !== intl.localMinuteOfDay(instant, zoneName))
            expect(instant.toISOString()).toBe('dated as the oracle dates it')
        }
        at = Temporal.Instant.fromEpochMilliseconds(at).toZonedDateTimeISO(zoneName).getTimeZoneTransition('next')?.epochMilliseconds ?? null
      }
    }
  })

  test('the edges of the years the service takes', () => {
    for (const zoneName of DST_ZONES) {
      for (const iso of ['0001-01-02T00:00:00Z', '0099-12-31T23:00:00Z', '0100-01-01T00:00:00Z', '9999-12-31T00:00:00Z', '9999-12-31T23:59:59.999Z']) {
        const at = new Date(iso)
        expect([localDate(at, zoneName), localMinuteOfDay(at, zoneName)]).toEqual([intl.localDate(at, zoneName), intl.localMinuteOfDay(at, zoneName)])
      }
      for (const [date, hhmm] of [
        ['0100-01-01', '00:00'],
        ['9999-12-31', '23:59'],
        ['9999-12-31', '00:00'],
        ['0000-01-01', '09:00'],
        ['0099-12-31', '09:00'],
        ['2024-02-30', '09:00'],
        ['2024-03-15', '24:00'],
      ])
        expect(outcome(() => instantAt(date, hhmm, zoneName).getTime())).toBe(outcome(() => intl.computeInstantAt(date, hhmm, zoneName)))
    }
    // past the last day of 9999 to the west: an instant in year 10000, as before
    expect(instantAt('9999-12-31', '23:59', 'America/Los_Angeles').toISOString()).toBe('+010000-01-01T07:59:00.000Z')
    expect(localDate(new Date('9999-12-31T23:59:00Z'), 'Asia/Shanghai')).toBe('10000-01-01')
  })

  test('years before 1 AD are ISO years now (Intl wrote them by era: 1 BC as 0001, 2 BC as 0002)', () => {
    expect(localDate(new Date('0000-06-01T00:00:00Z'), 'UTC')).toBe('0000-06-01')
    expect(intl.localDate(new Date('0000-06-01T00:00:00Z'), 'UTC')).toBe('0001-06-01')
    expect(localDate(new Date('0001-01-01T00:00:00Z'), 'America/New_York')).toBe('0000-12-31')
    expect(localDate(new Date('-000001-06-01T00:00:00Z'), 'UTC')).toBe('-0001-06-01')
    expect(localMinuteOfDay(new Date('0000-06-01T00:00:00Z'), 'Asia/Shanghai')).toBe(intl.localMinuteOfDay(new Date('0000-06-01T00:00:00Z'), 'Asia/Shanghai'))
  })

  test('the same errors for what is no instant, no date, no time or no zone', () => {
    expect(() => localDate(new Date(Number.NaN), 'UTC')).toThrow(RangeError)
    expect(() => intl.localDate(new Date(Number.NaN), 'UTC')).toThrow(RangeError)
    expect(() => localDate(new Date(0), 'Mars/Olympus_Mons')).toThrow(RangeError)
    expect(() => intl.localDate(new Date(0), 'Mars/Olympus_Mons')).toThrow(RangeError)
    expect(() => instantAt('2024-03-15', '09:00', 'Mars/Olympus_Mons')).toThrow(RangeError)
    expect(() => intl.computeInstantAt('2024-03-15', '09:00', 'Mars/Olympus_Mons')).toThrow(RangeError)
  })
})
