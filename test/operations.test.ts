import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { createApp } from '../src/app'
import { healthyChecks, healthyData, okBody, req, startApp, type TestApp } from './helpers'

let t: TestApp
beforeAll(async () => {
  t = await startApp()
})
afterAll(() => t.close())

describe('health', () => {
  test('reports the database, its writes, the file store and the disk, each with its figure', async () => {
    const reply = await req(t.app, 'GET', '/health')
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual(okBody(healthyData(), 'healthy'))
    expect(reply.body.data.checks.disk_free_bytes).toBeGreaterThan(0)
  })

  test('a file store that cannot be written is "degraded": 503', async () => {
    const app = createApp({ ...t.deps, probes: { ...t.deps.probes, storage: async () => false } })
    const reply = await req(app, 'GET', '/health')
    expect(reply.status).toBe(503)
    expect(reply.body).toEqual({
      ...okBody(
        { status: 'degraded', database: 'up', storage: 'down', checks: healthyChecks({ storage: 'down' }) },
        'The file store does not answer; file endpoints answer 503',
      ),
      code: 503,
    })
  })

  test('a database that does not answer is a 503', async () => {
    const app = createApp({ ...t.deps, probes: { ...t.deps.probes, database: async () => false } })
    const reply = await req(app, 'GET', '/health')
    expect(reply.status).toBe(503)
    expect(reply.body).toEqual({
      ...okBody({ status: 'down', database: 'down', storage: 'up', checks: healthyChecks({ database_read: 'down' }) }, 'The database does not answer'),
      code: 503,
    })
  })

  test('the local-folder probe fails when the folder cannot be created', async () => {
    const { createLocalStore } = await import('../src/modules/storage/local-store')
    const blocker = join(t.dir, 'a-file')
    await Bun.write(blocker, 'x')
    expect(await createLocalStore(join(blocker, 'files')).probe()).toBe(false)
    expect(await createLocalStore(join(t.dir, 'fine')).probe()).toBe(true)
  })
})

describe('docs', () => {
  test('/swagger serves the page, with everything it loads served by us', async () => {
    const page = await t.app.handle(new Request('http://localhost/swagger'))
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'")
    const html = await page.text()
    expect(html).toContain('<div id="swagger-ui"></div>')
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1])
    expect(assets.length).toBeGreaterThanOrEqual(4)
    for (const asset of assets) {
      expect(asset).toStartWith('/swagger/assets/')
      const response = await t.app.handle(new Request(`http://localhost${asset}`))
      expect(response.status).toBe(200)
      expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(20)
    }
    expect((await req(t.app, 'GET', '/swagger/assets/..%2Fpackage.json')).status).toBe(404)
    expect((await req(t.app, 'GET', '/swagger/assets/index.html')).status).toBe(404)
  })

  test('/swagger/json documents every API route with a tag, and secured routes with bearer auth', async () => {
    const spec = (await req(t.app, 'GET', '/swagger/json')).body
    expect(spec.info.title).toBe('Workforce API')
    expect(spec.components.securitySchemes.bearer).toEqual({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' })
    const apiRoutes = t.app.routes.filter((route) => route.path.startsWith('/api/') || route.path === '/health')
    expect(apiRoutes.length).toBeGreaterThanOrEqual(22)
    for (const route of apiRoutes) {
      const path = route.path.replace(/:(\w+)/g, '{$1}')
      const operation = spec.paths[path]?.[route.method.toLowerCase()]
      expect(operation, `${route.method} ${route.path}`).toBeDefined()
      expect(operation.tags?.length, `${route.method} ${route.path} has a tag`).toBeGreaterThan(0)
      const open = ['/api/v1/auth/login', '/api/v1/auth/refresh', '/api/v1/public/departments', '/health'].includes(route.path)
      // file content also opens with a signed link, or for a public file with nothing
      const optional = route.path === '/api/v1/storage/files/:id/content'
      expect(operation.security, `${route.method} ${route.path} security`).toEqual(
        open ? [] : optional ? [{ bearer: [] }, {}] : [{ bearer: [] }],
      )
    }
    const createUser = spec.paths['/api/v1/admin/users'].post
    expect(createUser.description).toBe('Needs permission `users:create`.')
    expect(Object.keys(createUser.requestBody.content['application/json'].schema.properties)).toEqual(
      expect.arrayContaining(['username', 'password', 'name', 'roles']),
    )
    expect(createUser.responses['201']).toBeDefined()
  })
})
