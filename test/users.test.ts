import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { count, eq } from 'drizzle-orm'
import { permissions, rolePermissions, roles, userRoles, users } from '../src/db/schema'
import { ADMIN_PASSWORD, errorBody, login, loginAdmin, makeUser, NOW, okBody, req, startApp, type TestApp, BAD_ID, invalidBody } from './helpers'

const BASE = '/api/v1/admin/users'

let t: TestApp
let admin: string

beforeAll(async () => {
  t = await startApp()
  admin = await loginAdmin(t.app)
})

afterAll(() => t.close())

/** A user as the API shows it, stamped at the frozen time. */
const user = (fields: { id: number; username: string; name: string } & Record<string, unknown>) => ({
  phone: null,
  email: null,
  avatar: null,
  status: 1,
  roles: [],
  created_at: NOW,
  updated_at: NOW,
  ...fields,
})

const ADMIN_USER = user({ id: 1, username: 'admin', name: 'Administrator', roles: ['admin'] })


const userCount = async () => (await t.deps.database.db.select({ n: count() }).from(users))[0].n

const rolesInDb = async (userId: number) =>
  (
    await t.deps.database.db
      .select({ name: roles.name })
      .from(userRoles)
      .innerJoin(roles, eq(roles.id, userRoles.roleId))
      .where(eq(userRoles.userId, userId))
      .orderBy(roles.name)
  ).map((row) => row.name)

const userRow = async (id: number) => (await t.deps.database.db.select().from(users).where(eq(users.id, id)))[0] ?? null

const ALICE = user({
  id: 2,
  username: 'alice',
  name: 'Alice Liu',
  phone: '+86 138-0000-0000',
  email: 'alice@example.com',
  roles: ['employee'],
})

describe('create and read', () => {
  test('a fresh database lists only the seeded administrator', async () => {
    const reply = await req(t.app, 'GET', BASE, { token: admin })
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual(okBody({ list: [ADMIN_USER], total: 1, page: 1, page_size: 10 }))
  })

  test('POST creates a user: HTTP 201, body code 200, trimmed name, hashed password', async () => {
    const reply = await req(t.app, 'POST', BASE, {
      token: admin,
      body: {
        username: 'alice',
        password: 'alice-pass-1',
        name: '  Alice Liu  ',
        phone: '+86 138-0000-0000',
        email: 'alice@example.com',
        roles: ['employee'],
      },
    })
    expect(reply.status).toBe(201)
    expect(reply.body).toEqual(okBody(ALICE, 'User created'))

    const row = await userRow(2)
    expect(row.passwordHash).not.toContain('alice-pass-1')
    expect(row.passwordHash.startsWith('$argon2id$')).toBe(true)
    expect(await rolesInDb(2)).toEqual(['employee'])
  })

  test('GET :id reads one user', async () => {
    const reply = await req(t.app, 'GET', `${BASE}/2`, { token: admin })
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual(okBody(ALICE))
  })

  test('a username taken ignoring case → 409 and no row added', async () => {
    const reply = await req(t.app, 'POST', BASE, {
      token: admin,
      body: { username: 'ALICE', password: 'another-pass-1', name: 'Other Alice' },
    })
    expect(reply.status).toBe(409)
    expect(reply.body).toEqual(errorBody(409, 'The username "ALICE" is already taken (usernames are unique ignoring case)'))
    const zh = await req(t.app, 'POST', BASE, {
      token: admin,
      headers: { 'accept-language': 'zh' },
      body: { username: 'ALICE', password: 'another-pass-1', name: 'Other Alice' },
    })
    expect(zh.body).toEqual(errorBody(409, '用户名“ALICE”已被使用（用户名不区分大小写）'))
    expect(await userCount()).toBe(2)
  })

  test('unknown role names → 400 naming each of them, and no user is created', async () => {
    const reply = await req(t.app, 'POST', BASE, {
      token: admin,
      body: { username: 'carl', password: 'carl-pass-1', name: 'Carl', roles: ['nope', 'admin', 'zip'] },
    })
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual(
      errorBody(400, 'Unknown roles: nope, zip', { errors: [{ field: 'roles', message: 'unknown: nope, zip' }] }),
    )
    expect(await userCount()).toBe(2)
  })

  test('a blank name → 400 and no user is created', async () => {
    const reply = await req(t.app, 'POST', BASE, {
      token: admin,
      body: { username: 'carl', password: 'carl-pass-1', name: '   ' },
    })
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual(errorBody(400, 'name must not be blank', { errors: [{ field: 'name', message: 'must not be blank' }] }))
    expect(await userCount()).toBe(2)
  })

  const USERNAME_RULE = 'must be 3 to 64 letters, digits, "_", ".", "@" or "-", starting with a letter or digit'
  const carl = { username: 'carl', password: 'carl-pass-1', name: 'Carl' }
  const badBodies: [string, Record<string, unknown>, string, { field: string; message: string }[]][] = [
    ['username of the wrong type', { ...carl, username: 5 }, `username ${USERNAME_RULE}`, [{ field: 'username', message: USERNAME_RULE }]],
    ['username too short', { ...carl, username: 'ab' }, `username ${USERNAME_RULE}`, [{ field: 'username', message: USERNAME_RULE }]],
    ['username with a space', { ...carl, username: 'carl smith' }, `username ${USERNAME_RULE}`, [{ field: 'username', message: USERNAME_RULE }]],
    ['no username', { password: 'carl-pass-1', name: 'Carl' }, 'username is required', [{ field: 'username', message: 'is required' }]],
    ['no password', { username: 'carl', name: 'Carl' }, 'password is required', [{ field: 'password', message: 'is required' }]],
    [
      'password under 8 characters',
      { ...carl, password: 'short' },
      'password must be at least 8 characters long',
      [{ field: 'password', message: 'must be at least 8 characters long' }],
    ],
    [
      'password over 128 characters',
      { ...carl, password: 'x'.repeat(129) },
      'password must be at most 128 characters long',
      [{ field: 'password', message: 'must be at most 128 characters long' }],
    ],
    ['no name', { username: 'carl', password: 'carl-pass-1' }, 'name is required', [{ field: 'name', message: 'is required' }]],
    ['name of the wrong type', { ...carl, name: 42 }, 'name must be a string', [{ field: 'name', message: 'must be a string' }]],
    [
      'empty name',
      { ...carl, name: '' },
      'name must be at least 1 character long',
      [{ field: 'name', message: 'must be at least 1 character long' }],
    ],
    [
      'an e-mail that is not one',
      { ...carl, email: 'not-an-email' },
      'email must be an e-mail address of at most 254 characters',
      [{ field: 'email', message: 'must be an e-mail address of at most 254 characters' }],
    ],
    [
      'a phone with letters',
      { ...carl, phone: 'call me' },
      'phone must be 3 to 32 digits, spaces, +, -, ( or )',
      [{ field: 'phone', message: 'must be 3 to 32 digits, spaces, +, -, ( or )' }],
    ],
    ['status 2', { ...carl, status: 2 }, 'status must be 0 or 1', [{ field: 'status', message: 'must be 0 or 1' }]],
    ['roles as a string', { ...carl, roles: 'admin' }, 'roles must be a JSON array', [{ field: 'roles', message: 'must be a JSON array' }]],
    ['a role name that is a number', { ...carl, roles: [7] }, 'roles.0 must be a string', [{ field: 'roles.0', message: 'must be a string' }]],
    [
      'an empty body',
      {},
      'username is required',
      [
        { field: 'username', message: 'is required' },
        { field: 'password', message: 'is required' },
        { field: 'name', message: 'is required' },
      ],
    ],
  ]
  for (const [what, body, message, errors] of badBodies)
    test(`POST with ${what} → 400 naming ${errors[0].field}; nothing is created`, async () => {
      const reply = await req(t.app, 'POST', BASE, { token: admin, body })
      expect(reply.status).toBe(400)
      expect(reply.body).toEqual(errorBody(400, `Invalid request: ${message}`, { errors }))
      expect(await userCount()).toBe(2)
    })

  test('malformed JSON → 400', async () => {
    const reply = await req(t.app, 'POST', BASE, { token: admin, raw: '{"username": "carl",' })
    expect(reply.status).toBe(400)
    // the parser's own words follow the prefix
    expect(reply.body).toEqual(errorBody(400, expect.stringMatching(/^The request body is not valid JSON: /)))
    expect(await userCount()).toBe(2)
  })

  test('GET :id of an unknown user → 404', async () => {
    const reply = await req(t.app, 'GET', `${BASE}/99`, { token: admin })
    expect(reply.status).toBe(404)
    expect(reply.body).toEqual(errorBody(404, 'User 99 does not exist'))
    expect((await req(t.app, 'GET', `${BASE}/99`, { token: admin, headers: { 'accept-language': 'zh' } })).body).toEqual(errorBody(404, '账号 99 不存在'))
  })

  for (const id of ['abc', '0', '-3', '1.5', '99999999999999999999'])
    test(`path id "${id}" → 400 naming id`, async () => {
      const reply = await req(t.app, 'GET', `${BASE}/${id}`, { token: admin })
      expect(reply.status).toBe(400)
      expect(reply.body).toEqual(BAD_ID)
    })
})

describe('list', () => {
  beforeAll(async () => {
    // users 3 and 4; user 4 disabled
    for (const body of [
      { username: 'bob.smith', password: 'bob-pass-12', name: 'Bob Smith', email: 'bob@corp.test' },
      { username: 'dora_50', password: 'dora-pass-1', name: 'Dora (50% time)', phone: '555-0100', status: 0 },
    ]) {
      const reply = await req(t.app, 'POST', BASE, { token: admin, body })
      if (reply.status !== 201) throw new Error(JSON.stringify(reply.body))
    }
  })

  const BOB = user({ id: 3, username: 'bob.smith', name: 'Bob Smith', email: 'bob@corp.test' })
  const DORA = user({ id: 4, username: 'dora_50', name: 'Dora (50% time)', phone: '555-0100', status: 0 })

  test('all users in id order with the default page size', async () => {
    const reply = await req(t.app, 'GET', BASE, { token: admin })
    expect(reply.body).toEqual(okBody({ list: [ADMIN_USER, ALICE, BOB, DORA], total: 4, page: 1, page_size: 10 }))
  })

  test('search matches username, name, e-mail or phone, ignoring case', async () => {
    const cases: [string, unknown[]][] = [
      ['ALI', [ALICE]],
      ['smith', [BOB]],
      ['CORP.TEST', [BOB]],
      ['0100', [DORA]],
      ['example.com', [ALICE]],
      ['nobody', []],
    ]
    for (const [search, list] of cases) {
      const reply = await req(t.app, 'GET', `${BASE}?search=${encodeURIComponent(search)}`, { token: admin })
      expect(reply.body).toEqual(okBody({ list, total: list.length, page: 1, page_size: 10 }))
    }
  })

  test('% and _ in search are literal characters, not wildcards', async () => {
    const percent = await req(t.app, 'GET', `${BASE}?search=${encodeURIComponent('50%')}`, { token: admin })
    expect(percent.body).toEqual(okBody({ list: [DORA], total: 1, page: 1, page_size: 10 }))
    const underscore = await req(t.app, 'GET', `${BASE}?search=_`, { token: admin })
    expect(underscore.body).toEqual(okBody({ list: [DORA], total: 1, page: 1, page_size: 10 }))
  })

  test('status filters enabled or disabled users', async () => {
    const disabled = await req(t.app, 'GET', `${BASE}?status=0`, { token: admin })
    expect(disabled.body).toEqual(okBody({ list: [DORA], total: 1, page: 1, page_size: 10 }))
    const enabled = await req(t.app, 'GET', `${BASE}?status=1&search=b`, { token: admin })
    expect(enabled.body).toEqual(okBody({ list: [BOB], total: 1, page: 1, page_size: 10 }))
  })

  test('page and page_size pick a window; total counts every match', async () => {
    const reply = await req(t.app, 'GET', `${BASE}?page=2&page_size=3`, { token: admin })
    expect(reply.body).toEqual(okBody({ list: [DORA], total: 4, page: 2, page_size: 3 }))
    const beyond = await req(t.app, 'GET', `${BASE}?page=5&page_size=3`, { token: admin })
    expect(beyond.body).toEqual(okBody({ list: [], total: 4, page: 5, page_size: 3 }))
  })

  test('page_size above 100 is cut to 100', async () => {
    const reply = await req(t.app, 'GET', `${BASE}?page_size=500`, { token: admin })
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual(okBody({ list: [ADMIN_USER, ALICE, BOB, DORA], total: 4, page: 1, page_size: 100 }))
  })

  const badQueries: [string, string, string][] = [
    ['page=0', 'page', 'must be a whole number of at least 1'],
    ['page=abc', 'page', 'must be a whole number of at least 1'],
    ['page_size=0', 'page_size', 'must be a whole number of at least 1'],
    ['status=2', 'status', 'must be 0 or 1'],
  ]
  for (const [query, field, message] of badQueries)
    test(`${query} → 400 naming ${field}`, async () => {
      const reply = await req(t.app, 'GET', `${BASE}?${query}`, { token: admin })
      expect(reply.status).toBe(400)
      expect(reply.body).toEqual(invalidBody(field, message))
    })
})

describe('update', () => {
  test('PUT changes the fields sent, trims, and null clears', async () => {
    const reply = await req(t.app, 'PUT', `${BASE}/3`, {
      token: admin,
      body: { name: ' Robert Smith ', email: null, phone: '+1 (555) 010-2000', avatar: 'https://cdn.test/bob.png' },
    })
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual(
      okBody(
        user({ id: 3, username: 'bob.smith', name: 'Robert Smith', phone: '+1 (555) 010-2000', avatar: 'https://cdn.test/bob.png' }),
        'User updated',
      ),
    )
    expect(await userRow(3)).toMatchObject({ name: 'Robert Smith', email: null, phone: '+1 (555) 010-2000' })
  })

  test('updated_at moves with the clock, created_at stays', async () => {
    // within the access token's lifetime
    const later = '2024-03-15T10:00:00.000Z'
    t.clock.set(later)
    try {
      const reply = await req(t.app, 'PUT', `${BASE}/3`, { token: admin, body: { username: 'Bob.Smith' } })
      expect(reply.body).toEqual({
        code: 200,
        message: 'User updated',
        data: user({
          id: 3,
          username: 'Bob.Smith',
          name: 'Robert Smith',
          phone: '+1 (555) 010-2000',
          avatar: 'https://cdn.test/bob.png',
          updated_at: later,
        }),
        timestamp: later,
      })
    } finally {
      t.clock.set(NOW)
    }
  })

  test('roles replaces the roles held; [] removes all', async () => {
    const replaced = await req(t.app, 'PUT', `${BASE}/2`, { token: admin, body: { roles: ['admin', 'employee', 'admin'] } })
    expect(replaced.body).toEqual(okBody({ ...ALICE, roles: ['admin', 'employee'] }, 'User updated'))
    expect(await rolesInDb(2)).toEqual(['admin', 'employee'])

    const cleared = await req(t.app, 'PUT', `${BASE}/2`, { token: admin, body: { roles: [] } })
    expect(cleared.body).toEqual(okBody({ ...ALICE, roles: [] }, 'User updated'))
    expect(await rolesInDb(2)).toEqual([])

    const back = await req(t.app, 'PUT', `${BASE}/2`, { token: admin, body: { roles: ['employee'] } })
    expect(back.body).toEqual(okBody(ALICE, 'User updated'))
  })

  test('unknown role names → 400 naming them, roles unchanged', async () => {
    const reply = await req(t.app, 'PUT', `${BASE}/2`, { token: admin, body: { name: 'Changed', roles: ['admin', 'ghost'] } })
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual(errorBody(400, 'Unknown role: ghost', { errors: [{ field: 'roles', message: 'unknown: ghost' }] }))
    expect(await rolesInDb(2)).toEqual(['employee'])
    expect((await userRow(2)).name).toBe('Alice Liu')
  })

  test('a username taken ignoring case → 409, and the roles sent with it are not applied', async () => {
    const reply = await req(t.app, 'PUT', `${BASE}/2`, { token: admin, body: { username: 'ADMIN', roles: ['admin'] } })
    expect(reply.status).toBe(409)
    expect(reply.body).toEqual(errorBody(409, 'The username "ADMIN" is already taken (usernames are unique ignoring case)'))
    expect(await rolesInDb(2)).toEqual(['employee'])
    expect((await userRow(2)).username).toBe('alice')
  })

  test('a user may change the case of their own username', async () => {
    const reply = await req(t.app, 'PUT', `${BASE}/2`, { token: admin, body: { username: 'Alice' } })
    expect(reply.body).toEqual(okBody({ ...ALICE, username: 'Alice' }, 'User updated'))
    const back = await req(t.app, 'PUT', `${BASE}/2`, { token: admin, body: { username: 'alice' } })
    expect(back.body).toEqual(okBody(ALICE, 'User updated'))
  })

  test('bad input → 400, nothing changes', async () => {
    const blank = await req(t.app, 'PUT', `${BASE}/2`, { token: admin, body: { name: '  ' } })
    expect(blank.body).toEqual(errorBody(400, 'name must not be blank', { errors: [{ field: 'name', message: 'must not be blank' }] }))
    const wrongType = await req(t.app, 'PUT', `${BASE}/2`, { token: admin, body: { status: 'off' } })
    expect(wrongType.body).toEqual(
      errorBody(400, 'Invalid request: status must be 0 or 1', { errors: [{ field: 'status', message: 'must be 0 or 1' }] }),
    )
    const roles = await req(t.app, 'PUT', `${BASE}/2`, { token: admin, body: { roles: [7] } })
    expect(roles.body).toEqual(
      errorBody(400, 'Invalid request: roles.0 must be a string', { errors: [{ field: 'roles.0', message: 'must be a string' }] }),
    )
    expect(await userRow(2)).toMatchObject({ name: 'Alice Liu', status: 1 })
  })

  test('PUT of an unknown user → 404; bad path id → 400', async () => {
    const unknown = await req(t.app, 'PUT', `${BASE}/99`, { token: admin, body: { name: 'Nobody' } })
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual(errorBody(404, 'User 99 does not exist'))
    const bad = await req(t.app, 'PUT', `${BASE}/abc`, { token: admin, body: { name: 'Nobody' } })
    expect(bad.status).toBe(400)
    expect(bad.body).toEqual(BAD_ID)
  })
})

describe('the administrator’s own account', () => {
  const SELF = (what: string) =>
    errorBody(
      403,
      `You cannot ${what} your own account through an administrator route; use PUT /api/v1/auth/me or PUT /api/v1/auth/password, or ask another administrator`,
    )

  test('cannot be changed, disabled, demoted, reset or deleted through the admin routes (403), and stays as it was', async () => {
    const deleted = await req(t.app, 'DELETE', `${BASE}/1`, { token: admin })
    expect(deleted.body).toEqual(SELF('delete'))
    const disabled = await req(t.app, 'PUT', `${BASE}/1`, { token: admin, body: { status: 0 } })
    expect(disabled.body).toEqual(SELF('change'))
    const demoted = await req(t.app, 'PUT', `${BASE}/1`, { token: admin, body: { roles: ['employee'] } })
    expect(demoted.body).toEqual(SELF('change'))
    const reset = await req(t.app, 'PUT', `${BASE}/1/password`, { token: admin, body: { password: 'my-own-new-pass' } })
    expect(reset.body).toEqual(SELF('set the password of'))

    expect(await userRow(1)).toMatchObject({ username: 'admin', status: 1 })
    expect(await rolesInDb(1)).toEqual(['admin'])
    expect(await login(t.app, 'admin', ADMIN_PASSWORD)).toBeString()
  })

  test('a disabled administrator may lose admin freely', async () => {
    // Dora (4) is disabled; giving her admin and taking it back changes no one's access
    const dora = await req(t.app, 'PUT', `${BASE}/4`, { token: admin, body: { roles: ['admin'] } })
    expect(dora.body.data.roles).toEqual(['admin'])
    const back = await req(t.app, 'PUT', `${BASE}/4`, { token: admin, body: { roles: [] } })
    expect(back.body.data.roles).toEqual([])
  })

  test('once another enabled admin exists each may disable, demote or delete the other', async () => {
    const created = await req(t.app, 'POST', BASE, {
      token: admin,
      body: { username: 'carol', password: 'carol-pass-1', name: 'Carol', roles: ['admin'] },
    })
    expect(created.status).toBe(201)
    expect(created.body.data).toEqual(user({ id: 5, username: 'carol', name: 'Carol', roles: ['admin'] }))
    const carol = await login(t.app, 'carol', 'carol-pass-1')

    // Carol may be disabled while user 1 remains
    const disabled = await req(t.app, 'PUT', `${BASE}/5`, { token: admin, body: { status: 0 } })
    expect(disabled.body).toEqual(okBody(user({ id: 5, username: 'carol', name: 'Carol', roles: ['admin'], status: 0 }), 'User updated'))
    // ...and her token stops working at once
    const refused = await req(t.app, 'GET', BASE, { token: carol })
    expect(refused.status).toBe(401)
    expect(refused.body).toEqual(errorBody(401, 'This account is disabled; ask an administrator to enable it'))
    const enabled = await req(t.app, 'PUT', `${BASE}/5`, { token: admin, body: { status: 1 } })
    expect(enabled.body.data.status).toBe(1)

    // Carol may take admin from user 1; Carol is then the last one, and cannot delete herself either way
    const demoted = await req(t.app, 'PUT', `${BASE}/1`, { token: carol, body: { roles: ['employee'] } })
    expect(demoted.body).toEqual(okBody({ ...ADMIN_USER, roles: ['employee'] }, 'User updated'))
    const nowForbidden = await req(t.app, 'GET', BASE, { token: admin })
    expect(nowForbidden.status).toBe(403)
    const carolSelf = await req(t.app, 'DELETE', `${BASE}/5`, { token: carol })
    expect(carolSelf.body).toEqual(SELF('delete'))

    // Carol gives admin back to user 1, who then deletes Carol
    const restored = await req(t.app, 'PUT', `${BASE}/1`, { token: carol, body: { roles: ['admin'] } })
    expect(restored.body).toEqual(okBody(ADMIN_USER, 'User updated'))
    const deleted = await req(t.app, 'DELETE', `${BASE}/5`, { token: admin })
    expect(deleted.status).toBe(200)
    expect(deleted.body).toEqual(okBody(null, 'User deleted'))
    expect(await userRow(5)).toBeNull()
    expect(await rolesInDb(5)).toEqual([])

    const gone = await req(t.app, 'GET', BASE, { token: carol })
    expect(gone.body).toEqual(errorBody(401, 'The account of this token no longer exists'))
  })
})

describe('delete', () => {
  test('DELETE removes the user; reading or deleting again → 404', async () => {
    const reply = await req(t.app, 'DELETE', `${BASE}/4`, { token: admin })
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual(okBody(null, 'User deleted'))
    expect(await userRow(4)).toBeNull()

    const read = await req(t.app, 'GET', `${BASE}/4`, { token: admin })
    expect(read.body).toEqual(errorBody(404, 'User 4 does not exist'))
    const again = await req(t.app, 'DELETE', `${BASE}/4`, { token: admin })
    expect(again.status).toBe(404)
    expect(again.body).toEqual(errorBody(404, 'User 4 does not exist'))
  })

  test('DELETE with a bad path id → 400', async () => {
    const reply = await req(t.app, 'DELETE', `${BASE}/0`, { token: admin })
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual(BAD_ID)
    expect(await userCount()).toBe(3)
  })
})

describe('set password', () => {
  test('the new password works, the old one and the old token do not', async () => {
    const oldToken = await login(t.app, 'alice', 'alice-pass-1')

    const reply = await req(t.app, 'PUT', `${BASE}/2/password`, { token: admin, body: { password: 'alice-new-pass' } })
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual(okBody(null, 'Password set; the user was signed out everywhere'))

    const withOldToken = await req(t.app, 'GET', '/api/v1/auth/me', { token: oldToken })
    expect(withOldToken.status).toBe(401)
    expect(withOldToken.body).toEqual(errorBody(401, 'This session has ended (signed out or password changed); sign in again'))

    const oldPassword = await req(t.app, 'POST', '/api/v1/auth/login', { body: { username: 'alice', password: 'alice-pass-1' } })
    expect(oldPassword.status).toBe(401)
    expect(oldPassword.body).toEqual(errorBody(401, 'Wrong username or password'))

    const newToken = await login(t.app, 'alice', 'alice-new-pass')
    const me = await req(t.app, 'GET', '/api/v1/auth/me', { token: newToken })
    expect(me.status).toBe(200)
    expect(me.body.data.user).toEqual(ALICE)
  })

  test('a password that is too short → 400 and the hash is unchanged', async () => {
    const before = (await userRow(2)).passwordHash
    const reply = await req(t.app, 'PUT', `${BASE}/2/password`, { token: admin, body: { password: 'short' } })
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual(
      errorBody(400, 'Invalid request: password must be at least 8 characters long', {
        errors: [{ field: 'password', message: 'must be at least 8 characters long' }],
      }),
    )
    const missing = await req(t.app, 'PUT', `${BASE}/2/password`, { token: admin, body: {} })
    expect(missing.body).toEqual(
      errorBody(400, 'Invalid request: password is required', { errors: [{ field: 'password', message: 'is required' }] }),
    )
    expect((await userRow(2)).passwordHash).toBe(before)
  })

  test('an unknown user → 404', async () => {
    const reply = await req(t.app, 'PUT', `${BASE}/99/password`, { token: admin, body: { password: 'whatever-pass' } })
    expect(reply.status).toBe(404)
    expect(reply.body).toEqual(errorBody(404, 'User 99 does not exist'))
  })
})

describe('permissions', () => {
  let reader: string

  beforeAll(async () => {
    const { db } = t.deps.database
    const at = new Date(NOW)
    const [role] = await db
      .insert(roles)
      .values({ name: 'user_reader', displayName: 'User reader', createdAt: at, updatedAt: at })
      .returning()
    const [permission] = await db.select().from(permissions).where(eq(permissions.name, 'users:read'))
    await db.insert(rolePermissions).values({ roleId: role.id, permissionId: permission.id, createdAt: at })
    const created = await req(t.app, 'POST', BASE, {
      token: admin,
      body: { username: 'reader', password: 'reader-pass-1', name: 'Reader', roles: ['user_reader'] },
    })
    if (created.status !== 201) throw new Error(JSON.stringify(created.body))
    reader = await login(t.app, 'reader', 'reader-pass-1')
  })

  test('a role granting users:read may list and read users', async () => {
    const list = await req(t.app, 'GET', `${BASE}?search=reader`, { token: reader })
    expect(list.status).toBe(200)
    expect(list.body).toEqual(
      okBody({ list: [user({ id: 6, username: 'reader', name: 'Reader', roles: ['user_reader'] })], total: 1, page: 1, page_size: 10 }),
    )
    const one = await req(t.app, 'GET', `${BASE}/1`, { token: reader })
    expect(one.body).toEqual(okBody(ADMIN_USER))
  })

  const writes: [string, string, unknown, string][] = [
    ['POST', BASE, { username: 'sneaky', password: 'sneaky-pass-1', name: 'Sneaky' }, 'users:create'],
    ['PUT', `${BASE}/6`, { roles: ['admin'] }, 'users:update'],
    ['PUT', `${BASE}/1/password`, { password: 'taken-over-1' }, 'users:update'],
    ['DELETE', `${BASE}/2`, undefined, 'users:delete'],
  ]
  for (const [method, path, body, permission] of writes)
    test(`${method} ${path} without ${permission} → 403 and nothing changes`, async () => {
      const reply = await req(t.app, method, path, { token: reader, body })
      expect(reply.status).toBe(403)
      expect(reply.body).toEqual(errorBody(403, `Your roles do not grant the permission ${permission}; ask an administrator for it`))
      expect(await userCount()).toBe(4)
      expect(await rolesInDb(6)).toEqual(['user_reader'])
    })

  test('no token, or a token that is not one → 401 with WWW-Authenticate', async () => {
    const none = await req(t.app, 'GET', BASE)
    expect(none.status).toBe(401)
    expect(none.headers.get('www-authenticate')).toBe('Bearer')
    expect(none.body).toEqual(
      errorBody(401, 'Sign in first: send "Authorization: Bearer <access token>" from POST /api/v1/auth/login'),
    )
    const garbage = await req(t.app, 'DELETE', `${BASE}/2`, { token: 'not-a-token' })
    expect(garbage.status).toBe(401)
    expect(garbage.body).toEqual(errorBody(401, 'The access token is invalid or has expired; refresh it or sign in again'))
    expect(await userRow(2)).not.toBeNull()
  })

  test('taking the role away takes effect on the next request', async () => {
    const revoked = await req(t.app, 'PUT', `${BASE}/6`, { token: admin, body: { roles: [] } })
    expect(revoked.body.data.roles).toEqual([])
    const reply = await req(t.app, 'GET', BASE, { token: reader })
    expect(reply.status).toBe(403)
    expect(reply.body).toEqual(errorBody(403, 'Your roles do not grant the permission users:read; ask an administrator for it'))
  })
})

describe('the last enabled administrator', () => {
  const LAST = (change: string) =>
    errorBody(409, `User "admin" is the last enabled administrator and cannot ${change}; make another user admin first`)

  test('a holder of every permission without role admin still cannot delete, disable or demote it (409)', async () => {
    const { db } = t.deps.database
    const at = new Date(NOW)
    const [role] = await db.insert(roles).values({ name: 'all_rights', displayName: 'All rights', createdAt: at, updatedAt: at }).returning()
    const every = await db.select().from(permissions)
    await db.insert(rolePermissions).values(every.map((permission) => ({ roleId: role.id, permissionId: permission.id, createdAt: at })))
    // a disabled admin does not count as another one
    const reader = await req(t.app, 'PUT', `${BASE}/6`, { token: admin, body: { roles: ['admin'], status: 0 } })
    expect(reader.body.data).toMatchObject({ roles: ['admin'], status: 0 })
    const owner = await makeUser(t.app, admin, 'owner', ['all_rights'])

    const deleted = await req(t.app, 'DELETE', `${BASE}/1`, { token: owner.token })
    expect(deleted.body).toEqual(LAST('be deleted'))
    expect((await req(t.app, 'DELETE', `${BASE}/1`, { token: owner.token, headers: { 'accept-language': 'zh' } })).body).toEqual(
      errorBody(409, '账号“admin”是最后一个启用的管理员，不能被删除；请先把另一个账号设为管理员'),
    )
    const disabled = await req(t.app, 'PUT', `${BASE}/1`, { token: owner.token, body: { status: 0 } })
    expect(disabled.body).toEqual(LAST('be disabled'))
    const demoted = await req(t.app, 'PUT', `${BASE}/1`, { token: owner.token, body: { roles: ['employee'] } })
    expect(demoted.body).toEqual(LAST('lose role admin'))
    const revoked = await req(t.app, 'POST', '/api/v1/admin/roles/revoke', { token: owner.token, body: { user_id: 1, role_name: 'admin' } })
    // the roles route names the account by its username (rbac)
    expect(revoked.body).toEqual(errorBody(409, 'User "admin" is the last enabled administrator and cannot lose role admin; make another user admin first'))
    expect(await userRow(1)).toMatchObject({ username: 'admin', status: 1 })
    expect(await rolesInDb(1)).toEqual(['admin'])
  })
})
