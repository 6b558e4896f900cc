import { language } from '../i18n'

const formats = new Map<string, Intl.DateTimeFormat>()

function format(zone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const locale = language() === 'zh' ? 'zh-CN' : 'en-GB'
  const key = `${locale}|${zone}|${JSON.stringify(options)}`
  let found = formats.get(key)
  if (!found) formats.set(key, (found = new Intl.DateTimeFormat(locale, { ...options, timeZone: zone })))
  return found
}

/** "09:02" in the given IANA zone (the group's, which records carry as `timezone`). */
export const timeIn = (instant: string | null | undefined, zone: string): string =>
  instant ? format(zone, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(instant)) : '—'

const wallClocks = new Map<string, Intl.DateTimeFormat>()

/** The wall clock of an instant in an IANA zone, as numbers (the one place that reads a zone's clock). */
export function wallClock(instant: Date | number, zone: string) {
  let clock = wallClocks.get(zone)
  if (!clock) {
    const options = { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' } as const
    wallClocks.set(zone, (clock = new Intl.DateTimeFormat('en-US', options)))
  }
  const parts = Object.fromEntries(clock.formatToParts(instant).map((part) => [part.type, Number(part.value)]))
  return { year: parts.year, month: parts.month, day: parts.day, hour: parts.hour, minute: parts.minute, second: parts.second }
}

export const pad = (n: number) => String(n).padStart(2, '0')

/** 'YYYY-MM-DD' of a wall clock. */
export const dateOf = (clock: { year: number; month: number; day: number }) => `${clock.year}-${pad(clock.month)}-${pad(clock.day)}`

/** "2024-03-15 09:02" in the given zone. */
export const dateTimeIn = (instant: string | null | undefined, zone: string): string => {
  if (!instant) return '—'
  const clock = wallClock(new Date(instant), zone)
  return `${dateOf(clock)} ${pad(clock.hour)}:${pad(clock.minute)}`
}

/** The browser's own zone, for instants that belong to no group (audit entries, uploads). */
export const browserZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone

/** Integer fen as yuan with two decimals, never through floating-point arithmetic on the amount. */
export function yuan(fen: number): string {
  const sign = fen < 0 ? '-' : ''
  const abs = Math.abs(fen)
  return `${sign}${Math.trunc(abs / 100).toLocaleString('en-US')}.${String(abs % 100).padStart(2, '0')}`
}
