import { type Message, ruleMessage } from '../lib/messages'
import type { FieldError } from './errors'
import { say } from './messages'

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

const TYPES = {
  integer: say.mustBeInteger,
  number: say.mustBeNumber,
  boolean: say.mustBeBoolean,
  string: say.mustBeString,
  null: say.mustBeNull,
  object: say.mustBeObject,
  array: say.mustBeArray,
} as const

const TYPEBOX_MESSAGES: [RegExp, (...groups: string[]) => Message][] = [
  [/^Expected string length greater or equal to (\d+)$/, (n) => say.minLength({ n })],
  [/^Expected string length less or equal to (\d+)$/, (n) => say.maxLength({ n })],
  [/^Expected (?:integer|number) to be greater or equal to (\S+)$/, (n) => say.minimum({ n })],
  [/^Expected (?:integer|number) to be less or equal to (\S+)$/, (n) => say.maximum({ n })],
  [/^Expected array length to be less or equal to (\d+)$/, (n) => say.maxItems({ n })],
  [/^Expected array length to be greater or equal to (\d+)$/, (n) => say.minItems({ n })],
  [/^Expected (integer|number|boolean|string|null|object|array)$/, (type) => TYPES[type as keyof typeof TYPES]()],
]

/** What is wrong with one field, starting with a verb: "is required", "must be ...", "has ...". */
function problem(issue: Issue, field: string): Message {
  if (issue.value === undefined && issue.path) return say.required()
  const custom = customMessage(issue.schema)
  // query and path schemas name their field ("page must be ...") because coercion loses the path
  if (custom) return ruleMessage(custom, field)
  const message = issue.message ?? ''
  if (message === 'Expected union value') return say.unsupportedValue({ value: JSON.stringify(issue.value)?.slice(0, 50) ?? 'undefined' })
  if (message.startsWith('Expected string to match'))
    return issue.schema?.description ? ruleMessage(`must be ${issue.schema.description}`) : say.unsupportedFormat()
  for (const [pattern, make] of TYPEBOX_MESSAGES) {
    const match = pattern.exec(message)
    if (match) return make(...match.slice(1))
  }
  return message ? say.unknownRule({ detail: message.charAt(0).toLowerCase() + message.slice(1) }) : say.invalid()
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
    const key = `${field}:${JSON.stringify(message)}`
    if (seen.has(key)) continue
    seen.add(key)
    result.push({ field, message })
  }
  return result
}
