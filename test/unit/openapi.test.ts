import { describe, expect, test } from 'bun:test'
import { cleanSchema, errorStatuses, finishDocument, type OpenApiDocument } from '../../src/http/openapi'

const DIGITS = { format: 'integer', default: 0, type: 'string' }

describe('cleanSchema', () => {
  test.each([
    ['an Elysia integer: the digits-as-text branch and its default 0 go', { minimum: 1, anyOf: [DIGITS, { minimum: 1, type: 'integer' }] }, { minimum: 1, type: 'integer' }],
    ['a page with its real default', { default: 1, anyOf: [DIGITS, { default: 1, type: 'integer' }] }, { default: 1, type: 'integer' }],
    ['Elysia custom messages and 3.0 nullable', { type: 'string', error: 'must be x', nullable: true }, { type: 'string' }],
    ['X or null', { anyOf: [{ type: 'string', maxLength: 3 }, { type: 'null' }] }, { type: ['string', 'null'], maxLength: 3 }],
    ['integer or null, the integer Elysia’s', { anyOf: [{ anyOf: [DIGITS, { type: 'integer' }] }, { type: 'null' }] }, { type: ['integer', 'null'] }],
    ['anything or null', { anyOf: [{}, { type: 'null' }] }, {}],
    ['constants of one type', { anyOf: [{ const: 'up', type: 'string' }, { const: 'down', type: 'string' }] }, { type: 'string', enum: ['up', 'down'] }],
    ['0 or 1 written as numbers', { description: 'd', anyOf: [{ const: 0, type: 'number' }, { const: 1, type: 'number' }] }, { description: 'd', type: 'integer', enum: [0, 1] }],
    [
      'a real union stays',
      { anyOf: [{ type: 'object', properties: { a: { type: 'string' } } }, { type: 'object', properties: { b: { type: 'string' } } }] },
      { anyOf: [{ type: 'object', properties: { a: { type: 'string' } } }, { type: 'object', properties: { b: { type: 'string' } } }] },
    ],
    [
      'nested in properties and items',
      { type: 'object', properties: { ids: { type: 'array', items: { anyOf: [DIGITS, { type: 'integer' }] } } } },
      { type: 'object', properties: { ids: { type: 'array', items: { type: 'integer' } } } },
    ],
  ])('%s', (_, input, expected) => {
    expect(cleanSchema(input as never)).toEqual(expected as never)
  })

  test('an answer has no defaults; a request keeps its real ones', () => {
    const schema = { type: 'object', properties: { status: { type: 'string', enum: ['success', 'failed'], default: 'success' } } }
    expect(cleanSchema(schema as never, { response: true })).toEqual({ type: 'object', properties: { status: { type: 'string', enum: ['success', 'failed'] } } })
    expect(cleanSchema(schema as never)).toEqual(schema as never)
  })
})

const DATABASE_UNAVAILABLE = 'The database is busy, did not answer within `DATABASE_TIMEOUT_MS` or cannot be reached; `Retry-After` says when to try again'

describe('errorStatuses', () => {
  const body = { content: { 'application/json': { schema: { type: 'object' } } } }
  test.each([
    ['open, no input: the database may still be unavailable', '/x', {}, [503]],
    ['open, a body', '/x', { requestBody: body }, [400, 413, 415, 503]],
    ['a token', '/x', { security: [{ bearer: [] }] }, [401, 503]],
    ['a permission and a path id', '/x/{id}', { security: [{ bearer: [] }], 'x-permission': 'a:b', parameters: [{ in: 'path', name: 'id' }] }, [400, 401, 403, 404, 503]],
    ['a token or a signed link: no blanket 401', '/x/{id}', { security: [{ bearer: [] }, {}], parameters: [{ in: 'path', name: 'id' }] }, [400, 404, 503]],
    ['an upload: no JSON limits', '/u', { security: [{ bearer: [] }], requestBody: { content: { 'multipart/form-data': {} } } }, [400, 401, 503]],
    ['notes add what the models cannot show', '/x', { 'x-errors': { 409: 'taken', 429: 'slow down', 503: 'busy', 507: 'full' } }, [409, 429, 503, 507]],
  ])('%s', (_, path, operation, statuses) => {
    expect(Object.keys(errorStatuses(path, operation as never)).map(Number)).toEqual(statuses)
  })

  test('a POST, PUT, PATCH or DELETE without a body model still reads a body: 400, 413 and 415 too', () => {
    const operation = { security: [{ bearer: [] }], parameters: [{ in: 'path', name: 'id' }] }
    expect(Object.keys(errorStatuses('/x/{id}', operation as never, 'delete')).map(Number)).toEqual([400, 401, 404, 413, 415, 503])
    expect(Object.keys(errorStatuses('/x/{id}', operation as never, 'get')).map(Number)).toEqual([400, 401, 404, 503])
    expect(errorStatuses('/x', {} as never, 'post')).toEqual({
      400: 'A body was sent that is not JSON (this endpoint takes none; any body is read as JSON)',
      413: 'A body larger than 1 MiB was sent (this endpoint takes none)',
      415: 'A multipart/form-data body was sent; this endpoint takes none',
      503: DATABASE_UNAVAILABLE,
    })
  })

  test('a 503 of its own (a busy sign-in gate, the file store) is joined by the database’s', () => {
    expect(errorStatuses('/x', { 'x-errors': { 503: 'The file store does not answer' } } as never)[503]).toBe(
      `The file store does not answer, or the database is busy, did not answer within \`DATABASE_TIMEOUT_MS\` or cannot be reached; \`Retry-After\` says when to try again`,
    )
  })

  test('a note is added to the generic text of 400 and 403, and replaces the rest', () => {
    const operation = {
      security: [{ bearer: [] }],
      'x-permission': 'a:b',
      parameters: [{ in: 'path', name: 'id' }],
      'x-errors': { 400: 'an unknown role', 403: 'your own account', 404: 'No such role' },
    }
    expect(errorStatuses('/r/{id}', operation as never)).toEqual({
      400: 'Invalid input: `errors` names each field and what is wrong with it; an unknown role',
      401: 'No token, or an invalid or expired one, or the account is disabled or signed out: sign in again',
      403: 'Your roles do not grant the permission `a:b`; your own account',
      404: 'No such role',
      503: DATABASE_UNAVAILABLE,
    })
  })
})

describe('finishDocument', () => {
  const every = (schema: object): Record<string, { schema: never }> => ({ 'application/json': { schema: schema as never }, 'multipart/form-data': { schema: schema as never }, 'text/plain': { schema: schema as never } })
  const raw = (): OpenApiDocument => ({
    openapi: '3.0.3',
    info: { title: 't', version: '1' },
    paths: {
      '/things/{id}': {
        put: {
          summary: 'Change a thing',
          description: 'Fields left out stay.',
          security: [{ bearer: [] }],
          'x-permission': 'things:update',
          'x-errors': { 409: 'The name is taken' },
          parameters: [{ in: 'path', name: 'id', required: true, schema: { minimum: 1, anyOf: [DIGITS, { minimum: 1, type: 'integer' }] } }],
          requestBody: { required: true, content: every({ type: 'object', properties: { name: { type: 'string' } }, examples: [{ name: 'x' }] }) },
          responses: { '200': { content: every({ type: 'object', properties: { code: { anyOf: [DIGITS, { type: 'integer' }] } } }) } },
        },
      },
      '/open': { get: { summary: 'Open', responses: { '200': {} } } },
    },
    components: { schemas: {} },
  })

  test('one content type each way, the example on the media type, errors, servers, access in the description', () => {
    const input = raw()
    const before = structuredClone(input)
    const doc = finishDocument(input, { publicUrl: 'https://hr.example.test' })
    expect(input).toEqual(before)
    expect(doc.openapi).toBe('3.1.0')
    expect(doc.servers).toEqual([
      { url: '/', description: 'this service, where this page was opened' },
      { url: 'https://hr.example.test', description: 'this service (PUBLIC_URL)' },
    ])
    const put = doc.paths['/things/{id}'].put
    expect(put.description).toBe('Fields left out stay.\n\nNeeds permission `things:update`.')
    expect(put['x-errors']).toBeUndefined()
    expect(put.parameters).toEqual([{ in: 'path', name: 'id', required: true, schema: { minimum: 1, type: 'integer' } }])
    expect(put.requestBody).toEqual({
      required: false,
      content: { 'application/json': { schema: { type: 'object', properties: { name: { type: 'string' } } }, example: { name: 'x' } } },
    })
    expect(Object.keys(put.responses!)).toEqual(['200', '400', '401', '403', '404', '409', '413', '415', '503'])
    expect(put.responses!['503']).toEqual({
      description: DATABASE_UNAVAILABLE,
      headers: { 'Retry-After': { description: 'seconds to wait before trying again', schema: { type: 'integer' } } },
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    })
    expect(put.responses!['200']).toEqual({
      description: 'Success',
      content: { 'application/json': { schema: { type: 'object', properties: { code: { type: 'integer' } } } } },
    })
    expect(put.responses!['409']).toEqual({ description: 'The name is taken', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } })
    expect(doc.paths['/open'].get.security).toEqual([])
    expect(doc.paths['/open'].get.description).toBe('Needs no token.')
    expect(doc.components?.schemas?.Error).toBeDefined()
  })
})
