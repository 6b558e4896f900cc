import { Elysia } from 'elysia'

export type Encoding = 'br' | 'gzip'

/** Bodies shorter than this (in characters, so about 1 KB) go out as they are: the saving is a few hundred bytes at most. */
export const COMPRESS_MIN_LENGTH = 1024

/**
 * Per-request gzip level. Measured on a 7.5 KB employee page and the 517 KB OpenAPI document: level 4 is
 * within 3–9 % of level 6's size for 55–70 % of its CPU (0.02 ms and 0.8 ms).
 */
const GZIP_LEVEL = 4

const COMPRESSIBLE_TYPE = /^(?:text\/|application\/(?:json|javascript|xml|[\w.-]+\+(?:json|xml))|image\/svg\+xml)/i

/** Text formats worth compressing: JSON, HTML, JavaScript, CSS, SVG and other text. */
export const isCompressible = (contentType: string | undefined) => contentType !== undefined && COMPRESSIBLE_TYPE.test(contentType)

/**
 * The content coding to answer with, from an Accept-Encoding header: the offered coding with the highest
 * q-value above 0 (a tie goes to the first offered), or null for the body as it is.
 */
export function negotiateEncoding(header: string | null, offered: readonly Encoding[]): Encoding | null {
  if (!header) return null
  const weights = new Map<string, number>()
  for (const part of header.split(',')) {
    const [name, ...parameters] = part.split(';')
    let coding = name.trim().toLowerCase()
    if (coding === 'x-gzip') coding = 'gzip'
    if (!coding) continue
    let weight = 1
    for (const parameter of parameters) {
      const match = /^\s*q\s*=(.*)$/i.exec(parameter)
      // a q-value that is no number refuses the coding: the body as it is is always safe
      if (match) weight = /^\s*[0-9.]+\s*$/.test(match[1]) ? Number(match[1]) : 0
    }
    weights.set(coding, Number.isFinite(weight) ? weight : 0)
  }
  let best: Encoding | null = null
  let bestWeight = 0
  for (const coding of offered) {
    const weight = weights.get(coding) ?? weights.get('*') ?? 0
    if (weight > bestWeight) {
      best = coding
      bestWeight = weight
    }
  }
  return best
}

/** Adds Accept-Encoding to Vary, keeping what is there. */
export function varyOnEncoding(headers: Record<string, string | number>): void {
  const vary = headers.vary
  if (vary === undefined || vary === '') headers.vary = 'accept-encoding'
  else if (!/(?:^|,)\s*(?:accept-encoding|\*)\s*(?:,|$)/i.test(String(vary))) headers.vary = `${vary}, accept-encoding`
}

/** Statuses without a body to compress (204, 304) or whose body is a byte range of another (206). */
const UNTOUCHED_STATUS = new Set<unknown>([204, 206, 304])

/**
 * Elysia maps whatever a mapResponse hook returns as it maps a handler's value (text, bytes, objects),
 * although its type names Response only. The hook hands the value back rather than undefined: on the
 * error path Elysia answers with the hook's result, whatever it is.
 */
const answer = (value: unknown) => value as Response

/**
 * gzip for JSON and text bodies of about 1 KB or more when the client accepts it, compressed per request.
 * Only the values a handler returns as data are considered (objects, arrays, text): a Response, a file or
 * bytes (file downloads with their Range and ETag, docs assets compressed in advance) pass untouched, as do
 * HEAD, 204, 206 and 304. A request without gzip in Accept-Encoding costs one header lookup; one with it
 * costs a length check, the JSON being serialized here instead of by Elysia.
 */
export const compression = () =>
  new Elysia({ name: 'compression' }).mapResponse({ as: 'global' }, ({ request, responseValue: value, set }) => {
    const accepted = request.headers.get('accept-encoding')
    if (accepted === null || !(accepted.includes('gzip') || accepted.includes('*'))) return answer(value)
    if (value === null || (typeof value !== 'object' && typeof value !== 'string')) return answer(value)
    if (request.method === 'HEAD' || UNTOUCHED_STATUS.has(set.status) || set.headers['content-encoding'] !== undefined) return answer(value)

    let text: string
    if (typeof value === 'string') {
      if (value.length < COMPRESS_MIN_LENGTH || !isCompressible(String(set.headers['content-type'] ?? 'text/plain'))) return answer(value)
      text = value
    } else {
      if (value.constructor !== Object && !Array.isArray(value)) return answer(value)
      text = JSON.stringify(value)
      set.headers['content-type'] ??= 'application/json;charset=utf-8'
      if (text.length < COMPRESS_MIN_LENGTH) return answer(text)
    }
    varyOnEncoding(set.headers)
    if (negotiateEncoding(accepted, ['gzip']) === null) return answer(text)

    const body = Bun.gzipSync(text, { level: GZIP_LEVEL })
    set.headers['content-encoding'] = 'gzip'
    set.headers['content-length'] = String(body.byteLength)
    return answer(body)
  })
