import type { FieldError } from './errors'

/*
 * TypeBox's validation issues in words a person can act on: "is required", "must be ...". Used by
 * the one error handler for every request, and by anything that validates with the same models
 * (an import validates each row of its file with the create model).
 */

type Schema = { error?: unknown; description?: string; anyOf?: Schema[] }
export type Issue = { path?: string; message?: string; value?: unknown; schema?: Schema }

/** A schema's own message, or that of the first member of a union that has one. */
function customMessage(schema: Schema | undefined): string | undefined {
  if (typeof schema?.error === 'string') return schema.error
  return schema?.anyOf?.map(customMessage).find((message) => message !== undefined)
}

const TYPEBOX_MESSAGES: [RegExp, (...groups: string[]) => string][] = [
  [/^Expected string length greater or equal to (\d+)$/, (n) => `must be at least ${n} character${n === '1' ? '' : 's'} long`],
  [/^Expected string length less or equal to (\d+)$/, (n) => `must be at most ${n} characters long`],
  [/^Expected (?:integer|number) to be greater or equal to (\S+)$/, (n) => `must be at least ${n}`],
  [/^Expected (?:integer|number) to be less or equal to (\S+)$/, (n) => `must be at most ${n}`],
  [/^Expected array length to be less or equal to (\d+)$/, (n) => `must have at most ${n} item${n === '1' ? '' : 's'}`],
  [/^Expected array length to be greater or equal to (\d+)$/, (n) => `must have at least ${n} item${n === '1' ? '' : 's'}`],
  [/^Expected (integer|number|boolean|string|null)$/, (type) => `must be a${type === 'integer' ? 'n' : ''} ${type}`],
  [/^Expected (object|array)$/, (type) => `must be a JSON ${type}`],
]

/** What is wrong with one field, starting with a verb: "is required", "must be ...", "has ...". */
function problem(issue: Issue, field: string): string {
  if (issue.value === undefined && issue.path) return 'is required'
  const custom = customMessage(issue.schema)
  // query and path schemas name their field ("page must be ...") because coercion loses the path
  if (custom) return custom.startsWith(`${field} `) ? custom.slice(field.length + 1) : custom
  const message = issue.message ?? ''
  if (message === 'Expected union value') return `has an unsupported value ${JSON.stringify(issue.value)?.slice(0, 50)}`
  if (message.startsWith('Expected string to match'))
    return issue.schema?.description ? `must be ${issue.schema.description}` : 'has an unsupported format'
  for (const [pattern, say] of TYPEBOX_MESSAGES) {
    const match = pattern.exec(message)
    if (match) return say(...match.slice(1))
  }
  return message ? message.charAt(0).toLowerCase() + message.slice(1) : 'is invalid'
}

/**
 * Each field a schema refused and what is wrong with it, without repeats. `unnamed` names a value
 * whose issue has no path and whose schema's message names no field.
 */
export function issueErrors(issues: Iterable<Issue>, unnamed = 'value'): FieldError[] {
  const seen = new Set<string>()
  const result: FieldError[] = []
  for (const issue of issues) {
    const field = (issue.path ?? '').replace(/^\//, '').replaceAll('/', '.') || customMessage(issue.schema)?.split(' ')[0] || unnamed
    const message = problem(issue, field)
    const key = `${field}:${message}`
    if (seen.has(key)) continue
    seen.add(key)
    result.push({ field, message })
  }
  return result
}
