/**
 * The zone arithmetic of src/lib/local-time.ts as it was before it moved to Temporal (issue 18):
 * Intl.DateTimeFormat#formatToParts for wall clocks, a day either side and a bisection for
 * instants. Kept as the oracle the Temporal version is checked against
 * (local-time-temporal.test.ts) and measured against (bench/zone-arithmetic.ts). Not used by
 * the service.
 */
import { isCalendarDate } from '../../src/lib/dates'
import { parseHHMM } from '../../src/lib/local-time'

const DAY_MS = 86_400_000
const MINUTE_MS = 60_000

interface WallClock {
  year: number
  month: number
  day: number
  hour: number
  minute: number
  second: number
}

const formatters = new Map<string, Intl.DateTimeFormat>()

function formatterFor(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone)
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    })
    formatters.set(zone, formatter)
  }
  return formatter
}

/** The last answer per zone: one request asks about the same instant several times, and Intl is slow. */
const lastWallClock = new Map<string, { ms: number; wall: Readonly<WallClock> }>()

function wallClock(instant: Date | number, zone: string): Readonly<WallClock> {
  const ms = typeof instant === 'number' ? instant : instant.getTime()
  const last = lastWallClock.get(zone)
  if (last?.ms === ms) return last.wall
  const wall: WallClock = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 }
  for (const part of formatterFor(zone).formatToParts(ms)) {
    if (part.type in wall) wall[part.type as keyof WallClock] = Number(part.value)
  }
  lastWallClock.set(zone, { ms, wall })
  return wall
}

function wallAsUtcMs(wall: WallClock): number {
  return Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second)
}

/** How far the zone's wall clock is ahead of UTC at the instant, in ms. */
function offsetMs(epochMs: number, zone: string): number {
  const wholeSecond = Math.floor(epochMs / 1000) * 1000
  return wallAsUtcMs(wallClock(wholeSecond, zone)) - wholeSecond
}

function pad(value: number, width = 2): string {
  return String(value).padStart(width, '0')
}

function requireDate(date: string): string {
  if (!isCalendarDate(date)) throw new RangeError(`not a calendar date: ${date}`)
  return date
}

export function localDate(instant: Date, zone: string): string {
  const wall = wallClock(instant, zone)
  return `${pad(wall.year, 4)}-${pad(wall.month)}-${pad(wall.day)}`
}

export function localMinuteOfDay(instant: Date, zone: string): number {
  const wall = wallClock(instant, zone)
  return wall.hour * 60 + wall.minute
}

/**
 * The instant the wall clock in `zone` shows `date hhmm`. A wall time skipped by a
 * spring-forward gap gives the instant the clock jumps to; a wall time repeated by a
 * fall-back gives the earlier instant.
 */
export function instantAt(date: string, hhmm: string, zone: string): Date {
  // every employee of a group asks for the same few (date, time, zone): each is worked out once
  const key = `${zone} ${date} ${hhmm}`
  let at = instants.get(key)
  if (at === undefined) {
    if (instants.size >= MAX_INSTANTS) instants.clear()
    instants.set(key, (at = computeInstantAt(date, hhmm, zone)))
  }
  return new Date(at)
}

const MAX_INSTANTS = 10_000
const instants = new Map<string, number>()

/** The same without the cache (for timing the arithmetic itself). */
export function computeInstantAt(date: string, hhmm: string, zone: string): number {
  const minutes = parseHHMM(hhmm)
  if (minutes === null) throw new RangeError(`not an HH:MM time: ${hhmm}`)
  const wallMs = Date.parse(`${requireDate(date)}T00:00:00Z`) + minutes * MINUTE_MS

  // zone transitions are far more than a day apart, so the offsets a day either side
  // are the only ones this wall time can be under
  const offsetBefore = offsetMs(wallMs - DAY_MS, zone)
  const offsetAfter = offsetMs(wallMs + DAY_MS, zone)
  const matches = [wallMs - offsetBefore, wallMs - offsetAfter].filter((at) => at + offsetMs(at, zone) === wallMs)
  if (matches.length > 0) return Math.min(...matches)

  // in a gap: find the transition between the two candidates
  let earlier = Math.min(wallMs - offsetBefore, wallMs - offsetAfter)
  let later = Math.max(wallMs - offsetBefore, wallMs - offsetAfter)
  const offsetAtEarlier = offsetMs(earlier, zone)
  while (later - earlier > 1000) {
    const middle = Math.floor((earlier + later) / 2000) * 1000
    if (offsetMs(middle, zone) === offsetAtEarlier) earlier = middle
    else later = middle
  }
  return later
}
