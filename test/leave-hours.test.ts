import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { and, asc, eq } from 'drizzle-orm'
import { openDatabase } from '../src/db/client'
import { migrate } from '../src/db/migrate'
import { attendanceRecords, leaveLedger, leaveRequests } from '../src/db/schema'
import { createRuleCache } from '../src/modules/attendance/setup/repository'
import { createLeaveService } from '../src/modules/leave/service'
import { errorBody, login, loginAdmin, req, startApp, tempDir, type TestApp } from './helpers'
import { startSqld } from './sqld'

/*
 * CONTRACT §18, hourly leave through requests, balances and the ledger: a type with unit `hour`
 * takes requests of a span on one date, counted in work time without the break; its balance is in
 * hours (a day of its allowance is 8 hours). Asia/Shanghai; "today" is Friday 15 March 2024; the
 * rule is 09:00–18:00 with a 12:00–13:00 break, Monday to Friday.
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
const fieldErrors = (message: string, ...errors: [string, string][]) =>
  failure(400, message, { errors: errors.map(([field, fieldMessage]) => ({ field, message: fieldMessage })) })
const adminReq = (method: string, path: string, body?: unknown) => req(t.app, method, path, { token: admin, body })
const as = (who: string, method: string, path: string, body?: unknown) => req(t.app, method, path, { token: tokens[who], body })
const database = () => t.deps.database.db
const service = () =>
  createLeaveService({ database: t.deps.database, clock: t.clock, defaultZone: t.deps.config.defaultTimezone, ruleCache: createRuleCache() })

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

const HOURS = 1
const ANNUAL = 2
const hourly = (body: Record<string, unknown>, who = 'ann') =>
  as(who, 'POST', '/api/v1/leave/requests', { type_id: HOURS, start_date: '2024-03-18', end_date: '2024-03-18', ...body })
const balanceOf = async (who: string, typeId = HOURS) =>
  (await adminReq('GET', `/api/v1/admin/leave/balances?employee_id=${ids[who]}&year=2024`)).body.data.balances.find(
    (balance: { type_id: number }) => balance.type_id === typeId,
  )
const hoursBalance = (granted: number, taken: number, pending: number) => ({
  type_id: HOURS,
  type_name: 'Personal hours',
  year: 2024,
  unit: 'hour',
  granted,
  taken,
  pending,
  // the service subtracts minutes; the figures here are to the hundredth
  remaining: Math.round((granted - taken - pending) * 100) / 100,
})

beforeAll(async () => {
  t = await startApp({ now: local('2024-03-01T12:00:00'), env: { ACCESS_TOKEN_TTL: '2592000' } })
  admin = await loginAdmin(t.app)
  expect((await adminReq('POST', '/api/v1/admin/companies', { name: 'Acme', timezone: 'Asia/Shanghai' })).status).toBe(201)
  for (const name of ['mia', 'ann', 'ben']) {
    const created = await adminReq('POST', '/api/v1/admin/employees', { name, username: name, password: `${name}-password`, hire_date: '2024-01-01' })
    ids[name] = created.body.data.id
    tokens[name] = await login(t.app, name, `${name}-password`)
  }
  expect((await adminReq('POST', '/api/v1/admin/attendance/groups', { name: 'Office', company_id: 1, manager_id: ids.mia })).status).toBe(201)
  expect((await adminReq('POST', '/api/v1/admin/attendance/rules', RULE)).status).toBe(201)
  expect((await adminReq('POST', '/api/v1/admin/attendance/groups/1/employees', { employee_ids: [ids.mia, ids.ann, ids.ben] })).status).toBe(200)
  t.clock.set(NOW)
  // Wednesday 20 March is a holiday; Thursday 14 March is closed: everyone is absent on it
  expect((await adminReq('PUT', '/api/v1/admin/companies/1/calendar/2024-03-20', { kind: 'holiday', name: 'Spring day' })).status).toBe(201)
  expect((await adminReq('POST', '/api/v1/admin/attendance/close-day', { date: '2024-03-14' })).status).toBe(200)
}, 30_000)

afterAll(() => t.close())

describe('hourly types', () => {
  test('unit hour: 2 days a year are 16 hours; a payout on leaving is for days only; an unknown unit is refused', async () => {
    const created = await adminReq('POST', '/api/v1/admin/leave/types', { name: 'Personal hours', unit: 'hour', annual_days: 2 })
    expect(created.status).toBe(201)
    expect(created.body.data).toEqual({
      id: HOURS,
      name: 'Personal hours',
      paid: true,
      requires_balance: true,
      annual_days: 2,
      accrual: 'none',
      seniority_tiers: null,
      carry_over_max: 0,
      carry_over_expires: null,
      unit: 'hour',
      payout_on_leaving: false,
      status: 1,
      created_at: stamp(),
      updated_at: stamp(),
    })
    const annual = await adminReq('POST', '/api/v1/admin/leave/types', { name: 'Annual leave', annual_days: 5, payout_on_leaving: true })
    expect(annual.body.data).toMatchObject({ id: ANNUAL, unit: 'day', payout_on_leaving: true })
    expect((await adminReq('POST', '/api/v1/admin/leave/types', { name: 'Paid hours', unit: 'hour', payout_on_leaving: true })).body).toEqual(
      fieldErrors('payout_on_leaving applies to a type taken in days (unit "day")', ['payout_on_leaving', 'applies to a type taken in days (unit "day")']),
    )
    expect((await adminReq('PUT', `/api/v1/admin/leave/types/${HOURS}`, { payout_on_leaving: true })).status).toBe(400)
    const weeks = await adminReq('POST', '/api/v1/admin/leave/types', { name: 'Weeks', unit: 'week' })
    expect(weeks.status).toBe(400)
    expect(weeks.body.errors).toEqual([{ field: 'unit', message: 'must be "day" or "hour"' }])
    expect(await balanceOf('ann')).toEqual(hoursBalance(16, 0, 0))
  })
})

describe('hourly requests', () => {
  test('11:00–14:00 across the 12:00–13:00 break is 2 hours: the whole request, the balance in hours, the ledger in minutes', async () => {
    const created = await hourly({ start_time: '11:00', end_time: '14:00', reason: 'Doctor' })
    expect(created.status).toBe(201)
    expect(created.body).toEqual(
      ok(
        {
          id: 1,
          employee_id: ids.ann,
          employee: { id: ids.ann, name: 'ann' },
          type_id: HOURS,
          type_name: 'Personal hours',
          start_date: '2024-03-18',
          end_date: '2024-03-18',
          half_day: null,
          start_time: '11:00',
          end_time: '14:00',
          unit: 'hour',
          days: 0,
          hours: 2,
          reason: 'Doctor',
          status: 'pending',
          approver: { id: ids.mia, name: 'mia' },
          decided_by: null,
          decided_at: null,
          decision_note: null,
          created_at: stamp(),
          updated_at: stamp(),
        },
        'Leave requested',
      ),
    )
    expect(await balanceOf('ann')).toEqual(hoursBalance(16, 0, 2))
    expect(await database().select({ kind: leaveLedger.kind, amount: leaveLedger.amount }).from(leaveLedger).where(eq(leaveLedger.requestId, 1))).toEqual([
      { kind: 'pending', amount: 120 },
    ])
    const ledger = (await as('ann', 'GET', '/api/v1/leave/ledger?year=2024')).body.data.entries
    expect(ledger).toEqual([
      {
        id: expect.any(Number),
        type_id: HOURS,
        type_name: 'Personal hours',
        year: 2024,
        kind: 'pending',
        unit: 'hour',
        days: null,
        hours: 2,
        reason: 'requested',
        event: null,
        request_id: 1,
        actor: { id: expect.any(Number), name: 'ann' },
        created_at: stamp(),
      },
    ])
  })

  test('refused with the field to mend, storing nothing: no times, two dates, a half day, an end not after the start, no work time, times on a day type', async () => {
    const before = await database().select().from(leaveRequests)
    expect((await hourly({})).body).toEqual(
      fieldErrors(
        '"Personal hours" is taken by the hour: send start_time and end_time (HH:MM) on one date',
        ['start_time', 'is required for a type taken by the hour'],
        ['end_time', 'is required for a type taken by the hour'],
      ),
    )
    expect((await hourly({ end_date: '2024-03-19', start_time: '10:00', end_time: '11:00' })).body).toEqual(
      fieldErrors('Hourly leave is on one date: end_date must be start_date (2024-03-18 to 2024-03-19 is not one date)', [
        'end_date',
        'only when start_date = end_date',
      ]),
    )
    expect((await hourly({ half_day: 'am', start_time: '10:00', end_time: '11:00' })).body).toEqual(
      fieldErrors('half_day cannot be sent with start_time and end_time: hourly leave is its own span', ['half_day', 'cannot be sent with start_time and end_time: hourly leave is its own span']),
    )
    expect((await hourly({ start_time: '15:00', end_time: '15:00' })).body).toEqual(
      fieldErrors('end_time 15:00 is not after start_time 15:00', ['end_time', 'must be after start_time']),
    )
    const noWork = (date: string, start: string, end: string) =>
      fieldErrors(
        `${date} from ${start} to ${end} holds none of your work time (your work hours less the break, on a work day): there is nothing to take leave from`,
        ['start_time', 'the span holds no work time'],
      )
    expect((await hourly({ start_time: '12:00', end_time: '13:00' })).body).toEqual(noWork('2024-03-18', '12:00', '13:00'))
    expect((await hourly({ start_time: '18:00', end_time: '20:00' })).body).toEqual(noWork('2024-03-18', '18:00', '20:00'))
    // a Saturday, and the holiday
    expect((await hourly({ start_date: '2024-03-16', end_date: '2024-03-16', start_time: '10:00', end_time: '11:00' })).body).toEqual(noWork('2024-03-16', '10:00', '11:00'))
    expect((await hourly({ start_date: '2024-03-20', end_date: '2024-03-20', start_time: '10:00', end_time: '11:00' })).body).toEqual(noWork('2024-03-20', '10:00', '11:00'))
    expect((await hourly({ type_id: ANNUAL, start_time: '10:00', end_time: '11:00' })).body).toEqual(
      fieldErrors(
        '"Annual leave" is taken in days: start_time and end_time are for a type with unit "hour"',
        ['start_time', 'only for a type taken by the hour'],
        ['end_time', 'only for a type taken by the hour'],
      ),
    )
    const badTime = await hourly({ start_time: '9:00', end_time: '10:00' })
    expect(badTime.status).toBe(400)
    expect(badTime.body.errors).toEqual([{ field: 'start_time', message: 'must be a time of day written HH:MM (00:00 to 23:59)' }])
    expect(await database().select().from(leaveRequests)).toEqual(before)
  })

  test('two spans of one date overlap by their times only: touching spans are fine; hourly leave and a half or whole day of that date are not', async () => {
    expect((await hourly({ start_time: '13:30', end_time: '15:00' })).body).toEqual(
      failure(409, 'Your request on 2024-03-18 from 13:30 to 15:00 overlaps your Personal hours on 2024-03-18 from 11:00 to 14:00, which is pending'),
    )
    expect((await hourly({ start_time: '09:00', end_time: '11:30' })).status).toBe(409)
    const touching = await hourly({ start_time: '14:00', end_time: '16:00' })
    expect(touching.status).toBe(201)
    expect(touching.body.data).toMatchObject({ id: 2, hours: 2 })
    expect((await hourly({ type_id: ANNUAL, half_day: 'pm' })).body).toEqual(
      failure(409, 'Your request on 2024-03-18 (pm) overlaps your Personal hours on 2024-03-18 from 11:00 to 14:00, which is pending'),
    )
    expect((await hourly({ type_id: ANNUAL, start_date: '2024-03-18', end_date: '2024-03-19' })).status).toBe(409)
    // the day before: a whole day of annual leave, then an hour inside it
    expect((await as('ann', 'POST', '/api/v1/leave/requests', { type_id: ANNUAL, start_date: '2024-03-19', end_date: '2024-03-19' })).status).toBe(201)
    expect((await hourly({ start_date: '2024-03-19', end_date: '2024-03-19', start_time: '10:00', end_time: '11:00' })).body).toEqual(
      failure(409, 'Your request on 2024-03-19 from 10:00 to 11:00 overlaps your Annual leave on 2024-03-19, which is pending'),
    )
    expect(await balanceOf('ann')).toEqual(hoursBalance(16, 0, 4))
  })

  test('more hours than remain: 400 naming the figures in hours; in Chinese too', async () => {
    expect((await adminReq('POST', '/api/v1/admin/leave/balances/adjust', { employee_id: ids.ann, type_id: HOURS, year: 2024, hours: -10, reason: 'used before go-live' })).body).toEqual(
      ok(hoursBalance(6, 0, 4), 'Balance adjusted'),
    )
    expect((await hourly({ start_date: '2024-03-21', end_date: '2024-03-21', start_time: '09:00', end_time: '17:00' })).body).toEqual(
      fieldErrors('You asked for 7 hours of Personal hours in 2024, but only 2 remain (granted 6, taken 0, pending 4)', ['end_time', '7 hours requested, 2 remain']),
    )
    const zh = await req(t.app, 'POST', '/api/v1/leave/requests', {
      token: tokens.ann,
      headers: { 'accept-language': 'zh' },
      body: { type_id: HOURS, start_date: '2024-03-21', end_date: '2024-03-21', start_time: '09:00', end_time: '17:00' },
    })
    expect(zh.body.message).toBe('您申请了 2024 年的“Personal hours”7 小时，但只剩 2 小时（额度 6 小时，已休 0 小时，待审批 4 小时）')
    // 09:00–11:00 is exactly what is left
    expect((await hourly({ start_date: '2024-03-21', end_date: '2024-03-21', start_time: '09:00', end_time: '11:00' })).status).toBe(201)
    expect(await balanceOf('ann')).toEqual(hoursBalance(6, 0, 6))
  })

  test('adjusting an hourly balance takes hours in whole minutes; days are for day types', async () => {
    const adjust = (body: Record<string, unknown>) =>
      adminReq('POST', '/api/v1/admin/leave/balances/adjust', { employee_id: ids.ben, type_id: HOURS, year: 2024, reason: 'r', ...body })
    expect((await adjust({ hours: 1.25 })).body).toEqual(ok(hoursBalance(17.25, 0, 0), 'Balance adjusted'))
    expect((await adjust({ hours: 0.1 })).body.data.remaining).toBe(17.35)
    expect((await adjust({ days: 1 })).body).toEqual(
      fieldErrors('"Personal hours" is counted in hours: send hours (and not the other)', ['hours', 'is required']),
    )
    expect((await adjust({ hours: 1, days: 1 })).body).toEqual(
      fieldErrors('"Personal hours" is counted in hours: send hours (and not the other)', ['days', 'is for a type counted in the other unit']),
    )
    expect((await adjust({ hours: 0.005 })).body).toEqual(fieldErrors('hours 0.005 is not a whole number of minutes (0.25 is 15 minutes)', ['hours', 'must be a whole number of minutes']))
    expect((await adjust({ hours: 0 })).body).toEqual(fieldErrors('hours must not be 0', ['hours', 'must not be 0']))
    expect((await adjust({ hours: -20 })).body).toEqual(
      fieldErrors('Taking 20 hours from Personal hours 2024 would leave -2.65: only 17.35 remain', ['hours', 'at least -17.35']),
    )
    expect(
      (await adminReq('POST', '/api/v1/admin/leave/balances/adjust', { employee_id: ids.ben, type_id: ANNUAL, year: 2024, reason: 'r', hours: 2 })).body,
    ).toEqual(fieldErrors('"Annual leave" is counted in days: send days (and not the other)', ['days', 'is required']))
  })
})

describe('a day wholly on hourly leave', () => {
  test('refused: a date whose whole work time would be hours of leave wants a day of leave (else day close would call it absent and payroll deduct it twice)', async () => {
    const whole = (body: Record<string, unknown>) => hourly({ start_date: '2024-03-22', end_date: '2024-03-22', ...body }, 'mia')
    const refusal = fieldErrors(
      'Hourly leave on 2024-03-22 would cover all of that day’s 8 hours of work time: take the whole day as leave of days instead (a type counted in days)',
      ['end_time', 'must leave some of the day’s work time'],
    )
    expect((await whole({ start_time: '08:00', end_time: '19:00' })).body).toEqual(refusal)
    expect((await whole({ start_time: '09:00', end_time: '12:00' })).status).toBe(201)
    // the afternoon too would complete the day; all but its last minute does not
    expect((await whole({ start_time: '13:00', end_time: '18:00' })).body).toEqual(refusal)
    expect((await whole({ start_time: '13:00', end_time: '17:59' })).body.data).toMatchObject({ hours: 4.98 })
    expect(await database().select({ start: leaveRequests.startTime }).from(leaveRequests).where(and(eq(leaveRequests.employeeId, ids.mia), eq(leaveRequests.startDate, '2024-03-22')))).toEqual([
      { start: '09:00' },
      { start: '13:00' },
    ])
  })
})

describe('deciding and ending hourly leave', () => {
  test('approval moves the minutes to taken and keeps the day’s absence (the rest of the day wanted work); cancelling gives them back', async () => {
    // Thursday 14 March was closed with ann absent; two hours of it on leave do not excuse the day
    const past = await hourly({ start_date: '2024-03-14', end_date: '2024-03-14', start_time: '16:00', end_time: '18:00' }, 'ben')
    expect(past.status).toBe(201)
    const id = past.body.data.id
    const decided = await service().decide(id, 'approved', { userId: 1, ip: null }, null)
    expect(decided).toMatchObject({ status: 'approved', hours: 2, days: 0 })
    const benAbsences = await database()
      .select({ workDate: attendanceRecords.workDate })
      .from(attendanceRecords)
      .where(and(eq(attendanceRecords.employeeId, ids.ben), eq(attendanceRecords.status, 3)))
    expect(benAbsences).toEqual([{ workDate: '2024-03-14' }])
    expect(await balanceOf('ben')).toEqual(hoursBalance(17.35, 2, 0))
    expect((await adminReq('POST', `/api/v1/admin/leave/requests/${id}/cancel`)).body.data).toMatchObject({ status: 'cancelled' })
    expect(await balanceOf('ben')).toEqual(hoursBalance(17.35, 0, 0))
    expect(
      (await database().select({ kind: leaveLedger.kind, amount: leaveLedger.amount }).from(leaveLedger).where(eq(leaveLedger.requestId, id)).orderBy(asc(leaveLedger.id))),
    ).toEqual([
      { kind: 'pending', amount: 120 },
      { kind: 'release', amount: -120 },
      { kind: 'taken', amount: 120 },
      { kind: 'reversal', amount: -120 },
    ])
  })

  test('a holiday declared over hourly leave recounts it: nothing left to take, so the request ends and its hours come back', async () => {
    expect(await balanceOf('ann')).toEqual(hoursBalance(6, 0, 6))
    expect((await adminReq('PUT', '/api/v1/admin/companies/1/calendar/2024-03-21', { kind: 'holiday', name: 'Extra day' })).status).toBe(201)
    const [request] = await database().select({ status: leaveRequests.status }).from(leaveRequests).where(eq(leaveRequests.startDate, '2024-03-21'))
    expect(request).toEqual({ status: 'cancelled' })
    expect(await balanceOf('ann')).toEqual(hoursBalance(6, 0, 4))
  })

  test('a type’s unit is fixed once it has requests or ledger rows (409); an unused type may change it', async () => {
    expect((await adminReq('PUT', `/api/v1/admin/leave/types/${HOURS}`, { unit: 'day' })).body).toEqual(
      failure(409, 'Leave type "Personal hours" has requests or balance rows in hours: its unit cannot change (make a new type instead)'),
    )
    const spare = await adminReq('POST', '/api/v1/admin/leave/types', { name: 'Spare', unit: 'hour' })
    expect((await adminReq('PUT', `/api/v1/admin/leave/types/${spare.body.data.id}`, { unit: 'day' })).body.data).toMatchObject({ unit: 'day' })
  })
})

describe('migration 0021 on data made before it', () => {
  /** A database at migration 0020 with a type, a request and its ledger rows, migrated to the end. */
  async function migrated(url: (dir: string) => Promise<{ url: string; stop(): Promise<void> }>) {
    const dir = tempDir()
    const before = join(dir, 'drizzle-0020')
    mkdirSync(join(before, 'meta'), { recursive: true })
    const migrations = join(import.meta.dir, '..', 'drizzle')
    const journal = JSON.parse(readFileSync(join(migrations, 'meta', '_journal.json'), 'utf8'))
    journal.entries = journal.entries.filter((entry: { idx: number }) => entry.idx <= 20)
    writeFileSync(join(before, 'meta', '_journal.json'), JSON.stringify(journal))
    for (const entry of journal.entries) copyFileSync(join(migrations, `${entry.tag}.sql`), join(before, `${entry.tag}.sql`))
    const where = await url(dir)
    const database = await openDatabase(where.url)
    const rows = async (sql: string) => (await database.client.execute(sql)).rows.map((row): Record<string, unknown> => ({ ...row }))
    const refused = async (sql: string) => database.client.execute(sql).then(() => 'accepted', (error: Error) => error.message)
    try {
      await migrate(database, before)
      for (const statement of [
        `INSERT INTO employees (name, status) VALUES ('Ann', 1)`,
        `INSERT INTO leave_types (name, annual_half_days) VALUES ('Annual', 20)`,
        `INSERT INTO leave_requests (employee_id, type_id, start_date, end_date, half_days, status) VALUES (1, 1, '2024-03-18', '2024-03-19', 4, 'approved')`,
        `INSERT INTO leave_ledger (employee_id, type_id, year, kind, half_days, request_id, created_at) VALUES (1, 1, 2024, 'pending', 4, 1, 0), (1, 1, 2024, 'release', -4, 1, 0), (1, 1, 2024, 'taken', 4, 1, 0)`,
      ])
        await database.client.execute(statement)
      await migrate(database)
      return {
        types: await rows('SELECT id, unit, payout_on_leaving FROM leave_types'),
        requests: await rows('SELECT id, amount, start_time, end_time FROM leave_requests'),
        ledger: await rows('SELECT kind, amount FROM leave_ledger ORDER BY id'),
        // what the database itself refuses
        refusals: [
          await refused(`INSERT INTO leave_types (name, unit) VALUES ('Weeks', 'week')`),
          await refused(`INSERT INTO leave_types (name, unit, payout_on_leaving) VALUES ('Paid hours', 'hour', 1)`),
          await refused(`UPDATE leave_types SET unit = 'hour', payout_on_leaving = 1 WHERE id = 1`),
          await refused(`INSERT INTO leave_requests (employee_id, type_id, start_date, end_date, start_time, end_time, amount) VALUES (1, 1, '2024-03-18', '2024-03-19', '10:00', '11:00', 60)`),
          await refused(`INSERT INTO leave_requests (employee_id, type_id, start_date, end_date, half_day, start_time, end_time, amount) VALUES (1, 1, '2024-03-18', '2024-03-18', 'am', '10:00', '11:00', 60)`),
          await refused(`INSERT INTO leave_requests (employee_id, type_id, start_date, end_date, start_time, end_time, amount) VALUES (1, 1, '2024-03-18', '2024-03-18', '11:00', '10:00', 60)`),
          await refused(`INSERT INTO leave_requests (employee_id, type_id, start_date, end_date, start_time, amount) VALUES (1, 1, '2024-03-18', '2024-03-18', '11:00', 60)`),
          await refused(`INSERT INTO leave_ledger (employee_id, type_id, year, kind, amount, created_at) VALUES (1, 1, 2024, 'payout', 0, 0)`),
          await refused(`INSERT INTO leave_ledger (employee_id, type_id, year, kind, amount, created_at) VALUES (1, 1, 2024, 'bonus', 2, 0)`),
          await refused(`INSERT INTO leave_ledger (employee_id, type_id, year, kind, amount, created_at) VALUES (1, 1, 2024, 'payout', -2, 0)`),
          await refused(`DELETE FROM leave_requests WHERE id = 1`),
        ],
      }
    } finally {
      database.close()
      await where.stop()
      rmSync(dir, { recursive: true, force: true })
    }
  }

  const expected = {
    types: [{ id: 1, unit: 'day', payout_on_leaving: 0 }],
    requests: [{ id: 1, amount: 4, start_time: null, end_time: null }],
    ledger: [
      { kind: 'pending', amount: 4 },
      { kind: 'release', amount: -4 },
      { kind: 'taken', amount: 4 },
    ],
    refusals: [
      expect.stringContaining('leave_types_unit_check'),
      expect.stringContaining('leave_types_unit_check'),
      expect.stringContaining('leave_types_unit_check'),
      expect.stringContaining('leave_requests_times_check'),
      expect.stringContaining('leave_requests_times_check'),
      expect.stringContaining('leave_requests_times_check'),
      expect.stringContaining('leave_requests_times_check'),
      expect.stringContaining('leave_ledger_amount_check'),
      expect.stringContaining('leave_ledger_kind_check'),
      'accepted',
      // the ledger still holds the request: its foreign key survived the rebuild
      expect.stringContaining('FOREIGN KEY'),
    ],
  }

  test('amounts kept, the new columns at their defaults, the checks in force (embedded file)', async () => {
    expect(await migrated(async (dir) => ({ url: `file:${join(dir, 'old.db')}`, stop: async () => {} }))).toEqual(expected)
  })

  test('the same on a libSQL server', async () => {
    expect(await migrated(async (dir) => startSqld(join(dir, 'sqld')))).toEqual(expected)
  }, 30_000)
})
