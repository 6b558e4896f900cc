import { say } from './messages'
import { Elysia } from 'elysia'
import { PayloadTooLargeError, UnsupportedMediaTypeError, ValidationError } from './errors'

export const JSON_BODY_LIMIT = 1024 * 1024

/** The body as text, refused (413) as soon as it passes `limit` bytes. */
export async function readLimited(request: Request, limit: number): Promise<string> {
  const declared = Number(request.headers.get('content-length'))
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit)
  if (!request.body) return ''
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit) {
      await reader.cancel()
      throw tooLarge(limit)
    }
    chunks.push(value)
  }
  return new TextDecoder().decode(Buffer.concat(chunks))
}

const tooLarge = (limit: number) =>
  new PayloadTooLargeError(say.bodyTooLarge({ mib: limit / 1024 / 1024 }))

/** No request of this API nests more than a few levels; thousands of levels overflow the stack while an error is described. */
export const JSON_MAX_DEPTH = 64

/** True when arrays and objects nest deeper than `limit` (brackets inside strings do not count). */
function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i)
    if (inString) {
      // a backslash escapes the next character, so \" does not end the string
      if (char === 0x5c) i++
      else if (char === 0x22) inString = false
    } else if (char === 0x22) inString = true
    else if (char === 0x5b || char === 0x7b) {
      if (++depth > limit) return true
    } else if (char === 0x5d || char === 0x7d) depth--
  }
  return false
}

/** SQLite hands a text back only up to its first NUL, so "Acme\u0000 Evil" would be stored whole and read as "Acme". */
class NulInText extends ValidationError {
  constructor(key: string) {
    super(key ? say.nulInField({ key }) : say.nulInText())
  }
}

/**
 * Refuses a text holding NUL (above), and drops toString and valueOf keys like any unknown
 * field (no field of this API has those names): kept, `{"name": {"toString": 0}}` made the
 * validator's error text (which writes the value into a string) throw, a 500 instead of
 * "name must be a string".
 */
function revive(key: string, value: unknown): unknown {
  if (typeof value === 'string' && value.includes('\u0000')) throw new NulInText(key)
  return key === 'toString' || key === 'valueOf' ? undefined : value
}

/** Routes that read their multipart/form-data body themselves, as a stream (the uploads). */
const streamedRoutes = new Set<string>()

/** Whether the route (its full path) reads its body itself, as a stream: see `streamedMultipart`. */
export const streams = (route: string) => streamedRoutes.has(route)

/** Each JSON body's text as it came, for the request's fingerprint (Idempotency-Key, ./idempotency.ts). */
const rawBodies = new WeakMap<Request, string>()

/** The text of the request's body when this parser read it; undefined when it did not. */
export const rawBodyOf = (request: Request): string | undefined => rawBodies.get(request)

/**
 * The parser of a route that streams its multipart body itself: leaves the body unread
 * (Elysia 1.4's 'none' parser is missing). `route` is the route's full path.
 */
export function streamedMultipart(route: string) {
  streamedRoutes.add(route)
  return () => ({})
}

/** What the parser sees of the app it is used in (Elysia keeps it protected). */
interface AppView {
  getGlobalRoutes(): { method: string; path: string; hooks: { body?: unknown } }[]
}

/** "METHOD path" of the routes that declare a body, made again when routes were added. */
let bodyRoutes: { count: number; keys: Set<string> } = { count: -1, keys: new Set() }

function declaresBody(app: AppView, method: string, route: string): boolean {
  const routes = app.getGlobalRoutes()
  if (routes.length !== bodyRoutes.count)
    bodyRoutes = { count: routes.length, keys: new Set(routes.filter((r) => r.hooks.body !== undefined).map((r) => `${r.method} ${r.path}`)) }
  return bodyRoutes.keys.has(`${method} ${route}`) || bodyRoutes.keys.has(`ALL ${route}`)
}

/**
 * Parses request bodies itself, as JSON, so that size (413) and syntax (400) errors get
 * clear messages. Whatever the Content-Type says, a body is read as JSON and never more
 * than 1 MiB of it (`curl -d` sends JSON as a form): Elysia's own parsers would read a
 * body of any size whole before the caller's token is even looked at. Multipart is the
 * upload routes' alone, which read it themselves; anywhere else it is refused unread (415). A
 * route that declares no body (sign-out, the cancellations) ignores whatever body comes.
 */
const parser = new Elysia({ name: 'json-body' })
export const jsonBody = parser.onParse({ as: 'global' }, async ({ request, contentType, route }) => {
  if (streamedRoutes.has(route)) return
  if (!declaresBody(parser as unknown as AppView, request.method, route)) return {}
  if (contentType?.toLowerCase().startsWith('multipart/'))
    throw new UnsupportedMediaTypeError(say.multipartRefused())
  const raw = await readLimited(request, JSON_BODY_LIMIT)
  rawBodies.set(request, raw)
  if (raw.trim() === '') return {}
  if (nestsDeeperThan(raw, JSON_MAX_DEPTH))
    throw new ValidationError(say.bodyTooDeep({ depth: JSON_MAX_DEPTH }))
  try {
    // without a backslash a text holds no escape, so no NUL (a raw one is not JSON) and no key spelled otherwise than it reads
    return !raw.includes('\\') && !raw.includes('toString') && !raw.includes('valueOf') ? JSON.parse(raw) : JSON.parse(raw, revive)
  } catch (error) {
    if (error instanceof NulInText) throw error
    throw new ValidationError(say.bodyNotJson({ detail: (error as Error).message }))
  }
})
