import { expect } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApp, type App, type AppDeps } from '../src/app'
import { prepare } from '../src/bootstrap'
import { loadConfig, type Config } from '../src/config'
import { fixedClock } from '../src/lib/clock'
import { silentLogger } from '../src/lib/logger'
import { conformanceOf, type Conformance, type Doc } from './conformance'
import { onSqld, startSqld, type SqldServer } from './sqld'

export const ADMIN_PASSWORD = 'admin-password-1'
export const NOW = '2024-03-15T09:30:00.000Z'

export function tempDir(prefix = 'workforce-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix))
}

export function testConfig(dir: string, env: Record<string, string> = {}): Config {
  return loadConfig({
    DATABASE_URL: `file:${join(dir, 'workforce.db')}`,
    STORAGE_URL: `file:${join(dir, 'files')}`,
    ADMIN_PASSWORD,
    JWT_SECRET: 'test-secret-that-is-at-least-32-bytes-long',
    LOG_LEVEL: 'error',
    // the tests' answers must not hang on how full this machine's disk is; test/health.test.ts sets it
    HEALTH_MIN_FREE_MB: '0',
    ...env,
  })
}

export interface TestApp {
  app: App
  deps: AppDeps
  clock: ReturnType<typeof fixedClock>
  dir: string
  close(): void
}

/**
 * With TEST_DATABASE=sqld, the database of a folder is a libSQL server (test/sqld.ts) keeping its
 * data in that folder, started by the first app on the folder and stopped when the last one closes;
 * apps started with the same `dir` share it, as they share the file otherwise.
 */
const sqldByDir = new Map<string, { server: Promise<SqldServer>; apps: number }>()

function sqldFor(dir: string): { url: Promise<string>; release(): void } {
  let entry = sqldByDir.get(dir)
  if (!entry) sqldByDir.set(dir, (entry = { server: startSqld(join(dir, 'sqld')), apps: 0 }))
  entry.apps++
  const held = entry
  let started: SqldServer | null = null
  return {
    url: held.server.then((server) => (started = server).url),
    release() {
      if (--held.apps > 0) return
      if (sqldByDir.get(dir) === held) sqldByDir.delete(dir)
      // at once when it is up, so that the folder can be removed right after
      if (started) started.kill()
      else void held.server.then((server) => server.kill()).catch(() => {})
    },
  }
}

/** A fresh service on its own database file (a libSQL server of its own with TEST_DATABASE=sqld), with the clock frozen at `NOW`. */
export async function startApp(options: { env?: Record<string, string>; dir?: string; now?: string } = {}): Promise<TestApp> {
  const dir = options.dir ?? tempDir()
  const clock = fixedClock(options.now ?? NOW)
  const sqld = onSqld && options.env?.DATABASE_URL === undefined ? sqldFor(dir) : null
  let deps: AppDeps
  try {
    const env = sqld ? { DATABASE_URL: await sqld.url, ...options.env } : options.env
    deps = await prepare(testConfig(dir, env), { clock, logger: silentLogger })
  } catch (error) {
    sqld?.release()
    throw error
  }
  const app = checked(createApp(deps))
  return {
    app,
    deps,
    clock,
    dir,
    close() {
      deps.database.close()
      sqld?.release()
      if (!options.dir) rmSync(dir, { recursive: true, force: true })
    },
  }
}

export interface Reply {
  status: number
  headers: Headers
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any
}

export interface RequestOptions {
  token?: string
  body?: unknown
  /** sent as is, with Content-Type: application/json unless headers say otherwise */
  raw?: string
  headers?: Record<string, string>
  /** why this request's answer cannot be checked against the document (see `checked`); leave out to check it */
  unchecked?: string
}

const watched = new WeakSet<App>()
const uncheckedRequests = new WeakSet<Request>()

/**
 * The hook: from now on every answer `app.handle` gives (through req(), replyOf() or a test's own
 * call) is checked against the app's own /swagger/json (test/conformance.ts), and a mismatch makes
 * the call throw, so the test that made the request fails. startApp() and req() apply it to every
 * app they see. Not checked: HEAD, the routes hidden from the document (the docs page, its assets,
 * the document itself) and `/` (a redirect to the docs page).
 */
export function checked<A extends App>(app: A): A {
  if (watched.has(app)) return app
  watched.add(app)
  const handle = app.handle
  const hidden = app.routes
    .filter((route) => (route.hooks.detail as { hide?: boolean } | undefined)?.hide)
    .map((route) => ({ method: route.method, pattern: new RegExp(`^${route.path.replace(/:\w+/g, '[^/]+')}/?$`) }))
  const undocumented = (request: Request) => {
    const { pathname } = new URL(request.url)
    return request.method === 'HEAD' || pathname === '/' || hidden.some((route) => route.method === request.method && route.pattern.test(pathname))
  }
  let conformance: Promise<Conformance> | null = null
  app.handle = async (request: Request) => {
    const response = await handle(request)
    if (uncheckedRequests.has(request) || undocumented(request)) return response
    // the app's own document, fetched once per app; validators are compiled once per document
    conformance ??= handle(new Request('http://localhost/swagger/json')).then(async (served) => conformanceOf((await served.json()) as Doc))
    await (await conformance).check(request, response)
    return response
  }
  return app
}

/** A request whose answer the document cannot describe (say why at the call): `app.handle` does not check it. */
export function unchecked(request: Request): Request {
  uncheckedRequests.add(request)
  return request
}

export async function req(app: App, method: string, path: string, options: RequestOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers }
  if (options.token) headers.authorization = `Bearer ${options.token}`
  let body: string | undefined
  if (options.body !== undefined || options.raw !== undefined) {
    headers['content-type'] ??= 'application/json'
    body = options.raw ?? JSON.stringify(options.body)
  }
  const request = new Request(`http://localhost${path}`, { method, headers, body })
  return replyOf(await checked(app).handle(options.unchecked ? unchecked(request) : request))
}

/**
 * A response read whole: its body parsed as JSON when it is JSON, else kept as text. Answers of
 * `app.handle` were checked against the document there (see `checked`).
 */
export async function replyOf(response: Response): Promise<Reply> {
  const text = await response.text()
  let body: unknown = text
  try {
    body = JSON.parse(text)
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, headers: response.headers, body }
}

export async function login(app: App, username: string, password: string): Promise<string> {
  const reply = await req(app, 'POST', '/api/v1/auth/login', { body: { username, password } })
  if (reply.status !== 200) throw new Error(`login of ${username} failed: ${JSON.stringify(reply.body)}`)
  return reply.body.data.access_token
}

export const loginAdmin = (app: App) => login(app, 'admin', ADMIN_PASSWORD)

/** The error envelope the service answers with, stamped at the frozen time. */
export function errorBody(code: number, message: string, extra: Record<string, unknown> = {}) {
  return { code, message, data: null, timestamp: NOW, ...extra }
}

/** The 400 a request with one invalid field gets. */
export function invalidBody(field: string, message: string) {
  return errorBody(400, `Invalid request: ${field} ${message}`, { errors: [{ field, message }] })
}

export const BAD_ID = invalidBody('id', 'must be a positive whole number')

export function okBody(data: unknown, message = 'success') {
  return { code: 200, message, data, timestamp: NOW }
}

/** `checks` of /health when every part is well (the timings and the free space are any numbers); `overrides` replaces parts. */
export function healthyChecks(overrides: Record<string, unknown> = {}) {
  return {
    database_read: 'up',
    database_read_ms: expect.any(Number),
    database_write: 'up',
    database_write_ms: expect.any(Number),
    storage: 'up',
    disk_free_bytes: expect.any(Number),
    disk_min_free_bytes: 0,
    ...overrides,
  }
}

/** `data` of /health when every part is well; a server process (not testConfig) has the default HEALTH_MIN_FREE_MB. */
export const healthyData = (overrides: Record<string, unknown> = {}, checks: Record<string, unknown> = {}) => ({
  status: 'ok',
  database: 'up',
  storage: 'up',
  checks: healthyChecks(checks),
  ...overrides,
})

/** HEALTH_MIN_FREE_MB's default, in bytes, as /health reports it. */
export const DEFAULT_MIN_FREE_BYTES = 256 * 1024 ** 2

/** Every route that needs a permission, with that permission (from the route's docs). */
export function guardedRoutes(app: App): { method: string; path: string; permission: string }[] {
  return app.routes
    .map((route) => ({
      method: route.method,
      path: route.path,
      permission: (route.hooks.detail as { 'x-permission'?: string } | undefined)?.['x-permission'] ?? '',
    }))
    .filter((route) => route.permission !== '')
}

/** A concrete path for a route pattern: every path parameter gets a value of its kind. */
export function samplePath(path: string): string {
  const samples: Record<string, string> = { role_name: 'admin', permission_name: 'users:read' }
  return path.replace(/:(\w+)/g, (_, name: string) => samples[name] ?? '1')
}

/** A user created through the API (by `token`) and signed in; returns the user's id and token. */
export async function makeUser(app: App, token: string, username: string, roles: string[] = []): Promise<{ id: number; token: string }> {
  const password = `${username}-password-1`
  const created = await req(app, 'POST', '/api/v1/admin/users', { token, body: { username, password, name: username, roles } })
  if (created.status !== 201) throw new Error(`creating ${username} failed: ${JSON.stringify(created.body)}`)
  return { id: created.body.data.id, token: await login(app, username, password) }
}

/** Every row of every table, by table name: what a refused request must leave alone. */
export async function tableRows(t: TestApp): Promise<Record<string, unknown[][]>> {
  const { client } = t.deps.database
  const tables = await client.execute(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`)
  const rows: Record<string, unknown[][]> = {}
  for (const { name } of tables.rows) {
    const result = await client.execute(`SELECT * FROM "${String(name)}"`)
    rows[String(name)] = result.rows.map((row) => result.columns.map((column) => row[column]))
  }
  return rows
}

/** A leave request as the API's messages name it: whose, of which type, which days. */
export function leaveNamed(request: Record<string, unknown>): string {
  const r = request as { employee: { name: string }; type_name: string; start_date: string; end_date: string; half_day: 'am' | 'pm' | null }
  const span =
    r.half_day !== null
      ? `on ${r.start_date} (${r.half_day})`
      : r.start_date === r.end_date
        ? `on ${r.start_date}`
        : `from ${r.start_date} to ${r.end_date}`
  return `${r.employee.name}'s request for ${r.type_name} ${span}`
}
