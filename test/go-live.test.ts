import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { parse } from 'csv-parse/sync'
import { and, asc, eq } from 'drizzle-orm'
import { attendanceRecords, auditLogs } from '../src/db/schema'
import { errorBody, login, loginAdmin, req, startApp, type TestApp } from './helpers'

/*
 * Employment bounds (CONTRACT §23, issue 26): a company going live in the middle of October 2024
 * (Asia/Shanghai; the 1st is a Tuesday) and a mid-month hire. Before a company's
 * attendance_starts_on, or before an employee's hire date, no date is a work day, an absence or
 * leave — in the statistics, the month calendar, the exported sheet and day close alike.
 *
 * Rule for both groups: 09:00–18:00, break 12:00–13:00, 5 minutes' grace, 8 h, Monday to Friday.
 * Every clocked day is 08:55–18:05: 8 h 10 min worked, 8.17 h as a record shows it, no overtime.
 *
 *   ann  Acme (live from Tuesday 15 October), hired in January: works every work day from the 15th
 *        but Tuesday the 22nd (no record; day close marks it)
 *   eve  Acme, hired in January: full days of leave 10–16 October (2 of them are work days: the 15th
 *        and 16th), works every work day from the 17th
 *   bob  Globex (no start date), hired Monday 21 October: works from the 21st but Monday the 28th
 *   cat  Globex, hired in January: works every work day but Tuesday 8 October
 *
 * Day close runs over every date of the month once it is over.
 */

const local = (dateTime: string) => new Date(`${dateTime}+08:00`).toISOString()
const DATES = Array.from({ length: 31 }, (_, i) => `2024-10-${String(i + 1).padStart(2, '0')}`)
const WEEKDAY = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay() || 7
const weekday = (date: string) => WEEKDAY(date) <= 5
const RULE = {
  work_start_time: '09:00',
  work_end_time: '18:00',
  break_start_time: '12:00',
  break_end_time: '13:00',
  late_grace_period: 5,
  required_work_hours: 8,
  work_days: '1,2,3,4,5',
}
const GO_LIVE = '2024-10-15'

/** Who works which dates (08:55–18:05). */
const WORKS: Record<string, (date: string) => boolean> = {
  ann: (date) => weekday(date) && date >= GO_LIVE && date !== '2024-10-22',
  eve: (date) => weekday(date) && date >= '2024-10-17',
  bob: (date) => weekday(date) && date >= '2024-10-21' && date !== '2024-10-28',
  cat: (date) => weekday(date) && date !== '2024-10-08',
}
const PEOPLE = Object.keys(WORKS)

let t: TestApp
let admin: string
const tokens: Record<string, string> = {}
const ids: Record<string, number> = {}
let eveLeave: { days: number; status: string }

const at = (dateTime: string) => t.clock.set(local(dateTime))
const adminReq = (method: string, path: string, body?: unknown) => req(t.app, method, path, { token: admin, body })
const as = (who: string, method: string, path: string, body?: unknown) => req(t.app, method, path, { token: tokens[who], body })
const created = async (path: string, body: unknown) => {
  const reply = await adminReq('POST', path, body)
  if (reply.status !== 201 && reply.status !== 200) throw new Error(`${path}: ${JSON.stringify(reply.body)}`)
  return reply.body.data
}
const signIn = async () => {
  admin = await loginAdmin(t.app)
  for (const name of PEOPLE) tokens[name] = await login(t.app, name, `${name}-password`)
}

beforeAll(async () => {
  t = await startApp({ now: local('2024-09-30T12:00:00'), env: { ACCESS_TOKEN_TTL: '2592000' } })
  admin = await loginAdmin(t.app)
  const acme = await created('/api/v1/admin/companies', { name: 'Acme', timezone: 'Asia/Shanghai', attendance_starts_on: GO_LIVE })
  const globex = await created('/api/v1/admin/companies', { name: 'Globex', timezone: 'Asia/Shanghai' })
  const office = await created('/api/v1/admin/attendance/groups', { name: 'Office', company_id: acme.id })
  const plant = await created('/api/v1/admin/attendance/groups', { name: 'Plant', company_id: globex.id })
  await created('/api/v1/admin/attendance/rules', { name: 'Office hours', group_id: office.id, ...RULE })
  await created('/api/v1/admin/attendance/rules', { name: 'Plant hours', group_id: plant.id, ...RULE })
  await created('/api/v1/admin/leave/types', { name: 'Annual leave', annual_days: 10 })
  for (const [name, employee_no, hire_date] of [
    ['ann', 'E001', '2024-01-02'],
    ['eve', 'E002', '2024-01-02'],
    ['bob', 'E003', '2024-10-21'],
    ['cat', 'E004', '2024-01-02'],
  ])
    ids[name] = (await created('/api/v1/admin/employees', { name, employee_no, hire_date, username: name, password: `${name}-password` })).id
  await created(`/api/v1/admin/attendance/groups/${office.id}/employees`, { employee_ids: [ids.ann, ids.eve] })
  await created(`/api/v1/admin/attendance/groups/${plant.id}/employees`, { employee_ids: [ids.bob, ids.cat] })
  await signIn()

  // eve asks on 30 September for 10–16 October: only the 15th and 16th are her work days
  const asked = await as('eve', 'POST', '/api/v1/leave/requests', { type_id: 1, start_date: '2024-10-10', end_date: '2024-10-16', reason: 'Moving house' })
  expect(asked.status).toBe(201)
  eveLeave = (await adminReq('POST', `/api/v1/approvals/leave/${asked.body.data.id}/approve`, { note: 'Fine' })).body.data

  for (const date of DATES) {
    if (date === '2024-10-15') {
      at(`${date}T07:00:00`)
      await signIn()
    }
    for (const who of PEOPLE) {
      if (!WORKS[who](date)) continue
      at(`${date}T08:55:00`)
      expect((await as(who, 'POST', '/api/v1/attendance/clock-in', {})).status).toBe(200)
      at(`${date}T18:05:00`)
      expect((await as(who, 'POST', '/api/v1/attendance/clock-out', {})).status).toBe(200)
    }
  }
  at('2024-11-01T10:00:00')
  await signIn()
  for (const date of DATES) expect((await adminReq('POST', '/api/v1/admin/attendance/close-day', { date })).status).toBe(200)
}, 120_000)

afterAll(() => t.close())

/** The statistics of October by hand: `worked` days at 8.17 h, of `workDays` work days; `absent` missed, `leave` full days of leave. */
function october(workDays: number, worked: number, absent: number, leave = 0) {
  const hundredths = worked * 817
  return {
    total_days: 31,
    work_days: workDays,
    attendance_days: worked,
    late_days: 0,
    early_days: 0,
    absent_days: absent,
    exception_days: 0,
    total_work_hours: hundredths / 100,
    avg_work_hours: worked === 0 ? 0 : 8.17,
    total_late_minutes: 0,
    total_early_minutes: 0,
    overtime_hours: 0,
    attendance_rate: workDays === 0 ? 0 : Math.round((worked / workDays) * 10_000) / 100,
    late_days_allowed: 0,
    late_days_over_allowance: 0,
    holiday_days: 0,
    leave_days: leave,
    leave_hours: 0,
  }
}

describe('leave: a request counts only the work days from the start', () => {
  test('eve’s 10–16 October holds two: the 15th and the 16th', () => {
    expect([eveLeave.status, eveLeave.days]).toEqual(['approved', 2])
  })
})

describe('statistics: no work day, absence or leave before the start', () => {
  test.each([
    // 15–31 October: 13 work days; the 22nd missed
    ['ann', october(13, 12, 1)],
    // 13 work days, 2 of leave (15th, 16th), 11 worked; the leave days before the 15th are no leave
    ['eve', october(13, 11, 0, 2)],
    // hired on the 21st: 9 work days, the 28th missed
    ['bob', october(9, 8, 1)],
    // no bound: 23 work days, the 8th missed
    ['cat', october(23, 22, 1)],
  ])('%s, the whole month', async (who, expected) => {
    const reply = await as(who, 'GET', '/api/v1/attendance/statistics?start_date=2024-10-01&end_date=2024-10-31')
    expect(reply.status).toBe(200)
    expect(reply.body.data).toEqual(expected)
  })

  test('a range wholly before the start has no work days and no absences', async () => {
    const reply = await as('ann', 'GET', '/api/v1/attendance/statistics?start_date=2024-10-01&end_date=2024-10-14')
    expect(reply.body.data).toEqual({ ...october(0, 0, 0), total_days: 14, total_work_hours: 0 })
    const before = await as('bob', 'GET', '/api/v1/attendance/statistics?start_date=2024-10-01&end_date=2024-10-20')
    expect(before.body.data).toEqual({ ...october(0, 0, 0), total_days: 20, total_work_hours: 0 })
  })
})

describe('the month calendar: the dates before the start are no work days', () => {
  test.each(PEOPLE)('%s', async (who) => {
    const first: Record<string, string> = { ann: GO_LIVE, eve: GO_LIVE, bob: '2024-10-21', cat: '2024-10-01' }
    const reply = await as(who, 'GET', '/api/v1/attendance/calendar?month=2024-10')
    expect(reply.status).toBe(200)
    const leave = (date: string) =>
      who === 'eve' && date >= '2024-10-10' && date <= '2024-10-16' ? { request_id: 1, type_name: 'Annual leave', half_day: null } : null
    expect(reply.body.data).toEqual({
      month: '2024-10',
      days: DATES.map((date) => ({
        date,
        weekday: WEEKDAY(date),
        work_day: weekday(date) && date >= first[who],
        holiday_name: null,
        record: WORKS[who](date)
          ? {
              id: expect.any(Number),
              status: 0,
              status_text: 'normal',
              clock_in_time: local(`${date}T08:55:00`),
              clock_out_time: local(`${date}T18:05:00`),
              work_hours: 8.17,
            }
          : weekday(date) && date >= first[who] && !leave(date) && date < '2024-11-01'
            ? { id: expect.any(Number), status: 3, status_text: 'absent', clock_in_time: null, clock_out_time: null, work_hours: 0 }
            : null,
        leave: leave(date),
        leave_hours: [],
      })),
    })
  })
})

describe('day close: absent records only from the start', () => {
  test('one absent record each, on the missed work day, none before the company went live or before the hire date', async () => {
    const absent = await t.deps.database.db
      .select({ employeeId: attendanceRecords.employeeId, workDate: attendanceRecords.workDate })
      .from(attendanceRecords)
      .where(eq(attendanceRecords.status, 3))
      .orderBy(asc(attendanceRecords.employeeId), asc(attendanceRecords.workDate))
    expect(absent).toEqual([
      { employeeId: ids.ann, workDate: '2024-10-22' },
      { employeeId: ids.bob, workDate: '2024-10-28' },
      { employeeId: ids.cat, workDate: '2024-10-08' },
    ])
  })
})

describe('the attendance sheet', () => {
  let rows: string[][]
  beforeAll(async () => {
    const response = await t.app.handle(
      new Request('http://localhost/api/v1/admin/exports/attendance?month=2024-10&format=csv', { headers: { authorization: `Bearer ${admin}` } }),
    )
    expect(response.status).toBe(200)
    rows = parse(new TextDecoder().decode(new Uint8Array(await response.arrayBuffer()).slice(3)))
  })
  const rowOf = (name: string) => rows.find((row) => row[1] === name)!

  test.each([
    ['ann', GO_LIVE, ['13', '12', '0', '0', '0', '1', '0', '0', '98.04']],
    ['eve', GO_LIVE, ['13', '11', '0', '0', '0', '0', '2', '0', '89.87']],
    ['bob', '2024-10-21', ['9', '8', '0', '0', '0', '1', '0', '0', '65.36']],
    ['cat', '2024-10-01', ['23', '22', '0', '0', '0', '1', '0', '0', '179.74']],
  ])('%s: empty cells before %s, no A there, and work_days counted from it', (who, first, totals) => {
    const row = rowOf(who)
    const code = (date: string) => {
      if (WORKS[who](date)) return '✓'
      if (!weekday(date) || date < first) return ''
      return who === 'eve' && date <= '2024-10-16' ? 'V' : 'A'
    }
    expect(row.slice(3, 34)).toEqual(DATES.map(code))
    expect(row.slice(34)).toEqual(totals)
  })
})

describe('attendance_starts_on on the company', () => {
  test('read back as given; null by default; a date that is not real is a 400', async () => {
    const acme = await adminReq('GET', '/api/v1/admin/companies/1')
    expect(acme.body.data).toEqual({
      id: 1,
      name: 'Acme',
      timezone: 'Asia/Shanghai',
      attendance_starts_on: GO_LIVE,
      created_at: local('2024-09-30T12:00:00'),
      updated_at: local('2024-09-30T12:00:00'),
    })
    expect((await adminReq('GET', '/api/v1/admin/companies/2')).body.data.attendance_starts_on).toBeNull()
    const unreal = await adminReq('POST', '/api/v1/admin/companies', { name: 'Initech', attendance_starts_on: '2024-02-30' })
    expect({ status: unreal.status, body: unreal.body }).toEqual({
      status: 400,
      body: {
        ...errorBody(400, 'attendance_starts_on "2024-02-30" is not a real date', {
          errors: [{ field: 'attendance_starts_on', message: '"2024-02-30" is not a real date' }],
        }),
        timestamp: local('2024-11-01T10:00:00'),
      },
    })
    const shape = await adminReq('PUT', '/api/v1/admin/companies/2', { attendance_starts_on: '15/10/2024' })
    expect([shape.status, shape.body.errors]).toEqual([400, [{ field: 'attendance_starts_on', message: 'must be a date written YYYY-MM-DD' }]])
  })

  test('an earlier start lets day close mark the dates it brings in; a later one takes the absences before it away, audited', async () => {
    const absences = () =>
      t.deps.database.db
        .select({ employeeId: attendanceRecords.employeeId, workDate: attendanceRecords.workDate })
        .from(attendanceRecords)
        .where(and(eq(attendanceRecords.status, 3), eq(attendanceRecords.groupId, 1)))
        .orderBy(asc(attendanceRecords.workDate))
    const month = (who: string) => as(who, 'GET', '/api/v1/attendance/statistics?start_date=2024-10-01&end_date=2024-10-31')
    expect(await absences()).toEqual([{ employeeId: ids.ann, workDate: '2024-10-22' }])

    // Monday the 14th becomes a work day of Acme's: ann missed it; eve's leave covers it, and counts now
    const earlier = await adminReq('PUT', '/api/v1/admin/companies/1', { attendance_starts_on: '2024-10-14' })
    expect([earlier.status, earlier.body.data.attendance_starts_on]).toEqual([200, '2024-10-14'])
    expect((await adminReq('POST', '/api/v1/admin/attendance/close-day', { date: '2024-10-14' })).status).toBe(200)
    expect(await absences()).toEqual([
      { employeeId: ids.ann, workDate: '2024-10-14' },
      { employeeId: ids.ann, workDate: '2024-10-22' },
    ])
    expect((await month('ann')).body.data).toEqual(october(14, 12, 2))
    expect((await month('eve')).body.data).toEqual(october(14, 11, 0, 3))

    // back to the 15th: the absence of the 14th goes, and the audit entry says so
    const later = await adminReq('PUT', '/api/v1/admin/companies/1', { attendance_starts_on: GO_LIVE })
    expect([later.status, later.body.data.attendance_starts_on]).toEqual([200, GO_LIVE])
    expect(await absences()).toEqual([{ employeeId: ids.ann, workDate: '2024-10-22' }])
    const entries = await t.deps.database.db.select().from(auditLogs).where(eq(auditLogs.action, 'company.update')).orderBy(asc(auditLogs.id))
    expect(entries.map((entry) => entry.after)).toEqual([
      expect.objectContaining({ attendance_starts_on: '2024-10-14' }),
      expect.objectContaining({
        attendance_starts_on: GO_LIVE,
        deleted_absent_records: [{ id: expect.any(Number), employee_id: ids.ann, work_date: '2024-10-14', group_id: 1, rule_id: 1 }],
      }),
    ])
    expect(entries[0].after).not.toHaveProperty('deleted_absent_records')
    expect((await month('ann')).body.data).toEqual(october(13, 12, 1))
    expect((await month('eve')).body.data).toEqual(october(13, 11, 0, 2))
  })

  test('leave before the start counts no days: a request wholly before it has no work day', async () => {
    const reply = await as('ann', 'POST', '/api/v1/leave/requests', { type_id: 1, start_date: '2024-10-07', end_date: '2024-10-11' })
    expect({ status: reply.status, body: reply.body }).toEqual({
      status: 400,
      body: {
        ...errorBody(400, '2024-10-07 to 2024-10-11 holds none of your work days: there is nothing to take leave from', {
          errors: [{ field: 'start_date', message: 'the range holds no work day' }],
        }),
        timestamp: local('2024-11-01T10:00:00'),
      },
    })
  })
})