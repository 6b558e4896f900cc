import { ValidationError } from '../http/errors'
import { say as http } from '../http/messages'
import { say } from './input-messages'

/** Trims a required text field; blank, or longer than `maxLength` after trimming, is a 400 naming the field. */
export function requiredText(value: string, field: string, maxLength = Infinity): string {
  const trimmed = value.trim()
  if (trimmed === '') throw ValidationError.of([{ field, message: say.notBlank() }])
  if (trimmed.length > maxLength) {
    const problem = http.maxLength({ n: maxLength })
    throw new ValidationError(http.invalidField({ field, problem }), [{ field, message: problem }])
  }
  return trimmed
}

/** Trims an optional text field; blank becomes null. undefined stays undefined (not sent). */
export function optionalText(value: string | null | undefined): string | null | undefined {
  if (value === undefined || value === null) return value
  const trimmed = value.trim()
  return trimmed === '' ? null : trimmed
}
