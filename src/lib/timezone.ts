import { ValidationError } from '../http/errors'
import { say } from './input-messages'

/** True when `zone` is an IANA time zone name the runtime knows (e.g. Asia/Shanghai, UTC). */
export function isValidTimeZone(zone: string): boolean {
  return canonicalTimeZone(zone) !== null
}

/** The runtime's canonical spelling of an IANA zone name, or null when it is not one. */
export function canonicalTimeZone(zone: string): string | null {
  // offsets such as +08:00 are not zones: they know nothing of daylight saving
  if (!/^[A-Za-z]/.test(zone) || zone.length > 64) return null
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone
  } catch {
    return null
  }
}

/** A `timezone` field of a request: canonicalised, null or absent kept as they are; not a zone → 400. */
export function timeZoneField(value: string | null | undefined): string | null | undefined {
  if (value === undefined || value === null) return value
  const zone = canonicalTimeZone(value.trim())
  if (!zone)
    throw new ValidationError(say.notTimeZone({ value }), [{ field: 'timezone', message: say.notTimeZoneField() }])
  return zone
}
