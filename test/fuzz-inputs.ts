import fc from 'fast-check'

/*
 * Generators for the route fuzz (test/fuzz.test.ts): hostile values of every kind, and values
 * read off a route's own TypeBox schema so that bodies get past validation often enough for the
 * business rules behind it to be exercised too.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Schema = Record<string, any>

/** A JSON text inserted as is: numbers JSON.stringify cannot write (1e400, -0, 1.0) and nesting too deep to build. */
export class RawJson {
  constructor(readonly text: string) {}
  toJSON() {
    return `<raw ${this.text.slice(0, 40)}${this.text.length > 40 ? '…' : ''}>`
  }
}

/** JSON.stringify, but RawJson pieces are written verbatim. */
export function toJson(value: unknown): string {
  if (value instanceof RawJson) return value.text
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? 'null' : toJson(item))).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const parts = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .map(([key, item]) => `${JSON.stringify(key)}:${toJson(item)}`)
    return `{${parts.join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}

// ---------------------------------------------------------------- hostile values

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code))
const special = fc.constantFrom(
  '\u202e', // right-to-left override
  '\u200b', // zero-width space
  '\u200d', // zero-width joiner
  '\ufeff', // byte-order mark
  '\u0000',
  '\u2028',
  '\u00a0',
  '\r\n',
  '\t',
  '😀',
  '👩‍👩‍👧',
  'e\u0301',
  '𝕏',
  'مرحبا',
  'שלום',
  '工资',
  '\\',
  '"',
  "'",
  '%',
  '/',
  '..',
  '<script>',
  "' OR 1=1 --",
  '%s%n',
  '${x}',
  '__proto__',
  '*',
  '_',
  '\u0301',
)

/** Short strings of any code point, lone surrogates, direction marks, zero-width and control characters. */
export const unicodeString = fc.string({
  unit: fc.oneof(
    { weight: 3, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
    { weight: 1, arbitrary: loneSurrogate },
    { weight: 2, arbitrary: special },
  ),
  maxLength: 40,
})

/** Up to ~200 KB of text (a lone surrogate is 6 bytes once escaped in JSON, so some of these exceed 1 MiB). */
export const hugeString = fc
  .tuple(fc.constantFrom('x', ' ', 'é', '😀', '\u200b', '\ud800', 'ab\u202ecd', '0'), fc.integer({ min: 256, max: 200_000 }))
  .map(([unit, length]) => unit.repeat(Math.max(1, Math.floor(length / unit.length))))

/** Strings that look like numbers, or like other JSON values, to a careless parser. */
export const numberLike = fc.constantFrom(
  'NaN',
  'Infinity',
  '-Infinity',
  '1e309',
  '0x10',
  '0b101',
  '0o17',
  ' 42 ',
  '4 2',
  '1,000',
  '+1',
  '-0',
  '٣',
  '１',
  '1.0',
  '1e2',
  '1.5',
  '',
  ' ',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '9007199254740993',
  '1e20',
  '-99999999999999999999',
  '1e400',
  '-1',
  '0',
  '1',
  '2',
  '00001',
)

/** Numbers at and beyond every edge, including ones only raw JSON can carry. */
export const nastyNumber = fc.oneof(
  fc.constantFrom(
    0,
    -1,
    1,
    1.5,
    -1.5,
    0.1 + 0.2,
    1e-7,
    1e20,
    -1e20,
    2 ** 31,
    -(2 ** 31),
    2 ** 32,
    Number.MAX_SAFE_INTEGER,
    9007199254740993,
    Number.MAX_VALUE,
    -Number.MAX_VALUE,
    Number.MIN_VALUE,
    100000000,
    100000000.01,
    0.001,
    24.000001,
    1440,
    1441,
    604800,
    604801,
  ),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(
    new RawJson('1e400'),
    new RawJson('-1e400'),
    new RawJson('-0'),
    new RawJson('1.0'),
    new RawJson('1E2'),
    new RawJson('123456789012345678901234567890'),
    new RawJson('0.0000000000000000000000000001'),
  ),
)

/** Arrays or objects nested 100 to 5000 deep. */
export const deepValue = fc
  .tuple(fc.integer({ min: 100, max: 5000 }), fc.constantFrom<[string, string]>(['[', ']'], ['{"a":', '}'], ['[{"a":', '}]']))
  .map(([depth, [open, close]]) => new RawJson(open.repeat(depth) + '1' + close.repeat(depth)))

/** Any value of a type a field might not expect. */
export const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 2, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 3, arbitrary: nastyNumber },
  { weight: 3, arbitrary: numberLike },
  { weight: 3, arbitrary: unicodeString },
  { weight: 1, arbitrary: hugeString },
  { weight: 1, arbitrary: deepValue },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      {},
      [],
      [null],
      [[]],
      ...[
        '{"__proto__":{"admin":true}}',
        '{"toString":0}',
        '[{"valueOf":{},"toString":[]}]',
        '{"constructor":{"prototype":1}}',
        '{"hasOwnProperty":1}',
      ].map((text) => JSON.parse(text) as unknown),
    ),
  },
  { weight: 1, arbitrary: fc.array(fc.oneof(nastyNumber, unicodeString), { maxLength: 5 }) },
)

// ---------------------------------------------------------------- values from a schema

/** Generators for fields whose valid values the schema cannot tell (role names, file ids, ...), by field name. */
export type Overrides = Record<string, fc.Arbitrary<unknown>>

const isCoercingInteger = (schema: Schema) =>
  Array.isArray(schema.anyOf) &&
  schema.anyOf.length === 2 &&
  schema.anyOf.some((s: Schema) => s.type === 'string' && s.format === 'integer')

/** Object properties of a schema (objects, intersections turned into objects), else none. */
export function propertiesOf(schema: Schema | undefined): Record<string, Schema> {
  if (!schema) return {}
  if (schema.type === 'object' && schema.properties) return schema.properties
  return {}
}

const requiredOf = (schema: Schema): string[] => (Array.isArray(schema.required) ? schema.required : [])

/** A value the schema accepts (mostly): the basis of well-formed requests. */
export function validArb(schema: Schema, overrides: Overrides = {}, field?: string): fc.Arbitrary<unknown> {
  if (field && overrides[field]) return overrides[field]
  if ('const' in schema) return fc.constant(schema.const)
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum)
  if (Array.isArray(schema.anyOf)) {
    if (isCoercingInteger(schema))
      return validArb(
        schema.anyOf.find((s: Schema) => s.type !== 'string'),
        overrides,
      )
    return fc.oneof(...schema.anyOf.map((member: Schema) => validArb(member, overrides)))
  }
  switch (schema.type) {
    case 'null':
      return fc.constant(null)
    case 'boolean':
      return fc.boolean()
    case 'integer': {
      const min = schema.minimum ?? -1000
      const max = schema.maximum ?? 1000
      // ids: mostly the few that exist
      const small = fc.integer({ min, max: Math.min(max, min + 8) })
      return fc.oneof({ weight: 4, arbitrary: small }, { weight: 1, arbitrary: fc.integer({ min, max: Math.min(max, 2 ** 31) }) })
    }
    case 'number': {
      const min = schema.minimum ?? 0
      const max = schema.maximum ?? 100_000
      return fc.oneof(
        fc.integer({ min: Math.ceil(min * 100), max: Math.floor(max * 100) }).map((cents) => cents / 100),
        fc.double({ min, max, noNaN: true }),
        fc.constantFrom(min, max),
      )
    }
    case 'string': {
      if (schema.format === 'uuid') return fc.uuid()
      const minLength = schema.minLength ?? 0
      const maxLength = schema.maxLength ?? 60
      if (schema.pattern) {
        const examples = Array.isArray(schema.examples) ? schema.examples : []
        const matching = fc
          .stringMatching(new RegExp(schema.pattern), { size: 'small' })
          .filter((s) => s.length >= minLength && s.length <= maxLength)
        return examples.length > 0 ? fc.oneof(fc.constantFrom(...examples), matching) : matching
      }
      return fc.oneof(
        { weight: 4, arbitrary: fc.string({ minLength: Math.max(minLength, 1), maxLength: Math.min(maxLength, 30) }) },
        { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: Math.max(minLength, 1), maxLength: Math.min(maxLength, 10) }) },
        { weight: 1, arbitrary: fc.constant('x'.repeat(Math.max(maxLength, 1))) },
      )
    }
    case 'array': {
      const minLength = schema.minItems ?? 0
      const maxLength = Math.max(minLength, Math.min(schema.maxItems ?? 5, 5))
      return fc.array(validArb(schema.items ?? {}, overrides), { minLength, maxLength })
    }
    case 'object': {
      const properties = propertiesOf(schema)
      const record = Object.fromEntries(Object.entries(properties).map(([key, member]) => [key, validArb(member, overrides, key)]))
      return fc.record(record, { requiredKeys: requiredOf(schema).filter((key) => key in record) })
    }
    default:
      return fc.jsonValue({ maxDepth: 2 })
  }
}

// ---------------------------------------------------------------- JSON bodies

export interface JsonBody {
  kind: 'json'
  text: string
  contentType: string | null
  /** well-formed JSON sent as application/json within the size and nesting limits: reaches the route's checks */
  wellFormed: boolean
}

const MALFORMED = fc.constantFrom(
  '{',
  '{"a":',
  '{"a":1,}',
  "{'a':1}",
  'nul',
  '{"a":1}{"b":2}',
  '[1,2',
  '"unterminated',
  '{"a": NaN}',
  '{"a": undefined}',
  '{"a": Infinity}',
  '01',
  '{"a":1}\u0000',
  '\ufeff{}',
  '{"a":"\\x41"}',
  '{"a":"\\ud800"}',
  '{"__proto__":',
  '['.repeat(100_000),
)

const CONTENT_TYPES = fc.oneof(
  { weight: 20, arbitrary: fc.constant('application/json') },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'application/json; charset=utf-8',
      'APPLICATION/JSON',
      'application/json; charset=latin1',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data',
      'multipart/form-data; boundary=x',
      'application/xml',
      'application/octet-stream',
      'application/jsonx',
      '',
    ),
  },
  { weight: 1, arbitrary: fc.constant(null) },
)

/** How deep arrays and objects nest in a JSON text; the service refuses more than 64 levels while parsing. */
export function nesting(text: string): number {
  let depth = 0
  let deepest = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const char = text[i]
    if (inString) {
      if (char === '\\') i++
      else if (char === '"') inString = false
    } else if (char === '"') inString = true
    else if (char === '[' || char === '{') deepest = Math.max(deepest, ++depth)
    else if (char === ']' || char === '}') depth--
  }
  return deepest
}

/** False when the service's JSON parser refuses the body before anything else looks at the request (bad syntax, size, nesting). */
export function passesJsonParser(text: string, contentType: string | null): boolean {
  // every body is read as JSON whatever its type, except multipart, which only the upload routes take (else 415)
  if (contentType?.toLowerCase().startsWith('multipart/')) return false
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return text.trim() === ''
  }
  if (holdsNul(parsed)) return false
  return Buffer.byteLength(text) <= 1024 * 1024 && nesting(text) <= 64
}

/** Whether any string value in a parsed JSON value holds NUL (the service's parser refuses those). */
function holdsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000')
  if (value === null || typeof value !== 'object') return false
  return Object.values(value).some(holdsNul)
}

function jsonBody(text: string, contentType: string | null): JsonBody {
  return { kind: 'json', text, contentType, wellFormed: passesJsonParser(text, contentType) }
}

/** A JSON body for a route whose body schema is `schema` (none: bodies the route does not expect). */
export function jsonBodyArb(schema: Schema | undefined, overrides: Overrides): fc.Arbitrary<JsonBody> {
  const properties = propertiesOf(schema)
  const keys = Object.keys(properties)
  const valid = schema ? validArb(schema, overrides) : fc.constant({})
  const asObject = (value: unknown) => (value !== null && typeof value === 'object' && !Array.isArray(value) ? value : {})

  const shapes: fc.WeightedArbitrary<unknown>[] = [
    { weight: 3, arbitrary: valid },
    { weight: 1, arbitrary: nastyValue },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          valid,
          fc.dictionary(
            fc.oneof(unicodeString, fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', '')),
            nastyValue,
            { maxKeys: 3 },
          ),
        )
        .map(([body, extra]) => ({ ...extra, ...asObject(body) })),
    },
  ]
  if (keys.length > 0) {
    const key = fc.constantFrom(...keys)
    shapes.push(
      {
        // valid but for one field: wrong type, hostile value, null, or missing
        weight: 5,
        arbitrary: fc.tuple(valid, key, fc.option(nastyValue, { nil: undefined, freq: 6 })).map(([body, field, value]) => {
          const copy: Record<string, unknown> = { ...asObject(body) }
          if (value === undefined) delete copy[field]
          else copy[field] = value
          return copy
        }),
      },
      {
        // known fields, all hostile
        weight: 2,
        arbitrary: fc
          .subarray(keys, { minLength: 1 })
          .chain((fields) =>
            fc.tuple(...fields.map(() => nastyValue)).map((values) => Object.fromEntries(fields.map((field, i) => [field, values[i]]))),
          ),
      },
    )
  }
  const value = fc.oneof(...shapes)
  return fc.oneof(
    { weight: 12, arbitrary: fc.tuple(value, CONTENT_TYPES).map(([body, contentType]) => jsonBody(toJson(body), contentType)) },
    { weight: 1, arbitrary: MALFORMED.map((text) => jsonBody(text, 'application/json')) },
    { weight: 1, arbitrary: fc.string({ maxLength: 30 }).map((text) => jsonBody(text, 'application/json')) },
  )
}

// ---------------------------------------------------------------- query strings and paths

/** encodeURIComponent that also writes a lone surrogate (as the bytes of invalid UTF-8). */
export function encode(text: string): string {
  let out = ''
  for (const char of text) {
    const code = char.charCodeAt(0)
    if (char.length === 1 && code >= 0xd800 && code <= 0xdfff)
      out +=
        `%${(0xe0 | (code >> 12)).toString(16)}%${(0x80 | ((code >> 6) & 0x3f)).toString(16)}%${(0x80 | (code & 0x3f)).toString(16)}`.toUpperCase()
    else out += encodeURIComponent(char)
  }
  return out
}

const RAW_QUERY = fc.constantFrom(
  '%',
  '%zz',
  '%E0%A4%A',
  '%00',
  '%FF',
  '&&&',
  '=',
  'a=b=c',
  'x[]=1',
  'x[y]=1',
  '+',
  '%2B',
  '==&=',
  '?',
  '#x',
  ';',
)

const HUGE_INTEGERS = fc.constantFrom(
  '1e20',
  '1e19',
  '1e300',
  '99999999999999999999',
  '9223372036854775807',
  '9223372036854775808',
  '18446744073709551616',
  '-9223372036854775809',
  '0x7fffffffffffffff',
  '2147483648',
)

const queryValue = (schema: Schema, overrides: Overrides, field: string) =>
  fc.oneof(
    { weight: 3, arbitrary: validArb(schema, overrides, field).map((value) => encode(String(value))) },
    { weight: 2, arbitrary: numberLike.map(encode) },
    // a number field gets more numbers beyond its edges, written every way a parser may take as a whole number
    { weight: isCoercingInteger(schema) ? 3 : 0, arbitrary: HUGE_INTEGERS },
    { weight: 2, arbitrary: unicodeString.map(encode) },
    { weight: 1, arbitrary: fc.integer({ min: 256, max: 6000 }).map((n) => 'x'.repeat(n)) },
    { weight: 1, arbitrary: RAW_QUERY },
  )

/** A query string (with its "?") for a route whose query schema is `schema`: known fields right, wrong or repeated, unknown fields, raw garbage. */
export function queryArb(schema: Schema | undefined, overrides: Overrides): fc.Arbitrary<string> {
  const hostile = hostileQueryArb(schema, overrides)
  const keys = Object.keys(propertiesOf(schema))
  if (!schema || keys.length === 0) return hostile
  const asQuery = (values: Record<string, string | undefined>) => {
    const parts = Object.entries(values)
      .filter(([, value]) => value !== undefined)
      .map(([field, value]) => `${field}=${value}`)
    return parts.length > 0 ? `?${parts.join('&')}` : ''
  }
  const encoded = (values: unknown) =>
    Object.fromEntries(
      Object.entries(values as Record<string, unknown>).map(([field, value]) => [
        field,
        value === undefined ? undefined : encode(String(value)),
      ]),
    )
  // valid throughout (required fields included), so that lists are also exercised past validation
  const valid = validArb(schema, overrides).map(encoded)
  // valid but for one field: wrong, hostile or missing, so that its own check is what answers
  const mutated = fc
    .tuple(valid, fc.constantFrom(...keys))
    .chain(([values, field]) =>
      fc
        .option(queryValue(propertiesOf(schema)[field], overrides, field), { nil: undefined, freq: 6 })
        .map((value) => asQuery({ ...values, [field]: value })),
    )
  return fc.oneof({ weight: 2, arbitrary: valid.map(asQuery) }, { weight: 2, arbitrary: mutated }, { weight: 2, arbitrary: hostile })
}

function hostileQueryArb(schema: Schema | undefined, overrides: Overrides): fc.Arbitrary<string> {
  const properties = propertiesOf(schema)
  const known = Object.entries(properties).map(([field, member]) =>
    fc.option(
      fc.array(queryValue(member, overrides, field), { minLength: 1, maxLength: 3 }).map((values) => values.map((v) => `${field}=${v}`)),
      {
        freq: 2,
        nil: [] as string[],
      },
    ),
  )
  const unknown = fc.array(
    fc.oneof(
      fc.tuple(unicodeString, unicodeString).map(([key, value]) => `${encode(key)}=${encode(value)}`),
      RAW_QUERY,
      fc.constantFrom('__proto__=1', 'constructor=x', '__proto__[admin]=true', 'page', 'page=', 'page_size'),
    ),
    { maxLength: 2 },
  )
  return fc
    .tuple(fc.tuple(...known), unknown, fc.boolean())
    .chain(([parts, extra, shuffle]) => {
      const all = [...parts.flat(), ...extra]
      return shuffle ? fc.shuffledSubarray(all, { minLength: all.length, maxLength: all.length }) : fc.constant(all)
    })
    .map((parts) => (parts.length > 0 ? `?${parts.join('&')}` : ''))
}

const NASTY_SEGMENTS = fc.constantFrom(
  '0',
  '-1',
  '1e20',
  '1e2',
  '9007199254740991',
  '9007199254740992',
  '9007199254740993',
  '99999999999999999999',
  '1.5',
  '1.0',
  '0x10',
  'abc',
  '%00',
  '..',
  '%2e%2e',
  '.',
  '%2F',
  '%2F..%2F..%2Fpackage.json',
  '..%2F..%2Fpackage.json',
  '%',
  '%E0%A4%A',
  '%20',
  '%201',
  '1%20',
  '%C3%A9',
  '%D9%A3',
  '%EF%BC%91',
  'null',
  'undefined',
  'true',
  '-0',
  '+1',
  '01',
  '1,2',
  '%ED%A0%80',
  '2024-13',
  '2024-1',
  '0000-00',
  '9999-12',
)

/** A path for a route pattern: each parameter valid (from `pool`), hostile, or unicode. */
export function pathArb(pattern: string, pool: (param: string) => fc.Arbitrary<string>): fc.Arbitrary<string> {
  const params = [...pattern.matchAll(/:(\w+)/g)].map((match) => match[1])
  if (params.length === 0) return fc.constant(pattern)
  const segment = (param: string) =>
    fc.oneof(
      { weight: 4, arbitrary: pool(param).map(encode) },
      { weight: 3, arbitrary: NASTY_SEGMENTS },
      { weight: 2, arbitrary: unicodeString.filter((s) => s.length > 0).map(encode) },
      { weight: 1, arbitrary: fc.integer({ min: 256, max: 6000 }).map((n) => '9'.repeat(n)) },
    )
  return fc.tuple(...params.map(segment)).map((values) => {
    let i = 0
    return pattern.replace(/:(\w+)/g, () => values[i++])
  })
}

// ---------------------------------------------------------------- multipart forms

export interface FormFile {
  field: string
  name: string
  type: string
  content: 'text' | 'png' | 'pdf' | 'empty' | 'binary' | 'exe' | 'html'
}

export interface FormBody {
  kind: 'form'
  files: FormFile[]
  fields: [string, string][]
}

export interface RawBody {
  kind: 'raw'
  text: string
  contentType: string | null
}

const CONTENTS: Record<FormFile['content'], Uint8Array> = {
  text: new TextEncoder().encode('hello, fuzz\n'),
  png: new Uint8Array(
    Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64'),
  ),
  pdf: new TextEncoder().encode('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n'),
  empty: new Uint8Array(),
  binary: new Uint8Array([0x00, 0xff, 0xfe, 0x13, 0x37, 0x80, 0x81, 0x00, 0x9f, 0x42]),
  exe: new Uint8Array([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00, 0x00, 0x00, 0x04, 0x00]),
  html: new TextEncoder().encode('<!doctype html><script>alert(1)</script>'),
}

export function formData(body: FormBody): FormData {
  const form = new FormData()
  for (const file of body.files) form.append(file.field, new File([CONTENTS[file.content]], file.name, { type: file.type }))
  for (const [name, value] of body.fields) form.append(name, value)
  return form
}

const fileName = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('a.txt', 'photo.png', 'doc.pdf', 'notes', 'a.TXT', 'x.png.txt', '.txt', 'a..txt') },
  // characters a part header cannot carry as they are
  { weight: 1, arbitrary: fc.constantFrom('\u0000.txt', 'a\rb.txt', 'a\nb.txt', 'a"b.txt', 'a\\"b.txt', '\u0000') },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '',
      '../../etc/passwd',
      '..\\..\\boot.ini',
      '/abs.txt',
      'a/b.txt',
      'nul\u0000.txt',
      '\u202etxt.exe',
      'zero\u200bwidth.txt',
      '工资单.pdf',
      '😀.png',
      'CON',
      'a.exe',
      'a.html',
      ' .txt',
      'a'.repeat(300) + '.txt',
      '%2e%2e%2fx.txt',
      'a"b.txt',
      "a'b.txt",
      'a;b.txt',
      'a\r\nb.txt',
    ),
  },
  { weight: 2, arbitrary: fc.tuple(unicodeString, fc.constantFrom('.txt', '.png', '.pdf', '')).map(([base, ext]) => base + ext) },
)

const folder = fc.oneof(
  fc.constantFrom(
    'docs',
    'contracts/2024',
    'a b/c-d_e.f',
    '',
    '.',
    '..',
    '../x',
    'a/../b',
    '/abs',
    'a\\b',
    'a//b',
    'a/',
    ' ',
    'x'.repeat(256),
    'x'.repeat(255),
  ),
  unicodeString,
)

const formField = (names: string[]) =>
  fc.oneof(
    fc.tuple(fc.constant('folder'), folder),
    fc.tuple(fc.constant('description'), fc.oneof(unicodeString, fc.constant('d'.repeat(5000)))),
    fc.tuple(
      fc.constant('is_public'),
      fc.oneof(fc.constantFrom('true', 'false', '1', '0', 'yes', 'no', 'TRUE', '', 'on', 'null'), unicodeString),
    ),
    fc.tuple(fc.constantFrom(...names, 'unknown', '__proto__', ''), unicodeString),
  )

/** A multipart upload to `fileField` ("file" or "files"): small files with hostile names and form fields, or a body that is not a form at all. */
export function uploadArb(fileField: string): fc.Arbitrary<FormBody | RawBody> {
  const file = fc.record({
    field: fc.oneof(
      { weight: 8, arbitrary: fc.constant(fileField) },
      { weight: 1, arbitrary: fc.constantFrom('file', 'files', 'other', '') },
    ),
    name: fileName,
    type: fc.constantFrom('text/plain', 'image/png', 'application/pdf', 'application/octet-stream', '', 'text/html', 'image/png; x=y'),
    content: fc.constantFrom<FormFile['content']>('text', 'png', 'pdf', 'empty', 'binary', 'exe', 'html'),
  })
  const form = fc.record({
    kind: fc.constant('form' as const),
    files: fc.array(file, { minLength: 0, maxLength: fileField === 'files' ? 4 : 3 }),
    fields: fc.array(formField([fileField]), { maxLength: 4 }),
  })
  const raw = fc.record({
    kind: fc.constant('raw' as const),
    text: fc.oneof(
      fc.constantFrom(
        '--x\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nhello',
        '--x--',
        '',
        '{"file":"x"}',
        '--x\r\n\r\n',
      ),
      unicodeString,
    ),
    contentType: fc.constantFrom('multipart/form-data; boundary=x', 'multipart/form-data', 'application/json', 'text/plain', null),
  })
  return fc.oneof({ weight: 6, arbitrary: form }, { weight: 1, arbitrary: raw })
}

// ---------------------------------------------------------------- headers

/** Occasional extra headers: a language, a Range on downloads, conditional requests. */
export const extraHeaders = (withRange: boolean) =>
  fc.record(
    {
      'accept-language': fc.constantFrom('zh', 'zh-CN', 'en', '*', 'xx-invalid;q=abc', ''),
      ...(withRange
        ? {
            range: fc.constantFrom(
              'bytes=0-3',
              'bytes=-3',
              'bytes=5-',
              'bytes=9-2',
              'bytes=abc',
              'bytes=0-99999999999999999999',
              'bytes=999999-',
              'items=0-1',
              'bytes=0-1,3-4',
              'bytes=',
              'bytes=-0',
            ),
            'if-none-match': fc.constantFrom('*', '"x"', 'W/"x"', ''),
          }
        : {}),
    },
    { requiredKeys: [] },
  )
