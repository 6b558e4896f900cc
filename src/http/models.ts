import { t } from 'elysia'

/** A positive whole number; the custom message names the field because query and path coercion lose it. */
export const PositiveInt = (field: string, description?: string) =>
  t.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, error: `${field} must be a positive whole number`, description })

/** A path id: a positive integer, else 400. */
export const IdParams = t.Object({ id: PositiveInt('id') })

export const Id = t.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER })

/** Trimmed text of bounded length; blank after trimming counts as missing. */
export const Text = (maxLength: number, minLength = 1) => t.String({ minLength, maxLength })

export const DateString = t.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD', examples: ['2024-01-31'] })

export const Timestamp = t.String({ format: 'date-time' })

export const Email = t.String({ maxLength: 254, pattern: '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$', description: 'e-mail address' })

export const Phone = t.String({ maxLength: 32, pattern: '^[0-9+()\\- ]{3,32}$', description: 'digits, spaces, +, -, ( and )' })

export const Status = t.Union([t.Literal(0), t.Literal(1)], {
  description: '1 = enabled, 0 = disabled',
  error: 'status must be 0 or 1',
})

export const Password = t.String({ minLength: 8, maxLength: 128, description: '8 to 128 characters' })

/** Bodies of deletes and similar: data null. */
export const NullData = t.Null()
