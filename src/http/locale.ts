import { Elysia } from 'elysia'
import type { Locale } from '../config'
import { pickLocale } from '../lib/status-text'

/** Adds `locale` (from `Accept-Language`, else the LOCALE setting) to every route's context. */
export const localeOf = (fallback: Locale) =>
  new Elysia({ name: 'locale', seed: fallback }).resolve({ as: 'global' }, ({ headers }) => ({
    locale: pickLocale(headers['accept-language'], fallback),
  }))

export type LocalePlugin = ReturnType<typeof localeOf>
