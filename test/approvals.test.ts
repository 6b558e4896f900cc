import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import { auditLogs, employees, leaveRequests } from '../src/db/schema'
import { errorBody, invalidBody, leaveNamed, login, loginAdmin, makeUser, req, startApp, type TestApp } from './helpers'

/*
 * CONTRACT §10, approvals of leave: who decides (the employee's manager, else their attendance
 * group's manager, or a holder of approvals:manage; never oneself), the inbox, approve and reject,
 * and manager_id on employees (no cycles). Asia/Shanghai; "today" is Friday 15 March 2024.
 *
 * People: mia manages the attendance group Office (ann, ben, mia, max are in it); max is ben's own
 * manager; ada is the administrator's employee record; hr holds approvals:manage and no record.
 */

const local = (dateTime: string) => new Date(`${dateTime}+08:00`).toISOString()
const NOW = local('2024-03-15T12:00:00')

let t: TestApp
let admin: string
const tokens: Record<string, string> = {}
const ids: Record<string, number> = {}
const userIds: Record<string, number> = {}
/** The leave requests made below, as their POST answered. */
const requests: Record<string, Record<string, unknown> & { id: number }> = {}

const stamp = () => t.clock.now().toISOString()
const ok = (data: unknown, message = 'success') => ({ code: 200, message, data, timestamp: stamp() })
const failure = (code: number, message: string, extra: Record<string, unknown> = {}) => ({ ...errorBody(code, message, extra), timestamp: stamp() })
const adminReq = (method: string, path: string, body?: unknown) => req(t.app, method, path, { token: admin, body })
const as = (who: string, method: string, path: string, body?: unknown) => req(t.app, method, path, { token: who === 'admin' ? admin : tokens[who], body })
const database = () => t.deps.database.db
const person = (who: string) => ({ id: ids[who], name: who })
const pagination = (total: number, page_size = 10) => ({
  current_page: 1,
  page_size,
  total_items: total,
  total_pages: Math.ceil(total / page_size),
  has_next: false,
  has_prev: false,
})
const item = (request: Record<string, unknown> & { id: number }, summary: string) => ({
  kind: 'leave',
  id: request.id,
  employee: request.employee,
  created_at: request.created_at,
  summary,
  request,
})
const inbox = (who: string, query = '') => as(who, 'GET', `/api/v1/approvals${query}`)
const rowOf = async (id: number) => (await database().select().from(leaveRequests).where(eq(leaveRequests.id, id)))[0]

async function ask(who: string, key: string, start: string, end: string, extra: Record<string, unknown> = {}) {
  const reply = await as(who, 'POST', '/api/v1/leave/requests', { type_id: 1, start_date: start, end_date: end, ...extra })
  expect(reply.status).toBe(201)
  requests[key] = reply.body.data
  // one second apart: the inbox is oldest first
  t.clock.set(new Date(t.clock.now().getTime() + 1000).toISOString())
  return reply.body.data
}

beforeAll(async () => {
  t = await startApp({ now: NOW, env: { ACCESS_TOKEN_TTL: '2592000' } })
  admin = await loginAdmin(t.app)
  expect((await adminReq('POST', '/api/v1/admin/companies', { name: 'Acme', timezone: 'Asia/Shanghai' })).status).toBe(201)
  for (const name of ['mia', 'ann', 'ben', 'max']) {
    const created = await adminReq('POST', '/api/v1/admin/employees', { name, username: name, password: `${name}-password` })
    ids[name] = created.body.data.id
    userIds[name] = created.body.data.user_id
    tokens[name] = await login(t.app, name, `${name}-password`)
  }
  const ada = await adminReq('POST', '/api/v1/admin/employees', { name: 'ada', user_id: 1 })
  expect(ada.status).toBe(201)
  ids.ada = ada.body.data.id
  expect((await adminReq('POST', '/api/v1/admin/roles', { name: 'approver' })).status).toBe(201)
  expect((await adminReq('POST', '/api/v1/admin/roles/permissions/add', { role_name: 'approver', permission_name: 'approvals:manage' })).status).toBe(200)
  const hr = await makeUser(t.app, admin, 'hrx', ['approver', 'employee'])
  tokens.hr = hr.token
  userIds.hr = hr.id
  expect((await adminReq('POST', '/api/v1/admin/attendance/groups', { name: 'Office', company_id: 1, manager_id: ids.mia })).status).toBe(201)
  expect(
    (
      await adminReq('POST', '/api/v1/admin/attendance/rules', {
        name: 'Office hours',
        group_id: 1,
        work_start_time: '09:00',
        work_end_time: '18:00',
        required_work_hours: 8,
        work_days: '1,2,3,4,5',
      })
    ).status,
  ).toBe(201)
  // nobody chooses who decides their own requests (CONTRACT §15): another administrator puts ada (admin's employee) in the group
  const owner2 = await makeUser(t.app, admin, 'owner2', ['admin'])
  expect(
    (await req(t.app, 'POST', '/api/v1/admin/attendance/groups/1/employees', { token: owner2.token, body: { employee_ids: [ids.mia, ids.ann, ids.ben, ids.max, ids.ada] } })).status,
  ).toBe(200)
  const managed = await adminReq('PUT', `/api/v1/admin/employees/${ids.ben}`, { manager_id: ids.max })
  expect(managed.status).toBe(200)
  expect(managed.body.data.manager_id).toBe(ids.max)
  expect((await adminReq('POST', '/api/v1/admin/leave/types', { name: 'Annual leave', annual_days: 10 })).status).toBe(201)

  await ask('ann', 'ann1', '2024-03-18', '2024-03-20')
  await ask('ben', 'ben1', '2024-03-18', '2024-03-18', { half_day: 'am' })
  await ask('mia', 'mia1', '2024-03-21', '2024-03-21')
  await ask('admin', 'ada1', '2024-03-25', '2024-03-26')
  await ask('ann', 'ann2', '2024-04-01', '2024-04-01')
})

afterAll(() => t.close())

describe('routing: who decides', () => {
  test('a request’s approver is the employee’s manager, else their group’s; nobody approves their own', () => {
    expect(requests.ann1.approver).toEqual(person('mia'))
    expect(requests.ben1.approver).toEqual(person('max'))
    // mia manages the group and has no manager of her own
    expect(requests.mia1.approver).toBeNull()
    expect(requests.ada1.approver).toEqual(person('mia'))
  })

  test('the inbox lists only what the caller may decide, oldest first, with a summary', async () => {
    const ann1 = item(requests.ann1, 'Annual leave, 2024-03-18 – 2024-03-20 (3 days)')
    const ben1 = item(requests.ben1, 'Annual leave, 2024-03-18 am (0.5 days)')
    const mia1 = item(requests.mia1, 'Annual leave, 2024-03-21 (1 day)')
    const ada1 = item(requests.ada1, 'Annual leave, 2024-03-25 – 2024-03-26 (2 days)')
    const ann2 = item(requests.ann2, 'Annual leave, 2024-04-01 (1 day)')
    expect((await inbox('mia')).body).toEqual(ok({ items: [ann1, ada1, ann2], pagination: pagination(3) }))
    expect((await inbox('max', '?kind=leave&status=pending')).body).toEqual(ok({ items: [ben1], pagination: pagination(1) }))
    expect((await inbox('ann')).body).toEqual(ok({ items: [], pagination: pagination(0) }))
    // approvals:manage: everyone's, and without an employee record of one's own
    expect((await inbox('hr')).body).toEqual(ok({ items: [ann1, ben1, mia1, ada1, ann2], pagination: pagination(5) }))
    // the administrator holds it too, but never sees its own
    expect((await inbox('admin')).body).toEqual(ok({ items: [ann1, ben1, mia1, ann2], pagination: pagination(4) }))
    expect((await inbox('hr', '?page_size=2')).body.data.items.map((i: { id: number }) => i.id)).toEqual([requests.ann1.id, requests.ben1.id])
    // corrections come later: the kind is accepted and has nothing
    expect((await inbox('hr', '?kind=correction')).body).toEqual(ok({ items: [], pagination: pagination(0) }))
    expect((await inbox('hr', '?kind=overtime')).status).toBe(400)
    expect((await req(t.app, 'GET', '/api/v1/approvals')).status).toBe(401)
    // the summaries in the request's language
    const zh = await req(t.app, 'GET', '/api/v1/approvals', { token: tokens.hr, headers: { 'accept-language': 'zh' } })
    expect(zh.body.data.items.map((i: { summary: string }) => i.summary)).toEqual([
      'Annual leave，2024-03-18 至 2024-03-20（3 天）',
      'Annual leave，2024-03-18 上午（0.5 天）',
      'Annual leave，2024-03-21（1 天）',
      'Annual leave，2024-03-25 至 2024-03-26（2 天）',
      'Annual leave，2024-04-01（1 天）',
    ])
  })
})

describe('deciding', () => {
  test('the group manager approves a report’s request: stored with who, when and the note, audited', async () => {
    t.clock.set(local('2024-03-15T14:00:00'))
    const reply = await as('mia', 'POST', `/api/v1/approvals/leave/${requests.ann1.id}/approve`, { note: '  Enjoy  ' })
    const approved = {
      ...requests.ann1,
      status: 'approved',
      decided_by: { id: userIds.mia, name: 'mia' },
      decided_at: stamp(),
      decision_note: 'Enjoy',
      updated_at: stamp(),
    }
    expect(reply.body).toEqual(ok(approved, 'Request approved'))
    const row = await rowOf(requests.ann1.id)
    expect({ status: row.status, decidedBy: row.decidedBy, decidedAt: row.decidedAt, note: row.decisionNote }).toEqual({
      status: 'approved',
      decidedBy: userIds.mia,
      decidedAt: new Date(stamp()),
      note: 'Enjoy',
    })
    const entries = await database()
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'leave_request.approve'), eq(auditLogs.resourceId, String(requests.ann1.id))))
    expect(entries.map((e) => ({ actor: e.actorId, before: (e.before as { status: string }).status, after: e.after }))).toEqual([
      { actor: userIds.mia, before: 'pending', after: approved },
    ])
    // history: status=approved lists it; deciding it again → 409
    expect((await inbox('mia', '?status=approved')).body.data.items).toEqual([item(approved, 'Annual leave, 2024-03-18 – 2024-03-20 (3 days)')])
    expect((await as('mia', 'POST', `/api/v1/approvals/leave/${requests.ann1.id}/reject`, { note: 'No' })).body).toEqual(
      failure(409, `${leaveNamed(requests.ann1)} is approved, not pending: it cannot be rejected`),
    )
    const again = await req(t.app, 'POST', `/api/v1/approvals/leave/${requests.ann1.id}/reject`, {
      token: tokens.mia,
      headers: { 'accept-language': 'zh' },
      body: { note: 'No' },
    })
    expect(again.body).toEqual(failure(409, 'ann的“Annual leave”请假申请（2024-03-18 至 2024-03-20）的状态为“已批准”，不是待审批：无法驳回'))
    expect((await inbox('mia')).body.data.items.map((i: { id: number }) => i.id)).toEqual([requests.ada1.id, requests.ann2.id])
  })

  test('the employee’s own manager, not the group’s, decides; a rejection needs a note', async () => {
    const path = `/api/v1/approvals/leave/${requests.ben1.id}`
    // to anyone but its approver and holders of approvals:manage the request does not exist (CONTRACT §15)
    expect((await as('mia', 'POST', `${path}/approve`, {})).body).toEqual(
      failure(404, `Leave request ${requests.ben1.id} does not exist`),
    )
    expect((await as('ann', 'POST', `${path}/approve`, {})).status).toBe(404)
    expect((await as('max', 'POST', `${path}/reject`, {})).body).toEqual({ ...invalidBody('note', 'is required'), timestamp: stamp() })
    expect((await as('max', 'POST', `${path}/reject`, { note: '   ' })).body).toEqual(
      failure(400, 'note must not be blank', { errors: [{ field: 'note', message: 'must not be blank' }] }),
    )
    expect((await rowOf(requests.ben1.id)).status).toBe('pending')
    const reply = await as('max', 'POST', `${path}/reject`, { note: 'Release week' })
    expect(reply.body).toEqual(
      ok(
        {
          ...requests.ben1,
          status: 'rejected',
          decided_by: { id: userIds.max, name: 'max' },
          decided_at: stamp(),
          decision_note: 'Release week',
          updated_at: stamp(),
        },
        'Request rejected',
      ),
    )
    expect((await rowOf(requests.ben1.id)).status).toBe('rejected')
  })

  test('approvals:manage decides anyone’s request; nobody decides their own, the administrator neither', async () => {
    const own = await as('admin', 'POST', `/api/v1/approvals/leave/${requests.ada1.id}/approve`, {})
    expect(own.body).toEqual(failure(403, `${leaveNamed(requests.ada1)} is your own: nobody decides their own request`))
    expect((await rowOf(requests.ada1.id)).status).toBe('pending')
    // mia has no approver but hr
    expect((await as('mia', 'POST', `/api/v1/approvals/leave/${requests.mia1.id}/approve`, {})).status).toBe(403)
    const decided = await as('hr', 'POST', `/api/v1/approvals/leave/${requests.mia1.id}/approve`, {})
    expect(decided.body).toEqual(
      ok(
        { ...requests.mia1, status: 'approved', decided_by: { id: userIds.hr, name: 'hrx' }, decided_at: stamp(), decision_note: null, updated_at: stamp() },
        'Request approved',
      ),
    )
    expect((await as('hr', 'POST', `/api/v1/approvals/leave/${requests.ada1.id}/approve`, {})).status).toBe(200)
  })

  test('unknown requests and kinds → 404; a bad kind → 400', async () => {
    expect((await as('hr', 'POST', '/api/v1/approvals/leave/999/approve', {})).body).toEqual(failure(404, 'Leave request 999 does not exist'))
    const zh = { token: tokens.hr, headers: { 'accept-language': 'zh' }, body: {} }
    expect((await req(t.app, 'POST', '/api/v1/approvals/leave/999/approve', zh)).body).toEqual(failure(404, '请假申请 999 不存在'))
    expect((await as('hr', 'POST', '/api/v1/approvals/correction/1/approve', {})).body).toEqual(failure(404, 'Correction 1 does not exist'))
    expect((await as('hr', 'POST', '/api/v1/approvals/overtime/1/approve', {})).status).toBe(400)
  })

  test('two decisions at once on two instances → exactly one 200 and one 409', async () => {
    const other = await startApp({ dir: t.dir, now: stamp() })
    try {
      const path = `/api/v1/approvals/leave/${requests.ann2.id}`
      const replies = await Promise.all([
        req(t.app, 'POST', `${path}/approve`, { token: tokens.mia, body: {} }),
        req(other.app, 'POST', `${path}/reject`, { token: tokens.hr, body: { note: 'No' } }),
      ])
      expect(replies.map((r) => r.status).sort()).toEqual([200, 409])
      const winner = replies.find((r) => r.status === 200)!.body.data.status
      expect((await rowOf(requests.ann2.id)).status).toBe(winner)
      const entries = await database()
        .select()
        .from(auditLogs)
        .where(eq(auditLogs.resourceId, String(requests.ann2.id)))
      expect(entries.filter((e) => e.action === 'leave_request.approve' || e.action === 'leave_request.reject')).toHaveLength(1)
    } finally {
      other.close()
    }
  })
})

describe('manager_id on employees', () => {
  const fieldError = (message: string, fieldMessage: string) => failure(400, message, { errors: [{ field: 'manager_id', message: fieldMessage }] })

  test('unknown ids, oneself and cycles (short and long) → 400 naming the chain; nothing changes', async () => {
    expect((await adminReq('POST', '/api/v1/admin/employees', { name: 'zed', manager_id: 999 })).body).toEqual(
      fieldError('manager_id names employee 999, which does not exist', 'does not exist'),
    )
    expect((await adminReq('PUT', `/api/v1/admin/employees/${ids.ann}`, { manager_id: 999 })).status).toBe(400)
    expect((await adminReq('PUT', `/api/v1/admin/employees/${ids.ann}`, { manager_id: ids.ann })).body).toEqual(
      fieldError(`manager_id ${ids.ann}: an employee cannot be their own manager`, 'is the employee itself'),
    )
    // ben → max; max → ben closes the loop; the chain names people (with their employee numbers when they have them), not ids
    const chain = 'max → ben → max'
    expect((await adminReq('PUT', `/api/v1/admin/employees/${ids.max}`, { manager_id: ids.ben })).body).toEqual(
      fieldError(`manager_id ${ids.ben} would make a cycle of managers: ${chain}`, `makes a cycle: ${chain}`),
    )
    // ann → ben → max; max → ann closes a longer one
    expect((await adminReq('PUT', `/api/v1/admin/employees/${ids.ann}`, { manager_id: ids.ben })).status).toBe(200)
    const longer = 'max → ann → ben → max'
    expect((await adminReq('PUT', `/api/v1/admin/employees/${ids.max}`, { manager_id: ids.ann })).body).toEqual(
      fieldError(`manager_id ${ids.ann} would make a cycle of managers: ${longer}`, `makes a cycle: ${longer}`),
    )
    const rows = await database().select({ id: employees.id, managerId: employees.managerId }).from(employees)
    expect(new Map(rows.map((r) => [r.id, r.managerId]))).toEqual(
      new Map([
        [ids.mia, null],
        [ids.ann, ids.ben],
        [ids.ben, ids.max],
        [ids.max, null],
        [ids.ada, null],
      ]),
    )
    // a chain that does not come back is fine; null clears
    expect((await adminReq('PUT', `/api/v1/admin/employees/${ids.max}`, { manager_id: ids.mia })).body.data.manager_id).toBe(ids.mia)
    expect((await adminReq('PUT', `/api/v1/admin/employees/${ids.ann}`, { manager_id: null })).body.data.manager_id).toBeNull()
  })

  test('deleting a manager leaves their reports without one', async () => {
    const boss = await adminReq('POST', '/api/v1/admin/employees', { name: 'boss' })
    const report = await adminReq('POST', '/api/v1/admin/employees', { name: 'report', manager_id: boss.body.data.id })
    expect(report.status).toBe(201)
    expect(report.body.data.manager_id).toBe(boss.body.data.id)
    expect((await adminReq('DELETE', `/api/v1/admin/employees/${boss.body.data.id}`)).status).toBe(200)
    expect((await adminReq('GET', `/api/v1/admin/employees/${report.body.data.id}`)).body.data.manager_id).toBeNull()
  })
})
