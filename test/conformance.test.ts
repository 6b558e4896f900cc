import { beforeAll, describe, expect, test } from 'bun:test'
import type { App } from '../src/app'
import { conformanceOf, type Conformance, type Doc } from './conformance'
import { errorBody, loginAdmin, okBody, req, startApp, unchecked } from './helpers'

/*
 * The hook in test/helpers.ts checks every answer the HTTP tests receive against the document; these
 * tests show that it finds what it must (and lets through what the document leaves out on purpose).
 */

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } })
const get = (path: string, method = 'GET') => new Request(`http://localhost${path}`, { method })

/** A real GET /api/v1/auth/me answer and the document of the app that gave it. */
async function served(): Promise<{ doc: Doc; me: { code: number; data: { user: object } } }> {
  const t = await startApp()
  try {
    const token = await loginAdmin(t.app)
    return { doc: (await req(t.app, 'GET', '/swagger/json')).body, me: (await req(t.app, 'GET', '/api/v1/auth/me', { token })).body }
  } finally {
    t.close()
  }
}

describe('checking an answer against the document', () => {
  let doc: Doc
  let me: Awaited<ReturnType<typeof served>>['me']
  let conformance: Conformance
  beforeAll(async () => {
    ;({ doc, me } = await served())
    conformance = conformanceOf(doc)
  })

  test('the documents of apps that differ only in their servers share one set of validators', () => {
    expect(conformanceOf({ ...doc, servers: [{ url: 'https://elsewhere.test' }] } as Doc)).toBe(conformance)
  })

  test('a body its schema refuses: the route, the status, what Ajv says and the body', async () => {
    const body = { ...me, data: { ...me.data, user: { ...me.data.user, id: 'one' } } }
    const failure = conformance.check(get('/api/v1/auth/me'), json(body))
    await expect(failure).rejects.toThrow('the answer to GET /api/v1/auth/me is not what /swagger/json documents: 200 body/data/user/id must be integer')
    await expect(failure).rejects.toThrow(`body: ${JSON.stringify(body)}`)
    await expect(conformance.check(get('/api/v1/auth/me'), json({ ...me, timestamp: 'yesterday' }))).rejects.toThrow(
      '200 body/timestamp must match format "date-time"',
    )
  })

  test('a status the operation does not document, found by its path template', async () => {
    await expect(conformance.check(get('/api/v1/admin/users/7/password', 'PUT'), json(errorBody(409, 'No'), 409))).rejects.toThrow(
      'PUT /api/v1/admin/users/7/password (/api/v1/admin/users/{id}/password) is not what /swagger/json documents: 409 is not a documented status',
    )
    await expect(conformance.check(get('/api/v1/auth/me'), json(errorBody(404, 'No'), 404))).rejects.toThrow('404 is not a documented status (200, 401, 503)')
  })

  test('a literal path wins over a template: POST /roles/assign is not PUT /roles/{id}', async () => {
    await expect(conformance.check(get('/api/v1/admin/roles/assign', 'POST'), json(me))).rejects.toThrow(
      'the answer to POST /api/v1/admin/roles/assign is not what /swagger/json documents: 200 body/data must',
    )
  })

  test('left out on purpose: the 404 of a path or method the document does not have, and any 500, each the error envelope', async () => {
    await conformance.check(get('/api/v1/nowhere'), json(errorBody(404, 'Nothing at /api/v1/nowhere'), 404))
    await conformance.check(get('/api/v1/auth/me', 'PATCH'), json(errorBody(404, 'No'), 404))
    await conformance.check(get('/api/v1/auth/me'), json(errorBody(500, 'Internal error'), 500))
    await expect(conformance.check(get('/api/v1/auth/me'), json({ error: 'boom' }, 500))).rejects.toThrow('500 is not the error envelope')
    await expect(conformance.check(get('/api/v1/nowhere'), json(okBody(null)))).rejects.toThrow('200 from a route the document does not have')
  })

  test('content types: JSON where JSON is documented; file content any type; no body where none is documented', async () => {
    await expect(conformance.check(get('/api/v1/auth/me'), new Response('hello', { headers: { 'content-type': 'text/plain' } }))).rejects.toThrow(
      '200 is text/plain, documented as application/json',
    )
    await expect(conformance.check(get('/api/v1/auth/me'), new Response('{', { headers: { 'content-type': 'application/json' } }))).rejects.toThrow(
      '200 is documented as JSON but is not',
    )
    await conformance.check(get('/api/v1/storage/files/3/content'), new Response('%PDF', { headers: { 'content-type': 'application/pdf' } }))
    await conformance.check(get('/api/v1/storage/files/3/content'), new Response(null, { status: 304 }))
    await expect(conformance.check(get('/api/v1/storage/files/3/content'), new Response('x', { status: 416, headers: { 'content-type': 'text/plain' } }))).rejects.toThrow(
      '416 has a body (text/plain) where the document has none',
    )
  })

  test('a compressed JSON answer is read as the client reads it', async () => {
    const body = Bun.gzipSync(JSON.stringify({ ...me, data: { ...me.data, permissions: 'all' } }))
    const response = new Response(body, { headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } })
    await expect(conformance.check(get('/api/v1/auth/me'), response)).rejects.toThrow('200 body/data/permissions must be array')
  })
})

describe('the hook', () => {
  /** An "app" that answers `answer` to everything but its document. */
  const fake = (doc: Doc, answer: () => Response) =>
    ({
      routes: [],
      handle: async (request: Request) => (new URL(request.url).pathname === '/swagger/json' ? Response.json(doc) : answer()),
    }) as unknown as App

  let doc: Doc
  let me: Awaited<ReturnType<typeof served>>['me']
  beforeAll(async () => {
    ;({ doc, me } = await served())
  })

  test('makes req() and app.handle throw on an answer the document does not describe, and lets the others through', async () => {
    const app = fake(doc, () => json({ ...me, data: null }))
    await expect(req(app, 'GET', '/api/v1/auth/me')).rejects.toThrow('200 body/data must be object')
    // once req() has seen the app, its own calls of app.handle are checked too
    await expect(app.handle(get('/api/v1/auth/me'))).rejects.toThrow('200 body/data must be object')
    const good = fake(doc, () => json(me))
    expect((await req(good, 'GET', '/api/v1/auth/me')).body).toEqual(me)
  })

  test('is skipped only where a test says why (and for HEAD)', async () => {
    const app = fake(doc, () => json({ not: 'documented' }, 418))
    expect((await req(app, 'GET', '/api/v1/auth/me', { unchecked: 'a teapot test' })).status).toBe(418)
    expect((await app.handle(unchecked(get('/api/v1/auth/me')))).status).toBe(418)
    expect((await req(app, 'HEAD', '/api/v1/auth/me')).status).toBe(418)
    await expect(req(app, 'GET', '/api/v1/auth/me')).rejects.toThrow('418 is not a documented status')
  })
})
