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

/** "2024-03-15 09:02" in the given zone. */
export const dateTimeIn = (instant: string | null | undefined, zone: string): string => {
  if (!instant) return '—'
  const parts = Object.fromEntries(
    format(zone, { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
      .formatToParts(new Date(instant))
      .map((part) => [part.type, part.value]),
  )
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`
}

/** The browser's own zone, for instants that belong to no group (audit entries, uploads). */
export const browserZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone

/** Integer fen as yuan with two decimals, never through floating-point arithmetic on the amount. */
export function yuan(fen: number): string {
  const sign = fen < 0 ? '-' : ''
  const abs = Math.abs(fen)
  return `${sign}${Math.trunc(abs / 100).toLocaleString('en-US')}.${String(abs % 100).padStart(2, '0')}`
}
