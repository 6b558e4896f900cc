import { Elysia, ValidationError as ElysiaValidationError } from 'elysia'
import type { Clock } from '../lib/clock'
import type { Logger } from '../lib/logger'
import { AppError } from './errors'

interface FieldError {
  field: string
  message: string
}

type Schema = { error?: unknown; description?: string; anyOf?: Schema[] }
type Issue = { path?: string; message?: string; value?: unknown; schema?: Schema }

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

function fieldErrors(error: ElysiaValidationError): FieldError[] {
  const seen = new Set<string>()
  const result: FieldError[] = []
  for (const issue of error.all as Issue[]) {
    const field =
      (issue.path ?? '').replace(/^\//, '').replaceAll('/', '.') ||
      customMessage(issue.schema)?.split(' ')[0] ||
      (error.type === 'property' ? 'value' : error.type)
    const message = problem(issue, field)
    const key = `${field}:${message}`
    if (seen.has(key)) continue
    seen.add(key)
    result.push({ field, message })
  }
  return result
}

/** The one place errors become envelopes: HTTP status equals `code`, `data` is null. */
export const errorHandler = (clock: Clock, logger: Logger) =>
  new Elysia({ name: 'error-handler' }).onError({ as: 'global' }, ({ code, error, request, set }) => {
    const reply = (status: number, message: string, errors?: FieldError[], headers?: Record<string, string>) => {
      set.status = status
      set.headers['content-type'] = 'application/json; charset=utf-8'
      if (headers) Object.assign(set.headers, headers)
      return { code: status, message, data: null, timestamp: clock.now().toISOString(), ...(errors ? { errors } : {}) }
    }

    // an AppError thrown while parsing the body (413, bad JSON) arrives wrapped in Elysia's ParseError
    const appError = error instanceof AppError ? error : code === 'PARSE' && error.cause instanceof AppError ? error.cause : null
    if (appError) return reply(appError.status, appError.message, appError.errors, appError.headers)

    if (code === 'VALIDATION' && error instanceof ElysiaValidationError) {
      if (error.type === 'response') {
        logger.error('response failed its own schema', { path: new URL(request.url).pathname, detail: error.message })
        return reply(500, 'Internal server error')
      }
      const errors = fieldErrors(error)
      const message = errors.length > 0 ? `Invalid request: ${errors[0].field} ${errors[0].message}` : 'Invalid request'
      return reply(400, message, errors)
    }
    if (code === 'PARSE') return reply(400, 'The request body could not be read; send JSON with Content-Type: application/json')
    if (code === 'NOT_FOUND') {
      const { pathname } = new URL(request.url)
      return reply(404, `No endpoint ${request.method} ${pathname}; the list of endpoints is at /swagger`)
    }
    if (code === 'INVALID_COOKIE_SIGNATURE') return reply(400, 'A cookie has an invalid signature')

    logger.error('unhandled error', {
      method: request.method,
      path: new URL(request.url).pathname,
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    })
    return reply(500, 'Internal server error; the failure was logged')
  })
