import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { asc, count, eq } from 'drizzle-orm'
import { companies, employees, permissions, rolePermissions, roles } from '../src/db/schema'
import { errorBody, login, loginAdmin, NOW, okBody, req, startApp, type TestApp, BAD_ID } from './helpers'

const BASE = '/api/v1/admin/companies'

let t: TestApp
let admin: string

beforeAll(async () => {
  t = await startApp()
  admin = await loginAdmin(t.app)
})

afterAll(() => t.close())

const company = (id: number, name: string, timezone: string | null, updated_at = NOW) => ({
  id,
  name,
  timezone,
  attendance_starts_on: null,
  created_at: NOW,
  updated_at,
})

/** Every company row as [id, name, timezone], to show that a failed request changed nothing. */
const rows = async () =>
  (await t.deps.database.db.select().from(companies).orderBy(asc(companies.id))).map((row) => [row.id, row.name, row.timezone])


const ACME = company(1, 'Acme', 'Asia/Shanghai')
const GLOBEX = company(2, 'Globex', null)

describe('create', () => {
  test('an empty list to begin with', async () => {
    const reply = await req(t.app, 'GET', BASE, { token: admin })
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual(okBody({ list: [], total: 0, page: 1, page_size: 10 }))
  })

  test('POST → 201 with body code 200; the zone is canonicalised and the name trimmed', async () => {
    const reply = await req(t.app, 'POST', BASE, { token: admin, body: { name: '  Acme ', timezone: ' asia/shanghai ' } })
    expect(reply.status).toBe(201)
    expect(reply.body).toEqual(okBody(ACME, 'Company created'))
    expect(await rows()).toEqual([[1, 'Acme', 'Asia/Shanghai']])
  })

  test('timezone is optional; null and absent both mean the service default', async () => {
    const absent = await req(t.app, 'POST', BASE, { token: admin, body: { name: 'Globex' } })
    expect(absent.status).toBe(201)
    expect(absent.body).toEqual(okBody(GLOBEX, 'Company created'))
    const none = await req(t.app, 'POST', BASE, { token: admin, body: { name: 'Initech', timezone: null }, headers: { 'accept-language': 'zh' } })
    expect(none.status).toBe(201)
    expect(none.body).toEqual(okBody(company(3, 'Initech', null), '公司已创建'))
  })

  test('a name taken ignoring case → 409 and nothing added', async () => {
    const reply = await req(t.app, 'POST', BASE, { token: admin, body: { name: ' ACME ', timezone: 'UTC' } })
    expect(reply.status).toBe(409)
    expect(reply.body).toEqual(errorBody(409, 'A company named "ACME" already exists'))
    const zh = await req(t.app, 'POST', BASE, { token: admin, body: { name: ' ACME ', timezone: 'UTC' }, headers: { 'accept-language': 'zh' } })
    expect(zh.body).toEqual(errorBody(409, '名为“ACME”的公司已存在'))
    expect(await rows()).toHaveLength(3)
  })

  test('a time zone that is not an IANA name (or is a bare offset) → 400 and nothing added', async () => {
    for (const timezone of ['Mars/Olympus_Mons', 'GMT+25', 'Asia/Shanghai/Extra', '+08:00'])
      expect((await req(t.app, 'POST', BASE, { token: admin, body: { name: 'Hooli', timezone } })).body).toEqual(
        errorBody(400, `"${timezone}" is not an IANA time zone; use a name such as Asia/Shanghai or UTC`, {
          errors: [{ field: 'timezone', message: 'is not an IANA time zone' }],
        }),
      )
    expect(await rows()).toHaveLength(3)
  })

  test('a blank name → 400 and nothing added', async () => {
    const reply = await req(t.app, 'POST', BASE, { token: admin, body: { name: ' \t ' } })
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual(errorBody(400, 'name must not be blank', { errors: [{ field: 'name', message: 'must not be blank' }] }))
    expect(await rows()).toHaveLength(3)
  })

  const badBodies: [string, unknown, string, { field: string; message: string }[]][] = [
    ['no name', { timezone: 'UTC' }, 'name is required', [{ field: 'name', message: 'is required' }]],
    ['a name of the wrong type', { name: 5 }, 'name must be a string', [{ field: 'name', message: 'must be a string' }]],
    [
      'an empty name',
      { name: '' },
      'name must be at least 1 character long',
      [{ field: 'name', message: 'must be at least 1 character long' }],
    ],
    [
      'a name over 100 characters',
      { name: 'x'.repeat(101) },
      'name must be at most 100 characters long',
      [{ field: 'name', message: 'must be at most 100 characters long' }],
    ],
    ['a timezone of the wrong type', { name: 'Hooli', timezone: 8 }, 'timezone must be an IANA time zone name such as Asia/Shanghai', [
      { field: 'timezone', message: 'must be an IANA time zone name such as Asia/Shanghai' },
    ]],
    ['an empty timezone', { name: 'Hooli', timezone: '' }, 'timezone must be an IANA time zone name such as Asia/Shanghai', [
      { field: 'timezone', message: 'must be an IANA time zone name such as Asia/Shanghai' },
    ]],
  ]
  for (const [what, body, message, errors] of badBodies)
    test(`POST with ${what} → 400 naming ${errors[0].field}`, async () => {
      const reply = await req(t.app, 'POST', BASE, { token: admin, body })
      expect(reply.status).toBe(400)
      expect(reply.body).toEqual(errorBody(400, `Invalid request: ${message}`, { errors }))
      expect(await rows()).toHaveLength(3)
    })

  test('malformed JSON → 400', async () => {
    const reply = await req(t.app, 'POST', BASE, { token: admin, raw: '{"name": ' })
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual(errorBody(400, expect.stringMatching(/^The request body is not valid JSON: /)))
    expect(await rows()).toHaveLength(3)
  })
})

describe('read and list', () => {
  beforeAll(async () => {
    // 4 and 5: names with LIKE wildcards in them
    for (const name of ['100% Widgets', 'Under_Score Ltd']) {
      const reply = await req(t.app, 'POST', BASE, { token: admin, body: { name, timezone: 'Europe/Berlin' } })
      if (reply.status !== 201) throw new Error(JSON.stringify(reply.body))
    }
  })

  const INITECH = company(3, 'Initech', null)
  const WIDGETS = company(4, '100% Widgets', 'Europe/Berlin')
  const UNDERSCORE = company(5, 'Under_Score Ltd', 'Europe/Berlin')

  test('GET :id reads one company', async () => {
    const reply = await req(t.app, 'GET', `${BASE}/1`, { token: admin })
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual(okBody(ACME))
  })

  test('GET :id of an unknown company → 404', async () => {
    const reply = await req(t.app, 'GET', `${BASE}/42`, { token: admin })
    expect(reply.status).toBe(404)
    expect(reply.body).toEqual(errorBody(404, 'Company 42 does not exist'))
    const zh = await req(t.app, 'GET', `${BASE}/42`, { token: admin, headers: { 'accept-language': 'zh' } })
    expect(zh.body).toEqual(errorBody(404, '公司 42 不存在'))
  })

  for (const id of ['abc', '0', '-1'])
    test(`path id "${id}" → 400`, async () => {
      const reply = await req(t.app, 'GET', `${BASE}/${id}`, { token: admin })
      expect(reply.status).toBe(400)
      expect(reply.body).toEqual(BAD_ID)
    })

  test('the list is style P1, in id order', async () => {
    const reply = await req(t.app, 'GET', BASE, { token: admin })
    expect(reply.body).toEqual(okBody({ list: [ACME, GLOBEX, INITECH, WIDGETS, UNDERSCORE], total: 5, page: 1, page_size: 10 }))
  })

  test('search matches part of the name ignoring case; % and _ are literal', async () => {
    const cases: [string, unknown[]][] = [
      ['CM', [ACME]],
      ['T', [INITECH, WIDGETS, UNDERSCORE]],
      ['%', [WIDGETS]],
      ['_', [UNDERSCORE]],
      ['  globex  ', [GLOBEX]],
      ['zzz', []],
    ]
    for (const [search, list] of cases) {
      const reply = await req(t.app, 'GET', `${BASE}?search=${encodeURIComponent(search)}`, { token: admin })
      expect(reply.body).toEqual(okBody({ list, total: list.length, page: 1, page_size: 10 }))
    }
  })

  test('page and page_size choose a window; total counts all matches', async () => {
    const second = await req(t.app, 'GET', `${BASE}?page=2&page_size=2`, { token: admin })
    expect(second.body).toEqual(okBody({ list: [INITECH, WIDGETS], total: 5, page: 2, page_size: 2 }))
    const searched = await req(t.app, 'GET', `${BASE}?search=t&page=2&page_size=2`, { token: admin })
    expect(searched.body).toEqual(okBody({ list: [UNDERSCORE], total: 3, page: 2, page_size: 2 }))
  })

  test('page_size above 100 is cut to 100', async () => {
    const reply = await req(t.app, 'GET', `${BASE}?page_size=500`, { token: admin })
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual(okBody({ list: [ACME, GLOBEX, INITECH, WIDGETS, UNDERSCORE], total: 5, page: 1, page_size: 100 }))
  })

  for (const [query, field] of [
    ['page=0', 'page'],
    ['page=-2', 'page'],
    ['page=x', 'page'],
    ['page_size=0', 'page_size'],
  ])
    test(`${query} → 400 naming ${field}`, async () => {
      const reply = await req(t.app, 'GET', `${BASE}?${query}`, { token: admin })
      expect(reply.status).toBe(400)
      expect(reply.body).toEqual(
        errorBody(400, expect.stringMatching(new RegExp(`^Invalid request: ${field} must be a whole number of at least 1$`)), {
          errors: [{ field, message: 'must be a whole number of at least 1' }],
        }),
      )
    })
})

describe('update', () => {
  test('PUT renames and changes the zone; updated_at moves with the clock', async () => {
    const later = '2024-03-15T10:15:00.000Z'
    t.clock.set(later)
    try {
      const reply = await req(t.app, 'PUT', `${BASE}/2`, { token: admin, body: { name: ' Globex Corp ', timezone: 'america/new_york' } })
      expect(reply.status).toBe(200)
      expect(reply.body).toEqual({
        code: 200,
        message: 'Company updated',
        data: company(2, 'Globex Corp', 'America/New_York', later),
        timestamp: later,
      })
    } finally {
      t.clock.set(NOW)
    }
  })

  test('fields not sent stay; timezone null clears the zone', async () => {
    const onlyZone = await req(t.app, 'PUT', `${BASE}/1`, { token: admin, body: { timezone: null } })
    expect(onlyZone.body).toEqual(okBody(company(1, 'Acme', null), 'Company updated'))
    const empty = await req(t.app, 'PUT', `${BASE}/1`, { token: admin, body: {} })
    expect(empty.body).toEqual(okBody(company(1, 'Acme', null), 'Company updated'))
    const zoneBack = await req(t.app, 'PUT', `${BASE}/1`, { token: admin, body: { timezone: 'Asia/Shanghai' } })
    expect(zoneBack.body).toEqual(okBody(ACME, 'Company updated'))
  })

  test('a company may change the case of its own name', async () => {
    const reply = await req(t.app, 'PUT', `${BASE}/1`, { token: admin, body: { name: 'ACME' } })
    expect(reply.body).toEqual(okBody(company(1, 'ACME', 'Asia/Shanghai'), 'Company updated'))
    const back = await req(t.app, 'PUT', `${BASE}/1`, { token: admin, body: { name: 'Acme' } })
    expect(back.body).toEqual(okBody(ACME, 'Company updated'))
  })

  test("another company's name ignoring case → 409, nothing changes", async () => {
    const before = await rows()
    const reply = await req(t.app, 'PUT', `${BASE}/3`, { token: admin, body: { name: 'acme', timezone: 'UTC' } })
    expect(reply.status).toBe(409)
    expect(reply.body).toEqual(errorBody(409, 'A company named "acme" already exists'))
    expect(await rows()).toEqual(before)
  })

  test('an invalid zone, a blank name or a wrong type → 400, nothing changes', async () => {
    const before = await rows()
    const zone = await req(t.app, 'PUT', `${BASE}/3`, { token: admin, body: { name: 'Initrode', timezone: 'Nowhere/City' } })
    expect(zone.body).toEqual(
      errorBody(400, '"Nowhere/City" is not an IANA time zone; use a name such as Asia/Shanghai or UTC', {
        errors: [{ field: 'timezone', message: 'is not an IANA time zone' }],
      }),
    )
    const blank = await req(t.app, 'PUT', `${BASE}/3`, { token: admin, body: { name: '   ' } })
    expect(blank.body).toEqual(errorBody(400, 'name must not be blank', { errors: [{ field: 'name', message: 'must not be blank' }] }))
    const wrongType = await req(t.app, 'PUT', `${BASE}/3`, { token: admin, body: { name: ['Initrode'] } })
    expect(wrongType.body).toEqual(
      errorBody(400, 'Invalid request: name must be a string', { errors: [{ field: 'name', message: 'must be a string' }] }),
    )
    expect(await rows()).toEqual(before)
  })

  test('PUT of an unknown company → 404; a bad path id → 400', async () => {
    const unknown = await req(t.app, 'PUT', `${BASE}/42`, { token: admin, body: { name: 'Nobody' } })
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual(errorBody(404, 'Company 42 does not exist'))
    const bad = await req(t.app, 'PUT', `${BASE}/abc`, { token: admin, body: { name: 'Nobody' } })
    expect(bad.body).toEqual(BAD_ID)
  })
})

describe('delete', () => {
  test('a company an employee references → 409 and nothing is deleted', async () => {
    const created = await req(t.app, 'POST', '/api/v1/admin/employees', { token: admin, body: { name: 'Ann', company_id: 1 } })
    expect(created.status).toBe(201)
    expect(created.body.data.company_id).toBe(1)
    const before = await rows()

    const reply = await req(t.app, 'DELETE', `${BASE}/1`, { token: admin })
    expect(reply.status).toBe(409)
    expect(reply.body).toEqual(errorBody(409, 'Company 1 still has employees or attendance groups; move or delete them first'))
    const zh = await req(t.app, 'DELETE', `${BASE}/1`, { token: admin, headers: { 'accept-language': 'zh' } })
    expect(zh.body).toEqual(errorBody(409, '公司 1 下仍有员工或考勤组；请先将其移走或删除'))
    expect(await rows()).toEqual(before)
    const [{ n }] = await t.deps.database.db.select({ n: count() }).from(employees).where(eq(employees.companyId, 1))
    expect(n).toBe(1)
  })

  test('once no employee references it, it can be deleted', async () => {
    const moved = await req(t.app, 'PUT', '/api/v1/admin/employees/1', { token: admin, body: { company_id: null } })
    expect(moved.body.data.company_id).toBeNull()
    const reply = await req(t.app, 'DELETE', `${BASE}/1`, { token: admin })
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual(okBody(null, 'Company deleted'))
    expect((await rows()).map(([id]) => id)).toEqual([2, 3, 4, 5])
  })

  test('deleting an unreferenced company; reading or deleting it again → 404', async () => {
    const reply = await req(t.app, 'DELETE', `${BASE}/3`, { token: admin })
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual(okBody(null, 'Company deleted'))
    const read = await req(t.app, 'GET', `${BASE}/3`, { token: admin })
    expect(read.status).toBe(404)
    expect(read.body).toEqual(errorBody(404, 'Company 3 does not exist'))
    const again = await req(t.app, 'DELETE', `${BASE}/3`, { token: admin })
    expect(again.status).toBe(404)
    expect(again.body).toEqual(errorBody(404, 'Company 3 does not exist'))
    expect((await rows()).map(([id]) => id)).toEqual([2, 4, 5])
  })

  test('a new company reusing a deleted name is fine', async () => {
    const reply = await req(t.app, 'POST', BASE, { token: admin, body: { name: 'acme' } })
    expect(reply.status).toBe(201)
    expect(reply.body).toEqual(okBody(company(6, 'acme', null), 'Company created'))
  })

  test('DELETE with a bad path id → 400', async () => {
    const reply = await req(t.app, 'DELETE', `${BASE}/0`, { token: admin })
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual(BAD_ID)
  })
})

describe('permissions', () => {
  let reader: string

  beforeAll(async () => {
    const { db } = t.deps.database
    const at = new Date(NOW)
    const [role] = await db.insert(roles).values({ name: 'company_reader', createdAt: at, updatedAt: at }).returning()
    const [permission] = await db.select().from(permissions).where(eq(permissions.name, 'companies:read'))
    await db.insert(rolePermissions).values({ roleId: role.id, permissionId: permission.id, createdAt: at })
    const created = await req(t.app, 'POST', '/api/v1/admin/users', {
      token: admin,
      body: { username: 'reader', password: 'reader-pass-1', name: 'Reader', roles: ['company_reader'] },
    })
    if (created.status !== 201) throw new Error(JSON.stringify(created.body))
    reader = await login(t.app, 'reader', 'reader-pass-1')
  })

  test('companies:read lets a user list and read', async () => {
    const list = await req(t.app, 'GET', `${BASE}?search=globex`, { token: reader })
    expect(list.status).toBe(200)
    expect(list.body).toEqual(
      okBody({ list: [company(2, 'Globex Corp', 'America/New_York', '2024-03-15T10:15:00.000Z')], total: 1, page: 1, page_size: 10 }),
    )
    const one = await req(t.app, 'GET', `${BASE}/4`, { token: reader })
    expect(one.body).toEqual(okBody(company(4, '100% Widgets', 'Europe/Berlin')))
  })

  const writes: [string, string, unknown, string][] = [
    ['POST', BASE, { name: 'Sneaky Inc' }, 'companies:create'],
    ['PUT', `${BASE}/4`, { name: 'Renamed' }, 'companies:update'],
    ['DELETE', `${BASE}/4`, undefined, 'companies:delete'],
  ]
  for (const [method, path, body, permission] of writes)
    test(`${method} ${path} without ${permission} → 403, nothing changes`, async () => {
      const before = await rows()
      const reply = await req(t.app, method, path, { token: reader, body })
      expect(reply.status).toBe(403)
      expect(reply.body).toEqual(errorBody(403, `Your roles do not grant the permission ${permission}; ask an administrator for it`))
      expect(await rows()).toEqual(before)
    })

  test('a disabled role grants nothing', async () => {
    const { db } = t.deps.database
    await db.update(roles).set({ status: 0 }).where(eq(roles.name, 'company_reader'))
    t.deps.access.invalidate() // the change went around the service, so drop the cached callers
    try {
      const reply = await req(t.app, 'GET', BASE, { token: reader })
      expect(reply.status).toBe(403)
      expect(reply.body).toEqual(errorBody(403, 'Your roles do not grant the permission companies:read; ask an administrator for it'))
    } finally {
      await db.update(roles).set({ status: 1 }).where(eq(roles.name, 'company_reader'))
      t.deps.access.invalidate()
    }
  })

  test('no token → 401', async () => {
    for (const [method, path] of [
      ['GET', BASE],
      ['GET', `${BASE}/2`],
      ['POST', BASE],
      ['PUT', `${BASE}/2`],
      ['DELETE', `${BASE}/2`],
    ]) {
      const reply = await req(t.app, method, path, method === 'POST' || method === 'PUT' ? { body: { name: 'X' } } : {})
      expect(reply.status).toBe(401)
      expect(reply.headers.get('www-authenticate')).toBe('Bearer')
      expect(reply.body).toEqual(
        errorBody(401, 'Sign in first: send "Authorization: Bearer <access token>" from POST /api/v1/auth/login'),
      )
    }
    expect((await rows()).map(([id]) => id)).toEqual([2, 4, 5, 6])
  })
})
