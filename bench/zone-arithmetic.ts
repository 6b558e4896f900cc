/**
 * The cost of the zone arithmetic a clock-in does, through Temporal (src/lib/local-time.ts since
 * issue 18) and through Intl.DateTimeFormat#formatToParts (the version before, kept as the
 * oracle of its tests in test/unit/local-time-intl.ts), in this process, no I/O.
 *
 *   bun bench/zone-arithmetic.ts     prints the figures (bench/run.ts reports them too)
 *
 * - wall clock: the local date and minute of the day of an instant, each instant a new one (a
 *   clock-in asks for both about its own "now": `shiftAt`);
 * - instant of a wall time: a (date, HH:MM, zone) worked out anew, as `instantAt` does once per
 *   group, date and time before its cache answers;
 * - a clock-in's date and time work (Temporal only): its work date and rule (`shiftAt`), the shift
 *   of that date (`shiftFor`) and the verdict, at a new instant of one morning each call, as S1's
 *   burst asks them.
 */
import * as temporal from '../src/lib/local-time'
import { judgeClockIn, shiftAt, shiftFor, type PolicyRule } from '../src/modules/attendance/policy'
import * as intl from '../test/unit/local-time-intl'

export interface ZoneFigures {
  /** ns per instant: local date + minute of the day */
  wallClock: { intl: number; temporal: number }
  /** ns per wall time: its instant, no cache */
  instantOf: { intl: number; temporal: number }
  /** ns per clock-in: shiftAt + shiftFor + judgeClockIn */
  clockIn: number
}

const ZONES = ['Asia/Shanghai', 'America/New_York', 'Europe/Berlin', 'Australia/Sydney']
const START = Date.parse('2026-01-01T00:00:00Z')

/** The median of `rounds` rounds of `count` calls, in ns per call. */
function nsPerCall(count: number, rounds: number, call: (i: number) => unknown): number {
  const times: number[] = []
  let sink = 0
  for (let round = 0; round < rounds; round++) {
    const started = Bun.nanoseconds()
    for (let i = 0; i < count; i++) if (call(round * count + i) === undefined) sink++
    times.push((Bun.nanoseconds() - started) / count)
  }
  if (sink < 0) console.log(sink)
  return times.sort((a, b) => a - b)[Math.floor(rounds / 2)]
}

export function zoneArithmetic(count = 20_000, rounds = 7): ZoneFigures {
  // a distinct instant every call (61 s apart), so no cache answers
  const instant = (i: number) => new Date(START + i * 61_001)
  const wall = (api: typeof temporal | typeof intl) => (i: number) => {
    const at = instant(i)
    const zone = ZONES[i & 3]
    return api.localDate(at, zone) + api.localMinuteOfDay(at, zone)
  }
  // a distinct wall time every call: dates over 27 years, every minute of the day
  const wallTime = (i: number) => {
    const date = new Date(START + (i % 10_000) * 86_400_000).toISOString().slice(0, 10)
    const minute = (i * 7) % 1440
    return [date, `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`, ZONES[i & 3]] as const
  }
  const rule: PolicyRule = {
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
  const rules = [rule]
  const itself = (r: PolicyRule) => r
  // a Tuesday morning from 08:00 in Shanghai, 2.5 ms apart
  const MORNING = Date.parse('2026-11-24T00:00:00Z')
  const clockIn = (i: number) => {
    const at = new Date(MORNING + (i % 1_000_000) * 2.5)
    const found = shiftAt(rules, itself, 'Asia/Shanghai', at)!
    return judgeClockIn(shiftFor(found.rule, 'Asia/Shanghai', found.workDate), at)
  }
  const figures = () => ({
    wallClock: { intl: nsPerCall(count, rounds, wall(intl)), temporal: nsPerCall(count, rounds, wall(temporal)) },
    instantOf: {
      intl: nsPerCall(count / 4, rounds, (i) => intl.computeInstantAt(...wallTime(i))),
      temporal: nsPerCall(count / 4, rounds, (i) => temporal.computeInstantAt(...wallTime(i))),
    },
    clockIn: nsPerCall(count, rounds, clockIn),
  })
  figures() // warm-up: both compiled, every zone's data loaded
  return figures()
}

if (import.meta.main) {
  const { wallClock, instantOf, clockIn } = zoneArithmetic()
  const us = (ns: number) => `${(ns / 1000).toFixed(2)} µs`
  console.log(`local date + minute of an instant: Intl ${us(wallClock.intl)}, Temporal ${us(wallClock.temporal)} (${(wallClock.intl / wallClock.temporal).toFixed(1)}×)`)
  console.log(`instant of a wall time, uncached:  Intl ${us(instantOf.intl)}, Temporal ${us(instantOf.temporal)} (${(instantOf.intl / instantOf.temporal).toFixed(1)}×)`)
  console.log(`a clock-in's date and time work:   ${us(clockIn)} (shiftAt + shiftFor + judgeClockIn)`)
}
