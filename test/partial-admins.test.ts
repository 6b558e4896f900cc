import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { errorBody, login, loginAdmin, makeUser, replyOf, req, startApp, tableRows, type TestApp } from './helpers'

/*
 * Issue 19: partial administrators. For every admin route that changes an account, a role, or the link
 * between an account and an employee, a role holding just that route's permission tries it against an
 * account or role that holds more than it does: 403 naming what it lacks, and nothing changes. Every
 * other changing route is listed with why it touches no one's access, so a new route must be placed.
 */

const t: TestApp = await startApp()
afterAll(() => t.close())
const admin = await loginAdmin(t.app)

const SELF = (what: string) =>
  `You cannot ${what} your own account through an administrator route; use PUT /api/v1/auth/me or PUT /api/v1/auth/password, or ask another administrator`
const ACCOUNT = (what: string, username: string, lacking: string[]) =>
  `You cannot ${what} user "${username}": that account holds ${lacking.join(', ')}, which your own roles do not grant`
const INVOLVES = (what: string, lacking: string[]) => `You cannot ${what}: it involves ${lacking.join(', ')}, which your own roles do not grant`

const EMPLOYEE_ROLE_PERMISSIONS = ['attendance:clock', 'attendance:correct', 'attendance:view', 'leave:request', 'salaries:read_own']
const PAYROLL = ['salaries:read', 'salaries:update']
/** The CEO's account: role payroll, and role employee from being linked to an employee record. */
const CEO_HOLDS = [...EMPLOYEE_ROLE_PERMISSIONS, ...PAYROLL].sort()

let catalogue: string[] = []
const ids = { admin2: 0, ceoUser: 0, ceoEmployee: 0, payrollRole: 0, plainUser: 0, loginless: 0 }

async function ok(method: string, path: string, body?: unknown) {
  const reply = await req(t.app, method, path, { token: admin, body })
  if (reply.status !== 200 && reply.status !== 201) throw new Error(`${method} ${path}: ${JSON.stringify(reply.body)}`)
  return reply.body.data
}

/** A user whose only role grants exactly `permission`; the role is made through the API. */
const clerks = new Map<string, { id: number; token: string }>()
async function clerkWith(permission: string) {
  let clerk = clerks.get(permission)
  if (!clerk) {
    const role = `only_${permission.replace(/[^a-z]/g, '_')}`
    await ok('POST', '/api/v1/admin/roles', { name: role })
    await ok('POST', '/api/v1/admin/roles/permissions/add', { role_name: role, permission_name: permission })
    clerk = await makeUser(t.app, admin, `clerk-${role.replace(/_/g, '-')}`, [role])
    clerks.set(permission, clerk)
  }
  return clerk
}

const allBut = (held: string[]) => catalogue.filter((name) => !held.includes(name))

beforeAll(async () => {
  catalogue = ((await ok('GET', '/api/v1/admin/permissions?page_size=100')).list as { name: string }[]).map((p) => p.name).sort()
  ids.admin2 = (await makeUser(t.app, admin, 'second-admin', ['admin'])).id
  await ok('POST', '/api/v1/admin/roles', { name: 'payroll' })
  for (const permission of PAYROLL) await ok('POST', '/api/v1/admin/roles/permissions/add', { role_name: 'payroll', permission_name: permission })
  ids.payrollRole = (await ok('GET', '/api/v1/admin/roles?search=payroll')).list[0].id
  const ceo = await makeUser(t.app, admin, 'the-ceo', ['payroll'])
  ids.ceoUser = ceo.id
  ids.ceoEmployee = (await ok('POST', '/api/v1/admin/employees', { name: 'The CEO', user_id: ceo.id })).id
  ids.plainUser = (await makeUser(t.app, admin, 'plain-user')).id
  ids.loginless = (await ok('POST', '/api/v1/admin/employees', { name: 'No Login Yet' })).id
  await ok('POST', '/api/v1/admin/salaries', {
    employee_id: ids.ceoEmployee,
    month: '2024-02',
    basic_salary: 88000,
  })
})

interface Attempt {
  why: string
  permission: string
  method: string
  path: () => string
  body?: (clerk: { id: number }) => unknown
  /** a multipart form instead of a JSON body */
  form?: () => FormData
  message: (clerk: { id: number }) => string
}

/** A CSV file in the multipart field "file", as the employee import takes it. */
const csvForm = (text: string) => () => {
  const form = new FormData()
  form.append('file', new File([text], 'employees.csv', { type: 'text/csv' }))
  return form
}

/** The reproductions of the issue and their relatives, each by a caller holding just the route's permission. */
const ATTEMPTS: Attempt[] = [
  {
    why: 'reset the password of another administrator',
    permission: 'users:update',
    method: 'PUT',
    path: () => `/api/v1/admin/users/1/password`,
    body: () => ({ password: 'taken-over-123' }),
    message: () => ACCOUNT('set the password of', 'admin', allBut(['users:update'])),
  },
  {
    why: 'rename another administrator',
    permission: 'users:update',
    method: 'PUT',
    path: () => `/api/v1/admin/users/${ids.admin2}`,
    body: () => ({ name: 'Nobody' }),
    message: () => ACCOUNT('change', 'second-admin', allBut(['users:update'])),
  },
  {
    why: 'disable another administrator',
    permission: 'users:update',
    method: 'PUT',
    path: () => `/api/v1/admin/users/${ids.admin2}`,
    body: () => ({ status: 0 }),
    message: () => ACCOUNT('change', 'second-admin', allBut(['users:update'])),
  },
  {
    why: 'change one’s own account through the admin route',
    permission: 'users:update',
    method: 'PUT',
    path: () => `/api/v1/admin/users/${clerks.get('users:update')?.id ?? 0}`,
    body: () => ({ name: 'Me Myself' }),
    message: () => SELF('change'),
  },
  {
    why: 'delete another administrator while a third exists',
    permission: 'users:delete',
    method: 'DELETE',
    path: () => `/api/v1/admin/users/${ids.admin2}`,
    message: () => ACCOUNT('delete', 'second-admin', allBut(['users:delete'])),
  },
  {
    why: 'create a user holding a role with more',
    permission: 'users:create',
    method: 'POST',
    path: () => '/api/v1/admin/users',
    body: () => ({ username: 'payroll-twin', password: 'twin-password-1', name: 'Twin', roles: ['payroll'] }),
    message: () => INVOLVES('give these roles', PAYROLL),
  },
  {
    why: 'link one’s own account to the CEO’s employee record',
    permission: 'employees:update',
    method: 'PUT',
    path: () => `/api/v1/admin/employees/${ids.ceoEmployee}`,
    body: (clerk) => ({ user_id: clerk.id }),
    message: () => INVOLVES('link your own account to an employee record', [...CEO_HOLDS, 'attendance_records:read'].sort()),
  },
  {
    why: 'unlink the CEO’s account',
    permission: 'employees:update',
    method: 'PUT',
    path: () => `/api/v1/admin/employees/${ids.ceoEmployee}`,
    body: () => ({ user_id: null }),
    message: () => INVOLVES('unlink user "the-ceo" from its employee record', CEO_HOLDS),
  },
  {
    why: 'give the CEO’s record to a plain account',
    permission: 'employees:update',
    method: 'PUT',
    path: () => `/api/v1/admin/employees/${ids.ceoEmployee}`,
    body: () => ({ user_id: ids.plainUser }),
    message: () => INVOLVES('link user "plain-user" to an employee record', [...CEO_HOLDS, 'attendance_records:read'].sort()),
  },
  {
    why: 'link an administrator’s account to an employee who has no login',
    permission: 'employees:update',
    method: 'POST',
    path: () => `/api/v1/admin/employees/${ids.loginless}/account`,
    body: () => ({ user_id: ids.admin2 }),
    message: () => INVOLVES('link user "second-admin" to an employee record', allBut(['employees:update'])),
  },
  {
    why: 'create a login holding role employee, which the caller does not hold, for an employee who has none',
    permission: 'employees:update',
    method: 'POST',
    path: () => `/api/v1/admin/employees/${ids.loginless}/account`,
    body: () => ({ username: 'login-less', password: 'login-less-password-1' }),
    message: () => INVOLVES('give a new account role employee', EMPLOYEE_ROLE_PERMISSIONS),
  },
  {
    why: 'create an employee record linked to one’s own account',
    permission: 'employees:create',
    method: 'POST',
    path: () => '/api/v1/admin/employees',
    body: (clerk) => ({ name: 'Me Again', user_id: clerk.id }),
    message: () =>
      INVOLVES('link your own account to an employee record', [...EMPLOYEE_ROLE_PERMISSIONS, 'attendance_records:read', 'salaries:read'].sort()),
  },
  {
    why: 'create an employee record linked to an administrator',
    permission: 'employees:create',
    method: 'POST',
    path: () => '/api/v1/admin/employees',
    body: () => ({ name: 'Admin Two', user_id: ids.admin2 }),
    message: () => INVOLVES('link user "second-admin" to an employee record', allBut(['employees:create'])),
  },
  {
    why: 'create an employee with a new account holding role employee, which the caller does not hold',
    permission: 'employees:create',
    method: 'POST',
    path: () => '/api/v1/admin/employees',
    body: () => ({ name: 'New Hire', username: 'new-hire', password: 'new-hire-password-1' }),
    message: () => INVOLVES('give a new account role employee', EMPLOYEE_ROLE_PERMISSIONS),
  },
  {
    why: 'import employees with new accounts holding role employee, which the caller does not hold',
    permission: 'employees:create',
    method: 'POST',
    path: () => '/api/v1/admin/employees/import?dry_run=false',
    form: csvForm('name,username,password\r\nNew Hire,imported-hire,imported-password-1\r\n'),
    message: () => INVOLVES('give a new account role employee', EMPLOYEE_ROLE_PERMISSIONS),
  },
  {
    why: 'delete the CEO’s employee record, taking the account’s identity',
    permission: 'employees:delete',
    method: 'DELETE',
    path: () => `/api/v1/admin/employees/${ids.ceoEmployee}`,
    message: () => INVOLVES('unlink user "the-ceo" from its employee record', CEO_HOLDS),
  },
  {
    why: 'disable a role with more',
    permission: 'roles:update',
    method: 'PUT',
    path: () => `/api/v1/admin/roles/${ids.payrollRole}`,
    body: () => ({ status: 0 }),
    message: () => INVOLVES('disable the role payroll', PAYROLL),
  },
  {
    why: 'disable role employee for everyone',
    permission: 'roles:update',
    method: 'PUT',
    path: () => '/api/v1/admin/roles/2',
    body: () => ({ status: 0 }),
    message: () => INVOLVES('disable the role employee', EMPLOYEE_ROLE_PERMISSIONS),
  },
  {
    why: 'delete a role with more, stripping it from its holders',
    permission: 'roles:delete',
    method: 'DELETE',
    path: () => `/api/v1/admin/roles/${ids.payrollRole}`,
    message: () => INVOLVES('delete the role payroll', PAYROLL),
  },
  {
    why: 'assign a role to an administrator (a change to an account that holds more)',
    permission: 'roles:assign',
    method: 'POST',
    path: () => '/api/v1/admin/roles/assign',
    body: () => ({ user_id: ids.admin2, role_name: 'only_roles_assign' }),
    message: () => ACCOUNT('assign roles of', 'second-admin', allBut(['roles:assign'])),
  },
  {
    why: 'revoke role payroll from the CEO',
    permission: 'roles:assign',
    method: 'POST',
    path: () => '/api/v1/admin/roles/revoke',
    body: () => ({ user_id: ids.ceoUser, role_name: 'payroll' }),
    message: () => ACCOUNT('revoke roles of', 'the-ceo', CEO_HOLDS),
  },
  {
    why: 'revoke one’s own role through the admin route',
    permission: 'roles:assign',
    method: 'POST',
    path: () => '/api/v1/admin/roles/revoke',
    body: (clerk) => ({ user_id: clerk.id, role_name: 'only_roles_assign' }),
    message: () => SELF('revoke roles of'),
  },
  {
    why: 'add a permission it does not hold to its own role',
    permission: 'permissions:grant',
    method: 'POST',
    path: () => '/api/v1/admin/roles/permissions/add',
    body: () => ({ role_name: 'only_permissions_grant', permission_name: 'users:delete' }),
    message: () => 'You cannot add users:delete: your own roles do not grant it',
  },
  {
    why: 'remove a permission from a role with more',
    permission: 'permissions:grant',
    method: 'POST',
    path: () => '/api/v1/admin/roles/permissions/remove',
    body: () => ({ role_name: 'payroll', permission_name: 'salaries:read' }),
    message: () => 'You cannot remove salaries:read: your own roles do not grant it',
  },
]

/** Changing routes that act on no account, role or link, with why. */
const NOT_ABOUT_PEOPLE: Record<string, string> = {
  'POST /api/v1/admin/roles': 'a new role holds no permission and no user',
  'POST /api/v1/admin/permissions': 'a new permission is held by admin only',
  'POST /api/v1/admin/companies': 'organisation data',
  'PUT /api/v1/admin/companies/:id': 'organisation data',
  'DELETE /api/v1/admin/companies/:id': 'organisation data',
  'PUT /api/v1/admin/companies/:id/calendar/:date': 'the company calendar',
  'DELETE /api/v1/admin/companies/:id/calendar/:date': 'the company calendar',
  'POST /api/v1/admin/companies/:id/calendar/import': 'the company calendar',
  'POST /api/v1/admin/companies/:id/calendar/apply-preset': 'the company calendar',
  'POST /api/v1/admin/departments': 'organisation data',
  'PUT /api/v1/admin/departments/:id': 'organisation data',
  'DELETE /api/v1/admin/departments/:id': 'organisation data',
  'POST /api/v1/admin/attendance/rules': 'attendance set-up',
  'PUT /api/v1/admin/attendance/rules/:id': 'attendance set-up',
  'DELETE /api/v1/admin/attendance/rules/:id': 'attendance set-up',
  'POST /api/v1/admin/attendance/groups': 'attendance set-up',
  'PUT /api/v1/admin/attendance/groups/:id': 'attendance set-up',
  'DELETE /api/v1/admin/attendance/groups/:id': 'attendance set-up',
  'POST /api/v1/admin/attendance/groups/:id/employees': 'attendance set-up',
  'DELETE /api/v1/admin/attendance/groups/:id/employees': 'attendance set-up',
  'POST /api/v1/admin/attendance/close-day': 'attendance records',
  'PUT /api/v1/admin/attendance/records/:id': 'attendance records (never one’s own: 403)',
  'POST /api/v1/admin/attendance/records/import': 'attendance records (never one’s own: 403 for the file, test/history-import.test.ts)',
  'POST /api/v1/admin/salaries': 'salary records',
  'PATCH /api/v1/admin/salaries/batch-status': 'salary records',
  'PUT /api/v1/admin/salaries/:id': 'salary records',
  'DELETE /api/v1/admin/salaries/:id': 'salary records',
  'PUT /api/v1/admin/employees/:id/pay-profile': 'pay data (payroll)',
  'PUT /api/v1/admin/companies/:id/pay-settings': 'pay data (payroll)',
  'POST /api/v1/admin/payroll/schemes': 'a city’s contribution rates (payroll)',
  'PUT /api/v1/admin/payroll/schemes/:id': 'a city’s contribution rates (payroll)',
  'DELETE /api/v1/admin/payroll/schemes/:id': 'a city’s contribution rates (payroll)',
  'PUT /api/v1/admin/employees/:id/tax-deductions/:year': 'pay data (payroll)',
  'DELETE /api/v1/admin/employees/:id/tax-deductions/:year': 'pay data (payroll)',
  'POST /api/v1/admin/payroll/runs': 'pay data (payroll)',
  'POST /api/v1/admin/payroll/runs/:id/recompute': 'pay data (payroll)',
  'PUT /api/v1/admin/payroll/runs/:id/payslips/:payslip_id/inputs': 'pay data (payroll)',
  'POST /api/v1/admin/payroll/runs/:id/approve': 'pay data (never a run holding one’s own payslip: 403, test/payroll.test.ts)',
  'DELETE /api/v1/admin/payroll/runs/:id': 'pay data (payroll)',
  'POST /api/v1/admin/leave/types': 'leave set-up',
  'PUT /api/v1/admin/leave/types/:id': 'leave set-up',
  'DELETE /api/v1/admin/leave/types/:id': 'leave set-up',
  'POST /api/v1/admin/leave/balances/adjust': 'leave balances',
  'POST /api/v1/admin/leave/balances/import': 'leave balances (never one’s own: 403 for the file, test/history-import.test.ts)',
  'POST /api/v1/admin/leave/requests/:id/cancel': 'leave requests',
  'POST /api/v1/leave/requests': 'the caller’s own request',
  'POST /api/v1/attendance/corrections': 'the caller’s own request',
  'POST /api/v1/attendance/corrections/:id/cancel': 'the caller’s own request',
  'POST /api/v1/leave/requests/:id/cancel': 'the caller’s own request',
  'POST /api/v1/attendance/clock-in': 'the caller’s own record',
  'POST /api/v1/attendance/clock-out': 'the caller’s own record',
}

describe('the route table', () => {
  test('every changing route guarded by a permission is tried here or listed as touching no one’s access', () => {
    const tried = new Set(ATTEMPTS.map((attempt) => `${attempt.method} ${attempt.path().split('?')[0].replace(/\/\d+(?=\/|$)/g, '/:id')}`))
    const unplaced = t.app.routes
      .filter((route) => !['GET', 'HEAD'].includes(route.method))
      .filter((route) => (route.hooks.detail as { 'x-permission'?: string } | undefined)?.['x-permission'])
      .map((route) => `${route.method} ${route.path}`)
      .filter((key) => !tried.has(key) && !(key in NOT_ABOUT_PEOPLE))
    expect(unplaced).toEqual([])
  })
})

describe('a partial administrator acting on someone who holds more', () => {
  for (const attempt of ATTEMPTS)
    test(`${attempt.permission}: ${attempt.why} → 403, nothing changes`, async () => {
      const clerk = await clerkWith(attempt.permission)
      const before = await tableRows(t)
      const reply = attempt.form
        ? await replyOf(
            await t.app.handle(
              new Request(`http://localhost${attempt.path()}`, { method: attempt.method, body: attempt.form(), headers: { authorization: `Bearer ${clerk.token}` } }),
            ),
          )
        : await req(t.app, attempt.method, attempt.path(), { token: clerk.token, body: attempt.body?.(clerk) })
      expect({ status: reply.status, body: reply.body }).toEqual({ status: 403, body: errorBody(403, attempt.message(clerk)) })
      expect(await tableRows(t)).toEqual(before)
    })

  test('afterwards the administrators still sign in, and the CEO still reads their own salary', async () => {
    expect(await login(t.app, 'second-admin', 'second-admin-password-1')).toBeString()
    const ceo = await login(t.app, 'the-ceo', 'the-ceo-password-1')
    const salaries = await req(t.app, 'GET', '/api/v1/employees/salaries', { token: ceo })
    expect(salaries.body.data.salaries.map((row: { month: string }) => row.month)).toEqual(['2024年02月'])
  })
})

describe('the same partial administrators on accounts and roles that hold no more than they do', () => {
  test('users:update renames, disables and resets a plain account; roles:update disables a role it covers', async () => {
    const clerk = await clerkWith('users:update')
    const renamed = await req(t.app, 'PUT', `/api/v1/admin/users/${ids.plainUser}`, { token: clerk.token, body: { name: 'Plain Two' } })
    expect([renamed.status, renamed.body.data.name]).toEqual([200, 'Plain Two'])
    const reset = await req(t.app, 'PUT', `/api/v1/admin/users/${ids.plainUser}/password`, {
      token: clerk.token,
      body: { password: 'plain-password-2' },
    })
    expect(reset.status).toBe(200)
    expect(await login(t.app, 'plain-user', 'plain-password-2')).toBeString()

    const roleClerk = await clerkWith('roles:update')
    const own = (await ok('GET', '/api/v1/admin/roles?search=only_roles_update')).list[0].id
    const off = await req(t.app, 'PUT', `/api/v1/admin/roles/${own}`, { token: roleClerk.token, body: { description: 'mine' } })
    expect([off.status, off.body.data.description]).toEqual([200, 'mine'])
  })

  test('an administrator links a plain account to a new employee; the implied role change is audited as role.assign', async () => {
    const plain = await makeUser(t.app, admin, 'to-be-linked')
    const employee = await ok('POST', '/api/v1/admin/employees', { name: 'Linked Later' })
    const linked = await req(t.app, 'PUT', `/api/v1/admin/employees/${employee.id}`, { token: admin, body: { user_id: plain.id } })
    expect([linked.status, linked.body.data.user_id]).toEqual([200, plain.id])
    const audit = await ok('GET', `/api/v1/admin/audit-logs?action=role.assign&page_size=100`)
    const entry = (audit.list as { resource_id: string; before: unknown; after: unknown; actor_id: number }[]).find(
      (row) => String(row.resource_id) === String(plain.id),
    )
    expect(entry).toMatchObject({ actor_id: 1, before: { roles: [] }, after: { roles: ['employee'] } })
  })
})

describe('making oneself someone’s manager', () => {
  test('employees:update with an employee record cannot become the CEO’s manager (it would decide their leave); approvals:manage can', async () => {
    const clerk = await clerkWith('employees:update')
    const own = await ok('POST', '/api/v1/admin/employees', { name: 'Clerk Himself', user_id: clerk.id })
    const token = await login(t.app, 'clerk-only-employees-update', 'clerk-only-employees-update-password-1')
    const before = await tableRows(t)
    const reply = await req(t.app, 'PUT', `/api/v1/admin/employees/${ids.ceoEmployee}`, { token, body: { manager_id: own.id } })
    expect(reply.body).toEqual(
      errorBody(
        403,
        'You cannot make yourself the manager of an employee: that would let you decide their requests, which needs approvals:manage',
      ),
    )
    expect(await tableRows(t)).toEqual(before)
    const created = await req(t.app, 'POST', '/api/v1/admin/employees', { token, body: { name: 'New Report', manager_id: own.id } })
    expect(created.status).toBe(403)

    // another manager is fine, and an approvals:manage holder may name themselves
    const other = await ok('POST', '/api/v1/admin/employees', { name: 'Another Manager' })
    const named = await req(t.app, 'PUT', `/api/v1/admin/employees/${ids.ceoEmployee}`, { token, body: { manager_id: other.id } })
    expect([named.status, named.body.data.manager_id]).toEqual([200, other.id])
    const adminEmployee = await ok('POST', '/api/v1/admin/employees', { name: 'Admin Employee', user_id: 1 })
    const self = await req(t.app, 'PUT', `/api/v1/admin/employees/${ids.ceoEmployee}`, { token: admin, body: { manager_id: adminEmployee.id } })
    expect([self.status, self.body.data.manager_id]).toEqual([200, adminEmployee.id])
  })
})

describe('making oneself a group’s manager', () => {
  test('attendance_groups:update with an employee record cannot become a group’s manager (it would decide its members’ leave)', async () => {
    const clerk = await clerkWith('attendance_groups:update')
    const own = await ok('POST', '/api/v1/admin/employees', { name: 'Group Clerk', user_id: clerk.id })
    const token = await login(t.app, 'clerk-only-attendance-groups-update', 'clerk-only-attendance-groups-update-password-1')
    const company = await ok('POST', '/api/v1/admin/companies', { name: 'Group Test Co' })
    const group = await ok('POST', '/api/v1/admin/attendance/groups', { name: 'Floor', company_id: company.id })
    const before = await tableRows(t)
    const reply = await req(t.app, 'PUT', `/api/v1/admin/attendance/groups/${group.id}`, { token, body: { manager_id: own.id } })
    expect(reply.body).toEqual(
      errorBody(
        403,
        'You cannot make yourself the manager of an employee: that would let you decide their requests, which needs approvals:manage',
      ),
    )
    expect(await tableRows(t)).toEqual(before)
    const renamed = await req(t.app, 'PUT', `/api/v1/admin/attendance/groups/${group.id}`, { token, body: { name: 'Floor 2' } })
    expect([renamed.status, renamed.body.data.name]).toEqual([200, 'Floor 2'])
  })
})

/*
 * Issue 25, CONTRACT §15: choosing one's own decider. Every admin route that can change who decides
 * someone's requests is tried here by a clerk with an employee record (in group "Desk", managed by
 * "Desk Boss") holding just what the route needs: 403, and nothing changes. Every other changing
 * route is listed with why it cannot change an approver, so a new route must be placed.
 */
interface DeciderAttempt {
  why: string
  permissions: string[]
  method: string
  path: () => string
  body?: () => unknown
  form?: () => FormData
  /** runs as the clerk before the attempt (e.g. making a puppet account) */
  prepare?: (token: string) => Promise<void>
  message: () => string
}

const steer = (what: string, from: string, to: string) =>
  `You cannot ${what}: that changes who decides your own requests (${from} → ${to}); ask another administrator`
/** `username` is also the name of the puppet's employee record, which has no employee number. */
const FRESH = (username: string) => () =>
  `You cannot make employee ${username} a manager: their account "${username}" was created by you in the last 30 days, and choosing who decides requests through an account of your own making needs approvals:manage`
const desk = { group: 0, other: 0, annex: 0, boss: 0, colleague: 0, spare: 0, puppets: new Map<string, number>() }
const deciderClerks = new Map<string, { employeeId: number; userId: number; name: string; token: string }>()
/** A clerk whose role holds just `permissions`, linked to an employee record in group Desk. */
async function deciderClerk(key: string, permissions: string[]) {
  let clerk = deciderClerks.get(key)
  if (!clerk) {
    const n = deciderClerks.size
    const role = `steer_${String.fromCharCode(97 + n)}`
    await ok('POST', '/api/v1/admin/roles', { name: role })
    for (const permission of permissions) await ok('POST', '/api/v1/admin/roles/permissions/add', { role_name: role, permission_name: permission })
    const user = await makeUser(t.app, admin, `steer-${n}`, [role])
    const employee = await ok('POST', '/api/v1/admin/employees', { name: `Steer ${n}`, user_id: user.id })
    await ok('POST', `/api/v1/admin/attendance/groups/${desk.group}/employees`, { employee_ids: [employee.id] })
    clerk = { employeeId: employee.id, userId: user.id, name: `Steer ${n}`, token: await login(t.app, `steer-${n}`, `steer-${n}-password-1`) }
    deciderClerks.set(key, clerk)
  }
  return clerk
}
const current = { key: '' }
const own = () => deciderClerks.get(current.key)?.employeeId ?? 0
const ownName = () => deciderClerks.get(current.key)?.name ?? ''
const puppet = (name: string) => async (token: string) => {
  const made = await req(t.app, 'POST', '/api/v1/admin/employees', { token, body: { name, username: name, password: `${name}-password-1` } })
  if (made.status !== 201) throw new Error(JSON.stringify(made.body))
  desk.puppets.set(name, made.body.data.id)
}

const DECIDER_ATTEMPTS: DeciderAttempt[] = [
  {
    why: 'set the manager of one’s own record',
    permissions: ['employees:update'],
    method: 'PUT',
    path: () => `/api/v1/admin/employees/${own()}`,
    body: () => ({ manager_id: desk.colleague }),
    message: () => steer(`change the manager of employee ${own()} (${ownName()})`, 'employee Desk Boss', 'employee Colleague'),
  },
  {
    why: 'mark one’s own manager as left',
    permissions: ['employees:update'],
    method: 'PUT',
    path: () => `/api/v1/admin/employees/${desk.boss}`,
    body: () => ({ status: 0 }),
    message: () => steer(`mark employee ${desk.boss} (Desk Boss) as left`, 'employee Desk Boss', 'holders of approvals:manage'),
  },
  {
    why: 'unlink one’s own account',
    permissions: ['employees:update'],
    method: 'PUT',
    path: () => `/api/v1/admin/employees/${own()}`,
    body: () => ({ user_id: null }),
    message: () => 'You cannot unlink your own account from its employee record: that changes whose requests are your own; ask another administrator',
  },
  {
    why: 'move one’s own account to another record',
    permissions: ['employees:update', 'salaries:read', 'attendance_records:read'],
    method: 'PUT',
    path: () => `/api/v1/admin/employees/${desk.spare}`,
    body: () => ({ user_id: -1 }),
    message: () => 'You cannot move your own account to another employee record: that changes whose requests are your own; ask another administrator',
  },
  {
    why: 'link one’s own account to another record through the account route',
    permissions: ['employees:update', 'salaries:read', 'attendance_records:read'],
    method: 'POST',
    path: () => `/api/v1/admin/employees/${desk.spare}/account`,
    body: () => ({ user_id: -1 }),
    message: () => 'You cannot move your own account to another employee record: that changes whose requests are your own; ask another administrator',
  },
  {
    why: 'delete one’s own manager',
    permissions: ['employees:delete'],
    method: 'DELETE',
    path: () => `/api/v1/admin/employees/${desk.boss}`,
    message: () => steer(`delete employee ${desk.boss} (Desk Boss)`, 'employee Desk Boss', 'holders of approvals:manage'),
  },
  {
    why: 'create an employee managed by an account one just made',
    permissions: ['employees:create'],
    prepare: puppet('puppet-one'),
    method: 'POST',
    path: () => '/api/v1/admin/employees',
    body: () => ({ name: 'Report', manager_id: desk.puppets.get('puppet-one') }),
    message: FRESH('puppet-one'),
  },
  {
    why: 'import employees managed by an account one just made',
    permissions: ['employees:create'],
    prepare: puppet('puppet-two'),
    method: 'POST',
    path: () => '/api/v1/admin/employees/import?dry_run=false',
    form: () => {
      const form = new FormData()
      form.append('file', new File([`name,manager_id\nReport,${desk.puppets.get('puppet-two')}\n`], 'employees.csv', { type: 'text/csv' }))
      return form
    },
    message: FRESH('puppet-two'),
  },
  {
    why: 'create a group managed by an account one just made',
    permissions: ['employees:create', 'attendance_groups:create'],
    prepare: puppet('puppet-three'),
    method: 'POST',
    path: () => '/api/v1/admin/attendance/groups',
    body: () => ({ name: 'Puppet Floor', company_id: 1, manager_id: desk.puppets.get('puppet-three') }),
    message: FRESH('puppet-three'),
  },
  {
    why: 'set the manager of one’s own group',
    permissions: ['attendance_groups:update'],
    method: 'PUT',
    path: () => `/api/v1/admin/attendance/groups/${desk.group}`,
    body: () => ({ manager_id: desk.colleague }),
    message: () => steer(`change group ${desk.group} (Desk), which you belong to`, 'employee Desk Boss', 'employee Colleague'),
  },
  {
    why: 'move oneself into another group',
    permissions: ['attendance_groups:update'],
    method: 'POST',
    path: () => `/api/v1/admin/attendance/groups/${desk.other}/employees`,
    body: () => ({ employee_ids: [own()] }),
    message: () => steer(`move yourself into group ${desk.other}`, 'employee Desk Boss', 'employee Colleague'),
  },
  {
    why: 'move oneself out of one’s group',
    permissions: ['attendance_groups:update'],
    method: 'DELETE',
    path: () => `/api/v1/admin/attendance/groups/${desk.group}/employees`,
    body: () => ({ employee_ids: [own()] }),
    message: () => steer(`move yourself out of group ${desk.group}`, 'employee Desk Boss', 'holders of approvals:manage'),
  },
  {
    why: 'annex an employee into a group one manages',
    permissions: ['attendance_groups:update'],
    prepare: async () => {
      await ok('PUT', `/api/v1/admin/attendance/groups/${desk.annex}`, { manager_id: own() })
    },
    method: 'POST',
    path: () => `/api/v1/admin/attendance/groups/${desk.annex}/employees`,
    body: () => ({ employee_ids: [desk.colleague] }),
    message: () =>
      `You cannot add employees to group ${desk.annex}: you manage it, so you would decide their requests, which needs approvals:manage`,
  },
  {
    why: 'delete one’s own group',
    permissions: ['attendance_groups:delete'],
    method: 'DELETE',
    path: () => `/api/v1/admin/attendance/groups/${desk.group}`,
    message: () => steer(`delete group ${desk.group} (Desk), which you belong to`, 'employee Desk Boss', 'holders of approvals:manage'),
  },
]

/** Changing routes that cannot change who decides anyone's requests, with why. */
const CANNOT_STEER: Record<string, string> = {
  'POST /api/v1/admin/users': 'a new account has no employee record',
  'PUT /api/v1/admin/users/:id': 'an account’s fields and status; approvers are employees',
  'PUT /api/v1/admin/users/:id/password': 'a password',
  'DELETE /api/v1/admin/users/:id': 'an account; its employee record stays, as does the approver',
  'POST /api/v1/admin/roles/assign': 'roles (approvals:manage itself is covered by the people rule)',
  'POST /api/v1/admin/roles/revoke': 'roles',
  'PUT /api/v1/admin/roles/:id': 'roles',
  'DELETE /api/v1/admin/roles/:id': 'roles',
  'POST /api/v1/admin/roles/permissions/add': 'roles',
  'POST /api/v1/admin/roles/permissions/remove': 'roles',
  'POST /api/v1/admin/attendance/groups/:id/rules': 'attendance set-up',
  ...Object.fromEntries(
    Object.entries(NOT_ABOUT_PEOPLE).filter(([route]) => !/^(POST|PUT|DELETE) \/api\/v1\/admin\/attendance\/groups/.test(route)),
  ),
}

describe('choosing one’s own decider (CONTRACT §15)', () => {
  beforeAll(async () => {
    const company = await ok('POST', '/api/v1/admin/companies', { name: 'Desk Co' })
    desk.boss = (await ok('POST', '/api/v1/admin/employees', { name: 'Desk Boss' })).id
    desk.colleague = (await ok('POST', '/api/v1/admin/employees', { name: 'Colleague' })).id
    desk.spare = (await ok('POST', '/api/v1/admin/employees', { name: 'Spare' })).id
    desk.group = (await ok('POST', '/api/v1/admin/attendance/groups', { name: 'Desk', company_id: company.id, manager_id: desk.boss })).id
    desk.other = (await ok('POST', '/api/v1/admin/attendance/groups', { name: 'Other', company_id: company.id, manager_id: desk.colleague })).id
    desk.annex = (await ok('POST', '/api/v1/admin/attendance/groups', { name: 'Annex', company_id: company.id })).id
  }, 30_000)

  test('every changing route is tried here or listed as unable to change an approver', () => {
    const tried = new Set(DECIDER_ATTEMPTS.map((attempt) => `${attempt.method} ${attempt.path().split('?')[0].replace(/\/-?\d+(?=\/|$)/g, '/:id')}`))
    const unplaced = t.app.routes
      .filter((route) => !['GET', 'HEAD'].includes(route.method))
      .filter((route) => (route.hooks.detail as { 'x-permission'?: string } | undefined)?.['x-permission'])
      .map((route) => `${route.method} ${route.path}`)
      .filter((key) => !tried.has(key) && !(key in CANNOT_STEER))
    expect(unplaced).toEqual([])
  })

  DECIDER_ATTEMPTS.forEach((attempt, i) =>
    test(`${attempt.permissions.join(' + ')}: ${attempt.why} → 403, nothing changes`, async () => {
      current.key = `attempt-${i}`
      // one clerk per attempt, so each starts in group Desk with Desk Boss deciding
      const clerk = await deciderClerk(current.key, attempt.permissions)
      await attempt.prepare?.(clerk.token)
      const body = attempt.body?.()
      const sent =
        body && typeof body === 'object' && (body as { user_id?: number }).user_id === -1
          ? { user_id: clerk.userId }
          : body
      const before = await tableRows(t)
      const reply = attempt.form
        ? await replyOf(
            await t.app.handle(
              new Request(`http://localhost${attempt.path()}`, { method: attempt.method, body: attempt.form(), headers: { authorization: `Bearer ${clerk.token}` } }),
            ),
          )
        : await req(t.app, attempt.method, attempt.path(), { token: clerk.token, body: sent })
      expect({ status: reply.status, body: reply.body }).toEqual({ status: 403, body: errorBody(403, attempt.message()) })
      expect(await tableRows(t)).toEqual(before)
    }),
  )
})
