import type { Locale } from '../config'

/** The status words of CONTRACT §1, exactly, in each language. */
const TEXTS = {
  en: {
    switch: ['disabled', 'enabled'],
    attendance: ['normal', 'late', 'early leave', 'absent', 'exception'],
    salary: ['unconfirmed', 'paid'],
  },
  zh: {
    switch: ['禁用', '启用'],
    attendance: ['正常', '迟到', '早退', '缺勤', '异常'],
    salary: ['未确认', '已发放'],
  },
} as const satisfies Record<Locale, Record<string, readonly string[]>>

export type StatusKind = keyof (typeof TEXTS)['en']

/** The text for a status value: `switch` is 1 enabled / 0 disabled (roles, rules, groups). */
export function statusText(kind: StatusKind, value: number, locale: Locale): string {
  return TEXTS[locale][kind][value] ?? String(value)
}

/**
 * The language of an `Accept-Language` header: the most preferred of English and
 * Chinese it names, else `fallback` (the LOCALE setting).
 */
export function pickLocale(header: string | undefined | null, fallback: Locale): Locale {
  if (!header) return fallback
  let best: { locale: Locale; q: number } | null = null
  for (const part of header.split(',')) {
    const [tag, ...params] = part.trim().toLowerCase().split(';')
    const primary = tag.split('-')[0]
    if (primary !== 'en' && primary !== 'zh') continue
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
    const q = qParam ? Number(qParam.slice(2)) : 1
    if (!(q > 0)) continue
    if (!best || q > best.q) best = { locale: primary, q }
  }
  return best?.locale ?? fallback
}
