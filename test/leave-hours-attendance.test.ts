import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { parse } from 'csv-parse/sync'
import ExcelJS from 'exceljs'
import { login, loginAdmin, replyOf, req, startApp, type TestApp } from './helpers'

/*
 * CONTRACT §18, hourly leave through attendance: approved hours of a date move the shift's start
 * (lateness runs from the leave's end) or its end (early leave runs to the leave's start) and lower
 * the required hours by the work time they cover, breaks excluded; statistics show them as
 * leave_hours, the month calendar as each day's leave_hours, the monthly sheet (layout=sheet) in a
 * "Leave hours" column that agrees with statistics; none of it is a leave day.
 *
 * Asia/Shanghai. Rule 09:00–18:00, break 12:00–13:00, 5 minutes' late grace, no early grace, 8 hours
 * required, Monday to Friday; overtime from 30 minutes. ann's leave in March 2024, asked on Friday
 * the 15th and decided by mia, her group's manager:
 *
 *   18 Mon  09:00–11:00 hours: in 11:03, on time (grace from 11:00); out 18:00 = 7 h less the break
 *           = 5.95 h, short of 8 − 2 = 6 → status 4, the message naming 6
 *   19 Tue  16:00–18:00 hours: in 09:00, out 16:00 = 6 h of 6, no early leave → status 0
 *   20 Wed  11:00–14:00 hours (2 h: the break is no leave): in 09:00, out 17:00 = 7 h of 6 required,
 *           but the end stays 18:00 → early 60 minutes, status 2
 *   21 Thu  09:00–11:00 hours, left pending: a whole day; in 11:03 → late 123; out 19:00 → 6.95 h,
 *           overtime 60 minutes, status 1
 *   22 Fri  a full day of annual leave (days): no record
 *   25 Mon  09:00–11:00 hours: in 11:10 → late 10 minutes, from 11:00; out 18:00 → 5.83 h, status 1
 *   26 Tue  09:00–11:00 hours, no clock-in: the history import brings 11:04–18:10 → on time, 6.1 h
 *   28 Thu  16:00–18:00 hours, no clock-in: an approved correction 09:00–16:00 → normal, 6 h
 *
 * Over the 18th–25th: leave_hours 2 + 2 + 2 + 2 = 8 (not the pending 21st), leave_days 1.
 */

const local = (dateTime: string) => new Date(`${dateTime}+08:00`).toISOString()

let t: TestApp
let admin: string
const tokens: Record<string, string> = {}
const ids: Record<string, number> = {}
const leave: Record<string, number> = {}
const records: Record<string, number> = {}

const at = (dateTime: string) => t.clock.set(local(dateTime))
const stamp = () => t.clock.now().toISOString()
const ok = (data: unknown, message = 'success') => ({ code: 200, message, data, timestamp: stamp() })
const adminReq = (method: string, path: string, body?: unknown) => req(t.app, method, path, { token: admin, body })
const as = (who: string, method: string, path: string, body?: unknown) => req(t.app, method, path, { token: tokens[who], body })

/** Tokens last 30 days (ACCESS_TOKEN_TTL): signed in again once the clock has moved on. */
const signIn = async () => {
  admin = await loginAdmin(t.app)
  for (const name of Object.keys(tokens)) tokens[name] = await login(t.app, name, `${name}-password`)
}

const HOURS = 1
const ANNUAL = 2
const RULE = {
  name: 'Office hours',
  group_id: 1,
  work_start_time: '09:00',
  work_end_time: '18:00',
  break_start_time: '12:00',
  break_end_time: '13:00',
  late_grace_period: 5,
  early_grace_period: 0,
  required_work_hours: 8,
  work_days: '1,2,3,4,5',
}

const ask = async (key: string, body: Record<string, unknown>, approve = true) => {
  const asked = await as('ann', 'POST', '/api/v1/leave/requests', { reason: key, ...body })
  expect(asked.status).toBe(201)
  leave[key] = asked.body.data.id
  if (approve) expect((await as('mia', 'POST', `/api/v1/approvals/leave/${leave[key]}/approve`, {})).body.data.status).toBe('approved')
}
const hours = (date: string, start_time: string, end_time: string) => ({ type_id: HOURS, start_date: date, end_date: date, start_time, end_time })

const clock = async (kind: 'in' | 'out', dateTime: string) => {
  at(dateTime)
  const reply = await as('ann', 'POST', `/api/v1/attendance/clock-${kind}`, {})
  expect(reply.status).toBe(200)
  records[dateTime.slice(0, 10)] = reply.body.data.attendance_id
  return reply.body
}
const recordOn = async (date: string) =>
  (await adminReq('GET', `/api/v1/admin/attendance/records?employee_id=${ids.ann}&start_date=${date}&end_date=${date}`)).body.data.records[0]

beforeAll(async () => {
  t = await startApp({ now: local('2024-03-01T12:00:00'), env: { ACCESS_TOKEN_TTL: '2592000' } })
  admin = await loginAdmin(t.app)
  expect((await adminReq('POST', '/api/v1/admin/companies', { name: 'Acme', timezone: 'Asia/Shanghai' })).status).toBe(201)
  for (const name of ['mia', 'ann']) {
    const created = await adminReq('POST', '/api/v1/admin/employees', {
      name,
      employee_no: name.toUpperCase(),
      username: name,
      password: `${name}-password`,
      hire_date: '2024-01-01',
    })
    expect(created.status).toBe(201)
    ids[name] = created.body.data.id
    tokens[name] = await login(t.app, name, `${name}-password`)
  }
  expect((await adminReq('POST', '/api/v1/admin/attendance/groups', { name: 'Office', company_id: 1, manager_id: ids.mia })).status).toBe(201)
  expect((await adminReq('POST', '/api/v1/admin/attendance/rules', RULE)).status).toBe(201)
  expect((await adminReq('POST', '/api/v1/admin/attendance/groups/1/employees', { employee_ids: [ids.ann] })).status).toBe(200)
  expect((await adminReq('POST', '/api/v1/admin/leave/types', { name: 'Personal hours', unit: 'hour', annual_days: 3 })).body.data.id).toBe(HOURS)
  expect((await adminReq('POST', '/api/v1/admin/leave/types', { name: 'Annual leave', annual_days: 5 })).body.data.id).toBe(ANNUAL)

  at('2024-03-15T12:00:00')
  await ask('mon', hours('2024-03-18', '09:00', '11:00'))
  await ask('tue', hours('2024-03-19', '16:00', '18:00'))
  await ask('wed', hours('2024-03-20', '11:00', '14:00'))
  await ask('thu', hours('2024-03-21', '09:00', '11:00'), false)
  await ask('fri', { type_id: ANNUAL, start_date: '2024-03-22', end_date: '2024-03-22' })
  await ask('next', hours('2024-03-25', '09:00', '11:00'))
  await ask('imported', hours('2024-03-26', '09:00', '11:00'))
  await ask('corrected', hours('2024-03-28', '16:00', '18:00'))
}, 30_000)

afterAll(() => t.close())

describe('clocking on a date with approved hours of leave', () => {
  test('09:00–11:00 off: in at 11:03 is on time, judged from 11:00; 5.95 h is short of the 6 left to work', async () => {
    expect(await clock('in', '2024-03-18T11:03:00')).toEqual(
      ok(
        {
          attendance_id: expect.any(Number),
          work_date: '2024-03-18',
          clock_in_time: local('2024-03-18T11:03:00'),
          status: 0,
          status_text: 'normal',
          late_minutes: 0,
          message: 'Clocked in on time',
        },
        'Clocked in',
      ),
    )
    expect(await clock('out', '2024-03-18T18:00:00')).toEqual(
      ok(
        {
          attendance_id: records['2024-03-18'],
          work_date: '2024-03-18',
          clock_out_time: local('2024-03-18T18:00:00'),
          status: 4,
          status_text: 'exception',
          work_hours: 5.95,
          early_minutes: 0,
          overtime_minutes: 0,
          message: 'Clocked out after 5.95 hours, short of the required 6',
        },
        'Clocked out',
      ),
    )
  })

  test('16:00–18:00 off: out at 16:00 is no early leave, and 6 hours make the day', async () => {
    expect((await clock('in', '2024-03-19T09:00:00')).data).toMatchObject({ status: 0, late_minutes: 0 })
    expect((await clock('out', '2024-03-19T16:00:00')).data).toMatchObject({ status: 0, work_hours: 6, early_minutes: 0, message: 'Clocked out' })
  })

  test('11:00–14:00 off, in the middle: the end stays 18:00, so out at 17:00 is early 60 minutes', async () => {
    expect((await clock('in', '2024-03-20T09:00:00')).data).toMatchObject({ status: 0, late_minutes: 0 })
    expect((await clock('out', '2024-03-20T17:00:00')).data).toMatchObject({ status: 2, work_hours: 7, early_minutes: 60 })
  })

  test('hours still pending change nothing: late from 09:00', async () => {
    expect((await clock('in', '2024-03-21T11:03:00')).data).toMatchObject({ status: 1, late_minutes: 123 })
    expect((await clock('out', '2024-03-21T19:00:00')).data).toMatchObject({ status: 1, work_hours: 6.95, overtime_minutes: 60 })
  })

  test('09:00–11:00 off: in at 11:10 is late 10 minutes, counted from 11:00', async () => {
    expect((await clock('in', '2024-03-25T11:10:00')).data).toMatchObject({ status: 1, late_minutes: 10, message: 'Clocked in 10 minutes late' })
    expect((await clock('out', '2024-03-25T18:00:00')).data).toMatchObject({ status: 1, work_hours: 5.83, early_minutes: 0 })
  })

  test('the record keeps the shift it was judged under', async () => {
    expect(await recordOn('2024-03-18')).toMatchObject({ id: records['2024-03-18'], status: 4, late_minutes: 0, work_hours: 5.95 })
  })
})

describe('re-judged records: the history import and corrections read the same hours', () => {
  test('the history import of the 26th (09:00–11:00 off): 11:04 is on time, 6.1 of 6 hours', async () => {
    at('2024-03-27T20:00:00')
    const form = new FormData()
    form.append('file', new File(['employee_no,work_date,clock_in,clock_out,note\r\nANN,2024-03-26,11:04,18:10,paper sheet\r\n'], 'history.csv', { type: 'text/csv' }))
    const imported = await replyOf(
      await t.app.handle(
        new Request('http://localhost/api/v1/admin/attendance/records/import?dry_run=false', { method: 'POST', body: form, headers: { authorization: `Bearer ${admin}` } }),
      ),
    )
    expect(imported.body).toEqual(ok({ created: 1, replaced: 0, kept: 0, errors: [] }, expect.any(String)))
    expect(await recordOn('2024-03-26')).toMatchObject({ status: 0, late_minutes: 0, early_minutes: 0, work_hours: 6.1, imported: true })
  })

  test('an approved correction of the 28th (16:00–18:00 off): 09:00–16:00 is a normal day', async () => {
    at('2024-03-29T10:00:00')
    const asked = await as('ann', 'POST', '/api/v1/attendance/corrections', {
      work_date: '2024-03-28',
      clock_in_time: local('2024-03-28T09:00:00'),
      clock_out_time: local('2024-03-28T16:00:00'),
      reason: 'Forgot to clock',
    })
    expect(asked.status).toBe(201)
    expect((await as('mia', 'POST', `/api/v1/approvals/correction/${asked.body.data.id}/approve`, {})).status).toBe(200)
    expect(await recordOn('2024-03-28')).toMatchObject({ status: 0, late_minutes: 0, early_minutes: 0, work_hours: 6, corrected: true })
  })
})

describe('what attendance shows of it', () => {
  test('statistics: leave_hours 8 (approved only), leave_days 1, the whole body', async () => {
    const statistics = await as('ann', 'GET', '/api/v1/attendance/statistics?start_date=2024-03-18&end_date=2024-03-25')
    expect(statistics.body).toEqual(
      ok({
        total_days: 8,
        work_days: 6,
        attendance_days: 5,
        late_days: 2,
        early_days: 1,
        absent_days: 0,
        exception_days: 1,
        holiday_days: 0,
        leave_days: 1,
        leave_hours: 8,
        // 5.95 + 6 + 7 + 6.95 + 5.83
        total_work_hours: 31.73,
        avg_work_hours: 6.35,
        total_late_minutes: 133,
        total_early_minutes: 60,
        overtime_hours: 1,
        attendance_rate: 83.33,
        late_days_allowed: 0,
        late_days_over_allowance: 2,
      }),
    )
    const summary = await as('ann', 'GET', '/api/v1/attendance/summary')
    // the month so far: the 18th–25th's eight hours of approved hourly leave and the 26th's and 28th's four
    expect(summary.body.data.this_month).toMatchObject({ leave_days: 1, leave_hours: 12 })
  })

  test('the month calendar: hours in leave_hours, the day of leave in leave, [] elsewhere', async () => {
    const month = await as('ann', 'GET', '/api/v1/attendance/calendar?month=2024-03')
    expect(month.status).toBe(200)
    const byDate = Object.fromEntries(month.body.data.days.map((day: { date: string }) => [day.date, day]))
    const span = (key: string, type: string, start: string, end: string, hours: number) => ({
      request_id: leave[key],
      type_name: type,
      start_time: start,
      end_time: end,
      hours,
    })
    expect(byDate['2024-03-18']).toEqual({
      date: '2024-03-18',
      weekday: 1,
      work_day: true,
      holiday_name: null,
      record: {
        id: records['2024-03-18'],
        status: 4,
        status_text: 'exception',
        clock_in_time: local('2024-03-18T11:03:00'),
        clock_out_time: local('2024-03-18T18:00:00'),
        work_hours: 5.95,
      },
      leave: null,
      leave_hours: [span('mon', 'Personal hours', '09:00', '11:00', 2)],
    })
    expect(byDate['2024-03-20'].leave_hours).toEqual([span('wed', 'Personal hours', '11:00', '14:00', 2)])
    // pending hours are not shown
    expect(byDate['2024-03-21']).toMatchObject({ leave: null, leave_hours: [] })
    expect(byDate['2024-03-22']).toEqual({
      date: '2024-03-22',
      weekday: 5,
      work_day: true,
      holiday_name: null,
      record: null,
      leave: { request_id: leave.fri, type_name: 'Annual leave', half_day: null },
      leave_hours: [],
    })
    expect(byDate['2024-03-23']).toMatchObject({ work_day: false, leave: null, leave_hours: [] })
    const hoursShown = (month.body.data.days as { leave_hours: { hours: number }[] }[]).reduce((sum, day) => sum + day.leave_hours.reduce((a, b) => a + b.hours, 0), 0)
    expect(hoursShown).toBe(12)
  })

  test('a second span on a date: both, earliest first', async () => {
    at('2024-03-29T10:00:00')
    await signIn()
    await ask('late', hours('2024-04-01', '16:00', '18:00'))
    await ask('early', hours('2024-04-01', '09:00', '10:30'))
    const april = await as('ann', 'GET', '/api/v1/attendance/calendar?month=2024-04')
    expect(april.body.data.days[0].leave_hours.map((span: { start_time: string; hours: number }) => [span.start_time, span.hours])).toEqual([
      ['09:00', 1.5],
      ['16:00', 2],
    ])
    // on the day: the start is 10:30, the end 16:00, and 8 − 3.5 = 4.5 hours are required
    at('2024-04-01T08:00:00')
    await signIn()
    expect((await clock('in', '2024-04-01T10:35:00')).data).toMatchObject({ status: 0, late_minutes: 0 })
    // 10:35–16:05 less the break is 4.5 hours
    expect((await clock('out', '2024-04-01T16:05:00')).data).toMatchObject({ status: 0, work_hours: 4.5, early_minutes: 0, overtime_minutes: 0 })
  })
})

describe('the monthly sheet', () => {
  const download = async (query: string, headers: Record<string, string> = {}) => {
    const response = await t.app.handle(new Request(`http://localhost/api/v1/admin/exports/attendance?${query}`, { headers: { authorization: `Bearer ${admin}`, ...headers } }))
    expect(response.status).toBe(200)
    return new Uint8Array(await response.arrayBuffer())
  }
  const csvOf = async (query: string, headers: Record<string, string> = {}) => parse(new TextDecoder().decode((await download(query, headers)).slice(3))) as string[][]

  test('the data layout keeps §12’s columns byte for byte; hourly leave is never a V, a day of leave is', async () => {
    const [header, ...rows] = await csvOf('month=2024-03&format=csv')
    expect(header.slice(-9)).toEqual(['work_days', 'attendance_days', 'late_days', 'late_minutes', 'early_days', 'absent_days', 'leave_days', 'overtime_hours', 'work_hours'])
    const ann = rows.find((row) => row[1] === 'ann')!
    const cell = (name: string) => ann[header.indexOf(name)]
    expect(['2024-03-18', '2024-03-19', '2024-03-20', '2024-03-21', '2024-03-22', '2024-03-25', '2024-03-26', '2024-03-28'].map(cell)).toEqual([
      'X',
      '✓',
      'E',
      'L',
      'V',
      'L',
      '✓',
      '✓',
    ])
    expect(Number(cell('leave_days'))).toBe(1)
  })

  test('the sheet layout: a "Leave hours" (请假小时) column after §12’s, statistics’ leave_hours, in CSV and XLSX, totalled', async () => {
    const statistics = (await as('ann', 'GET', '/api/v1/attendance/statistics?start_date=2024-03-01&end_date=2024-03-31')).body.data
    expect(statistics).toMatchObject({ leave_hours: 12, leave_days: 1 })
    const mia = (await as('mia', 'GET', '/api/v1/attendance/statistics?start_date=2024-03-01&end_date=2024-03-31')).body

    const english = await csvOf('month=2024-03&format=csv&layout=sheet')
    const header = english.find((row) => row[0] === 'Employee no.')!
    expect(header.slice(-4)).toEqual(['Leave days', 'Overtime hours', 'Hours worked', 'Leave hours'])
    const column = header.length - 1
    expect(Number(english.find((row) => row[1] === 'ann')![column])).toBe(statistics.leave_hours)
    // mia, in no group and with no leave: 0 on both
    expect(mia.data.leave_hours).toBe(0)
    expect(english.find((row) => row[1] === 'mia')![column]).toBe('0')
    expect(english.find((row) => row[0] === 'Total')![column]).toBe('12')
    // the weekday row under the headers has a blank for it, as for the other totals
    expect(english[english.indexOf(header) + 1].slice(-4)).toEqual(['', '', '', ''])

    const chinese = await csvOf('month=2024-03&format=csv&layout=sheet', { 'accept-language': 'zh' })
    expect(chinese.find((row) => row[0] === '工号')!.slice(-4)).toEqual(['请假天数', '加班小时', '工作小时', '请假小时'])

    const workbook = new ExcelJS.Workbook()
    await workbook.xlsx.load((await download('month=2024-03&format=xlsx')).buffer as ArrayBuffer)
    const values: unknown[][] = []
    workbook.worksheets[0].eachRow((row) => values.push((row.values as unknown[]).slice(1)))
    const xlsxHeader = values.find((row) => row[0] === 'Employee no.')!
    expect(xlsxHeader.indexOf('Leave hours')).toBe(column)
    expect(values.find((row) => row[1] === 'ann')![column]).toBe(statistics.leave_hours)
    expect(values.find((row) => row[0] === 'Total')![column]).toBe(12)
  })
})
