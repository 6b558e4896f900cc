import { afterAll, beforeAll, expect, test } from 'bun:test'
import { and, asc, eq } from 'drizzle-orm'
import { attendanceRecords } from '../src/db/schema'
import { errorBody as errorAt, loginAdmin, req, startApp, type TestApp } from './helpers'
import { must } from './payroll-fixtures'

/* Employees' `left_on` (CONTRACT §18, brought forward by payroll): the last day employed. */

const NOW = '2025-03-20T02:00:00.000Z'
const errorBody = (code: number, message: string, extra: Record<string, unknown>) => ({ ...errorAt(code, message, extra), timestamp: NOW })

let t: TestApp
let admin: string
let leaver: number

beforeAll(async () => {
  t = await startApp({ now: '2025-03-01T02:00:00.000Z' })
  admin = await loginAdmin(t.app)
  await must(t, admin, 'POST', '/api/v1/admin/companies', { name: 'Acme', timezone: 'Asia/Shanghai' }, 201)
  await must(t, admin, 'POST', '/api/v1/admin/attendance/groups', { name: 'Office', company_id: 1 }, 201)
  await must(t, admin, 'POST', '/api/v1/admin/attendance/rules', {
    name: 'Hours',
    group_id: 1,
    work_start_time: '09:00',
    work_end_time: '18:00',
    break_start_time: '12:00',
    break_end_time: '13:00',
    required_work_hours: 8,
    work_days: '1,2,3,4,5',
  }, 201)
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
