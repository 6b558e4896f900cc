import type { Locale } from '../config'

/*
 * The message catalogue (CONTRACT §24): every text the API sends exists in English and Chinese.
 * Each module defines its entries once, as templates with `{name}` placeholders:
 *
 *   const say = defineMessages('employees', {
 *     missing: { en: 'Employee {no} does not exist', zh: '员工 {no} 不存在' },
 *   })
 *   throw new NotFoundError(say.missing({ no }))
 *
 * A message stays a key and its values until it is sent; the one error handler (or a route that
 * returns messages as data) renders it in the request's language. `{n:s}` in English renders "s"
 * unless n is 1. Every entry is registered, so a test can check that none lacks its Chinese.
 */

/** A value put into a placeholder: a name, a date, a number, or another message. */
export type MessageValue = string | number | Message

export type Message =
  | { readonly key: string; readonly values: Readonly<Record<string, MessageValue>> }
  | { readonly list: readonly Message[] }
  | { readonly rule: string; readonly field?: string }

export interface Entry {
  readonly en: string
  readonly zh: string
}

type Placeholder<P extends string> = P extends `${infer Name}:${string}` ? Name : P
type Names<S extends string> = S extends `${string}{${infer P}}${infer Rest}` ? Placeholder<P> | Names<Rest> : never
type Args<S extends string> = [Names<S>] extends [never] ? [] : [values: Record<Names<S>, MessageValue>]

export type Messages<T extends Record<string, Entry>> = { readonly [K in keyof T & string]: (...args: Args<T[K]['en']>) => Message }

const registry = new Map<string, Entry>()

/** Registers a module's entries under `scope` and returns a maker of messages for each. */
export function defineMessages<const T extends Record<string, Entry>>(scope: string, entries: T): Messages<T> {
  const makers: Record<string, (values?: Record<string, MessageValue>) => Message> = {}
  for (const [name, entry] of Object.entries(entries)) {
    const key = `${scope}.${name}`
    if (registry.has(key)) throw new Error(`message ${key} is defined twice`)
    registry.set(key, entry)
    makers[name] = (values = {}) => ({ key, values })
  }
  return makers as unknown as Messages<T>
}

/** Every entry of the catalogue, by key (for the catalogue test). */
export const catalogue = (): ReadonlyMap<string, Entry> => registry

/** Several messages shown as one, each complete: "a; b" in English, "a；b" in Chinese. */
export const messageList = (list: readonly Message[]): Message => ({ list })

const PLACEHOLDER = /\{(\w+)(?::(\w+))?\}/g

/** A message in words of `locale`. */
export function render(message: Message, locale: Locale): string {
  if ('rule' in message) return ruleIn(message.rule, message.field, locale)
  if ('list' in message) return message.list.map((item) => render(item, locale)).join(locale === 'zh' ? '；' : '; ')
  const entry = registry.get(message.key)
  if (!entry) throw new Error(`message ${message.key} is not in the catalogue`)
  return entry[locale].replace(PLACEHOLDER, (_, name: string, suffix?: string) => {
    const value = message.values[name]
    if (suffix !== undefined) return Number(value) === 1 ? '' : suffix
    // a value the request did not have (a path part that could not be decoded) reads as nothing, rather than failing the answer
    if (value === undefined || value === null) return ''
    return typeof value === 'object' ? render(value, locale) : String(value)
  })
}

/** The values a template puts in (not those only choosing an English plural), for the catalogue test. */
export const placeholders = (template: string): string[] =>
  [...new Set([...template.matchAll(PLACEHOLDER)].filter((m) => m[2] === undefined).map((m) => m[1]))].sort()

/*
 * Texts a TypeBox model carries as its `error` (a field's rule, such as "must be a date written
 * YYYY-MM-DD"): the model keeps the English, since Elysia reads it there, and the Chinese is
 * registered beside it; the error handler translates by the English. A test walks every route's
 * models and fails on an `error` text with no Chinese.
 */
const ruleTexts = new Map<string, string>()

/** Registers a model's rule text in both languages and returns the English for the model. */
export function ruleText(entry: Entry): string {
  const known = ruleTexts.get(entry.en)
  if (known !== undefined && known !== entry.zh) throw new Error(`rule text "${entry.en}" has two Chinese texts`)
  ruleTexts.set(entry.en, entry.zh)
  return entry.en
}

/**
 * A model's rule text as a message. Query and path models name their field in it ("page must
 * be …", since coercion loses the path): given `field`, that leading name is left out.
 */
export const ruleMessage = (en: string, field?: string): Message => ({ rule: en, field })

function ruleIn(en: string, field: string | undefined, locale: Locale): string {
  const text = locale === 'en' ? en : (ruleTexts.get(en) ?? en)
  return field !== undefined && text.startsWith(`${field} `) ? text.slice(field.length + 1) : text
}

/** Every registered rule text (for the catalogue test). */
export const ruleCatalogue = (): ReadonlyMap<string, string> => ruleTexts
