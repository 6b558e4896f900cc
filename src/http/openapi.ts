import { filterPaths, registerSchemaPath } from '@elysiajs/swagger/utils'
import { CloneType, type TSchema } from '@sinclair/typebox'
import { Elysia, type HTTPMethod, type InternalRoute } from 'elysia'
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_KEY_MAX_LENGTH } from './idempotency'
import { JSON_BODY_LIMIT } from './json-body'

/*
 * The OpenAPI document: @elysiajs/swagger's generator builds it from the route models, and `finishDocument`
 * corrects, in one place, what the plugin gets wrong for every route: it offers three request
 * and response content types where the service takes and answers JSON, nests every integer in an
 * `anyOf` with a string branch (default 0, which "Try it out" sends), writes 3.0 `nullable`
 * beside JSON Schema unions, and documents no error status. The document is OpenAPI 3.1, whose
 * schemas are the JSON Schema TypeBox writes.
 */

type Json = Record<string, unknown>
type Schema = Json & { type?: string | string[]; anyOf?: Schema[]; properties?: Record<string, Schema>; items?: Schema }
type Operation = Json & {
  summary?: string
  description?: string
  tags?: string[]
  parameters?: Json[]
  requestBody?: { content?: Record<string, { schema?: Schema; example?: unknown }>; required?: boolean }
  responses?: Record<string, Json>
  security?: Json[]
  'x-permission'?: string
  'x-errors'?: ErrorNotes
}
export interface OpenApiDocument extends Json {
  openapi: string
  paths: Record<string, Record<string, Operation>>
  components?: Json & { schemas?: Record<string, Schema> }
}

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 | 503 | 507
/** What a route answers beyond what its models and guard already say, with why. */
export type ErrorNotes = Partial<Record<ErrorStatus, string>>

/**
 * Statuses a route can answer that its models and guard do not show (409, 429, 503, 507, a 404
 * for a name or id in the body, a 403 of a business rule...), for the route's `detail`.
 */
export const errors = (notes: ErrorNotes): { 'x-errors': ErrorNotes } => ({ 'x-errors': notes })

export const TAGS = [
  { name: 'Operations', description: 'Health of the service, for load balancers and monitoring.' },
  {
    name: 'Auth',
    description:
      'Sign in, refresh and sign out; the caller’s own account. Access tokens are sent as `Authorization: Bearer <token>`; refresh tokens rotate on every use.',
  },
  { name: 'Users', description: 'Accounts: create, list, change, disable, delete, set passwords. Only accounts whose permissions the caller holds too can be changed.' },
  { name: 'Companies', description: 'Companies, with the time zone their attendance groups use by default.' },
  { name: 'Employees', description: 'Employee records, optionally linked to an account (which then holds role `employee`).' },
  { name: 'Roles', description: 'Roles, who holds them and the permissions they grant. Nobody hands out more than they hold.' },
  { name: 'Permissions', description: 'The `resource:action` permissions roles grant; the built-in catalogue is created at start.' },
  { name: 'Departments', description: 'Departments; the public list needs no token.' },
  { name: 'Audit', description: 'Every change made through the API, newest first.' },
  { name: 'Attendance', description: 'Your own attendance, for accounts linked to an employee: clock in and out, records, statistics, the rule that applies.' },
  { name: 'Attendance rules', description: 'Working hours, grace periods, work days and the clock-in area of each attendance group.' },
  { name: 'Attendance groups', description: 'Groups of employees sharing rules and a time zone; an employee is in at most one.' },
  { name: 'Attendance records', description: 'Every employee’s records, refused clock attempts, closing a work day and correcting a record with a reason.' },
  {
    name: 'Corrections',
    description: 'Your requests to correct the clock times of a work date; your manager decides them in the approvals inbox, and the record is recomputed on approval.',
  },
  { name: 'Salaries', description: 'Monthly salary records in yuan (stored exactly in fen), their statuses and statistics.' },
  { name: 'My salaries', description: 'An employee’s own salary records.' },
  {
    name: 'Payroll',
    description: 'Pay computed from attendance (CONTRACT §16): pay profiles, company pay settings, runs of a company’s month and payslips whose every line keeps its formula, inputs and sources.',
  },
  { name: 'My payslips', description: 'An employee’s own approved payslips, every line explained.' },
  {
    name: 'Approvals',
    description: 'Requests you may decide (your reports’, your attendance group’s, or anyone’s with approvals:manage), and approving or rejecting them.',
  },
  {
    name: 'Exports',
    description: 'Downloads of a month’s attendance sheet and salary register as CSV or XLSX, streamed as they are produced; every export is audited.',
  },
  { name: 'Leave', description: 'Leave types, balances (a ledger of every change) and requests: your own, and every employee’s for HR.' },
  {
    name: 'Files',
    description: 'Upload (multipart, streamed), list, read, sign and delete files. Every file endpoint answers 503 while the file store does not.',
  },
]

const JSON_TYPE = 'application/json'
const MULTIPART = 'multipart/form-data'
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']

/** Elysia's query and path integer: a union with digits as text, whose `default: 0` "Try it out" would send. */
const isDigitsBranch = (schema: Schema) =>
  schema.type === 'string' && (schema.format === 'integer' || schema.format === 'numeric') && Object.keys(schema).length <= 3

/** Keys only Elysia reads (`error` is its custom message) or that OpenAPI 3.1 does not have. */
const DROPPED = new Set(['error', 'nullable'])

/** A schema as JSON Schema 2020-12 without the plugin's nesting: one type where there is one. */
export function cleanSchema(input: Schema, options: { response?: boolean } = {}): Schema {
  const clean = (s: Schema) => cleanSchema(s, options)
  const schema: Json = {}
  for (const [key, value] of Object.entries(input)) {
    // a default says what the service assumes when a client leaves a field out: nothing, in an answer
    if (DROPPED.has(key) || value === undefined || (options.response && key === 'default')) continue
    if (key === 'properties' || key === 'patternProperties')
      schema[key] = Object.fromEntries(Object.entries(value as Record<string, Schema>).map(([name, s]) => [name, clean(s)]))
    else if (key === 'items' || key === 'additionalProperties' || key === 'not')
      schema[key] = typeof value === 'object' && value !== null && !Array.isArray(value) ? clean(value as Schema) : value
    else if ((key === 'anyOf' || key === 'oneOf' || key === 'allOf') && Array.isArray(value)) schema[key] = value.map((s) => clean(s as Schema))
    else schema[key] = value
  }
  return simplified(schema as Schema)
}

/** One level of the plugin's unions made plain (members are already clean). */
function simplified(schema: Schema): Schema {
  if (!schema.anyOf) return schema

  const members = schema.anyOf.filter((member) => !isDigitsBranch(member))
  const { anyOf: _, ...outer } = schema
  if (members.length === 1) return { ...outer, ...members[0] }

  // a union of constants of one type: an enum
  const types = new Set(members.map((member) => member.type))
  if (members.every((member) => 'const' in member && Object.keys(member).length === 2) && types.size === 1) {
    const type = members[0].type === 'number' && members.every((member) => Number.isInteger(member.const)) ? 'integer' : members[0].type
    return { ...outer, type, enum: members.map((member) => member.const) }
  }

  // X or null, X one plain type: type [X, "null"]
  const nonNull = members.filter((member) => !(member.type === 'null' && Object.keys(member).length === 1))
  if (members.length === 2 && nonNull.length === 1) {
    const [only] = nonNull
    if (typeof only.type === 'string' && !only.anyOf && !('const' in only)) return { ...outer, ...only, type: [only.type, 'null'] }
    if (only.type === undefined && Object.keys(only).length === 0) return outer
  }
  return { ...outer, anyOf: members }
}

const ErrorEnvelope: Schema = {
  type: 'object',
  description: 'Every error: HTTP status equals `code`, `data` is null',
  required: ['code', 'message', 'data', 'timestamp'],
  properties: {
    code: { type: 'integer', description: 'the HTTP status', examples: [404] },
    message: { type: 'string', description: 'what is wrong, in words a person can act on', examples: ['Role 7 does not exist'] },
    data: { type: 'null' },
    timestamp: { type: 'string', format: 'date-time' },
    errors: {
      type: 'array',
      description: 'on a 400 for invalid input: each field and what is wrong with it',
      items: {
        type: 'object',
        required: ['field', 'message'],
        properties: {
          row: { type: 'integer', minimum: 1, description: 'on an import: the row of the file, as a spreadsheet numbers it (the header is row 1)' },
          field: { type: 'string', examples: ['page_size'] },
          message: { type: 'string', examples: ['must be a whole number of at least 1'] },
        },
      },
    },
  },
}

const RETRY_AFTER = { 'Retry-After': { description: 'seconds to wait before trying again', schema: { type: 'integer' } } }

const GENERIC: Record<ErrorStatus, string> = {
  400: 'Invalid input: `errors` names each field and what is wrong with it',
  401: 'No token, or an invalid or expired one, or the account is disabled or signed out: sign in again',
  403: 'Not allowed',
  404: 'Nothing has this id',
  409: 'Conflicts with what exists',
  413: `The JSON body is larger than ${JSON_BODY_LIMIT / 1024 / 1024} MiB`,
  415: 'A multipart/form-data body was sent; this endpoint takes JSON',
  429: 'Too many requests; `Retry-After` says when to try again',
  503: 'A service this endpoint needs does not answer; try again later',
  507: 'Not enough storage',
}

function errorResponse(status: ErrorStatus, description: string): Json {
  const headers =
    status === 401
      ? { 'WWW-Authenticate': { description: 'Bearer', schema: { type: 'string' } } }
      : status === 429 || status === 503
        ? RETRY_AFTER
        : undefined
  return {
    description,
    ...(headers ? { headers } : {}),
    content: { [JSON_TYPE]: { schema: { $ref: '#/components/schemas/Error' } } },
  }
}

/**
 * What a route that takes no body answers to one: the JSON parser runs for every request that
 * can carry a body (POST, PUT, PATCH, DELETE), so a body is read (at most 1 MiB, as JSON) even there.
 */
const UNWANTED_BODY: Partial<Record<ErrorStatus, string>> = {
  400: 'A body was sent that is not JSON (this endpoint takes none; any body is read as JSON)',
  413: `A body larger than ${JSON_BODY_LIMIT / 1024 / 1024} MiB was sent (this endpoint takes none)`,
  415: 'A multipart/form-data body was sent; this endpoint takes none',
}
const BODY_METHODS = new Set(['post', 'put', 'patch', 'delete'])

/** Every POST of a signed-in caller takes an Idempotency-Key (src/http/idempotency.ts). */
const takesIdempotencyKey = (operation: Operation, method?: string) =>
  method === 'post' && (operation.security ?? []).some((option) => Object.keys(option).length > 0)

const IDEMPOTENCY_KEY_PARAMETER: Json = {
  in: 'header',
  name: IDEMPOTENCY_HEADER,
  required: false,
  description:
    `A key of your choosing (1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters, e.g. a UUID), kept 24 hours for your account: sending the same request again ` +
    'with the same key (after a lost connection, or a 503 that says the change may or may not have been saved) answers the first answer again ' +
    '(with `Idempotent-Replayed: true`) and changes nothing. The same key with another method, path or body is a 409.',
  schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX_LENGTH },
  example: '3f1c9a4e-2b7d-4c61-9e0a-5d8f7b2c1a90',
}
const IDEMPOTENCY_400 = `the ${IDEMPOTENCY_HEADER} header is empty or longer than ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`
const IDEMPOTENCY_409 = `the ${IDEMPOTENCY_HEADER} was used for another request, or its first request is still running or was cut short with its outcome unknown`
const REPLAYED = {
  'Idempotent-Replayed': {
    description: `\`true\` when this is the first answer to the same request with the same ${IDEMPOTENCY_HEADER}, sent again`,
    schema: { type: 'string', enum: ['true'] },
  },
}
const DATABASE_UNAVAILABLE = 'The database is busy, did not answer within `DATABASE_TIMEOUT_MS` or cannot be reached; `Retry-After` says when to try again'

/** The statuses an operation can answer, each with why, from its method, models, guard and notes. */
export function errorStatuses(path: string, operation: Operation, method?: string): Partial<Record<ErrorStatus, string>> {
  const notes = operation['x-errors'] ?? {}
  const result: Partial<Record<ErrorStatus, string>> = {}
  const parameters = operation.parameters ?? []
  const body = operation.requestBody?.content
  const multipart = body !== undefined && isUpload(body)
  const secured = (operation.security ?? []).length > 0
  const tokenOptional = (operation.security ?? []).some((option) => Object.keys(option).length === 0)
  const permission = operation['x-permission']
  const join = (...parts: (string | undefined)[]) => parts.filter(Boolean).join('; ')
  const unwanted = !body && method !== undefined && BODY_METHODS.has(method) ? UNWANTED_BODY : {}
  const keyed = takesIdempotencyKey(operation, method)

  if (parameters.length > 0 || body || notes[400] || unwanted[400] || keyed)
    result[400] = join(parameters.length > 0 || body ? GENERIC[400] : undefined, notes[400], unwanted[400], keyed ? IDEMPOTENCY_400 : undefined)
  if ((secured && !tokenOptional) || notes[401]) result[401] = notes[401] ?? GENERIC[401]
  if (permission || notes[403])
    result[403] = join(permission ? `Your roles do not grant the permission \`${permission}\`` : undefined, notes[403])
  if (parameters.some((parameter) => parameter.in === 'path') || notes[404]) result[404] = notes[404] ?? GENERIC[404]
  if (notes[409] || keyed) result[409] = join(notes[409], keyed ? IDEMPOTENCY_409 : undefined)
  if ((body && !multipart) || notes[413] || unwanted[413]) result[413] = notes[413] ?? unwanted[413] ?? GENERIC[413]
  if ((body && !multipart) || notes[415] || unwanted[415]) result[415] = notes[415] ?? unwanted[415] ?? GENERIC[415]
  for (const status of [429, 507] as const) if (notes[status]) result[status] = notes[status]
  // every operation reads or writes the database (src/db/guard.ts)
  result[503] = notes[503] ? `${notes[503]}, or ${DATABASE_UNAVAILABLE.replace(/^The/, 'the')}` : DATABASE_UNAVAILABLE
  void path
  return result
}

function accessSentence(operation: Operation): string {
  const security = operation.security ?? []
  if (operation['x-permission']) return `Needs permission \`${operation['x-permission']}\`.`
  if (security.some((option) => Object.keys(option).length === 0)) return ''
  if (security.length > 0) return 'Needs a signed-in user (any role).'
  return 'Needs no token.'
}

function finishParameter(parameter: Json): Json {
  const { examples, schema, description, ...rest } = parameter
  const cleaned = cleanSchema((schema ?? {}) as Schema)
  const text = description ?? cleaned.description
  delete cleaned.description
  // a parameter's `examples` is a map of Example Objects; the plugin copies the schema's array there
  const example = Array.isArray(examples) ? examples[0] : (cleaned.examples as unknown[] | undefined)?.[0]
  delete cleaned.examples
  return { ...rest, ...(text ? { description: text } : {}), schema: cleaned, ...(example !== undefined ? { example } : {}) }
}

/** The plugin offers JSON, multipart and text for every body; only the uploads declare multipart alone. */
const isUpload = (content: Record<string, unknown>) => MULTIPART in content && !(JSON_TYPE in content)

function finishRequestBody(requestBody: NonNullable<Operation['requestBody']>): Json {
  const content = requestBody.content ?? {}
  const type = isUpload(content) ? MULTIPART : JSON_TYPE
  const media = content[type] ?? {}
  const schema = cleanSchema(media.schema ?? {})
  const example = media.example ?? (schema.examples as unknown[] | undefined)?.[0]
  delete schema.examples
  const required = Array.isArray(schema.required) && schema.required.length > 0
  return { required, content: { [type]: { schema, ...(example !== undefined ? { example } : {}) } } }
}

const SUCCESS_TEXT: Record<string, string> = { '200': 'Success', '201': 'Created', '206': 'Part of the content', '304': 'Not modified' }

function finishResponses(path: string, method: string, operation: Operation): Record<string, Json> {
  const responses: Record<string, Json> = {}
  for (const [status, response] of Object.entries(operation.responses ?? {})) {
    const { content, description, ...rest } = response as { content?: Record<string, { schema?: Schema }>; description?: string }
    const finished: Json = { description: description ?? SUCCESS_TEXT[status] ?? GENERIC[Number(status) as ErrorStatus] ?? 'Success', ...rest }
    if (status.startsWith('2') && takesIdempotencyKey(operation, method)) finished.headers = { ...(finished.headers as Json | undefined), ...REPLAYED }
    if (content) {
      const json = content[JSON_TYPE]
      finished.content = json ? { [JSON_TYPE]: { ...json, schema: cleanSchema(json.schema ?? {}, { response: true }) } } : content
    }
    responses[status] = finished
  }
  for (const [status, why] of Object.entries(errorStatuses(path, operation, method)))
    if (!(status in responses)) responses[status] = errorResponse(Number(status) as ErrorStatus, why)
  return Object.fromEntries(Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b)))
}

function finishOperation(path: string, method: string, operation: Operation): Operation {
  const { 'x-errors': _, parameters: own, requestBody, responses: __, description, ...rest } = operation
  const text = [description, accessSentence(operation)].filter(Boolean).join('\n\n')
  const parameters = takesIdempotencyKey(operation, method) ? [...(own ?? []), IDEMPOTENCY_KEY_PARAMETER] : own
  return {
    ...rest,
    // an open route says so: without `security`, a reader cannot tell it from one whose author forgot
    security: operation.security ?? [],
    ...(text ? { description: text } : {}),
    ...(parameters && parameters.length > 0 ? { parameters: parameters.map(finishParameter) } : {}),
    ...(requestBody ? { requestBody: finishRequestBody(requestBody) } : {}),
    responses: finishResponses(path, method, operation),
  }
}

/**
 * The document as served: OpenAPI 3.1, the plugin's output corrected (see the top of this file),
 * error statuses documented with the error envelope, `servers` from PUBLIC_URL and described tags.
 * Pure: the input is left as it was.
 */
export function finishDocument(raw: OpenApiDocument, options: { publicUrl: string }): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {}
  for (const [path, item] of Object.entries(raw.paths)) {
    paths[path] = {}
    for (const [method, operation] of Object.entries(item))
      paths[path][method] = METHODS.includes(method) ? finishOperation(path, method, operation) : operation
  }
  const schemas = Object.fromEntries(Object.entries(raw.components?.schemas ?? {}).map(([name, s]) => [name, cleanSchema(s)]))
  return {
    ...raw,
    openapi: '3.1.0',
    servers: serversOf(options.publicUrl),
    tags: TAGS,
    paths,
    components: { ...raw.components, schemas: { ...schemas, Error: ErrorEnvelope } },
  }
}

/**
 * First the service as the docs page was reached (PUBLIC_URL's path on the page's own origin), so
 * that "Try it out" works however the page was opened (another host name, a port chosen at start,
 * a proxy); then PUBLIC_URL itself, for clients generated from the document.
 */
function serversOf(publicUrl: string): { url: string; description: string }[] {
  const path = new URL(publicUrl).pathname.replace(/\/+$/, '')
  return [
    { url: path === '' ? '/' : path, description: 'this service, where this page was opened' },
    { url: publicUrl, description: 'this service (PUBLIC_URL)' },
  ]
}

/** The responses of a route that answers a file's bytes (not an envelope), for its `detail`. */
export function binaryResponses(): Record<string, Json> {
  const header = (description: string, schema: Json = { type: 'string' }) => ({ description, schema })
  const common = {
    'Content-Type': header('the file’s type, as detected from its content at upload'),
    ETag: header('the content’s tag; send it back in If-None-Match'),
    'Content-Disposition': header('attachment, with the original name (RFC 5987 `filename*` too)'),
    'Accept-Ranges': header('always `bytes`'),
  }
  const bytes = { '*/*': { schema: { type: 'string', format: 'binary' } } }
  const length = header('bytes in this answer', { type: 'integer' })
  return {
    '200': { description: 'The whole file', headers: { ...common, 'Content-Length': length }, content: bytes },
    '206': {
      description: 'The part the `Range` header asked for',
      headers: { ...common, 'Content-Length': length, 'Content-Range': header('bytes start-end/size') },
      content: bytes,
    },
    '304': { description: 'If-None-Match matched the ETag: the copy the client holds is current', headers: common },
    '416': {
      description: 'The `Range` lies outside the file (no body)',
      headers: { ...common, 'Content-Range': header('bytes */size') },
    },
  }
}

const DOCUMENTATION = {
  info: {
    title: 'Workforce API',
    description:
      'Roles and permissions, departments, attendance, file storage and salaries. Sign in with POST /api/v1/auth/login and send the access token as `Authorization: Bearer <token>` (or use Authorize above).\n\nEvery JSON answer is the envelope `{code, message, data, timestamp}`; an error has HTTP status = `code`, `data` null and a `message` to act on.',
  },
  components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
}
const ROUTE_METHODS: HTTPMethod[] = ['GET', 'PUT', 'POST', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH', 'TRACE']

/**
 * The document @elysiajs/swagger's plugin would answer, made with the plugin's own generator
 * (`@elysiajs/swagger/utils`): the plugin's entry point also loads a theme for another docs page
 * (@scalar/themes, with zod), about 5 MB of every process's memory for a page this service never serves.
 */
function generatedDocument(routes: InternalRoute[], models: Record<string, unknown>, version: string, exclude: string[]): OpenApiDocument {
  const schema = {}
  for (const route of routes) {
    if (route.hooks?.detail?.hide === true || route.method === 'OPTIONS') continue
    if (route.method !== 'ALL' && !ROUTE_METHODS.includes(route.method)) continue
    for (const method of route.method === 'ALL' ? ROUTE_METHODS : [route.method])
      registerSchemaPath({ schema, hook: route.hooks, method, path: route.path, models: models as never, contentType: route.hooks.type })
  }
  return {
    openapi: '3.0.3',
    ...DOCUMENTATION,
    tags: undefined,
    info: { ...DOCUMENTATION.info, version },
    paths: filterPaths(schema, { excludeStaticFile: true, exclude }),
    components: { ...DOCUMENTATION.components, schemas: { ...models } as Record<string, Schema> },
  }
}

/** What a plugin sees of the app it is used in (Elysia keeps these protected). */
interface AppView {
  getGlobalRoutes(): InternalRoute[]
  getGlobalDefinitions?(): { type: Record<string, unknown> }
}

/** The parts of a route's hooks the document reads: its models. */
const MODEL_HOOKS = ['body', 'query', 'params', 'headers', 'cookie', 'response'] as const

const isSchema = (model: object): boolean =>
  typeof (model as { type?: unknown }).type === 'string' || Array.isArray((model as { anyOf?: unknown }).anyOf) || Object.getOwnPropertySymbols(model).length > 0

/**
 * A copy of a route's model as the code declares it. Elysia writes `additionalProperties` onto a
 * model's top object when it first handles a request with it (and the models are shared by every
 * app of the process), so the copy leaves that out: no model of ours sets it, since unknown fields
 * are ignored, never refused (CONTRACT §1).
 */
const declaredModel = (model: unknown): unknown => {
  if (model === null || typeof model !== 'object') return model
  if (!isSchema(model)) return Object.fromEntries(Object.entries(model).map(([key, inner]) => [key, declaredModel(inner)])) // by status or by name
  const copy = CloneType(model as TSchema) as TSchema & { additionalProperties?: unknown }
  if (typeof copy.additionalProperties === 'boolean') delete copy.additionalProperties
  return copy
}

/** A route with copies of its models as declared, whatever requests it has handled. */
const declaredRoute = (route: InternalRoute): InternalRoute => {
  const hooks: Record<string, unknown> = { ...route.hooks }
  for (const name of MODEL_HOOKS) if (hooks[name] !== undefined) hooks[name] = declaredModel(hooks[name])
  return { ...route, hooks: hooks as InternalRoute['hooks'] }
}

/**
 * The OpenAPI document at `specPath`, finished by `finishDocument`, made again only when routes
 * were added. It depends on the code alone: it is built from copies of the models as declared.
 */
export function openApiDocument(options: { version: string; publicUrl: string; specPath: string; exclude: string[] }) {
  let cached: { routes: number; document: OpenApiDocument } | null = null
  const plugin = new Elysia({ name: 'openapi' })
  const app = plugin as unknown as AppView
  return plugin.get(
    options.specPath,
    () => {
      const routes = app.getGlobalRoutes()
      if (cached?.routes !== routes.length) {
        const models = declaredModel(app.getGlobalDefinitions?.().type ?? {}) as Record<string, unknown>
        const raw = generatedDocument(routes.map(declaredRoute), models, options.version, options.exclude)
        cached = { routes: routes.length, document: finishDocument(raw, options) }
      }
      return cached.document
    },
    { detail: { hide: true } },
  )
}
