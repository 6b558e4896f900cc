import { ValidationError } from '../http/errors'

/** Trims a required text field; blank, or longer than `maxLength` after trimming, is a 400 naming the field. */
export function requiredText(value: string, field: string, maxLength = Infinity): string {
  const trimmed = value.trim()
  if (trimmed === '') throw new ValidationError(`${field} must not be blank`, [{ field, message: 'must not be blank' }])
  if (trimmed.length > maxLength) {
    const message = `must be at most ${maxLength} characters long`
    throw new ValidationError(`Invalid request: ${field} ${message}`, [{ field, message }])
  }
  return trimmed
}

/** Trims an optional text field; blank becomes null. undefined stays undefined (not sent). */
export function optionalText(value: string | null | undefined): string | null | undefined {
  if (value === undefined || value === null) return value
  const trimmed = value.trim()
  return trimmed === '' ? null : trimmed
}
