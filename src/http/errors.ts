import type { Locale } from '../config'
import { render, type Message, messageList } from '../lib/messages'
import { say } from './messages'

/**
 * What is wrong with one field; `row` is the row of an imported file it was found in (the header
 * is row 1). The message stays a catalogue message until it is sent in the request's language.
 */
export interface FieldError {
  row?: number
  field: string
  message: Message
}

/** A field error as sent: its message in words. */
export type SentFieldError = Omit<FieldError, 'message'> & { message: string }

export const renderFieldErrors = (errors: readonly FieldError[], locale: Locale): SentFieldError[] =>
  errors.map((error) => ({ ...error, message: render(error.message, locale) }))

/** "field problem" for each problem, as one message: "field message; field message". */
export const problemsMessage = (problems: readonly FieldError[]): Message =>
  messageList(problems.map((p) => say.fieldProblem({ field: p.field, problem: p.message })))

/**
 * Domain errors: services throw these; the one onError turns them into the envelope, in the
 * request's language. `message` (for logs) is the English.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly text: Message,
    readonly errors?: FieldError[],
    readonly headers?: Record<string, string>,
  ) {
    super(render(text, 'en'))
    this.name = new.target.name
  }
}

export class ValidationError extends AppError {
  constructor(message: Message, errors?: FieldError[]) {
    super(400, message, errors)
  }

  /** Every problem named at once: "field message; field message". */
  static of(problems: FieldError[]): ValidationError {
    return new ValidationError(problemsMessage(problems), problems)
  }
}

export class UnauthorizedError extends AppError {
  constructor(message: Message = say.signInFirst()) {
    super(401, message, undefined, { 'WWW-Authenticate': 'Bearer' })
  }
}

export class ForbiddenError extends AppError {
  constructor(message: Message) {
    super(403, message)
  }
}

export class NotFoundError extends AppError {
  constructor(message: Message) {
    super(404, message)
  }
}

export class ConflictError extends AppError {
  constructor(message: Message) {
    super(409, message)
  }
}

export class PayloadTooLargeError extends AppError {
  constructor(message: Message) {
    super(413, message)
  }
}

export class UnsupportedMediaTypeError extends AppError {
  constructor(message: Message) {
    super(415, message)
  }
}

export class TooManyRequestsError extends AppError {
  constructor(message: Message, retryAfterSeconds: number) {
    super(429, message, undefined, { 'Retry-After': String(retryAfterSeconds) })
  }
}

export class ServiceUnavailableError extends AppError {
  constructor(message: Message, retryAfterSeconds?: number) {
    super(503, message, undefined, retryAfterSeconds === undefined ? undefined : { 'Retry-After': String(retryAfterSeconds) })
  }
}
