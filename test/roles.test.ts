import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { asc, count, eq } from 'drizzle-orm'
import { permissions, rolePermissions, roles, userRoles } from '../src/db/schema'
import { EMPLOYEE_PERMISSIONS, PERMISSION_CATALOGUE } from '../src/modules/rbac/catalogue'
import {
  BAD_ID,
  errorBody,
  guardedRoutes,
  invalidBody,
  loginAdmin,
  makeUser,
  NOW,
  okBody,
  req,
  samplePath,
  startApp,
  type TestApp,
} from './helpers'

const ROLES = '/api/v1/admin/roles'
const PERMISSIONS = '/api/v1/admin/permissions'
const LATER = '2024-03-15T10:00:00.000Z'

let t: TestApp
let admin: string
let alice: { id: number; token: string }

beforeAll(async () => {
  t = await startApp()
  admin = await loginAdmin(t.app)
  alice = await makeUser(t.app, admin, 'alice')
})

afterAll(() => t.close())

const role = (id: number, name: string, display_name: string, description: string, status = 1, updated_at = NOW) => ({
  id,
  name,
  display_name,
  description,
  status,
  status_text: status === 1 ? 'enabled' : 'disabled',
  created_at: NOW,
  updated_at,
})

const permission = (id: number, name: string, display_name: string, description: string) => {
  const [resource, action] = name.split(':')
  return { id, name, display_name, description, resource, action, created_at: NOW, updated_at: NOW }
}

const ADMIN = role(1, 'admin', 'Administrator', 'Holds every permission')
const EMPLOYEE = role(2, 'employee', 'Employee', 'Clocks in and out and reads own records')
const CATALOGUE = PERMISSION_CATALOGUE.map((p, i) => permission(i + 1, p.name, p.displayName, p.description))
const catalogue = (name: string) => CATALOGUE.find((p) => p.name === name)!

/** The same in Chinese: the built-in roles' and permissions' texts, the status words. */
const ZH = { 'accept-language': 'zh-CN,zh;q=0.9' }
const inChinese = (r: ReturnType<typeof role>) => ({ ...r, status_text: r.status === 1 ? '启用' : '禁用' })
const ADMIN_ZH = inChinese({ ...ADMIN, display_name: '管理员', description: '拥有全部权限' })
const EMPLOYEE_ZH = inChinese({ ...EMPLOYEE, display_name: '员工', description: '上下班打卡并查看本人的记录' })
const CATALOGUE_ZH = PERMISSION_CATALOGUE.map((p, i) => permission(i + 1, p.name, p.zh.displayName, p.zh.description))

const countRows = async (table: typeof roles | typeof userRoles | typeof rolePermissions) =>
  (await t.deps.database.db.select({ n: count() }).from(table))[0].n
const roleLinks = async (roleId: number) => ({
  users: (await t.deps.database.db.select().from(userRoles).where(eq(userRoles.roleId, roleId))).map((row) => row.userId),
  permissions: (await t.deps.database.db.select().from(rolePermissions).where(eq(rolePermissions.roleId, roleId))).map(
    (row) => row.permissionId,
  ),
})

describe('role CRUD', () => {
  test('the built-in roles are there from the start', async () => {
    const reply = await req(t.app, 'GET', ROLES, { token: admin })
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual(okBody({ list: [ADMIN, EMPLOYEE], total: 2, page: 1, page_size: 10 }))
  })

  test('in Chinese, the built-in roles show their Chinese display name and description; the name stays the code', async () => {
    const reply = await req(t.app, 'GET', ROLES, { token: admin, headers: ZH })
    expect(reply.body).toEqual(okBody({ list: [ADMIN_ZH, EMPLOYEE_ZH], total: 2, page: 1, page_size: 10 }, '成功'))
    expect((await req(t.app, 'GET', `${ROLES}/2`, { token: admin, headers: ZH })).body).toEqual(okBody(EMPLOYEE_ZH, '成功'))
    // the search finds them by their Chinese display name too
    const found = await req(t.app, 'GET', `${ROLES}?search=${encodeURIComponent('管理')}`, { token: admin, headers: ZH })
    expect(found.body).toEqual(okBody({ list: [ADMIN_ZH], total: 1, page: 1, page_size: 10 }, '成功'))
  })

  test('POST → 201 with body code 200; display_name, description and status have defaults', async () => {
    const hr = await req(t.app, 'POST', ROLES, {
      token: admin,
      body: { name: 'hr', display_name: ' Human resources ', description: 'People', status: 1 },
    })
    expect(hr.status).toBe(201)
    expect(hr.body).toEqual(okBody(role(3, 'hr', 'Human resources', 'People'), 'Role created'))
    const bare = await req(t.app, 'POST', ROLES, { token: admin, body: { name: 'night_shift' } })
    expect(bare.status).toBe(201)
    expect(bare.body).toEqual(okBody(role(4, 'night_shift', 'night_shift', ''), 'Role created'))
    const off = await req(t.app, 'POST', ROLES, { token: admin, body: { name: 'auditor', display_name: 'Auditor', status: 0 } })
    expect(off.body).toEqual(okBody(role(5, 'auditor', 'Auditor', '', 0), 'Role created'))
  })

  test('a name that is not lowercase letters and "_" → 400 and nothing added', async () => {
    for (const name of ['HR', 'h', 'hr1', '_hr', 'h r', 'a'.repeat(51), ''])
      expect((await req(t.app, 'POST', ROLES, { token: admin, body: { name } })).body).toEqual(
        invalidBody('name', 'must be 2 to 50 lowercase letters or "_", starting with a letter'),
      )
    const problem = '必须是 2 到 50 个小写字母或“_”，并以字母开头'
    expect((await req(t.app, 'POST', ROLES, { token: admin, headers: ZH, body: { name: 'HR' } })).body).toEqual(
      errorBody(400, `请求无效：name：${problem}`, { errors: [{ field: 'name', message: problem }] }),
    )
    expect((await req(t.app, 'POST', ROLES, { token: admin, body: { display_name: 'x' } })).body).toEqual(
      invalidBody('name', 'is required'),
    )
    expect((await req(t.app, 'POST', ROLES, { token: admin, body: { name: 'ok_name', status: 2 } })).body).toEqual(
      invalidBody('status', 'must be 0 or 1'),
    )
    expect(await countRows(roles)).toBe(5)
  })

  test('a taken name → 409 and nothing added', async () => {
    const reply = await req(t.app, 'POST', ROLES, { token: admin, body: { name: 'hr' } })
    expect(reply.status).toBe(409)
    expect(reply.body).toEqual(errorBody(409, 'A role named "hr" already exists'))
    const inChinese = await req(t.app, 'POST', ROLES, { token: admin, headers: ZH, body: { name: 'hr' } })
    expect(inChinese.body).toEqual(errorBody(409, '名为“hr”的角色已存在'))
    expect(await countRows(roles)).toBe(5)
  })

  test('the list searches name and display name ignoring case, filters status and pages', async () => {
    const search = await req(t.app, 'GET', `${ROLES}?search=HUMAN`, { token: admin })
    expect(search.body).toEqual(okBody({ list: [role(3, 'hr', 'Human resources', 'People')], total: 1, page: 1, page_size: 10 }))
    const byName = await req(t.app, 'GET', `${ROLES}?search=_SHIFT`, { token: admin })
    expect(byName.body.data.list.map((r: { name: string }) => r.name)).toEqual(['night_shift'])
    const disabled = await req(t.app, 'GET', `${ROLES}?status=0`, { token: admin })
    expect(disabled.body).toEqual(okBody({ list: [role(5, 'auditor', 'Auditor', '', 0)], total: 1, page: 1, page_size: 10 }))
    const page = await req(t.app, 'GET', `${ROLES}?page=2&page_size=2`, { token: admin })
    expect(page.body).toEqual(
      okBody({
        list: [role(3, 'hr', 'Human resources', 'People'), role(4, 'night_shift', 'night_shift', '')],
        total: 5,
        page: 2,
        page_size: 2,
      }),
    )
    expect((await req(t.app, 'GET', `${ROLES}?status=2`, { token: admin })).body).toEqual(invalidBody('status', 'must be 0 or 1'))
    expect((await req(t.app, 'GET', `${ROLES}?page=0`, { token: admin })).body).toEqual(
      invalidBody('page', 'must be a whole number of at least 1'),
    )
  })

  test('status texts follow Accept-Language', async () => {
    const zh = await req(t.app, 'GET', `${ROLES}/5`, { token: admin, headers: { 'accept-language': 'zh-CN,zh;q=0.9,en;q=0.8' } })
    expect(zh.body.data.status_text).toBe('禁用')
    const list = await req(t.app, 'GET', `${ROLES}?page_size=1`, { token: admin, headers: { 'accept-language': 'zh' } })
    expect(list.body.data.list[0].status_text).toBe('启用')
    const en = await req(t.app, 'GET', `${ROLES}/5`, { token: admin, headers: { 'accept-language': 'fr, en;q=0.5, zh;q=0.4' } })
    expect(en.body.data.status_text).toBe('disabled')
  })

  test('GET one; unknown → 404; a bad id → 400', async () => {
    expect((await req(t.app, 'GET', `${ROLES}/1`, { token: admin })).body).toEqual(okBody(ADMIN))
    const missing = await req(t.app, 'GET', `${ROLES}/99`, { token: admin })
    expect(missing.status).toBe(404)
    expect(missing.body).toEqual(errorBody(404, 'Role 99 does not exist'))
    expect((await req(t.app, 'GET', `${ROLES}/99`, { token: admin, headers: ZH })).body).toEqual(errorBody(404, '角色 99 不存在'))
    expect((await req(t.app, 'GET', `${ROLES}/x`, { token: admin })).body).toEqual(BAD_ID)
  })

  test('PUT changes display name, description and status; the name may be sent only unchanged', async () => {
    t.clock.set(LATER)
    const reply = await req(t.app, 'PUT', `${ROLES}/5`, {
      token: admin,
      body: { name: 'auditor', display_name: 'Auditors', description: 'Read the log', status: 1 },
    })
    expect(reply.body).toEqual({ ...okBody(role(5, 'auditor', 'Auditors', 'Read the log', 1, LATER), 'Role updated'), timestamp: LATER })
    const rename = await req(t.app, 'PUT', `${ROLES}/5`, { token: admin, body: { name: 'auditors' } })
    expect(rename.body).toEqual({
      ...errorBody(400, `A role's name cannot be changed (it is "auditor"); create a new role instead`, {
        errors: [{ field: 'name', message: 'cannot be changed' }],
      }),
      timestamp: LATER,
    })
    t.clock.set(NOW)
    expect((await req(t.app, 'PUT', `${ROLES}/99`, { token: admin, body: { status: 0 } })).body).toEqual(
      errorBody(404, 'Role 99 does not exist'),
    )
    expect((await req(t.app, 'GET', `${ROLES}/5`, { token: admin })).body.data.name).toBe('auditor')
  })

  test('admin can be neither disabled nor deleted (403), but its texts can change', async () => {
    const disable = await req(t.app, 'PUT', `${ROLES}/1`, { token: admin, body: { status: 0 } })
    expect(disable.status).toBe(403)
    expect(disable.body).toEqual(errorBody(403, 'The role admin cannot be disabled'))
    const remove = await req(t.app, 'DELETE', `${ROLES}/1`, { token: admin })
    expect(remove.status).toBe(403)
    expect(remove.body).toEqual(errorBody(403, 'The role admin cannot be deleted'))
    expect((await req(t.app, 'GET', `${ROLES}/1`, { token: admin })).body).toEqual(okBody(ADMIN))
    const relabel = await req(t.app, 'PUT', `${ROLES}/1`, { token: admin, body: { description: 'Holds every permission' } })
    expect(relabel.body).toEqual(okBody(ADMIN, 'Role updated'))
    const inChinese = await req(t.app, 'DELETE', `${ROLES}/1`, { token: admin, headers: ZH })
    expect(inChinese.body).toEqual(errorBody(403, '角色 admin 不能删除'))
  })

  test('a built-in role’s text changed by an administrator is shown as written, in every language; set back, it is translated again', async () => {
    const changed = await req(t.app, 'PUT', `${ROLES}/2`, { token: admin, headers: ZH, body: { description: 'Staff who clock in' } })
    expect(changed.body).toEqual(okBody({ ...EMPLOYEE_ZH, description: 'Staff who clock in' }, '角色已更新'))
    expect((await req(t.app, 'GET', `${ROLES}/2`, { token: admin })).body).toEqual(okBody({ ...EMPLOYEE, description: 'Staff who clock in' }))
    const back = await req(t.app, 'PUT', `${ROLES}/2`, { token: admin, headers: ZH, body: { description: EMPLOYEE.description } })
    expect(back.body).toEqual(okBody(EMPLOYEE_ZH, '角色已更新'))
    expect((await req(t.app, 'GET', `${ROLES}/2`, { token: admin })).body).toEqual(okBody(EMPLOYEE))
  })
})

describe('assign and revoke', () => {
  test('assign → 200 with data null; a held role again is a no-op', async () => {
    const reply = await req(t.app, 'POST', `${ROLES}/assign`, { token: admin, body: { user_id: alice.id, role_name: 'hr' } })
    expect(reply.body).toEqual(okBody(null, 'Role assigned'))
    expect((await req(t.app, 'POST', `${ROLES}/assign`, { token: admin, body: { user_id: alice.id, role_name: 'hr' } })).body).toEqual(
      okBody(null, 'Role assigned'),
    )
    expect((await roleLinks(3)).users).toEqual([alice.id])
  })

  test('roles of a user, users of a role', async () => {
    const mine = await req(t.app, 'GET', `${ROLES}/users/${alice.id}`, { token: admin })
    expect(mine.body).toEqual(okBody([role(3, 'hr', 'Human resources', 'People')]))
    const holders = await req(t.app, 'GET', `${ROLES}/by-name/hr/users`, { token: admin })
    expect(holders.body).toEqual(okBody([{ id: alice.id, username: 'alice', name: 'alice' }]))
    expect((await req(t.app, 'GET', `${ROLES}/by-name/admin/users`, { token: admin })).body).toEqual(
      okBody([{ id: 1, username: 'admin', name: 'Administrator' }]),
    )
    expect((await req(t.app, 'GET', `${ROLES}/users/99`, { token: admin })).body).toEqual(errorBody(404, 'User 99 does not exist'))
    expect((await req(t.app, 'GET', `${ROLES}/users/0`, { token: admin })).body).toEqual(
      invalidBody('user_id', 'must be a positive whole number'),
    )
    expect((await req(t.app, 'GET', `${ROLES}/by-name/nobody/users`, { token: admin })).body).toEqual(
      errorBody(404, 'Role "nobody" does not exist'),
    )
  })

  test('unknown user or role → 404 and nothing changes', async () => {
    const user = await req(t.app, 'POST', `${ROLES}/assign`, { token: admin, body: { user_id: 99, role_name: 'hr' } })
    expect(user.status).toBe(404)
    expect(user.body).toEqual(errorBody(404, 'User 99 does not exist'))
    const name = await req(t.app, 'POST', `${ROLES}/revoke`, { token: admin, body: { user_id: alice.id, role_name: 'boss' } })
    expect(name.body).toEqual(errorBody(404, 'Role "boss" does not exist'))
    expect((await req(t.app, 'POST', `${ROLES}/assign`, { token: admin, body: { user_id: 'one', role_name: 'hr' } })).body).toEqual(
      invalidBody('user_id', 'must be a positive whole number'),
    )
    expect(await countRows(userRoles)).toBe(2)
  })

  test('the role takes effect on the next request, and stops on the next request after revoke', async () => {
    const before = await req(t.app, 'GET', '/api/v1/admin/departments', { token: alice.token })
    expect(before.body).toEqual(errorBody(403, 'Your roles do not grant the permission departments:read; ask an administrator for it'))
    await req(t.app, 'POST', `${ROLES}/permissions/add`, { token: admin, body: { role_name: 'hr', permission_name: 'departments:read' } })
    expect((await req(t.app, 'GET', '/api/v1/admin/departments', { token: alice.token })).status).toBe(200)

    expect((await req(t.app, 'POST', `${ROLES}/revoke`, { token: admin, body: { user_id: alice.id, role_name: 'hr' } })).body).toEqual(
      okBody(null, 'Role revoked'),
    )
    expect((await req(t.app, 'GET', '/api/v1/admin/departments', { token: alice.token })).status).toBe(403)
    // revoking a role not held changes nothing and is fine
    expect((await req(t.app, 'POST', `${ROLES}/revoke`, { token: admin, body: { user_id: alice.id, role_name: 'hr' } })).status).toBe(200)
    expect((await roleLinks(3)).users).toEqual([])
  })

  test('a disabled role grants nothing until enabled again', async () => {
    await req(t.app, 'POST', `${ROLES}/assign`, { token: admin, body: { user_id: alice.id, role_name: 'hr' } })
    expect((await req(t.app, 'GET', '/api/v1/admin/departments', { token: alice.token })).status).toBe(200)
    await req(t.app, 'PUT', `${ROLES}/3`, { token: admin, body: { status: 0 } })
    expect((await req(t.app, 'GET', '/api/v1/admin/departments', { token: alice.token })).status).toBe(403)
    await req(t.app, 'PUT', `${ROLES}/3`, { token: admin, body: { status: 1 } })
    expect((await req(t.app, 'GET', '/api/v1/admin/departments', { token: alice.token })).status).toBe(200)
  })

  test('an administrator cannot revoke its own admin through the admin route (403); it keeps admin', async () => {
    const reply = await req(t.app, 'POST', `${ROLES}/revoke`, { token: admin, body: { user_id: 1, role_name: 'admin' } })
    expect(reply.body).toEqual(
      errorBody(
        403,
        'You cannot revoke roles of your own account through an administrator route; use PUT /api/v1/auth/me or PUT /api/v1/auth/password, or ask another administrator',
      ),
    )
    expect((await req(t.app, 'GET', `${ROLES}/users/1`, { token: admin })).body.data.map((r: { name: string }) => r.name)).toEqual([
      'admin',
    ])
  })
})

describe('permissions', () => {
  test('the list is style P1 over the whole catalogue, by id', async () => {
    const first = await req(t.app, 'GET', PERMISSIONS, { token: admin })
    expect(first.body).toEqual(okBody({ list: CATALOGUE.slice(0, 10), total: CATALOGUE.length, page: 1, page_size: 10 }))
    const last = await req(t.app, 'GET', `${PERMISSIONS}?page=3&page_size=10`, { token: admin })
    expect(last.body).toEqual(okBody({ list: CATALOGUE.slice(20, 30), total: CATALOGUE.length, page: 3, page_size: 10 }))
  })

  test('in Chinese, every built-in permission shows its Chinese display name and description; the search finds them in Chinese', async () => {
    const all = await req(t.app, 'GET', `${PERMISSIONS}?page_size=100`, { token: admin, headers: ZH })
    expect(all.body).toEqual(okBody({ list: CATALOGUE_ZH, total: CATALOGUE.length, page: 1, page_size: 100 }, '成功'))
    const search = await req(t.app, 'GET', `${PERMISSIONS}?search=${encodeURIComponent('审计日志')}`, { token: admin, headers: ZH })
    expect(search.body).toEqual(okBody({ list: [CATALOGUE_ZH.find((p) => p.name === 'audit:read')], total: 1, page: 1, page_size: 10 }, '成功'))
    // English texts are found in either language
    const english = await req(t.app, 'GET', `${PERMISSIONS}?search=AUDIT`, { token: admin, headers: ZH })
    expect(english.body.data.list.map((p: { name: string }) => p.name)).toEqual(['audit:read'])
    const ofEmployee = await req(t.app, 'GET', `${ROLES}/by-name/employee/permissions`, { token: admin, headers: ZH })
    expect(ofEmployee.body).toEqual(okBody(CATALOGUE_ZH.filter((p) => (EMPLOYEE_PERMISSIONS as readonly string[]).includes(p.name)), '成功'))
  })

  test('search matches name, display name or description; resource filters exactly', async () => {
    const search = await req(t.app, 'GET', `${PERMISSIONS}?search=AUDIT&page_size=100`, { token: admin })
    expect(search.body.data.list.map((p: { name: string }) => p.name)).toEqual(['audit:read'])
    const resource = await req(t.app, 'GET', `${PERMISSIONS}?resource=roles`, { token: admin })
    expect(resource.body).toEqual(okBody({ list: CATALOGUE.filter((p) => p.resource === 'roles'), total: 5, page: 1, page_size: 10 }))
  })

  test('POST → 201; resource and action come from the name, or must match it', async () => {
    const reply = await req(t.app, 'POST', PERMISSIONS, {
      token: admin,
      body: { name: 'reports:read', display_name: 'Read reports', description: 'Monthly reports', resource: 'reports', action: 'read' },
    })
    expect(reply.status).toBe(201)
    const id = CATALOGUE.length + 1
    expect(reply.body).toEqual(okBody(permission(id, 'reports:read', 'Read reports', 'Monthly reports'), 'Permission created'))
    const bare = await req(t.app, 'POST', PERMISSIONS, { token: admin, body: { name: 'reports:export' } })
    expect(bare.body).toEqual(okBody(permission(id + 1, 'reports:export', 'reports:export', ''), 'Permission created'))

    const mismatch = await req(t.app, 'POST', PERMISSIONS, { token: admin, body: { name: 'reports:delete', action: 'remove' } })
    expect(mismatch.body).toEqual(
      errorBody(400, 'action "remove" does not match the name "reports:delete"; send action "delete" or leave it out', {
        errors: [{ field: 'action', message: 'must be "delete" to match the name' }],
      }),
    )
    for (const name of ['salaries', 'Salaries:Read', 'all:*', 'a:b:c', ':read', 'x: y'])
      expect((await req(t.app, 'POST', PERMISSIONS, { token: admin, body: { name } })).body).toEqual(
        invalidBody('name', 'must be resource:action in lowercase letters, digits, "_" or "-", such as salaries:read'),
      )
    const taken = await req(t.app, 'POST', PERMISSIONS, { token: admin, body: { name: 'users:read' } })
    expect(taken.status).toBe(409)
    expect(taken.body).toEqual(errorBody(409, 'A permission named "users:read" already exists'))
    // in Chinese: the refusals; a permission made through the API keeps the texts it was given
    expect((await req(t.app, 'POST', PERMISSIONS, { token: admin, headers: ZH, body: { name: 'users:read' } })).body).toEqual(
      errorBody(409, '名为“users:read”的权限已存在'),
    )
    expect((await req(t.app, 'POST', PERMISSIONS, { token: admin, headers: ZH, body: { name: 'reports:delete', action: 'remove' } })).body).toEqual(
      errorBody(400, 'action“remove”与名称“reports:delete”不符；请发送 action“delete”，或不填', {
        errors: [{ field: 'action', message: '必须为“delete”才能与名称相符' }],
      }),
    )
    const custom = await req(t.app, 'GET', `${PERMISSIONS}?resource=reports`, { token: admin, headers: ZH })
    expect(custom.body.data.list).toEqual([permission(id, 'reports:read', 'Read reports', 'Monthly reports'), permission(id + 1, 'reports:export', 'reports:export', '')])
    expect((await t.deps.database.db.select({ n: count() }).from(permissions))[0].n).toBe(CATALOGUE.length + 2)
  })

  test('add and remove a permission of a role; admin holds all of them', async () => {
    const add = await req(t.app, 'POST', `${ROLES}/permissions/add`, {
      token: admin,
      body: { role_name: 'hr', permission_name: 'reports:read' },
    })
    expect(add.body).toEqual(okBody(null, 'Permission added to the role'))
    const reportsRead = permission(CATALOGUE.length + 1, 'reports:read', 'Read reports', 'Monthly reports')
    expect((await req(t.app, 'GET', `${ROLES}/by-name/hr/permissions`, { token: admin })).body).toEqual(
      okBody([catalogue('departments:read'), reportsRead]),
    )
    const remove = await req(t.app, 'POST', `${ROLES}/permissions/remove`, {
      token: admin,
      body: { role_name: 'hr', permission_name: 'departments:read' },
    })
    expect(remove.body).toEqual(okBody(null, 'Permission removed from the role'))
    expect((await req(t.app, 'GET', `${ROLES}/by-name/hr/permissions`, { token: admin })).body).toEqual(okBody([reportsRead]))
    // removing what the role does not hold is fine
    expect(
      (await req(t.app, 'POST', `${ROLES}/permissions/remove`, { token: admin, body: { role_name: 'hr', permission_name: 'users:read' } }))
        .status,
    ).toBe(200)

    const all = await req(t.app, 'GET', `${ROLES}/by-name/admin/permissions`, { token: admin })
    expect(all.body.data).toHaveLength(CATALOGUE.length + 2)
    expect(all.body.data.slice(0, CATALOGUE.length)).toEqual(CATALOGUE)
    expect((await req(t.app, 'GET', `${ROLES}/by-name/employee/permissions`, { token: admin })).body).toEqual(
      okBody(EMPLOYEE_PERMISSIONS.map(catalogue)),
    )
    expect(
      (await req(t.app, 'POST', `${ROLES}/permissions/add`, { token: admin, body: { role_name: 'admin', permission_name: 'users:read' } }))
        .status,
    ).toBe(200)
    const strip = await req(t.app, 'POST', `${ROLES}/permissions/remove`, {
      token: admin,
      body: { role_name: 'admin', permission_name: 'users:read' },
    })
    expect(strip.status).toBe(403)
    expect(strip.body).toEqual(errorBody(403, 'The role admin holds every permission; none can be removed from it'))
    expect((await roleLinks(1)).permissions).toEqual([])
  })

  test('roles of a permission include admin', async () => {
    const reply = await req(t.app, 'GET', `${PERMISSIONS}/by-name/reports:read/roles`, { token: admin })
    expect(reply.body).toEqual(okBody([ADMIN, role(3, 'hr', 'Human resources', 'People')]))
    expect((await req(t.app, 'GET', `${PERMISSIONS}/by-name/users:delete/roles`, { token: admin })).body).toEqual(okBody([ADMIN]))
    expect((await req(t.app, 'GET', `${PERMISSIONS}/by-name/x:y/roles`, { token: admin })).body).toEqual(
      errorBody(404, 'Permission "x:y" does not exist'),
    )
  })

  test('unknown role or permission on add/remove → 404 and nothing changes', async () => {
    const links = await countRows(rolePermissions)
    expect(
      (await req(t.app, 'POST', `${ROLES}/permissions/add`, { token: admin, body: { role_name: 'nobody', permission_name: 'users:read' } }))
        .body,
    ).toEqual(errorBody(404, 'Role "nobody" does not exist'))
    expect(
      (await req(t.app, 'POST', `${ROLES}/permissions/add`, { token: admin, body: { role_name: 'hr', permission_name: 'x:y' } })).body,
    ).toEqual(errorBody(404, 'Permission "x:y" does not exist'))
    expect(await countRows(rolePermissions)).toBe(links)
  })
})

describe('delete a role', () => {
  test('its user and permission links go with it; unknown → 404', async () => {
    await req(t.app, 'POST', `${ROLES}/assign`, { token: admin, body: { user_id: alice.id, role_name: 'night_shift' } })
    await req(t.app, 'POST', `${ROLES}/permissions/add`, {
      token: admin,
      body: { role_name: 'night_shift', permission_name: 'users:read' },
    })
    expect(await roleLinks(4)).toEqual({ users: [alice.id], permissions: [catalogue('users:read').id] })
    expect((await req(t.app, 'GET', '/api/v1/admin/users', { token: alice.token })).status).toBe(200)

    const reply = await req(t.app, 'DELETE', `${ROLES}/4`, { token: admin })
    expect(reply.body).toEqual(okBody(null, 'Role deleted'))
    expect(await roleLinks(4)).toEqual({ users: [], permissions: [] })
    expect((await req(t.app, 'GET', `${ROLES}/4`, { token: admin })).status).toBe(404)
    expect((await req(t.app, 'GET', '/api/v1/admin/users', { token: alice.token })).status).toBe(403)
    expect((await req(t.app, 'DELETE', `${ROLES}/4`, { token: admin })).body).toEqual(errorBody(404, 'Role 4 does not exist'))
    const builtIn = await req(t.app, 'DELETE', `${ROLES}/2`, { token: admin })
    expect(builtIn.status).toBe(403)
    expect(builtIn.body).toEqual(
      errorBody(403, 'The built-in role employee cannot be deleted; disable it or remove its permissions instead'),
    )
    const names = (await t.deps.database.db.select({ name: roles.name }).from(roles).orderBy(asc(roles.id))).map((r) => r.name)
    expect(names).toEqual(['admin', 'employee', 'hr', 'auditor'])
  })
})

describe('nobody hands out more than they hold', () => {
  let delegate: { id: number; token: string }

  beforeAll(async () => {
    await req(t.app, 'POST', ROLES, { token: admin, body: { name: 'assigner' } })
    for (const permission_name of ['roles:assign', 'permissions:grant', 'departments:read', 'users:read', 'users:update'])
      await req(t.app, 'POST', `${ROLES}/permissions/add`, { token: admin, body: { role_name: 'assigner', permission_name } })
    await req(t.app, 'POST', ROLES, { token: admin, body: { name: 'reader' } })
    await req(t.app, 'POST', `${ROLES}/permissions/add`, {
      token: admin,
      body: { role_name: 'reader', permission_name: 'departments:read' },
    })
    delegate = await makeUser(t.app, admin, 'delegate', ['assigner'])
  })

  test('a role whose permissions the caller holds can be given to and taken from an account that holds no more', async () => {
    const plain = await makeUser(t.app, admin, 'plain')
    for (const verb of ['assign', 'revoke'])
      expect(
        (await req(t.app, 'POST', `${ROLES}/${verb}`, { token: delegate.token, body: { user_id: plain.id, role_name: 'reader' } })).body,
      ).toEqual(okBody(null, verb === 'assign' ? 'Role assigned' : 'Role revoked'))
  })

  test('giving oneself admin, or admin to another → 403 naming what the caller lacks, and nothing changes', async () => {
    const SELF = (what: string) =>
      `You cannot ${what} your own account through an administrator route; use PUT /api/v1/auth/me or PUT /api/v1/auth/password, or ask another administrator`
    const self = await req(t.app, 'POST', `${ROLES}/assign`, { token: delegate.token, body: { user_id: delegate.id, role_name: 'admin' } })
    expect(self.body).toEqual(errorBody(403, SELF('assign roles of')))
    const viaUsers = await req(t.app, 'PUT', `/api/v1/admin/users/${delegate.id}`, {
      token: delegate.token,
      body: { roles: ['assigner', 'admin'] },
    })
    expect(viaUsers.body).toEqual(errorBody(403, SELF('change')))

    const other = await makeUser(t.app, admin, 'other')
    const reply = await req(t.app, 'POST', `${ROLES}/assign`, { token: delegate.token, body: { user_id: other.id, role_name: 'admin' } })
    const held = ['roles:assign', 'permissions:grant', 'departments:read', 'users:read', 'users:update']
    const lacking = [...CATALOGUE.map((p) => p.name), 'reports:read', 'reports:export'].filter((name) => !held.includes(name)).sort()
    expect(reply.body).toEqual(
      errorBody(403, `You cannot assign the role admin: it involves ${lacking.join(', ')}, which your own roles do not grant`),
    )
    const inChinese = await req(t.app, 'POST', `${ROLES}/assign`, { token: delegate.token, headers: ZH, body: { user_id: other.id, role_name: 'admin' } })
    expect(inChinese.body).toEqual(errorBody(403, `您不能分配角色 admin：此操作涉及 ${lacking.join(', ')} 权限，而您自己的角色没有这些权限`))
    const selfInChinese = await req(t.app, 'POST', `${ROLES}/assign`, { token: delegate.token, headers: ZH, body: { user_id: delegate.id, role_name: 'admin' } })
    expect(selfInChinese.body).toEqual(
      errorBody(403, '您不能通过管理员接口为自己的账号分配角色；请使用 PUT /api/v1/auth/me 或 PUT /api/v1/auth/password，或请其他管理员操作'),
    )
    const otherViaUsers = await req(t.app, 'PUT', `/api/v1/admin/users/${other.id}`, { token: delegate.token, body: { roles: ['admin'] } })
    expect(otherViaUsers.body.message).toStartWith('You cannot change these roles: it involves approvals:manage, attendance:clock, ')
    for (const id of [delegate.id, other.id])
      expect((await req(t.app, 'GET', `${ROLES}/users/${id}`, { token: admin })).body.data.map((r: { name: string }) => r.name)).toEqual(
        id === delegate.id ? ['assigner'] : [],
      )
  })

  test('granting a permission the caller lacks → 403', async () => {
    const reply = await req(t.app, 'POST', `${ROLES}/permissions/add`, {
      token: delegate.token,
      body: { role_name: 'assigner', permission_name: 'users:delete' },
    })
    expect(reply.body).toEqual(errorBody(403, 'You cannot add users:delete: your own roles do not grant it'))
    const inChinese = await req(t.app, 'POST', `${ROLES}/permissions/add`, {
      token: delegate.token,
      headers: ZH,
      body: { role_name: 'assigner', permission_name: 'users:delete' },
    })
    expect(inChinese.body).toEqual(errorBody(403, '您不能添加权限 users:delete：您自己的角色没有该权限'))
    expect((await req(t.app, 'GET', `${ROLES}/by-name/assigner/permissions`, { token: admin })).body.data).toHaveLength(5)
  })
})

describe('a role hr given only the salary permissions', () => {
  test('manages salaries and gets 403 on every other route', async () => {
    await req(t.app, 'POST', ROLES, { token: admin, body: { name: 'payroll', display_name: 'Payroll' } })
    const granted = ['salaries:read', 'salaries:create', 'salaries:update', 'salaries:delete']
    for (const permission_name of granted)
      await req(t.app, 'POST', `${ROLES}/permissions/add`, { token: admin, body: { role_name: 'payroll', permission_name } })
    const clerk = await makeUser(t.app, admin, 'clerk', ['payroll'])

    const refused = guardedRoutes(t.app).filter((route) => !granted.includes(route.permission))
    expect(refused.length).toBeGreaterThanOrEqual(60)
    for (const route of refused) {
      const reply = await req(t.app, route.method, samplePath(route.path), {
        token: clerk.token,
        body: route.method === 'GET' ? undefined : {},
      })
      expect(reply.body, `${route.method} ${route.path}`).toEqual(
        errorBody(403, `Your roles do not grant the permission ${route.permission}; ask an administrator for it`),
      )
    }
    const employee = await req(t.app, 'POST', '/api/v1/admin/employees', { token: admin, body: { name: 'Payee' } })
    const created = await req(t.app, 'POST', '/api/v1/admin/salaries', {
      token: clerk.token,
      body: { employee_id: employee.body.data.id, month: '2024-03', basic_salary: 5000 },
    })
    expect(created.status).toBe(201)
    for (const path of ['/api/v1/admin/salaries', '/api/v1/admin/salaries/stats', `/api/v1/admin/salaries/${created.body.data.id}`])
      expect((await req(t.app, 'GET', path, { token: clerk.token })).status, path).toBe(200)
    expect(
      (await req(t.app, 'PUT', `/api/v1/admin/salaries/${created.body.data.id}`, { token: clerk.token, body: { bonus: 10 } })).status,
    ).toBe(200)
    expect((await req(t.app, 'DELETE', `/api/v1/admin/salaries/${created.body.data.id}`, { token: clerk.token })).status).toBe(200)
  })
})
