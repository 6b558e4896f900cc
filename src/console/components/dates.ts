import type { KeyboardEvent } from 'react'
import { browserZone, dateOf, pad, wallClock } from './format'

/* Calendar dates ('YYYY-MM-DD', 'YYYY-MM') and local times in IANA zones, for forms and filters. */

/** Today's date 'YYYY-MM-DD' in a zone (the browser's by default). */
export const todayIn = (zone: string = browserZone()): string => dateOf(wallClock(Date.now(), zone))

/** The years offered for a year's pay or tax: this one and the five before (older ones are rare to look up). */
export const yearsUpTo = (year: number) => Array.from({ length: 6 }, (_, index) => String(year - index))

/** 'YYYY-MM' moved by a number of months. */
export function addMonths(month: string, delta: number): string {
  const [year, index] = month.split('-').map(Number) as [number, number]
  const total = year * 12 + (index - 1) + delta
  return `${Math.floor(total / 12)}-${pad((total % 12) + 1)}`
}

/** The last date of a month 'YYYY-MM'. */
export function lastDayOf(month: string): string {
  const [year, index] = month.split('-').map(Number) as [number, number]
  return `${month}-${pad(new Date(Date.UTC(year, index, 0)).getUTCDate())}`
}

/** A date 'YYYY-MM-DD' moved by a number of days. */
export function addDays(date: string, delta: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number]
  const moved = new Date(Date.UTC(y, m - 1, d + delta))
  return `${moved.getUTCFullYear()}-${pad(moved.getUTCMonth() + 1)}-${pad(moved.getUTCDate())}`
}

/** Minutes the zone is ahead of UTC at an instant. */
function offsetMinutes(instant: number, zone: string): number {
  const { year, month, day, hour, minute, second } = wallClock(instant, zone)
  return Math.round((Date.UTC(year, month - 1, day, hour, minute, second) - instant) / 60_000)
}

/** The instant (ISO 8601, UTC) of a local date and 'HH:mm' time in an IANA zone. */
export function localInstant(date: string, time: string, zone: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number]
  const [h, mi] = time.split(':').map(Number) as [number, number]
  const guess = Date.UTC(y, m - 1, d, h, mi)
  // the offset at the guess, then at the instant it gives (right on both sides of a change of offset)
  const instant = guess - offsetMinutes(guess, zone) * 60_000
  return new Date(guess - offsetMinutes(instant, zone) * 60_000).toISOString()
}

/** 'YYYY-MM-DD HH:MM' local to an IANA zone as an ISO 8601 instant (UTC), or null when it is not written so. */
export function localToInstant(local: string, zone: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})$/.exec(local.trim())
  if (!match) return null
  const [, y, m, d, h, mi] = match.map(Number) as [number, number, number, number, number, number]
  if (m < 1 || m > 12 || d < 1 || d > 31 || h > 23 || mi > 59) return null
  return localInstant(`${y}-${pad(m)}-${pad(d)}`, `${pad(h)}:${pad(mi)}`, zone)
}

/** Enter in a date field takes the typed date; it does not send the form. */
export const keepEnter = (event: KeyboardEvent<HTMLInputElement>) => {
  if (event.key === 'Enter') event.preventDefault()
}
