/** What is wrong with one field; `row` is the row of an imported file it was found in (the header is row 1). */
export interface FieldError {
  row?: number
  field: string
  message: string
}

/** Domain errors: services throw these; the one onError turns them into the envelope. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: FieldError[],
    readonly headers?: Record<string, string>,
  ) {
    super(message)
    this.name = new.target.name
  }
}

export class ValidationError extends AppError {
  constructor(message: string, errors?: FieldError[]) {
    super(400, message, errors)
  }

  /** Every problem named at once: "field message; field message". */
  static of(problems: FieldError[]): ValidationError {
    return new ValidationError(problems.map((p) => `${p.field} ${p.message}`).join('; '), problems)
  }
}

export class UnauthorizedError extends AppError {
  constructor(message = 'Sign in first: send "Authorization: Bearer <access token>" from POST /api/v1/auth/login') {
    super(401, message, undefined, { 'WWW-Authenticate': 'Bearer' })
  }
}

export class ForbiddenError extends AppError {
  constructor(message: string) {
    super(403, message)
  }
}

export class NotFoundError extends AppError {
  constructor(message: string) {
    super(404, message)
  }
}

export class ConflictError extends AppError {
  constructor(message: string) {
    super(409, message)
  }
}

export class PayloadTooLargeError extends AppError {
  constructor(message: string) {
    super(413, message)
  }
}

export class UnsupportedMediaTypeError extends AppError {
  constructor(message: string) {
    super(415, message)
  }
}

export class TooManyRequestsError extends AppError {
  constructor(message: string, retryAfterSeconds: number) {
    super(429, message, undefined, { 'Retry-After': String(retryAfterSeconds) })
  }
}

export class ServiceUnavailableError extends AppError {
  constructor(message: string, retryAfterSeconds?: number) {
    super(503, message, undefined, retryAfterSeconds === undefined ? undefined : { 'Retry-After': String(retryAfterSeconds) })
  }
}
