import { say } from './messages'
import { Elysia } from 'elysia'
import { unavailableIn } from '../db/unavailable'
import type { Logger } from '../lib/logger'
import { AppError, ConflictError, ValidationError } from './errors'
import { JSON_BODY_LIMIT, rawBodyOf, readLimited, streams } from './json-body'

/*
 * Idempotency-Key (CONTRACT §25): a client that got no answer to a POST (a connection cut, a 503
 * whose outcome is unknown) sends it again with the same key, and gets the first answer instead of
 * a second change. Every POST of a signed-in caller takes the header; an anonymous one (sign-in)
 * ignores it.
 *
 * - The key is claimed (a row with no answer yet) before the handler runs; the unique index on
 *   (account, key) decides between two requests that race for it, and the loser gets a 409.
 * - An answer below 500 is kept with the request's fingerprint (method, path with query, SHA-256 of
 *   the body); the same key and fingerprint again gets it back (`Idempotent-Replayed: true`), the
 *   same key with another request a 409.
 * - An answer of 500 or more frees the key, unless the change's outcome is unknown (the database went
 *   away after it was sent): the key then stays claimed, and a repeat is told to check instead of
 *   being run a second time.
 */

export const IDEMPOTENCY_HEADER = 'Idempotency-Key'
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255

/** The first answer to a key, as sent. */
export interface KeptAnswer {
  status: number
  body: string
  contentType: string
}

/** Where keys are kept: handed in by src/modules/idempotency, per account. */
export interface IdempotencyStore {
  /** the key taken for a new request (`reserved`: its id), or what the live row already holding it has */
  claim(userId: number, key: string, fingerprint: string): Promise<{ reserved: number } | { taken: { fingerprint: string; answer: KeptAnswer | null } }>
  keep(id: number, fingerprint: string, answer: KeptAnswer): Promise<void>
  release(id: number): Promise<void>
}

/** A fingerprint not known yet: an upload's body is hashed as its handler reads it. */
const UNREAD = 'unread'
/** What a refused upload's body may still be read for its fingerprint; past that, the key is freed instead. */
const DRAIN_LIMIT = 1024 * 1024

/**
 * SHA-256 of `head` and a body fed in chunks. In a multipart body each delimiter line counts as one
 * fixed text: clients pick a new boundary on every send, and the same form sent again must hash alike.
 */
export function bodyHash(head: string, boundary: string | null) {
  const hash = new Bun.CryptoHasher('sha256').update(head)
  const delimiter = boundary ? Buffer.from(`\r\n--${boundary}`) : null
  // a delimiter may be split between chunks: the last bytes that could start one wait for the next chunk
  let carry: Buffer = delimiter ? Buffer.from('\r\n') : Buffer.alloc(0)
  const hasher = {
    update(chunk: Uint8Array | string) {
      if (!delimiter) {
        hash.update(chunk)
        return hasher
      }
      const data = Buffer.concat([carry, typeof chunk === 'string' ? Buffer.from(chunk) : chunk])
      let start = 0
      for (let at = data.indexOf(delimiter); at !== -1; at = data.indexOf(delimiter, start)) {
        hash.update(data.subarray(start, at))
        hash.update('\u0000delimiter\u0000')
        start = at + delimiter.length
      }
      const keep = Math.max(start, data.length - (delimiter.length - 1))
      hash.update(data.subarray(start, keep))
      carry = Buffer.from(data.subarray(keep))
      return hasher
    },
    digest(): string {
      hash.update(carry)
      carry = Buffer.alloc(0)
      return hash.digest('hex')
    },
  }
  return hasher
}

const boundaryOf = (contentType: string | null) => {
  const match = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? '')
  return match ? (match[1] ?? match[2]) : null
}

/**
 * A streamed body (an upload) hashed as it passes: `install` hands the handler the same bytes through
 * the hash (the request keeps its identity, which the auth guard's lookups need); `finish` reads what
 * is left, at most `limit` bytes, and gives the hash, or null when the body cannot be had whole.
 */
function hashingBody(request: Request, head: string) {
  const hash = bodyHash(head, boundaryOf(request.headers.get('content-type')))
  const reader = request.body!.getReader()
  let done = false
  let cancelled = false
  const next = async () => {
    const chunk = await reader.read()
    if (chunk.done) done = true
    else hash.update(chunk.value)
    return chunk
  }
  return {
    install() {
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const chunk = await next()
          if (chunk.done) controller.close()
          else controller.enqueue(chunk.value)
        },
        cancel(reason) {
          cancelled = true
          return reader.cancel(reason)
        },
      })
      Object.defineProperty(request, 'body', {
        value: body,
        configurable: true,
      })
    },
    async finish(limit: number): Promise<string | null> {
      try {
        for (let left = limit; !done;) {
          if (cancelled || left <= 0) return null
          const chunk = await next()
          if (!chunk.done) left -= chunk.value.byteLength
        }
        return hash.digest()
      } catch {
        // the client went away before the body ended
        return null
      }
    },
  }
}

type HashingBody = ReturnType<typeof hashingBody>

interface Claimed {
  id: number
  /** the account and key, in `running` while the request runs here */
  running: string
  fingerprint: string | null
  body: HashingBody | null
}

const pathOf = (url: string) => {
  const { pathname, search } = new URL(url)
  return pathname + search
}

/** The answer as it will be sent, for keeping; null for one that cannot be kept (a stream, a file). */
async function answerOf(value: unknown, status: number, headers: Record<string, unknown>): Promise<KeptAnswer | null> {
  const declared = headers['content-type']
  if (value instanceof Response)
    return {
      status: value.status,
      body: await value.clone().text(),
      contentType: value.headers.get('content-type') ?? 'text/plain;charset=utf-8',
    }
  if (typeof value === 'string')
    return {
      status,
      body: value,
      contentType: String(declared ?? 'text/plain;charset=utf-8'),
    }
  if (value !== null && typeof value === 'object' && (value.constructor === Object || Array.isArray(value)))
    return {
      status,
      body: JSON.stringify(value),
      contentType: String(declared ?? 'application/json;charset=utf-8'),
    }
  return null
}

const keyProblem = () =>
  new ValidationError(say.idempotencyKeyLength({ header: IDEMPOTENCY_HEADER, max: IDEMPOTENCY_KEY_MAX_LENGTH }), [
    { field: IDEMPOTENCY_HEADER, message: say.idempotencyKeyLengthField({ max: IDEMPOTENCY_KEY_MAX_LENGTH }) },
  ])

const stillRunning = (key: string) =>
  new AppError(409, say.idempotencyRunning({ header: IDEMPOTENCY_HEADER, key }), undefined, {
    'Retry-After': '1',
  })

const outcomeUnknown = (key: string) =>
  new ConflictError(say.idempotencyUnknown({ header: IDEMPOTENCY_HEADER, key }))

const anotherRequest = (key: string) =>
  new ConflictError(say.idempotencyOther({ header: IDEMPOTENCY_HEADER, key }))

/**
 * The Idempotency-Key layer: `callerOf` names the signed-in account of a request (the auth guard
 * knows it once its check has run), `store` keeps the keys. Used before the compression, so that it
 * sees each answer before that does.
 */
export function idempotency({ store, callerOf, logger }: { store: IdempotencyStore; callerOf: (request: Request) => number | null; logger: Logger }) {
  const claimed = new WeakMap<Request, Claimed>()
  const running = new Set<string>()

  const plugin = new Elysia({ name: 'idempotency' })
    .onBeforeHandle({ as: 'global' }, async ({ request, route }) => {
      if (request.method !== 'POST') return
      const key = request.headers.get(IDEMPOTENCY_HEADER)
      const userId = key === null ? null : callerOf(request)
      if (key === null || userId === null) return
      if (key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX_LENGTH) throw keyProblem()

      const head = `${request.method} ${pathOf(request.url)}\n`
      const streamed = streams(route) && request.body !== null && !request.bodyUsed ? hashingBody(request, head) : null
      let fingerprint = streamed
        ? UNREAD
        : bodyHash(head, null)
            .update(rawBodyOf(request) ?? (request.bodyUsed ? '' : await readLimited(request, JSON_BODY_LIMIT)))
            .digest()

      const claim = await store.claim(userId, key, fingerprint)
      if ('reserved' in claim) {
        const entry: Claimed = {
          id: claim.reserved,
          running: `${userId}\n${key}`,
          fingerprint: streamed ? null : fingerprint,
          body: streamed,
        }
        running.add(entry.running)
        claimed.set(request, entry)
        streamed?.install()
        return
      }
      const { answer } = claim.taken
      if (answer === null) throw running.has(`${userId}\n${key}`) ? stillRunning(key) : outcomeUnknown(key)
      if (streamed) fingerprint = (await streamed.finish(Number.POSITIVE_INFINITY)) ?? UNREAD
      if (fingerprint !== claim.taken.fingerprint) throw anotherRequest(key)
      return new Response(answer.body, {
        status: answer.status,
        headers: {
          'content-type': answer.contentType,
          'idempotent-replayed': 'true',
        },
      })
    })
    .mapResponse({ as: 'global' }, async (context) => {
      const error = (context as { error?: unknown }).error
      await settle(context.request, context.responseValue, context.set, error)
      // Elysia's error paths answer with whatever each mapResponse hook returns, so there the value goes
      // back; on the success path a value would keep the compression, the next hook, from running
      return (error === undefined ? undefined : context.responseValue) as Response
    })
    .onAfterResponse({ as: 'global' }, ({ request }) => {
      // an answer no mapResponse saw (should none come): the key is no longer running here
      const entry = claimed.get(request)
      if (!entry) return
      claimed.delete(request)
      running.delete(entry.running)
    })
  return plugin

  /** Keeps the answer for the request's key, or frees the key (see the top of this file). */
  async function settle(request: Request, value: unknown, set: { status?: unknown; headers: Record<string, unknown> }, error: unknown) {
    const entry = claimed.get(request)
    // an error hook that let the error pass answers nothing yet: the next one will
    if (!entry || value === undefined) return
    claimed.delete(request)
    try {
      const status = value instanceof Response ? value.status : Number(set.status ?? 200)
      if (status >= 500) {
        const unavailable = unavailableIn(error)
        if (unavailable?.outcomeUnknown) logger.warn('idempotency key kept: the outcome of its request is unknown', { path: pathOf(request.url) })
        else await store.release(entry.id)
        return
      }
      const answer = await answerOf(value, status, set.headers)
      const fingerprint = entry.fingerprint ?? (await entry.body!.finish(status < 300 ? Number.POSITIVE_INFINITY : DRAIN_LIMIT))
      if (answer && fingerprint) await store.keep(entry.id, fingerprint, answer)
      // a change made but not kept: the key stays claimed, so a repeat is never run twice
      else if (status >= 300) await store.release(entry.id)
    } catch (error) {
      // the answer goes out all the same; the key stays claimed (a repeat is told to check)
      logger.warn('idempotency key: the answer could not be kept', {
        path: pathOf(request.url),
        error: String(error),
      })
    } finally {
      running.delete(entry.running)
    }
  }
}
