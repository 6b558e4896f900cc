import { isCalendarDate } from './dates'

// Zone conversions use Intl, not dayjs.tz: dayjs.tz(wall, zone) resolves a DST gap to
// the wrong instant and picks either side of a fall-back overlap depending on the zone,
// and dayjs(instant).tz(zone) renders a wrong wall clock when that wall time falls in a
// DST gap of the host's own zone. Calendar arithmetic counts whole days of UTC
// milliseconds, which has no host zone in it (and is cheaper than dayjs: clocking in
// does it several times).

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

/** Midnight UTC of a calendar date, in ms (Date.parse reads years 0000–0099 as written, Date.UTC would not). */
function dayMs(date: string): number {
  return Date.parse(`${requireDate(date)}T00:00:00Z`)
}

/** ISO weekday: 1 = Monday … 7 = Sunday. */
export function weekday(date: string): number {
  return new Date(dayMs(date)).getUTCDay() || 7
}

export function addDays(date: string, days: number): string {
  const day = new Date(dayMs(date) + days * DAY_MS)
  return `${pad(day.getUTCFullYear(), 4)}-${pad(day.getUTCMonth() + 1)}-${pad(day.getUTCDate())}`
}

export function daysBetween(start: string, end: string): number {
  return Math.round((dayMs(end) - dayMs(start)) / DAY_MS)
}

export function parseHHMM(value: string): number | null {
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(value)
  return match ? Number(match[1]) * 60 + Number(match[2]) : null
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

function computeInstantAt(date: string, hhmm: string, zone: string): number {
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
