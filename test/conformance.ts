import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020'
import addFormats from 'ajv-formats'
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib'

/*
 * Every answer a test receives from an app, checked against that app's own OpenAPI document
 * (/swagger/json): the operation found by method and path template, the response by status (or
 * `default`), the content type by the documented ones, and a JSON body by the schema, with Ajv's
 * JSON Schema 2020-12 (the dialect of OpenAPI 3.1). test/helpers.ts hooks it into `app.handle`.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any
interface Operation {
  responses?: Record<string, { content?: Record<string, { schema?: Json }> }>
}
export interface Doc {
  paths: Record<string, Record<string, Operation>>
  components?: { schemas?: Record<string, Json> }
}
interface Template {
  path: string
  segments: (string | null)[] // null: a path parameter
  methods: Record<string, Operation>
}

const COMPONENTS = 'https://workforce.test/components'

/** What one document says, compiled once however many apps serve it. */
export interface Conformance {
  /** Throws, naming the route, the status, what is wrong and the body, when the answer is not what the document says. */
  check(request: Request, response: Response): Promise<void>
}

const byDocument = new Map<string, Conformance>()

/** The conformance of a document; documents that differ only in `servers` (PUBLIC_URL) share one. */
export function conformanceOf(doc: Doc): Conformance {
  const key = JSON.stringify([doc.paths, doc.components?.schemas])
  let found = byDocument.get(key)
  if (!found) byDocument.set(key, (found = compile(doc)))
  return found
}

/** `#/components/schemas/X` made absolute, so that a schema compiled on its own finds its components. */
function absoluteRefs(schema: Json): Json {
  if (Array.isArray(schema)) return schema.map(absoluteRefs)
  if (schema === null || typeof schema !== 'object') return schema
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) =>
      key === '$ref' && typeof value === 'string' && value.startsWith('#/components/schemas/')
        ? [key, `${COMPONENTS}#/$defs/${value.slice('#/components/schemas/'.length)}`]
        : [key, absoluteRefs(value)],
    ),
  )
}

function compile(doc: Doc): Conformance {
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true })
  addFormats(ajv)
  ajv.addSchema({ $id: COMPONENTS, $defs: absoluteRefs(doc.components?.schemas ?? {}) })
  const errorSchema = ajv.compile({ $ref: `${COMPONENTS}#/$defs/Error` })
  const validators = new Map<string, ValidateFunction>()
  const templates: Template[] = Object.entries(doc.paths).map(([path, methods]) => ({
    path,
    segments: path.split('/').map((segment) => (/^\{\w+\}$/.test(segment) ? null : segment)),
    methods,
  }))

  /** The operation's template for a concrete path: literal segments win over parameters, left to right (as the router does). */
  function templateOf(method: string, pathname: string): Template | undefined {
    const segments = (pathname.length > 1 ? pathname.replace(/\/$/, '') : pathname).split('/')
    const candidates = templates.filter(
      (template) =>
        template.methods[method] &&
        template.segments.length === segments.length &&
        template.segments.every((segment, i) => (segment === null ? segments[i] !== '' : segment === segments[i])),
    )
    const rank = (template: Template) => template.segments.map((segment) => (segment === null ? '1' : '0')).join('')
    return candidates.sort((a, b) => rank(a).localeCompare(rank(b)))[0]
  }

  const validatorOf = (key: string, schema: Json) => {
    let validate = validators.get(key)
    if (!validate) validators.set(key, (validate = ajv.compile(absoluteRefs(schema))))
    return validate
  }

  return {
    async check(request, response) {
      const method = request.method.toLowerCase()
      const { pathname } = new URL(request.url)
      const status = response.status
      const template = templateOf(method, pathname)
      const route = `${request.method} ${pathname}${template && template.path !== pathname ? ` (${template.path})` : ''}`
      const fail = (what: string, body?: unknown) => {
        throw new Error(
          `the answer to ${route} is not what /swagger/json documents: ${status} ${what}${body === undefined ? '' : `\nbody: ${JSON.stringify(body).slice(0, 4000)}`}`,
        )
      }

      const documented = template?.methods[method].responses?.[String(status)] ?? template?.methods[method].responses?.default
      // left out of the document on purpose: any route's 500, and the 404 of a path or method it does not have
      if (!documented && (status === 500 || (!template && status === 404))) {
        if (isJson(response)) {
          const body = await jsonOf(response, fail)
          if (!errorSchema(body)) fail(`is not the error envelope: ${ajv.errorsText(errorSchema.errors, { dataVar: 'body', separator: '; ' })}`, body)
        }
        return
      }
      if (!template) return fail('from a route the document does not have')
      if (!documented) return fail(`is not a documented status (${Object.keys(template.methods[method].responses ?? {}).join(', ')})`)

      const types = Object.keys(documented.content ?? {})
      const type = response.headers.get('content-type')?.split(';')[0].trim().toLowerCase() ?? null
      if (types.length === 0) {
        if (response.body !== null && (await response.clone().arrayBuffer()).byteLength > 0) fail(`has a body (${type}) where the document has none`)
        return
      }
      if (!types.includes('*/*') && (type === null || !types.includes(type))) fail(`is ${type ?? 'without a content type'}, documented as ${types.join(', ')}`)
      const schema = documented.content?.[type ?? '']?.schema
      if (type !== 'application/json' || !schema) return
      const body = await jsonOf(response, fail)
      const validate = validatorOf(`${method} ${template.path} ${status}`, schema)
      if (!validate(body)) fail(ajv.errorsText(validate.errors, { dataVar: 'body', separator: '; ' }), body)
    },
  }
}

const isJson = (response: Response) => response.headers.get('content-type')?.split(';')[0].trim().toLowerCase() === 'application/json'

/** The body of a copy of the response, decompressed, as JSON (the test still reads the original). */
async function jsonOf(response: Response, fail: (what: string, body?: unknown) => never): Promise<unknown> {
  let bytes = Buffer.from(await response.clone().arrayBuffer())
  const encoding = response.headers.get('content-encoding')
  if (encoding === 'gzip') bytes = gunzipSync(bytes)
  else if (encoding === 'br') bytes = brotliDecompressSync(bytes)
  else if (encoding === 'deflate') bytes = inflateSync(bytes)
  else if (encoding && encoding !== 'identity') return fail(`is encoded as ${encoding}, which the check cannot read`)
  const text = bytes.toString('utf8')
  try {
    return JSON.parse(text)
  } catch {
    return fail('is documented as JSON but is not', text)
  }
}
