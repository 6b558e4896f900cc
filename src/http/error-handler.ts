import { Elysia, ValidationError as ElysiaValidationError } from 'elysia'
import type { Clock } from '../lib/clock'
import type { Logger } from '../lib/logger'
import { AppError } from './errors'

interface FieldError {
  field: string
  message: string
}

type Issue = { path?: string; message?: string; value?: unknown; schema?: { error?: unknown } }

/** One line a person can act on per invalid field: "name is required", "page must be ...". */
function fieldErrors(error: ElysiaValidationError): FieldError[] {
  const seen = new Set<string>()
  const result: FieldError[] = []
  for (const issue of error.all as Issue[]) {
    const custom = typeof issue.schema?.error === 'string' ? issue.schema.error : undefined
    // schemas name their field in a custom message ("page must be ..."); use it when the path is lost
    const field =
      (issue.path ?? '').replace(/^\//, '').replaceAll('/', '.') ||
      custom?.split(' ')[0] ||
      (error.type === 'property' ? 'value' : error.type)
    const message = custom
      ? custom.slice(custom.startsWith(field) ? field.length + 1 : 0)
      : issue.value === undefined && issue.path
        ? 'is required'
        : issue.message === 'Expected union value'
          ? `has an unsupported value ${JSON.stringify(issue.value)?.slice(0, 50)}`
          : lowerFirst(issue.message ?? 'is invalid')
    const key = `${field}:${message}`
    if (seen.has(key)) continue
    seen.add(key)
    result.push({ field, message })
  }
  return result
}

const WHERE: Record<string, string> = {
  property: 'request',
  body: 'request body',
  query: 'query string',
  params: 'path',
  headers: 'headers',
  cookie: 'cookies',
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

    if (error instanceof AppError) return reply(error.status, error.message, error.errors, error.headers)

    if (code === 'VALIDATION' && error instanceof ElysiaValidationError) {
      if (error.type === 'response') {
        logger.error('response failed its own schema', { path: new URL(request.url).pathname, detail: error.message })
        return reply(500, 'Internal server error')
      }
      const errors = fieldErrors(error)
      const first = errors[0]
      const where = WHERE[error.type] ?? error.type
      const message = first
        ? `Invalid ${where}: ${first.field}${/^(is|must|has) /.test(first.message) ? ' ' : ': '}${first.message}`
        : `Invalid ${where}`
      return reply(400, message, errors)
    }
    if (code === 'PARSE' && error.cause instanceof AppError)
      return reply(error.cause.status, error.cause.message, error.cause.errors, error.cause.headers)
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

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1)
}
