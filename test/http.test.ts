import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { companies } from '../src/db/schema'
import { errorBody, loginAdmin, okBody, req, startApp, type TestApp } from './helpers'

let t: TestApp
let token: string

beforeAll(async () => {
  t = await startApp()
  token = await loginAdmin(t.app)
})
afterAll(() => t.close())

const companiesInDb = () => t.deps.database.db.select().from(companies)

describe('envelope and errors (CONTRACT §1)', () => {
  test('an unknown path answers the 404 envelope', async () => {
    const reply = await req(t.app, 'GET', '/api/v1/nothing-here')
    expect(reply.status).toBe(404)
    expect(reply.body).toEqual(errorBody(404, 'No endpoint GET /api/v1/nothing-here; the list of endpoints is at /swagger'))
    expect(reply.headers.get('content-type')).toStartWith('application/json')
  })

  test('malformed JSON is a 400 that says so, and nothing is written', async () => {
    const reply = await req(t.app, 'POST', '/api/v1/admin/companies', { token, raw: '{"name": "Acme"' })
    expect(reply.status).toBe(400)
    expect(reply.body.code).toBe(400)
    expect(reply.body.data).toBeNull()
    expect(reply.body.message).toStartWith('The request body is not valid JSON:')
    expect(await companiesInDb()).toEqual([])
  })

  test('a body is read as JSON whatever its Content-Type says; multipart outside the uploads is a 415, unread', async () => {
    const sent = (type: string, body: string) =>
      req(t.app, 'POST', '/api/v1/admin/companies', { token, raw: body, headers: { 'content-type': type } })
    const plain = await sent('text/plain', JSON.stringify({ name: 'Sent As Text' }))
    expect(plain.status).toBe(201)
    expect(plain.body.data.name).toBe('Sent As Text')
    const form = await sent('application/x-www-form-urlencoded', 'name=Form')
    expect(form.status).toBe(400)
    expect(form.body.message).toStartWith('The request body is not valid JSON: ')
    const multipart = await sent(
      'multipart/form-data; boundary=x',
      '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nForm\r\n--x--\r\n',
    )
    expect(multipart.body).toEqual(
      errorBody(415, 'This endpoint takes a JSON body (Content-Type: application/json); files go to POST /api/v1/storage/upload'),
    )
    expect((await companiesInDb()).map((company) => company.name)).toEqual(['Sent As Text'])
    await t.deps.database.db.delete(companies)
  })

  test('a JSON body over 1 MiB is a 413, also without Content-Length', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(1024 * 1024) })
    const reply = await req(t.app, 'POST', '/api/v1/admin/companies', { token, raw: big })
    expect(reply.status).toBe(413)
    expect(reply.body).toEqual(errorBody(413, 'The JSON body is larger than 1 MiB; send less data per request'))

    const chunks = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 3; i++) controller.enqueue(new TextEncoder().encode(' '.repeat(512 * 1024)))
        controller.close()
      },
    })
    const streamed = await t.app.handle(
      new Request('http://localhost/api/v1/admin/companies', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: chunks,
      }),
    )
    expect(streamed.status).toBe(413)
    expect(await companiesInDb()).toEqual([])
  })

  test('a wrong type names the field', async () => {
    const reply = await req(t.app, 'POST', '/api/v1/admin/companies', { token, body: { name: 42 } })
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual(
      errorBody(400, 'Invalid request: name must be a string', { errors: [{ field: 'name', message: 'must be a string' }] }),
    )
  })

  test('a missing required field names the field', async () => {
    const reply = await req(t.app, 'POST', '/api/v1/admin/companies', { token, body: {} })
    expect(reply.body).toEqual(errorBody(400, 'Invalid request: name is required', { errors: [{ field: 'name', message: 'is required' }] }))
  })

  test('a JSON body that is not an object is a 400', async () => {
    const reply = await req(t.app, 'POST', '/api/v1/admin/companies', { token, raw: 'null' })
    expect(reply.status).toBe(400)
    expect(reply.body.errors).toEqual([{ field: 'body', message: 'must be a JSON object' }])
    const array = await req(t.app, 'POST', '/api/v1/admin/companies', { token, raw: '[1,2]' })
    expect(array.status).toBe(400)
    expect(await companiesInDb()).toEqual([])
  })

  test.each(['abc', '0', '-3', '1.5', '99999999999999999999'])('path id %p is a 400', async (id) => {
    const reply = await req(t.app, 'GET', `/api/v1/admin/companies/${id}`, { token })
    expect(reply.status).toBe(400)
    expect(reply.body.errors).toEqual([{ field: 'id', message: 'must be a positive whole number' }])
    expect(reply.body.message).toEndWith('id must be a positive whole number')
  })

  test('page below 1 and page_size below 1 are 400', async () => {
    for (const [query, field] of [
      ['page=0', 'page'],
      ['page=x', 'page'],
      ['page_size=0', 'page_size'],
    ]) {
      const reply = await req(t.app, 'GET', `/api/v1/admin/companies?${query}`, { token })
      expect(reply.status).toBe(400)
      expect(reply.body.errors[0].field).toBe(field)
    }
  })

  test('page_size above 100 is cut to 100; unknown query and body fields are ignored', async () => {
    const created = await req(t.app, 'POST', '/api/v1/admin/companies', { token, body: { name: 'Acme', colour: 'red' } })
    expect(created.status).toBe(201)
    const reply = await req(t.app, 'GET', '/api/v1/admin/companies?page_size=500&flavour=mint', { token })
    expect(reply.body).toEqual(
      okBody({
        list: [
          {
            id: created.body.data.id,
            name: 'Acme',
            timezone: null,
            attendance_starts_on: null,
            created_at: t.clock.now().toISOString(),
            updated_at: t.clock.now().toISOString(),
          },
        ],
        total: 1,
        page: 1,
        page_size: 100,
      }),
    )
  })

  test('every response carries the security headers and no X-Powered-By', async () => {
    for (const reply of [
      await req(t.app, 'GET', '/health'),
      await req(t.app, 'GET', '/nope'),
      await req(t.app, 'GET', '/api/v1/admin/users', { token }),
    ]) {
      expect(reply.headers.get('x-content-type-options')).toBe('nosniff')
      expect(reply.headers.get('x-frame-options')).toBe('DENY')
      expect(reply.headers.get('x-powered-by')).toBeNull()
    }
  })
})

describe('authentication errors', () => {
  test('no token, a malformed header and a garbage token are 401 with WWW-Authenticate', async () => {
    const cases: [Record<string, string>, string][] = [
      [{}, 'Sign in first: send "Authorization: Bearer <access token>" from POST /api/v1/auth/login'],
      [{ authorization: 'Basic YWRtaW46eA==' }, 'Sign in first: send "Authorization: Bearer <access token>" from POST /api/v1/auth/login'],
      [{ authorization: 'Bearer not.a.jwt' }, 'The access token is invalid or has expired; refresh it or sign in again'],
    ]
    for (const [headers, message] of cases) {
      const reply = await req(t.app, 'GET', '/api/v1/admin/users', { headers })
      expect(reply.status).toBe(401)
      expect(reply.body).toEqual(errorBody(401, message))
      expect(reply.headers.get('www-authenticate')).toBe('Bearer')
    }
  })
})
