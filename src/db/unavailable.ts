import { render, type Message } from '../lib/messages'
import { isBusy } from '../lib/sqlite-errors'
import { say } from './messages'

/*
 * When the database cannot do the work in time, what the service says: a DatabaseUnavailableError
 * (src/db/guard.ts throws them) becomes a 503 with Retry-After in the error handler, and a start-up
 * that fails for it one line for the operator.
 */

export type Unavailability = 'busy' | 'timeout' | 'unreachable'

const RETRY_AFTER_SECONDS: Record<Unavailability, number> = { busy: 1, timeout: 5, unreachable: 5 }

/**
 * The database could not do the work in time; answered 503 with Retry-After (src/http/error-handler.ts),
 * `text` in the request's language. `message` (for logs) is the English.
 */
export class DatabaseUnavailableError extends Error {
  readonly retryAfterSeconds: number

  constructor(
    readonly reason: Unavailability,
    readonly text: Message,
    /** a change was sent and its outcome is not known (a COMMIT or a lone write that ran out of time) */
    readonly outcomeUnknown = false,
    cause?: unknown,
  ) {
    super(render(text, 'en'), { cause })
    this.name = 'DatabaseUnavailableError'
    this.retryAfterSeconds = RETRY_AFTER_SECONDS[reason]
  }
}

export const busyError = (cause?: unknown) => new DatabaseUnavailableError('busy', say.busy(), false, cause)

/** When a change was sent and no answer came back, the message says what to do: the same words for a timeout and a lost connection. */
export function timeoutError(ms: number, outcomeUnknown: boolean): DatabaseUnavailableError {
  const seconds = Math.max(0.1, Math.round(ms / 100) / 10)
  return new DatabaseUnavailableError('timeout', outcomeUnknown ? say.timeoutOutcomeUnknown({ seconds }) : say.timeout({ seconds }), outcomeUnknown)
}

/** The DatabaseUnavailableError in an error's cause chain (Drizzle wraps what the client throws). */
export function unavailableIn(error: unknown): DatabaseUnavailableError | null {
  let current: unknown = error
  for (let depth = 0; current && typeof current === 'object' && depth < 8; depth++) {
    if (current instanceof DatabaseUnavailableError) return current
    current = (current as { cause?: unknown }).cause
  }
  return null
}

/** `outcomeUnknown`: the connection was lost after a change (a COMMIT, or a write on its own) had been sent. */
export const unreachableError = (outcomeUnknown: boolean, cause?: unknown) =>
  new DatabaseUnavailableError(
    'unreachable',
    outcomeUnknown ? say.lostOutcomeUnknown() : say.unreachable(),
    outcomeUnknown,
    cause,
  )

/** What the error handler answers 503 for: this module's verdict, or a busy database that nothing retried. */
export function databaseUnavailable(error: unknown): DatabaseUnavailableError | null {
  return unavailableIn(error) ?? (isBusy(error) ? busyError(error) : null)
}

/**
 * Why the service could not start on its database, in one line for the operator, when the reason is
 * the database's (a libSQL server that cannot be reached, refuses the token, or does not answer);
 * null for any other error.
 */
export function startUpProblem(error: unknown, databaseUrl: string): string | null {
  // a token can be given in the URL's query: never printed
  const where = `DATABASE_URL ${databaseUrl.split('?')[0]}`
  let status: unknown
  let code: unknown
  for (let current: unknown = error, depth = 0; current && typeof current === 'object' && depth < 8; depth++) {
    const link = current as { name?: unknown; status?: unknown; code?: unknown; cause?: unknown }
    if (link.name === 'HttpServerError') status ??= link.status
    if (typeof link.code === 'string' && /^E[A-Z]+$|^Connection/.test(link.code)) code ??= link.code
    current = link.cause
  }
  if (status === 401 || status === 403)
    return `Cannot start: the libSQL server at ${where} refused the credentials (HTTP ${status}); check DATABASE_AUTH_TOKEN`
  const unavailable = unavailableIn(error)
  if (!unavailable) return null
  if (unavailable.reason === 'unreachable')
    return `Cannot start: the libSQL server at ${where} cannot be reached (${String(code ?? status ?? 'no answer')}); check that it runs and that this host can reach it`
  if (unavailable.reason === 'busy') return `Cannot start: the database at ${where} stayed busy with other writers; start again`
  return `Cannot start: the database at ${where} did not answer in time (DATABASE_TIMEOUT_MS); check the libSQL server`
}
