import { ApiError } from '../api'

/**
 * Puts the API's field problems (`errors[]` of a 400) on the form's fields, and returns the message
 * for what no field shows. `fields` maps the API's field names to the form's, where they differ.
 */
export function applyApiErrors(
  form: { setFieldError: (path: string, error: string) => void },
  error: unknown,
  known: readonly string[],
  fields: Record<string, string> = {},
): string | null {
  if (!(error instanceof ApiError)) return error instanceof Error ? error.message : String(error)
  let unplaced = error.errors.length === 0
  for (const problem of error.errors) {
    const field = fields[problem.field] ?? problem.field
    if (known.includes(field)) form.setFieldError(field, problem.message)
    else unplaced = true
  }
  return unplaced ? error.message : null
}
