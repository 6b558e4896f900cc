import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { and, asc, desc, eq } from 'drizzle-orm'
import { attendanceRecords, auditLogs } from '../src/db/schema'
import { createDayClose } from '../src/modules/attendance/day-close'
import { errorBody as errorAt, login, loginAdmin, makeUser, req, startApp, type TestApp } from './helpers'
import { must, shanghaiOffice } from './payroll-fixtures'

/* Employees' `left_on` (CONTRACT §18, brought forward by payroll): the last day employed. */

const NOW = '2025-03-20T02:00:00.000Z'
const errorBody = (code: number, message: string, extra: Record<string, unknown>) => ({ ...errorAt(code, message, extra), timestamp: NOW })

let t: TestApp
let admin: string
let leaver: number

beforeAll(async () => {
  t = await startApp({ now: '2025-03-01T02:00:00.000Z' })
  admin = await loginAdmin(t.app)
  await shanghaiOffice(t, admin)
  leaver = (await must(t, admin, 'POST', '/api/v1/admin/employees', { name: 'Cai', company_id: 1, hire_date: '2025-01-02', left_on: '2025-03-10' }, 201)).id
  await must(t, admin, 'POST', '/api/v1/admin/attendance/groups/1/employees', { employee_ids: [leaver] })
  t.clock.set(NOW)
  admin = await loginAdmin(t.app)
})
afterAll(() => t.close())

test('a left_on before the hire date → 400 naming left_on, on create and on update', async () => {
  const created = await req(t.app, 'POST', '/api/v1/admin/employees', { token: admin, body: { name: 'Early', hire_date: '2025-02-01', left_on: '2025-01-31' } })
  const problem = { errors: [{ field: 'left_on', message: 'is before the hire date' }] }
  expect(created.body).toEqual(errorBody(400, 'left_on 2025-01-31 is before the hire date 2025-02-01', problem))
  const updated = await req(t.app, 'PUT', `/api/v1/admin/employees/${leaver}`, { token: admin, body: { left_on: '2024-12-31' } })
  expect(updated.body).toEqual(errorBody(400, 'left_on 2024-12-31 is before the hire date 2025-01-02', problem))
  const unreal = await req(t.app, 'PUT', `/api/v1/admin/employees/${leaver}`, { token: admin, body: { left_on: '2025-02-30' } })
  expect(unreal.body).toEqual(errorBody(400, 'left_on "2025-02-30" is not a real date (YYYY-MM-DD)', { errors: [{ field: 'left_on', message: 'is not a real date' }] }))
  expect((await req(t.app, 'GET', `/api/v1/admin/employees/${leaver}`, { token: admin })).body.data.left_on).toBe('2025-03-10')
})

test('day close writes no absence after the last day employed', async () => {
  for (const date of ['2025-03-10', '2025-03-11', '2025-03-12'])
    await must(t, admin, 'POST', '/api/v1/admin/attendance/close-day', { date, group_id: 1 })
  const absent = await t.deps.database.db
    .select({ workDate: attendanceRecords.workDate })
    .from(attendanceRecords)
    .where(and(eq(attendanceRecords.employeeId, leaver), eq(attendanceRecords.status, 3)))
    .orderBy(asc(attendanceRecords.workDate))
  expect(absent).toEqual([{ workDate: '2025-03-10' }])
})

test('statistics and the attendance sheet stop at the last day employed: no work day, absence or record after it (leave: the sheet property test)', async () => {
  // a record after the last day (written before left_on was set)
  await t.deps.database.db.insert(attendanceRecords).values({ employeeId: leaver, workDate: '2025-03-12', timezone: 'Asia/Shanghai', clockInTime: new Date('2025-03-12T01:30:00Z'), status: 1, lateMinutes: 30, workMinutes: 450, createdAt: new Date(NOW), updatedAt: new Date(NOW) })
  const user = await makeUser(t.app, admin, 'cai')
  await must(t, admin, 'PUT', `/api/v1/admin/employees/${leaver}`, { user_id: user.id })
  const token = await login(t.app, 'cai', 'cai-password-1')
  const statistics = await req(t.app, 'GET', '/api/v1/attendance/statistics?start_date=2025-03-01&end_date=2025-03-19', { token })
  // March 2025 begins on a Saturday: the work days employed are 3–7 and 10 (none has a clock-in: 3–7 missed, 10 closed absent)
  expect(statistics.body.data).toMatchObject({
    total_days: 19,
    work_days: 6,
    attendance_days: 0,
    late_days: 0,
    total_late_minutes: 0,
    absent_days: 6,
    leave_days: 0,
    attendance_rate: 0,
  })
  // their month calendar agrees: work days up to the 10th, none after
  const calendar = await req(t.app, 'GET', '/api/v1/attendance/calendar?month=2025-03', { token })
  expect(calendar.body.data.days.filter((day: { work_day: boolean }) => day.work_day).map((day: { date: string }) => day.date)).toEqual([
    '2025-03-03',
    '2025-03-04',
    '2025-03-05',
    '2025-03-06',
    '2025-03-07',
    '2025-03-10',
  ])
  // the whole range after leaving: nothing counts but the range's days
  const after = await req(t.app, 'GET', '/api/v1/attendance/statistics?start_date=2025-03-11&end_date=2025-03-19', { token })
  expect(after.body.data).toMatchObject({ total_days: 9, work_days: 0, attendance_days: 0, late_days: 0, absent_days: 0, total_work_hours: 0 })

  const sheet = await req(t.app, 'GET', '/api/v1/admin/exports/attendance?month=2025-03&format=csv', { token: admin })
  expect(sheet.status).toBe(200)
  const row = String(sheet.body)
    .replace(/^\uFEFF/, '')
    .split('\r\n')
    .map((line) => line.split(','))
    .find((cells) => cells[1] === 'Cai')!
  const codes = row.slice(3, 3 + 31)
  // 1–2 a weekend, 3–7 missed, 8–9 a weekend, 10 absent; from the 11th (the late record of the 12th included) nothing
  expect(codes).toEqual(['', '', 'A', 'A', 'A', 'A', 'A', '', '', 'A', ...Array(21).fill('')])
  // work days, attendance days, late days, late minutes, early days, absent days, leave days, overtime hours, work hours
  expect(row.slice(3 + 31)).toEqual(['6', '0', '0', '0', '0', '6', '0', '0', '0'])
})

describe('the day after the last day employed the employee is inactive (status 0)', () => {
  const statusOf = async (id: number) => (await req(t.app, 'GET', `/api/v1/admin/employees/${id}`, { token: admin })).body.data.status

  test('left_on set in the past: status 0 in the same change, create and update, whatever status the request sends', async () => {
    const created = await must(t, admin, 'POST', '/api/v1/admin/employees', { name: 'Gone', company_id: 1, hire_date: '2025-01-02', left_on: '2025-03-19' }, 201)
    expect(created).toMatchObject({ status: 0, left_on: '2025-03-19' })
    const stays = await must(t, admin, 'POST', '/api/v1/admin/employees', { name: 'Stays', company_id: 1, hire_date: '2025-01-02' }, 201)
    expect(stays.status).toBe(1)
    // today in Shanghai is the 20th: the 20th itself is still a day employed
    expect(await must(t, admin, 'PUT', `/api/v1/admin/employees/${stays.id}`, { left_on: '2025-03-20' })).toMatchObject({ status: 1, left_on: '2025-03-20' })
    expect(await must(t, admin, 'PUT', `/api/v1/admin/employees/${stays.id}`, { left_on: '2025-03-19', status: 1 })).toMatchObject({ status: 0, left_on: '2025-03-19' })
    // the audit entry of the change says so
    const [entry] = await t.deps.database.db.select().from(auditLogs).where(and(eq(auditLogs.action, 'employee.update'), eq(auditLogs.resourceId, String(stays.id)))).orderBy(desc(auditLogs.id)).limit(1)
    expect(entry.after).toMatchObject({ status: 0, left_on: '2025-03-19' })
    // cleared: back in employment is HR's own decision (status 1 sent), not the clearing's
    expect(await must(t, admin, 'PUT', `/api/v1/admin/employees/${stays.id}`, { left_on: null })).toMatchObject({ status: 0, left_on: null })
    expect(await must(t, admin, 'PUT', `/api/v1/admin/employees/${stays.id}`, { status: 1 })).toMatchObject({ status: 1, left_on: null })
  })

  test("a left_on to come: active through that day in the company's zone, inactive from the first day-close tick after it, with an audit entry by the service", async () => {
    const later = await must(t, admin, 'POST', '/api/v1/admin/employees', { name: 'Later', company_id: 1, hire_date: '2025-01-02', left_on: '2025-03-21' }, 201)
    const dayClose = createDayClose({ database: t.deps.database, clock: t.clock, defaultZone: 'UTC', logger: t.deps.logger })
    // 23:30 on the 21st in Shanghai (15:30 UTC): still the last day
    t.clock.set('2025-03-21T15:30:00.000Z')
    admin = await loginAdmin(t.app)
    await dayClose.tick()
    expect(await statusOf(later.id)).toBe(1)
    // 00:10 on the 22nd in Shanghai, though still the 21st in UTC (the service's default zone here)
    t.clock.set('2025-03-21T16:10:00.000Z')
    await dayClose.tick()
    expect(await statusOf(later.id)).toBe(0)
    const entries = await t.deps.database.db.select().from(auditLogs).where(and(eq(auditLogs.action, 'employee.update'), eq(auditLogs.resourceId, String(later.id))))
    expect(entries.map(({ actorId, before, after }) => ({ actorId, before, after }))).toEqual([{ actorId: null, before: { status: 1 }, after: { status: 0, left_on: '2025-03-21' } }])
    // once only: a second tick changes nothing
    await dayClose.tick()
    expect(await t.deps.database.db.select().from(auditLogs).where(and(eq(auditLogs.action, 'employee.update'), eq(auditLogs.resourceId, String(later.id))))).toHaveLength(1)
    t.clock.set(NOW)
    admin = await loginAdmin(t.app)
  })
})
