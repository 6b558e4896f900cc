import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApp, type App, type AppDeps } from '../src/app'
import { prepare } from '../src/bootstrap'
import { loadConfig, type Config } from '../src/config'
import { fixedClock } from '../src/lib/clock'
import { silentLogger } from '../src/lib/logger'

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

/** A fresh service on its own database file, with the clock frozen at `NOW`. */
export async function startApp(options: { env?: Record<string, string>; dir?: string; now?: string } = {}): Promise<TestApp> {
  const dir = options.dir ?? tempDir()
  const clock = fixedClock(options.now ?? NOW)
  const deps = await prepare(testConfig(dir, options.env), { clock, logger: silentLogger })
  const app = createApp(deps)
  return {
    app,
    deps,
    clock,
    dir,
    close() {
      deps.database.close()
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
}

export async function req(app: App, method: string, path: string, options: RequestOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers }
  if (options.token) headers.authorization = `Bearer ${options.token}`
  let body: string | undefined
  if (options.body !== undefined || options.raw !== undefined) {
    headers['content-type'] ??= 'application/json'
    body = options.raw ?? JSON.stringify(options.body)
  }
  return replyOf(await app.handle(new Request(`http://localhost${path}`, { method, headers, body })))
}

/** A response read whole: its body parsed as JSON when it is JSON, else kept as text. */
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
