import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { loginFailures, refreshTokens, roles, userRoles, users } from '../src/db/schema'
import { PERMISSION_CATALOGUE } from '../src/modules/rbac/catalogue'
import { ADMIN_PASSWORD, errorBody, invalidBody, login, loginAdmin, NOW, okBody, req, startApp, type TestApp } from './helpers'

let t: TestApp
let adminToken: string

beforeAll(async () => {
  t = await startApp()
  adminToken = await loginAdmin(t.app)
})
afterAll(() => t.close())

let userCount = 0
/** A user made through the API, with the given roles. */
async function makeUser(roleNames: string[] = [], password = 'user-password-1') {
  userCount++
  const reply = await req(t.app, 'POST', '/api/v1/admin/users', {
    token: adminToken,
    body: { username: `person${userCount}`, password, name: `Person ${userCount}`, roles: roleNames },
  })
  expect(reply.status).toBe(201)
  return { id: reply.body.data.id as number, username: `person${userCount}`, password }
}

const tokenPair = (user: { id: number; username: string; name: string; roles: string[] }) => ({
  access_token: expect.any(String),
  refresh_token: expect.any(String),
  token_type: 'Bearer',
  expires_in: 7200,
  user,
})

describe('login', () => {
  test('the first administrator signs in and gets a token pair', async () => {
    const reply = await req(t.app, 'POST', '/api/v1/auth/login', { body: { username: 'admin', password: ADMIN_PASSWORD } })
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual(okBody(tokenPair({ id: 1, username: 'admin', name: 'Administrator', roles: ['admin'] }), 'Signed in'))
    expect(reply.body.data.access_token.split('.')).toHaveLength(3)
  })

  test('usernames are matched ignoring case', async () => {
    const reply = await req(t.app, 'POST', '/api/v1/auth/login', { body: { username: 'ADMIN', password: ADMIN_PASSWORD } })
    expect(reply.status).toBe(200)
  })

  test('a wrong password and an unknown username get the same 401', async () => {
    const wrong = await req(t.app, 'POST', '/api/v1/auth/login', { body: { username: 'admin', password: 'nope-nope' } })
    const unknown = await req(t.app, 'POST', '/api/v1/auth/login', { body: { username: 'ghost', password: 'nope-nope' } })
    expect(wrong.status).toBe(401)
    expect(wrong.body).toEqual(errorBody(401, 'Wrong username or password'))
    expect(unknown.body).toEqual(wrong.body)
    // the same refusal in Chinese, for a wrong password and an unknown username alike
    for (const username of ['admin', 'ghost']) {
      const inChinese = await req(t.app, 'POST', '/api/v1/auth/login', {
        headers: { 'accept-language': 'zh' },
        body: { username, password: 'nope-nope' },
      })
      expect([inChinese.status, inChinese.headers.get('www-authenticate')]).toEqual([401, 'Bearer'])
      expect(inChinese.body).toEqual(errorBody(401, '用户名或密码错误'))
    }
    // a later success clears the admin's failures
    await loginAdmin(t.app)
    const left = await t.deps.database.db.select().from(loginFailures).where(eq(loginFailures.usernameKey, 'admin'))
    expect(left).toEqual([])
  })

  test('a missing password is a 400, not a 401', async () => {
    const reply = await req(t.app, 'POST', '/api/v1/auth/login', { body: { username: 'admin' } })
    expect(reply.status).toBe(400)
    expect(reply.body.errors).toEqual([{ field: 'password', message: 'is required' }])
  })

  test('ten failures of one username from one address within 15 minutes lock that pair with 429 until the window passes', async () => {
    const victim = await makeUser()
    const attempt = (password: string) =>
      req(t.app, 'POST', '/api/v1/auth/login', { body: { username: victim.username, password } })
    for (let i = 0; i < 10; i++) {
      t.clock.advance(60_000) // one failure a minute
      expect((await attempt('wrong-password')).status).toBe(401)
    }
    const locked = await attempt(victim.password)
    expect(locked.status).toBe(429)
    expect(locked.body).toEqual({
      ...errorBody(429, `Too many failed sign-ins for "${victim.username}" from your address; try again in 6 minute(s)`),
      timestamp: t.clock.now().toISOString(),
    })
    const lockedInChinese = await req(t.app, 'POST', '/api/v1/auth/login', {
      headers: { 'accept-language': 'zh-CN' },
      body: { username: victim.username, password: victim.password },
    })
    expect(lockedInChinese.body).toEqual({
      ...errorBody(429, `用户名“${victim.username}”在您的地址上登录失败次数过多；请 6 分钟后再试`),
      timestamp: t.clock.now().toISOString(),
    })
    // the oldest failure was 9 minutes ago, so the window frees in 6 minutes
    expect(locked.headers.get('retry-after')).toBe('360')
    // other usernames from the same address are not affected (the owner's other addresses: test/sign-in-throttle.test.ts)
    expect((await req(t.app, 'POST', '/api/v1/auth/login', { body: { username: 'admin', password: ADMIN_PASSWORD } })).status).toBe(200)

    t.clock.advance(359_000)
    expect((await attempt(victim.password)).status).toBe(429)
    t.clock.advance(1_000)
    expect((await attempt(victim.password)).status).toBe(200)
    t.clock.set(NOW)
  }, 30_000)

  test('a disabled user cannot sign in, and their live token stops working at once', async () => {
    const user = await makeUser()
    const token = await login(t.app, user.username, user.password)
    expect((await req(t.app, 'GET', '/api/v1/auth/me', { token })).status).toBe(200)

    const disabled = await req(t.app, 'PUT', `/api/v1/admin/users/${user.id}`, { token: adminToken, body: { status: 0 } })
    expect(disabled.status).toBe(200)

    const me = await req(t.app, 'GET', '/api/v1/auth/me', { token })
    expect(me.body).toEqual(errorBody(401, 'This account is disabled; ask an administrator to enable it'))
    const again = await req(t.app, 'POST', '/api/v1/auth/login', { body: { username: user.username, password: user.password } })
    expect(again.body).toEqual(errorBody(401, 'This account is disabled; ask an administrator to enable it'))
    const inChinese = await req(t.app, 'POST', '/api/v1/auth/login', {
      headers: { 'accept-language': 'zh' },
      body: { username: user.username, password: user.password },
    })
    expect(inChinese.body).toEqual(errorBody(401, '此账号已被停用；请联系管理员启用'))
  })
})

describe('access tokens', () => {
  test('an expired token is a 401', async () => {
    const user = await makeUser()
    const token = await login(t.app, user.username, user.password)
    t.clock.advance(7199_000)
    expect((await req(t.app, 'GET', '/api/v1/auth/me', { token })).status).toBe(200)
    t.clock.advance(1_000)
    const reply = await req(t.app, 'GET', '/api/v1/auth/me', { token })
    t.clock.set(NOW)
    expect(reply.status).toBe(401)
    expect(reply.body.message).toBe('The access token is invalid or has expired; refresh it or sign in again')
  })

  test('a token with a changed signature or payload is a 401', async () => {
    const [header, payload, signature] = adminToken.split('.')
    const flipped = signature.slice(0, -2) + (signature.endsWith('AA') ? 'BB' : 'AA')
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), sub: '2' })).toString('base64url')
    for (const token of [`${header}.${payload}.${flipped}`, `${header}.${forged}.${signature}`]) {
      const reply = await req(t.app, 'GET', '/api/v1/auth/me', { token })
      expect(reply.status).toBe(401)
    }
  })

  test('a token signed with another secret is a 401', async () => {
    const other = await startApp({ env: { JWT_SECRET: 'another-secret-that-is-at-least-32-bytes' } })
    const foreign = await loginAdmin(other.app)
    other.close()
    expect((await req(t.app, 'GET', '/api/v1/auth/me', { token: foreign })).status).toBe(401)
  })

  test('a valid token without the permission is a 403 naming it', async () => {
    const user = await makeUser()
    const token = await login(t.app, user.username, user.password)
    const reply = await req(t.app, 'GET', '/api/v1/admin/users', { token })
    expect(reply.status).toBe(403)
    expect(reply.body).toEqual(
      errorBody(403, 'Your roles do not grant the permission users:read; ask an administrator for it'),
    )
  })

  test('revoking a role is a 403 on the very next request; a disabled role grants nothing', async () => {
    const user = await makeUser(['admin'])
    const token = await login(t.app, user.username, user.password)
    expect((await req(t.app, 'GET', '/api/v1/admin/users', { token })).status).toBe(200)

    const revoked = await req(t.app, 'PUT', `/api/v1/admin/users/${user.id}`, { token: adminToken, body: { roles: [] } })
    expect(revoked.body.data.roles).toEqual([])
    expect((await req(t.app, 'GET', '/api/v1/admin/users', { token })).status).toBe(403)

    // a role of our own, granted and then disabled in the database
    const db = t.deps.database.db
    const [role] = await db.insert(roles).values({ name: 'auditor', status: 1 }).returning()
    await db.insert(userRoles).values({ userId: user.id, roleId: role.id })
    const { rolePermissions, permissions } = await import('../src/db/schema')
    const [perm] = await db.select().from(permissions).where(eq(permissions.name, 'users:read'))
    await db.insert(rolePermissions).values({ roleId: role.id, permissionId: perm.id })
    t.deps.access.invalidate()
    expect((await req(t.app, 'GET', '/api/v1/admin/users', { token })).status).toBe(200)
    expect((await req(t.app, 'GET', '/api/v1/admin/companies', { token })).status).toBe(403)
    await db.update(roles).set({ status: 0 }).where(eq(roles.id, role.id))
    t.deps.access.invalidate()
    expect((await req(t.app, 'GET', '/api/v1/admin/users', { token })).status).toBe(403)
  })

  test('a change made by another process shows within one second without any invalidation', async () => {
    const user = await makeUser(['admin'])
    const token = await login(t.app, user.username, user.password)
    expect((await req(t.app, 'GET', '/api/v1/admin/users', { token })).status).toBe(200)
    // straight to the database, as a second instance would
    await t.deps.database.db.delete(userRoles).where(eq(userRoles.userId, user.id))
    await Bun.sleep(1050)
    expect((await req(t.app, 'GET', '/api/v1/admin/users', { token })).status).toBe(403)
  })
})

describe('refresh tokens', () => {
  test('refresh rotates: the new pair works and the old refresh token is refused', async () => {
    const user = await makeUser()
    const first = await req(t.app, 'POST', '/api/v1/auth/login', { body: { username: user.username, password: user.password } })
    const refreshed = await req(t.app, 'POST', '/api/v1/auth/refresh', { body: { refresh_token: first.body.data.refresh_token } })
    expect(refreshed.status).toBe(200)
    expect(refreshed.body).toEqual(
      okBody(tokenPair({ id: user.id, username: user.username, name: `Person ${userCount}`, roles: [] }), 'Tokens refreshed'),
    )
    expect(refreshed.body.data.refresh_token).not.toBe(first.body.data.refresh_token)
    expect((await req(t.app, 'GET', '/api/v1/auth/me', { token: refreshed.body.data.access_token })).status).toBe(200)

    // presenting the used token again revokes the whole chain, including the newest token
    const reused = await req(t.app, 'POST', '/api/v1/auth/refresh', { body: { refresh_token: first.body.data.refresh_token } })
    expect(reused.body).toEqual(
      errorBody(401, 'This refresh token was already used, so every session of this sign-in was ended; sign in again'),
    )
    const newest = await req(t.app, 'POST', '/api/v1/auth/refresh', { body: { refresh_token: refreshed.body.data.refresh_token } })
    expect(newest.status).toBe(401)
    const chain = await t.deps.database.db.select().from(refreshTokens).where(eq(refreshTokens.userId, user.id))
    expect(chain).toHaveLength(2)
    expect(chain.every((row) => row.revokedAt !== null)).toBe(true)
    // only hashes are stored
    expect(chain.map((row) => row.tokenHash)).not.toContain(first.body.data.refresh_token)
  })

  test('an unknown or expired refresh token is a 401', async () => {
    const unknown = await req(t.app, 'POST', '/api/v1/auth/refresh', { body: { refresh_token: 'made-up' } })
    expect(unknown.body).toEqual(errorBody(401, 'Unknown refresh token; sign in again'))
    const unknownInChinese = await req(t.app, 'POST', '/api/v1/auth/refresh', { headers: { 'accept-language': 'zh' }, body: { refresh_token: 'made-up' } })
    expect(unknownInChinese.body).toEqual(errorBody(401, '刷新令牌无效；请重新登录'))

    const user = await makeUser()
    const pair = await req(t.app, 'POST', '/api/v1/auth/login', { body: { username: user.username, password: user.password } })
    t.clock.advance(1_209_600_000)
    const expired = await req(t.app, 'POST', '/api/v1/auth/refresh', { body: { refresh_token: pair.body.data.refresh_token } })
    t.clock.set(NOW)
    expect(expired.body).toEqual(errorBody(401, 'The refresh token has expired; sign in again', { timestamp: '2024-03-29T09:30:00.000Z' }))
  })

  test('anything that is not a refresh token is a 401, whatever its length: an access token, "", 5,000 characters', async () => {
    const user = await makeUser()
    const pair = await req(t.app, 'POST', '/api/v1/auth/login', { body: { username: user.username, password: user.password } })
    for (const token of [pair.body.data.access_token, '', 'x'.repeat(5000)]) {
      const reply = await req(t.app, 'POST', '/api/v1/auth/refresh', { body: { refresh_token: token } })
      expect(reply.status).toBe(401)
      expect(reply.body).toEqual(errorBody(401, 'Unknown refresh token; sign in again'))
    }
    // a body without a token is still not a request for one
    expect((await req(t.app, 'POST', '/api/v1/auth/refresh', { body: {} })).body).toEqual(invalidBody('refresh_token', 'is required'))
  })

  test('two refreshes racing with one token: exactly one wins', async () => {
    const user = await makeUser()
    const pair = await req(t.app, 'POST', '/api/v1/auth/login', { body: { username: user.username, password: user.password } })
    const replies = await Promise.all(
      [1, 2, 3].map(() => req(t.app, 'POST', '/api/v1/auth/refresh', { body: { refresh_token: pair.body.data.refresh_token } })),
    )
    expect(replies.map((r) => r.status).sort()).toEqual([200, 401, 401])
  })
})

describe('logout, me and password', () => {
  test('me shows the user, roles, permissions and linked employee', async () => {
    const reply = await req(t.app, 'GET', '/api/v1/auth/me', { token: adminToken })
    expect(reply.status).toBe(200)
    const [admin] = await t.deps.database.db.select().from(users).where(eq(users.id, 1))
    expect(reply.body).toEqual(
      okBody({
        user: {
          id: 1,
          username: 'admin',
          name: 'Administrator',
          phone: null,
          email: null,
          avatar: null,
          status: 1,
          roles: ['admin'],
          created_at: admin.createdAt.toISOString(),
          updated_at: admin.updatedAt.toISOString(),
        },
        roles: ['admin'],
        permissions: expect.arrayContaining(['users:read', 'users:create', 'companies:delete', 'employees:update']),
        employee: null,
      }),
    )
    expect(reply.body.data.permissions).toEqual(PERMISSION_CATALOGUE.map((p) => p.name).sort())
  })

  test('logout ends every session: refresh tokens and access tokens of that user', async () => {
    const user = await makeUser()
    const laptop = await req(t.app, 'POST', '/api/v1/auth/login', { body: { username: user.username, password: user.password } })
    const phone = await req(t.app, 'POST', '/api/v1/auth/login', { body: { username: user.username, password: user.password } })
    const out = await req(t.app, 'POST', '/api/v1/auth/logout', { token: laptop.body.data.access_token })
    expect(out.body).toEqual(okBody(null, 'Signed out everywhere'))
    for (const pair of [laptop, phone]) {
      expect((await req(t.app, 'GET', '/api/v1/auth/me', { token: pair.body.data.access_token })).body).toEqual(
        errorBody(401, 'This session has ended (signed out or password changed); sign in again'),
      )
      expect((await req(t.app, 'POST', '/api/v1/auth/refresh', { body: { refresh_token: pair.body.data.refresh_token } })).status).toBe(401)
    }
    expect((await req(t.app, 'POST', '/api/v1/auth/logout')).status).toBe(401)
  })

  test('changing the password checks the old one, ends other sessions and returns a fresh pair', async () => {
    const user = await makeUser()
    const other = await login(t.app, user.username, user.password)
    const token = await login(t.app, user.username, user.password)

    const wrongOld = await req(t.app, 'PUT', '/api/v1/auth/password', {
      token,
      body: { old_password: 'not-it-at-all', new_password: 'brand-new-pass' },
    })
    expect(wrongOld.body).toEqual(
      errorBody(400, 'The current password is not correct', { errors: [{ field: 'old_password', message: 'is not correct' }] }),
    )
    const wrongOldInChinese = await req(t.app, 'PUT', '/api/v1/auth/password', {
      token,
      headers: { 'accept-language': 'zh' },
      body: { old_password: 'not-it-at-all', new_password: 'brand-new-pass' },
    })
    expect(wrongOldInChinese.body).toEqual(errorBody(400, '当前密码不正确', { errors: [{ field: 'old_password', message: '不正确' }] }))
    const tooShort = await req(t.app, 'PUT', '/api/v1/auth/password', {
      token,
      body: { old_password: user.password, new_password: 'short' },
    })
    expect(tooShort.status).toBe(400)
    expect(tooShort.body.errors[0].field).toBe('new_password')

    const changed = await req(t.app, 'PUT', '/api/v1/auth/password', {
      token,
      body: { old_password: user.password, new_password: 'brand-new-pass' },
    })
    expect(changed.status).toBe(200)
    expect(changed.body.message).toBe('Password changed; other sessions were signed out')
    expect((await req(t.app, 'GET', '/api/v1/auth/me', { token: changed.body.data.access_token })).status).toBe(200)
    expect((await req(t.app, 'GET', '/api/v1/auth/me', { token: other })).status).toBe(401)
    expect((await req(t.app, 'POST', '/api/v1/auth/login', { body: { username: user.username, password: user.password } })).status).toBe(401)
    await login(t.app, user.username, 'brand-new-pass')
    const [row] = await t.deps.database.db.select().from(users).where(eq(users.id, user.id))
    expect(row.passwordHash).toStartWith('$argon2id$')
  })
})

describe('one’s own profile', () => {
  test('PUT /auth/me changes name and contact details only; username, status and roles sent with it are ignored', async () => {
    const user = await makeUser([])
    const token = await login(t.app, user.username, user.password)
    const reply = await req(t.app, 'PUT', '/api/v1/auth/me', {
      token,
      body: { name: '  New Name ', phone: '13800000000', email: 'me@example.com', username: 'renamed', status: 0, roles: ['admin'] },
    })
    const [row] = await t.deps.database.db.select().from(users).where(eq(users.id, user.id))
    expect(reply.body).toEqual(
      okBody(
        {
          id: user.id,
          username: user.username,
          name: 'New Name',
          phone: '13800000000',
          email: 'me@example.com',
          avatar: null,
          status: 1,
          roles: [],
          created_at: row.createdAt.toISOString(),
          updated_at: NOW,
        },
        'Profile updated',
      ),
    )
    expect(row).toMatchObject({ username: user.username, status: 1, name: 'New Name' })
    const cleared = await req(t.app, 'PUT', '/api/v1/auth/me', { token, body: { phone: null } })
    expect(cleared.body.data.phone).toBeNull()
    const blank = await req(t.app, 'PUT', '/api/v1/auth/me', { token, body: { name: '   ' } })
    expect(blank.status).toBe(400)
    expect((await req(t.app, 'PUT', '/api/v1/auth/me', { body: { name: 'x' } })).status).toBe(401)
  })
})
