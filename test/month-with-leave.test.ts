import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { loginAdmin, login, req, startApp, type TestApp } from './helpers'

/*
 * One employee (ann), one month (October 2024, Asia/Shanghai), every kind of day at once:
 * a public holiday, a make-up Saturday, a full day of approved leave, half a day of approved
 * leave (the morning off), a late day, an absence and normal days. Leave goes through the
 * manager's inbox (POST /approvals/leave/{id}/approve). Every date is closed with close-day, and
 * then the statistics, the month calendar, the admin records and the leave balance must agree
 * with the hand computation below and with each other (CONTRACT §4, §8, §9, §10).
 *
 * Rule: 09:00–18:00, break 12:00–13:00, 5 minutes' late grace, 8 hours required, Mon–Fri.
 * 1 October 2024 is a Tuesday.
 *
 *   01 Tue  holiday "National Day"                        no record
 *   08 Tue  late: 09:20–18:10 = 530 − 60 break = 470 min = 7.83 h, late 20 min, status 1
 *   12 Sat  make-up workday "National Day make-up day": a normal day
 *   15 Tue  absence: no clock-in, no leave → day close writes status 3
 *   17 Thu  full day of annual leave, requested 16 Oct, approved by the manager on 1 Nov AFTER
 *           day close wrote an absent record for it: approval deletes that record
 *   23 Wed  morning off (half_day am), approved 22 Oct; clock-in 13:04: judged from the break's
 *           end (13:00) with 5 minutes' grace → not late; clock-out 18:00 → 296 min = 4.93 h
 *           (296 / 60 = 4.9333) ≥ 8 / 2 = 4 required → status 0
 *   other work days: 08:55–18:05 = 550 − 60 = 490 min = 8.17 h (8.1667), status 0
 *
 * Work days: the 23 weekdays of October less the 1st, plus Saturday the 12th = 23.
 * Clocked-in days: 23 − the 15th (absent) − the 17th (leave) = 21.
 * Normal days: 21 − the 8th − the 23rd = 19.
 * total_work_hours (a sum of each record's hours to the hundredth, as test/calendar.test.ts has it):
 *   19 × 8.17 = 155.23; + 7.83 = 163.06; + 4.93 = 167.99
 * avg_work_hours = 167.99 / 21 = 7.99952… → 8.00
 * attendance_rate = 21 / 23 × 100 = 91.3043… → 91.30
 * late_days 1 (the 8th), total_late_minutes 20; early 0; exception 0
 * absent_days 1 (the 15th; the 17th is a full day of approved leave, the 1st a holiday)
 * leave_days = 1 (17th) + 0.5 (23rd) = 1.5; holiday_days 1
 * Balance of annual leave (10 days a year): taken 1.5, pending 0, remaining 8.5.
 */

const local = (dateTime: string) => new Date(`${dateTime}+08:00`).toISOString()

let t: TestApp
let admin: string
const tokens: Record<string, string> = {}
const ids: Record<string, number> = {}

const at = (dateTime: string) => t.clock.set(local(dateTime))
const stamp = () => t.clock.now().toISOString()
const ok = (data: unknown, message = 'success') => ({
  code: 200,
  message,
  data,
  timestamp: stamp(),
})
const adminReq = (method: string, path: string, body?: unknown) => req(t.app, method, path, { token: admin, body })
const as = (who: string, method: string, path: string, body?: unknown) => req(t.app, method, path, { token: tokens[who], body })

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

const signIn = async () => {
  admin = await loginAdmin(t.app)
  for (const name of Object.keys(tokens)) tokens[name] = await login(t.app, name, `${name}-password`)
}

const dates = Array.from({ length: 31 }, (_, i) => `2024-10-${String(i + 1).padStart(2, '0')}`)
const HOLIDAY = '2024-10-01'
const MAKE_UP = '2024-10-12'
const LATE = '2024-10-08'
const ABSENT = '2024-10-15'
const FULL_LEAVE = '2024-10-17'
const HALF_LEAVE = '2024-10-23'
// weekday 1–7 (Monday 1): 1 October 2024 is a Tuesday
const weekdayOf = (date: string) => ((Number(date.slice(8)) + 0) % 7) + 1
const isWorkDay = (date: string) => date === MAKE_UP || (date !== HOLIDAY && weekdayOf(date) <= 5)

/** clock-in, clock-out, hours (hand-rounded), status, late minutes */
const CLOCKED: Record<string, [string, string, number, number, number]> = {
  [LATE]: ['09:20', '18:10', 7.83, 1, 20],
  [HALF_LEAVE]: ['13:04', '18:00', 4.93, 0, 0],
}
const USUAL: [string, string, number, number, number] = ['08:55', '18:05', 8.17, 0, 0]
const shapeOf = (date: string) => (!isWorkDay(date) || date === ABSENT || date === FULL_LEAVE ? null : (CLOCKED[date] ?? USUAL))

const STATISTICS = {
  total_days: 31,
  work_days: 23,
  attendance_days: 21,
  late_days: 1,
  early_days: 0,
  absent_days: 1,
  exception_days: 0,
  total_work_hours: 167.99,
  avg_work_hours: 8,
  total_late_minutes: 20,
  total_early_minutes: 0,
  overtime_hours: 0,
  attendance_rate: 91.3,
  late_days_allowed: 0,
  late_days_over_allowance: 1,
  holiday_days: 1,
  leave_days: 1.5,
  // no hourly leave (CONTRACT §18)
  leave_hours: 0,
}

const clockIns: Record<string, number> = {}
const leaveIds: Record<string, number> = {}

const recordsOfMonth = async () => {
  const reply = await adminReq('GET', `/api/v1/admin/attendance/records?employee_id=${ids.ann}&start_date=2024-10-01&end_date=2024-10-31&page_size=100`)
  expect(reply.status).toBe(200)
  return reply.body.data.records as {
    id: number
    work_date: string
    status: number
    clock_in_time: string | null
  }[]
}

beforeAll(async () => {
  t = await startApp({
    now: local('2024-09-01T12:00:00'),
    env: { ACCESS_TOKEN_TTL: '2592000' },
  })
  admin = await loginAdmin(t.app)
  expect(
    (
      await adminReq('POST', '/api/v1/admin/companies', {
        name: 'Acme',
        timezone: 'Asia/Shanghai',
      })
    ).status,
  ).toBe(201)
  expect(
    (
      await adminReq('POST', '/api/v1/admin/attendance/groups', {
        name: 'Office',
        company_id: 1,
      })
    ).status,
  ).toBe(201)
  expect((await adminReq('POST', '/api/v1/admin/attendance/rules', RULE)).status).toBe(201)
  for (const name of ['mia', 'ann']) {
    const created = await adminReq('POST', '/api/v1/admin/employees', {
      name,
      username: name,
      password: `${name}-password`,
      hire_date: '2024-01-01',
    })
    expect(created.status).toBe(201)
    ids[name] = created.body.data.id
    tokens[name] = await login(t.app, name, `${name}-password`)
  }
  // only ann is in the group; mia is her manager (employee manager_id), in no group
  expect(
    (
      await adminReq('POST', '/api/v1/admin/attendance/groups/1/employees', {
        employee_ids: [ids.ann],
      })
    ).status,
  ).toBe(200)
  expect(
    (
      await adminReq('PUT', `/api/v1/admin/employees/${ids.ann}`, {
        manager_id: ids.mia,
      })
    ).body.data.manager_id,
  ).toBe(ids.mia)
  expect(
    (
      await adminReq('POST', '/api/v1/admin/leave/types', {
        name: 'Annual leave',
        annual_days: 10,
      })
    ).status,
  ).toBe(201)
  expect(
    (
      await adminReq('POST', '/api/v1/admin/companies/1/calendar/import', {
        days: [
          { date: HOLIDAY, kind: 'holiday', name: 'National Day' },
          { date: MAKE_UP, kind: 'workday', name: 'National Day make-up day' },
        ],
      })
    ).body.data,
  ).toEqual({ imported: 2 })

  for (const date of dates) {
    at(`${date}T08:00:00`)
    if (date === '2024-10-02' || date === '2024-10-21') await signIn()
    if (date === '2024-10-16') {
      // the full day asked for the next day; left pending until after day close
      const asked = await as('ann', 'POST', '/api/v1/leave/requests', {
        type_id: 1,
        start_date: FULL_LEAVE,
        end_date: FULL_LEAVE,
        reason: 'Family',
      })
      expect(asked.status).toBe(201)
      expect(asked.body.data).toMatchObject({
        days: 1,
        half_day: null,
        status: 'pending',
        approver: { id: ids.mia, name: 'mia' },
      })
      leaveIds.full = asked.body.data.id
    }
    if (date === '2024-10-22') {
      // the morning off tomorrow, asked and approved by the manager today
      const asked = await as('ann', 'POST', '/api/v1/leave/requests', {
        type_id: 1,
        start_date: HALF_LEAVE,
        end_date: HALF_LEAVE,
        half_day: 'am',
        reason: 'Dentist',
      })
      expect(asked.status).toBe(201)
      expect(asked.body.data).toMatchObject({
        days: 0.5,
        half_day: 'am',
        status: 'pending',
        approver: { id: ids.mia, name: 'mia' },
      })
      leaveIds.half = asked.body.data.id
      const approved = await as('mia', 'POST', `/api/v1/approvals/leave/${leaveIds.half}/approve`, { note: 'Fine' })
      expect(approved.status).toBe(200)
      expect(approved.body.data).toMatchObject({
        id: leaveIds.half,
        status: 'approved',
        decision_note: 'Fine',
      })
    }
    const shape = shapeOf(date)
    if (!shape) continue
    at(`${date}T${shape[0]}:00`)
    const clockIn = await as('ann', 'POST', '/api/v1/attendance/clock-in', {})
    expect(clockIn.status).toBe(200)
    expect(clockIn.body.data).toMatchObject({
      work_date: date,
      status: shape[3],
      late_minutes: shape[4],
    })
    clockIns[date] = clockIn.body.data.attendance_id
    at(`${date}T${shape[1]}:00`)
    const clockOut = await as('ann', 'POST', '/api/v1/attendance/clock-out', {})
    expect(clockOut.status).toBe(200)
    expect(clockOut.body.data).toMatchObject({
      status: shape[3],
      early_minutes: 0,
      work_hours: shape[2],
    })
  }

  at('2024-11-01T10:00:00')
  await signIn()
}, 30_000)

afterAll(() => t.close())

describe('October 2024 with a holiday, a make-up Saturday, a full and a half day of leave, a late day and an absence', () => {
  test('close-day for every date: absent records on the absence and (leave still pending) the full leave day only', async () => {
    const absences: Record<string, number> = {}
    for (const date of dates) {
      const reply = await adminReq('POST', '/api/v1/admin/attendance/close-day', { date, group_id: 1 })
      expect(reply.status).toBe(200)
      expect(reply.body.data.groups).toHaveLength(1)
      expect(reply.body.data.groups[0]).toMatchObject({
        group_id: 1,
        closed: true,
        exception_records: 0,
      })
      absences[date] = reply.body.data.groups[0].absent_records
    }
    expect(absences).toEqual(Object.fromEntries(dates.map((date) => [date, date === ABSENT || date === FULL_LEAVE ? 1 : 0])))
    const absent = (await recordsOfMonth()).filter((r) => r.status === 3).map((r) => [r.work_date, r.clock_in_time])
    expect(absent.sort()).toEqual([
      [ABSENT, null],
      [FULL_LEAVE, null],
    ])
    // before the approval: pending leave is neither shown nor counted; the 17th is absent
    const statistics = await as('ann', 'GET', '/api/v1/attendance/statistics?start_date=2024-10-01&end_date=2024-10-31')
    expect(statistics.body.data).toEqual({
      ...STATISTICS,
      absent_days: 2,
      leave_days: 0.5 /* the half day only */,
    })
    expect((await as('ann', 'GET', '/api/v1/leave/balances?year=2024')).body.data.balances).toEqual([
      {
        type_id: 1,
        type_name: 'Annual leave',
        year: 2024,
        unit: 'day',
        granted: 10,
        taken: 0.5,
        pending: 1,
        remaining: 8.5,
      },
    ])
  })

  test('the manager approves the full day afterwards: its absent record goes, the real absence stays', async () => {
    const approved = await as('mia', 'POST', `/api/v1/approvals/leave/${leaveIds.full}/approve`, { note: 'Late, but fine' })
    expect(approved.status).toBe(200)
    expect(approved.body.data).toMatchObject({
      id: leaveIds.full,
      status: 'approved',
      days: 1,
      decided_at: stamp(),
    })
    const records = await recordsOfMonth()
    // 21 clocked days + the one absence; nothing on the holiday, the full leave day or weekends
    expect(records.map((r) => r.work_date).sort()).toEqual(dates.filter((d) => shapeOf(d) !== null || d === ABSENT))
    expect(records.filter((r) => r.status === 3).map((r) => r.work_date)).toEqual([ABSENT])
    // closing again changes nothing
    for (const date of [ABSENT, FULL_LEAVE, HOLIDAY])
      expect(
        (
          await adminReq('POST', '/api/v1/admin/attendance/close-day', {
            date,
            group_id: 1,
          })
        ).body.data.groups[0].absent_records,
      ).toBe(0)
    expect((await recordsOfMonth()).length).toBe(22)
  })

  test('the admin records, one by one: the same hours, statuses and minutes as the hand figures; their sums are the statistics', async () => {
    const records = (await recordsOfMonth()) as unknown as {
      work_date: string
      status: number
      work_hours: number
      late_minutes: number
      early_minutes: number
      clock_in_time: string | null
      clock_out_time: string | null
    }[]
    const byDate = Object.fromEntries(records.map((r) => [r.work_date, r]))
    for (const date of dates) {
      const shape = shapeOf(date)
      if (shape)
        expect({ date, ...byDate[date] }).toMatchObject({
          date,
          status: shape[3],
          work_hours: shape[2],
          late_minutes: shape[4],
          early_minutes: 0,
          clock_in_time: local(`${date}T${shape[0]}:00`),
          clock_out_time: local(`${date}T${shape[1]}:00`),
        })
      else if (date === ABSENT)
        expect(byDate[date]).toMatchObject({
          status: 3,
          work_hours: 0,
          late_minutes: 0,
          clock_in_time: null,
          clock_out_time: null,
        })
      else expect(byDate[date]).toBeUndefined()
    }
    expect({
      total_work_hours: records.reduce((sum, r) => sum + Math.round(r.work_hours * 100), 0) / 100,
      total_late_minutes: records.reduce((sum, r) => sum + r.late_minutes, 0),
      late_days: records.filter((r) => r.status === 1).length,
      attendance_days: records.filter((r) => r.clock_in_time !== null).length,
      absent_days: records.filter((r) => r.status === 3).length,
    }).toEqual({
      total_work_hours: STATISTICS.total_work_hours,
      total_late_minutes: STATISTICS.total_late_minutes,
      late_days: STATISTICS.late_days,
      attendance_days: STATISTICS.attendance_days,
      absent_days: STATISTICS.absent_days,
    })
  })

  test('statistics: the whole body, by hand', async () => {
    const statistics = await as('ann', 'GET', '/api/v1/attendance/statistics?start_date=2024-10-01&end_date=2024-10-31')
    expect(statistics.body).toEqual(ok(STATISTICS))
  })

  test('the month calendar: the whole body, by hand, and its own figures match the statistics', async () => {
    const records = await recordsOfMonth()
    const absentId = records.find((r) => r.work_date === ABSENT)!.id
    const expected = dates.map((date) => {
      const shape = shapeOf(date)
      return {
        date,
        weekday: weekdayOf(date),
        work_day: isWorkDay(date),
        holiday_name: date === HOLIDAY ? 'National Day' : null,
        record: shape
          ? {
              id: clockIns[date],
              status: shape[3],
              status_text: shape[3] ? 'late' : 'normal',
              clock_in_time: local(`${date}T${shape[0]}:00`),
              clock_out_time: local(`${date}T${shape[1]}:00`),
              work_hours: shape[2],
            }
          : date === ABSENT
            ? {
                id: absentId,
                status: 3,
                status_text: 'absent',
                clock_in_time: null,
                clock_out_time: null,
                work_hours: 0,
              }
            : null,
        leave:
          date === FULL_LEAVE
            ? {
                request_id: leaveIds.full,
                type_name: 'Annual leave',
                half_day: null,
              }
            : date === HALF_LEAVE
              ? {
                  request_id: leaveIds.half,
                  type_name: 'Annual leave',
                  half_day: 'am',
                }
              : null,
        leave_hours: [],
      }
    })
    const month = await as('ann', 'GET', '/api/v1/attendance/calendar?month=2024-10')
    expect(month.body).toEqual(ok({ month: '2024-10', days: expected }))

    type Day = (typeof expected)[number]
    const days: Day[] = month.body.data.days
    const fullLeave = (d: Day) => d.leave !== null && d.leave.half_day === null
    expect({
      work_days: days.filter((d) => d.work_day).length,
      attendance_days: days.filter((d) => d.record?.clock_in_time).length,
      absent_days: days.filter((d) => d.work_day && !fullLeave(d) && (d.record === null || d.record.status === 3)).length,
      late_days: days.filter((d) => d.record?.status === 1).length,
      total_work_hours: days.reduce((sum, d) => sum + Math.round((d.record?.work_hours ?? 0) * 100), 0) / 100,
      holiday_days: days.filter((d) => d.holiday_name !== null).length,
      leave_days: days.reduce((sum, d) => sum + (d.leave ? (d.leave.half_day ? 0.5 : 1) : 0), 0),
    }).toEqual({
      work_days: STATISTICS.work_days,
      attendance_days: STATISTICS.attendance_days,
      absent_days: STATISTICS.absent_days,
      late_days: STATISTICS.late_days,
      total_work_hours: STATISTICS.total_work_hours,
      holiday_days: STATISTICS.holiday_days,
      leave_days: STATISTICS.leave_days,
    })
  })

  test('the leave balance: taken 1.5 of 10', async () => {
    const expected = [
      {
        type_id: 1,
        type_name: 'Annual leave',
        year: 2024,
        unit: 'day',
        granted: 10,
        taken: 1.5,
        pending: 0,
        remaining: 8.5,
      },
    ]
    expect((await as('ann', 'GET', '/api/v1/leave/balances?year=2024')).body).toEqual(ok({ balances: expected }))
    expect((await adminReq('GET', `/api/v1/admin/leave/balances?employee_id=${ids.ann}&year=2024`)).body.data.balances).toEqual(expected)
  })
})
