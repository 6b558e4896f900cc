import { FormatRegistry, Type, type IntegerOptions } from '@sinclair/typebox'
import { t } from 'elysia'
import { ruleText } from '../lib/messages'

/*
 * Query and path values are text, and Elysia's t.Integer takes one whose `+value` is a whole
 * number: "0x10", "1e3", "0b1", " 5" and "1.0" passed as ids and pages. Only decimal digits
 * count as a whole number now (the format is Elysia's, shared by every query and path integer).
 */
FormatRegistry.Set('integer', (value) => /^-?\d+$/.test(value))

/**
 * A whole number in a JSON body. Elysia's `t.Integer` also accepts a string of digits and
 * converts it (elysiajs/elysia#1532): right for query strings and paths, which are text, but in
 * JSON `"1"` is a string, and a known field of the wrong type is a 400 (CONTRACT §1).
 */
export const Int = (options?: IntegerOptions) => Type.Integer(options)

/** A positive whole number in a query string or path (digits accepted); the custom message names the field because coercion loses it. */
export const PositiveInt = (field: string, description?: string) =>
  t.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, error: ruleText({ en: `${field} must be a positive whole number`, zh: `${field} 必须是正整数` }), description })

/** A path id: a positive integer, else 400. */
export const IdParams = t.Object({ id: PositiveInt('id') })

/** A positive whole number in a JSON body (a string of digits is refused). */
export const Id = Int({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, error: ruleText({ en: 'must be a positive whole number', zh: '必须是正整数' }) })

/** Trimmed text of bounded length; blank after trimming counts as missing. */
export const Text = (maxLength: number, minLength = 1) => t.String({ minLength, maxLength })

export const DateString = t.String({
  pattern: '^\\d{4}-\\d{2}-\\d{2}$',
  description: 'YYYY-MM-DD',
  examples: ['2024-01-31'],
  error: ruleText({ en: 'must be a date written YYYY-MM-DD', zh: '必须是 YYYY-MM-DD 格式的日期' }),
})

export const Timestamp = t.String({ format: 'date-time' })

export const Email = t.String({
  maxLength: 254,
  pattern: '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$',
  description: 'e-mail address',
  error: ruleText({ en: 'must be an e-mail address of at most 254 characters', zh: '必须是不超过 254 个字符的电子邮箱地址' }),
})

export const Phone = t.String({
  maxLength: 32,
  pattern: '^[0-9+()\\- ]{3,32}$',
  description: 'digits, spaces, +, -, ( and )',
  error: ruleText({ en: 'must be 3 to 32 digits, spaces, +, -, ( or )', zh: '必须是 3 到 32 个数字、空格、+、-、( 或 )' }),
})

/** 1 or 0 in a body; `meaning` says what each is for this resource. */
export const Status = (meaning = '1 = enabled, 0 = disabled') =>
  t.Union([t.Literal(0), t.Literal(1)], { description: meaning, error: ruleText({ en: 'must be 0 or 1', zh: '必须是 0 或 1' }) })

/** The same as a query filter: query values arrive as text, so this is a coerced integer. */
export const StatusFilter = (meaning = '1 = enabled, 0 = disabled') =>
  t.Integer({ minimum: 0, maximum: 1, description: meaning, error: ruleText({ en: 'status must be 0 or 1', zh: 'status 必须是 0 或 1' }) })

export const Password = t.String({ minLength: 8, maxLength: 128, description: '8 to 128 characters' })
