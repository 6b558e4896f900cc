import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { and, count, eq } from 'drizzle-orm'
import { attendanceAttempts, attendanceRecords } from '../src/db/schema'
import { createDayClose } from '../src/modules/attendance/day-close'
import { errorBody, invalidBody, login, loginAdmin, makeUser, req, startApp, type TestApp } from './helpers'

// Shanghai is UTC+8 all year: 09:00 local is 01:00Z.
const local = (dateTime: string) => new Date(`${dateTime}+08:00`).toISOString()
const CENTRE = { latitude: 31.2304, longitude: 121.4737 }
/** `metres` due north of the centre */
const north = (metres: number) => ({ latitude: CENTRE.latitude + metres / 111_194.93, longitude: CENTRE.longitude })

let t: TestApp
let admin: string
const tokens: Record<string, string> = {}
const employeeIds: Record<string, number> = {}

const envelope = (data: unknown, message: string) => ({ code: 200, message, data, timestamp: t.clock.now().toISOString() })
const failure = (code: number, message: string, extra: Record<string, unknown> = {}) => ({
  ...errorBody(code, message, extra),
  timestamp: t.clock.now().toISOString(),
})
const at = (dateTime: string) => t.clock.set(local(dateTime))
const as = (who: string, method: string, path: string, body?: unknown) => req(t.app, method, path, { token: tokens[who], body })
/** The same in Chinese (Accept-Language: zh). */
const asZh = (who: string, method: string, path: string, body?: unknown) =>
  req(t.app, method, path, { token: tokens[who], body, headers: { 'accept-language': 'zh' } })
const adminReq = (method: string, path: string, body?: unknown) => req(t.app, method, path, { token: admin, body })

const RULE_BASE = {
  work_start_time: '09:00',
  work_end_time: '18:00',
  break_start_time: '12:00',
  break_end_time: '13:00',
  late_grace_period: 5,
  early_grace_period: 0,
  required_work_hours: 8,
  work_days: '1,2,3,4,5',
}

beforeAll(async () => {
  t = await startApp({ now: local('2024-02-29T12:00:00'), env: { ACCESS_TOKEN_TTL: '2592000' } })
  admin = await loginAdmin(t.app)
  await adminReq('POST', '/api/v1/admin/companies', { name: 'Acme', timezone: 'Asia/Shanghai' })
  await adminReq('POST', '/api/v1/admin/attendance/groups', { name: 'Site', company_id: 1 })
  await adminReq('POST', '/api/v1/admin/attendance/groups', { name: 'Office', company_id: 1 })
  await adminReq('POST', '/api/v1/admin/attendance/rules', {
    ...RULE_BASE,
    name: 'Site hours',
    group_id: 1,
    location_required: true,
    allowed_latitude: CENTRE.latitude,
    allowed_longitude: CENTRE.longitude,
    location_radius: 100,
  })
  await adminReq('POST', '/api/v1/admin/attendance/rules', { ...RULE_BASE, name: 'Office hours', group_id: 2, allowed_late_days: 1 })
  for (const [name, group] of [
    ['ann', 1],
    ['cal', 1],
    ['mia', 2],
    ['ned', 0],
  ] as const) {
    const created = await adminReq('POST', '/api/v1/admin/employees', {
      name,
      phone: `555-000${Object.keys(employeeIds).length}`,
      username: name,
      password: `${name}-password`,
      hire_date: '2024-03-01',
    })
    employeeIds[name] = created.body.data.id
    if (group) await adminReq('POST', `/api/v1/admin/attendance/groups/${group}/employees`, { employee_ids: [created.body.data.id] })
    tokens[name] = await login(t.app, name, `${name}-password`)
  }
  tokens.bob = (await makeUser(t.app, admin, 'bob', ['employee'])).token
})

afterAll(() => t.close())

const records = async (employee: string) =>
  t.deps.database.db.select().from(attendanceRecords).where(eq(attendanceRecords.employeeId, employeeIds[employee]))

describe('who may clock in', () => {
  test('an account without an employee → 403 saying so', async () => {
    const reply = await as('bob', 'POST', '/api/v1/attendance/clock-in', {})
    expect(reply.status).toBe(403)
    expect(reply.body).toEqual(
      failure(403, 'Your account is not linked to an employee, so it has no attendance; ask an administrator to link it'),
    )
  })

  test('an employee outside every group → 400, and no rule (404)', async () => {
    expect((await as('ned', 'POST', '/api/v1/attendance/clock-in', {})).body).toEqual(
      failure(400, 'You are not in an attendance group; ask an administrator to add you to one'),
    )
    expect((await as('ned', 'GET', '/api/v1/attendance/rule')).body).toEqual(failure(404, 'You are not in an attendance group'))
  })

  test('no token → 401; an administrator without an employee → 403', async () => {
    expect((await req(t.app, 'POST', '/api/v1/attendance/clock-in', { body: {} })).status).toBe(401)
    expect((await adminReq('POST', '/api/v1/attendance/clock-in', {})).status).toBe(403)
  })
})

describe('the geofence', () => {
  test('150 m from the centre of a 100 m area → 400 naming both figures; the attempt is kept', async () => {
    at('2024-03-01T08:50:00')
    const position = north(150)
    const reply = await as('ann', 'POST', '/api/v1/attendance/clock-in', position)
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual(failure(400, 'You are 150 m from the allowed place, outside its 100 m radius; clock in from within 100 m'))
    expect(await records('ann')).toEqual([])

    const attempts = await adminReq('GET', '/api/v1/admin/attendance/attempts')
    expect(attempts.body).toEqual(
      envelope(
        {
          attempts: [
            {
              id: 1,
              employee_id: employeeIds.ann,
              employee: { id: employeeIds.ann, name: 'ann', phone: '555-0000' },
              rule_id: 1,
              kind: 'clock_in',
              latitude: position.latitude,
              longitude: position.longitude,
              distance: 150,
              radius: 100,
              attempted_at: local('2024-03-01T08:50:00'),
            },
          ],
          pagination: { current_page: 1, page_size: 10, total_items: 1, total_pages: 1, has_next: false, has_prev: false },
        },
        'success',
      ),
    )
  })

  test('no position where one is needed → 400, also kept; a lone coordinate or one out of range → 400', async () => {
    expect((await as('ann', 'POST', '/api/v1/attendance/clock-in', {})).body).toEqual(
      failure(400, 'Your attendance rule needs your position to clock in: send latitude and longitude (allowed radius 100 m)'),
    )
    expect((await as('ann', 'POST', '/api/v1/attendance/clock-in', { latitude: 31.2 })).body).toEqual(
      failure(400, 'Send latitude and longitude together', {
        errors: [{ field: 'longitude', message: 'is required with the other coordinate' }],
      }),
    )
    expect((await as('ann', 'POST', '/api/v1/attendance/clock-in', { latitude: 91, longitude: 0 })).body).toEqual({
      ...invalidBody('latitude', 'must be a latitude from -90 to 90'),
      timestamp: t.clock.now().toISOString(),
    })
    // the same refusals in Chinese
    expect((await asZh('ann', 'POST', '/api/v1/attendance/clock-in', {})).body).toEqual(
      failure(400, '您的考勤规则要求提供位置才能上班打卡：请发送 latitude 和 longitude（允许范围为半径 100 米）'),
    )
    expect((await asZh('ann', 'POST', '/api/v1/attendance/clock-in', { latitude: 31.2 })).body).toEqual(
      failure(400, '请同时发送 latitude 和 longitude', { errors: [{ field: 'longitude', message: '须与另一个坐标一起填写' }] }),
    )
    expect((await asZh('ann', 'POST', '/api/v1/attendance/clock-in', { latitude: 91, longitude: 0 })).body).toEqual(
      failure(400, '请求无效：latitude：必须是 -90 到 90 之间的纬度', { errors: [{ field: 'latitude', message: '必须是 -90 到 90 之间的纬度' }] }),
    )
    const [{ n }] = await t.deps.database.db.select({ n: count() }).from(attendanceAttempts)
    expect(n).toBe(3)
    expect(await records('ann')).toEqual([])
  })

  test('99 m away is inside: clock-in on time, with the position stored', async () => {
    const position = north(99)
    const reply = await as('ann', 'POST', '/api/v1/attendance/clock-in', { ...position, note: ' bus was late ' })
    expect(reply.body).toEqual(
      envelope(
        {
          attendance_id: 1,
          work_date: '2024-03-01',
          clock_in_time: local('2024-03-01T08:50:00'),
          status: 0,
          status_text: 'normal',
          late_minutes: 0,
          message: 'Clocked in on time',
        },
        'Clocked in',
      ),
    )
    const now = t.clock.now()
    expect(await records('ann')).toEqual([
      {
        id: 1,
        employeeId: employeeIds.ann,
        ruleId: 1,
        groupId: 1,
        workDate: '2024-03-01',
        timezone: 'Asia/Shanghai',
        // what the record is judged under from now on, whatever becomes of its rule
        shiftStart: new Date(local('2024-03-01T09:00:00')),
        shiftEnd: new Date(local('2024-03-01T18:00:00')),
        workDateEnd: new Date(local('2024-03-02T00:00:00')),
        breakStart: new Date(local('2024-03-01T12:00:00')),
        breakEnd: new Date(local('2024-03-01T13:00:00')),
        lateGracePeriod: 5,
        earlyGracePeriod: 0,
        requiredWorkHours: 8,
        flexibleTime: false,
        isWorkDay: true,
        overtimeFrom: new Date(local('2024-03-01T18:00:00')),
        overtimeThreshold: 30,
        clockInTime: now,
        clockOutTime: null,
        clockInLat: position.latitude,
        clockInLng: position.longitude,
        clockOutLat: null,
        clockOutLng: null,
        status: 0,
        workMinutes: 0,
        lateMinutes: 0,
        earlyMinutes: 0,
        overtimeMinutes: 0,
        corrected: false,
        imported: false,
        note: 'bus was late',
        createdAt: now,
        updatedAt: now,
      },
    ])
  })
})

describe('one clock-in per day', () => {
  test('50 clock-ins at once → exactly one 200 and 49 × 409, one record', async () => {
    const replies = await Promise.all(Array.from({ length: 50 }, () => as('cal', 'POST', '/api/v1/attendance/clock-in', CENTRE)))
    const statuses = replies.map((reply) => reply.status).sort()
    expect(statuses.filter((s) => s === 200)).toHaveLength(1)
    expect(statuses.filter((s) => s === 409)).toHaveLength(49)
    const conflict = replies.find((reply) => reply.status === 409)!
    expect(conflict.body).toEqual(failure(409, 'You have already clocked in for 2024-03-01'))
    expect(await records('cal')).toHaveLength(1)
  }, 20_000)
})

describe('clock-out', () => {
  test('with no clock-in → 400', async () => {
    expect((await as('mia', 'POST', '/api/v1/attendance/clock-out', {})).body).toEqual(
      failure(400, 'You have not clocked in for 2024-03-01; clock in first'),
    )
    expect((await asZh('mia', 'POST', '/api/v1/attendance/clock-out', {})).body).toEqual(
      failure(400, '您还没有完成 2024-03-01 的上班打卡；请先上班打卡'),
    )
  })

  test('computes hours without the break, early leave and status; a second one → 409', async () => {
    at('2024-03-01T17:30:45')
    const reply = await as('ann', 'POST', '/api/v1/attendance/clock-out', { ...CENTRE, note: 'doctor' })
    expect(reply.body).toEqual(
      envelope(
        {
          attendance_id: 1,
          work_date: '2024-03-01',
          clock_out_time: local('2024-03-01T17:30:45'),
          status: 2,
          status_text: 'early leave',
          // 08:50 → 17:30 is 8 h 40 min, less the 12:00–13:00 break
          work_hours: 7.67,
          early_minutes: 30,
          overtime_minutes: 0,
          message: 'Clocked out 30 minutes early',
        },
        'Clocked out',
      ),
    )
    expect((await as('ann', 'POST', '/api/v1/attendance/clock-out', CENTRE)).body).toEqual(
      failure(409, 'You have already clocked out for 2024-03-01'),
    )
    expect((await asZh('ann', 'POST', '/api/v1/attendance/clock-out', CENTRE)).body).toEqual(failure(409, '您已完成 2024-03-01 的下班打卡'))
    const [row] = await records('ann')
    expect(row).toMatchObject({ workMinutes: 460, earlyMinutes: 30, status: 2, note: 'bus was late\ndoctor', clockOutLat: CENTRE.latitude })
  })

  test('outside the geofence → 400 and the record stays open', async () => {
    const reply = await as('cal', 'POST', '/api/v1/attendance/clock-out', north(250))
    expect(reply.body).toEqual(failure(400, 'You are 250 m from the allowed place, outside its 100 m radius; clock out from within 100 m'))
    expect((await records('cal'))[0].clockOutTime).toBeNull()
  })
})

describe('today and the rule', () => {
  const created = local('2024-02-29T12:00:00')
  const rule = (id: number, name: string, group: { id: number; name: string }, extra: Record<string, unknown>, status_text: string) => ({
    id,
    name,
    description: '',
    group_id: group.id,
    group,
    ...RULE_BASE,
    allowed_late_days: 0,
    location_required: false,
    allowed_latitude: null,
    allowed_longitude: null,
    location_radius: 0,
    flexible_time: false,
    overtime_threshold_minutes: 30,
    status: 1,
    status_text,
    created_at: created,
    updated_at: created,
    ...extra,
  })

  test('today is the full record with employee and rule; status texts follow Accept-Language', async () => {
    const reply = await req(t.app, 'GET', '/api/v1/attendance/today', { token: tokens.ann, headers: { 'accept-language': 'zh-CN' } })
    const { latitude, longitude } = north(99)
    expect(reply.body).toEqual(
      envelope(
        {
          id: 1,
          employee_id: employeeIds.ann,
          employee: { id: employeeIds.ann, name: 'ann', phone: '555-0000' },
          rule_id: 1,
          rule: rule(
            1,
            'Site hours',
            { id: 1, name: 'Site' },
            { location_required: true, allowed_latitude: CENTRE.latitude, allowed_longitude: CENTRE.longitude, location_radius: 100 },
            '启用',
          ),
          clock_in_time: local('2024-03-01T08:50:00'),
          clock_out_time: local('2024-03-01T17:30:45'),
          clock_in_lat: latitude,
          clock_in_lng: longitude,
          clock_out_lat: CENTRE.latitude,
          clock_out_lng: CENTRE.longitude,
          work_date: '2024-03-01',
          timezone: 'Asia/Shanghai',
          status: 2,
          status_text: '早退',
          work_hours: 7.67,
          late_minutes: 0,
          early_minutes: 30,
          overtime_minutes: 0,
          corrected: false,
          imported: false,
          note: 'bus was late\ndoctor',
          created_at: local('2024-03-01T08:50:00'),
          updated_at: local('2024-03-01T17:30:45'),
        },
        '成功',
      ),
    )
    const none = await as('mia', 'GET', '/api/v1/attendance/today')
    expect(none.body).toEqual(envelope(null, 'No attendance record today'))
    const noneZh = await req(t.app, 'GET', '/api/v1/attendance/today', { token: tokens.mia, headers: { 'accept-language': 'zh' } })
    expect(noneZh.body).toEqual(envelope(null, '今天没有考勤记录'))
  })

  test('the caller’s rule', async () => {
    const reply = await as('mia', 'GET', '/api/v1/attendance/rule')
    expect(reply.body).toEqual(envelope(rule(2, 'Office hours', { id: 2, name: 'Office' }, { allowed_late_days: 1 }, 'enabled'), 'success'))
  })
})

/**
 * Mia's March 2024 (Shanghai), hand-computed. Rule: 09:00–18:00, break 12:00–13:00,
 * 5 minutes' grace, 8 hours required, Monday to Friday, one late day allowed a month.
 */
const MONTH: [string, string | null, string | null][] = [
  ['2024-03-01', '08:55', '18:05'], // Fri: normal, 9h10 − 1h = 490 min
  ['2024-03-04', '09:20', '18:00'], // Mon: late 20, 460 min → late
  ['2024-03-05', '09:00', '17:00'], // Tue: early 60, 420 min → early leave
  ['2024-03-06', null, null], //       Wed: nothing → absent at day close
  ['2024-03-07', '09:03', null], //    Thu: within grace, never clocked out → exception at day close
  ['2024-03-08', '09:06', '18:00'], // Fri: late 6, 474 min → late
  ['2024-03-09', '10:00', '14:00'], // Sat: not a work day, 180 min → normal
  ['2024-03-11', '09:10', '18:30'], // Mon: late 10, 500 min → late
  ['2024-03-12', '09:00', '18:00'], // Tue: 480 min → normal
]

describe('a month of mixed records', () => {
  beforeAll(async () => {
    const dayClose = createDayClose({ database: t.deps.database, clock: t.clock, defaultZone: 'UTC', logger: t.deps.logger })
    for (const [date, clockIn, clockOut] of MONTH) {
      if (clockIn) {
        at(`${date}T${clockIn}:00`)
        expect((await as('mia', 'POST', '/api/v1/attendance/clock-in', {})).status).toBe(200)
      }
      if (clockOut) {
        at(`${date}T${clockOut}:00`)
        expect((await as('mia', 'POST', '/api/v1/attendance/clock-out', {})).status).toBe(200)
      }
      at(`${date}T23:59:59`)
      await dayClose.tick()
      t.clock.advance(1000)
      await dayClose.tick()
    }
    at('2024-03-13T09:30:00')
    expect((await as('mia', 'POST', '/api/v1/attendance/clock-in', {})).body.data).toMatchObject({ status: 1, late_minutes: 30 })
    at('2024-03-13T10:00:00')
  })

  test('the records: statuses, minutes, and the day close of the absent and open days', async () => {
    const rows = (await records('mia')).sort((a, b) => a.workDate.localeCompare(b.workDate))
    expect(rows.map((r) => [r.workDate, r.status, r.lateMinutes, r.earlyMinutes, r.workMinutes, r.overtimeMinutes])).toEqual([
      // overtime: 5 minutes past 18:00 is under the 30-minute threshold; 30 past it reach it; all of a Saturday's work counts
      ['2024-03-01', 0, 0, 0, 490, 0],
      ['2024-03-04', 1, 20, 0, 460, 0],
      ['2024-03-05', 2, 0, 60, 420, 0],
      ['2024-03-06', 3, 0, 0, 0, 0],
      ['2024-03-07', 4, 0, 0, 0, 0],
      ['2024-03-08', 1, 6, 0, 474, 0],
      ['2024-03-09', 0, 0, 0, 180, 180],
      ['2024-03-11', 1, 10, 0, 500, 30],
      ['2024-03-12', 0, 0, 0, 480, 0],
      ['2024-03-13', 1, 30, 0, 0, 0],
    ])
    // ann and cal were in the Site group: their March 1 records were open or closed, the rest absent
    const cal = (await records('cal')).sort((a, b) => a.workDate.localeCompare(b.workDate))
    expect(cal.slice(0, 3).map((r) => [r.workDate, r.status])).toEqual([
      ['2024-03-01', 4],
      ['2024-03-04', 3],
      ['2024-03-05', 3],
    ])
  })

  test('statistics over the month', async () => {
    const reply = await as('mia', 'GET', '/api/v1/attendance/statistics?start_date=2024-03-01&end_date=2024-03-31')
    expect(reply.body).toEqual(
      envelope(
        {
          total_days: 31,
          work_days: 21,
          attendance_days: 9,
          late_days: 4,
          early_days: 1,
          absent_days: 1,
          exception_days: 1,
          holiday_days: 0,
          leave_days: 0,
          leave_hours: 0,
          total_work_hours: 50.07,
          avg_work_hours: 5.56,
          total_late_minutes: 66,
          total_early_minutes: 60,
          // 180 minutes on Saturday the 9th and 30 past 18:00 on the 11th
          overtime_hours: 3.5,
          attendance_rate: 42.86,
          late_days_allowed: 1,
          late_days_over_allowance: 3,
        },
        'success',
      ),
    )
  })

  test('past work days without any record count as absent', async () => {
    const reply = await as('ned', 'GET', '/api/v1/attendance/statistics?start_date=2024-03-01&end_date=2024-03-13')
    // ned is in no group: no rule, so no work days and nothing absent
    expect(reply.body.data).toMatchObject({ work_days: 0, absent_days: 0, attendance_rate: 0, avg_work_hours: 0 })
    await adminReq('DELETE', '/api/v1/admin/attendance/groups/2/employees', { employee_ids: [employeeIds.mia] })
    await adminReq('POST', '/api/v1/admin/attendance/groups/2/employees', { employee_ids: [employeeIds.ned, employeeIds.mia] })
    const now = await as('ned', 'GET', '/api/v1/attendance/statistics?start_date=2024-03-01&end_date=2024-03-13')
    // Mar 1, 4–8, 11, 12 are past work days; the 13th is today and not yet missed
    expect(now.body.data).toMatchObject({ total_days: 13, work_days: 9, attendance_days: 0, absent_days: 8, attendance_rate: 0 })
  })

  test('statistics validate the range', async () => {
    const cases: [string, string, { field: string; message: string }][] = [
      ['2024-03-31', '2024-03-01', { field: 'start_date', message: 'must not be after end_date' }],
      ['2024-02-30', '2024-03-01', { field: 'start_date', message: '"2024-02-30" is not a real date' }],
      ['2023-01-01', '2024-01-02', { field: 'end_date', message: 'must be at most 366 days after start_date (inclusive)' }],
    ]
    for (const [start, end, problem] of cases)
      expect((await as('mia', 'GET', `/api/v1/attendance/statistics?start_date=${start}&end_date=${end}`)).body).toEqual(
        failure(400, `${problem.field} ${problem.message}`, { errors: [problem] }),
      )
    // 366 days is allowed; days before the hire date (2024-03-01) are neither work days nor missed (CONTRACT §23): 1 and 4–12 March
    const year = await as('mia', 'GET', '/api/v1/attendance/statistics?start_date=2023-03-13&end_date=2024-03-12')
    expect(year.body.data).toMatchObject({ total_days: 366, work_days: 8, attendance_days: 8, absent_days: 1 })
    expect((await as('mia', 'GET', '/api/v1/attendance/statistics?start_date=2024-03-01')).body).toEqual({
      ...invalidBody('end_date', 'is required'),
      timestamp: t.clock.now().toISOString(),
    })
  })

  test('the summary: today, this week from Monday, this month from the 1st, the last 7 records', async () => {
    const rows = (await records('mia')).sort((a, b) => b.workDate.localeCompare(a.workDate))
    const reply = await as('mia', 'GET', '/api/v1/attendance/summary')
    const brief = (i: number, status_text: string, work_hours: number) => ({
      id: rows[i].id,
      work_date: rows[i].workDate,
      status: rows[i].status,
      status_text,
      work_hours,
    })
    expect(reply.body).toEqual(
      envelope(
        {
          today: { ...brief(0, 'late', 0), clock_in_time: local('2024-03-13T09:30:00'), clock_out_time: null },
          this_week: {
            total_days: 3,
            work_days: 3,
            attendance_days: 3,
            late_days: 2,
            early_days: 0,
            absent_days: 0,
            exception_days: 0,
            holiday_days: 0,
            leave_days: 0,
            leave_hours: 0,
            total_work_hours: 16.33,
            avg_work_hours: 5.44,
            total_late_minutes: 40,
            total_early_minutes: 0,
            overtime_hours: 0.5,
            attendance_rate: 100,
            late_days_allowed: 1,
            late_days_over_allowance: 1,
          },
          this_month: {
            total_days: 13,
            work_days: 9,
            attendance_days: 9,
            late_days: 4,
            early_days: 1,
            absent_days: 1,
            exception_days: 1,
            holiday_days: 0,
            leave_days: 0,
            leave_hours: 0,
            total_work_hours: 50.07,
            avg_work_hours: 5.56,
            total_late_minutes: 66,
            total_early_minutes: 60,
            overtime_hours: 3.5,
            attendance_rate: 100,
            late_days_allowed: 1,
            late_days_over_allowance: 3,
          },
          recent: [
            brief(0, 'late', 0),
            brief(1, 'normal', 8),
            brief(2, 'late', 8.33),
            brief(3, 'normal', 3),
            brief(4, 'late', 7.9),
            brief(5, 'exception', 0),
            brief(6, 'absent', 0),
          ],
        },
        'success',
      ),
    )
  })

  test('own records: P2, filters, and never another employee’s', async () => {
    const page = await as('mia', 'GET', '/api/v1/attendance/records?page_size=3&page=2&employee_id=' + employeeIds.ann)
    expect(page.body.data.pagination).toEqual({
      current_page: 2,
      page_size: 3,
      total_items: 10,
      total_pages: 4,
      has_next: true,
      has_prev: true,
    })
    expect(page.body.data.records.map((r: { work_date: string }) => r.work_date)).toEqual(['2024-03-09', '2024-03-08', '2024-03-07'])
    expect(page.body.data.records.every((r: { employee_id: number }) => r.employee_id === employeeIds.mia)).toBe(true)
    const late = await as('mia', 'GET', '/api/v1/attendance/records?status=1&start_date=2024-03-05&end_date=2024-03-11')
    expect(late.body.data.records.map((r: { work_date: string }) => r.work_date)).toEqual(['2024-03-11', '2024-03-08'])
    expect((await as('mia', 'GET', '/api/v1/attendance/records?status=5')).body).toEqual({
      ...invalidBody('status', 'must be a whole number from 0 to 4'),
      timestamp: t.clock.now().toISOString(),
    })
  })
})

describe('administrators’ reads', () => {
  test('records by employee, date range, status and group; one record in full', async () => {
    const byEmployee = await adminReq(
      'GET',
      `/api/v1/admin/attendance/records?employee_id=${employeeIds.mia}&start_date=2024-03-06&end_date=2024-03-07`,
    )
    expect(byEmployee.body.data.records.map((r: { work_date: string; status_text: string }) => [r.work_date, r.status_text])).toEqual([
      ['2024-03-07', 'exception'],
      ['2024-03-06', 'absent'],
    ])
    const absentSite = await adminReq('GET', '/api/v1/admin/attendance/records?group_id=1&status=3&page_size=100')
    const siteEmployees = new Set(absentSite.body.data.records.map((r: { employee_id: number }) => r.employee_id))
    expect([...siteEmployees].sort()).toEqual([employeeIds.ann, employeeIds.cal].sort())

    const one = await adminReq('GET', `/api/v1/admin/attendance/records/${byEmployee.body.data.records[0].id}`)
    expect(one.body.data).toMatchObject({
      employee: { id: employeeIds.mia, name: 'mia' },
      rule: { id: 2, name: 'Office hours' },
      status: 4,
    })
    expect((await adminReq('GET', '/api/v1/admin/attendance/records/9999')).body).toEqual(
      failure(404, 'Attendance record 9999 does not exist'),
    )
    expect((await as('mia', 'GET', '/api/v1/admin/attendance/records')).status).toBe(403)
  })
})

describe('day close', () => {
  test('run twice, or by two instances at once, writes each absent record exactly once', async () => {
    const second = await startApp({ dir: t.dir, now: t.clock.now().toISOString() })
    try {
      const closers = [t, second].map((app) =>
        createDayClose({ database: app.deps.database, clock: t.clock, defaultZone: 'UTC', logger: app.deps.logger }),
      )
      at('2024-03-15T00:00:10')
      // the 13th and 14th have ended; ann and cal have no record for the 14th
      const before = await t.deps.database.db.select({ n: count() }).from(attendanceRecords).where(eq(attendanceRecords.status, 3))
      const ticks = await Promise.all([closers[0].tick(), closers[1].tick(), closers[0].tick()])
      const replies = await Promise.all([
        adminReq('POST', '/api/v1/admin/attendance/close-day', { date: '2024-03-14' }),
        req(second.app, 'POST', '/api/v1/admin/attendance/close-day', { token: admin, body: { date: '2024-03-14' } }),
      ])
      expect(replies.map((r) => r.status)).toEqual([200, 200])
      const after = await t.deps.database.db.select({ n: count() }).from(attendanceRecords).where(eq(attendanceRecords.status, 3))
      // 13th: ann, cal absent; ned absent (mia clocked in); 14th: ann, cal, ned, mia absent — 7 new
      expect(after[0].n - before[0].n).toBe(7)
      // the lease lets one instance do the work; the other finds it held
      expect(ticks[0] + ticks[2] > 0 !== ticks[1] > 0).toBe(true)
      const dup = await t.deps.database.db
        .select({ n: count() })
        .from(attendanceRecords)
        .where(and(eq(attendanceRecords.employeeId, employeeIds.mia), eq(attendanceRecords.workDate, '2024-03-13')))
      expect(dup[0].n).toBe(1)
      // mia's open record of the 13th became an exception
      expect((await records('mia')).find((r) => r.workDate === '2024-03-13')?.status).toBe(4)
    } finally {
      second.close()
    }
  })

  test('on demand: a day not yet ended is reported and left open; an unknown group → 400', async () => {
    const reply = await adminReq('POST', '/api/v1/admin/attendance/close-day', { date: '2024-03-15', group_id: 2 })
    expect(reply.body).toEqual(
      envelope(
        {
          date: '2024-03-15',
          groups: [{ group_id: 2, timezone: 'Asia/Shanghai', closed: false, absent_records: 0, exception_records: 0 }],
        },
        'Day closed',
      ),
    )
    expect((await adminReq('POST', '/api/v1/admin/attendance/close-day', { date: '2024-03-14', group_id: 9 })).body).toEqual(
      failure(400, 'group_id names attendance group 9, which does not exist', {
        errors: [{ field: 'group_id', message: 'does not exist' }],
      }),
    )
    // the same in Chinese
    const zh = { token: admin, headers: { 'accept-language': 'zh' } }
    const later = await req(t.app, 'POST', '/api/v1/admin/attendance/close-day', { ...zh, body: { date: '2024-03-15', group_id: 2 } })
    expect(later.body).toEqual(envelope(reply.body.data, '考勤日结算已完成'))
    expect((await req(t.app, 'POST', '/api/v1/admin/attendance/close-day', { ...zh, body: { date: '2024-03-14', group_id: 9 } })).body).toEqual(
      failure(400, 'group_id 指定的考勤组 9 不存在', { errors: [{ field: 'group_id', message: '不存在' }] }),
    )
  })
})

describe('an overnight shift', () => {
  test('the clock-out after midnight closes the record of the evening before; a clock-in after midnight is late for it', async () => {
    at('2024-03-20T12:00:00')
    const group = await adminReq('POST', '/api/v1/admin/attendance/groups', { name: 'Night', company_id: 1 })
    await adminReq('POST', '/api/v1/admin/attendance/rules', {
      name: 'Night shift',
      group_id: group.body.data.id,
      work_start_time: '22:00',
      work_end_time: '06:00',
      required_work_hours: 7,
      work_days: '1,2,3,4,5,6,7',
    })
    await adminReq('POST', `/api/v1/admin/attendance/groups/${group.body.data.id}/employees`, { employee_ids: [employeeIds.ned] })

    at('2024-03-20T21:55:00')
    expect((await as('ned', 'POST', '/api/v1/attendance/clock-in', {})).body.data).toMatchObject({
      work_date: '2024-03-20',
      status: 0,
      late_minutes: 0,
    })
    at('2024-03-21T06:10:00')
    expect((await as('ned', 'POST', '/api/v1/attendance/clock-out', {})).body.data).toMatchObject({
      work_date: '2024-03-20',
      status: 0,
      work_hours: 8.25,
      early_minutes: 0,
    })
    at('2024-03-22T00:30:00')
    // in Chinese: the answer's message and the envelope's
    const late = await asZh('ned', 'POST', '/api/v1/attendance/clock-in', {})
    expect(late.body).toMatchObject({ code: 200, message: '上班打卡成功' })
    expect(late.body.data).toMatchObject({
      work_date: '2024-03-21',
      status: 1,
      status_text: '迟到',
      late_minutes: 150,
      message: '已上班打卡，迟到 150 分钟',
    })
    at('2024-03-22T05:00:00')
    const early = await asZh('ned', 'POST', '/api/v1/attendance/clock-out', {})
    expect(early.body).toMatchObject({ code: 200, message: '下班打卡成功' })
    expect(early.body.data).toMatchObject({
      work_date: '2024-03-21',
      status: 2,
      status_text: '早退',
      work_hours: 4.5,
      early_minutes: 60,
      message: '已下班打卡，早退 60 分钟',
    })
  })
})

describe('a group that cannot be clocked into', () => {
  test('a disabled group, or one without an enabled rule → 400 saying which; no rule → 404', async () => {
    await adminReq('PUT', '/api/v1/admin/attendance/groups/3', { status: 0 })
    at('2024-03-25T09:00:00')
    expect((await as('ned', 'POST', '/api/v1/attendance/clock-in', {})).body).toEqual(
      failure(400, 'Your attendance group "Night" is disabled; ask an administrator to enable it'),
    )
    const empty = await adminReq('POST', '/api/v1/admin/attendance/groups', { name: 'Empty', company_id: 1 })
    await adminReq('POST', `/api/v1/admin/attendance/groups/${empty.body.data.id}/employees`, { employee_ids: [employeeIds.ned] })
    expect((await as('ned', 'POST', '/api/v1/attendance/clock-out', {})).body).toEqual(
      failure(400, 'Your attendance group "Empty" has no enabled rule; ask an administrator to add one'),
    )
    expect((await as('ned', 'GET', '/api/v1/attendance/rule')).body).toEqual(
      failure(404, 'Your attendance group "Empty" has no enabled rule'),
    )
    expect((await records('ned')).some((r) => r.workDate === '2024-03-25')).toBe(false)
  })
})

describe('rule changes take effect on the next request', () => {
  test('an edited, disabled or re-enabled rule is what the next read sees (the cached rules are cleared)', async () => {
    const rule = async () => (await as('mia', 'GET', '/api/v1/attendance/rule')).body
    expect((await rule()).data).toMatchObject({ id: 2, name: 'Office hours', work_start_time: '09:00' })
    await adminReq('PUT', '/api/v1/admin/attendance/rules/2', { name: 'Late office hours', work_start_time: '10:00' })
    expect((await rule()).data).toMatchObject({ id: 2, name: 'Late office hours', work_start_time: '10:00' })
    await adminReq('PUT', '/api/v1/admin/attendance/rules/2', { status: 0 })
    expect(await rule()).toEqual(failure(404, 'Your attendance group "Office" has no enabled rule'))
    await adminReq('PUT', '/api/v1/admin/attendance/rules/2', { name: 'Office hours', work_start_time: '09:00', status: 1 })
    expect((await rule()).data).toMatchObject({ id: 2, name: 'Office hours', work_start_time: '09:00' })
  })
})

describe('refused clock attempts are bounded per employee', () => {
  test('10 refusals in 10 minutes are kept; the 11th is a 429 that keeps nothing; inside the area still clocks in; later ones are kept again', async () => {
    at('2024-06-03T08:40:00')
    admin = await loginAdmin(t.app)
    const created = await adminReq('POST', '/api/v1/admin/employees', { name: 'geo', username: 'geo', password: 'geo-password' })
    const id = created.body.data.id
    await adminReq('POST', '/api/v1/admin/attendance/groups/1/employees', { employee_ids: [id] })
    const token = await login(t.app, 'geo', 'geo-password')
    const kept = async () =>
      (await t.deps.database.db.select({ n: count() }).from(attendanceAttempts).where(eq(attendanceAttempts.employeeId, id)))[0].n
    const far = 'You are 150 m from the allowed place, outside its 100 m radius; clock in from within 100 m'

    for (let i = 0; i < 10; i++) {
      const refused = await req(t.app, 'POST', '/api/v1/attendance/clock-in', { token, body: north(150) })
      expect(refused.body).toEqual(failure(400, far))
      t.clock.advance(30_000)
    }
    expect(await kept()).toBe(10)
    // 08:45: the first refusal (08:40) leaves the window at 08:50
    const bounded = await req(t.app, 'POST', '/api/v1/attendance/clock-in', { token, body: north(150) })
    expect(bounded.status).toBe(429)
    expect(bounded.headers.get('retry-after')).toBe('300')
    expect(bounded.body).toEqual(
      failure(
        429,
        `${far}. You have had 10 refused attempts in 10 minutes, so this one was not recorded; wait 5 minute(s) before trying from outside the area (from within it you can clock at once)`,
      ),
    )
    expect(await kept()).toBe(10)
    const boundedZh = await req(t.app, 'POST', '/api/v1/attendance/clock-in', { token, body: north(150), headers: { 'accept-language': 'zh' } })
    expect([boundedZh.status, boundedZh.headers.get('retry-after')]).toEqual([429, '300'])
    expect(boundedZh.body).toEqual(
      failure(
        429,
        '您距离指定打卡地点 150 米，超出了 100 米的范围；请在 100 米以内上班打卡。您在 10 分钟内已有 10 次打卡被拒绝，因此本次未被记录；' +
          '请等待 5 分钟后再在范围外尝试（在范围内可立即打卡）',
      ),
    )
    expect(await kept()).toBe(10)

    const inside = await req(t.app, 'POST', '/api/v1/attendance/clock-in', { token, body: north(20) })
    expect([inside.status, inside.body.data.status]).toEqual([200, 0])

    at('2024-06-03T18:30:00')
    const later = await req(t.app, 'POST', '/api/v1/attendance/clock-out', { token, body: north(150) })
    expect(later.body).toEqual(failure(400, 'You are 150 m from the allowed place, outside its 100 m radius; clock out from within 100 m'))
    expect(await kept()).toBe(11)
    const laterZh = await req(t.app, 'POST', '/api/v1/attendance/clock-out', { token, body: north(1882), headers: { 'accept-language': 'zh' } })
    expect(laterZh.body).toEqual(failure(400, '您距离指定打卡地点 1882 米，超出了 100 米的范围；请在 100 米以内下班打卡'))
    expect(await kept()).toBe(12)
  })
})

describe('close-day names a group by its name', () => {
  test('a disabled group → 400 naming it, in English and in Chinese; a date before it existed → 400 naming it', async () => {
    const created = await adminReq('POST', '/api/v1/admin/attendance/groups', { name: 'Closed shop', company_id: 1 })
    const id = created.body.data.id
    await adminReq('PUT', `/api/v1/admin/attendance/groups/${id}`, { status: 0 })
    const body = { date: '2024-06-03', group_id: id }
    expect((await adminReq('POST', '/api/v1/admin/attendance/close-day', body)).body).toEqual(
      failure(400, 'Attendance group "Closed shop" is disabled; enable it to close its days', {
        errors: [{ field: 'group_id', message: 'is disabled' }],
      }),
    )
    const zh = await req(t.app, 'POST', '/api/v1/admin/attendance/close-day', { token: admin, body, headers: { 'accept-language': 'zh' } })
    expect(zh.body).toEqual(
      failure(400, '考勤组“Closed shop”已停用；请先启用，再进行考勤日结算', { errors: [{ field: 'group_id', message: '已停用' }] }),
    )
    await adminReq('PUT', `/api/v1/admin/attendance/groups/${id}`, { status: 1 })
    const early = await req(t.app, 'POST', '/api/v1/admin/attendance/close-day', {
      token: admin,
      body: { date: '2024-01-02', group_id: id },
      headers: { 'accept-language': 'zh' },
    })
    expect(early.body).toEqual(
      failure(400, '考勤组“Closed shop”在 2024-01-02 还不存在：它创建于 2024-06-03', {
        errors: [{ field: 'date', message: '早于考勤组的创建日期（2024-06-03）' }],
      }),
    )
  })
})
