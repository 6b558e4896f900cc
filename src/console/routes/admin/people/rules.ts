import type { people } from '../../../i18n/en/people'

type Shared = (typeof people)['shared']

/*
 * The API's field rules (the modules' model.ts files, http/models.ts), checked in the form first so
 * most mistakes show before a request; the API's own errors[] still land on the same fields.
 */
export const PHONE = /^[0-9+()\- ]{3,32}$/
export const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/
export const USERNAME = /^[A-Za-z0-9][A-Za-z0-9_.@-]{2,63}$/
export const ROLE_NAME = /^[a-z][a-z_]{1,49}$/
export const DATE = /^\d{4}-\d{2}-\d{2}$/

export const required = (w: Shared, max: number) => (value: string) =>
  value.trim() === '' ? w.required : value.trim().length > max ? w.tooLong(max) : null

export const optional = (w: Shared, max: number) => (value: string) => (value.trim().length > max ? w.tooLong(max) : null)

export const phone = (w: Shared) => (value: string) => (value.trim() !== '' && !PHONE.test(value.trim()) ? w.badPhone : null)

export const email = (w: Shared) => (value: string) => (value.trim() !== '' && !EMAIL.test(value.trim()) ? w.badEmail : null)

export const password = (w: Shared) => (value: string) => (value.length < 8 || value.length > 128 ? w.badPassword : null)

/** Blank text as null (the API's "clear this field"), else the trimmed text. */
export const orNull = (value: string): string | null => (value.trim() === '' ? null : value.trim())

/** A Select's value (text) as an id, or null. */
export const idOrNull = (value: string | null): number | null => (value ? Number(value) : null)
