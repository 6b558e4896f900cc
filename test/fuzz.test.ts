import { afterAll, describe, expect, test } from 'bun:test'
import { createHash } from 'node:crypto'
import { rmSync } from 'node:fs'
import { readdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { createClient, type Client } from '@libsql/client'
import fc from 'fast-check'
import { createApp } from '../src/app'
import { prepare } from '../src/bootstrap'
import { fixedClock } from '../src/lib/clock'
import type { Logger } from '../src/lib/logger'
import {
  encode,
  extraHeaders,
  formData,
  jsonBodyArb,
  passesJsonParser,
  pathArb,
  queryArb,
  unicodeString,
  uploadArb,
  type FormBody,
  type JsonBody,
  type Overrides,
  type RawBody,
  type Schema,
} from './fuzz-inputs'
import { errorBody, invalidBody, loginAdmin, makeUser, NOW, req, tempDir, testConfig, type TestApp } from './helpers'

/*
 * Property-based fuzzing of every route (issue 8): generated paths, query strings and bodies,
 * as the administrator (so validation and business rules are what is exercised) and without
 * a token. For every response: never a 5xx; the JSON envelope {code, message, data, timestamp}
 * with code = status (201 → 200); an error has data null and a message; and a refused request
 * (4xx) leaves the database as it was.
 *
 * Reproduce a failure with the printed seed: FUZZ_SEED=<seed> bun test test/fuzz.test.ts
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20240315)
/** FUZZ_RUNS=300 for a longer search; the file's figures are for the default. */
const ADMIN_RUNS = Number(process.env.FUZZ_RUNS ?? 100)
const ANON_RUNS = 20
/** Routes that take no input but a stray query or body get fewer runs. */
const INPUTLESS_RUNS = 40
/** Routes whose well-formed requests hash or check a password (argon2, ~200 ms here) get fewer runs. */
const RUNS: Record<string, number> = {
  'POST /api/v1/auth/login': 20,
  'PUT /api/v1/auth/password': 25,
  'POST /api/v1/admin/users': 25,
  'PUT /api/v1/admin/users/:id/password': 25,
  'POST /api/v1/admin/employees': 60,
}
const takesInput = (route: Route) => Boolean(route.body || route.query || route.path.includes(':') || route.path.includes('upload'))
const runsOf = (route: Route) => RUNS[route.key] ?? (takesInput(route) ? ADMIN_RUNS : INPUTLESS_RUNS)
/** Success here is not an envelope: a file's bytes, the exports' CSV or XLSX, the docs page, the OpenAPI document and the console's assets. */
const NOT_ENVELOPED = new Set([
  '/swagger',
  '/swagger/json',
  '/swagger/assets/:file',
  '/assets/:file',
  '/api/v1/storage/files/:id/content',
  '/api/v1/admin/exports/attendance',
  '/api/v1/admin/exports/salaries',
])
/** Refusals that write on purpose: a failed sign-in is counted (rate limit); a clock-in outside the area is kept for review. */
const WRITES_WHEN_REFUSED: Record<string, string[]> = {
  'POST /api/v1/auth/login': ['login_failures'],
  'POST /api/v1/attendance/clock-in': ['attendance_attempts'],
  'POST /api/v1/attendance/clock-out': ['attendance_attempts'],
}
const ENVELOPE_KEYS = new Set(['code', 'message', 'data', 'timestamp', 'errors', 'success'])

const logged: string[] = []
const capturingLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error(message, fields) {
    logged.push(`${message} ${JSON.stringify(fields ?? {})}`.slice(0, 1500))
  },
}

interface Route {
  method: string
  path: string
  key: string
  body?: Schema
  query?: Schema
  needsToken: boolean
}

interface FuzzInput {
  path: string
  query: string
  body?: JsonBody | FormBody | RawBody
  headers: Record<string, string>
}

let t: TestApp
let admin: string
let leaver: string
let watcher: Client
let adminId: number
const fixtures = { fileId: '', publicFileId: '', employeeId: 0, groupId: 0, ruleId: 0, salaryId: 0 }
const stats = new Map<string, { admin: number; anon: number; statuses: Map<number, number> }>()

const routes = (): Route[] =>
  t.app.routes
    .filter((route) => route.method !== 'HEAD')
    .map((route) => {
      const detail = route.hooks.detail as { 'x-permission'?: string; security?: object[] } | undefined
      const security = detail?.security ?? []
      return {
        method: route.method,
        path: route.path,
        key: `${route.method} ${route.path}`,
        body: route.hooks.body as Schema | undefined,
        query: route.hooks.query as Schema | undefined,
        // a route that also lists {} in its security takes a token or a signed link
        needsToken: security.length > 0 && !security.some((option) => Object.keys(option).length === 0),
      }
    })

const rank = (route: Route) =>
  route.path.startsWith('/api/v1/attendance/') || route.path.startsWith('/api/v1/employees/')
    ? 0
    : route.method === 'GET'
      ? 1
      : route.method === 'DELETE'
        ? 3
        : 2

// ---------------------------------------------------------------- database and storage watch

/** A connection of its own: PRAGMA data_version changes when any other connection commits a change. */
const dataVersion = async () => Number((await watcher.execute('PRAGMA data_version')).rows[0][0])

/** Every table's rows, hashed, except `skip`: slower than data_version, for routes that may write when refusing. */
async function fingerprint(skip: string[]): Promise<Record<string, string>> {
  const tables = await watcher.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
  const result: Record<string, string> = {}
  for (const row of tables.rows) {
    const name = String(row[0])
    if (skip.includes(name)) continue
    const rows = await watcher.execute(`SELECT * FROM "${name}" ORDER BY rowid`)
    result[name] = createHash('sha1').update(JSON.stringify(rows.rows)).digest('hex')
  }
  return result
}

/** Every file under the store's folder, temporary ones included. */
async function storedObjects(): Promise<string[]> {
  const entries = await readdir(join(t.dir, 'files'), { recursive: true, withFileTypes: true }).catch(() => [])
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(t.dir.length))
    .sort()
}

interface Snapshot {
  version: number
  tables?: Record<string, string>
  objects?: string[]
}

async function snapshot(route: Route): Promise<Snapshot> {
  const skip = WRITES_WHEN_REFUSED[route.key]
  return {
    version: await dataVersion(),
    tables: skip ? await fingerprint(skip) : undefined,
    objects: route.path.startsWith('/api/v1/storage/') ? await storedObjects() : undefined,
  }
}

async function unchangedSince(route: Route, before: Snapshot): Promise<string | null> {
  if (before.tables) {
    const after = await fingerprint(WRITES_WHEN_REFUSED[route.key])
    const changed = Object.keys(after).filter((name) => after[name] !== before.tables![name])
    if (changed.length > 0) return `tables changed: ${changed.join(', ')}`
  } else if ((await dataVersion()) !== before.version) return 'the database changed'
  if (before.objects !== undefined) {
    const after = await storedObjects()
    const added = after.filter((path) => !before.objects!.includes(path))
    const removed = before.objects.filter((path) => !after.includes(path))
    if (added.length > 0 || removed.length > 0) return `stored objects changed: +${added.join(', ')} -${removed.join(', ')}`
  }
  return null
}

// ---------------------------------------------------------------- requests

function describeInput(route: Route, input: FuzzInput): string {
  const cut = (text: string) => (text.length > 300 ? `${text.slice(0, 300)}… (${text.length} chars)` : text)
  let body = ''
  if (input.body?.kind === 'json') body = ` [${input.body.contentType}] ${cut(input.body.text)}`
  if (input.body?.kind === 'raw') body = ` [raw ${input.body.contentType}] ${cut(input.body.text)}`
  if (input.body?.kind === 'form') body = ` form ${cut(JSON.stringify({ files: input.body.files, fields: input.body.fields }))}`
  return `${route.method} ${cut(input.path + input.query)}${body} headers ${JSON.stringify(input.headers)}`
}

async function send(route: Route, input: FuzzInput, token: string | undefined) {
  logged.length = 0
  const headers = new Headers(input.headers)
  if (token) headers.set('authorization', `Bearer ${token}`)
  let body: string | FormData | undefined
  if (input.body?.kind === 'form') body = formData(input.body)
  else if (input.body) {
    if (input.body.contentType !== null) headers.set('content-type', input.body.contentType)
    body = input.body.text
  }
  const response = await t.app.handle(new Request(`http://localhost${input.path}${input.query}`, { method: route.method, headers, body }))
  const text = await response.text()
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    json = undefined
  }
  return { status: response.status, headers: response.headers, text, json }
}

type Reply = Awaited<ReturnType<typeof send>>

/** What is wrong with a reply, or null: no 5xx, and the envelope wherever one is due. */
function envelopeProblem(route: Route, reply: Reply): string | null {
  if (reply.status >= 500) return `status ${reply.status} (logged: ${logged.at(-1) ?? 'nothing'})`
  if (reply.status < 400 && NOT_ENVELOPED.has(route.path)) return null
  // a range outside the file: headers only (Content-Range: bytes */size), as RFC 9110 has it
  if (reply.status === 416 && route.path === '/api/v1/storage/files/:id/content') return reply.text === '' ? null : 'a 416 with a body'
  if (!(reply.headers.get('content-type') ?? '').startsWith('application/json')) return `content-type ${reply.headers.get('content-type')}`
  const body = reply.json as Record<string, unknown> | undefined
  if (!body || typeof body !== 'object' || Array.isArray(body)) return 'body is not a JSON object'
  const extra = Object.keys(body).filter((key) => !ENVELOPE_KEYS.has(key))
  if (extra.length > 0) return `unexpected keys ${extra.join(', ')}`
  if (body.code !== (reply.status === 201 ? 200 : reply.status)) return `code ${body.code} for status ${reply.status}`
  if (body.timestamp !== NOW) return `timestamp ${body.timestamp}`
  if (typeof body.message !== 'string' || body.message.trim() === '') return 'message is not a non-empty string'
  if (!('data' in body)) return 'no data'
  if (reply.status >= 400) {
    if (body.data !== null) return 'error with data'
    if ('success' in body) return 'error with success'
    if ('errors' in body) {
      const errors = body.errors as { field?: unknown; message?: unknown }[]
      if (!Array.isArray(errors) || errors.length === 0) return 'errors is not a non-empty array'
      if (errors.some((e) => typeof e.field !== 'string' || typeof e.message !== 'string' || e.message === ''))
        return 'malformed errors item'
    }
  } else if ('errors' in body) return 'success with errors'
  else if ('success' in body && body.success !== true) return 'success is not true'
  return null
}

function count(route: Route, who: 'admin' | 'anon', status: number) {
  const entry = stats.get(route.key) ?? { admin: 0, anon: 0, statuses: new Map() }
  entry[who]++
  entry.statuses.set(status, (entry.statuses.get(status) ?? 0) + 1)
  stats.set(route.key, entry)
}

// ---------------------------------------------------------------- generators per route

const ids = () => fc.integer({ min: 1, max: 8 }).map(String)

function pathPool(route: Route): (param: string) => fc.Arbitrary<string> {
  return (param) => {
    switch (param) {
      case 'role_name':
        return fc.constantFrom('admin', 'employee', 'fuzz_role', 'no_such_role')
      case 'permission_name':
        return fc.constantFrom('users:read', 'fuzz:thing', 'no:such', 'users')
      case 'month':
        return fc.constantFrom('2024-02', '2024-03', '2023-12', '2024-13')
      case 'file':
        return fc.constantFrom('swagger-ui.css', 'init.js', 'favicon-32x32.png', 'index.html', '../package.json')
      case 'id':
        if (route.path.startsWith('/api/v1/storage/')) return fc.oneof(fc.constantFrom(fixtures.fileId, fixtures.publicFileId), fc.uuid())
        return ids()
      default:
        return ids()
    }
  }
}

const dates = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom('2024-03-01', '2024-03-14', '2024-03-15', '2024-03-16', '2024-02-29', '2023-03-16', '2024-01-01'),
  },
  { weight: 1, arbitrary: fc.constantFrom('2024-02-30', '2023-02-29', '0000-00-00', '9999-12-31', '0000-01-01') },
  { weight: 1, arbitrary: fc.stringMatching(/^\d{4}-\d{2}-\d{2}$/) },
)
const months = fc.constantFrom('2024-02', '2024-03', '2024-04', '1970-01', '9999-12', '0000-01')
const yuan = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 0, max: 2_000_000 }).map((fen) => fen / 100) },
  { weight: 1, arbitrary: fc.constantFrom(0.1, 0.2, 100000000, 100000000.01, 0.001) },
)
const smallYuan = fc.integer({ min: 0, max: 20_000 }).map((fen) => fen / 100)
const INCOME = ['basic_salary', 'seniority_pay', 'performance_pay', 'overtime_pay', 'bonus', 'allowance']
const DEDUCTIONS = ['attendance_deduction', 'personal_insurance', 'personal_tax', 'housing_fund', 'other_deductions']
/** An optional field left out three times in four (an undefined value is not sent). */
const mostlyLeftOut = <T>(value: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: value })

function bodyOverrides(route: Route): Overrides {
  const fileId = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(fixtures.fileId, fixtures.publicFileId) },
    { weight: 1, arbitrary: fc.uuid() },
  )
  const overrides: Overrides = {
    // never 'admin': granting it to someone else would let the fuzz revoke it from the acting administrator
    role_name: fc.constantFrom('employee', 'fuzz_role', 'no_such_role', 'Employee'),
    roles: fc.array(fc.constantFrom('employee', 'fuzz_role', 'no_such_role'), { maxLength: 3 }),
    permission_name: fc.constantFrom('users:read', 'fuzz:thing', 'no:such', 'attendance:clock'),
    timezone: fc.constantFrom('Asia/Shanghai', 'UTC', 'Europe/Berlin', 'Mars/Olympus', 'utc', 'Etc/GMT+14', 'EST5EDT'),
    file_id: fileId,
    file_ids: fc.array(fc.oneof(fileId, unicodeString), { minLength: 1, maxLength: 4 }),
    // mostly real values, so that requests also get past validation to the rules behind it
    ...Object.fromEntries(['month', 'start_month', 'end_month'].map((field) => [field, months])),
    ...Object.fromEntries(
      ['date', 'start_date', 'end_date', 'date_from', 'date_to', 'hire_date', 'payment_date'].map((field) => [field, dates]),
    ),
    from: fc.oneof(dates, fc.constantFrom('2024-03-15T09:30:00Z', '2024-03-15T09:30:00.123+08:00', '2024-13-45T99:99:99Z')),
    to: fc.oneof(dates, fc.constantFrom('2024-03-16T00:00:00Z', '0000-01-01T00:00:00-23:59')),
    work_days: fc.constantFrom('1,2,3,4,5', '1,3,5', '6,7', '5', '1,2,3,4,5,6,7', '1,1', '7,1'),
    latitude: fc.oneof(fc.double({ min: 31.2, max: 31.3, noNaN: true }), fc.double({ min: -90, max: 90, noNaN: true })),
    longitude: fc.oneof(fc.double({ min: 121.4, max: 121.5, noNaN: true }), fc.double({ min: -180, max: 180, noNaN: true })),
    net_salary: mostlyLeftOut(yuan),
    ...Object.fromEntries(INCOME.map((field) => [field, yuan])),
    ...Object.fromEntries(DEDUCTIONS.map((field) => [field, fc.oneof(fc.constant(undefined), smallYuan)])),
    employee_ids: fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 4 }),
    ids: fc.array(fc.integer({ min: 1, max: 2 }), { minLength: 1, maxLength: 2 }),
    // the rules' cross-field checks: a location needs both coordinates and a radius, a break both ends
    location_required: fc.oneof({ weight: 3, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.boolean() }),
    allowed_latitude: mostlyLeftOut(fc.double({ min: -90, max: 90, noNaN: true })),
    allowed_longitude: mostlyLeftOut(fc.double({ min: -180, max: 180, noNaN: true })),
    break_start_time: mostlyLeftOut(fc.constantFrom('12:00', '12:30', null)),
    break_end_time: mostlyLeftOut(fc.constantFrom('13:00', '12:30', null)),
    resource: mostlyLeftOut(fc.constantFrom('fuzz', 'users')),
    action: mostlyLeftOut(fc.constantFrom('thing', 'read')),
    department_id: fc.constantFrom(1, 2, null, undefined),
    company_id: fc.constantFrom(1, 2, 1, null),
  }
  if (route.key === 'POST /api/v1/admin/employees') {
    // a new account (username and password together) or an existing user, not both
    overrides.user_id = mostlyLeftOut(fc.integer({ min: 1, max: 6 }))
    overrides.username = mostlyLeftOut(fc.stringMatching(/^[a-z][a-z0-9]{2,12}$/))
    overrides.password = mostlyLeftOut(fc.constant('employee-password-1'))
  }
  // a sign-in as "admin" with a wrong password would count towards the administrator's lock-out
  if (route.key === 'POST /api/v1/auth/login') overrides.username = fc.constantFrom('leaver', 'nobody', 'Leaver')
  return overrides
}

/** Paths never aimed at the acting administrator's own account (a new password would end its session). */
function refersToAdmin(route: Route, path: string): boolean {
  if (!route.path.startsWith('/api/v1/admin/users/:id')) return false
  const segment = path.split('/')[5] ?? ''
  let decoded = segment
  try {
    decoded = decodeURIComponent(segment)
  } catch {
    // not decodable: not an id
  }
  return decoded.trim() !== '' && Number(decoded) === adminId
}

/**
 * An employee import: a CSV file in the form's field "file" (boundary x) with a header of import
 * columns (and some that are not) and rows of plausible and hostile cells, quoted as RFC 4180 has it.
 */
function importArb(): fc.Arbitrary<RawBody> {
  const valid = ['employee_no', 'phone', 'email', 'department', 'company_id', 'position', 'hire_date', 'status', 'manager_id', 'username', 'password']
  const column = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...valid) },
    { weight: 1, arbitrary: fc.constantFrom('name', 'Name', 'Employee No', 'user_id', 'dept', '') },
  )
  const cell = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom('Fuzz Person', 'E-9', 'fuzzing ', '1', '2', '0', '2024-02-30', '2024-03-01', 'a@b.co', '+86 1') },
    { weight: 2, arbitrary: fc.constantFrom('fuzz.user', 'password-123', '', ' ', '"quoted"', 'a,b', 'two\nlines', '=1+1', '99999999999999999999') },
    { weight: 1, arbitrary: unicodeString },
  )
  const quoted = (text: string) => (/[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text)
  return fc
    .record({ withName: fc.boolean(), columns: fc.uniqueArray(column, { maxLength: 5 }), bom: fc.boolean() })
    .chain(({ withName, columns, bom }) => {
      const header = withName || columns.length === 0 ? ['name', ...columns] : columns
      // mostly as many cells as the header, so that rows get past their shape to the rules
      const row = fc.oneof(
        { weight: 4, arbitrary: fc.array(cell, { minLength: header.length, maxLength: header.length }) },
        { weight: 1, arbitrary: fc.array(cell, { maxLength: header.length + 2 }) },
      )
      return fc.array(row, { maxLength: 4 }).map((rows) => ({ header, rows, bom }))
    })
    .map(({ header, rows, bom }) => {
      const text = (bom ? '\uFEFF' : '') + [header, ...rows].map((row) => row.map(quoted).join(',')).join('\r\n')
      const part = 'Content-Disposition: form-data; name="file"; filename="employees.csv"\r\nContent-Type: text/csv'
      return { kind: 'raw' as const, contentType: 'multipart/form-data; boundary=x', text: `--x\r\n${part}\r\n\r\n${text}\r\n--x--\r\n` }
    })
}

function inputArb(route: Route): fc.Arbitrary<FuzzInput> {
  let body: fc.Arbitrary<JsonBody | FormBody | RawBody | undefined> = fc.constant(undefined)
  if (route.key === 'POST /api/v1/admin/employees/import') body = fc.oneof({ weight: 3, arbitrary: importArb() }, { weight: 1, arbitrary: uploadArb('file') })
  else if (route.key === 'POST /api/v1/storage/upload') body = uploadArb('file')
  else if (route.key === 'POST /api/v1/storage/batch-upload') body = uploadArb('files')
  else if (route.method !== 'GET') {
    const json = jsonBodyArb(route.body, bodyOverrides(route))
    body = route.body ? json : fc.option(json, { freq: 3, nil: undefined })
  }
  return fc
    .record({
      path: pathArb(route.path, pathPool(route)),
      query: queryArb(route.query, bodyOverrides(route)),
      body,
      headers: fc.option(extraHeaders(route.path.endsWith('/content')), { freq: 5, nil: {} }),
    })
    .filter((input) => !refersToAdmin(route, input.path))
    .map((input) => Object.assign(input, { [fc.toStringMethod]: () => describeInput(route, input) }))
}

// ---------------------------------------------------------------- the properties

async function adminCase(route: Route, input: FuzzInput) {
  const token = route.key === 'POST /api/v1/auth/logout' ? leaver : admin
  const before = await snapshot(route)
  const reply = await send(route, input, token)
  count(route, 'admin', reply.status)
  const problem = envelopeProblem(route, reply)
  if (problem) throw new Error(`${problem}: ${reply.status} ${reply.text.slice(0, 500)}`)
  if (reply.status >= 400) {
    const change = await unchangedSince(route, before)
    if (change) throw new Error(`refused with ${reply.status} but ${change}: ${reply.text.slice(0, 300)}`)
  }
}

async function anonCase(route: Route, input: FuzzInput, token: string | undefined) {
  const before = await snapshot(route)
  const reply = await send(route, input, token)
  count(route, 'anon', reply.status)
  const problem = envelopeProblem(route, reply)
  if (problem) throw new Error(`${problem}: ${reply.status} ${reply.text.slice(0, 500)}`)
  // "..", "%2e%2e" and "." segments are resolved by the URL parser: that request is for another path
  const samePath = new URL(`http://localhost${input.path}`).pathname === input.path
  if (route.needsToken && samePath) {
    // the guard runs before validation: only a body that cannot be read is answered first
    const body = input.body
    // well-formed JSON (or no body, or a form to an upload, which streams it itself); other media types may fail their parser first
    const readable =
      !body || body.kind === 'form' || (body.kind === 'json' ? body.wellFormed : passesJsonParser(body.text, body.contentType))
    const allowed = readable ? [401] : [400, 401, 413, 415]
    if (!allowed.includes(reply.status)) throw new Error(`without a valid token: ${reply.status} ${reply.text.slice(0, 300)}`)
  }
  if (reply.status >= 400) {
    const change = await unchangedSince(route, before)
    if (change) throw new Error(`refused with ${reply.status} but ${change}`)
  }
}

/** The acting administrator must still be signed in after each route; a route that ended its session is a fuzz setup error. */
async function adminStillValid(key: string) {
  const reply = await req(t.app, 'GET', '/api/v1/admin/users?page_size=1', { token: admin })
  if (reply.status !== 200) throw new Error(`after ${key} the administrator's token no longer works: ${JSON.stringify(reply.body)}`)
}

// ---------------------------------------------------------------- fixtures

async function created(method: string, path: string, body: unknown): Promise<number> {
  const reply = await req(t.app, method, path, { token: admin, body })
  if (reply.status !== 201) throw new Error(`fixture ${path} failed: ${JSON.stringify(reply.body)}`)
  return reply.body.data.id
}

async function upload(isPublic: boolean): Promise<string> {
  const form = new FormData()
  form.append('file', new File([new TextEncoder().encode('fixture\n')], 'fixture.txt', { type: 'text/plain' }))
  form.append('is_public', String(isPublic))
  const response = await t.app.handle(
    new Request('http://localhost/api/v1/storage/upload', { method: 'POST', headers: { authorization: `Bearer ${admin}` }, body: form }),
  )
  const body = (await response.json()) as { data: { id: string } }
  if (response.status !== 201) throw new Error(`fixture upload failed: ${JSON.stringify(body)}`)
  return body.data.id
}

/** Built at load time: the route table decides which tests exist. */
async function setUp() {
  console.log(`fuzz seed ${SEED} (reproduce: FUZZ_SEED=${SEED} bun test test/fuzz.test.ts)`)
  // startApp, but with the errors the service logs kept, so that a 500 shows its cause
  const dir = tempDir()
  const clock = fixedClock(NOW)
  const deps = await prepare(testConfig(dir), { clock, logger: capturingLogger })
  t = { app: createApp(deps), deps, clock, dir, close: () => (deps.database.close(), rmSync(dir, { recursive: true, force: true })) }
  watcher = createClient({ url: `file:${join(t.dir, 'workforce.db')}` })
  admin = await loginAdmin(t.app)
  adminId = (await req(t.app, 'GET', '/api/v1/auth/me', { token: admin })).body.data.user.id
  leaver = (await makeUser(t.app, admin, 'leaver')).token

  const companyId = await created('POST', '/api/v1/admin/companies', { name: 'Fuzz Co', timezone: 'Asia/Shanghai' })
  const departmentId = await created('POST', '/api/v1/admin/departments', { name: 'Fuzzing' })
  // the administrator is also an employee, so the self-service routes get past "no linked employee"
  fixtures.employeeId = await created('POST', '/api/v1/admin/employees', {
    name: 'Admin Self',
    user_id: adminId,
    company_id: companyId,
    department_id: departmentId,
  })
  await created('POST', '/api/v1/admin/employees', { name: 'Other', company_id: companyId })
  fixtures.groupId = await created('POST', '/api/v1/admin/attendance/groups', { name: 'Fuzz group', company_id: companyId })
  const added = await req(t.app, 'POST', `/api/v1/admin/attendance/groups/${fixtures.groupId}/employees`, {
    token: admin,
    body: { employee_ids: [fixtures.employeeId] },
  })
  if (added.status !== 200) throw new Error(`fixture group members failed: ${JSON.stringify(added.body)}`)
  fixtures.ruleId = await created('POST', '/api/v1/admin/attendance/rules', {
    name: 'Fuzz rule',
    group_id: fixtures.groupId,
    work_start_time: '09:00',
    work_end_time: '18:00',
    required_work_hours: 8,
    work_days: '1,2,3,4,5,6,7',
    location_required: true,
    allowed_latitude: 31.23,
    allowed_longitude: 121.47,
    location_radius: 100_000,
  })
  await created('POST', '/api/v1/admin/roles', { name: 'fuzz_role', display_name: 'Fuzz role' })
  await created('POST', '/api/v1/admin/permissions', { name: 'fuzz:thing' })
  fixtures.salaryId = await created('POST', '/api/v1/admin/salaries', {
    employee_id: fixtures.employeeId,
    month: '2024-02',
    basic_salary: 1000,
  })
  fixtures.fileId = await upload(false)
  fixtures.publicFileId = await upload(true)
}

await setUp()

afterAll(() => {
  const lines = [...stats.entries()].map(([key, entry]) => {
    const statuses = [...entry.statuses.entries()].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`)
    return `${key.padEnd(62)} admin ${String(entry.admin).padStart(4)}  anon ${String(entry.anon).padStart(3)}  ${statuses.join(' ')}`
  })
  const total = [...stats.values()].reduce((sum, entry) => sum + entry.admin + entry.anon, 0)
  if (lines.length > 0) console.log(`fuzz seed ${SEED}: ${stats.size} routes, ${total} requests\n${lines.join('\n')}`)
  watcher?.close()
  t?.close()
})

// ---------------------------------------------------------------- the harness itself

describe('the harness', () => {
  test('every route is fuzzed, and the route table is what this file expects', () => {
    const all = routes()
    expect(all.length).toBeGreaterThan(80)
    // a route added later is fuzzed without changes here; these would need new generators
    expect(
      all.filter((route) => route.path.includes(':') && !/:(id|user_id|role_name|permission_name|month|file)\b/.test(route.path)),
    ).toEqual([])
  })

  test('a write, even one that bypasses the service, is seen by the change detector; a read is not', async () => {
    const route = routes().find((r) => r.key === 'POST /api/v1/admin/companies')!
    let before = await snapshot(route)
    await req(t.app, 'GET', '/api/v1/admin/companies', { token: admin })
    expect(await unchangedSince(route, before)).toBeNull()
    before = await snapshot(route)
    await t.deps.database.client.execute("UPDATE settings SET value = value WHERE key = 'none'")
    expect(await unchangedSince(route, before)).toBeNull()
    await t.deps.database.client.execute("UPDATE companies SET name = name || ' (planted)' WHERE id = 1")
    expect(await unchangedSince(route, before)).toBe('the database changed')
    await t.deps.database.client.execute("UPDATE companies SET name = 'Fuzz Co' WHERE id = 1")

    // a failed sign-in writes (its failure is counted), which only the sign-in route is allowed
    const login = routes().find((r) => r.key === 'POST /api/v1/auth/login')!
    before = await snapshot(login)
    await req(t.app, 'POST', '/api/v1/auth/login', { body: { username: 'nobody', password: 'wrong-password' } })
    expect(await dataVersion()).not.toBe(before.version)
    expect(await unchangedSince(login, before)).toBeNull()
    await t.deps.database.client.execute("UPDATE departments SET name = name || ' (planted)' WHERE id = 1")
    expect(await unchangedSince(login, before)).toBe('tables changed: departments')
    await t.deps.database.client.execute("UPDATE departments SET name = 'Fuzzing' WHERE id = 1")

    // and for the storage routes, a file left in the store's folder
    const storage = routes().find((r) => r.key === 'POST /api/v1/storage/upload')!
    before = await snapshot(storage)
    const stray = join(t.dir, 'files', '.tmp-planted')
    await writeFile(stray, 'x')
    expect(await unchangedSince(storage, before)).toBe('stored objects changed: +/files/.tmp-planted -')
    await rm(stray)
  })
})

// ---------------------------------------------------------------- JSON bodies are strict about types

describe('a number sent as a string in a JSON body is a 400 (CONTRACT §1), in queries and paths digits are fine', () => {
  const cases: [string, string, () => Record<string, unknown>, string, string][] = [
    ['POST', '/api/v1/admin/employees', () => ({ name: 'Str', company_id: '1' }), 'company_id', 'must be a positive whole number'],
    [
      'POST',
      '/api/v1/admin/roles/assign',
      () => ({ user_id: String(adminId), role_name: 'fuzz_role' }),
      'user_id',
      'must be a positive whole number',
    ],
    [
      'POST',
      '/api/v1/admin/attendance/groups',
      () => ({ name: 'Str group', company_id: '1' }),
      'company_id',
      'must be a positive whole number',
    ],
    [
      'POST',
      '/api/v1/admin/attendance/rules',
      () => ({
        name: 'Str rule',
        group_id: fixtures.groupId,
        work_start_time: '09:00',
        work_end_time: '18:00',
        required_work_hours: 8,
        work_days: '1,2,3,4,5',
        late_grace_period: '5',
      }),
      'late_grace_period',
      'must be a whole number of minutes from 0 to 1440',
    ],
    [
      'POST',
      '/api/v1/admin/salaries',
      () => ({ employee_id: String(fixtures.employeeId), month: '2024-05' }),
      'employee_id',
      'must be a positive whole number',
    ],
    [
      'PATCH',
      '/api/v1/admin/salaries/batch-status',
      () => ({ ids: [String(fixtures.salaryId)], status: '1' }),
      'ids.0',
      'must be a positive whole number',
    ],
    [
      'POST',
      '/api/v1/storage/presigned-url',
      () => ({ file_id: fixtures.fileId, expires_in: '60' }),
      'expires_in',
      'must be a whole number of seconds from 1 to 604800',
    ],
    [
      'POST',
      '/api/v1/admin/attendance/close-day',
      () => ({ date: '2024-03-14', group_id: String(fixtures.groupId) }),
      'group_id',
      'must be a positive whole number',
    ],
  ]

  test.each(cases.map(([method, path, body, field, message]) => [method, path, field, message, body] as const))(
    '%s %s: %s sent as a string',
    async (method, path, field, message, body) => {
      const before = await dataVersion()
      const reply = await req(t.app, method, path, { token: admin, body: body() })
      expect(reply.status).toBe(400)
      expect(reply.body).toEqual(invalidBody(field, message))
      expect(await dataVersion()).toBe(before)
    },
  )

  test('the same fields as numbers are accepted', async () => {
    const reply = await req(t.app, 'POST', '/api/v1/storage/presigned-url', {
      token: admin,
      body: { file_id: fixtures.fileId, expires_in: 60 },
    })
    expect(reply.status).toBe(200)
    expect(reply.body.data.expires_in).toBe(60)
    const group = await req(t.app, 'POST', '/api/v1/admin/attendance/groups', {
      token: admin,
      body: { name: 'Numeric group', company_id: 1 },
    })
    expect(group.status).toBe(201)
    expect(group.body.data.company_id).toBe(1)
  })

  test('query strings and paths still take digits', async () => {
    const list = await req(t.app, 'GET', `/api/v1/admin/employees?company_id=1&page=1&page_size=2`, { token: admin })
    expect(list.status).toBe(200)
    expect(list.body.data.page_size).toBe(2)
    const one = await req(t.app, 'GET', `/api/v1/admin/salaries/${fixtures.salaryId}`, { token: admin })
    expect(one.status).toBe(200)
    expect(one.body.data.id).toBe(fixtures.salaryId)
  })

  test('multipart form fields stay text that is converted', async () => {
    const form = new FormData()
    form.append('file', new File([new TextEncoder().encode('hi\n')], 'form.txt', { type: 'text/plain' }))
    form.append('is_public', 'true')
    const response = await t.app.handle(
      new Request('http://localhost/api/v1/storage/upload', { method: 'POST', headers: { authorization: `Bearer ${admin}` }, body: form }),
    )
    expect(response.status).toBe(201)
    expect(((await response.json()) as { data: { is_public: boolean } }).data.is_public).toBe(true)
  })

  test('no JSON body schema of any route accepts a string of digits for an integer', () => {
    const coercing = (schema: Schema | undefined, at: string): string[] => {
      if (!schema || typeof schema !== 'object') return []
      const here =
        Array.isArray(schema.anyOf) &&
        schema.anyOf.some((member: Schema) => member.type === 'string' && ['integer', 'numeric'].includes(member.format))
          ? [at]
          : []
      return [...here, ...Object.entries(schema).flatMap(([key, value]) => coercing(value as Schema, `${at}/${key}`))]
    }
    // the detector finds Elysia's coercing integer where it belongs: in query schemas
    expect(routes().some((route) => coercing(route.query, '').length > 0)).toBe(true)
    expect(routes().flatMap((route) => coercing(route.body, '').map((at) => `${route.key} body${at}`))).toEqual([])
  })
})

// ---------------------------------------------------------------- what the fuzz found, pinned down

describe('regressions found by the fuzz', () => {
  const TOO_DEEP = errorBody(400, 'The JSON body nests objects or arrays more than 64 levels deep; send a flatter body')
  const nested = (depth: number, inner = '"x"') => '['.repeat(depth) + inner + ']'.repeat(depth)

  test('a body nested thousands deep was a 500 (stack overflow describing the error); now a 400 before anything else', async () => {
    const before = await dataVersion()
    const login = await req(t.app, 'POST', '/api/v1/auth/login', { raw: `{"username":${nested(5000)},"password":"x"}` })
    expect(login.status).toBe(400)
    expect(login.body).toEqual(TOO_DEEP)
    const batch = await req(t.app, 'DELETE', '/api/v1/storage/batch-delete', { token: admin, raw: `{"file_ids":${nested(5000)}}` })
    expect(batch.status).toBe(400)
    expect(batch.body).toEqual(TOO_DEEP)
    // not even the failed sign-in is counted: the body was never read as a sign-in
    expect(await dataVersion()).toBe(before)
  })

  test('64 levels reach the route checks, 65 do not; brackets inside strings do not count', async () => {
    const at64 = await req(t.app, 'POST', '/api/v1/admin/companies', { token: admin, raw: `{"name":${nested(63)}}` })
    expect(at64.body).toEqual(invalidBody('name', 'must be a string'))
    const at65 = await req(t.app, 'POST', '/api/v1/admin/companies', { token: admin, raw: `{"name":${nested(64)}}` })
    expect(at65.body).toEqual(TOO_DEEP)
    const name = `${'['.repeat(70)}\\"{{`
    const inString = await req(t.app, 'POST', '/api/v1/admin/companies', { token: admin, body: { name } })
    expect(inString.status).toBe(201)
    expect(inString.body.data.name).toBe(name)
  })

  test('a value whose toString is not a function was a 500 (the error text could not be written); now the field is named', async () => {
    for (const raw of ['{"name":{"toString":0}}', '{"name":[{"toString":{}}]}', '{"name":{"valueOf":1,"toString":"x"}}']) {
      const reply = await req(t.app, 'POST', '/api/v1/admin/departments', { token: admin, raw })
      expect(reply.body).toEqual(invalidBody('name', 'must be a string'))
    }
    // as unknown fields they are ignored like any other
    const created = await req(t.app, 'POST', '/api/v1/admin/departments', { token: admin, raw: '{"name":"Conversions","toString":0}' })
    expect(created.status).toBe(201)
    expect(created.body.data.name).toBe('Conversions')
  })

  test('attempts with start_date 0000-00-00 was a 500 (an invalid Date in the query); now a 400 naming the field', async () => {
    for (const [field, value] of [
      ['start_date', '0000-00-00'],
      ['end_date', '2024-02-30'],
    ]) {
      const reply = await req(t.app, 'GET', `/api/v1/admin/attendance/attempts?${field}=${value}`, { token: admin })
      expect(reply.status).toBe(400)
      expect(reply.body).toEqual(
        errorBody(400, `${field} "${value}" is not a real date`, { errors: [{ field, message: `"${value}" is not a real date` }] }),
      )
    }
  })

  test('close-day for 2024-02-30 was a 500; now a 400, nothing written', async () => {
    const before = await dataVersion()
    const reply = await req(t.app, 'POST', '/api/v1/admin/attendance/close-day', { token: admin, body: { date: '2024-02-30' } })
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual(
      errorBody(400, 'date "2024-02-30" is not a real date', { errors: [{ field: 'date', message: '"2024-02-30" is not a real date' }] }),
    )
    expect(await dataVersion()).toBe(before)
  })

  test('close-day for 9999-12-31 was a 500 (no day after it); now a day that has not begun is reported open', async () => {
    const reply = await req(t.app, 'POST', '/api/v1/admin/attendance/close-day', {
      token: admin,
      body: { date: '9999-12-31', group_id: fixtures.groupId },
    })
    expect(reply.status).toBe(200)
    expect(reply.body.data).toEqual({
      date: '9999-12-31',
      groups: [{ group_id: fixtures.groupId, timezone: 'Asia/Shanghai', closed: false, absent_records: 0, exception_records: 0 }],
    })
  })

  test.each(['upload', 'batch-upload'])(
    '%s: a part after a malformed part header was stored after the 400 (an orphan object); now nothing is stored',
    async (route) => {
      const field = route === 'upload' ? 'file' : 'files'
      const form = new FormData()
      // Bun writes the NUL into the part header as is, which busboy refuses; it then goes on to the next part
      form.append(field, new File([new TextEncoder().encode('first\n')], '\u0000.txt', { type: 'text/plain' }))
      form.append(field, new File([new TextEncoder().encode('second\n')], 'second.txt', { type: 'text/plain' }))
      const objects = await storedObjects()
      const before = await dataVersion()
      const response = await t.app.handle(
        new Request(`http://localhost/api/v1/storage/${route}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${admin}` },
          body: form,
        }),
      )
      expect(response.status).toBe(400)
      expect(await response.json()).toEqual(
        errorBody(400, 'The multipart/form-data body is malformed or was cut off (Malformed part header)'),
      )
      // the orphan used to land some milliseconds after the reply
      await Bun.sleep(150)
      expect(await storedObjects()).toEqual(objects)
      expect(await dataVersion()).toBe(before)
    },
  )

  test('page=99999999999999999999 was a 500 (an offset SQLite cannot take); now a page beyond the data, empty', async () => {
    const { total } = (await req(t.app, 'GET', '/api/v1/admin/departments', { token: admin })).body.data
    const reply = await req(t.app, 'GET', '/api/v1/admin/departments?page=99999999999999999999', { token: admin })
    expect(reply.status).toBe(200)
    expect(reply.body.data).toEqual({ departments: [], total, page: 1e20, page_size: 10 })
    const rules = await req(t.app, 'GET', '/api/v1/admin/attendance/rules?page=99999999999999999999&page_size=100', { token: admin })
    expect(rules.status).toBe(200)
    expect(rules.body.data.rules).toEqual([])
    expect(rules.body.data.pagination).toMatchObject({ current_page: 1e20, page_size: 100, has_next: false, has_prev: true })
  })

  test.each(['0x1', '1e0', '0b1', '%201', '+1', '1.0'])(
    'path id %p passed as 1 (Elysia read it with +value); only decimal digits are a whole number now',
    async (id) => {
      const reply = await req(t.app, 'GET', `/api/v1/admin/salaries/${id}`, { token: admin })
      expect(reply.body).toEqual(invalidBody('id', 'must be a positive whole number'))
    },
  )

  test('the same for query integers: page=1e20 and page_size=0x10 are 400, page=01 is page 1', async () => {
    expect((await req(t.app, 'GET', '/api/v1/admin/departments?page=1e20', { token: admin })).body).toEqual(
      invalidBody('page', 'must be a whole number of at least 1'),
    )
    expect((await req(t.app, 'GET', '/api/v1/admin/departments?page_size=0x10', { token: admin })).body).toEqual(
      invalidBody('page_size', 'must be a whole number of at least 1'),
    )
    const padded = await req(t.app, 'GET', '/api/v1/admin/departments?page=01', { token: admin })
    expect(padded.body.data.page).toBe(1)
  })

  test('attempts and statistics up to 9999-12-31 were a 500 (no day after it); now they answer', async () => {
    const attempts = await req(t.app, 'GET', '/api/v1/admin/attendance/attempts?end_date=9999-12-31', { token: admin })
    expect(attempts.status).toBe(200)
    expect(attempts.body.data.pagination.total_items).toBe(0)
    const statistics = await req(t.app, 'GET', '/api/v1/attendance/statistics?start_date=9999-12-31&end_date=9999-12-31', { token: admin })
    expect(statistics.status).toBe(200)
    // a Friday, and the fixture rule has every weekday
    expect(statistics.body.data).toMatchObject({ total_days: 1, work_days: 1, attendance_days: 0, absent_days: 0 })
  })

  test('an encoded path segment is a name, not a way out of the docs folder', async () => {
    const reply = await req(t.app, 'GET', `/swagger/assets/${encode('../package.json')}`)
    expect(reply.status).toBe(404)
    expect(reply.body).toEqual(errorBody(404, 'No docs asset ../package.json'))
  })
})

// ---------------------------------------------------------------- the fuzz

/** Self-service routes first (while the fixtures they rely on are intact), then reads, writes, and deletes last. */
const ORDERED = routes()
  .map((route, index) => ({ route, index }))
  .sort((a, b) => rank(a.route) - rank(b.route) || a.index - b.index)

describe('fuzz: never a 5xx, always the envelope, nothing written when refused', () => {
  for (const { route, index } of ORDERED) {
    test(
      route.key,
      async () => {
        await fc.assert(
          fc.asyncProperty(inputArb(route), (input) => adminCase(route, input)),
          { seed: SEED + index, numRuns: runsOf(route) },
        )
        await fc.assert(
          fc.asyncProperty(inputArb(route), fc.constantFrom(undefined, 'garbage', 'eyJhbGciOiJIUzI1NiJ9.e30.x'), (input, token) =>
            anonCase(route, input, token),
          ),
          { seed: SEED + 1000 + index, numRuns: ANON_RUNS },
        )
        await adminStillValid(route.key)
      },
      60_000,
    )
  }
})

test('every route got its planned inputs, as the administrator and without a token', () => {
  const count = (key: string, who: 'admin' | 'anon') => stats.get(key)?.[who] ?? 0
  const planned = ORDERED.map(({ route }) => ({ route: route.key, admin: runsOf(route), anon: ANON_RUNS }))
  expect(ORDERED.map(({ route }) => ({ route: route.key, admin: count(route.key, 'admin'), anon: count(route.key, 'anon') }))).toEqual(
    planned,
  )
})
