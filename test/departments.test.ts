import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { asc, count, eq } from 'drizzle-orm'
import { auditLogs, departments, employees } from '../src/db/schema'
import { BAD_ID, errorBody, invalidBody, login, loginAdmin, NOW, okBody, req, startApp, type TestApp } from './helpers'

const BASE = '/api/v1/admin/departments'
const PUBLIC = '/api/v1/public/departments'

let t: TestApp
let admin: string

beforeAll(async () => {
  t = await startApp()
  admin = await loginAdmin(t.app)
})

afterAll(() => t.close())

const department = (id: number, name: string, updated_at = NOW) => ({ id, name, created_at: NOW, updated_at })

/** Every department row as [id, name], to show that a failed request changed nothing. */
const rows = async () => (await t.deps.database.db.select().from(departments).orderBy(asc(departments.id))).map((row) => [row.id, row.name])

const auditCount = async () => {
  const [{ n }] = await t.deps.database.db.select({ n: count() }).from(auditLogs)
  return n
}

/** The audit rows written after the first `since` rows, without their ids. */
const auditSince = async (since: number) =>
  (await t.deps.database.db.select().from(auditLogs).orderBy(asc(auditLogs.id))).slice(since).map(({ id: _id, ...row }) => row)

const audit = (action: string, id: number, before: unknown, after: unknown, at = NOW) => ({
  actorId: 1,
  action: `department.${action}`,
  resource: 'department',
  resourceId: String(id),
  before,
  after,
  ip: null,
  createdAt: new Date(at),
})

const ENGINEERING = department(1, 'Engineering')
const SALES = department(2, 'Sales')
const GROWTH = department(3, '100% Growth')
const OPS = department(4, 'Ops_Team')
const DESIGN = department(5, 'Design')

describe('create', () => {
  test('an empty list to begin with', async () => {
    const reply = await req(t.app, 'GET', BASE, { token: admin })
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual(okBody({ departments: [], total: 0, page: 1, page_size: 10 }))
    const open = await req(t.app, 'GET', PUBLIC)
    expect(open.body).toEqual(okBody([]))
  })

  test('POST → 201 with body code 200; the name is trimmed; one audit row', async () => {
    const since = await auditCount()
    const reply = await req(t.app, 'POST', BASE, { token: admin, body: { name: '  Engineering \t' } })
    expect(reply.status).toBe(201)
    expect(reply.body).toEqual(okBody(ENGINEERING, 'Department created'))
    expect(await rows()).toEqual([[1, 'Engineering']])
    expect(await auditSince(since)).toEqual([audit('create', 1, null, ENGINEERING)])
  })

  test('a name taken ignoring case → 409, nothing added, no audit', async () => {
    const since = await auditCount()
    const reply = await req(t.app, 'POST', BASE, { token: admin, body: { name: ' ENGINEERING ' } })
    expect(reply.status).toBe(409)
    expect(reply.body).toEqual(errorBody(409, 'A department named "ENGINEERING" already exists (names are unique ignoring case)'))
    const zh = await req(t.app, 'POST', BASE, { token: admin, body: { name: ' ENGINEERING ' }, headers: { 'accept-language': 'zh' } })
    expect(zh.body).toEqual(errorBody(409, '名为“ENGINEERING”的部门已存在（部门名称不区分大小写，不能重复）'))
    expect(await rows()).toEqual([[1, 'Engineering']])
    expect(await auditCount()).toBe(since)
  })

  test('a blank name → 400, nothing added, no audit', async () => {
    const since = await auditCount()
    const reply = await req(t.app, 'POST', BASE, { token: admin, body: { name: ' \t ' } })
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual(errorBody(400, 'name must not be blank', { errors: [{ field: 'name', message: 'must not be blank' }] }))
    expect(await rows()).toHaveLength(1)
    expect(await auditCount()).toBe(since)
  })

  const badBodies: [string, unknown, string, string][] = [
    ['no name', {}, 'name', 'is required'],
    ['a name of the wrong type', { name: 5 }, 'name', 'must be a string'],
    ['an empty name', { name: '' }, 'name', 'must be at least 1 character long'],
    ['a name over 100 characters', { name: 'x'.repeat(101) }, 'name', 'must be at most 100 characters long'],
  ]
  for (const [what, body, field, message] of badBodies)
    test(`POST with ${what} → 400, nothing added, no audit`, async () => {
      const since = await auditCount()
      const reply = await req(t.app, 'POST', BASE, { token: admin, body })
      expect(reply.status).toBe(400)
      expect(reply.body).toEqual(invalidBody(field, message))
      expect(await rows()).toHaveLength(1)
      expect(await auditCount()).toBe(since)
    })

  test('malformed JSON → 400, nothing added', async () => {
    const since = await auditCount()
    const reply = await req(t.app, 'POST', BASE, { token: admin, raw: '{"name": ' })
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual(errorBody(400, expect.stringMatching(/^The request body is not valid JSON: /)))
    expect(await rows()).toHaveLength(1)
    expect(await auditCount()).toBe(since)
  })
})

describe('read and list', () => {
  beforeAll(async () => {
    for (const name of ['Sales', '100% Growth', 'Ops_Team', 'Design']) {
      const reply = await req(t.app, 'POST', BASE, { token: admin, body: { name } })
      if (reply.status !== 201) throw new Error(JSON.stringify(reply.body))
    }
  })

  test('GET :id reads one department', async () => {
    const reply = await req(t.app, 'GET', `${BASE}/3`, { token: admin })
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual(okBody(GROWTH))
  })

  test('GET :id of an unknown department → 404', async () => {
    const reply = await req(t.app, 'GET', `${BASE}/99`, { token: admin })
    expect(reply.status).toBe(404)
    expect(reply.body).toEqual(errorBody(404, 'Department 99 does not exist'))
    const zh = await req(t.app, 'GET', `${BASE}/99`, { token: admin, headers: { 'accept-language': 'zh' } })
    expect(zh.body).toEqual(errorBody(404, '部门 99 不存在'))
  })

  for (const id of ['abc', '0', '-1', '1.5'])
    test(`path id "${id}" → 400`, async () => {
      const reply = await req(t.app, 'GET', `${BASE}/${id}`, { token: admin })
      expect(reply.status).toBe(400)
      expect(reply.body).toEqual(BAD_ID)
    })

  test('the list is in id order with total, page and page_size (default 10)', async () => {
    const reply = await req(t.app, 'GET', BASE, { token: admin })
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual(okBody({ departments: [ENGINEERING, SALES, GROWTH, OPS, DESIGN], total: 5, page: 1, page_size: 10 }))
  })

  test('name matches part of the name ignoring case; % and _ are literal', async () => {
    const cases: [string, unknown[]][] = [
      ['GIN', [ENGINEERING]],
      ['s', [SALES, OPS, DESIGN]],
      ['%', [GROWTH]],
      ['_', [OPS]],
      ['  sales  ', [SALES]],
      ['engineering', [ENGINEERING]],
      ['zzz', []],
    ]
    for (const [name, list] of cases) {
      const reply = await req(t.app, 'GET', `${BASE}?name=${encodeURIComponent(name)}`, { token: admin })
      expect(reply.status).toBe(200)
      expect(reply.body).toEqual(okBody({ departments: list, total: list.length, page: 1, page_size: 10 }))
    }
  })

  test('page and page_size choose a window; total counts all matches', async () => {
    const second = await req(t.app, 'GET', `${BASE}?page=2&page_size=2`, { token: admin })
    expect(second.body).toEqual(okBody({ departments: [GROWTH, OPS], total: 5, page: 2, page_size: 2 }))
    const last = await req(t.app, 'GET', `${BASE}?page=3&page_size=2`, { token: admin })
    expect(last.body).toEqual(okBody({ departments: [DESIGN], total: 5, page: 3, page_size: 2 }))
    const beyond = await req(t.app, 'GET', `${BASE}?page=9&page_size=2`, { token: admin })
    expect(beyond.body).toEqual(okBody({ departments: [], total: 5, page: 9, page_size: 2 }))
    const searched = await req(t.app, 'GET', `${BASE}?name=s&page=2&page_size=2`, { token: admin })
    expect(searched.body).toEqual(okBody({ departments: [DESIGN], total: 3, page: 2, page_size: 2 }))
  })

  test('page_size above 100 is cut to 100', async () => {
    const reply = await req(t.app, 'GET', `${BASE}?page_size=500`, { token: admin })
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual(okBody({ departments: [ENGINEERING, SALES, GROWTH, OPS, DESIGN], total: 5, page: 1, page_size: 100 }))
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
      expect(reply.body).toEqual(invalidBody(field, 'must be a whole number of at least 1'))
    })

  test('the public list needs no token and gives only id and name, by id', async () => {
    const reply = await req(t.app, 'GET', PUBLIC)
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual(
      okBody([
        { id: 1, name: 'Engineering' },
        { id: 2, name: 'Sales' },
        { id: 3, name: '100% Growth' },
        { id: 4, name: 'Ops_Team' },
        { id: 5, name: 'Design' },
      ]),
    )
    for (const item of reply.body.data) expect(Object.keys(item).sort()).toEqual(['id', 'name'])
  })
})

describe('update', () => {
  test('PUT renames (trimmed); updated_at and the audit time come from the clock', async () => {
    const later = '2024-03-15T10:15:00.000Z'
    const since = await auditCount()
    t.clock.set(later)
    try {
      const reply = await req(t.app, 'PUT', `${BASE}/2`, { token: admin, body: { name: ' Sales & Support ' } })
      expect(reply.status).toBe(200)
      const renamed = department(2, 'Sales & Support', later)
      expect(reply.body).toEqual({ code: 200, message: 'Department updated', data: renamed, timestamp: later })
      expect(await auditSince(since)).toEqual([audit('update', 2, SALES, renamed, later)])
    } finally {
      t.clock.set(NOW)
    }
    const read = await req(t.app, 'GET', `${BASE}/2`, { token: admin })
    expect(read.body).toEqual(okBody(department(2, 'Sales & Support', later)))
    expect((await rows())[1]).toEqual([2, 'Sales & Support'])
  })

  test('a department may change the case of its own name', async () => {
    t.clock.advance(60_000)
    const minuteLater = new Date(new Date(NOW).getTime() + 60_000).toISOString()
    try {
      const since = await auditCount()
      const reply = await req(t.app, 'PUT', `${BASE}/1`, { token: admin, body: { name: 'ENGINEERING' } })
      expect(reply.status).toBe(200)
      const upper = department(1, 'ENGINEERING', minuteLater)
      expect(reply.body).toEqual({ code: 200, message: 'Department updated', data: upper, timestamp: minuteLater })
      expect(await auditSince(since)).toEqual([audit('update', 1, ENGINEERING, upper, minuteLater)])
    } finally {
      t.clock.set(NOW)
    }
    const back = await req(t.app, 'PUT', `${BASE}/1`, { token: admin, body: { name: 'Engineering' } })
    expect(back.body).toEqual(okBody(ENGINEERING, 'Department updated'))
    expect((await rows())[0]).toEqual([1, 'Engineering'])
  })

  test("another department's name ignoring case → 409, nothing changes, no audit", async () => {
    const before = await rows()
    const since = await auditCount()
    const reply = await req(t.app, 'PUT', `${BASE}/3`, { token: admin, body: { name: ' engineering ' } })
    expect(reply.status).toBe(409)
    expect(reply.body).toEqual(errorBody(409, 'A department named "engineering" already exists (names are unique ignoring case)'))
    expect(await rows()).toEqual(before)
    expect(await auditCount()).toBe(since)
    expect((await req(t.app, 'GET', `${BASE}/3`, { token: admin })).body).toEqual(okBody(GROWTH))
  })

  test('a blank, missing, too long or wrongly typed name → 400, nothing changes, no audit', async () => {
    const before = await rows()
    const since = await auditCount()
    const blank = await req(t.app, 'PUT', `${BASE}/3`, { token: admin, body: { name: '   ' } })
    expect(blank.status).toBe(400)
    expect(blank.body).toEqual(errorBody(400, 'name must not be blank', { errors: [{ field: 'name', message: 'must not be blank' }] }))
    const missing = await req(t.app, 'PUT', `${BASE}/3`, { token: admin, body: {} })
    expect(missing.body).toEqual(invalidBody('name', 'is required'))
    const long = await req(t.app, 'PUT', `${BASE}/3`, { token: admin, body: { name: 'y'.repeat(101) } })
    expect(long.body).toEqual(invalidBody('name', 'must be at most 100 characters long'))
    const wrongType = await req(t.app, 'PUT', `${BASE}/3`, { token: admin, body: { name: ['Growth'] } })
    expect(wrongType.body).toEqual(invalidBody('name', 'must be a string'))
    expect(await rows()).toEqual(before)
    expect(await auditCount()).toBe(since)
  })

  test('PUT of an unknown department → 404; a bad path id → 400; no audit', async () => {
    const since = await auditCount()
    const unknown = await req(t.app, 'PUT', `${BASE}/99`, { token: admin, body: { name: 'Nobody' } })
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual(errorBody(404, 'Department 99 does not exist'))
    const bad = await req(t.app, 'PUT', `${BASE}/abc`, { token: admin, body: { name: 'Nobody' } })
    expect(bad.status).toBe(400)
    expect(bad.body).toEqual(BAD_ID)
    expect(await rows()).toHaveLength(5)
    expect(await auditCount()).toBe(since)
  })
})

describe('delete', () => {
  const employeesOf = async (id: number) => {
    const [{ n }] = await t.deps.database.db.select({ n: count() }).from(employees).where(eq(employees.departmentId, id))
    return n
  }

  test('a department an employee belongs to → 409, nothing is deleted, no audit', async () => {
    const created = await req(t.app, 'POST', '/api/v1/admin/employees', { token: admin, body: { name: 'Ann', department_id: 1 } })
    expect(created.status).toBe(201)
    expect(created.body.data.department).toEqual({ id: 1, name: 'Engineering' })
    const before = await rows()
    const since = await auditCount()

    const reply = await req(t.app, 'DELETE', `${BASE}/1`, { token: admin })
    expect(reply.status).toBe(409)
    expect(reply.body).toEqual(errorBody(409, 'Department 1 still has employees; move them to another department first'))
    const zh = await req(t.app, 'DELETE', `${BASE}/1`, { token: admin, headers: { 'accept-language': 'zh' } })
    expect(zh.body).toEqual(errorBody(409, '部门 1 下仍有员工；请先将他们调到其他部门'))
    expect(await rows()).toEqual(before)
    expect(await employeesOf(1)).toBe(1)
    expect(await auditCount()).toBe(since)
    expect((await req(t.app, 'GET', `${BASE}/1`, { token: admin })).body).toEqual(okBody(ENGINEERING))
  })

  test('once the employee has moved out, the delete succeeds and is audited', async () => {
    const moved = await req(t.app, 'PUT', '/api/v1/admin/employees/1', { token: admin, body: { department_id: null } })
    expect(moved.status).toBe(200)
    expect(moved.body.data.department_id).toBeNull()
    const since = await auditCount()

    const reply = await req(t.app, 'DELETE', `${BASE}/1`, { token: admin })
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual({ code: 200, message: 'Department deleted', data: null, timestamp: NOW })
    expect((await rows()).map(([id]) => id)).toEqual([2, 3, 4, 5])
    expect(await auditSince(since)).toEqual([audit('delete', 1, ENGINEERING, null)])
  })

  test('reading, renaming or deleting a deleted department → 404, no audit', async () => {
    const since = await auditCount()
    const read = await req(t.app, 'GET', `${BASE}/1`, { token: admin })
    expect(read.status).toBe(404)
    expect(read.body).toEqual(errorBody(404, 'Department 1 does not exist'))
    const rename = await req(t.app, 'PUT', `${BASE}/1`, { token: admin, body: { name: 'Again' } })
    expect(rename.status).toBe(404)
    expect(rename.body).toEqual(errorBody(404, 'Department 1 does not exist'))
    const again = await req(t.app, 'DELETE', `${BASE}/1`, { token: admin })
    expect(again.status).toBe(404)
    expect(again.body).toEqual(errorBody(404, 'Department 1 does not exist'))
    expect((await rows()).map(([id]) => id)).toEqual([2, 3, 4, 5])
    expect(await auditCount()).toBe(since)
  })

  test('DELETE of an unknown department → 404; a bad path id → 400; no audit', async () => {
    const since = await auditCount()
    const unknown = await req(t.app, 'DELETE', `${BASE}/99`, { token: admin })
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual(errorBody(404, 'Department 99 does not exist'))
    for (const id of ['0', 'abc']) {
      const bad = await req(t.app, 'DELETE', `${BASE}/${id}`, { token: admin })
      expect(bad.status).toBe(400)
      expect(bad.body).toEqual(BAD_ID)
    }
    expect(await rows()).toHaveLength(4)
    expect(await auditCount()).toBe(since)
  })

  test('a deleted name may be used again; the public list follows', async () => {
    const reply = await req(t.app, 'POST', BASE, { token: admin, body: { name: 'engineering' } })
    expect(reply.status).toBe(201)
    expect(reply.body).toEqual(okBody(department(6, 'engineering'), 'Department created'))
    const open = await req(t.app, 'GET', PUBLIC)
    expect(open.body).toEqual(
      okBody([
        { id: 2, name: 'Sales & Support' },
        { id: 3, name: '100% Growth' },
        { id: 4, name: 'Ops_Team' },
        { id: 5, name: 'Design' },
        { id: 6, name: 'engineering' },
      ]),
    )
  })
})

describe('access', () => {
  let employee: string

  beforeAll(async () => {
    const created = await req(t.app, 'POST', '/api/v1/admin/users', {
      token: admin,
      body: { username: 'worker', password: 'worker-pass-1', name: 'Worker', roles: ['employee'] },
    })
    if (created.status !== 201) throw new Error(JSON.stringify(created.body))
    employee = await login(t.app, 'worker', 'worker-pass-1')
  })

  const routes: [string, string, unknown, string][] = [
    ['GET', BASE, undefined, 'departments:read'],
    ['GET', `${BASE}/2`, undefined, 'departments:read'],
    ['POST', BASE, { name: 'Sneaky' }, 'departments:create'],
    ['PUT', `${BASE}/2`, { name: 'Renamed' }, 'departments:update'],
    ['DELETE', `${BASE}/2`, undefined, 'departments:delete'],
  ]

  for (const [method, path, body, permission] of routes)
    test(`${method} ${path} as a plain employee → 403 naming ${permission}; nothing changes`, async () => {
      const before = await rows()
      const since = await auditCount()
      const reply = await req(t.app, method, path, { token: employee, body })
      expect(reply.status).toBe(403)
      expect(reply.body).toEqual(errorBody(403, `Your roles do not grant the permission ${permission}; ask an administrator for it`))
      expect(await rows()).toEqual(before)
      expect(await auditCount()).toBe(since)
    })

  test('the permission is checked before the input: a bad body or id still gets 403', async () => {
    const cases: [string, string, unknown, string][] = [
      ['POST', BASE, { name: '' }, 'departments:create'],
      ['PUT', `${BASE}/abc`, { name: 5 }, 'departments:update'],
      ['GET', `${BASE}?page=0`, undefined, 'departments:read'],
      ['DELETE', `${BASE}/0`, undefined, 'departments:delete'],
    ]
    for (const [method, path, body, permission] of cases) {
      const reply = await req(t.app, method, path, { token: employee, body })
      expect(reply.status).toBe(403)
      expect(reply.body).toEqual(errorBody(403, `Your roles do not grant the permission ${permission}; ask an administrator for it`))
    }
  })

  test('a plain employee may read the public list', async () => {
    const reply = await req(t.app, 'GET', PUBLIC, { token: employee })
    expect(reply.status).toBe(200)
    expect(reply.body.data).toHaveLength(5)
  })

  test('no token → 401 on every admin route, even with a bad body; nothing changes', async () => {
    const before = await rows()
    const since = await auditCount()
    const cases: [string, string, unknown][] = [
      ...routes.map(([method, path, body]) => [method, path, body] as [string, string, unknown]),
      ['POST', BASE, { name: '' }],
      ['PUT', `${BASE}/abc`, { name: 5 }],
      ['GET', `${BASE}?page=0`, undefined],
    ]
    for (const [method, path, body] of cases) {
      const reply = await req(t.app, method, path, { body })
      expect(reply.status).toBe(401)
      expect(reply.headers.get('www-authenticate')).toBe('Bearer')
      expect(reply.body).toEqual(errorBody(401, 'Sign in first: send "Authorization: Bearer <access token>" from POST /api/v1/auth/login'))
    }
    expect(await rows()).toEqual(before)
    expect(await auditCount()).toBe(since)
  })

  test('a bad token → 401', async () => {
    const reply = await req(t.app, 'GET', BASE, { token: 'not-a-token' })
    expect(reply.status).toBe(401)
    expect(reply.body).toEqual(errorBody(401, 'The access token is invalid or has expired; refresh it or sign in again'))
  })
})

describe('many departments', () => {
  test('the default page holds 10; page 2 the rest', async () => {
    // 2..6 exist; add 7..13
    for (let i = 7; i <= 13; i++) {
      const reply = await req(t.app, 'POST', BASE, { token: admin, body: { name: `Team ${i}` } })
      expect(reply.status).toBe(201)
    }
    const teams = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => department(from + i, `Team ${from + i}`))
    const first = await req(t.app, 'GET', BASE, { token: admin })
    expect(first.status).toBe(200)
    expect(first.body).toEqual(
      okBody({
        departments: [
          department(2, 'Sales & Support', '2024-03-15T10:15:00.000Z'),
          GROWTH,
          OPS,
          DESIGN,
          department(6, 'engineering'),
          ...teams(7, 11),
        ],
        total: 12,
        page: 1,
        page_size: 10,
      }),
    )
    const second = await req(t.app, 'GET', `${BASE}?page=2`, { token: admin })
    expect(second.body).toEqual(okBody({ departments: teams(12, 13), total: 12, page: 2, page_size: 10 }))
  })

  test('a name of exactly 100 characters after trimming is accepted', async () => {
    const name = 'n'.repeat(100)
    const reply = await req(t.app, 'POST', BASE, { token: admin, body: { name: ` ${name}  ` } })
    expect(reply.status).toBe(201)
    expect(reply.body).toEqual(okBody(department(14, name), 'Department created'))
    expect((await rows()).at(-1)).toEqual([14, name])
  })
})
