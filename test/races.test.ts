import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { createClient } from '@libsql/client'
import { and, asc, eq, gt, isNotNull, isNull, max } from 'drizzle-orm'
import {
  attendanceRecords,
  auditLogs,
  departments,
  employees,
  permissions,
  refreshTokens,
  rolePermissions,
  roles,
  salaries,
  userRoles,
  users,
} from '../src/db/schema'
import { errorBody, login, NOW, loginAdmin, makeUser, req, startApp, tempDir, type Reply, type TestApp } from './helpers'
import { call, signIn, startServer, type ServerProcess } from './server-process'

// Two app instances on one database file, as two server processes behind reusePort would be;
// the requests of every race alternate between them. Inside one process both share the write
// queue of that file, so the last describe also races two real server processes on one file.
let a: TestApp
let b: TestApp
let admin: string

const N = 50
const on = (i: number) => (i % 2 === 0 ? a : b)
const db = () => a.deps.database.db
const tally = (replies: { status: number }[]) => {
  const counts: Record<number, number> = {}
  for (const { status } of replies) counts[status] = (counts[status] ?? 0) + 1
  return counts
}
/** Audit entries written after `sinceId`, oldest first. */
const auditSince = (sinceId: number) => db().select().from(auditLogs).where(gt(auditLogs.id, sinceId)).orderBy(asc(auditLogs.id))
const lastAuditId = async () =>
  (
    await db()
      .select({ id: max(auditLogs.id) })
      .from(auditLogs)
  )[0].id ?? 0

/** One request of a race: what it does (`kind`), to what (`target`), and how to send it to instance `i % 2`. */
interface Op {
  kind: string
  target?: number | string
  /** sent this many milliseconds after the others: a request without a body overtakes those with one */
  delay?: number
  send: (i: number) => Promise<Reply>
}
async function fire(ops: Op[]): Promise<(Op & { reply: Reply })[]> {
  const replies = await Promise.all(ops.map((op, i) => (op.delay ? Bun.sleep(op.delay).then(() => op.send(i)) : op.send(i))))
  return ops.map((op, i) => ({ ...op, reply: replies[i] }))
}

beforeAll(async () => {
  a = await startApp()
  b = await startApp({ dir: a.dir })
  admin = await loginAdmin(a.app)
})

afterAll(() => {
  b.close()
  a.close()
})

describe('attendance and salaries: the unique index decides', () => {
  let employeeId: number
  let employeeToken: string

  beforeAll(async () => {
    const adminReq = (method: string, path: string, body: unknown) => req(a.app, method, path, { token: admin, body })
    await adminReq('POST', '/api/v1/admin/companies', { name: 'Race Co', timezone: 'UTC' })
    await adminReq('POST', '/api/v1/admin/attendance/groups', { name: 'Racers', company_id: 1 })
    const rule = await adminReq('POST', '/api/v1/admin/attendance/rules', {
      name: 'Every day',
      group_id: 1,
      work_start_time: '09:00',
      work_end_time: '18:00',
      required_work_hours: 8,
      work_days: '1,2,3,4,5,6,7',
    })
    expect(rule.status).toBe(201)
    const created = await adminReq('POST', '/api/v1/admin/employees', { name: 'Rae', username: 'rae', password: 'rae-password-1' })
    employeeId = created.body.data.id
    await adminReq('POST', '/api/v1/admin/attendance/groups/1/employees', { employee_ids: [employeeId] })
    employeeToken = await login(a.app, 'rae', 'rae-password-1')
  })

  test(`${N} clock-ins for one employee over two instances → one 200, ${N - 1} × 409, one record`, async () => {
    const replies = await Promise.all(
      Array.from({ length: N }, (_, i) => req(on(i).app, 'POST', '/api/v1/attendance/clock-in', { token: employeeToken, body: {} })),
    )
    expect(tally(replies)).toEqual({ 200: 1, 409: N - 1 })
    const won = replies.find((reply) => reply.status === 200)!
    const rows = await db().select().from(attendanceRecords).where(eq(attendanceRecords.employeeId, employeeId))
    expect(rows).toHaveLength(1)
    expect(won.body.data).toEqual({
      attendance_id: rows[0].id,
      work_date: '2024-03-15',
      clock_in_time: '2024-03-15T09:30:00.000Z',
      status: 1,
      status_text: 'late',
      late_minutes: 30,
      message: 'Clocked in 30 minutes late',
    })
    for (const reply of replies.filter((r) => r.status === 409))
      expect(reply.body).toEqual(errorBody(409, 'You have already clocked in for 2024-03-15'))
  }, 20_000)

  test(`${N} clock-outs at once → one 200, ${N - 1} × 409; the record is closed once`, async () => {
    // still within the access token's two hours
    a.clock.set('2024-03-15T11:00:00.000Z')
    b.clock.set('2024-03-15T11:00:00.000Z')
    try {
      const replies = await Promise.all(
        Array.from({ length: N }, (_, i) => req(on(i).app, 'POST', '/api/v1/attendance/clock-out', { token: employeeToken, body: {} })),
      )
      expect(tally(replies)).toEqual({ 200: 1, 409: N - 1 })
      for (const reply of replies.filter((r) => r.status === 409))
        expect(reply.body).toEqual({
          ...errorBody(409, 'You have already clocked out for 2024-03-15'),
          timestamp: '2024-03-15T11:00:00.000Z',
        })
      const [row] = await db().select().from(attendanceRecords).where(eq(attendanceRecords.employeeId, employeeId))
      expect(row.clockOutTime?.toISOString()).toBe('2024-03-15T11:00:00.000Z')
    } finally {
      a.clock.set(NOW)
      b.clock.set(NOW)
    }
  }, 20_000)

  test(`${N} salary creates for one employee and month → one 201, ${N - 1} × 409, one row, one audit entry`, async () => {
    const since = await lastAuditId()
    const replies = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        req(on(i).app, 'POST', '/api/v1/admin/salaries', {
          token: admin,
          // each request carries different amounts, so the row shows which one won
          body: { employee_id: employeeId, month: '2024-03', basic_salary: 1000 + i, personal_tax: 0.1 },
        }),
      ),
    )
    expect(tally(replies)).toEqual({ 201: 1, 409: N - 1 })
    for (const reply of replies.filter((r) => r.status === 409))
      expect(reply.body).toEqual(errorBody(409, 'Rae already has a salary record for 2024-03; update that one instead'))
    const winner = replies.findIndex((reply) => reply.status === 201)
    const rows = await db().select().from(salaries).where(eq(salaries.employeeId, employeeId))
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ month: '2024-03', basicSalary: (1000 + winner) * 100, personalTax: 10 })
    expect(replies[winner].body.data).toMatchObject({ id: rows[0].id, net_salary: 1000 + winner - 0.1, status: '0' })
    const audit = await auditSince(since)
    expect(audit.map((entry) => [entry.action, entry.resourceId])).toEqual([['salary.create', String(rows[0].id)]])
  }, 20_000)
})

describe('roles: edits, deletes, assignments and grants at once', () => {
  const userIds: number[] = []
  const PERMS = ['departments:read', 'departments:create', 'companies:read', 'employees:read', 'salaries:read']

  beforeAll(async () => {
    const created = await Promise.all(
      ['ria', 'rob', 'roy'].map((name) =>
        req(a.app, 'POST', '/api/v1/admin/users', { token: admin, body: { username: name, password: `${name}-password-1`, name } }),
      ),
    )
    for (const reply of created) userIds.push(reply.body.data.id)
  })

  const makeRole = async (name: string) => {
    const reply = await req(a.app, 'POST', '/api/v1/admin/roles', { token: admin, body: { name, display_name: 'v0' } })
    expect(reply.status).toBe(201)
    return reply.body.data.id as number
  }

  /** Every kind of change to one role, interleaved: renames, assignments, grants and (optionally) deletes. */
  const opsOn = (roleId: number, roleName: string, deletes: number): Op[] => {
    const ops: Op[] = []
    for (let i = 0; i < 12; i++) {
      ops.push({
        kind: 'update',
        target: `v${i + 1}`,
        send: (n) => req(on(n).app, 'PUT', `/api/v1/admin/roles/${roleId}`, { token: admin, body: { display_name: `v${i + 1}` } }),
      })
      if (i >= 4 && i < 4 + deletes)
        ops.push({
          kind: 'delete',
          send: (n) => req(on(n).app, 'DELETE', `/api/v1/admin/roles/${roleId}`, { token: admin }),
        })
      const user = userIds[i % userIds.length]
      ops.push({
        kind: 'assign',
        target: user,
        send: (n) => req(on(n).app, 'POST', '/api/v1/admin/roles/assign', { token: admin, body: { user_id: user, role_name: roleName } }),
      })
      const permission = PERMS[i % PERMS.length]
      ops.push({
        kind: 'grant',
        target: permission,
        send: (n) =>
          req(on(n).app, 'POST', '/api/v1/admin/roles/permissions/add', {
            token: admin,
            body: { role_name: roleName, permission_name: permission },
          }),
      })
    }
    return ops
  }

  const linksOf = async (roleId: number) => ({
    users: (await db().select().from(userRoles).where(eq(userRoles.roleId, roleId))).map((row) => row.userId).sort(),
    permissions: (
      await db()
        .select({ name: permissions.name })
        .from(rolePermissions)
        .innerJoin(permissions, eq(permissions.id, rolePermissions.permissionId))
        .where(eq(rolePermissions.roleId, roleId))
    )
      .map((row) => row.name)
      .sort(),
  })

  test('with deletes: one delete wins; the role is gone with no links left; nothing succeeded after it; one audit entry per 200', async () => {
    const roleId = await makeRole('racer')
    const since = await lastAuditId()
    // launched a quarter of a millisecond apart, so the deletes land among the other changes
    // (all at once, a DELETE, having no body to parse, overtakes every other request)
    const results = await fire(opsOn(roleId, 'racer', 5).map((op, i) => ({ ...op, delay: i * 0.25 })))

    for (const { kind, reply } of results) {
      expect([200, 404]).toContain(reply.status)
      if (reply.status === 404)
        expect(reply.body).toEqual(
          errorBody(404, kind === 'update' || kind === 'delete' ? `Role ${roleId} does not exist` : 'Role "racer" does not exist'),
        )
    }
    const ok = (kind: string) => results.filter((r) => r.kind === kind && r.reply.status === 200)
    expect(ok('delete')).toHaveLength(1)

    expect(await db().select().from(roles).where(eq(roles.id, roleId))).toEqual([])
    expect(await linksOf(roleId)).toEqual({ users: [], permissions: [] })

    const audit = await auditSince(since)
    const count = (action: string) => audit.filter((entry) => entry.action === action).length
    expect(count('role.update')).toBe(ok('update').length)
    expect(count('role.delete')).toBe(1)
    expect(count('role.assign')).toBe(ok('assign').length)
    expect(count('role.permission.add')).toBe(ok('grant').length)
    expect(audit).toHaveLength(ok('update').length + 1 + ok('assign').length + ok('grant').length)
    // the delete is the last change: everything that succeeded came before it ...
    expect(audit.at(-1)!.action).toBe('role.delete')
    // ... and the delete saw exactly the links those successes made
    const removed = audit.at(-1)!.before as { user_ids: number[]; permissions: string[]; display_name: string }
    expect(removed.user_ids.sort()).toEqual([...new Set(ok('assign').map((r) => r.target as number))].sort())
    expect(removed.permissions.sort()).toEqual([...new Set(ok('grant').map((r) => r.target as string))].sort())
    const lastUpdate = audit.filter((entry) => entry.action === 'role.update').at(-1)
    expect(removed.display_name).toBe(lastUpdate ? (lastUpdate.after as { display_name: string }).display_name : 'v0')
  }, 20_000)

  test('without deletes: the role ends as the last audited change left it, links and all', async () => {
    const roleId = await makeRole('steady')
    const since = await lastAuditId()
    const results = await fire(opsOn(roleId, 'steady', 0))
    expect(tally(results.map((r) => r.reply))).toEqual({ 200: results.length })

    const audit = await auditSince(since)
    expect(audit).toHaveLength(results.length)
    const lastUpdate = audit.filter((entry) => entry.action === 'role.update').at(-1)!
    const [row] = await db().select().from(roles).where(eq(roles.id, roleId))
    expect(row.displayName).toBe((lastUpdate.after as { display_name: string }).display_name)
    expect((await req(b.app, 'GET', `/api/v1/admin/roles/${roleId}`, { token: admin })).body.data).toEqual(lastUpdate.after)

    const links = await linksOf(roleId)
    expect(links).toEqual({ users: [...userIds].sort(), permissions: [...PERMS].sort() })
    const lastGrant = audit.filter((entry) => entry.action === 'role.permission.add').at(-1)!
    expect((lastGrant.after as { permissions: string[] }).permissions.sort()).toEqual(links.permissions)
    // assigning a held role is a no-op: one link per user, however many assigns raced
    const held = await db().select().from(userRoles).where(eq(userRoles.roleId, roleId))
    expect(held).toHaveLength(userIds.length)
  }, 20_000)
})

describe('a department deleted while employees move into it', () => {
  let home: number

  beforeAll(async () => {
    const reply = await req(a.app, 'POST', '/api/v1/admin/departments', { token: admin, body: { name: 'Home' } })
    home = reply.body.data.id
  })

  const setUp = async (round: number) => {
    const target = (await req(a.app, 'POST', '/api/v1/admin/departments', { token: admin, body: { name: `Target ${round}` } })).body.data
      .id as number
    const ids: number[] = []
    for (let i = 0; i < 10; i++) {
      const reply = await req(a.app, 'POST', '/api/v1/admin/employees', {
        token: admin,
        body: { name: `Mover ${round}-${i}`, department_id: home },
      })
      ids.push(reply.body.data.id)
    }
    return { target, ids }
  }

  const race = async (target: number, ids: number[], delay: number) => {
    const deletes: Op[] = Array.from({ length: 3 }, (_, i) => ({
      kind: 'delete',
      delay: delay + i,
      send: (n: number) => req(on(n).app, 'DELETE', `/api/v1/admin/departments/${target}`, { token: admin }),
    }))
    const moves: Op[] = ids.map((id) => ({
      kind: 'move',
      target: id,
      send: (n: number) => req(on(n).app, 'PUT', `/api/v1/admin/employees/${id}`, { token: admin, body: { department_id: target } }),
    }))
    return fire([...moves.slice(0, 5), ...deletes, ...moves.slice(5)])
  }

  // the delete overtakes the moves (it has no body to parse) unless it is held back a little
  for (const [round, delay] of [
    [1, 0],
    [2, 1],
    [3, 3],
    [4, 8],
  ] as const)
    test(`round ${round} (deletes ${delay} ms after the moves): gone with nobody in it, or kept with every mover in it`, async () => {
      const { target, ids } = await setUp(round)
      const since = await lastAuditId()
      const results = await race(target, ids, delay)
      const deletes = results.filter((r) => r.kind === 'delete')
      const moves = results.filter((r) => r.kind === 'move')
      const moved = moves.filter((r) => r.reply.status === 200).map((r) => r.target as number)

      const [kept] = await db().select().from(departments).where(eq(departments.id, target))
      const inTarget = (await db().select({ id: employees.id }).from(employees).where(eq(employees.departmentId, target))).map((r) => r.id)
      const audit = await auditSince(since)

      if (!kept) {
        // the delete won before any move: every move was refused, nobody references it
        expect(tally(deletes.map((r) => r.reply))).toEqual({ 200: 1, 404: 2 })
        for (const r of deletes.filter((r) => r.reply.status === 404))
          expect(r.reply.body).toEqual(errorBody(404, `Department ${target} does not exist`))
        expect(moved).toEqual([])
        const message = `department ${target} does not exist`
        for (const r of moves)
          expect(r.reply.body).toEqual(errorBody(400, `department_id: ${message}`, { errors: [{ field: 'department_id', message }] }))
        expect(inTarget).toEqual([])
        expect(audit.map((entry) => entry.action)).toEqual(['department.delete'])
      } else {
        // a move won first: every delete was refused and every mover is in it
        for (const r of deletes)
          expect(r.reply.body).toEqual(errorBody(409, `Department ${target} still has employees; move them to another department first`))
        expect(moved.sort()).toEqual([...ids].sort())
        expect(inTarget.sort()).toEqual([...ids].sort())
        expect(audit.map((entry) => entry.action)).toEqual(ids.map(() => 'employee.update'))
      }
      // either way, no employee points at a department that does not exist
      const dangling = await db()
        .select({ id: employees.id })
        .from(employees)
        .leftJoin(departments, eq(departments.id, employees.departmentId))
        .where(and(isNotNull(employees.departmentId), isNull(departments.id)))
      expect(dangling).toEqual([])
    }, 20_000)
})

describe('the last administrator', () => {
  let root: { id: number; token: string }
  let second: { id: number }
  const refusals: Record<string, string> = { disable: 'be disabled', delete: 'be deleted', revoke: 'lose role admin' }

  beforeAll(async () => {
    // the actor holds every permission through a role that is not admin, so it does not count as one
    await req(a.app, 'POST', '/api/v1/admin/roles', { token: admin, body: { name: 'root' } })
    for (const { name } of await db().select({ name: permissions.name }).from(permissions))
      await req(a.app, 'POST', '/api/v1/admin/roles/permissions/add', { token: admin, body: { role_name: 'root', permission_name: name } })
    const [rooty, made] = await Promise.all([
      makeUser(a.app, admin, 'rooty', ['root']),
      req(a.app, 'POST', '/api/v1/admin/users', {
        token: admin,
        body: { username: 'second', password: 'second-password-1', name: 'second', roles: ['admin'] },
      }),
    ])
    root = rooty
    second = made.body.data
  })

  const disable = (id: number): Op => ({
    kind: 'disable',
    target: id,
    send: (n) => req(on(n).app, 'PUT', `/api/v1/admin/users/${id}`, { token: root.token, body: { status: 0 } }),
  })

  /** Exactly one enabled admin is left; every change to it was refused, every other went through; one audit entry per 200. */
  const checkOneLeft = async (results: (Op & { reply: Reply })[], since: number) => {
    const enabledAdmins = await db()
      .select({ id: users.id, username: users.username })
      .from(users)
      .innerJoin(userRoles, eq(userRoles.userId, users.id))
      .innerJoin(roles, and(eq(roles.id, userRoles.roleId), eq(roles.name, 'admin')))
      .where(eq(users.status, 1))
    expect(enabledAdmins).toHaveLength(1)
    const survivor = enabledAdmins[0].id
    const survivorName = enabledAdmins[0].username
    for (const r of results.filter((r) => r.target === survivor))
      expect(r.reply.body).toEqual(
        errorBody(409, `User "${survivorName}" is the last enabled administrator and cannot ${refusals[r.kind]}; make another user admin first`),
      )
    // the other one was changed, or found already deleted
    for (const r of results.filter((r) => r.target !== survivor)) expect([200, 404]).toContain(r.reply.status)
    expect(await auditSince(since)).toHaveLength(results.filter((r) => r.reply.status === 200).length)
    return survivor
  }

  test(`${N} disables of both admins at once leave exactly one enabled`, async () => {
    const since = await lastAuditId()
    const results = await fire(Array.from({ length: N }, (_, i) => disable(i % 2 === 0 ? 1 : second.id)))
    const survivor = await checkOneLeft(results, since)
    // enabled again for the next race
    const other = survivor === 1 ? second.id : 1
    expect((await req(a.app, 'PUT', `/api/v1/admin/users/${other}`, { token: root.token, body: { status: 1 } })).status).toBe(200)
  }, 20_000)

  test('disables, deletes and admin revocations of both admins at once leave exactly one enabled admin', async () => {
    const since = await lastAuditId()
    const ops: Op[] = []
    for (let i = 0; i < 4; i++)
      for (const id of [1, second.id]) {
        ops.push(disable(id))
        ops.push({
          kind: 'revoke',
          target: id,
          send: (n) =>
            req(on(n).app, 'POST', '/api/v1/admin/roles/revoke', { token: root.token, body: { user_id: id, role_name: 'admin' } }),
        })
        if (i < 2)
          ops.push({
            kind: 'delete',
            target: id,
            send: (n) => req(on(n).app, 'DELETE', `/api/v1/admin/users/${id}`, { token: root.token }),
          })
      }
    await checkOneLeft(await fire(ops), since)
  }, 20_000)
})

describe('refresh-token rotation over two instances', () => {
  test('ten refreshes of one token at once: one wins, nine are refused as reuse, and the reuse ends the whole chain', async () => {
    const pair = await req(a.app, 'POST', '/api/v1/auth/login', { body: { username: 'rae', password: 'rae-password-1' } })
    const since = await lastAuditId()
    const replies = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        req(on(i).app, 'POST', '/api/v1/auth/refresh', { body: { refresh_token: pair.body.data.refresh_token } }),
      ),
    )
    expect(tally(replies)).toEqual({ 200: 1, 401: 9 })
    for (const reply of replies.filter((r) => r.status === 401))
      expect(reply.body).toEqual(
        errorBody(401, 'This refresh token was already used, so every session of this sign-in was ended; sign in again'),
      )
    const winner = replies.find((reply) => reply.status === 200)!
    const audit = await auditSince(since)
    expect(audit.map((entry) => entry.action).sort()).toEqual(['auth.refresh', ...Array(9).fill('auth.refresh.reuse')])
    // the reuse after the rotation revoked the winner's new token too
    const [{ familyId }] = await db()
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.usedAt, new Date(NOW)))
    const family = await db().select().from(refreshTokens).where(eq(refreshTokens.familyId, familyId))
    expect(family).toHaveLength(2)
    expect(family.filter((row) => row.revokedAt === null)).toEqual([])
    const next = await req(b.app, 'POST', '/api/v1/auth/refresh', { body: { refresh_token: winner.body.data.refresh_token } })
    expect(next.status).toBe(401)
  }, 20_000)
})

describe('two server processes on one database file', () => {
  let dir: string
  let one: ServerProcess
  let two: ServerProcess
  let token: string
  let employeeToken: string
  let employeeId: number
  let rootToken: string
  let secondAdmin: number
  const at = (i: number) => (i % 2 === 0 ? one : two).base

  beforeAll(async () => {
    dir = tempDir('workforce-races-')
    const env = {
      DATABASE_URL: `file:${join(dir, 'shared.db')}`,
      STORAGE_URL: `file:${join(dir, 'files')}`,
      ADMIN_PASSWORD: 'admin-password-1',
      JWT_SECRET: 'race-secret-that-is-at-least-32-bytes-long',
    }
    const started = await Promise.allSettled([startServer(env), startServer(env)])
    ;[one, two] = started.map((result) => (result.status === 'fulfilled' ? result.value : undefined!))
    const failed = started.find((result) => result.status === 'rejected')
    if (failed) throw (failed as PromiseRejectedResult).reason
    token = await signIn(one.base, 'admin', 'admin-password-1')
    const post = (path: string, body: unknown) => call(one.base, 'POST', path, { token, body })
    await post('/api/v1/admin/companies', { name: 'Two Co' })
    await post('/api/v1/admin/attendance/groups', { name: 'Both', company_id: 1 })
    await post('/api/v1/admin/attendance/rules', {
      name: 'Any day',
      group_id: 1,
      work_start_time: '00:00',
      work_end_time: '23:59',
      required_work_hours: 1,
      work_days: '1,2,3,4,5,6,7',
    })
    employeeId = (await post('/api/v1/admin/employees', { name: 'Pia', username: 'pia', password: 'pia-password-1' })).body.data.id
    await post('/api/v1/admin/attendance/groups/1/employees', { employee_ids: [employeeId] })
    employeeToken = await signIn(two.base, 'pia', 'pia-password-1')
    // an actor with every permission through a role that is not admin, and a second admin
    await post('/api/v1/admin/roles', { name: 'root' })
    const catalogue = await call(one.base, 'GET', '/api/v1/admin/permissions?page_size=100', { token })
    for (const { name } of catalogue.body.data.list)
      await post('/api/v1/admin/roles/permissions/add', { role_name: 'root', permission_name: name })
    await post('/api/v1/admin/users', { username: 'rooty', password: 'rooty-password-1', name: 'Rooty', roles: ['root'] })
    secondAdmin = (
      await post('/api/v1/admin/users', { username: 'second', password: 'second-password-1', name: 'Second', roles: ['admin'] })
    ).body.data.id
    rootToken = await signIn(two.base, 'rooty', 'rooty-password-1')
  }, 60_000)

  const query = async (sql: string) => {
    const client = createClient({ url: `file:${join(dir, 'shared.db')}` })
    try {
      return (await client.execute(sql)).rows
    } finally {
      client.close()
    }
  }

  afterAll(async () => {
    await Promise.all([one?.stop(), two?.stop()])
    rmSync(dir, { recursive: true, force: true })
  })

  test(`${N} clock-ins, ${N} salary creates and ${N} department creates differing only in case, split over both: one of each wins`, async () => {
    const [clockIns, salaryCreates, departmentCreates] = await Promise.all([
      Promise.all(
        Array.from({ length: N }, (_, i) => call(at(i), 'POST', '/api/v1/attendance/clock-in', { token: employeeToken, body: {} })),
      ),
      Promise.all(
        Array.from({ length: N }, (_, i) =>
          call(at(i + 1), 'POST', '/api/v1/admin/salaries', {
            token,
            body: { employee_id: employeeId, month: '2024-05', basic_salary: 1 },
          }),
        ),
      ),
      Promise.all(
        Array.from({ length: N }, (_, i) => {
          // "Night Shift" with a different mix of upper and lower case each time
          const name = [...'night shift'].map((c, k) => ((i >> (k % 6)) & 1 ? c.toUpperCase() : c)).join('')
          return call(at(i), 'POST', '/api/v1/admin/departments', { token, body: { name } })
        }),
      ),
    ])
    expect(tally(clockIns)).toEqual({ 200: 1, 409: N - 1 })
    expect(tally(salaryCreates)).toEqual({ 201: 1, 409: N - 1 })
    expect(tally(departmentCreates)).toEqual({ 201: 1, 409: N - 1 })
    const created = departmentCreates.find((r) => r.status === 201)!.body.data.name as string
    for (const r of departmentCreates.filter((r) => r.status === 409)) expect(r.body.message).toStartWith('A department named "')

    const client = createClient({ url: `file:${join(dir, 'shared.db')}` })
    try {
      const count = async (sql: string) => Number((await client.execute(sql)).rows[0].n)
      expect(await count(`SELECT count(*) AS n FROM attendance_records WHERE employee_id = ${employeeId}`)).toBe(1)
      expect(await count(`SELECT count(*) AS n FROM salaries WHERE employee_id = ${employeeId} AND month = '2024-05'`)).toBe(1)
      expect((await client.execute(`SELECT name FROM departments WHERE lower(name) = 'night shift'`)).rows.map((r) => r.name)).toEqual([
        created,
      ])
      expect(await count(`SELECT count(*) AS n FROM audit_logs WHERE action IN ('salary.create', 'department.create')`)).toBe(2)
    } finally {
      client.close()
    }
  }, 60_000)

  test(`${N} disables of both admins split over both: exactly one admin stays enabled`, async () => {
    const targets = [1, secondAdmin]
    const replies = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        call(at(i >> 1), 'PUT', `/api/v1/admin/users/${targets[i % 2]}`, { token: rootToken, body: { status: 0 } }),
      ),
    )
    const enabled = await query(
      `SELECT u.id, u.username FROM users u JOIN user_roles ur ON ur.user_id = u.id JOIN roles r ON r.id = ur.role_id WHERE r.name = 'admin' AND u.status = 1`,
    )
    expect(enabled).toHaveLength(1)
    const survivor = Number(enabled[0].id)
    const survivorName = String(enabled[0].username)
    replies.forEach((reply, i) => {
      if (targets[i % 2] !== survivor) expect(reply.status).toBe(200)
      else
        expect([reply.status, reply.body.message]).toEqual([
          409,
          `User "${survivorName}" is the last enabled administrator and cannot be disabled; make another user admin first`,
        ])
    })
  }, 30_000)

  test('ten refreshes of one token split over both: exactly one wins', async () => {
    const pair = await call(one.base, 'POST', '/api/v1/auth/login', { body: { username: 'pia', password: 'pia-password-1' } })
    const replies = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        call(at(i), 'POST', '/api/v1/auth/refresh', { body: { refresh_token: pair.body.data.refresh_token } }),
      ),
    )
    expect(tally(replies)).toEqual({ 200: 1, 401: 9 })
    const family = await query(
      `SELECT revoked_at FROM refresh_tokens WHERE family_id = (SELECT family_id FROM refresh_tokens WHERE used_at IS NOT NULL ORDER BY id DESC LIMIT 1)`,
    )
    expect(family.map((row) => row.revoked_at === null)).toEqual([false, false])
  }, 30_000)

  test('neither process logged an error', () => {
    expect([...one.errors, ...two.errors]).toEqual([])
  })
})
