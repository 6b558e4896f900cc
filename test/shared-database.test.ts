import { afterAll, beforeAll, expect, test } from 'bun:test'
import { loginAdmin, makeUser, req, startApp, type TestApp } from './helpers'

// Two app instances on one database file, each with its own permission cache, as two
// server processes sharing the file would be.
let a: TestApp
let b: TestApp

beforeAll(async () => {
  a = await startApp()
  b = await startApp({ dir: a.dir })
})

afterAll(() => {
  b.close()
  a.close()
})

test('a permission revoked on one instance is refused by the other within one second', async () => {
  const admin = await loginAdmin(a.app)
  await req(a.app, 'POST', '/api/v1/admin/roles', { token: admin, body: { name: 'viewer' } })
  await req(a.app, 'POST', '/api/v1/admin/roles/permissions/add', {
    token: admin,
    body: { role_name: 'viewer', permission_name: 'departments:read' },
  })
  const viewer = await makeUser(a.app, admin, 'viewer', ['viewer'])
  // b loads (and caches) the viewer's permissions now
  expect((await req(b.app, 'GET', '/api/v1/admin/departments', { token: viewer.token })).status).toBe(200)

  const removed = await req(a.app, 'POST', '/api/v1/admin/roles/permissions/remove', {
    token: admin,
    body: { role_name: 'viewer', permission_name: 'departments:read' },
  })
  expect(removed.status).toBe(200)
  const revokedAt = performance.now()
  // the instance that made the change refuses at once
  expect((await req(a.app, 'GET', '/api/v1/admin/departments', { token: viewer.token })).status).toBe(403)

  let status = 200
  while (status === 200 && performance.now() - revokedAt < 3000) {
    status = (await req(b.app, 'GET', '/api/v1/admin/departments', { token: viewer.token })).status
    if (status === 200) await Bun.sleep(20)
  }
  const stale = performance.now() - revokedAt
  expect(status).toBe(403)
  expect(stale).toBeLessThan(1000)
})
