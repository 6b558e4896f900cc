import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { asc, count, eq } from 'drizzle-orm'
import { departments, employees, permissions, rolePermissions, roles, userRoles, users } from '../src/db/schema'
import { errorBody, login, loginAdmin, NOW, okBody, req, startApp, type TestApp, BAD_ID, invalidBody } from './helpers'

const BASE = '/api/v1/admin/employees'

let t: TestApp
let admin: string

beforeAll(async () => {
  t = await startApp()
  admin = await loginAdmin(t.app)
  const at = new Date(NOW)
  // departments have no endpoints yet
  await t.deps.database.db.insert(departments).values([
    { name: 'Engineering', createdAt: at, updatedAt: at },
    { name: 'Sales', createdAt: at, updatedAt: at },
  ])
  for (const name of ['Acme', 'Globex']) {
    const reply = await req(t.app, 'POST', '/api/v1/admin/companies', { token: admin, body: { name } })
    if (reply.status !== 201) throw new Error(JSON.stringify(reply.body))
  }
})

afterAll(() => t.close())

type Fields = { id: number; name: string } & Record<string, unknown>

/** An employee as the API shows it, stamped at the frozen time. */
const employee = (fields: Fields) => ({
  employee_no: null,
  phone: null,
  email: null,
  department_id: null,
  department: null,
  company_id: null,
  position: null,
  hire_date: null,
  left_on: null,
  work_start_date: null,
  status: 1,
  user_id: null,
  attendance_group_id: null,
  manager_id: null,
  created_at: NOW,
  updated_at: NOW,
  ...fields,
})

const ENGINEERING = { id: 1, name: 'Engineering' }
const SALES = { id: 2, name: 'Sales' }

const ANN = employee({ id: 1, name: 'Ann Lee' })
const BEN = employee({
  id: 2,
  name: 'Ben Wu',
  employee_no: 'E-002',
  phone: '+86 139 0000 0002',
  email: 'ben@acme.test',
  department_id: 1,
  department: ENGINEERING,
  company_id: 1,
  position: 'Engineer',
  hire_date: '2023-07-01',
  status: 0,
})
const CARA = employee({ id: 3, name: 'Cara Chen', employee_no: 'E-003', department_id: 2, department: SALES, company_id: 1, user_id: 2 })
const ERIN = employee({ id: 4, name: 'Erin Park', user_id: 3 })

const counts = async () => ({
  employees: (await t.deps.database.db.select({ n: count() }).from(employees))[0].n,
  users: (await t.deps.database.db.select({ n: count() }).from(users))[0].n,
})

/** Every employee row, to show that a failed request changed nothing. */
const employeeRows = () => t.deps.database.db.select().from(employees).orderBy(asc(employees.id))

const rolesOf = async (userId: number) =>
  (
    await t.deps.database.db
      .select({ name: roles.name })
      .from(userRoles)
      .innerJoin(roles, eq(roles.id, userRoles.roleId))
      .where(eq(userRoles.userId, userId))
      .orderBy(roles.name)
  ).map((row) => row.name)

const createUser = async (username: string, name: string) => {
  const reply = await req(t.app, 'POST', '/api/v1/admin/users', { token: admin, body: { username, password: `${username}-pass-1`, name } })
  if (reply.status !== 201) throw new Error(JSON.stringify(reply.body))
  return reply.body.data.id as number
}


let cara: string

describe('create', () => {
  test('POST with only a name → 201, body code 200, every other field null', async () => {
    const reply = await req(t.app, 'POST', BASE, { token: admin, body: { name: '  Ann Lee ' } })
    expect(reply.status).toBe(201)
    expect(reply.body).toEqual(okBody(ANN, 'Employee created'))
  })

  test('POST with every field; the department comes with its name', async () => {
    const reply = await req(t.app, 'POST', BASE, {
      token: admin,
      body: {
        name: 'Ben Wu',
        employee_no: 'E-002',
        phone: '+86 139 0000 0002',
        email: 'ben@acme.test',
        department_id: 1,
        company_id: 1,
        position: ' Engineer ',
        hire_date: '2023-07-01',
        status: 0,
      },
    })
    expect(reply.status).toBe(201)
    expect(reply.body).toEqual(okBody(BEN, 'Employee created'))
  })

  test('username + password also creates a user with role employee, who can sign in and see the employee', async () => {
    const reply = await req(t.app, 'POST', BASE, {
      token: admin,
      body: { name: 'Cara Chen', employee_no: 'E-003', department_id: 2, company_id: 1, username: 'cara', password: 'cara-pass-1' },
    })
    expect(reply.status).toBe(201)
    expect(reply.body).toEqual(okBody(CARA, 'Employee created'))

    const account = {
      id: 2,
      username: 'cara',
      name: 'Cara Chen',
      phone: null,
      email: null,
      avatar: null,
      status: 1,
      roles: ['employee'],
      created_at: NOW,
      updated_at: NOW,
    }
    const asAdmin = await req(t.app, 'GET', '/api/v1/admin/users/2', { token: admin })
    expect(asAdmin.body).toEqual(okBody(account))

    cara = await login(t.app, 'cara', 'cara-pass-1')
    const me = await req(t.app, 'GET', '/api/v1/auth/me', { token: cara })
    expect(me.status).toBe(200)
    expect(me.body).toEqual(
      okBody({
        user: account,
        roles: ['employee'],
        permissions: ['attendance:clock', 'attendance:correct', 'attendance:view', 'leave:request', 'salaries:read_own'],
        employee: { id: 3, employee_no: 'E-003', name: 'Cara Chen', department_id: 2, company_id: 1, position: null, status: 1 },
      }),
    )
  })

  test('a username taken ignoring case → 409; no employee and no user is created', async () => {
    const reply = await req(t.app, 'POST', BASE, {
      token: admin,
      body: { name: 'Cara Two', employee_no: 'E-099', username: 'CARA', password: 'other-pass-1' },
    })
    expect(reply.status).toBe(409)
    expect(reply.body).toEqual(errorBody(409, 'The username "CARA" is already taken (usernames are unique ignoring case)'))
    expect(await counts()).toEqual({ employees: 3, users: 2 })
  })

  test('when the employee cannot be stored, the user made with it is rolled back too', async () => {
    const reply = await req(t.app, 'POST', BASE, {
      token: admin,
      body: { name: 'Dan Fox', employee_no: 'E-003', username: 'dan', password: 'dan-pass-12' },
    })
    expect(reply.status).toBe(409)
    expect(reply.body).toEqual(errorBody(409, 'Employee number "E-003" is already in use'))
    expect(await counts()).toEqual({ employees: 3, users: 2 })
    expect(await t.deps.database.db.select().from(users).where(eq(users.username, 'dan'))).toEqual([])
  })

  test('user_id links an existing user and gives them role employee', async () => {
    expect(await createUser('erin', 'Erin P.')).toBe(3)
    expect(await rolesOf(3)).toEqual([])

    const reply = await req(t.app, 'POST', BASE, { token: admin, body: { name: 'Erin Park', user_id: 3 } })
    expect(reply.status).toBe(201)
    expect(reply.body).toEqual(okBody(ERIN, 'Employee created'))
    expect(await rolesOf(3)).toEqual(['employee'])
  })

  test('a user already linked to another employee → 409, nothing added', async () => {
    for (const userId of [2, 3]) {
      const reply = await req(t.app, 'POST', BASE, { token: admin, body: { name: 'Copy', user_id: userId } })
      expect(reply.status).toBe(409)
      expect(reply.body).toEqual(errorBody(409, `User ${userId} is already linked to another employee`))
    }
    expect(await counts()).toEqual({ employees: 4, users: 3 })
  })

  test('a duplicate employee_no → 409', async () => {
    const reply = await req(t.app, 'POST', BASE, { token: admin, body: { name: 'Ben Two', employee_no: 'E-002' } })
    expect(reply.status).toBe(409)
    expect(reply.body).toEqual(errorBody(409, 'Employee number "E-002" is already in use'))
    const zh = await req(t.app, 'POST', BASE, { token: admin, headers: { 'accept-language': 'zh' }, body: { name: 'Ben Two', employee_no: 'E-002' } })
    expect(zh.body).toEqual(errorBody(409, '工号“E-002”已被使用'))
    expect(await counts()).toEqual({ employees: 4, users: 3 })
  })

  test('unknown department, company or user → 400 naming each; nothing added', async () => {
    const all = await req(t.app, 'POST', BASE, {
      token: admin,
      body: { name: 'Ghost', department_id: 99, company_id: 98, user_id: 97 },
    })
    expect(all.status).toBe(400)
    expect(all.body).toEqual(
      errorBody(400, 'department_id: department 99 does not exist; company_id: company 98 does not exist; user_id: user 97 does not exist', {
        errors: [
          { field: 'department_id', message: 'department 99 does not exist' },
          { field: 'company_id', message: 'company 98 does not exist' },
          { field: 'user_id', message: 'user 97 does not exist' },
        ],
      }),
    )
    const inChinese = await req(t.app, 'POST', BASE, {
      token: admin,
      headers: { 'accept-language': 'zh' },
      body: { name: 'Ghost', department_id: 99, company_id: 98, user_id: 97 },
    })
    expect(inChinese.body).toEqual(
      errorBody(400, 'department_id 字段：部门 99 不存在；company_id 字段：公司 98 不存在；user_id 字段：账号 97 不存在', {
        errors: [
          { field: 'department_id', message: '部门 99 不存在' },
          { field: 'company_id', message: '公司 98 不存在' },
          { field: 'user_id', message: '账号 97 不存在' },
        ],
      }),
    )
    const company = await req(t.app, 'POST', BASE, { token: admin, body: { name: 'Ghost', department_id: 1, company_id: 3 } })
    expect(company.body).toEqual(
      errorBody(400, 'company_id: company 3 does not exist', { errors: [{ field: 'company_id', message: 'company 3 does not exist' }] }),
    )
    const department = await req(t.app, 'POST', BASE, {
      token: admin,
      body: { name: 'Ghost', department_id: 3, username: 'ghost', password: 'ghost-pass-1' },
    })
    expect(department.body).toEqual(
      errorBody(400, 'department_id: department 3 does not exist', {
        errors: [{ field: 'department_id', message: 'department 3 does not exist' }],
      }),
    )
    expect(await counts()).toEqual({ employees: 4, users: 3 })
  })

  test('username without password, password without username, or both with user_id → 400', async () => {
    const noPassword = await req(t.app, 'POST', BASE, { token: admin, body: { name: 'Half', username: 'half' } })
    expect(noPassword.body).toEqual(
      errorBody(400, 'Send username and password together to create a linked account', {
        errors: [{ field: 'password', message: 'is required with the other' }],
      }),
    )
    const noUsername = await req(t.app, 'POST', BASE, { token: admin, body: { name: 'Half', password: 'half-pass-1' } })
    expect(noUsername.body).toEqual(
      errorBody(400, 'Send username and password together to create a linked account', {
        errors: [{ field: 'username', message: 'is required with the other' }],
      }),
    )
    const both = await req(t.app, 'POST', BASE, {
      token: admin,
      body: { name: 'Both', user_id: 3, username: 'both', password: 'both-pass-1' },
    })
    expect(both.body).toEqual(
      errorBody(400, 'Send either user_id (link an existing user) or username and password (create one), not both', {
        errors: [{ field: 'user_id', message: 'conflicts with username' }],
      }),
    )
    expect(await counts()).toEqual({ employees: 4, users: 3 })
  })

  test('a blank name → 400, also with an account: no user is created', async () => {
    for (const body of [{ name: '   ' }, { name: ' ', username: 'blank', password: 'blank-pass-1' }]) {
      const reply = await req(t.app, 'POST', BASE, { token: admin, body })
      expect(reply.status).toBe(400)
      expect(reply.body).toEqual(errorBody(400, 'name must not be blank', { errors: [{ field: 'name', message: 'must not be blank' }] }))
    }
    expect(await counts()).toEqual({ employees: 4, users: 3 })
  })

  test('a hire_date that is not a real date → 400', async () => {
    const reply = await req(t.app, 'POST', BASE, { token: admin, body: { name: 'Leap', hire_date: '2023-02-29' } })
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual(
      errorBody(400, 'hire_date "2023-02-29" is not a real date (YYYY-MM-DD)', {
        errors: [{ field: 'hire_date', message: 'is not a real date' }],
      }),
    )
    expect(await counts()).toEqual({ employees: 4, users: 3 })
  })

  const badBodies: [string, unknown, string, { field: string; message: string }[]][] = [
    ['an empty body', {}, 'name is required', [{ field: 'name', message: 'is required' }]],
    ['a name of the wrong type', { name: 12 }, 'name must be a string', [{ field: 'name', message: 'must be a string' }]],
    [
      'an empty name',
      { name: '' },
      'name must be at least 1 character long',
      [{ field: 'name', message: 'must be at least 1 character long' }],
    ],
    ['department_id as text', { name: 'X', department_id: 'x' }, 'department_id must be a positive whole number', [
      { field: 'department_id', message: 'must be a positive whole number' },
    ]],
    ['department_id 0', { name: 'X', department_id: 0 }, 'department_id must be a positive whole number', [
      { field: 'department_id', message: 'must be a positive whole number' },
    ]],
    ['company_id 1.5', { name: 'X', company_id: 1.5 }, 'company_id must be a positive whole number', [
      { field: 'company_id', message: 'must be a positive whole number' },
    ]],
    ['status 2', { name: 'X', status: 2 }, 'status must be 0 or 1', [{ field: 'status', message: 'must be 0 or 1' }]],
    ['hire_date in another format', { name: 'X', hire_date: '01/02/2024' }, 'hire_date must be a date written YYYY-MM-DD', [
      { field: 'hire_date', message: 'must be a date written YYYY-MM-DD' },
    ]],
    ['an e-mail that is not one', { name: 'X', email: 'nope' }, 'email must be an e-mail address of at most 254 characters', [
      { field: 'email', message: 'must be an e-mail address of at most 254 characters' },
    ]],
    [
      'a password under 8 characters',
      { name: 'X', username: 'shorty', password: 'short' },
      'password must be at least 8 characters long',
      [{ field: 'password', message: 'must be at least 8 characters long' }],
    ],
  ]
  for (const [what, body, message, errors] of badBodies)
    test(`POST with ${what} → 400 naming ${errors[0].field}`, async () => {
      const reply = await req(t.app, 'POST', BASE, { token: admin, body })
      expect(reply.status).toBe(400)
      expect(reply.body).toEqual(errorBody(400, `Invalid request: ${message}`, { errors }))
      expect(await counts()).toEqual({ employees: 4, users: 3 })
    })
})

describe('read and list', () => {
  test('GET :id reads one employee', async () => {
    const reply = await req(t.app, 'GET', `${BASE}/2`, { token: admin })
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual(okBody(BEN))
  })

  test('GET :id of an unknown employee → 404; a bad path id → 400', async () => {
    const unknown = await req(t.app, 'GET', `${BASE}/77`, { token: admin })
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual(errorBody(404, 'Employee 77 does not exist'))
    expect((await req(t.app, 'GET', `${BASE}/77`, { token: admin, headers: { 'accept-language': 'zh' } })).body).toEqual(errorBody(404, '员工 77 不存在'))
    for (const id of ['abc', '0']) {
      const bad = await req(t.app, 'GET', `${BASE}/${id}`, { token: admin })
      expect(bad.status).toBe(400)
      expect(bad.body).toEqual(BAD_ID)
    }
  })

  test('the list is style P1 in id order', async () => {
    const reply = await req(t.app, 'GET', BASE, { token: admin })
    expect(reply.body).toEqual(okBody({ list: [ANN, BEN, CARA, ERIN], total: 4, page: 1, page_size: 10 }))
  })

  test('filters: search, department_id, company_id, status, and their combination', async () => {
    const cases: [string, unknown[]][] = [
      ['search=ANN', [ANN]],
      ['search=e-00', [BEN, CARA]],
      ['search=acme.test', [BEN]],
      ['search=0000%200002', [BEN]],
      ['search=%25', []],
      ['department_id=1', [BEN]],
      ['department_id=2', [CARA]],
      ['department_id=9', []],
      ['company_id=1', [BEN, CARA]],
      ['company_id=2', []],
      ['status=0', [BEN]],
      ['status=1', [ANN, CARA, ERIN]],
      ['status=1&company_id=1', [CARA]],
      ['search=e&department_id=1&status=0', [BEN]],
    ]
    for (const [query, list] of cases) {
      const reply = await req(t.app, 'GET', `${BASE}?${query}`, { token: admin })
      expect({ query, body: reply.body }).toEqual({ query, body: okBody({ list, total: list.length, page: 1, page_size: 10 }) })
    }
  })

  test('page and page_size choose a window; above 100 is cut to 100', async () => {
    const second = await req(t.app, 'GET', `${BASE}?page=2&page_size=3`, { token: admin })
    expect(second.body).toEqual(okBody({ list: [ERIN], total: 4, page: 2, page_size: 3 }))
    const big = await req(t.app, 'GET', `${BASE}?page_size=500`, { token: admin })
    expect(big.body).toEqual(okBody({ list: [ANN, BEN, CARA, ERIN], total: 4, page: 1, page_size: 100 }))
  })

  const badQueries: [string, string, string][] = [
    ['page=0', 'page', 'must be a whole number of at least 1'],
    ['page_size=0', 'page_size', 'must be a whole number of at least 1'],
    ['department_id=abc', 'department_id', 'must be a positive whole number'],
    ['company_id=0', 'company_id', 'must be a positive whole number'],
    ['status=5', 'status', 'must be 0 or 1'],
  ]
  for (const [query, field, message] of badQueries)
    test(`${query} → 400 naming ${field}`, async () => {
      const reply = await req(t.app, 'GET', `${BASE}?${query}`, { token: admin })
      expect(reply.status).toBe(400)
      expect(reply.body).toEqual(invalidBody(field, message))
    })
})

describe('update', () => {
  const ANN_UPDATED = employee({
    id: 1,
    name: 'Ann Lee-Smith',
    phone: '123-456',
    email: 'ann@globex.test',
    company_id: 2,
    hire_date: '2024-01-15',
    status: 0,
  })

  test('PUT changes the fields sent; the department name follows; updated_at moves with the clock', async () => {
    const later = '2024-03-15T11:00:00.000Z'
    t.clock.set(later)
    try {
      const reply = await req(t.app, 'PUT', `${BASE}/1`, {
        token: admin,
        body: {
          employee_no: 'E-001',
          phone: '123-456',
          email: 'ann@globex.test',
          department_id: 2,
          company_id: 2,
          position: 'Sales rep',
          hire_date: '2024-01-15',
        },
      })
      expect(reply.status).toBe(200)
      expect(reply.body).toEqual({
        code: 200,
        message: 'Employee updated',
        data: employee({
          id: 1,
          name: 'Ann Lee',
          employee_no: 'E-001',
          phone: '123-456',
          email: 'ann@globex.test',
          department_id: 2,
          department: SALES,
          company_id: 2,
          position: 'Sales rep',
          hire_date: '2024-01-15',
          updated_at: later,
        }),
        timestamp: later,
      })
    } finally {
      t.clock.set(NOW)
    }
  })

  test('null clears a field, fields not sent stay', async () => {
    const reply = await req(t.app, 'PUT', `${BASE}/1`, {
      token: admin,
      body: { department_id: null, position: null, employee_no: null, name: ' Ann Lee-Smith ', status: 0 },
    })
    expect(reply.body).toEqual(okBody(ANN_UPDATED, 'Employee updated'))
  })

  test('unknown references, a blank name, a bad date or a wrong type → 400, nothing changes', async () => {
    const before = await employeeRows()
    const refs = await req(t.app, 'PUT', `${BASE}/1`, { token: admin, body: { department_id: 5, company_id: 1, name: 'Changed' } })
    expect(refs.body).toEqual(
      errorBody(400, 'department_id: department 5 does not exist', {
        errors: [{ field: 'department_id', message: 'department 5 does not exist' }],
      }),
    )
    const user = await req(t.app, 'PUT', `${BASE}/1`, { token: admin, body: { user_id: 50 } })
    expect(user.body).toEqual(
      errorBody(400, 'user_id: user 50 does not exist', { errors: [{ field: 'user_id', message: 'user 50 does not exist' }] }),
    )
    const blank = await req(t.app, 'PUT', `${BASE}/1`, { token: admin, body: { name: '  ', position: 'Boss' } })
    expect(blank.body).toEqual(errorBody(400, 'name must not be blank', { errors: [{ field: 'name', message: 'must not be blank' }] }))
    const date = await req(t.app, 'PUT', `${BASE}/1`, { token: admin, body: { hire_date: '2024-13-01' } })
    expect(date.body).toEqual(
      errorBody(400, 'hire_date "2024-13-01" is not a real date (YYYY-MM-DD)', {
        errors: [{ field: 'hire_date', message: 'is not a real date' }],
      }),
    )
    const nullName = await req(t.app, 'PUT', `${BASE}/1`, { token: admin, body: { name: null } })
    expect(nullName.body).toEqual(
      errorBody(400, 'Invalid request: name must be a string', { errors: [{ field: 'name', message: 'must be a string' }] }),
    )
    const status = await req(t.app, 'PUT', `${BASE}/1`, { token: admin, body: { status: '1' } })
    expect(status.body).toEqual(
      errorBody(400, 'Invalid request: status must be 0 or 1', { errors: [{ field: 'status', message: 'must be 0 or 1' }] }),
    )
    expect(await employeeRows()).toEqual(before)
  })

  test('a duplicate employee_no → 409, nothing changes', async () => {
    const before = await employeeRows()
    const reply = await req(t.app, 'PUT', `${BASE}/1`, { token: admin, body: { employee_no: 'E-003', position: 'Clerk' } })
    expect(reply.status).toBe(409)
    expect(reply.body).toEqual(errorBody(409, 'Employee number "E-003" is already in use'))
    expect(await employeeRows()).toEqual(before)
  })

  test('user_id links a user and grants role employee; a failed update grants nothing', async () => {
    expect(await createUser('frank', 'Frank')).toBe(4)
    expect(await createUser('gina', 'Gina')).toBe(5)

    const linked = await req(t.app, 'PUT', `${BASE}/1`, { token: admin, body: { user_id: 4 } })
    expect(linked.body).toEqual(okBody({ ...ANN_UPDATED, user_id: 4 }, 'Employee updated'))
    expect(await rolesOf(4)).toEqual(['employee'])

    const taken = await req(t.app, 'PUT', `${BASE}/2`, { token: admin, body: { user_id: 4 } })
    expect(taken.status).toBe(409)
    expect(taken.body).toEqual(errorBody(409, 'User 4 is already linked to another employee'))

    // the duplicate employee_no fails after the role was granted inside the transaction
    const failed = await req(t.app, 'PUT', `${BASE}/2`, { token: admin, body: { user_id: 5, employee_no: 'E-003' } })
    expect(failed.body).toEqual(errorBody(409, 'Employee number "E-003" is already in use'))
    expect(await rolesOf(5)).toEqual([])
    expect((await req(t.app, 'GET', `${BASE}/2`, { token: admin })).body).toEqual(okBody(BEN))
  })

  test('deleting the linked user leaves the employee without one', async () => {
    const deleted = await req(t.app, 'DELETE', '/api/v1/admin/users/4', { token: admin })
    expect(deleted.status).toBe(200)
    const reply = await req(t.app, 'GET', `${BASE}/1`, { token: admin })
    expect(reply.body).toEqual(okBody(ANN_UPDATED))
  })

  test('PUT of an unknown employee → 404; a bad path id → 400', async () => {
    const unknown = await req(t.app, 'PUT', `${BASE}/77`, { token: admin, body: { name: 'Nobody', department_id: 99 } })
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual(errorBody(404, 'Employee 77 does not exist'))
    const bad = await req(t.app, 'PUT', `${BASE}/-4`, { token: admin, body: { name: 'Nobody' } })
    expect(bad.status).toBe(400)
    expect(bad.body).toEqual(BAD_ID)
  })
})

describe('delete', () => {
  test('DELETE removes the employee but not their user; again → 404', async () => {
    const reply = await req(t.app, 'DELETE', `${BASE}/4`, { token: admin })
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual(okBody(null, 'Employee deleted'))
    expect(await t.deps.database.db.select().from(employees).where(eq(employees.id, 4))).toEqual([])

    const read = await req(t.app, 'GET', `${BASE}/4`, { token: admin })
    expect(read.body).toEqual(errorBody(404, 'Employee 4 does not exist'))
    const again = await req(t.app, 'DELETE', `${BASE}/4`, { token: admin })
    expect(again.status).toBe(404)
    expect(again.body).toEqual(errorBody(404, 'Employee 4 does not exist'))

    const user = await req(t.app, 'GET', '/api/v1/admin/users/3', { token: admin })
    expect(user.status).toBe(200)
    expect(user.body).toEqual(
      okBody({
        id: 3,
        username: 'erin',
        name: 'Erin P.',
        phone: null,
        email: null,
        avatar: null,
        status: 1,
        roles: ['employee'],
        created_at: NOW,
        updated_at: NOW,
      }),
    )
  })

  test('DELETE with a bad path id → 400, nothing deleted', async () => {
    const reply = await req(t.app, 'DELETE', `${BASE}/abc`, { token: admin })
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual(BAD_ID)
    expect((await counts()).employees).toBe(3)
  })
})

describe('permissions', () => {
  test('role employee alone grants no administrator endpoint → 403', async () => {
    for (const [method, path, permission, body] of [
      ['GET', BASE, 'employees:read'],
      ['GET', `${BASE}/3`, 'employees:read'],
      ['POST', BASE, 'employees:create', { name: 'Sneaky' }],
      ['PUT', `${BASE}/3`, 'employees:update', { position: 'CEO' }],
      ['DELETE', `${BASE}/2`, 'employees:delete'],
    ] as [string, string, string, unknown?][]) {
      const reply = await req(t.app, method, path, { token: cara, body })
      expect(reply.status).toBe(403)
      expect(reply.body).toEqual(errorBody(403, `Your roles do not grant the permission ${permission}; ask an administrator for it`))
    }
    expect(await counts()).toEqual({ employees: 3, users: 4 })
    expect((await t.deps.database.db.select().from(employees).where(eq(employees.id, 3)))[0].position).toBeNull()
  })

  test('a role with employees:read may read but not write', async () => {
    const { db } = t.deps.database
    const at = new Date(NOW)
    const [role] = await db.insert(roles).values({ name: 'employee_reader', createdAt: at, updatedAt: at }).returning()
    const [permission] = await db.select().from(permissions).where(eq(permissions.name, 'employees:read'))
    await db.insert(rolePermissions).values({ roleId: role.id, permissionId: permission.id, createdAt: at })
    const granted = await req(t.app, 'PUT', '/api/v1/admin/users/2', { token: admin, body: { roles: ['employee', 'employee_reader'] } })
    expect(granted.body.data.roles).toEqual(['employee', 'employee_reader'])

    const list = await req(t.app, 'GET', `${BASE}?department_id=2`, { token: cara })
    expect(list.status).toBe(200)
    expect(list.body).toEqual(okBody({ list: [CARA], total: 1, page: 1, page_size: 10 }))
    const write = await req(t.app, 'DELETE', `${BASE}/3`, { token: cara })
    expect(write.status).toBe(403)
    expect(write.body).toEqual(errorBody(403, 'Your roles do not grant the permission employees:delete; ask an administrator for it'))
    expect((await counts()).employees).toBe(3)
  })

  test('no token → 401', async () => {
    const reply = await req(t.app, 'POST', BASE, { body: { name: 'Anonymous' } })
    expect(reply.status).toBe(401)
    expect(reply.headers.get('www-authenticate')).toBe('Bearer')
    expect(reply.body).toEqual(errorBody(401, 'Sign in first: send "Authorization: Bearer <access token>" from POST /api/v1/auth/login'))
    const list = await req(t.app, 'GET', BASE)
    expect(list.status).toBe(401)
    expect((await counts()).employees).toBe(3)
  })
})
