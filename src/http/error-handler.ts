import { Elysia, ValidationError as ElysiaValidationError } from 'elysia'
import { DISK_FAULT_RETRY_AFTER_SECONDS, type DiskFaultLog } from '../db/disk-faults'
import { databaseUnavailable } from '../db/unavailable'
import type { Locale } from '../config'
import type { Clock } from '../lib/clock'
import type { Logger } from '../lib/logger'
import { render, type Message } from '../lib/messages'
import { databaseError, diskFault } from '../lib/sqlite-errors'
import { pickLocale } from '../lib/status-text'
import { envelopeLanguage } from './envelope'
import { AppError, type FieldError, renderFieldErrors } from './errors'
import { issueErrors, type Issue } from './issues'
import { say } from './messages'

/** Each field the request's models refused, named as the client sent it. */
const fieldErrors = (error: ElysiaValidationError): FieldError[] =>
  issueErrors(error.all as Issue[], error.type === 'property' ? 'value' : error.type)

/**
 * The one place errors become envelopes: HTTP status equals `code`, `data` is null, and the
 * message (and each field's) is in the request's language (`Accept-Language`, else `fallback`).
 * Success envelopes get their language here too (`envelopeLanguage`), so that answers have one
 * plugin for language (one more plugin in the app's chain is more than TypeScript's type depth).
 */
export const errorHandler = (clock: Clock, logger: Logger, fallback: Locale, diskFaults: DiskFaultLog) =>
  new Elysia({ name: 'error-handler' }).use(envelopeLanguage(fallback)).onError({ as: 'global' }, ({ code, error, request, set }) => {
    const locale = pickLocale(request.headers.get('accept-language'), fallback)
    const reply = (status: number, message: Message, errors?: FieldError[], headers?: Record<string, string>) => {
      set.status = status
      set.headers['content-type'] = 'application/json; charset=utf-8'
      if (headers) Object.assign(set.headers, headers)
      return {
        code: status,
        message: render(message, locale),
        data: null,
        timestamp: clock.now().toISOString(),
        ...(errors ? { errors: renderFieldErrors(errors, locale) } : {}),
      }
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
      return reply(503, unavailable.text, undefined, { 'Retry-After': String(unavailable.retryAfterSeconds) })
    }

    // an AppError thrown while parsing the body (413, bad JSON) arrives wrapped in Elysia's ParseError
    const appError = error instanceof AppError ? error : code === 'PARSE' && error.cause instanceof AppError ? error.cause : null
    if (appError) return reply(appError.status, appError.text, appError.errors, appError.headers)

    if (code === 'VALIDATION' && error instanceof ElysiaValidationError) {
      if (error.type === 'response') {
        logger.error('response failed its own schema', { path: new URL(request.url).pathname, detail: error.message })
        return reply(500, say.internal())
      }
      const errors = fieldErrors(error)
      const message = errors.length > 0 ? say.invalidField({ field: errors[0].field, problem: errors[0].message }) : say.invalidRequest()
      return reply(400, message, errors)
    }
    if (code === 'PARSE') return reply(400, say.unreadableBody())
    if (code === 'NOT_FOUND') {
      const { pathname } = new URL(request.url)
      return reply(404, say.noEndpoint({ method: request.method, path: pathname }))
    }
    if (code === 'INVALID_COOKIE_SIGNATURE') return reply(400, say.badCookie())

    const database = databaseError(error)
    logger.error('unhandled error', {
      method: request.method,
      path: new URL(request.url).pathname,
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      ...(database ? { database } : {}),
    })
    return reply(500, say.internalLogged())
  })
