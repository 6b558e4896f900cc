import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { openDatabase } from '../src/db/client'
import { migrate } from '../src/db/migrate'
import { employeeLinks, leaveRequests } from '../src/db/schema'
import { errorBody, leaveNamed, login, loginAdmin, makeUser, req, startApp, tableRows, tempDir, type TestApp } from './helpers'
import { startSqld } from './sqld'

/*
 * Issue 25, CONTRACT §15: nobody decides, adjusts or pays their own matters, by any path. Each
 * reproduction of the issue, tried over HTTP: the contract's status, and no row changes.
 */

// Friday 2024-03-15, 10:00 in Shanghai
const NOW = '2024-03-15T02:00:00.000Z'
let t: TestApp
let admin = ''
const ids: Record<string, number> = {}
const userIds: Record<string, number> = {}
const tokens: Record<string, string> = {}

const as = (who: string, method: string, path: string, body?: unknown) => req(t.app, method, path, { token: who === 'admin' ? admin : tokens[who], body })
async function ok(who: string, method: string, path: string, body?: unknown) {
  const reply = await as(who, method, path, body)
  if (reply.status !== 200 && reply.status !== 201) throw new Error(`${who} ${method} ${path}: ${JSON.stringify(reply.body)}`)
  return reply.body.data
}
/** The refusal, and nothing written by it. */
async function refused(who: string, method: string, path: string, body: unknown, status: number, message: string, extra: Record<string, unknown> = {}) {
  const before = await tableRows(t)
  const reply = await as(who, method, path, body)
  expect({ status: reply.status, body: reply.body }).toEqual({ status, body: { ...errorBody(status, message, extra), timestamp: t.clock.now().toISOString() } })
  expect(await tableRows(t)).toEqual(before)
}
const leave = (who: string, start: string, end = start) => ok(who, 'POST', '/api/v1/leave/requests', { type_id: 1, start_date: start, end_date: end })
const role = async (name: string, permissions: string[]) => {
  await ok('admin', 'POST', '/api/v1/admin/roles', { name })
  for (const permission of permissions) await ok('admin', 'POST', '/api/v1/admin/roles/permissions/add', { role_name: name, permission_name: permission })
}
/** An employee with a login and the given roles besides role employee. */
async function person(name: string, roles: string[] = [], extra: Record<string, unknown> = {}) {
  const user = await makeUser(t.app, admin, name, ['employee', ...roles])
  const employee = await ok('admin', 'POST', '/api/v1/admin/employees', { name, user_id: user.id, hire_date: '2023-01-01', ...extra })
  ids[name] = employee.id
  userIds[name] = user.id
  tokens[name] = await login(t.app, name, `${name}-password-1`)
}
const OWN = (label: string, why: string) => `${label} is your own: ${why}`
const DECIDE = 'nobody decides their own request'
const fresh = (name: string, username: string) =>
  `You cannot make employee ${name} a manager: their account "${username}" was created by you in the last 30 days, and choosing who decides requests through an account of your own making needs approvals:manage`
const steer = (what: string, from: string, to: string) =>
  `You cannot ${what}: that changes who decides your own requests (${from} → ${to}); ask another administrator`

beforeAll(async () => {
  t = await startApp({ now: NOW, env: { ACCESS_TOKEN_TTL: '2592000' } })
  admin = await loginAdmin(t.app)
  await ok('admin', 'POST', '/api/v1/admin/companies', { name: 'Acme', timezone: 'Asia/Shanghai' })
  await ok('admin', 'POST', '/api/v1/admin/leave/types', { name: 'Annual leave', annual_days: 10 })
  await role('desk', ['employees:read', 'employees:create', 'employees:update', 'attendance_groups:read', 'attendance_groups:update'])
  await role('approver', ['approvals:manage', 'employees:update', 'attendance_records:update'])
  await role('leave_hr', ['leave:manage', 'leave:read'])
  await role('payroll', ['salaries:read', 'salaries:create', 'salaries:update', 'salaries:delete'])
  for (const name of ['boss', 'worker', 'foreman', 'outsider']) await person(name)
  await person('clerk', ['desk'])
  await person('hrm', ['approver'])
  await person('leaveclerk', ['leave_hr'])
  await person('payclerk', ['payroll'])
  await person('annexer', ['desk'])
  for (const [name, manager] of [
    ['Office', 'boss'],
    ['Warehouse', 'annexer'],
  ] as const) {
    const group = await ok('admin', 'POST', '/api/v1/admin/attendance/groups', { name, company_id: 1, manager_id: ids[manager] })
    ids[name] = group.id
    await ok('admin', 'POST', '/api/v1/admin/attendance/rules', {
      name: `${name} hours`,
      group_id: group.id,
      work_start_time: '09:00',
      work_end_time: '18:00',
      required_work_hours: 8,
      work_days: '1,2,3,4,5',
    })
  }
  await ok('admin', 'POST', `/api/v1/admin/attendance/groups/${ids.Office}/employees`, {
    employee_ids: ['worker', 'clerk', 'hrm', 'leaveclerk', 'payclerk', 'outsider', 'foreman'].map((name) => ids[name]),
  })
  await ok('admin', 'POST', `/api/v1/admin/attendance/groups/${ids.Warehouse}/employees`, { employee_ids: [ids.annexer] })
}, 60_000)
afterAll(() => t?.close())

describe('deciding one’s own request after unlinking one’s account', () => {
  test('the holder of employees:update + approvals:manage cannot unlink themselves, and unlinked by another admin still cannot approve', async () => {
    const own = await leave('hrm', '2024-03-18')
    expect(own.approver).toEqual({ id: ids.boss, name: 'boss' })
    const path = `/api/v1/approvals/leave/${own.id}/approve`
    await refused('hrm', 'POST', path, {}, 403, OWN(leaveNamed(own), DECIDE))
    await refused(
      'hrm',
      'PUT',
      `/api/v1/admin/employees/${ids.hrm}`,
      { user_id: null },
      403,
      'You cannot unlink your own account from its employee record: that changes whose requests are your own; ask another administrator',
    )
    // the rule reads the link history: unlinked by someone else, the request stays hr's own
    await ok('admin', 'PUT', `/api/v1/admin/employees/${ids.hrm}`, { user_id: null })
    await refused('hrm', 'POST', path, {}, 403, OWN(leaveNamed(own), DECIDE))
    const links = await t.deps.database.db.select().from(employeeLinks).where(eq(employeeLinks.employeeId, ids.hrm))
    expect(links).toEqual([{ id: expect.any(Number), employeeId: ids.hrm, userId: userIds.hrm, linkedAt: new Date('2024-03-15T02:00:00.000Z'), unlinkedAt: new Date(NOW) }])
    // relinked to a fresh record of their own making, the old record's request is still theirs
    await ok('admin', 'PUT', `/api/v1/admin/employees/${ids.hrm}`, { user_id: userIds.hrm })
    expect((await ok('boss', 'POST', path, {})).status).toBe('approved')
  })

  test('the administrator’s record edit: never one’s own record, linked now or since', async () => {
    const record = await ok('hrm', 'POST', '/api/v1/attendance/clock-in', {})
    await refused('hrm', 'PUT', `/api/v1/admin/attendance/records/${record.attendance_id}`, { clock_in_time: '2024-03-15T01:00:00.000Z', reason: 'was early' }, 403,
      'Attendance record ' + record.attendance_id + ' is your own: request a correction for your manager to decide')
  })
})

describe('a puppet manager', () => {
  test('a clerk with employees:create + update makes a login and cannot make it their own manager, nor anyone’s', async () => {
    const puppet = await ok('clerk', 'POST', '/api/v1/admin/employees', { name: 'Puppet', username: 'puppet', password: 'puppet-password-1' })
    ids.puppet = puppet.id
    await refused('clerk', 'PUT', `/api/v1/admin/employees/${ids.clerk}`, { manager_id: puppet.id }, 403, fresh('Puppet', 'puppet'))
    await refused('clerk', 'PUT', `/api/v1/admin/employees/${ids.worker}`, { manager_id: puppet.id }, 403, fresh('Puppet', 'puppet'))
    await refused('clerk', 'POST', '/api/v1/admin/employees', { name: 'Report', manager_id: puppet.id }, 403, fresh('Puppet', 'puppet'))
    const inChinese = await req(t.app, 'PUT', `/api/v1/admin/employees/${ids.clerk}`, {
      token: tokens.clerk,
      headers: { 'accept-language': 'zh' },
      body: { manager_id: puppet.id },
    })
    expect(inChinese.body.message).toBe(
      '您不能将员工 Puppet设为上级：其账号“puppet”是您在最近 30 天内创建的，通过自己创建的账号决定审批人需要 approvals:manage 权限',
    )
    // nor any manager of their own choosing: the approver of their requests would change
    await refused('clerk', 'PUT', `/api/v1/admin/employees/${ids.clerk}`, { manager_id: ids.worker }, 403,
      steer(`change the manager of employee ${ids.clerk} (clerk)`, 'employee boss', 'employee worker'))
    // a holder of approvals:manage may name the fresh account a manager of someone else
    expect((await ok('hrm', 'PUT', `/api/v1/admin/employees/${ids.worker}`, { manager_id: puppet.id })).manager_id).toBe(puppet.id)
    await ok('hrm', 'PUT', `/api/v1/admin/employees/${ids.worker}`, { manager_id: null })
  })

  test('the same through the group: the clerk cannot make the puppet (or anyone) the manager of the group they belong to', async () => {
    await refused('clerk', 'PUT', `/api/v1/admin/attendance/groups/${ids.Office}`, { manager_id: ids.puppet }, 403, fresh('Puppet', 'puppet'))
    await refused('clerk', 'PUT', `/api/v1/admin/attendance/groups/${ids.Office}`, { manager_id: ids.worker }, 403,
      steer(`change group ${ids.Office} (Office), which you belong to`, 'employee boss', 'employee worker'))
    await refused('clerk', 'DELETE', `/api/v1/admin/attendance/groups/${ids.Office}/employees`, { employee_ids: [ids.clerk] }, 403,
      steer(`move yourself out of group ${ids.Office}`, 'employee boss', 'holders of approvals:manage'))
    await refused('clerk', 'POST', `/api/v1/admin/attendance/groups/${ids.Warehouse}/employees`, { employee_ids: [ids.clerk] }, 403,
      steer(`move yourself into group ${ids.Warehouse}`, 'employee boss', 'employee annexer'))
    await refused('clerk', 'PUT', `/api/v1/admin/employees/${ids.boss}`, { status: 0 }, 403,
      steer(`mark employee ${ids.boss} (boss) as left`, 'employee boss', 'holders of approvals:manage'))
    // what leaves the clerk's own approver alone is allowed
    expect((await ok('clerk', 'PUT', `/api/v1/admin/attendance/groups/${ids.Office}`, { description: 'first floor' })).description).toBe('first floor')
  })

  test('after 30 days the account is no longer fresh, but one’s own routing stays closed', async () => {
    t.clock.set('2024-04-16T02:00:00.000Z')
    const token = tokens.clerk
    tokens.clerk = await login(t.app, 'clerk', 'clerk-password-1')
    try {
      expect((await ok('clerk', 'PUT', `/api/v1/admin/employees/${ids.worker}`, { manager_id: ids.puppet })).manager_id).toBe(ids.puppet)
      await ok('clerk', 'PUT', `/api/v1/admin/employees/${ids.worker}`, { manager_id: null })
      await refused('clerk', 'PUT', `/api/v1/admin/employees/${ids.clerk}`, { manager_id: ids.puppet }, 403,
        steer(`change the manager of employee ${ids.clerk} (clerk)`, 'employee boss', 'employee Puppet'))
    } finally {
      t.clock.set(NOW)
      tokens.clerk = token
    }
  })
})

describe('annexing an outsider', () => {
  test('a group manager with attendance_groups:update cannot add employees to the group they manage; a request keeps the approver it was made with', async () => {
    const pending = await leave('outsider', '2024-03-19')
    expect(pending.approver).toEqual({ id: ids.boss, name: 'boss' })
    await refused('annexer', 'POST', `/api/v1/admin/attendance/groups/${ids.Warehouse}/employees`, { employee_ids: [ids.outsider] }, 403,
      `You cannot add employees to group ${ids.Warehouse}: you manage it, so you would decide their requests, which needs approvals:manage`)
    // moved there by an administrator: the pending request is still boss's; to the annexer it does not exist
    await ok('admin', 'POST', `/api/v1/admin/attendance/groups/${ids.Warehouse}/employees`, { employee_ids: [ids.outsider] })
    await refused('annexer', 'POST', `/api/v1/approvals/leave/${pending.id}/approve`, {}, 404, `Leave request ${pending.id} does not exist`)
    await refused('annexer', 'POST', '/api/v1/approvals/leave/99999/approve', {}, 404, 'Leave request 99999 does not exist')
    expect((await ok('annexer', 'GET', '/api/v1/approvals?kind=leave')).items).toEqual([])
    // a request made after the move is the annexer's to decide
    const later = await leave('outsider', '2024-03-20')
    expect(later.approver).toEqual({ id: ids.annexer, name: 'annexer' })
    expect((await ok('annexer', 'GET', '/api/v1/approvals?kind=leave')).items.map((item: { id: number }) => item.id)).toEqual([later.id])
    expect((await ok('boss', 'POST', `/api/v1/approvals/leave/${pending.id}/approve`, {})).status).toBe('approved')
  })
})

describe('self-dealing through HR routes', () => {
  test('leave:manage adjusts anyone’s balance but their own', async () => {
    const body = (employee: string) => ({ employee_id: ids[employee], type_id: 1, year: 2024, days: 100, reason: 'generous' })
    await refused('leaveclerk', 'POST', '/api/v1/admin/leave/balances/adjust', body('leaveclerk'), 403,
      OWN('The Annual leave balance of leaveclerk', 'nobody adjusts their own leave balance; ask HR'))
    expect((await ok('leaveclerk', 'POST', '/api/v1/admin/leave/balances/adjust', { ...body('worker'), days: 1 })).granted).toBe(11)
  })

  test('leave:manage cannot cancel their own approved leave after it began through the admin route', async () => {
    const own = await leave('leaveclerk', '2024-03-15')
    await ok('boss', 'POST', `/api/v1/approvals/leave/${own.id}/approve`, {})
    await refused('leaveclerk', 'POST', `/api/v1/admin/leave/requests/${own.id}/cancel`, {}, 403,
      OWN(leaveNamed(own), 'nobody cancels their own leave through an administrator route; cancel it yourself while it has not begun, or ask HR'))
    await refused('leaveclerk', 'POST', `/api/v1/leave/requests/${own.id}/cancel`, {}, 409,
      `${leaveNamed(own)} is approved and began on 2024-03-15 (today is 2024-03-15); ask HR to cancel it`)
  })

  test('salaries: nobody creates, changes, pays or deletes their own, but the owner (role admin)', async () => {
    const path = '/api/v1/admin/salaries'
    await refused('payclerk', 'POST', path, { employee_id: ids.payclerk, month: '2024-03', basic_salary: 999999 }, 403,
      OWN('The salary of payclerk for 2024-03', 'nobody creates, changes or pays their own salary; ask another administrator'))
    const record = await ok('admin', 'POST', path, { employee_id: ids.payclerk, month: '2024-02', basic_salary: 800000 })
    const own = OWN(`Salary record ${record.id}`, 'nobody creates, changes or pays their own salary; ask another administrator')
    await refused('payclerk', 'PUT', `${path}/${record.id}`, { basic_salary: 900000 }, 403, own)
    await refused('payclerk', 'PATCH', `${path}/batch-status`, { ids: [record.id], status: '1' }, 403, own)
    await refused('payclerk', 'DELETE', `${path}/${record.id}`, undefined, 403, own)
    // the owner is the exception: an administrator linked to an employee pays their own salary
    const ownerEmployee = await ok('admin', 'POST', '/api/v1/admin/employees', { name: 'Owner', user_id: 1 })
    admin = await loginAdmin(t.app)
    expect((await ok('admin', 'POST', path, { employee_id: ownerEmployee.id, month: '2024-02', basic_salary: 100 })).employee_id).toBe(ownerEmployee.id)
    // others' salaries stay the payroll clerk's job
    const other = await ok('payclerk', 'POST', path, { employee_id: ids.worker, month: '2024-02', basic_salary: 700000 })
    expect((await ok('payclerk', 'PUT', `${path}/${other.id}`, { remarks: 'checked' })).remarks).toBe('checked')
  })
})

describe('requests that cannot be', () => {
  test('leave and corrections of dates before the hire date, or from an employee who has left → 400', async () => {
    await person('newbie', [], { hire_date: '2024-03-13' })
    await refused('newbie', 'POST', '/api/v1/leave/requests', { type_id: 1, start_date: '2024-03-12', end_date: '2024-03-13' }, 400,
      'start_date 2024-03-12 is before your hire date (2024-03-13): there is nothing to request for it', { errors: [{ field: 'start_date', message: 'must not be before your hire date, 2024-03-13' }] })
    await refused('newbie', 'POST', '/api/v1/attendance/corrections', { work_date: '2024-03-12', clock_in_time: '2024-03-12T01:00:00.000Z', reason: 'x' }, 400,
      'work_date 2024-03-12 is before your hire date (2024-03-13): there is nothing to request for it', { errors: [{ field: 'work_date', message: 'must not be before your hire date, 2024-03-13' }] })
    await ok('admin', 'PUT', `/api/v1/admin/employees/${ids.newbie}`, { status: 0 })
    const left = 'You are marked as having left (employee status 0), so you can no longer make requests'
    const gone = (field: string) => ({ errors: [{ field, message: 'the employee has left' }] })
    await refused('newbie', 'POST', '/api/v1/leave/requests', { type_id: 1, start_date: '2024-03-18', end_date: '2024-03-18' }, 400, left, gone('start_date'))
    await refused('newbie', 'POST', '/api/v1/attendance/corrections', { work_date: '2024-03-14', clock_in_time: '2024-03-14T01:00:00.000Z', reason: 'x' }, 400, left, gone('work_date'))
  })

  test('a manager who has left decides nothing, and new requests skip them', async () => {
    const pending = await leave('worker', '2024-03-21')
    expect(pending.approver).toEqual({ id: ids.boss, name: 'boss' })
    await ok('admin', 'PUT', `/api/v1/admin/employees/${ids.boss}`, { status: 0 })
    try {
      await refused('boss', 'POST', `/api/v1/approvals/leave/${pending.id}/approve`, {}, 404, `Leave request ${pending.id} does not exist`)
      expect((await ok('boss', 'GET', '/api/v1/approvals')).items).toEqual([])
      const next = await leave('worker', '2024-03-22')
      expect(next.approver).toBeNull()
      const [row] = await t.deps.database.db.select().from(leaveRequests).where(eq(leaveRequests.id, next.id))
      expect({ createdBy: row.createdBy, linkedUserId: row.linkedUserId, approverId: row.approverId }).toEqual({
        createdBy: userIds.worker,
        linkedUserId: userIds.worker,
        approverId: null,
      })
      // holders of approvals:manage decide it
      expect((await ok('hrm', 'POST', `/api/v1/approvals/leave/${next.id}/approve`, {})).status).toBe('approved')
    } finally {
      await ok('admin', 'PUT', `/api/v1/admin/employees/${ids.boss}`, { status: 1 })
    }
  })
})

describe('the migration on data made before the rule (0012, 0013)', () => {
  /** The database at migration 0011 with an organisation and requests, then migrated to the end. */
  async function migrated(url: (dir: string) => Promise<{ url: string; stop(): Promise<void> }>) {
    const dir = tempDir()
    const before = join(dir, 'drizzle-0011')
    mkdirSync(join(before, 'meta'), { recursive: true })
    const migrations = join(import.meta.dir, '..', 'drizzle')
    const journal = JSON.parse(readFileSync(join(migrations, 'meta', '_journal.json'), 'utf8'))
    journal.entries = journal.entries.filter((entry: { idx: number }) => entry.idx <= 11)
    writeFileSync(join(before, 'meta', '_journal.json'), JSON.stringify(journal))
    for (const entry of journal.entries) copyFileSync(join(migrations, `${entry.tag}.sql`), join(before, `${entry.tag}.sql`))
    const where = await url(dir)
    const database = await openDatabase(where.url)
    try {
      await migrate(database, before)
      for (const statement of [
        `INSERT INTO users (username, password_hash, name) VALUES ('ann', 'x', 'Ann'), ('max', 'x', 'Max'), ('gus', 'x', 'Gus')`,
        `INSERT INTO companies (name) VALUES ('Acme')`,
        // Max (left) manages Ann; Gus manages the group; Bea has no account and nobody above her
        `INSERT INTO employees (name, user_id, status) VALUES ('Ann', 1, 1), ('Max', 2, 0), ('Gus', 3, 1), ('Bea', NULL, 1)`,
        `UPDATE employees SET manager_id = 2 WHERE id = 1`,
        `INSERT INTO attendance_groups (name, company_id, manager_id) VALUES ('Office', 1, 3)`,
        `INSERT INTO attendance_group_members (employee_id, group_id, created_at) VALUES (1, 1, 0), (3, 1, 0)`,
        `INSERT INTO leave_types (name) VALUES ('Annual')`,
        `INSERT INTO leave_requests (employee_id, type_id, start_date, end_date, half_days) VALUES (1, 1, '2024-03-18', '2024-03-18', 2), (3, 1, '2024-03-18', '2024-03-18', 2), (4, 1, '2024-03-18', '2024-03-18', 2)`,
        `INSERT INTO attendance_corrections (employee_id, work_date, timezone, reason) VALUES (1, '2024-03-12', 'UTC', 'forgot')`,
      ])
        await database.client.execute(statement)
      await migrate(database)
      const rows = async (sql: string) => (await database.client.execute(sql)).rows.map((row): Record<string, unknown> => ({ ...row }))
      return {
        links: await rows('SELECT employee_id, user_id, linked_at, unlinked_at FROM employee_links ORDER BY employee_id'),
        leave: await rows('SELECT employee_id, created_by, linked_user_id, approver_id FROM leave_requests ORDER BY id'),
        corrections: await rows('SELECT employee_id, created_by, linked_user_id, approver_id FROM attendance_corrections ORDER BY id'),
        temp: await rows(`SELECT name FROM sqlite_master WHERE name = 'own_matters_routing'`),
      }
    } finally {
      database.close()
      await where.stop()
      rmSync(dir, { recursive: true, force: true })
    }
  }

  const expected = {
    links: [
      { employee_id: 1, user_id: 1, linked_at: 0, unlinked_at: null },
      { employee_id: 2, user_id: 2, linked_at: 0, unlinked_at: null },
      { employee_id: 3, user_id: 3, linked_at: 0, unlinked_at: null },
    ],
    // Ann's manager has left: the group's manager decides; Gus manages his own group: nobody but approvals:manage
    leave: [
      { employee_id: 1, created_by: 1, linked_user_id: 1, approver_id: 3 },
      { employee_id: 3, created_by: 3, linked_user_id: 3, approver_id: null },
      { employee_id: 4, created_by: null, linked_user_id: null, approver_id: null },
    ],
    corrections: [{ employee_id: 1, created_by: null, linked_user_id: 1, approver_id: 3 }],
    temp: [],
  }

  test('today’s links count from the beginning; requests get their employee’s account and today’s approver (embedded file)', async () => {
    expect(await migrated(async (dir) => ({ url: `file:${join(dir, 'old.db')}`, stop: async () => {} }))).toEqual(expected)
  })

  test('the same on a libSQL server', async () => {
    expect(await migrated(async (dir) => startSqld(join(dir, 'sqld')))).toEqual(expected)
  }, 30_000)
})
