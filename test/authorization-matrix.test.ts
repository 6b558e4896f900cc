import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createHmac } from 'node:crypto'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { files } from '../src/db/schema'
import { errorBody, login, loginAdmin, makeUser, NOW, req, samplePath, startApp, tableRows, type Reply, type TestApp, replyOf } from './helpers'

/*
 * Issue 8, part 1: the authorization matrix, generated from the route table so that a new route is covered
 * without anyone remembering (workforce-api.md §5, §7; CONTRACT.md §2, §5).
 *
 * 1. Every route is guarded by a permission, needs only a signed-in user, or is a listed exception.
 * 2. Every guarded route × {no token, bad signature, expired, disabled user, no permission} → exactly 401/401/401/401/403.
 * 3. Every employee-facing read, called by employee A with every parameter that could point at employee B,
 *    never returns B's data, and still returns A's.
 */

const t: TestApp = await startApp()
afterAll(() => t.close())

type Route = (typeof t.app.routes)[number]
type Schema = {
  type?: string
  properties?: Record<string, Schema>
  required?: string[]
  anyOf?: Schema[]
  enum?: unknown[]
  const?: unknown
  pattern?: string
  format?: string
  minimum?: number
  maximum?: number
  minLength?: number
  maxLength?: number
}
interface Detail {
  'x-permission'?: string
  security?: Record<string, string[]>[]
  requestBody?: { content?: Record<string, { schema?: { required?: string[] } }> }
}

const SIGN_IN = 'Sign in first: send "Authorization: Bearer <access token>" from POST /api/v1/auth/login'
const BAD_TOKEN = 'The access token is invalid or has expired; refresh it or sign in again'
const DISABLED = 'This account is disabled; ask an administrator to enable it'
const noPermission = (permission: string) => `Your roles do not grant the permission ${permission}; ask an administrator for it`
const NOW_S = Date.parse(NOW) / 1000

/** Routes that answer without an access token, with why and the status a token-less request gets. */
const PUBLIC_ROUTES: Record<string, { why: string; path?: string; body?: unknown; status: number }> = {
  'GET /swagger': { why: 'the docs page', status: 200 },
  'GET /swagger/json': { why: 'the OpenAPI document', status: 200 },
  'GET /swagger/assets/:file': { why: 'the docs page assets', path: '/swagger/assets/swagger-ui.css', status: 200 },
  'GET /assets/:file': { why: 'the web console\'s assets (none in this test: it serves no build)', path: '/assets/index-0000.js', status: 404 },
  'GET /health': { why: 'CONTRACT §7: probes', status: 200 },
  'POST /api/v1/auth/login': { why: 'signing in', body: {}, status: 400 },
  'POST /api/v1/auth/refresh': { why: 'takes a refresh token, not an access token', body: {}, status: 400 },
  'GET /api/v1/public/departments': { why: 'workforce-api.md §4.3 #6: no authentication', status: 200 },
}
/** CONTRACT §5: the content of a file takes a bearer token, a signed link, or nothing for a public file. */
const OPTIONAL_AUTH = new Set(['GET /api/v1/storage/files/:id/content'])

type Access = { kind: 'permission'; permission: string } | { kind: 'login' } | { kind: 'optional' } | { kind: 'public' } | { kind: 'none' }

const keyOf = (route: Route) => `${route.method} ${route.path}`
const detailOf = (route: Route) => (route.hooks.detail ?? {}) as Detail

/** How a route is protected, read from the route table: the auth macros leave their mark in `detail`. */
function accessOf(route: Route): Access {
  const detail = detailOf(route)
  if (detail['x-permission']) return { kind: 'permission', permission: detail['x-permission'] }
  if (Bun.deepEquals(detail.security, [{ bearer: [] }])) return { kind: 'login' }
  if (OPTIONAL_AUTH.has(keyOf(route))) return { kind: 'optional' }
  if (keyOf(route) in PUBLIC_ROUTES) return { kind: 'public' }
  return { kind: 'none' }
}

const routes = t.app.routes
const protectedRoutes = routes.filter((route) => ['permission', 'login', 'optional'].includes(accessOf(route).kind))

const schemaProps = (schema: unknown) => Object.entries((schema as Schema | undefined)?.properties ?? {})
/** The multipart field a streamed upload route reads its file from (from its docs), or null for a JSON route. */
const multipartField = (route: Route) => detailOf(route).requestBody?.content?.['multipart/form-data']?.schema?.required?.[0] ?? null

/** Does a path or query parameter schema accept `value` (sent as text)? Enough of JSON Schema for our models. */
function accepts(schema: Schema, value: string): boolean {
  if (schema.anyOf) {
    const integer = schema.anyOf.find((member) => member.type === 'integer' || member.type === 'number')
    return integer ? accepts(integer, value) : schema.anyOf.some((member) => accepts(member, value))
  }
  if ('const' in schema) return schema.const === value
  if (schema.type === 'integer' || schema.type === 'number') {
    if (!/^\d+$/.test(value)) return false
    const number = Number(value)
    return number >= (schema.minimum ?? -Infinity) && number <= (schema.maximum ?? Infinity)
  }
  if (schema.type !== 'string') return false
  if (schema.enum) return schema.enum.includes(value)
  if (schema.pattern && !new RegExp(schema.pattern).test(value)) return false
  if (schema.format === 'uuid' && !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)) return false
  return value.length >= (schema.minLength ?? 0) && value.length <= (schema.maxLength ?? Infinity)
}

/** Sends what the route expects: a multipart form to upload routes, `{}` where a JSON body is declared, nothing otherwise. */
async function call(route: Route, path: string, token: string | undefined, method = route.method): Promise<Reply> {
  const field = multipartField(route)
  if (field === null) return req(t.app, method, path, { token, body: route.hooks.body ? {} : undefined })
  const form = new FormData()
  form.append(field, new File(['matrix upload'], 'matrix.txt'))
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {}
  return replyOf(await t.app.handle(new Request(`http://localhost${path}`, { method, body: form, headers })))
}

// ---- tokens -------------------------------------------------------------------------------------------

const base64url = (data: string | Buffer) => Buffer.from(data).toString('base64url')

/** The token with its claims changed and signed anew (HS256) with `secret`: well formed in every other way. */
function resign(token: string, secret: string, change: Record<string, unknown> = {}): string {
  const [header, payload] = token.split('.')
  const claims = { ...JSON.parse(Buffer.from(payload, 'base64url').toString()), ...change }
  const signed = `${header}.${base64url(JSON.stringify(claims))}`
  return `${signed}.${createHmac('sha256', secret).update(signed).digest('base64url')}`
}

/** Every row of every table and every stored object: what a refused request must leave alone. */
async function everything() {
  const objects = (await readdir(join(t.dir, 'files'), { recursive: true })).sort()
  return { rows: await tableRows(t), objects }
}

async function uploadFile(token: string, name: string, content: string, fields: Record<string, string> = {}) {
  const form = new FormData()
  form.append('file', new File([content], name))
  for (const [field, value] of Object.entries(fields)) form.append(field, value)
  const reply = await replyOf(
    await t.app.handle(
      new Request('http://localhost/api/v1/storage/upload', { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } }),
    ),
  )
  if (reply.status !== 201) throw new Error(`upload of ${name} failed: ${JSON.stringify(reply.body)}`)
  return reply.body.data as { id: string; original_name: string }
}

const admin = await loginAdmin(t.app)

// ---- 1. the route table ----------------------------------------------------------------------------------

describe('the route table', () => {
  test('every route needs a permission or a signed-in user, or is a listed exception', () => {
    const unguarded = routes.filter((route) => accessOf(route).kind === 'none').map(keyOf)
    expect(unguarded).toEqual([])
    expect(protectedRoutes.length).toBeGreaterThanOrEqual(80)
  })

  test('every exception is a route of the table and carries no guard', () => {
    const byKey = new Map(routes.map((route) => [keyOf(route), route]))
    for (const key of [...Object.keys(PUBLIC_ROUTES), ...OPTIONAL_AUTH]) {
      const route = byKey.get(key)
      expect(route, key).toBeDefined()
      expect(detailOf(route!)['x-permission'], key).toBeUndefined()
      expect(Bun.deepEquals(detailOf(route!).security, [{ bearer: [] }]), key).toBe(false)
    }
  })

  test('every permission a route declares is in the catalogue', async () => {
    const catalogue = await req(t.app, 'GET', '/api/v1/admin/permissions?page_size=100', { token: admin })
    const names = new Set((catalogue.body.data.list as { name: string }[]).map((permission) => permission.name))
    const declared = routes.map(accessOf).flatMap((access) => (access.kind === 'permission' ? [access.permission] : []))
    expect(declared.filter((permission) => !names.has(permission))).toEqual([])
  })

  for (const [key, expected] of Object.entries(PUBLIC_ROUTES))
    test(`${key} (${expected.why}) answers without a token: ${expected.status}`, async () => {
      const [method, path] = key.split(' ')
      const reply = await req(t.app, method, expected.path ?? path, { body: expected.body })
      expect(reply.status).toBe(expected.status)
      expect(reply.headers.get('www-authenticate')).toBeNull()
    })
})

// ---- 2. the matrix -------------------------------------------------------------------------------------

describe('authorization matrix: every protected route × 5 callers', () => {
  const tokens = { forged: '', expired: '', disabled: '', nobody: '' }
  let privateFile = ''
  let before: Awaited<ReturnType<typeof everything>>

  /** A concrete path: a real private file of the admin where a file id (UUID) is expected, else samplePath. */
  const pathOf = (route: Route) =>
    route.path.replace(/:(\w+)/g, (whole, name: string) => {
      const schema = (route.hooks.params as Schema | undefined)?.properties?.[name]
      return schema?.format === 'uuid' ? privateFile : samplePath(whole)
    })

  beforeAll(async () => {
    privateFile = (await uploadFile(admin, 'admin-only.txt', 'for the admin only')).id
    const nobody = await makeUser(t.app, admin, 'nobody')
    tokens.nobody = nobody.token

    // another administrator, signed in, then disabled through the API
    const gone = await makeUser(t.app, admin, 'gone', ['admin'])
    expect((await req(t.app, 'GET', '/api/v1/auth/me', { token: gone.token })).status).toBe(200)
    const disabled = await req(t.app, 'PUT', `/api/v1/admin/users/${gone.id}`, { token: admin, body: { status: 0 } })
    expect(disabled.status).toBe(200)
    tokens.disabled = gone.token

    // the admin's own claims: signed with another secret, or with the right one but expired a second ago
    const secret = t.deps.config.jwtSecret!
    tokens.forged = resign(admin, 'another-secret-that-is-at-least-32-bytes')
    tokens.expired = resign(admin, secret, { exp: NOW_S - 1 })
    // the same forging with the right secret and a live expiry is accepted: the two above fail for the one reason
    for (const live of [resign(admin, secret), resign(admin, secret, { exp: NOW_S + 60 })])
      expect((await req(t.app, 'GET', '/api/v1/auth/me', { token: live })).status).toBe(200)

    before = await everything()
  })

  for (const route of protectedRoutes) {
    const access = accessOf(route)
    const fifth =
      access.kind === 'permission'
        ? `no ${access.permission} → 403`
        : access.kind === 'login'
          ? 'no-permission case does not apply (sign-in only)'
          : 'not the uploader of a private file → 404 (CONTRACT §5)'
    test(`${keyOf(route)}: no token, bad signature, expired, disabled user → 401; ${fifth}`, async () => {
      const path = pathOf(route)
      const cases: [string, string | undefined, number, string][] = [
        ['no token', undefined, 401, SIGN_IN],
        ['bad signature', tokens.forged, 401, BAD_TOKEN],
        ['expired', tokens.expired, 401, BAD_TOKEN],
        ['disabled user', tokens.disabled, 401, DISABLED],
      ]
      if (access.kind === 'permission') cases.push(['no permission', tokens.nobody, 403, noPermission(access.permission)])
      if (access.kind === 'optional') cases.push(['not the uploader', tokens.nobody, 404, `File ${privateFile} does not exist`])

      const actual = []
      for (const [who, token] of cases) {
        const reply = await call(route, path, token)
        actual.push({ who, status: reply.status, body: reply.body, challenge: reply.headers.get('www-authenticate') })
      }
      expect(actual).toEqual(
        cases.map(([who, , status, message]) => ({
          who,
          status,
          body: errorBody(status, message),
          challenge: status === 401 ? 'Bearer' : null,
        })),
      )
    })
  }

  test('HEAD of every protected GET route without a token → 401 with WWW-Authenticate and no body', async () => {
    const answers = []
    for (const route of protectedRoutes.filter((route) => route.method === 'GET')) {
      const reply = await call(route, pathOf(route), undefined, 'HEAD')
      answers.push([keyOf(route), reply.status, reply.headers.get('www-authenticate'), reply.body])
    }
    expect(answers.length).toBeGreaterThanOrEqual(30)
    expect(answers).toEqual(answers.map(([key]) => [key, 401, 'Bearer', '']))
  })

  test('nothing any refused request reached was changed: every table row and every stored object is as before', async () => {
    expect(await everything()).toEqual(before)
  })

  test('a public file is served without a token, and a token that is not needed is not checked', async () => {
    const shared = await uploadFile(admin, 'shared.txt', 'for everyone', { is_public: 'true' })
    for (const token of [undefined, tokens.forged, tokens.expired, tokens.disabled, tokens.nobody]) {
      const reply = await req(t.app, 'GET', `/api/v1/storage/files/${shared.id}/content`, { token })
      expect([reply.status, reply.body]).toEqual([200, 'for everyone'])
    }
    await req(t.app, 'DELETE', '/api/v1/storage/delete', { token: admin, body: { file_id: shared.id } })
  })
})

// ---- 3. employee isolation -------------------------------------------------------------------------------

interface Person {
  name: string
  username: string
  email: string
  phone: string
  employeeNo: string
  folder: string
  description: string
  fileText: string
  fileNames: string[]
  notes: string[]
  employeeId: number
  userId: number
  token: string
  fileIds: string[]
  recordIds: number[]
  salaryIds: number[]
  /** every non-zero amount of the person's salary records, in yuan */
  amounts: number[]
  dates: string[]
  months: string[]
}

const person = (key: string, name: string, phone: string): Person => ({
  name,
  username: key,
  email: `${key}@example.com`,
  phone,
  employeeNo: `EMP-${key.toUpperCase()}`,
  folder: `${key}-private`,
  description: `${key} confidential`,
  fileText: `${key}-bytes-only`,
  fileNames: [`${key}-payslip.txt`, `${key}-contract.txt`],
  notes: [],
  employeeId: 0,
  userId: 0,
  token: '',
  fileIds: [],
  recordIds: [],
  salaryIds: [],
  amounts: [],
  dates: [],
  months: [],
})

const EMPLOYEE_KEYS = new Set(['employee_id', 'manager_id'])
const USER_KEYS = new Set(['user_id', 'uploader_id', 'actor_id'])
const EMPLOYEE_OBJECTS = new Set(['employee', 'manager', 'approver'])
const USER_OBJECTS = new Set(['user', 'uploaded_by', 'uploader', 'actor', 'decided_by'])
/** Query parameters that could name another employee, tried on every read whether its schema knows them or not. */
const POINTING_PARAMS = ['employee_id', 'user_id', 'id', 'uploader_id', 'uploaded_by', 'file_id', 'owner_id']

/**
 * Where `who`'s data shows in a body: their names, texts, file ids and amounts anywhere; their employee and
 * user ids in the fields that hold such ids; their records and salaries by id. `sent` is what the caller
 * sent: an error message may echo it back.
 */
function traces(body: unknown, who: Person, sent: string[] = []): string[] {
  const found = new Set<string>()
  const texts = [who.name, who.username, who.email, who.phone, who.employeeNo, who.folder, who.description, who.fileText]
  for (const text of [...who.fileNames, ...who.fileIds, ...who.notes]) texts.push(text)
  const visit = (value: unknown, key: string) => {
    if (typeof value === 'string') {
      const text = key === 'message' ? sent.reduce((rest, echo) => rest.split(echo).join(''), value) : value
      for (const marker of texts) if (text.includes(marker)) found.add(`${key}: "${marker}"`)
    } else if (typeof value === 'number') {
      if (who.amounts.includes(value)) found.add(`${key}: amount ${value}`)
      if (EMPLOYEE_KEYS.has(key) && value === who.employeeId) found.add(`${key}: employee ${value}`)
      if (USER_KEYS.has(key) && value === who.userId) found.add(`${key}: user ${value}`)
      if (key === 'attendance_id' && who.recordIds.includes(value)) found.add(`${key}: record ${value}`)
    } else if (Array.isArray(value)) {
      for (const item of value) visit(item, key)
    } else if (value && typeof value === 'object') {
      const object = value as Record<string, unknown>
      for (const [field, item] of Object.entries(object)) visit(item, field)
      if (EMPLOYEE_OBJECTS.has(key) && object.id === who.employeeId) found.add(`${key}: employee ${object.id}`)
      if (USER_OBJECTS.has(key) && object.id === who.userId) found.add(`${key}: user ${object.id}`)
      // a correction (CONTRACT §11) has a work date too, and names its record by record_id
      if ('record_id' in object) {
        if (who.recordIds.includes(object.record_id as number)) found.add(`${key}: record ${object.record_id}`)
      } else if ('work_date' in object && who.recordIds.includes(object.id as number)) found.add(`${key}: record ${object.id}`)
      // the month calendar's days name their record without its date (CONTRACT §8), a correction's before and after too
      if (['record', 'before', 'after'].includes(key) && who.recordIds.includes(object.id as number)) found.add(`${key}: record ${object.id}`)
      if ('net_salary' in object && 'month' in object && who.salaryIds.includes(object.id as number))
        found.add(`${key}: salary ${object.id}`)
    }
  }
  visit(body, '')
  return [...found]
}

interface Pointer {
  value: string
  /** the same kind of value naming nothing: B's id must be answered exactly as an id nobody has */
  twin?: string
}

const NOBODY_FILE = '00000000-0000-4000-8000-000000000000'
/** A text of the same shape naming nobody: letters become q, the rest stays. */
const shapeOf = (text: string) => text.replace(/[a-z]/g, 'q').replace(/[A-Z]/g, 'Q')

/**
 * Every value that could point at `who` through parameter `param`: their ids, file ids, names and texts, dates
 * and months. A twin (the same kind of value naming nobody) goes with a file id, a text, and an employee or
 * user id given to a parameter named for that kind of id: pointing at B must be answered as pointing at nobody.
 */
function pointersAt(who: Person, param = ''): Pointer[] {
  const refersTo = /employee/.test(param) ? 'employee' : /user|upload|owner|actor/.test(param) ? 'user' : null
  const id = (value: number, kind?: string) => ({ value: String(value), twin: kind && kind === refersTo ? '999999' : undefined })
  const texts = [who.name, who.username, who.email, who.phone, who.employeeNo, who.folder, who.description, ...who.fileNames, ...who.notes]
  const pointers: Pointer[] = [
    id(who.employeeId, 'employee'),
    id(who.userId, 'user'),
    ...[...who.recordIds, ...who.salaryIds].map((value) => id(value)),
    ...who.fileIds.map((value) => ({ value, twin: NOBODY_FILE })),
    ...texts.map((value) => ({ value, twin: shapeOf(value) === value ? undefined : shapeOf(value) })),
    ...[...who.dates, ...who.months].map((value) => ({ value })),
  ]
  // one probe per value (an id may be both a record's and a salary's), with a twin if any of them has one
  const unique = new Map<string, Pointer>()
  for (const pointer of pointers)
    if (!unique.get(pointer.value)?.twin) unique.set(pointer.value, { ...unique.get(pointer.value), ...pointer })
  return [...unique.values()]
}

interface Probe {
  label: string
  path: string
  query: Record<string, string>
  sent: string[]
  pointer?: Pointer
  /** a parameter the route does not declare: it must change nothing */
  ignored?: boolean
  twinOf?: Probe
}

const RANGE_START = /^(start|date_from$|from$)|_from$/
const RANGE_END = /^(end|date_to$|to$)|_to$/
const SPAN = { start: ['2024-01-01', '2024-01'], end: ['2024-03-31', '2024-03'] }

const urlOf = (probe: Pick<Probe, 'path' | 'query'>) => {
  const query = new URLSearchParams(probe.query).toString()
  return query ? `${probe.path}?${query}` : probe.path
}

/**
 * The requests `reader` makes to one read: "own" (ranges over all the data, path and required parameters the
 * reader's own), then every path and query parameter the route declares set to each value pointing at `other`
 * that it accepts, then the pointing parameters it does not declare.
 */
function probesFor(route: Route, reader: Person, other: Person): Probe[] {
  const query = schemaProps(route.hooks.query)
  const required = new Set((route.hooks.query as Schema | undefined)?.required ?? [])
  const params = schemaProps(route.hooks.params)
  const first = (schema: Schema, values: string[], name: string) => {
    const value = values.find((candidate) => accepts(schema, candidate))
    if (value === undefined) throw new Error(`${keyOf(route)}: no value for ${name}; teach the isolation test about it`)
    return value
  }
  const mine = pointersAt(reader).map((pointer) => pointer.value)
  const base: Record<string, string> = {}
  for (const [name, schema] of query) {
    if (RANGE_START.test(name)) base[name] = first(schema, SPAN.start, name)
    else if (RANGE_END.test(name)) base[name] = first(schema, SPAN.end, name)
    else if (required.has(name)) base[name] = first(schema, mine, name)
  }
  const ownPath: Record<string, string> = Object.fromEntries(params.map(([name, schema]) => [name, first(schema, mine, name)]))
  const pathWith = (values: Record<string, string>) => route.path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(values[name]))

  const own: Probe = { label: 'own', path: pathWith(ownPath), query: base, sent: [] }
  const probes: Probe[] = [own]
  /** The probe, then (for an id or a text that names the other) the same request naming nobody, when the parameter accepts that. */
  const add = (probe: Probe, schema: Schema, twinned: (twin: string) => Pick<Probe, 'path' | 'query'>) => {
    probes.push(probe)
    const twin = probe.pointer?.twin
    if (twin && accepts(schema, twin))
      probes.push({ ...probe, ...twinned(twin), label: `${probe.label} (twin ${twin})`, sent: [twin], twinOf: probe })
  }
  for (const [name, schema] of params)
    for (const pointer of pointersAt(other, name).filter((candidate) => accepts(schema, candidate.value)))
      add(
        {
          label: `:${name}=${pointer.value}`,
          path: pathWith({ ...ownPath, [name]: pointer.value }),
          query: base,
          sent: [pointer.value],
          pointer,
        },
        schema,
        (twin) => ({ path: pathWith({ ...ownPath, [name]: twin }), query: base }),
      )
  for (const [name, schema] of query)
    for (const pointer of pointersAt(other, name).filter((candidate) => accepts(schema, candidate.value)))
      add(
        { label: `${name}=${pointer.value}`, path: own.path, query: { ...base, [name]: pointer.value }, sent: [pointer.value], pointer },
        schema,
        (twin) => ({ path: own.path, query: { ...base, [name]: twin } }),
      )
  const declared = new Set(query.map(([name]) => name))
  for (const name of POINTING_PARAMS.filter((param) => !declared.has(param)))
    for (const value of name === 'file_id' ? other.fileIds : [String(other.employeeId), String(other.userId)])
      probes.push({
        label: `${name}=${value} (not declared)`,
        path: own.path,
        query: { ...base, [name]: value },
        sent: [value],
        ignored: true,
      })
  return probes
}

/** Reads whose answer is the same for every employee: nothing personal in them to leak. */
const SHARED_READS: Record<string, string> = {
  'GET /api/v1/attendance/rule': 'the rule of the group A and B share',
  'GET /api/v1/storage/config': 'the settings of the service',
  'GET /api/v1/leave/types': 'the leave types everyone may request',
  'GET /api/v1/approvals': 'A and B manage nobody and hold no approvals:manage: both inboxes are empty (routing: test/approvals.test.ts)',
}
/** Reads of A's own figures with no names or ids: A's answer must differ from B's, and not move when B's data is added. */
const FIGURES_ONLY: Record<string, string> = {
  'GET /api/v1/attendance/statistics': 'counts and sums',
  'GET /api/v1/leave/balances': 'days per leave type',
}

/** Sign-in-only reads refused (403) to an employee who manages nobody, as A and B: nothing of anyone to leak. */
const MANAGERS_ONLY: Record<string, string> = {
  'GET /api/v1/admin/attendance/today': 'today’s board: for holders of attendance_records:read and for managers (scope: test/today.test.ts)',
}

/** Employee-facing reads: every GET the employee role's permissions allow, every sign-in-only GET, and file content. */
const employeePermissions = await req(t.app, 'GET', '/api/v1/admin/roles/by-name/employee/permissions', { token: admin })
const granted = new Set((employeePermissions.body.data as { name: string }[]).map((permission) => permission.name))
const reads = routes.filter((route) => {
  const access = accessOf(route)
  if (route.method !== 'GET' || keyOf(route) in MANAGERS_ONLY) return false
  return (access.kind === 'permission' && granted.has(access.permission)) || access.kind === 'login' || access.kind === 'optional'
})

describe('employee isolation: an employee never sees another employee’s data', () => {
  const a = person('alice', 'Alice Anders', '555-0101')
  const b = person('bravo', 'Bravo Zulu', '555-0202')
  let probes = new Map<string, Probe[]>()
  const firstPhase = new Map<string, Reply>()

  const at = (dateTime: string) => t.clock.set(`${dateTime}:00.000Z`)
  const as = (who: Person, method: string, path: string, body?: unknown) => req(t.app, method, path, { token: who.token, body })

  const noteOf = (who: Person, kind: string, dateTime: string) => `${who.username}-note-${kind}-${dateTime.slice(5, 10)}`
  /** B's shifts: late on the 12th and today */
  const B_SHIFTS = [
    ['in', '2024-03-12T09:47'],
    ['out', '2024-03-12T18:30'],
    ['in', '2024-03-13T08:50'],
    ['out', '2024-03-13T18:10'],
    ['in', '2024-03-14T08:58'],
    ['out', '2024-03-14T18:02'],
    ['in', '2024-03-15T09:10'],
  ] as const
  const B_SALARIES = [
    ['2024-02', { basic_salary: 8765.43, bonus: 321.09, personal_tax: 111.11 }],
    ['2024-03', { basic_salary: 8765.43, overtime_pay: 432.1, housing_fund: 55.55 }],
  ] as const

  async function clock(who: Person, kind: 'in' | 'out', dateTime: string) {
    at(dateTime)
    const note = noteOf(who, kind, dateTime)
    const reply = await as(who, 'POST', `/api/v1/attendance/clock-${kind}`, { note })
    if (reply.status !== 200) throw new Error(`clock-${kind} of ${who.username} failed: ${JSON.stringify(reply.body)}`)
    who.notes.push(note)
    if (kind === 'in') {
      who.recordIds.push(reply.body.data.attendance_id)
      who.dates.push(dateTime.slice(0, 10))
    }
  }

  async function salary(who: Person, month: string, amounts: Record<string, number>) {
    const reply = await req(t.app, 'POST', '/api/v1/admin/salaries', {
      token: admin,
      body: { employee_id: who.employeeId, month, ...amounts },
    })
    if (reply.status !== 201) throw new Error(`salary of ${who.username} failed: ${JSON.stringify(reply.body)}`)
    const { income, deductions, summary, net_salary } = reply.body.data
    for (const value of [...Object.values(income), ...Object.values(deductions), ...Object.values(summary), net_salary])
      if (value !== 0 && !who.amounts.includes(value as number)) who.amounts.push(value as number)
    who.salaryIds.push(reply.body.data.id)
    who.months.push(month)
  }

  /** An approved payslip of `who` for `month` (CONTRACT §16): their company's run, approved by the administrator, which writes their salary record of the month too (A's before the typed salaries, whose ids the test plans; B's after them). */
  async function payslip(who: Person, month: string, basic: number) {
    const must = async (method: string, path: string, body: unknown, status: number) => {
      const reply = await req(t.app, method, path, { token: admin, body })
      if (reply.status !== status) throw new Error(`${method} ${path} for ${who.username} failed: ${JSON.stringify(reply.body)}`)
      return reply.body.data
    }
    const company = await must('POST', '/api/v1/admin/companies', { name: `${who.username} payroll company` }, 201)
    await must('PUT', `/api/v1/admin/employees/${who.employeeId}`, { company_id: company.id }, 200)
    await must('PUT', `/api/v1/admin/employees/${who.employeeId}/pay-profile`, { effective_month: month, basic_salary: basic }, 200)
    const run = await must('POST', '/api/v1/admin/payroll/runs', { company_id: company.id, month }, 201)
    await must('POST', `/api/v1/admin/payroll/runs/${run.id}/approve`, undefined, 200)
    if (!who.amounts.includes(basic)) who.amounts.push(basic)
    // first: the month the own probes of a month read
    who.months.unshift(month)
  }

  async function leave(who: Person, start: string, end: string) {
    const reason = `${who.username}-note-leave-${start.slice(5)}`
    const reply = await as(who, 'POST', '/api/v1/leave/requests', { type_id: 1, start_date: start, end_date: end, reason })
    if (reply.status !== 201) throw new Error(`leave of ${who.username} failed: ${JSON.stringify(reply.body)}`)
    who.notes.push(reason)
  }

  /** A correction of a clock-out (CONTRACT §11), its reason a marker of the person. */
  async function correction(who: Person, date: string, clockOut: string) {
    const reason = `${who.username}-note-correction-${date.slice(5)}`
    const reply = await as(who, 'POST', '/api/v1/attendance/corrections', { work_date: date, clock_out_time: `${date}T${clockOut}:00Z`, reason })
    if (reply.status !== 201) throw new Error(`correction of ${who.username} failed: ${JSON.stringify(reply.body)}`)
    who.notes.push(reason)
  }

  async function hire(who: Person, group: number) {
    const created = await req(t.app, 'POST', '/api/v1/admin/employees', {
      token: admin,
      body: {
        name: who.name,
        phone: who.phone,
        email: who.email,
        employee_no: who.employeeNo,
        username: who.username,
        password: `${who.username}-password-1`,
      },
    })
    if (created.status !== 201) throw new Error(`hiring ${who.username} failed: ${JSON.stringify(created.body)}`)
    who.employeeId = created.body.data.id
    who.userId = created.body.data.user_id
    await req(t.app, 'POST', `/api/v1/admin/attendance/groups/${group}/employees`, {
      token: admin,
      body: { employee_ids: [who.employeeId] },
    })
    who.token = await login(t.app, who.username, `${who.username}-password-1`)
    for (const [index, name] of who.fileNames.entries()) {
      const fields: Record<string, string> = index === 0 ? { folder: who.folder, description: who.description } : {}
      who.fileIds.push((await uploadFile(who.token, name, who.fileText, fields)).id)
    }
  }

  async function run(probe: Probe, who: Person = a): Promise<Reply> {
    const response = await t.app.handle(
      new Request(`http://localhost${urlOf(probe)}`, { headers: { authorization: `Bearer ${who.token}` } }),
    )
    return replyOf(response)
  }
  const answer = (reply: Reply) => ({ status: reply.status, body: reply.body })
  /** The answer with the probe's own value taken out of the message, where an error may echo it. */
  const echoless = (reply: Reply, probe: Probe) =>
    JSON.parse(
      JSON.stringify(answer(reply), (k, v) => (k === 'message' && typeof v === 'string' ? v.split(probe.sent[0]).join('<sent>') : v)),
    )

  /** Reading A's own file counts a download; both rounds start from an unread store. */
  const unread = () =>
    t.deps.database.db
      .update(files)
      .set({ downloadCount: 0, lastAccessedAt: null })
      .where(sql`1 = 1`)

  beforeAll(async () => {
    const company = await req(t.app, 'POST', '/api/v1/admin/companies', { token: admin, body: { name: 'Acme', timezone: 'UTC' } })
    const group = await req(t.app, 'POST', '/api/v1/admin/attendance/groups', {
      token: admin,
      body: { name: 'Floor', company_id: company.body.data.id },
    })
    await req(t.app, 'POST', '/api/v1/admin/attendance/rules', {
      token: admin,
      body: {
        name: 'Day shift',
        group_id: group.body.data.id,
        work_start_time: '09:00',
        work_end_time: '18:00',
        break_start_time: '12:00',
        break_end_time: '13:00',
        late_grace_period: 5,
        required_work_hours: 8,
        work_days: '1,2,3,4,5',
      },
    })
    await hire(a, group.body.data.id)
    await hire(b, group.body.data.id)

    // A's attendance and salaries; B has an account, an employee and files, but no records yet
    await clock(a, 'in', '2024-03-11T08:55')
    await clock(a, 'out', '2024-03-11T18:05')
    await clock(a, 'in', '2024-03-12T09:00')
    await clock(a, 'out', '2024-03-12T17:30')
    await clock(a, 'in', '2024-03-15T09:02')
    await payslip(a, '2023-12', 4321.09)
    await salary(a, '2024-01', { basic_salary: 5123.45, bonus: 246.8 })
    await salary(a, '2024-02', { basic_salary: 5123.45, bonus: 246.8, personal_tax: 98.76 })
    t.clock.set(NOW)
    // leave (CONTRACT §9): one type for everyone; A asks for a day now, B for two after round 1
    expect((await req(t.app, 'POST', '/api/v1/admin/leave/types', { token: admin, body: { name: 'Annual leave', annual_days: 5 } })).status).toBe(201)
    await leave(a, '2024-03-18', '2024-03-18')
    await correction(a, '2024-03-12', '18:00')

    // B's records and salaries come later; what will point at them is known now, so both rounds send the same requests
    const ins = B_SHIFTS.filter(([kind]) => kind === 'in')
    const planned = {
      recordIds: ins.map((_, n) => Math.max(...a.recordIds) + n + 1),
      dates: ins.map(([, dateTime]) => dateTime.slice(0, 10)),
      notes: B_SHIFTS.map(([kind, dateTime]) => noteOf(b, kind, dateTime)),
      salaryIds: B_SALARIES.map((_, n) => Math.max(...a.salaryIds) + n + 1),
      months: B_SALARIES.map(([month]) => month),
    }
    Object.assign(b, planned)

    probes = new Map(reads.map((route) => [keyOf(route), probesFor(route, a, b)]))

    // round 1: before B has any record or salary
    await unread()
    for (const [key, list] of probes)
      for (const probe of list) if (!probe.twinOf) firstPhase.set(`${key} ${urlOf(probe)}`, await run(probe))

    // B's attendance (late on the 12th) and salaries
    Object.assign(b, { recordIds: [], dates: [], notes: [], salaryIds: [], months: [] })
    for (const [kind, dateTime] of B_SHIFTS) await clock(b, kind, dateTime)
    for (const [month, amounts] of B_SALARIES) await salary(b, month, amounts)
    expect({ recordIds: b.recordIds, dates: b.dates, notes: b.notes, salaryIds: b.salaryIds, months: b.months }).toEqual(planned)
    await payslip(b, '2023-12', 3210.98)
    await leave(b, '2024-03-19', '2024-03-20')
    await correction(b, '2024-03-13', '18:30')
    t.clock.set(NOW)
    await unread()

    // the markers of the two people do not overlap, so finding one is never finding the other
    expect(traces({ a: { ...a, token: '' } }, b)).toEqual([])
    expect(traces({ b: { ...b, token: '' } }, a)).toEqual([])
  }, 30_000)

  for (const [key, why] of Object.entries(MANAGERS_ONLY))
    test(`${key} (${why}): A and B, who manage nobody, are refused`, async () => {
      const route = routes.find((candidate) => keyOf(candidate) === key)!
      expect(accessOf(route).kind).toBe('login')
      for (const who of [a, b]) expect((await as(who, 'GET', route.path)).status).toBe(403)
    })

  test('the employee-facing reads come from the route table: every GET the employee role may call, and every sign-in-only GET', () => {
    expect(reads.map(keyOf)).toEqual(
      expect.arrayContaining([
        'GET /api/v1/auth/me',
        'GET /api/v1/attendance/today',
        'GET /api/v1/attendance/records',
        'GET /api/v1/attendance/summary',
        'GET /api/v1/attendance/statistics',
        'GET /api/v1/attendance/rule',
        'GET /api/v1/employees/salaries',
        'GET /api/v1/employees/salaries/:month',
        'GET /api/v1/storage/file-info',
        'GET /api/v1/storage/files',
        'GET /api/v1/storage/config',
        'GET /api/v1/storage/files/:id/content',
      ]),
    )
  })

  /**
   * `reader` sends every probe of one read: nothing of `other` may show (after taking out what the reader sent),
   * an id or text naming `other` is answered as one naming nobody, a parameter the route does not declare
   * changes nothing, and (A only) nothing moved when B's records and salaries were added. The own probe must
   * return the reader's data, or be shared by both, or be figures that differ between them.
   */
  async function isolated(key: string, reader: Person, other: Person, list: Probe[], earlier?: Map<string, Reply>) {
    const failures: string[] = []
    const replies = new Map<Probe, Reply>()
    for (const probe of list) {
      const reply = await run(probe, reader)
      replies.set(probe, reply)
      const where = `${probe.label} → ${reply.status}`
      if (reply.status >= 500) failures.push(`${where}: server error ${JSON.stringify(reply.body)}`)
      for (const trace of traces(reply.body, other, probe.sent)) failures.push(`${where}: ${other.username}'s data, ${trace}`)
      if (probe.twinOf) {
        const pointing = replies.get(probe.twinOf)!
        if (!Bun.deepEquals(echoless(pointing, probe.twinOf), echoless(reply, probe)))
          failures.push(
            `${probe.twinOf.label}: answered unlike ${probe.label}: ${JSON.stringify(answer(pointing))} vs ${JSON.stringify(answer(reply))}`,
          )
        continue
      }
      const before = earlier?.get(`${key} ${urlOf(probe)}`)
      if (earlier && !Bun.deepEquals(before && answer(before), answer(reply)))
        failures.push(`${where}: changed when B's records and salaries were added: ${JSON.stringify(before && answer(before))}`)
      if (probe.ignored && !Bun.deepEquals(answer(reply), answer(replies.get(list[0])!)))
        failures.push(`${where}: a parameter the route does not declare changed the answer`)
    }

    const own = replies.get(list[0])!
    expect(own.status).toBe(200)
    if (key in SHARED_READS) expect(answer(await run(list[0], other))).toEqual(answer(own))
    else if (key in FIGURES_ONLY) expect(answer(await run(list[0], other))).not.toEqual(answer(own))
    else expect(traces(own.body, reader).length).toBeGreaterThan(0)
    expect(failures).toEqual([])
  }

  for (const key of reads.map(keyOf)) {
    test(`${key}: A gets own data and nothing of B through any parameter`, () => isolated(key, a, b, probes.get(key)!, firstPhase))
    test(`${key}: the other way round, B gets own data and nothing of A`, () =>
      isolated(
        key,
        b,
        a,
        probesFor(
          reads.find((route) => keyOf(route) === key)!,
          b,
          a,
        ),
      ))
  }

  test("A's figures are A's alone: statistics over the whole span count A's 3 days and none of B's lateness", async () => {
    const reply = await as(a, 'GET', '/api/v1/attendance/statistics?start_date=2024-03-01&end_date=2024-03-31')
    expect(reply.body.data).toMatchObject({
      attendance_days: 3,
      late_days: 0,
      total_late_minutes: 0,
      early_days: 1,
      total_early_minutes: 30,
      overtime_hours: 0,
    })
    const theirs = await as(b, 'GET', '/api/v1/attendance/statistics?start_date=2024-03-01&end_date=2024-03-31')
    expect(theirs.body.data).toMatchObject({ attendance_days: 4, late_days: 2, total_late_minutes: 57 })
  })
})
