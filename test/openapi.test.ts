import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { bodyExample, defaultsProblems, EXAMPLE_STEPS, exampleProblems, lintErrors, operations, queryOperations, type Doc } from './openapi-checks'
import { login, loginAdmin, req, replyOf, startApp, type TestApp } from './helpers'

/*
 * The document at /swagger/json is generated from the route models (src/http/openapi.ts). These
 * checks keep it true to what the service does: a linter finds no error, "Try it out" with the
 * document's defaults works, and every request body example is accepted as it stands.
 */

const document = async (t: TestApp): Promise<Doc> => (await req(t.app, 'GET', '/swagger/json')).body

describe('the OpenAPI document', () => {
  let t: TestApp
  let doc: Doc
  beforeAll(async () => {
    t = await startApp({ env: { PUBLIC_URL: 'https://hr.acme.test' } })
    doc = await document(t)
  })
  afterAll(() => t.close())

  test('has no error under Redocly’s recommended ruleset', async () => {
    expect((await lintErrors(doc)).map((problem) => `${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer}`)).toEqual([])
  })

  test('is OpenAPI 3.1 with the service’s public URL as its server, and every tag described', () => {
    expect(doc.openapi).toBe('3.1.0')
    expect(doc.servers).toEqual([
      { url: '/', description: 'this service, where this page was opened' },
      { url: 'https://hr.acme.test', description: 'this service (PUBLIC_URL)' },
    ])
    const described = new Map((doc.tags as { name: string; description: string }[]).map((tag) => [tag.name, tag.description]))
    for (const { method, path, operation } of operations(doc))
      for (const tag of operation.tags) expect(described.get(tag), `${method} ${path} tag ${tag}`).toBeTruthy()
  })

  test('every operation has a summary and a description; every JSON body has an example', () => {
    for (const { method, path, operation } of operations(doc)) {
      expect(operation.summary, `${method} ${path}`).toBeTruthy()
      expect(operation.description, `${method} ${path}`).toBeTruthy()
      if (operation.requestBody?.content?.['application/json']) expect(bodyExample(operation), `${method} ${path}`).toBeDefined()
    }
  })

  const isExport = (path: string) => path.startsWith('/api/v1/admin/exports/') || /^\/api\/v1\/admin\/payroll\/runs\/\{id\}\/(register|bank-transfers)$/.test(path)
  test('one request content type: JSON, multipart only on the two uploads and the three imports; JSON answers except the file content and the exports', () => {
    const multipart: string[] = []
    for (const { method, path, operation } of operations(doc)) {
      const types = Object.keys(operation.requestBody?.content ?? {})
      if (operation.requestBody) expect(types.length, `${method} ${path}`).toBe(1)
      if (types[0] === 'multipart/form-data') multipart.push(`${method} ${path}`)
      for (const [status, response] of Object.entries(operation.responses as Record<string, { content?: object }>))
        // the downloads: a file's bytes, and an export's CSV or XLSX (a payroll run's register and bank transfer list too)
        if (response.content && path !== '/api/v1/storage/files/{id}/content' && !(isExport(path) && status === '200'))
          expect(Object.keys(response.content), `${method} ${path} ${status}`).toEqual(['application/json'])
    }
    expect(multipart.sort()).toEqual([
      'POST /api/v1/admin/attendance/records/import',
      'POST /api/v1/admin/employees/import',
      'POST /api/v1/admin/leave/balances/import',
      'POST /api/v1/storage/batch-upload',
      'POST /api/v1/storage/upload',
    ])
  })

  test('integers are integers everywhere, with no string branch and no default but page and page_size', () => {
    const text = JSON.stringify(doc.paths)
    // Elysia's digits-as-text branch, OpenAPI 3.0's nullable, and Elysia's custom messages stay out
    expect(/"format":"integer"|"nullable"|"error":"/.exec(text)?.[0]).toBeUndefined()
    for (const { method, path, operation } of operations(doc))
      for (const parameter of operation.parameters ?? []) {
        if (parameter.schema.default !== undefined && !['sort', 'order', 'sort_by', 'sort_order'].includes(parameter.name))
          expect(['page', 'page_size'], `${method} ${path} ${parameter.name}`).toContain(parameter.name)
        if (['id', 'page', 'page_size', 'user_id', 'employee_id', 'group_id', 'status'].includes(parameter.name) && path !== '/api/v1/storage/files/{id}/content')
          expect(parameter.schema.type, `${method} ${path} ${parameter.name}`).toBe(parameter.name === 'status' && (path.includes('salaries') || path.includes('payroll') || path.includes('leave/requests') || path.includes('corrections') || path === '/api/v1/approvals') ? 'string' : 'integer')
      }
    const users = doc.paths['/api/v1/admin/users'].get.responses['200'].content['application/json'].schema
    expect(users.properties.code).toEqual({ type: 'integer', examples: [200] })
    expect(users.properties.data.properties.list.items.properties.id).toEqual({ type: 'integer' })
    expect(users.properties.data.properties.list.items.properties.phone).toEqual({ type: ['string', 'null'] })
    expect(doc.paths['/api/v1/storage/files'].get.parameters.find((p: Doc) => p.name === 'page_size').schema.default).toBe(20)
  })

  test('errors are documented with the error envelope, by what each route can answer', () => {
    const statuses = (method: string, path: string) => Object.keys(doc.paths[path][method].responses)
    // every operation may find the database busy or slow: 503
    expect(statuses('get', '/api/v1/admin/users')).toEqual(['200', '400', '401', '403', '503'])
    expect(statuses('post', '/api/v1/admin/users')).toEqual(['201', '400', '401', '403', '409', '413', '415', '503'])
    expect(statuses('get', '/api/v1/public/departments')).toEqual(['200', '503'])
    expect(statuses('post', '/api/v1/auth/login')).toEqual(['200', '400', '401', '413', '415', '429', '503'])
    expect(statuses('post', '/api/v1/auth/refresh')).toEqual(['200', '400', '401', '413', '415', '503'])
    expect(statuses('get', '/api/v1/auth/me')).toEqual(['200', '401', '503'])
    expect(statuses('post', '/api/v1/storage/upload')).toEqual(['201', '400', '401', '409', '413', '415', '503', '507'])
    expect(statuses('get', '/api/v1/storage/files/{id}/content')).toEqual(['200', '206', '304', '400', '401', '403', '404', '416', '503'])
    expect(statuses('post', '/api/v1/attendance/clock-in')).toEqual(['200', '400', '401', '403', '409', '413', '415', '429', '503'])
    expect(doc.paths['/api/v1/attendance/clock-in'].post.responses['503'].headers['Retry-After']).toBeDefined()
    const forbidden = doc.paths['/api/v1/attendance/today'].get.responses['403']
    expect(forbidden.description).toBe('Your roles do not grant the permission `attendance:view`; Your account is not linked to an employee record')
    expect(forbidden.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' })
    expect(doc.paths['/api/v1/auth/me'].get.responses['401'].headers['WWW-Authenticate']).toBeDefined()
    const content = doc.paths['/api/v1/storage/files/{id}/content'].get.responses
    expect(Object.keys(content['200'].headers).sort()).toEqual(['Accept-Ranges', 'Content-Disposition', 'Content-Length', 'Content-Type', 'ETag'])
    expect(content['200'].content['*/*'].schema).toEqual({ type: 'string', format: 'binary' })
  })

  test('the upload form keeps a file private and sends no placeholder text: its examples are accepted as they stand', async () => {
    const form = doc.paths['/api/v1/storage/upload'].post.requestBody.content['multipart/form-data'].schema.properties
    expect(form.is_public.examples).toEqual([false])
    const body = new FormData()
    for (const field of ['folder', 'description', 'is_public']) body.set(field, String(form[field].examples[0]))
    body.set('file', new File([new TextEncoder().encode('contract text\n')], 'contract.txt', { type: 'text/plain' }))
    const token = await loginAdmin(t.app)
    const reply = await replyOf(
      await t.app.handle(new Request('http://localhost/api/v1/storage/upload', { method: 'POST', headers: { authorization: `Bearer ${token}` }, body })),
    )
    expect(reply.status).toBe(201)
    expect(reply.body.data).toMatchObject({ folder: 'contracts/2024', description: 'Signed employment contract', is_public: false })
  })
})

describe('"Try it out" with the document alone', () => {
  test('every GET with query parameters answers 200 to the administrator (linked to an employee) with the documented defaults', async () => {
    const t = await startApp()
    try {
      const doc = await document(t)
      const admin = await loginAdmin(t.app)
      // the employee endpoints need the account linked to an employee record
      expect((await req(t.app, 'POST', '/api/v1/admin/employees', { token: admin, body: { name: 'Administrator', user_id: 1 } })).status).toBe(201)
      expect(queryOperations(doc).length).toBeGreaterThanOrEqual(17)
      // file-info looks a file up by the id it is given: no documented id exists on a fresh database
      expect(await defaultsProblems(t.app, doc, admin, new Set(['GET /api/v1/storage/file-info']))).toEqual([])
    } finally {
      t.close()
    }
  })
})

describe('request body examples', () => {
  test('each is accepted as it stands on a fresh database, in a sensible order (or answers the status it documents)', async () => {
    // the login example's password; the clock is frozen on a Friday, 17:30 in Shanghai
    const t = await startApp({ env: { ADMIN_PASSWORD: 'change-me-please' } })
    try {
      const doc = await document(t)
      const admin = await login(t.app, 'admin', 'change-me-please')
      // li.wei: created, given a password and linked to an employee by the examples themselves
      let employee: Promise<string> | null = null
      const tokens = {
        admin: async () => admin,
        employee: () => (employee ??= login(t.app, 'li.wei', 'a-new-password-2024')),
      }
      expect(await exampleProblems(t.app, doc, EXAMPLE_STEPS, tokens)).toEqual([])
    } finally {
      t.close()
    }
    // a password hashed at start-up and at each sign-in: seconds on a busy machine
  }, 30_000)
})

describe('a document that depends on the code alone', () => {
  test('is the same before and after the process has handled requests, and says nowhere that unknown fields are refused', async () => {
    const first = await startApp()
    const second = await startApp()
    try {
      const before = await document(first)
      // every operation with a JSON body handles one request (a refusal is enough: Elysia has compiled its models then)
      const admin = await loginAdmin(first.app)
      for (const { method, path, operation } of operations(before)) {
        if (!operation.requestBody?.content?.['application/json']) continue
        await req(first.app, method, path.replace(/\{[^}]+\}/g, '1'), { token: admin, body: { unknown_field: true } })
      }
      const afterOnSameApp = await document(first)
      const afterOnNewApp = await document(second)
      expect(afterOnNewApp).toEqual(before)
      expect(afterOnSameApp).toEqual(before)
      const refusing = operations(afterOnNewApp)
        .filter(({ operation }) => operation.requestBody?.content?.['application/json']?.schema?.additionalProperties !== undefined)
        .map(({ method, path }) => `${method} ${path}`)
      expect(refusing).toEqual([])
    } finally {
      first.close()
      second.close()
    }
  })

  test('routes without a body ignore one, even one that is not JSON', async () => {
    const t = await startApp()
    try {
      const admin = await loginAdmin(t.app)
      // the cancellations answer as if no body had come, not 400 for the body: 404 for an id that does not exist, 403 for one's own
      // requests without a linked employee record (the administrator has none)
      const cancelled = []
      for (const path of ['/api/v1/admin/leave/requests/999/cancel', '/api/v1/leave/requests/999/cancel', '/api/v1/attendance/corrections/999/cancel'])
        cancelled.push((await req(t.app, 'POST', path, { token: admin, raw: '{not json', headers: { 'content-type': 'application/json' } })).status)
      expect(cancelled).toEqual([404, 403, 403])
      const signedOut = await req(t.app, 'POST', '/api/v1/auth/logout', { token: admin, raw: '{not json', headers: { 'content-type': 'application/json' } })
      expect([signedOut.status, signedOut.body.message, signedOut.body.data]).toEqual([200, 'Signed out everywhere', null])
    } finally {
      t.close()
    }
  })
})
