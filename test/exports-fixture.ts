import { login, loginAdmin, replyOf, req, startApp, type Reply, type TestApp } from './helpers'

/*
 * A small company whose October 2024 the export tests read (the golden files of
 * test/fixtures/exports/ were written from it, before the sheet layout existed; they prove
 * `layout=data` stays byte for byte what it was).
 *
 * Acme, Asia/Shanghai; group Office (09:00–18:00, break 12:00–13:00, 5 minutes' grace, 8 h,
 * Monday to Friday). Calendar: 1–7 October National Day (holidays), Saturday 12 October a make-up
 * workday. It is now Friday 1 November 2024, 10:00 in Shanghai; the month's records came from a
 * history import (an open day is an exception, a missed work day is absent).
 *
 *   E001 王芳   Operations, Office: 08 late (09:20), 09 early (out 17:00), 10 no clock-out,
 *               11 overtime (out 19:30), 15 missed, 17 a day of leave, 23 a morning off (in 13:00)
 *   E002 Li Lei Finance, Office: misses the make-up Saturday, 24–25 two days of leave
 *   E003 陈静   Finance, Office, hired 14 October
 *   E004 Zhao   Operations, in no group: no work days
 * Salaries of October: 王芳 (paid on 31 October), Li Lei, 陈静; and one of September.
 */

export const MONTH = '2024-10'
export const local = (dateTime: string) => new Date(`${dateTime}+08:00`).toISOString()
export const NOW = local('2024-11-01T10:00:00')
export const DATES = Array.from({ length: 31 }, (_, i) => `2024-10-${String(i + 1).padStart(2, '0')}`)
export const HOLIDAYS = DATES.slice(0, 7)
export const MAKE_UP = '2024-10-12'
/** 1 = Monday … 7 = Sunday */
export const weekdayOf = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay() || 7
export const isWorkDay = (date: string) => date === MAKE_UP || (!HOLIDAYS.includes(date) && weekdayOf(date) <= 5)

type Day = [clockIn: string, clockOut: string] | null
const USUAL: Day = ['08:55', '18:05']
const FANG: Record<string, Day> = {
  '2024-10-08': ['09:20', '18:10'],
  '2024-10-09': ['08:55', '17:00'],
  '2024-10-10': ['08:58', ''],
  '2024-10-11': ['08:55', '19:30'],
  '2024-10-15': null,
  '2024-10-17': null,
  '2024-10-23': ['13:00', '18:00'],
}
const DAYS: Record<string, (date: string) => Day> = {
  E001: (date) => (date in FANG ? FANG[date] : isWorkDay(date) ? USUAL : null),
  E002: (date) => (date === MAKE_UP || date === '2024-10-24' || date === '2024-10-25' || !isWorkDay(date) ? null : USUAL),
  E003: (date) => (date >= '2024-10-14' && isWorkDay(date) ? USUAL : null),
}

export interface ExportsFixture {
  t: TestApp
  admin: string
  ids: Record<string, number>
  /** A download's status, headers and bytes. */
  download(path: string, headers?: Record<string, string>): Promise<{ status: number; headers: Headers; bytes: Uint8Array }>
}

export async function exportsFixture(): Promise<ExportsFixture> {
  const t = await startApp({ now: local('2024-09-30T12:00:00'), env: { ACCESS_TOKEN_TTL: '2592000' } })
  let admin = await loginAdmin(t.app)
  const adminReq = (method: string, path: string, body?: unknown) => req(t.app, method, path, { token: admin, body })
  const created = async (path: string, body: unknown) => {
    const reply = await adminReq('POST', path, body)
    if (reply.status !== 201 && reply.status !== 200) throw new Error(`${path}: ${JSON.stringify(reply.body)}`)
    return reply.body.data
  }
  const ok = (what: string, reply: Reply) => {
    if (reply.status !== 200 && reply.status !== 201) throw new Error(`${what}: ${JSON.stringify(reply.body)}`)
    return reply.body.data
  }

  await created('/api/v1/admin/companies', { name: 'Acme', timezone: 'Asia/Shanghai' })
  for (const name of ['Operations', 'Finance']) await created('/api/v1/admin/departments', { name })
  await created('/api/v1/admin/attendance/groups', { name: 'Office', company_id: 1 })
  await created('/api/v1/admin/attendance/rules', {
    name: 'Office hours',
    group_id: 1,
    work_start_time: '09:00',
    work_end_time: '18:00',
    break_start_time: '12:00',
    break_end_time: '13:00',
    late_grace_period: 5,
    required_work_hours: 8,
    work_days: '1,2,3,4,5',
  })
  await created('/api/v1/admin/leave/types', { name: 'Annual leave', annual_days: 10 })
  await created('/api/v1/admin/companies/1/calendar/import', {
    days: [...HOLIDAYS.map((date) => ({ date, kind: 'holiday', name: 'National Day' })), { date: MAKE_UP, kind: 'workday', name: 'National Day make-up day' }],
  })
  const ids: Record<string, number> = {}
  const people: [no: string, name: string, department: number, hire: string, group: boolean][] = [
    ['E001', '王芳', 1, '2024-01-02', true],
    ['E002', 'Li Lei', 2, '2024-01-02', true],
    ['E003', '陈静', 2, '2024-10-14', true],
    ['E004', 'Zhao', 1, '2024-01-02', false],
  ]
  for (const [no, name, department_id, hire_date] of people)
    ids[no] = (
      await created('/api/v1/admin/employees', { name, employee_no: no, department_id, hire_date, username: no.toLowerCase(), password: `${no}-password` })
    ).id
  await created('/api/v1/admin/attendance/groups/1/employees', { employee_ids: people.filter((p) => p[4]).map(([no]) => ids[no]) })

  // leave asked and approved ahead
  const leave = async (no: string, body: Record<string, unknown>) => {
    const token = await login(t.app, no.toLowerCase(), `${no}-password`)
    const asked = ok('leave', await req(t.app, 'POST', '/api/v1/leave/requests', { token, body: { type_id: 1, reason: 'Family', ...body } }))
    ok('approve', await adminReq('POST', `/api/v1/approvals/leave/${asked.id}/approve`, { note: 'Fine' }))
  }
  await leave('E001', { start_date: '2024-10-17', end_date: '2024-10-17' })
  await leave('E001', { start_date: '2024-10-23', end_date: '2024-10-23', half_day: 'am' })
  await leave('E002', { start_date: '2024-10-24', end_date: '2024-10-25' })

  t.clock.set(NOW)
  admin = await loginAdmin(t.app)
  const rows = Object.entries(DAYS).flatMap(([no, day]) =>
    DATES.flatMap((date) => {
      const shape = day(date)
      return shape ? [`${no},${date},${shape[0]},${shape[1]}\r\n`] : []
    }),
  )
  const form = new FormData()
  form.append('file', new File([`employee_no,work_date,clock_in,clock_out\r\n${rows.join('')}`], 'history.csv', { type: 'text/csv' }))
  ok(
    'history import',
    await replyOf(
      await t.app.handle(
        new Request('http://localhost/api/v1/admin/attendance/records/import?dry_run=false', {
          method: 'POST',
          body: form,
          headers: { authorization: `Bearer ${admin}` },
        }),
      ),
    ),
  )

  const salary = (employee_id: number, month: string, amounts: Record<string, unknown>) => created('/api/v1/admin/salaries', { employee_id, month, ...amounts })
  await salary(ids.E001, MONTH, {
    basic_salary: 12000,
    performance_pay: 1500.5,
    overtime_pay: 206.9,
    allowance: 300,
    personal_insurance: 1260,
    personal_tax: 345.15,
    housing_fund: 840,
    status: '1',
    payment_date: '2024-10-31',
  })
  await salary(ids.E002, MONTH, { basic_salary: 9800, seniority_pay: 200, bonus: 1000.01, attendance_deduction: 450.45, personal_insurance: 980 })
  await salary(ids.E003, MONTH, { basic_salary: 4500, allowance: 150.5, other_deductions: 12.3 })
  await salary(ids.E001, '2024-09', { basic_salary: 12000 })

  return {
    t,
    admin,
    ids,
    async download(path, headers = {}) {
      const response = await t.app.handle(new Request(`http://localhost${path}`, { headers: { authorization: `Bearer ${admin}`, ...headers } }))
      return { status: response.status, headers: response.headers, bytes: new Uint8Array(await response.arrayBuffer()) }
    },
  }
}
