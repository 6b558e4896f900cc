import { afterAll, beforeAll, describe, expect, onTestFinished, test } from 'bun:test'
import { asc, eq } from 'drizzle-orm'
import { auditLogs, employeeLinks, users } from '../src/db/schema'
import { errorBody, invalidBody, login, loginAdmin, makeUser, NOW, okBody, replyOf, req, startApp, tableRows, type TestApp } from './helpers'

/*
 * Issue 26, CONTRACT §23: a login for an employee who has none — POST /api/v1/admin/employees/{id}/account
 * creates one ({username, password}: 201) or links an existing account ({user_id}: 200), by the rule for
 * people (rbac/people.ts) and the own-matters rule (rbac/own-matters.ts); and the employee import takes
 * a manager by employee number (manager_employee_no), which then routes requests.
 */

let t: TestApp
let admin: string

beforeAll(async () => {
  t = await startApp()
  admin = await loginAdmin(t.app)
})
afterAll(() => t.close())

const account = (id: number, body: unknown, token = admin) => req(t.app, 'POST', `/api/v1/admin/employees/${id}/account`, { token, body })

async function ok(method: string, path: string, body?: unknown) {
  const reply = await req(t.app, method, path, { token: admin, body })
  if (reply.status !== 200 && reply.status !== 201) throw new Error(`${method} ${path}: ${JSON.stringify(reply.body)}`)
  return reply.body.data
}

async function importCsv(text: string, token = admin) {
  const form = new FormData()
  form.append('file', new File([text], 'employees.csv', { type: 'text/csv' }))
  return replyOf(
    await t.app.handle(
      new Request('http://localhost/api/v1/admin/employees/import?dry_run=false', { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } }),
    ),
  )
}

/** An employee as GET /admin/employees/:id shows it, made at the frozen time. */
const employee = (fields: { id: number; name: string } & Record<string, unknown>) => ({
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

const employeeIdOf = async (employeeNo: string) => (await ok('GET', `/api/v1/admin/employees?search=${employeeNo}`)).list[0].id as number

/** A role holding exactly `permissions`, and a user holding only it. */
async function clerk(name: string, permissions: string[]) {
  await ok('POST', '/api/v1/admin/roles', { name })
  for (const permission of permissions) await ok('POST', '/api/v1/admin/roles/permissions/add', { role_name: name, permission_name: permission })
  return makeUser(t.app, admin, name.replace(/_/g, '-'), [name])
}

const EMPLOYEE_ROLE_PERMISSIONS = ['attendance:clock', 'attendance:correct', 'attendance:view', 'leave:request', 'salaries:read_own']

describe('POST /api/v1/admin/employees/{id}/account', () => {
  test('HR creates a login for an imported employee (201, the employee as GET shows it); they sign in as that employee', async () => {
    expect((await importCsv('name,employee_no\r\nZhang Min,E-7\r\n')).status).toBe(200)
    const id = await employeeIdOf('E-7')
    const before = await ok('GET', `/api/v1/admin/employees/${id}`)
    expect(before.user_id).toBeNull()

    t.clock.advance(60_000)
    onTestFinished(() => t.clock.set(NOW))
    const reply = await account(id, { username: 'zhang.min', password: 'first-password-2024' })
    const [user] = await t.deps.database.db.select().from(users).where(eq(users.username, 'zhang.min'))
    const later = new Date(Date.parse(NOW) + 60_000).toISOString()
    const shown = employee({ id, name: 'Zhang Min', employee_no: 'E-7', user_id: user.id, updated_at: later })
    expect({ status: reply.status, body: reply.body }).toEqual({ status: 201, body: { ...okBody(shown, 'Account created'), timestamp: later } })
    expect((await req(t.app, 'GET', `/api/v1/admin/employees/${id}`, { token: admin })).body.data).toEqual(shown)
    // the caller made the account: choosing it as a decider is the caller's own steering (CONTRACT §15)
    expect({ name: user.name, createdBy: user.createdBy, status: user.status }).toEqual({ name: 'Zhang Min', createdBy: 1, status: 1 })

    const token = await login(t.app, 'zhang.min', 'first-password-2024')
    const me = await req(t.app, 'GET', '/api/v1/auth/me', { token })
    expect(me.body.data.roles).toEqual(['employee'])
    expect(me.body.data.employee).toEqual({ id, employee_no: 'E-7', name: 'Zhang Min', department_id: null, company_id: null, position: null, status: 1 })
    expect((await req(t.app, 'GET', '/api/v1/attendance/today', { token })).status).toBe(200)

    const links = await t.deps.database.db.select().from(employeeLinks).where(eq(employeeLinks.employeeId, id))
    expect(links.map((link) => ({ userId: link.userId, linkedAt: link.linkedAt.toISOString(), unlinkedAt: link.unlinkedAt }))).toEqual([
      { userId: user.id, linkedAt: later, unlinkedAt: null },
    ])
    const audit = await t.deps.database.db.select().from(auditLogs).where(eq(auditLogs.createdAt, new Date(later))).orderBy(asc(auditLogs.id))
    expect(audit.map((entry) => [entry.action, entry.resource, String(entry.resourceId), entry.actorId])).toEqual([
      ['role.assign', 'user', String(user.id), 1],
      ['employee.account', 'employee', String(id), 1],
      ['auth.login', 'user', String(user.id), user.id],
    ])
    expect(audit[1].before).toEqual({ ...shown, user_id: null, updated_at: NOW })
    expect(audit[1].after).toEqual(shown)
  })

  test('links an existing account (200) and gives it role employee; the account signs in as the employee', async () => {
    const plain = await makeUser(t.app, admin, 'li.na')
    const record = await ok('POST', '/api/v1/admin/employees', { name: 'Li Na', employee_no: 'E-8' })
    const reply = await account(record.id, { user_id: plain.id })
    expect({ status: reply.status, body: reply.body }).toEqual({
      status: 200,
      body: okBody(employee({ id: record.id, name: 'Li Na', employee_no: 'E-8', user_id: plain.id }), 'Account linked'),
    })
    const me = await req(t.app, 'GET', '/api/v1/auth/me', { token: await login(t.app, 'li.na', 'li.na-password-1') })
    expect([me.body.data.roles, me.body.data.employee.id]).toEqual([['employee'], record.id])
  })

  test('an employee who already has a login → 409, whichever way; nothing changes', async () => {
    const record = await ok('POST', '/api/v1/admin/employees', { name: 'Wang Fang', username: 'wang.fang', password: 'wang-password-1' })
    const spare = await makeUser(t.app, admin, 'spare-account')
    const before = await tableRows(t)
    // the account by its username, as people know it, not its id
    const message = `Employee ${record.id} (Wang Fang) already has the account "wang.fang"; to give them another, unlink it first (PUT /api/v1/admin/employees/${record.id} with user_id null)`
    expect((await account(record.id, { username: 'wang.two', password: 'wang-password-2' })).body).toEqual(errorBody(409, message))
    expect((await account(record.id, { user_id: spare.id })).body).toEqual(errorBody(409, message))
    expect(await tableRows(t)).toEqual(before)
  })

  test('a username taken, or an account linked to another employee → 409; an unknown employee 404, an unknown user 400', async () => {
    const record = await ok('POST', '/api/v1/admin/employees', { name: 'Chen Jie' })
    const linked = (await t.deps.database.db.select().from(users).where(eq(users.username, 'zhang.min')))[0]
    const before = await tableRows(t)
    expect((await account(record.id, { username: 'ZHANG.MIN', password: 'another-password-1' })).body).toEqual(
      errorBody(409, 'The username "ZHANG.MIN" is already taken (usernames are unique ignoring case)'),
    )
    expect((await account(record.id, { user_id: linked.id })).body).toEqual(errorBody(409, `User ${linked.id} is already linked to another employee`))
    expect((await account(9999, { user_id: linked.id })).body).toEqual(errorBody(404, 'Employee 9999 does not exist'))
    expect((await account(record.id, { user_id: 9999 })).body).toEqual(
      errorBody(400, 'user_id: user 9999 does not exist', { errors: [{ field: 'user_id', message: 'user 9999 does not exist' }] }),
    )
    expect(await tableRows(t)).toEqual(before)
  })

  test('the body: username and password, or user_id — not neither, not both, not half', async () => {
    const record = await ok('POST', '/api/v1/admin/employees', { name: 'Body Check' })
    expect((await account(record.id, {})).body).toEqual(
      errorBody(400, 'Send username and password to create an account for the employee, or user_id to link an existing one', {
        errors: [{ field: 'username', message: 'is required, or user_id' }],
      }),
    )
    expect((await account(record.id, { username: 'half.only' })).body).toEqual(
      errorBody(400, 'Send username and password together to create a linked account', { errors: [{ field: 'password', message: 'is required with the other' }] }),
    )
    expect((await account(record.id, { username: 'both.ways', password: 'both-password-1', user_id: 1 })).body).toEqual(
      errorBody(400, 'Send either user_id (link an existing user) or username and password (create one), not both', {
        errors: [{ field: 'user_id', message: 'conflicts with username' }],
      }),
    )
    expect((await account(record.id, { username: 'short.pw', password: 'short' })).body).toEqual(invalidBody('password', 'must be at least 8 characters long'))
  })
})

describe('PUT /api/v1/auth/password for the new login (CONTRACT §2, §23)', () => {
  test('ends the other sessions — their access and refresh tokens — and returns a pair that keeps this one signed in', async () => {
    const signIn = (password: string) => req(t.app, 'POST', '/api/v1/auth/login', { body: { username: 'zhang.min', password } })
    const phone = (await signIn('first-password-2024')).body.data
    const laptop = (await signIn('first-password-2024')).body.data
    const changed = await req(t.app, 'PUT', '/api/v1/auth/password', {
      token: laptop.access_token,
      body: { old_password: 'first-password-2024', new_password: 'my-own-password-2024' },
    })
    expect(changed.status).toBe(200)
    expect(changed.body.message).toBe('Password changed; other sessions were signed out')
    expect(Object.keys(changed.body.data).sort()).toEqual(['access_token', 'expires_in', 'refresh_token', 'token_type', 'user'])
    expect((await req(t.app, 'GET', '/api/v1/auth/me', { token: changed.body.data.access_token })).body.data.user.username).toBe('zhang.min')
    expect((await req(t.app, 'POST', '/api/v1/auth/refresh', { body: { refresh_token: changed.body.data.refresh_token } })).status).toBe(200)
    for (const old of [phone, laptop]) {
      expect((await req(t.app, 'GET', '/api/v1/auth/me', { token: old.access_token })).status).toBe(401)
      expect((await req(t.app, 'POST', '/api/v1/auth/refresh', { body: { refresh_token: old.refresh_token } })).status).toBe(401)
    }
    expect((await signIn('first-password-2024')).status).toBe(401)
    expect((await signIn('my-own-password-2024')).status).toBe(200)
  })
})

describe('the rule for people on the account route', () => {
  const INVOLVES = (what: string, lacking: string[]) => `You cannot ${what}: it involves ${lacking.join(', ')}, which your own roles do not grant`

  test('a clerk without role employee’s permissions cannot create a login; one without salaries:read and attendance_records:read cannot give an existing record one', async () => {
    const record = await ok('POST', '/api/v1/admin/employees', { name: 'Guarded Record' })
    const bare = await clerk('account_bare', ['employees:update'])
    const half = await clerk('account_half', ['employees:update', ...EMPLOYEE_ROLE_PERMISSIONS])
    const before = await tableRows(t)
    expect((await account(record.id, { username: 'guarded.one', password: 'guarded-password-1' }, bare.token)).body).toEqual(
      errorBody(403, INVOLVES('give a new account role employee', EMPLOYEE_ROLE_PERMISSIONS)),
    )
    // the new account would read the record's salaries and attendance, with a password the clerk knows
    expect((await account(record.id, { username: 'guarded.one', password: 'guarded-password-1' }, half.token)).body).toEqual(
      errorBody(403, INVOLVES('link a new account "guarded.one" to an employee record', ['attendance_records:read', 'salaries:read'])),
    )
    expect(await tableRows(t)).toEqual(before)

    // an account that holds more than the clerk: everything it holds is involved
    const admin2 = await makeUser(t.app, admin, 'admin-two', ['admin'])
    const catalogue = ((await ok('GET', '/api/v1/admin/permissions?page_size=100')).list as { name: string }[]).map((p) => p.name).sort()
    const beforeAdmin = await tableRows(t)
    expect((await account(record.id, { user_id: admin2.id }, half.token)).body).toEqual(
      errorBody(403, INVOLVES('link user "admin-two" to an employee record', catalogue.filter((name) => !['employees:update', ...EMPLOYEE_ROLE_PERMISSIONS].includes(name)))),
    )
    expect(await tableRows(t)).toEqual(beforeAdmin)
  })

  test('a clerk holding all that is needed creates the login; the account is theirs, so making it a manager needs approvals:manage', async () => {
    const record = await ok('POST', '/api/v1/admin/employees', { name: 'Puppet Manager' })
    const report = await ok('POST', '/api/v1/admin/employees', { name: 'Their Report' })
    const hr = await clerk('account_full', ['employees:update', 'salaries:read', 'attendance_records:read', ...EMPLOYEE_ROLE_PERMISSIONS])
    const made = await account(record.id, { username: 'puppet.manager', password: 'puppet-password-1' }, hr.token)
    expect(made.status).toBe(201)
    const [user] = await t.deps.database.db.select().from(users).where(eq(users.username, 'puppet.manager'))
    expect(user.createdBy).toBe(hr.id)
    expect((await req(t.app, 'PUT', `/api/v1/admin/employees/${report.id}`, { token: hr.token, body: { manager_id: record.id } })).body).toEqual(
      errorBody(
        403,
        'You cannot make employee Puppet Manager a manager: their account "puppet.manager" was created by you in the last 30 days, and choosing who decides requests through an account of your own making needs approvals:manage',
      ),
    )
  })

  test('linking one’s own account to another record is refused as through PUT', async () => {
    const hr = await clerk('account_self', ['employees:update', 'employees:create', 'salaries:read', 'attendance_records:read', ...EMPLOYEE_ROLE_PERMISSIONS])
    await ok('POST', '/api/v1/admin/employees', { name: 'Clerk Self', user_id: hr.id })
    const token = await login(t.app, 'account-self', 'account-self-password-1')
    const spare = await ok('POST', '/api/v1/admin/employees', { name: 'Spare Record' })
    const before = await tableRows(t)
    expect((await account(spare.id, { user_id: hr.id }, token)).body).toEqual(
      errorBody(403, 'You cannot move your own account to another employee record: that changes whose requests are your own; ask another administrator'),
    )
    expect(await tableRows(t)).toEqual(before)
  })
})

describe('the import takes a manager by employee number', () => {
  test('a manager in the file or among existing employees; the report’s leave request then goes to that manager', async () => {
    const existing = await ok('POST', '/api/v1/admin/employees', { name: 'Existing Boss', employee_no: 'B-1', username: 'existing.boss', password: 'boss-password-1' })
    const company = await ok('POST', '/api/v1/admin/companies', { name: 'Routing Co', timezone: 'Asia/Shanghai' })
    const groupBoss = await ok('POST', '/api/v1/admin/employees', { name: 'Group Boss' })
    const group = await ok('POST', '/api/v1/admin/attendance/groups', { name: 'Routing floor', company_id: company.id, manager_id: groupBoss.id })
    await ok('POST', '/api/v1/admin/attendance/rules', {
      name: 'Weekdays',
      group_id: group.id,
      work_start_time: '09:00',
      work_end_time: '18:00',
      required_work_hours: 8,
      work_days: '1,2,3,4,5',
    })
    const imported = await importCsv(
      [
        'name,employee_no,manager_employee_no,username,password',
        'Report One,R-1,T-1,report.one,report-password-1',
        'Team Lead,T-1,B-1,,',
        'Report Two,R-2,B-1,report.two,report-password-2',
        '',
      ].join('\r\n'),
    )
    expect(imported.body).toEqual(okBody({ created: 3, errors: [] }, '3 employees imported'))
    const [one, lead, two] = [await employeeIdOf('R-1'), await employeeIdOf('T-1'), await employeeIdOf('R-2')]
    expect((await ok('GET', `/api/v1/admin/employees/${one}`)).manager_id).toBe(lead)
    expect((await ok('GET', `/api/v1/admin/employees/${lead}`)).manager_id).toBe(existing.id)
    expect((await ok('GET', `/api/v1/admin/employees/${two}`)).manager_id).toBe(existing.id)
    const created = await t.deps.database.db.select().from(auditLogs).where(eq(auditLogs.resourceId, String(one)))
    expect(created.find((entry) => entry.action === 'employee.create')?.after).toMatchObject({ manager_id: lead })

    await ok('POST', `/api/v1/admin/attendance/groups/${group.id}/employees`, { employee_ids: [one, two] })
    const type = await ok('POST', '/api/v1/admin/leave/types', { name: 'Personal', requires_balance: false })
    const ask = async (username: string, password: string) =>
      req(t.app, 'POST', '/api/v1/leave/requests', {
        token: await login(t.app, username, password),
        body: { type_id: type.id, start_date: '2024-03-18', end_date: '2024-03-18' },
      })
    expect((await ask('report.one', 'report-password-1')).body.data.approver).toEqual({ id: lead, name: 'Team Lead' })
    expect((await ask('report.two', 'report-password-2')).body.data.approver).toEqual({ id: existing.id, name: 'Existing Boss' })
  })

  test('unknown numbers, both columns, oneself and cycles are row errors; nothing is imported', async () => {
    const before = await tableRows(t)
    const reply = await importCsv(
      [
        'name,employee_no,manager_id,manager_employee_no',
        'Nobody’s Report,N-1,,NO-SUCH',
        'Both Ways,N-2,1,B-1',
        'Own Boss,N-3,,N-3',
        'Loop A,L-A,,L-B',
        'Loop B,L-B,,L-C',
        'Loop C,L-C,,L-A',
        'Under Loop,L-D,,L-A',
        '',
      ].join('\r\n'),
    )
    const problems = [
      { row: 2, field: 'manager_employee_no', message: 'no employee has the number "NO-SUCH", in the file or among existing employees' },
      { row: 3, field: 'manager_employee_no', message: 'give the manager either by manager_id or by manager_employee_no, not both' },
      { row: 4, field: 'manager_employee_no', message: 'is this row’s own employee_no: an employee cannot be their own manager' },
      { row: 5, field: 'manager_employee_no', message: 'makes a cycle of managers: rows 5 → 6 → 7 → 5' },
      { row: 6, field: 'manager_employee_no', message: 'makes a cycle of managers: rows 6 → 7 → 5 → 6' },
      { row: 7, field: 'manager_employee_no', message: 'makes a cycle of managers: rows 7 → 5 → 6 → 7' },
    ]
    expect(reply.body).toEqual(
      errorBody(400, `The file has 6 problems in 6 rows; nothing was imported. Row 2, manager_employee_no: ${problems[0].message}`, { errors: problems }),
    )
    expect(await tableRows(t)).toEqual(before)
  })

  test('the own-matters rule applies to the resolved manager: oneself, an account one made lately, or one the file makes', async () => {
    const hr = await clerk('import_clerk', ['employees:create', ...EMPLOYEE_ROLE_PERMISSIONS])
    const own = await ok('POST', '/api/v1/admin/employees', { name: 'Import Clerk', employee_no: 'IC-1', user_id: hr.id })
    const token = await login(t.app, 'import-clerk', 'import-clerk-password-1')
    const before = await tableRows(t)
    expect((await importCsv('name,manager_employee_no\r\nMy Report,IC-1\r\n', token)).body).toEqual(
      errorBody(403, 'You cannot make yourself the manager of an employee: that would let you decide their requests, which needs approvals:manage'),
    )
    expect(
      (await importCsv('name,employee_no,manager_employee_no,username,password\r\nNew Lead,NL-1,,new.lead,new-lead-password-1\r\nTheir Report,NR-1,NL-1,,\r\n', token)).body,
    ).toEqual(
      errorBody(
        403,
        'You cannot make the employee of row 2 (NL-1) a manager: their account "new.lead" is being created by you, and choosing who decides requests through an account of your own making needs approvals:manage',
      ),
    )
    expect(await tableRows(t)).toEqual(before)
    expect(own.employee_no).toBe('IC-1')
    // a manager in the file without an account is no one's puppet
    expect((await importCsv('name,employee_no,manager_employee_no\r\nPlain Lead,PL-1,\r\nPlain Report,PR-1,PL-1\r\n', token)).status).toBe(200)
  })
})
