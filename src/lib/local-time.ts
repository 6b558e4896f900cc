import { isCalendarDate } from './dates'

// Zone conversions use the standard Temporal (native in Bun): it knows every zone's
// transitions, so a DST gap or overlap is resolved exactly, and it converts in a quarter of the
// time of Intl.DateTimeFormat#formatToParts, which this used before (bench/zone-arithmetic.ts;
// clocking in converts several times). Not dayjs.tz: dayjs.tz(wall, zone) resolves a DST gap to
// the wrong instant and picks either side of a fall-back overlap depending on the zone, and
// dayjs(instant).tz(zone) renders a wrong wall clock when that wall time falls in a DST gap of
// the host's own zone. Calendar arithmetic counts whole days of UTC milliseconds, which has no
// host zone in it (and is cheaper than dayjs).

const DAY_MS = 86_400_000
const MINUTE_MS = 60_000

/** The zone's wall clock at the instant. (A ZonedDateTime works its fields out anew on each read; a PlainDateTime holds them.) */
function wallClock(instant: Date, zone: string): Temporal.PlainDateTime {
  return Temporal.Instant.fromEpochMilliseconds(instant.getTime()).toZonedDateTimeISO(zone).toPlainDateTime()
}

function pad(value: number, width = 2): string {
  return String(value).padStart(width, '0')
}

/** An ISO year as a date writes it: 4 digits at least, a minus sign before 1 BC (year 0). */
function yearText(year: number): string {
  return year < 0 ? `-${pad(-year, 4)}` : pad(year, 4)
}

function requireDate(date: string): string {
  if (!isCalendarDate(date)) throw new RangeError(`not a calendar date: ${date}`)
  return date
}

export function localDate(instant: Date, zone: string): string {
  const wall = wallClock(instant, zone)
  return `${yearText(wall.year)}-${pad(wall.month)}-${pad(wall.day)}`
}

export function localMinuteOfDay(instant: Date, zone: string): number {
  const wall = wallClock(instant, zone)
  return wall.hour * 60 + wall.minute
}

/** Midnight UTC of a calendar date, in ms (Date.parse reads years 0000–0099 as written, Date.UTC would not). */
function dayMs(date: string): number {
  // a clock-in asks about the same two or three dates several times: each is checked and parsed once
  let ms = dayStarts.get(date)
  if (ms === undefined) {
    ms = Date.parse(`${requireDate(date)}T00:00:00Z`)
    if (dayStarts.size >= MAX_DAYS) dayStarts.clear()
    dayStarts.set(date, ms)
  }
  return ms
}

const MAX_DAYS = 10_000
const dayStarts = new Map<string, number>()

/** ISO weekday: 1 = Monday … 7 = Sunday. */
/** The local time of day of `instant` in `zone`, written HH:MM. */
export function localClockTime(instant: Date, zone: string): string {
  const minute = localMinuteOfDay(instant, zone)
  return `${pad(Math.floor(minute / 60))}:${pad(minute % 60)}`
}

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
  // a clock-in reads its rule's few times a dozen times over: each is parsed once
  let minutes = timesOfDay.get(value)
  if (minutes === undefined) {
    const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(value)
    minutes = match ? Number(match[1]) * 60 + Number(match[2]) : null
    if (timesOfDay.size >= MAX_TIMES) timesOfDay.clear()
    timesOfDay.set(value, minutes)
  }
  return minutes
}

const MAX_TIMES = 2000
const timesOfDay = new Map<string, number | null>()

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

/** `instantAt` without its cache, in epoch ms. */
export function computeInstantAt(date: string, hhmm: string, zone: string): number {
  const minutes = parseHHMM(hhmm)
  if (minutes === null) throw new RangeError(`not an HH:MM time: ${hhmm}`)
  const wallMs = dayMs(date) + minutes * MINUTE_MS
  const [year, month, day] = [Number(date.slice(0, 4)), Number(date.slice(5, 7)), Number(date.slice(8, 10))]
  const wall = new Temporal.PlainDateTime(year, month, day, Math.floor(minutes / 60), minutes % 60)
  // 'earlier': of a repeated wall time, the earlier instant; of a skipped one, the wall time
  // read with the offset before the jump, which falls before the jump: the jump is the next
  // transition (none of the disambiguations gives the jump itself)
  const earlier = wall.toZonedDateTime(zone, { disambiguation: 'earlier' })
  const shown = earlier.epochMilliseconds + earlier.offsetNanoseconds / 1e6
  return shown === wallMs ? earlier.epochMilliseconds : earlier.getTimeZoneTransition('next')!.epochMilliseconds
}
