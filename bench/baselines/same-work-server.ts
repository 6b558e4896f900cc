/**
 * B4 and B5: S1's clock-in and S2's two reads done by hand, the same work Workforce does for
 * them without its layers (no Elysia, no Drizzle, no @libsql/client, no TypeBox, no CASL):
 * `Bun.serve` with its own router, `jose` for the tokens, the `libsql` driver with Workforce's
 * pragmas and statements (same-work-db.ts), and Workforce's own pure functions for the policy,
 * the position and the shapes. Each answer is the one Workforce gives, byte for byte but the
 * timestamps (bench/scenarios/same-work.ts checks it): the {code, message, data, timestamp}
 * envelope, the security headers, gzip at level 4 for a body of 1 KB or more.
 *
 *   DATABASE_PATH=bench/.data/full/workforce.db JWT_SECRET=… PORT=8081 bun bench/baselines/same-work-server.ts
 *
 * DEFAULT_TIMEZONE and LOCALE as Workforce reads them. bench/run.ts starts it as its own process
 * on the seeded database and drives it with S1's and S2's requests.
 */
import type { Locale } from '../../src/config'
import { AppError, NotFoundError, PayloadTooLargeError, renderFieldErrors, ValidationError } from '../../src/http/errors'
import { say as http } from '../../src/http/messages'
import { render, type Message } from '../../src/lib/messages'
import { pickLocale } from '../../src/lib/status-text'
import { say as attendance } from '../../src/modules/attendance/messages'
import { say as health } from '../../src/modules/health/messages'
import { createCallerCheck, linkedEmployee } from './same-work-auth'
import { clockBody, clockIn, contextReader } from './same-work-clock-in'
import { openSameWork } from './same-work-db'
import { salaryOfMonth, today } from './same-work-reads'

const env = process.env
const db = openSameWork(env.DATABASE_PATH!)
const check = createCallerCheck(db, env.JWT_SECRET!)
const contextOf = contextReader(db, env.DEFAULT_TIMEZONE ?? 'UTC')
const fallbackLocale: Locale = env.LOCALE?.toLowerCase().startsWith('zh') ? 'zh' : 'en'

const JSON_BODY_LIMIT = 1024 * 1024
const COMPRESS_MIN_LENGTH = 1024
const HEADERS = {
  'content-type': 'application/json;charset=utf-8',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
}
const GZIPPED = { ...HEADERS, vary: 'accept-encoding', 'content-encoding': 'gzip' }
/** Workforce's error handler spells the type with a space */
const FAILED = { ...HEADERS, 'content-type': 'application/json; charset=utf-8' }

function reply(request: Request, status: number, envelope: object, headers: Record<string, string> = HEADERS): Response {
  const text = JSON.stringify(envelope)
  // the load driver accepts gzip; Workforce weighs the header's q-values, which never refuse gzip here
  if (text.length >= COMPRESS_MIN_LENGTH && request.headers.get('accept-encoding')?.includes('gzip'))
    return new Response(Bun.gzipSync(text, { level: 4 }), { status, headers: GZIPPED })
  return new Response(text, { status, headers })
}

const localeOf = (request: Request): Locale => pickLocale(request.headers.get('accept-language'), fallbackLocale)

/** A success envelope, its message in the request's language (Workforce's `envelopeLanguage`). */
const ok = (request: Request, locale: Locale, data: unknown, message: Message = http.success()) =>
  reply(request, 200, { code: 200, message: render(message, locale), data, timestamp: new Date().toISOString() })

/** An error envelope as Workforce's error handler makes it: the messages in the request's language. */
function failure(request: Request, error: unknown): Response {
  const locale = localeOf(request)
  if (error instanceof AppError) {
    const { status, text, errors, headers } = error
    const envelope = {
      code: status,
      message: render(text, locale),
      data: null,
      timestamp: new Date().toISOString(),
      ...(errors ? { errors: renderFieldErrors(errors, locale) } : {}),
    }
    return reply(request, status, envelope, headers ? { ...FAILED, ...headers } : FAILED)
  }
  console.error(error)
  const envelope = { code: 500, message: render(http.internalLogged(), locale), data: null, timestamp: new Date().toISOString() }
  return reply(request, 500, envelope, FAILED)
}

/** A route's work: the caller checked for `permission` first, any domain error answered as Workforce answers it. */
const route =
  (permission: string, work: (request: Request, caller: Awaited<ReturnType<typeof check>>, locale: Locale) => Promise<Response> | Response) =>
  async (request: Request) => {
    try {
      const caller = await check(request.headers.get('authorization'), permission)
      return await work(request, caller, localeOf(request))
    } catch (error) {
      return failure(request, error)
    }
  }

async function jsonBody(request: Request): Promise<unknown> {
  if (Number(request.headers.get('content-length')) > JSON_BODY_LIMIT)
    throw new PayloadTooLargeError(http.bodyTooLarge({ mib: JSON_BODY_LIMIT / 1024 / 1024 }))
  try {
    return await request.json()
  } catch (error) {
    throw new ValidationError(http.bodyNotJson({ detail: (error as Error).message }))
  }
}

const server = Bun.serve({
  hostname: env.HOST ?? '127.0.0.1',
  port: Number(env.PORT ?? 8081),
  reusePort: true,
  routes: {
    '/health': (request) => ok(request, localeOf(request), { status: 'ok', database: db.healthy() ? 'up' : 'down' }, health.healthy()),
    '/api/v1/attendance/clock-in': {
      POST: route('attendance:clock', async (request, caller, locale) => {
        const input = clockBody(await jsonBody(request))
        return ok(request, locale, clockIn(db, contextOf(linkedEmployee(caller, 'attendance')), input, locale), attendance.clockedIn())
      }),
    },
    '/api/v1/attendance/today': {
      GET: route('attendance:view', (request, caller, locale) => {
        const record = today(db, contextOf(linkedEmployee(caller, 'attendance')), locale)
        return ok(request, locale, record, record ? undefined : attendance.noRecordToday())
      }),
    },
    '/api/v1/employees/salaries/:month': {
      GET: route('salaries:read_own', (request, caller, locale) =>
        ok(request, locale, salaryOfMonth(db, linkedEmployee(caller, 'salary records'), (request as Bun.BunRequest<'/:month'>).params.month, locale)),
      ),
    },
  },
  fetch: (request) => failure(request, new NotFoundError(http.noEndpoint({ method: request.method, path: new URL(request.url).pathname }))),
})

process.on('SIGTERM', () => {
  void server.stop(true)
  db.close()
  process.exit(0)
})
console.log(`same-work baseline listening on ${server.port}`)
