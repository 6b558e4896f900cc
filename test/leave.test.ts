import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { and, asc, eq } from 'drizzle-orm'
import { attendanceRecords, auditLogs, leaveLedger, leaveRequests, permissions } from '../src/db/schema'
import { ConflictError } from '../src/http/errors'
import { createRuleCache } from '../src/modules/attendance/setup/repository'
import { createLeaveService } from '../src/modules/leave/service'
import { seedAccessControl } from '../src/modules/rbac/seed'
import { errorBody, invalidBody, login, loginAdmin, req, startApp, type TestApp } from './helpers'

/*
 * CONTRACT §9, leave: types, the balance ledger, requests and their cancelling, the decision
 * approvals will call, and what approved leave does to day close, statistics and the month
 * calendar. Asia/Shanghai (UTC+8); "today" is Friday 15 March 2024.
 */

const local = (dateTime: string) => new Date(`${dateTime}+08:00`).toISOString()
const NOW = local('2024-03-15T12:00:00')

let t: TestApp
let admin: string
const tokens: Record<string, string> = {}
const ids: Record<string, number> = {}

const stamp = () => t.clock.now().toISOString()
const ok = (data: unknown, message = 'success') => ({ code: 200, message, data, timestamp: stamp() })
const failure = (code: number, message: string, extra: Record<string, unknown> = {}) => ({ ...errorBody(code, message, extra), timestamp: stamp() })
const invalid = (field: string, message: string) => ({ ...invalidBody(field, message), timestamp: stamp() })
const fieldError = (message: string, field: string, fieldMessage: string) => failure(400, message, { errors: [{ field, message: fieldMessage }] })
const adminReq = (method: string, path: string, body?: unknown) => req(t.app, method, path, { token: admin, body })
const as = (who: string, method: string, path: string, body?: unknown) => req(t.app, method, path, { token: tokens[who], body })
const database = () => t.deps.database.db
const serviceOf = (app: TestApp) =>
  createLeaveService({ database: app.deps.database, clock: app.clock, defaultZone: app.deps.config.defaultTimezone, ruleCache: createRuleCache() })
const ADMIN_ACTOR = { userId: 1, ip: null }

const RULE = {
  name: 'Office hours',
  group_id: 1,
  work_start_time: '09:00',
  work_end_time: '18:00',
  break_start_time: '12:00',
  break_end_time: '13:00',
  required_work_hours: 8,
  work_days: '1,2,3,4,5',
}

const balance = (type_id: number, type_name: string, granted: number, taken: number, pending: number, year = 2024) => ({
  type_id,
  type_name,
  year,
  unit: 'day',
  granted,
  taken,
  pending,
  remaining: granted - taken - pending,
})
const annual = (granted: number, taken: number, pending: number) => balance(1, 'Annual leave', granted, taken, pending)

const absencesOf = (who: string) =>
  database()
    .select({ workDate: attendanceRecords.workDate })
    .from(attendanceRecords)
    .where(and(eq(attendanceRecords.employeeId, ids[who]), eq(attendanceRecords.status, 3)))
    .orderBy(asc(attendanceRecords.workDate))
    .then((rows) => rows.map((row) => row.workDate))

beforeAll(async () => {
  // set up two weeks earlier, so the group existed on the days closed below; tokens live 30 days
  t = await startApp({ now: local('2024-03-01T12:00:00'), env: { ACCESS_TOKEN_TTL: '2592000' } })
  admin = await loginAdmin(t.app)
  expect((await adminReq('POST', '/api/v1/admin/companies', { name: 'Acme', timezone: 'Asia/Shanghai' })).status).toBe(201)
  for (const [name, hired] of [
    ['mia', '2024-01-01'],
    ['ann', '2024-01-01'],
    ['ben', '2024-01-01'],
  ] as const) {
    const created = await adminReq('POST', '/api/v1/admin/employees', { name, username: name, password: `${name}-password`, hire_date: hired })
    ids[name] = created.body.data.id
    tokens[name] = await login(t.app, name, `${name}-password`)
  }
  expect((await adminReq('POST', '/api/v1/admin/attendance/groups', { name: 'Office', company_id: 1, manager_id: ids.mia })).status).toBe(201)
  expect((await adminReq('POST', '/api/v1/admin/attendance/rules', RULE)).status).toBe(201)
  expect((await adminReq('POST', '/api/v1/admin/attendance/groups/1/employees', { employee_ids: [ids.mia, ids.ann, ids.ben] })).status).toBe(200)
  t.clock.set(NOW)
  // Wednesday 20 March is a holiday; 13 and 14 March are closed: everyone is absent on them
  expect((await adminReq('PUT', '/api/v1/admin/companies/1/calendar/2024-03-20', { kind: 'holiday', name: 'Spring day' })).status).toBe(201)
  for (const date of ['2024-03-13', '2024-03-14']) expect((await adminReq('POST', '/api/v1/admin/attendance/close-day', { date })).status).toBe(200)
})

afterAll(() => t.close())

describe('leave types', () => {
  const type = (id: number, name: string, extra: Record<string, unknown> = {}) => ({
    id,
    name,
    paid: true,
    requires_balance: true,
    annual_days: 0,
    accrual: 'none',
    seniority_tiers: null,
    carry_over_max: 0,
    carry_over_expires: null,
    unit: 'day',
    payout_on_leaving: false,
    status: 1,
    created_at: stamp(),
    updated_at: stamp(),
    ...extra,
  })

  test('create (201) with the defaults; names unique ignoring case (409); annual_days a multiple of 0.5', async () => {
    const created = await adminReq('POST', '/api/v1/admin/leave/types', { name: ' Annual leave ', annual_days: 10 })
    expect(created.status).toBe(201)
    expect(created.body).toEqual(ok(type(1, 'Annual leave', { annual_days: 10 }), 'Leave type created'))
    expect((await adminReq('POST', '/api/v1/admin/leave/types', { name: 'Sick leave', requires_balance: false, paid: false })).body).toEqual(
      ok(type(2, 'Sick leave', { requires_balance: false, paid: false }), 'Leave type created'),
    )
    expect((await adminReq('POST', '/api/v1/admin/leave/types', { name: 'Old leave', annual_days: 2.5, status: 0 })).body).toEqual(
      ok(type(3, 'Old leave', { annual_days: 2.5, status: 0 }), 'Leave type created'),
    )
    expect((await adminReq('POST', '/api/v1/admin/leave/types', { name: 'ANNUAL LEAVE' })).body).toEqual(
      failure(409, 'A leave type named "ANNUAL LEAVE" already exists (names are compared ignoring case)'),
    )
    expect((await adminReq('POST', '/api/v1/admin/leave/types', { name: 'Quarter', annual_days: 1.25 })).body).toEqual(
      fieldError('annual_days 1.25 is not a whole or half number of days', 'annual_days', 'must be a multiple of 0.5'),
    )
    expect((await adminReq('POST', '/api/v1/admin/leave/types', { name: 'Minus', annual_days: -1 })).status).toBe(400)
    expect((await adminReq('PUT', '/api/v1/admin/leave/types/3', { name: 'sick LEAVE' })).body).toEqual(
      failure(409, 'A leave type named "sick LEAVE" already exists (names are compared ignoring case)'),
    )
  })

  test('list (key `types`, P2), read, update; employees list the enabled ones', async () => {
    const list = await adminReq('GET', '/api/v1/admin/leave/types?page_size=2')
    expect(list.body).toEqual(
      ok({
        types: [type(1, 'Annual leave', { annual_days: 10 }), type(2, 'Sick leave', { requires_balance: false, paid: false })],
        pagination: { current_page: 1, page_size: 2, total_items: 3, total_pages: 2, has_next: true, has_prev: false },
      }),
    )
    expect((await adminReq('GET', '/api/v1/admin/leave/types?status=0')).body.data.types.map((x: { id: number }) => x.id)).toEqual([3])
    expect((await adminReq('GET', '/api/v1/admin/leave/types/3')).body).toEqual(ok(type(3, 'Old leave', { annual_days: 2.5, status: 0 })))
    expect((await adminReq('GET', '/api/v1/admin/leave/types/9')).body).toEqual(failure(404, 'Leave type 9 does not exist'))
    expect((await adminReq('PUT', '/api/v1/admin/leave/types/3', { annual_days: 3.5 })).body).toEqual(
      ok(type(3, 'Old leave', { annual_days: 3.5, status: 0 }), 'Leave type updated'),
    )
    expect((await as('ann', 'GET', '/api/v1/leave/types')).body).toEqual(
      ok({ types: [type(1, 'Annual leave', { annual_days: 10 }), type(2, 'Sick leave', { requires_balance: false, paid: false })] }),
    )
    // HR routes need HR permissions
    expect((await as('ann', 'GET', '/api/v1/admin/leave/types')).status).toBe(403)
  })

  test('delete: an unused type goes (then 404); the audit log has each change', async () => {
    const created = await adminReq('POST', '/api/v1/admin/leave/types', { name: 'Temporary' })
    const id = created.body.data.id
    expect((await adminReq('DELETE', `/api/v1/admin/leave/types/${id}`)).body).toEqual(ok(null, 'Leave type deleted'))
    expect((await adminReq('DELETE', `/api/v1/admin/leave/types/${id}`)).body).toEqual(failure(404, `Leave type ${id} does not exist`))
    const actions = await database().select({ action: auditLogs.action }).from(auditLogs).where(eq(auditLogs.resource, 'leave_type'))
    expect(actions.map((row) => row.action)).toEqual([
      'leave_type.create',
      'leave_type.create',
      'leave_type.create',
      'leave_type.update',
      'leave_type.create',
      'leave_type.delete',
    ])
  })
})

describe('balances and adjustments', () => {
  test('the caller’s balances of this year: enabled types (and disabled ones with a ledger)', async () => {
    expect((await as('ann', 'GET', '/api/v1/leave/balances')).body).toEqual(
      ok({ balances: [annual(10, 0, 0), balance(2, 'Sick leave', 0, 0, 0)] }),
    )
    expect((await as('ann', 'GET', '/api/v1/leave/balances?year=2023')).body).toEqual(
      ok({ balances: [annual(10, 0, 0), balance(2, 'Sick leave', 0, 0, 0)].map((b) => ({ ...b, year: 2023 })) }),
    )
  })

  test('adjust: ± half days with a reason → the new balance; never below zero remaining; audited', async () => {
    const adjust = (body: Record<string, unknown>) =>
      adminReq('POST', '/api/v1/admin/leave/balances/adjust', { employee_id: ids.ann, type_id: 1, year: 2024, reason: 'Carried over', ...body })
    expect((await adjust({ days: 2.5 })).body).toEqual(ok(annual(12.5, 0, 0), 'Balance adjusted'))
    expect((await adjust({ days: -13 })).body).toEqual(
      fieldError('Taking 13 days from Annual leave 2024 would leave -0.5: only 12.5 remain', 'days', 'at least -12.5'),
    )
    expect((await adjust({ days: 0 })).body).toEqual(fieldError('days must not be 0', 'days', 'must not be 0'))
    expect((await adjust({ days: 0.3 })).body).toEqual(fieldError('days 0.3 is not a whole or half number of days', 'days', 'must be a multiple of 0.5'))
    expect((await adjust({ days: 1, reason: '  ' })).body).toEqual(fieldError('reason must not be blank', 'reason', 'must not be blank'))
    expect((await adjust({ days: 1, reason: undefined })).body).toEqual(invalid('reason', 'is required'))
    expect((await adjust({ days: 1, type_id: 9 })).body).toEqual(
      fieldError('type_id names leave type 9, which does not exist', 'type_id', 'does not exist'),
    )
    // a disabled type with a ledger shows in the year's balances
    expect((await adjust({ days: 1, type_id: 3, year: 2023 })).body).toEqual(ok(balance(3, 'Old leave', 4.5, 0, 0, 2023), 'Balance adjusted'))
    expect((await adminReq('GET', `/api/v1/admin/leave/balances?employee_id=${ids.ann}&year=2023`)).body.data.balances).toHaveLength(3)
    expect((await adminReq('GET', `/api/v1/admin/leave/balances?employee_id=${ids.ann}&year=2024`)).body).toEqual(
      ok({ balances: [annual(12.5, 0, 0), balance(2, 'Sick leave', 0, 0, 0)] }),
    )
    expect((await adminReq('GET', '/api/v1/admin/leave/balances?employee_id=99')).body).toEqual(failure(404, 'Employee 99 does not exist'))
    const [entry] = await database().select().from(auditLogs).where(eq(auditLogs.action, 'leave_balance.adjust'))
    expect(entry).toMatchObject({ resource: 'leave_balance', resourceId: `${ids.ann}/1/2024`, actorId: 1 })
  })
})

describe('requests', () => {
  const request = (id: number, extra: Record<string, unknown>) => ({
    id,
    employee_id: ids.ann,
    employee: { id: ids.ann, name: 'ann' },
    type_id: 1,
    type_name: 'Annual leave',
    half_day: null,
    start_time: null,
    end_time: null,
    unit: 'day',
    hours: null,
    reason: '',
    status: 'pending',
    approver: { id: ids.mia, name: 'mia' },
    decided_by: null,
    decided_at: null,
    decision_note: null,
    created_at: stamp(),
    updated_at: stamp(),
    ...extra,
  })
  const ask = (body: Record<string, unknown>, who = 'ann') => as(who, 'POST', '/api/v1/leave/requests', { type_id: 1, ...body })

  test('201 with the whole request; days count only work days (a weekend and a holiday are not)', async () => {
    const created = await ask({ start_date: '2024-03-18', end_date: '2024-03-24', reason: ' Trip ' })
    expect(created.status).toBe(201)
    expect(created.body).toEqual(
      ok(request(1, { start_date: '2024-03-18', end_date: '2024-03-24', days: 4, reason: 'Trip' }), 'Leave requested'),
    )
    expect((await ask({ start_date: '2024-03-26', end_date: '2024-03-26', half_day: 'am' })).body.data).toEqual(
      request(2, { start_date: '2024-03-26', end_date: '2024-03-26', half_day: 'am', days: 0.5 }),
    )
    // the other half of the same date does not overlap
    expect((await ask({ start_date: '2024-03-26', end_date: '2024-03-26', half_day: 'pm' })).body.data.days).toBe(0.5)
    // a past range is allowed: 13 and 14 March were closed with absences
    expect((await ask({ start_date: '2024-03-12', end_date: '2024-03-14' })).body.data.days).toBe(3)
    // the group's manager has no approver for their own leave
    expect((await ask({ start_date: '2024-03-18', end_date: '2024-03-18' }, 'mia')).body.data.approver).toBeNull()
    expect((await as('ann', 'GET', '/api/v1/leave/balances')).body.data.balances[0]).toEqual(annual(12.5, 0, 8))
    const ledger = await database().select().from(leaveLedger).where(eq(leaveLedger.requestId, 1))
    expect(ledger.map(({ kind, amount, year }) => ({ kind, amount, year }))).toEqual([{ kind: 'pending', amount: 8, year: 2024 }])
  })

  test('refusals name the figures, and store nothing', async () => {
    const before = await database().select().from(leaveRequests)
    expect((await ask({ start_date: '2024-04-01', end_date: '2024-04-30' })).body).toEqual(
      fieldError(
        'You asked for 22 days of Annual leave in 2024, but only 4.5 remain (granted 12.5, taken 0, pending 8)',
        'end_date',
        '22 days requested, 4.5 remain',
      ),
    )
    expect((await ask({ start_date: '2024-03-25', end_date: '2024-03-24' })).body).toEqual(
      fieldError('start_date 2024-03-25 is after end_date 2024-03-24', 'start_date', 'must not be after end_date'),
    )
    expect((await ask({ start_date: '2024-01-01', end_date: '2025-01-01' })).body).toEqual(
      fieldError(
        'The range 2024-01-01 to 2025-01-01 is 367 days long; at most 366 days may be requested at once',
        'end_date',
        'must be at most 366 days after start_date (inclusive)',
      ),
    )
    expect((await ask({ start_date: '2024-03-23', end_date: '2024-03-24' })).body).toEqual(
      fieldError('2024-03-23 to 2024-03-24 holds none of your work days: there is nothing to take leave from', 'start_date', 'the range holds no work day'),
    )
    expect((await ask({ start_date: '2024-03-20', end_date: '2024-03-20' })).status).toBe(400)
    expect((await ask({ start_date: '2024-04-01', end_date: '2024-04-02', half_day: 'am' })).body).toEqual(
      fieldError(
        'half_day "am" needs start_date and end_date to be the same date (2024-04-01 to 2024-04-02 is not)',
        'half_day',
        'only when start_date = end_date',
      ),
    )
    expect((await ask({ type_id: 3, start_date: '2024-04-01', end_date: '2024-04-01' })).body).toEqual(
      fieldError('Leave type "Old leave" is disabled and cannot be requested', 'type_id', 'is disabled'),
    )
    expect((await ask({ start_date: '2024-02-30', end_date: '2024-03-01' })).body).toEqual(
      fieldError('start_date "2024-02-30" is not a real date', 'start_date', '"2024-02-30" is not a real date'),
    )
    // the other leave as the employee knows it (its type, dates and status), never by its id
    expect((await ask({ start_date: '2024-03-22', end_date: '2024-03-25' })).body).toEqual(
      failure(409, 'Your request from 2024-03-22 to 2024-03-25 overlaps your Annual leave from 2024-03-18 to 2024-03-24, which is pending'),
    )
    expect((await ask({ start_date: '2024-03-26', end_date: '2024-03-26', half_day: 'pm' })).body).toEqual(
      failure(409, 'Your request on 2024-03-26 (pm) overlaps your Annual leave on 2024-03-26 (pm), which is pending'),
    )
    const inChinese = await req(t.app, 'POST', '/api/v1/leave/requests', {
      token: tokens.ann,
      headers: { 'accept-language': 'zh' },
      body: { type_id: 1, start_date: '2024-03-22', end_date: '2024-03-25' },
    })
    expect(inChinese.body).toEqual(failure(409, '您申请的 2024-03-22 至 2024-03-25 与您待审批的“Annual leave”（2024-03-18 至 2024-03-24）时间重叠'))
    const tooMany = await req(t.app, 'POST', '/api/v1/leave/requests', {
      token: tokens.ann,
      headers: { 'accept-language': 'zh-CN,zh;q=0.9' },
      body: { type_id: 1, start_date: '2024-04-01', end_date: '2024-04-30' },
    })
    expect(tooMany.body).toEqual(
      failure(400, '您申请了 2024 年的“Annual leave”22 天，但只剩 4.5 天（额度 12.5 天，已休 0 天，待审批 8 天）', {
        errors: [{ field: 'end_date', message: '申请 22 天，剩余 4.5 天' }],
      }),
    )
    expect((await ask({ start_date: '2024-03-26', end_date: '2024-03-26' })).status).toBe(409)
    expect(await database().select().from(leaveRequests)).toEqual(before)
    // an account without an employee record
    expect((await adminReq('POST', '/api/v1/leave/requests', { type_id: 1, start_date: '2024-04-01', end_date: '2024-04-01' })).status).toBe(403)
  })

  test('a type without a balance takes any number of days', async () => {
    const sick = await ask({ type_id: 2, start_date: '2024-04-01', end_date: '2024-04-05' })
    expect(sick.status).toBe(201)
    expect(sick.body.data).toMatchObject({ id: 6, type_name: 'Sick leave', days: 5 })
  })

  test('listing: own (status, year), and every request for HR (employee, type, status, dates)', async () => {
    const own = await as('ann', 'GET', '/api/v1/leave/requests')
    expect(own.body.data.requests.map((r: { id: number }) => r.id)).toEqual([6, 3, 2, 1, 4])
    expect(own.body.data.pagination).toEqual({ current_page: 1, page_size: 10, total_items: 5, total_pages: 1, has_next: false, has_prev: false })
    expect((await as('ann', 'GET', '/api/v1/leave/requests?status=pending&year=2023')).body.data.requests).toEqual([])
    expect((await as('mia', 'GET', '/api/v1/leave/requests')).body.data.requests.map((r: { id: number }) => r.id)).toEqual([5])
    const ids_ = async (query: string) => (await adminReq('GET', `/api/v1/admin/leave/requests?${query}`)).body.data.requests.map((r: { id: number }) => r.id)
    expect(await ids_('')).toEqual([6, 3, 2, 5, 1, 4])
    expect(await ids_(`employee_id=${ids.ann}&type_id=2`)).toEqual([6])
    expect(await ids_('start_date=2024-03-24&end_date=2024-03-26')).toEqual([3, 2, 1])
    expect(await ids_('status=approved')).toEqual([])
    expect((await adminReq('GET', '/api/v1/admin/leave/requests?start_date=2024-02-30')).status).toBe(400)
    expect((await adminReq('GET', '/api/v1/admin/leave/requests?status=done')).status).toBe(400)
  })

  test('cancel a pending request: its days go back; again → 409; someone else’s → 404', async () => {
    const cancelled = await as('ann', 'POST', '/api/v1/leave/requests/3/cancel')
    expect(cancelled.body).toEqual(
      ok(request(3, { start_date: '2024-03-26', end_date: '2024-03-26', half_day: 'pm', days: 0.5, status: 'cancelled' }), 'Leave request cancelled'),
    )
    expect((await as('ann', 'POST', '/api/v1/leave/requests/3/cancel')).body).toEqual(
      failure(409, "ann's request for Annual leave on 2024-03-26 (pm) is cancelled; only a pending or approved request can be cancelled"),
    )
    expect((await as('ben', 'POST', '/api/v1/leave/requests/1/cancel')).body).toEqual(failure(404, 'Leave request 1 does not exist'))
    const zh = { 'accept-language': 'zh' }
    expect((await req(t.app, 'POST', '/api/v1/leave/requests/3/cancel', { token: tokens.ann, headers: zh })).body).toEqual(
      failure(409, 'ann的“Annual leave”请假申请（2024-03-26 下午）的状态为“已撤销”；只有待审批或已批准的申请可以撤销'),
    )
    expect((await req(t.app, 'POST', '/api/v1/leave/requests/1/cancel', { token: tokens.ben, headers: zh })).body).toEqual(
      failure(404, '请假申请 1 不存在'),
    )
    expect((await as('ann', 'GET', '/api/v1/leave/balances')).body.data.balances[0]).toEqual(annual(12.5, 0, 7.5))
  })
})

describe('decide (the approvals’ service function)', () => {
  test('approval moves pending to taken and deletes the absent records its full days cover; a second decision → 409', async () => {
    expect(await absencesOf('ann')).toEqual(['2024-03-13', '2024-03-14'])
    const leave = serviceOf(t)
    const approved = await leave.decide(4, 'approved', ADMIN_ACTOR, ' Get well ')
    expect(approved).toMatchObject({
      id: 4,
      status: 'approved',
      decided_by: { id: 1, name: expect.any(String) },
      decided_at: stamp(),
      decision_note: 'Get well',
    })
    expect(await absencesOf('ann')).toEqual([])
    expect(await absencesOf('ben')).toEqual(['2024-03-13', '2024-03-14'])
    expect((await as('ann', 'GET', '/api/v1/leave/balances')).body.data.balances[0]).toEqual(annual(12.5, 3, 4.5))
    const second = leave.decide(4, 'rejected', ADMIN_ACTOR, null)
    await expect(second).rejects.toBeInstanceOf(ConflictError)
    await expect(second).rejects.toThrow("ann's request for Annual leave from 2024-03-12 to 2024-03-14 is approved, not pending: it cannot be rejected")
    const [entry] = await database().select().from(auditLogs).where(eq(auditLogs.action, 'leave_request.approve'))
    expect((entry.after as { deleted_absent_records: unknown[] }).deleted_absent_records).toHaveLength(2)
  })

  test('rejection gives the days back; two decisions at once on two instances → exactly one', async () => {
    const leave = serviceOf(t)
    expect((await leave.decide(5, 'rejected', ADMIN_ACTOR, 'Busy week')).status).toBe('rejected')
    const other = await startApp({ dir: t.dir, now: NOW })
    try {
      const outcomes = await Promise.allSettled([leave.decide(2, 'approved', ADMIN_ACTOR, null), serviceOf(other).decide(2, 'rejected', ADMIN_ACTOR, null)])
      expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected'])
      const rows = await database().select({ kind: leaveLedger.kind, halfDays: leaveLedger.amount }).from(leaveLedger).where(eq(leaveLedger.requestId, 2))
      // pending once, released once, and taken only when the approval won
      const won = (outcomes.find((o) => o.status === 'fulfilled') as PromiseFulfilledResult<{ status: string }>).value.status
      expect(rows).toEqual([
        { kind: 'pending', halfDays: 1 },
        { kind: 'release', halfDays: -1 },
        ...(won === 'approved' ? [{ kind: 'taken' as const, halfDays: 1 }] : []),
      ])
    } finally {
      other.close()
    }
  })
})

describe('approved leave in attendance', () => {
  test('statistics: leave_days (halves as 0.5) and absent_days without the full days of leave', async () => {
    const statistics = await as('ann', 'GET', '/api/v1/attendance/statistics?start_date=2024-03-11&end_date=2024-03-15')
    // 11 March is missed; 12 to 14 March are leave; 15 March is today
    expect(statistics.body.data).toMatchObject({ work_days: 5, absent_days: 1, leave_days: 3, attendance_days: 0 })
    const ben = await as('ben', 'GET', '/api/v1/attendance/statistics?start_date=2024-03-11&end_date=2024-03-15')
    expect(ben.body.data).toMatchObject({ work_days: 5, absent_days: 4, leave_days: 0 })
  })

  test('day close writes no absent record on a full day of approved leave', async () => {
    expect((await adminReq('POST', '/api/v1/admin/attendance/close-day', { date: '2024-03-12' })).body.data.groups[0]).toMatchObject({ absent_records: 2 })
    expect(await absencesOf('ann')).toEqual([])
    expect(await absencesOf('ben')).toEqual(['2024-03-12', '2024-03-13', '2024-03-14'])
  })

  test('the month calendar shows approved leave', async () => {
    const month = await as('ann', 'GET', '/api/v1/attendance/calendar?month=2024-03')
    const leaveOn = (date: string) => month.body.data.days.find((day: { date: string }) => day.date === date).leave
    expect(leaveOn('2024-03-12')).toEqual({ request_id: 4, type_name: 'Annual leave', half_day: null })
    expect(leaveOn('2024-03-11')).toBeNull()
    // pending leave is not shown
    expect(leaveOn('2024-03-18')).toBeNull()
  })
})

describe('cancelling approved leave', () => {
  test('before it starts the employee may (a reversal); once started only HR may', async () => {
    const leave = serviceOf(t)
    await leave.decide(1, 'approved', ADMIN_ACTOR, null)
    expect((await as('ann', 'GET', '/api/v1/leave/balances')).body.data.balances[0]).toEqual(annual(12.5, 7 + (await takenOf(2)), 0))
    expect((await as('ann', 'POST', '/api/v1/leave/requests/1/cancel')).body.data.status).toBe('cancelled')
    expect((await as('ann', 'POST', '/api/v1/leave/requests/4/cancel')).body).toEqual(
      failure(409, "ann's request for Annual leave from 2024-03-12 to 2024-03-14 is approved and began on 2024-03-12 (today is 2024-03-15); ask HR to cancel it"),
    )
    const byHr = await adminReq('POST', '/api/v1/admin/leave/requests/4/cancel')
    expect(byHr.body.data).toMatchObject({ id: 4, status: 'cancelled', decision_note: 'Get well' })
    expect((await as('ann', 'GET', '/api/v1/leave/balances')).body.data.balances[0]).toEqual(annual(12.5, await takenOf(2), 0))
    const kinds = await database().select({ kind: leaveLedger.kind, halfDays: leaveLedger.amount }).from(leaveLedger).where(eq(leaveLedger.requestId, 4))
    expect(kinds).toEqual([
      { kind: 'pending', halfDays: 6 },
      { kind: 'release', halfDays: -6 },
      { kind: 'taken', halfDays: 6 },
      { kind: 'reversal', halfDays: -6 },
    ])
    expect((await adminReq('POST', '/api/v1/admin/leave/requests/4/cancel')).status).toBe(409)
  })

  test('deleting a type that has requests → 409', async () => {
    expect((await adminReq('DELETE', '/api/v1/admin/leave/types/1')).body).toEqual(
      failure(409, 'Leave type 1 has leave requests or balance adjustments and cannot be deleted; disable it (status 0) instead'),
    )
  })
})

/** Days request `id` holds as taken (0 or its days, by whichever decision won the race above). */
async function takenOf(id: number): Promise<number> {
  const rows = await database().select().from(leaveLedger).where(and(eq(leaveLedger.requestId, id), eq(leaveLedger.kind, 'taken')))
  return rows.reduce((sum, row) => sum + row.amount, 0) / 2
}

describe('races: the balance never goes below zero', () => {
  test('20 requests at once over two instances against 3 days → 3 × 201, 17 × 400, 3 days pending', async () => {
    const type = await adminReq('POST', '/api/v1/admin/leave/types', { name: 'Race leave', annual_days: 3 })
    const typeId = type.body.data.id
    const other = await startApp({ dir: t.dir, now: NOW })
    try {
      // the first 20 work days of May 2024 (1 May is a Wednesday)
      const dates: string[] = []
      for (let day = 1; dates.length < 20; day++) {
        const date = `2024-05-${String(day).padStart(2, '0')}`
        if (![6, 0].includes(new Date(`${date}T00:00:00Z`).getUTCDay())) dates.push(date)
      }
      const replies = await Promise.all(
        dates.map((date, i) =>
          req(i % 2 === 0 ? t.app : other.app, 'POST', '/api/v1/leave/requests', {
            token: tokens.ben,
            body: { type_id: typeId, start_date: date, end_date: date },
          }),
        ),
      )
      const tally: Record<number, number> = {}
      for (const reply of replies) tally[reply.status] = (tally[reply.status] ?? 0) + 1
      expect(tally).toEqual({ 201: 3, 400: 17 })
      const balances = (await as('ben', 'GET', '/api/v1/leave/balances')).body.data.balances
      expect(balances.find((b: { type_id: number }) => b.type_id === typeId)).toEqual(balance(typeId, 'Race leave', 3, 0, 3))
      const requests = await database().select().from(leaveRequests).where(eq(leaveRequests.typeId, typeId))
      expect(requests).toHaveLength(3)
    } finally {
      other.close()
    }
  }, 20_000)
})

describe('half a day of approved leave at clock-in', () => {
  const recordOn = async (date: string) => {
    const [row] = await database()
      .select()
      .from(attendanceRecords)
      .where(and(eq(attendanceRecords.employeeId, ids.ann), eq(attendanceRecords.workDate, date)))
    return row
  }
  const clockAt = async (kind: 'in' | 'out', dateTime: string) => {
    t.clock.set(local(dateTime))
    const reply = await as('ann', 'POST', `/api/v1/attendance/clock-${kind}`, {})
    expect(reply.status).toBe(200)
  }

  test('the morning off: lateness from the break’s end, half the required hours', async () => {
    const asked = await as('ann', 'POST', '/api/v1/leave/requests', { type_id: 1, start_date: '2024-03-27', end_date: '2024-03-27', half_day: 'am' })
    await serviceOf(t).decide(asked.body.data.id, 'approved', ADMIN_ACTOR, null)
    await clockAt('in', '2024-03-27T13:00:00')
    // on a whole day 13:00 would be 240 minutes late
    expect(await recordOn('2024-03-27')).toMatchObject({ status: 0, lateMinutes: 0, requiredWorkHours: 4 })
    await clockAt('out', '2024-03-27T18:00:00')
    expect(await recordOn('2024-03-27')).toMatchObject({ status: 0, lateMinutes: 0, earlyMinutes: 0, workMinutes: 300 })
  })

  test('the afternoon off: early leave before the break’s start; 3 hours are short of the 4 required', async () => {
    const asked = await as('ann', 'POST', '/api/v1/leave/requests', { type_id: 1, start_date: '2024-03-28', end_date: '2024-03-28', half_day: 'pm' })
    await serviceOf(t).decide(asked.body.data.id, 'approved', ADMIN_ACTOR, null)
    await clockAt('in', '2024-03-28T09:00:00')
    // on a whole day 12:00 would be 360 minutes early
    await clockAt('out', '2024-03-28T12:00:00')
    expect(await recordOn('2024-03-28')).toMatchObject({ status: 4, lateMinutes: 0, earlyMinutes: 0, workMinutes: 180, requiredWorkHours: 4 })
    t.clock.set(NOW)
  })
})

describe('permissions', () => {
  test('a database from before leave: start-up gives role employee leave:request, once', async () => {
    const { database: db } = t.deps
    await db.db.delete(permissions).where(eq(permissions.name, 'leave:request'))
    const held = async () =>
      (await adminReq('GET', '/api/v1/admin/roles/by-name/employee/permissions')).body.data.map((p: { name: string }) => p.name).sort()
    expect(await held()).toEqual(['attendance:clock', 'attendance:correct', 'attendance:view', 'salaries:read_own'])
    await seedAccessControl(db, t.clock.now())
    expect(await held()).toEqual(['attendance:clock', 'attendance:correct', 'attendance:view', 'leave:request', 'salaries:read_own'])
  })
})
