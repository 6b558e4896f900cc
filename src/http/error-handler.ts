import { Elysia, ValidationError as ElysiaValidationError } from 'elysia'
import { DISK_FAULT_RETRY_AFTER_SECONDS, type DiskFaultLog } from '../db/disk-faults'
import { databaseUnavailable } from '../db/unavailable'
import type { Clock } from '../lib/clock'
import type { Logger } from '../lib/logger'
import { databaseError, diskFault } from '../lib/sqlite-errors'
import { AppError, type FieldError } from './errors'
import { issueErrors, type Issue } from './issues'

/** Each field the request's models refused, named as the client sent it. */
const fieldErrors = (error: ElysiaValidationError): FieldError[] =>
  issueErrors(error.all as Issue[], error.type === 'property' ? 'value' : error.type)

/** The one place errors become envelopes: HTTP status equals `code`, `data` is null. */
export const errorHandler = (clock: Clock, logger: Logger, diskFaults: DiskFaultLog) =>
  new Elysia({ name: 'error-handler' }).onError({ as: 'global' }, ({ code, error, request, set }) => {
    const reply = (status: number, message: string, errors?: FieldError[], headers?: Record<string, string>) => {
      set.status = status
      set.headers['content-type'] = 'application/json; charset=utf-8'
      if (headers) Object.assign(set.headers, headers)
      return { code: status, message, data: null, timestamp: clock.now().toISOString(), ...(errors ? { errors } : {}) }
    }

    // a full, read-only or failing disk under the database: a 503 naming it, logged once per episode
    const fault = diskFault(error)
    if (fault) {
      const message = diskFaults.report(fault, { method: request.method, path: new URL(request.url).pathname, database: databaseError(error) })
      return reply(503, message, undefined, { 'Retry-After': String(DISK_FAULT_RETRY_AFTER_SECONDS) })
    }

    // a busy, slow or unreachable database: a 503 to try again later, logged with the database's own code and message
    const unavailable = databaseUnavailable(error)
    if (unavailable) {
      logger.warn('database unavailable', {
        method: request.method,
        path: new URL(request.url).pathname,
        reason: unavailable.reason,
        outcome_unknown: unavailable.outcomeUnknown,
        database: databaseError(error),
      })
      return reply(503, unavailable.message, undefined, { 'Retry-After': String(unavailable.retryAfterSeconds) })
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

    const database = databaseError(error)
    logger.error('unhandled error', {
      method: request.method,
      path: new URL(request.url).pathname,
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      ...(database ? { database } : {}),
    })
    return reply(500, 'Internal server error; the failure was logged')
  })
