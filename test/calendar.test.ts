import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { and, asc, eq } from 'drizzle-orm'
import { attendanceClosedDays, attendanceRecords, auditLogs, calendarDays } from '../src/db/schema'
import { createDayClose } from '../src/modules/attendance/day-close'
import { Statistics } from '../src/modules/attendance/model'
import { PERMISSION_CATALOGUE } from '../src/modules/rbac/catalogue'
import { errorBody, invalidBody, login, loginAdmin, req, startApp, type TestApp } from './helpers'

/*
 * CONTRACT §8, the work calendar: the company routes, the one work-day rule as clock-in,
 * day close, statistics and the month calendar apply it, and what a change does to past days.
 * Every zone here is Asia/Shanghai (UTC+8 all year).
 */

const local = (dateTime: string) => new Date(`${dateTime}+08:00`).toISOString()

let t: TestApp
let admin: string
const tokens: Record<string, string> = {}
const ids: Record<string, number> = {}

const at = (dateTime: string) => t.clock.set(local(dateTime))
const stamp = () => t.clock.now().toISOString()
const ok = (data: unknown, message = 'success') => ({ code: 200, message, data, timestamp: stamp() })
const failure = (code: number, message: string, extra: Record<string, unknown> = {}) => ({ ...errorBody(code, message, extra), timestamp: stamp() })
const invalid = (field: string, message: string) => ({ ...invalidBody(field, message), timestamp: stamp() })
const adminReq = (method: string, path: string, body?: unknown) => req(t.app, method, path, { token: admin, body })
const as = (who: string, method: string, path: string, body?: unknown) => req(t.app, method, path, { token: tokens[who], body })
const database = () => t.deps.database.db

const RULE = {
  work_start_time: '09:00',
  work_end_time: '18:00',
  break_start_time: '12:00',
  break_end_time: '13:00',
  late_grace_period: 5,
  early_grace_period: 0,
  required_work_hours: 8,
  work_days: '1,2,3,4,5',
}

/** Tokens live 30 days at most: sign in again as the frozen clock moves on (the administrator with everyone). */
const signIn = async (...who: string[]) => {
  for (const name of who) tokens[name] = await login(t.app, name, `${name}-password`)
  if (who.length === 0) {
    admin = await loginAdmin(t.app)
    for (const name of Object.keys(tokens)) tokens[name] = await login(t.app, name, `${name}-password`)
  }
}

const recordOf = async (who: string, date: string) => {
  const [row] = await database()
    .select()
    .from(attendanceRecords)
    .where(and(eq(attendanceRecords.employeeId, ids[who]), eq(attendanceRecords.workDate, date)))
  return row ?? null
}

beforeAll(async () => {
  t = await startApp({ now: local('2024-09-01T12:00:00'), env: { ACCESS_TOKEN_TTL: '2592000' } })
  admin = await loginAdmin(t.app)
  // company 1 Acme: group 1 Office (rule 1) and group 3 Shifts (rules 3 and 4); company 2 Beta: group 2 (rule 2)
  for (const name of ['Acme', 'Beta']) expect((await adminReq('POST', '/api/v1/admin/companies', { name, timezone: 'Asia/Shanghai' })).status).toBe(201)
  for (const [name, company] of [['Office', 1], ['Beta office', 2], ['Shifts', 1]] as const)
    expect((await adminReq('POST', '/api/v1/admin/attendance/groups', { name, company_id: company })).status).toBe(201)
  for (const [name, group, extra] of [
    ['Office hours', 1, {}],
    ['Beta hours', 2, {}],
    ['Early shift', 3, { work_days: '1,2,3' }],
    ['Late shift', 3, { work_days: '4,5', work_start_time: '10:00' }],
  ] as const)
    expect((await adminReq('POST', '/api/v1/admin/attendance/rules', { ...RULE, name, group_id: group, ...extra })).status).toBe(201)
  for (const [name, group] of [['ann', 1], ['ben', 1], ['cyd', 2], ['dee', 3]] as const) {
    const created = await adminReq('POST', '/api/v1/admin/employees', { name, username: name, password: `${name}-password`, hire_date: '2024-09-01' })
    ids[name] = created.body.data.id
    expect((await adminReq('POST', `/api/v1/admin/attendance/groups/${group}/employees`, { employee_ids: [ids[name]] })).status).toBe(200)
    tokens[name] = await login(t.app, name, `${name}-password`)
  }
})

afterAll(() => t.close())

describe('a company’s calendar days', () => {
  const day = (date: string, kind: string, name: string, created = stamp(), updated = created, statutory = false) => ({
    company_id: 2,
    date,
    kind,
    name,
    statutory,
    created_at: created,
    updated_at: updated,
  })

  test('PUT creates a day (201), PUT again replaces it (200, created_at kept); GET lists a year by date', async () => {
    const created = stamp()
    const first = await adminReq('PUT', '/api/v1/admin/companies/2/calendar/2025-01-01', { kind: 'holiday', name: ' New Year ' })
    expect(first.status).toBe(201)
    expect(first.body).toEqual(ok(day('2025-01-01', 'holiday', 'New Year'), 'Calendar day created'))

    t.clock.advance(60_000)
    const again = await adminReq('PUT', '/api/v1/admin/companies/2/calendar/2025-01-01', { kind: 'workday', name: 'Not this year' })
    expect(again.status).toBe(200)
    expect(again.body).toEqual(ok(day('2025-01-01', 'workday', 'Not this year', created, stamp()), 'Calendar day replaced'))
    await adminReq('PUT', '/api/v1/admin/companies/2/calendar/2024-12-25', { kind: 'holiday', name: 'Christmas' })
    await adminReq('PUT', '/api/v1/admin/companies/2/calendar/2024-01-01', { kind: 'holiday', name: 'New Year' })

    expect((await adminReq('GET', '/api/v1/admin/companies/2/calendar?year=2025')).body).toEqual(
      ok({ days: [day('2025-01-01', 'workday', 'Not this year', created, stamp())] }),
    )
    // without a year: the current one in the company's zone (1 September 2024 here)
    expect((await adminReq('GET', '/api/v1/admin/companies/2/calendar')).body).toEqual(
      ok({ days: [day('2024-01-01', 'holiday', 'New Year'), day('2024-12-25', 'holiday', 'Christmas')] }),
    )
    expect((await adminReq('GET', '/api/v1/admin/companies/1/calendar?year=2025')).body).toEqual(ok({ days: [] }))
  })

  test('DELETE removes a day (data null), then 404', async () => {
    expect((await adminReq('DELETE', '/api/v1/admin/companies/2/calendar/2024-01-01')).body).toEqual(ok(null, 'Calendar day deleted'))
    expect((await adminReq('DELETE', '/api/v1/admin/companies/2/calendar/2024-01-01')).body).toEqual(
      failure(404, 'Company 2 has no calendar day on 2024-01-01'),
    )
    const rows = await database().select({ date: calendarDays.date }).from(calendarDays).where(eq(calendarDays.companyId, 2)).orderBy(asc(calendarDays.date))
    expect(rows).toEqual([{ date: '2024-12-25' }, { date: '2025-01-01' }])
  })

  test('invalid input → 400 with field errors; an unknown company → 404; nothing changes', async () => {
    const before = await database().select().from(calendarDays)
    const put = (path: string, body: unknown) => adminReq('PUT', `/api/v1/admin/companies/${path}`, body)
    expect((await put('2/calendar/2024-02-30', { kind: 'holiday', name: 'x' })).body).toEqual(
      failure(400, 'date "2024-02-30" is not a real date', { errors: [{ field: 'date', message: '"2024-02-30" is not a real date' }] }),
    )
    expect((await put('2/calendar/2024-1-05', { kind: 'holiday', name: 'x' })).body).toEqual(invalid('date', 'must be a date written YYYY-MM-DD'))
    expect((await put('2/calendar/2024-10-01', { kind: 'vacation', name: 'x' })).body).toEqual(invalid('kind', 'must be "holiday" or "workday"'))
    expect((await put('2/calendar/2024-10-01', { kind: 'holiday', name: '' })).body).toEqual(invalid('name', 'must be at least 1 character long'))
    expect((await put('2/calendar/2024-10-01', { kind: 'holiday', name: '   ' })).body).toEqual(
      failure(400, 'name must not be blank', { errors: [{ field: 'name', message: 'must not be blank' }] }),
    )
    expect((await put('2/calendar/2024-10-01', { kind: 'holiday' })).body).toEqual(invalid('name', 'is required'))
    expect((await put('9/calendar/2024-10-01', { kind: 'holiday', name: 'x' })).body).toEqual(failure(404, 'Company 9 does not exist'))
    expect((await adminReq('GET', '/api/v1/admin/companies/9/calendar')).body).toEqual(failure(404, 'Company 9 does not exist'))
    expect((await adminReq('DELETE', '/api/v1/admin/companies/9/calendar/2024-10-01')).body).toEqual(failure(404, 'Company 9 does not exist'))
    expect((await adminReq('GET', '/api/v1/admin/companies/2/calendar?year=10000')).body).toEqual(invalid('year', 'must be a whole number from 1 to 9999'))
    expect(await database().select().from(calendarDays)).toEqual(before)
  })

  test('import: all or none; existing dates are replaced; at most 400 days', async () => {
    const before = await database().select().from(calendarDays)
    const importing = (days: unknown) => adminReq('POST', '/api/v1/admin/companies/2/calendar/import', { days })
    expect((await importing([{ date: '2024-10-01', kind: 'holiday', name: 'National Day' }, { date: '2024-02-30', kind: 'holiday', name: 'x' }, { date: '2024-10-01', kind: 'workday', name: ' ' }])).body).toEqual(
      failure(400, 'Nothing was imported: days[1].date "2024-02-30" is not a real date; days[2].date 2024-10-01 is also days[0]; days[2].name must not be blank', {
        errors: [
          { field: 'days[1].date', message: '"2024-02-30" is not a real date' },
          { field: 'days[2].date', message: '2024-10-01 is also days[0]' },
          { field: 'days[2].name', message: 'must not be blank' },
        ],
      }),
    )
    const tooMany = Array.from({ length: 401 }, (_, i) => ({ date: new Date(Date.UTC(2030, 0, 1 + i)).toISOString().slice(0, 10), kind: 'holiday', name: 'x' }))
    expect((await importing(tooMany)).body).toEqual(invalid('days', 'must hold 1 to 400 days'))
    expect((await importing([])).body).toEqual(invalid('days', 'must hold 1 to 400 days'))
    expect((await importing([{ date: '2024-10-01', kind: 'off', name: 'x' }])).status).toBe(400)
    expect((await adminReq('POST', '/api/v1/admin/companies/9/calendar/import', { days: [{ date: '2024-10-01', kind: 'holiday', name: 'x' }] })).body).toEqual(
      failure(404, 'Company 9 does not exist'),
    )
    expect(await database().select().from(calendarDays)).toEqual(before)

    const reply = await importing([
      { date: '2025-01-01', kind: 'holiday', name: 'New Year' },
      { date: '2025-10-01', kind: 'holiday', name: 'National Day' },
      { date: '2025-10-11', kind: 'workday', name: 'Make-up day' },
    ])
    expect(reply.body).toEqual(ok({ imported: 3 }, 'Calendar imported'))
    const year = await adminReq('GET', '/api/v1/admin/companies/2/calendar?year=2025')
    expect(year.body.data.days.map((d: { date: string; kind: string; name: string }) => [d.date, d.kind, d.name])).toEqual([
      ['2025-01-01', 'holiday', 'New Year'],
      ['2025-10-01', 'holiday', 'National Day'],
      ['2025-10-11', 'workday', 'Make-up day'],
    ])
    // exactly 400 is accepted
    expect((await importing(tooMany.slice(0, 400))).body).toEqual(ok({ imported: 400 }, 'Calendar imported'))
  })

  test('every change is audited with the day before and after', async () => {
    const audit = await adminReq('GET', '/api/v1/admin/audit-logs?resource=calendar_day&page_size=100')
    expect(audit.body.data.list.map((e: { action: string; resource_id: string }) => [e.action, e.resource_id]).reverse()).toEqual([
      ['calendar_day.create', '2/2025-01-01'],
      ['calendar_day.update', '2/2025-01-01'],
      ['calendar_day.create', '2/2024-12-25'],
      ['calendar_day.create', '2/2024-01-01'],
      ['calendar_day.delete', '2/2024-01-01'],
    ])
    const [update] = audit.body.data.list.filter((e: { action: string }) => e.action === 'calendar_day.update')
    expect(update).toMatchObject({ before: { kind: 'holiday', name: 'New Year' }, after: { kind: 'workday', name: 'Not this year' } })
    const imports = await adminReq('GET', '/api/v1/admin/audit-logs?action=calendar.import')
    expect(imports.body.data.list.map((e: { resource_id: string }) => e.resource_id)).toEqual(['2', '2'])
    expect(imports.body.data.list[1].before).toEqual({ days: [expect.objectContaining({ date: '2025-01-01', kind: 'workday' })] })
  })

  test('permissions: calendar:read and calendar:update are in the catalogue; an employee has neither', async () => {
    const names = PERMISSION_CATALOGUE.map((p) => p.name)
    expect(names).toContain('calendar:read')
    expect(names).toContain('calendar:update')
    expect((await as('ann', 'GET', '/api/v1/admin/companies/1/calendar')).body).toEqual(
      failure(403, 'Your roles do not grant the permission calendar:read; ask an administrator for it'),
    )
    expect((await as('ann', 'PUT', '/api/v1/admin/companies/1/calendar/2024-10-01', { kind: 'holiday', name: 'x' })).body).toEqual(
      failure(403, 'Your roles do not grant the permission calendar:update; ask an administrator for it'),
    )
  })

  test('a company’s calendar goes with it: a company with only calendar days can be deleted', async () => {
    expect((await adminReq('POST', '/api/v1/admin/companies', { name: 'Gamma' })).body.data.id).toBe(3)
    await adminReq('PUT', '/api/v1/admin/companies/3/calendar/2024-10-01', { kind: 'holiday', name: 'National Day' })
    expect((await adminReq('DELETE', '/api/v1/admin/companies/3')).body).toEqual(ok(null, 'Company deleted'))
    expect(await database().select().from(calendarDays).where(eq(calendarDays.companyId, 3))).toEqual([])
  })
})

/*
 * ann's October 2024, hand-computed. Acme marks Tuesday 1 October a holiday and Saturday 12
 * October a make-up workday. Rule: 09:00–18:00, break 12:00–13:00, 5 minutes' grace, 8 hours
 * required, Monday to Friday, no late day allowed. Work days: the 23 weekdays less 1 October,
 * plus 12 October = 23. Asked on 1 November.
 */
const OCTOBER_WORK_DAYS = [
  '2024-10-02', '2024-10-03', '2024-10-04',
  '2024-10-07', '2024-10-08', '2024-10-09', '2024-10-10', '2024-10-11', '2024-10-12',
  '2024-10-14', '2024-10-15', '2024-10-16', '2024-10-17', '2024-10-18',
  '2024-10-21', '2024-10-22', '2024-10-23', '2024-10-24', '2024-10-25',
  '2024-10-28', '2024-10-29', '2024-10-30', '2024-10-31',
] // prettier-ignore
/** clock-in, clock-out, minutes worked, status, late minutes */
const UNUSUAL: Record<string, [string, string, number, number, number] | null> = {
  '2024-10-08': ['09:20', '18:10', 470, 1, 20], // late 20; 8h50 − 1h = 470 min = 7.83 h
  '2024-10-12': ['09:07', '18:00', 473, 1, 7], //  the make-up Saturday: lateness applies; 473 min = 7.88 h
  '2024-10-15': null, //                            nothing: absent
}
const USUAL: [string, string, number, number, number] = ['08:55', '18:05', 490, 0, 0] // 490 min = 8.17 h

const OCTOBER_STATISTICS = {
  total_days: 31,
  work_days: 23,
  attendance_days: 22,
  late_days: 2,
  early_days: 0,
  absent_days: 1,
  exception_days: 0,
  // 20 × 8.17 + 7.83 + 7.88
  total_work_hours: 179.11,
  // 17911 / 22 = 814.1 hundredths
  avg_work_hours: 8.14,
  total_late_minutes: 27,
  total_early_minutes: 0,
  overtime_hours: 0,
  // 22 / 23
  attendance_rate: 95.65,
  late_days_allowed: 0,
  late_days_over_allowance: 2,
  holiday_days: 1,
  leave_days: 0,
  leave_hours: 0,
}
/** What the API shows of the statistics: `holiday_days` once the response model names it. */
const shown = (statistics: Record<string, number>) => {
  if ('holiday_days' in Statistics.properties) return statistics
  const { holiday_days: _, ...rest } = statistics
  return rest
}

describe('the hand-computed month: statistics, the month calendar and day close agree', () => {
  const clockIns: Record<string, number> = {}

  beforeAll(async () => {
    at('2024-09-20T10:00:00')
    const imported = await adminReq('POST', '/api/v1/admin/companies/1/calendar/import', {
      days: [
        { date: '2024-10-01', kind: 'holiday', name: 'National Day' },
        { date: '2024-10-12', kind: 'workday', name: 'National Day make-up day' },
      ],
    })
    expect(imported.body).toEqual(ok({ imported: 2 }, 'Calendar imported'))
    for (const date of OCTOBER_WORK_DAYS) {
      at(`${date}T00:00:00`)
      if (date === '2024-10-02' || date === '2024-10-21') await signIn('ann')
      const day = date in UNUSUAL ? UNUSUAL[date] : USUAL
      if (!day) continue
      at(`${date}T${day[0]}:00`)
      const clockIn = await as('ann', 'POST', '/api/v1/attendance/clock-in', {})
      expect(clockIn.body.data).toMatchObject({ work_date: date, status: day[3] ? 1 : 0, late_minutes: day[4] })
      clockIns[date] = clockIn.body.data.attendance_id
      at(`${date}T${day[1]}:00`)
      expect((await as('ann', 'POST', '/api/v1/attendance/clock-out', {})).body.data).toMatchObject({ status: day[3], work_hours: Math.round((day[2] * 5) / 3) / 100 })
    }
    at('2024-11-01T10:00:00')
    await signIn()
  })

  test('a clock-in on the holiday is a day off: status 0, no lateness, kept as no work day', async () => {
    at('2024-10-01T10:00:00')
    await signIn('ben')
    const reply = await as('ben', 'POST', '/api/v1/attendance/clock-in', {})
    expect(reply.body).toEqual(
      ok(
        { attendance_id: reply.body.data.attendance_id, work_date: '2024-10-01', clock_in_time: stamp(), status: 0, status_text: 'normal', late_minutes: 0, message: 'Clocked in on a day off' },
        'Clocked in',
      ),
    )
    at('2024-10-01T11:00:00')
    expect((await as('ben', 'POST', '/api/v1/attendance/clock-out', {})).body.data).toMatchObject({ status: 0, early_minutes: 0, work_hours: 1 })
    expect(await recordOf('ben', '2024-10-01')).toMatchObject({ isWorkDay: false, status: 0, lateMinutes: 0, earlyMinutes: 0 })
    at('2024-11-01T10:00:00')
  })

  test('on the make-up Saturday the lowest-id enabled rule applies, and lateness with it; another company’s Saturday is a day off', async () => {
    at('2024-10-12T09:07:00')
    await signIn('dee', 'cyd')
    // dee's group has rules 3 (Mon–Wed) and 4 (Thu–Fri): neither holds Saturday, so rule 3
    expect((await as('dee', 'POST', '/api/v1/attendance/clock-in', {})).body.data).toMatchObject({ status: 1, late_minutes: 7, message: 'Clocked in 7 minutes late' })
    expect(await recordOf('dee', '2024-10-12')).toMatchObject({ ruleId: 3, isWorkDay: true, lateMinutes: 7 })
    expect(await recordOf('ann', '2024-10-12')).toMatchObject({ ruleId: 1, isWorkDay: true, lateMinutes: 7, status: 1 })
    // Beta marks nothing on 12 October
    expect((await as('cyd', 'POST', '/api/v1/attendance/clock-in', {})).body.data).toMatchObject({ status: 0, late_minutes: 0, message: 'Clocked in on a day off' })
    expect(await recordOf('cyd', '2024-10-12')).toMatchObject({ isWorkDay: false })
    at('2024-10-12T17:00:00')
    for (const who of ['dee', 'cyd']) expect((await as(who, 'POST', '/api/v1/attendance/clock-out', {})).status).toBe(200)
    at('2024-11-01T10:00:00')
    await signIn()
  })

  const expectedCalendar = async () => {
    const days = []
    for (let day = 1; day <= 31; day++) {
      const date = `2024-10-${String(day).padStart(2, '0')}`
      const weekday = ((day + 0) % 7) + 1 // 1 October 2024 is a Tuesday (2)
      const shape = date in UNUSUAL ? UNUSUAL[date] : OCTOBER_WORK_DAYS.includes(date) ? USUAL : null
      const absent = date === '2024-10-15' ? await recordOf('ann', date) : null
      days.push({
        date,
        weekday,
        work_day: OCTOBER_WORK_DAYS.includes(date),
        holiday_name: date === '2024-10-01' ? 'National Day' : null,
        record: shape
          ? {
              id: clockIns[date],
              status: shape[3],
              status_text: shape[3] ? 'late' : 'normal',
              clock_in_time: local(`${date}T${shape[0]}:00`),
              clock_out_time: local(`${date}T${shape[1]}:00`),
              work_hours: Math.round((shape[2] * 5) / 3) / 100,
            }
          : absent
            ? { id: absent.id, status: 3, status_text: 'absent', clock_in_time: null, clock_out_time: null, work_hours: 0 }
            : null,
        leave: null,
        leave_hours: [],
      })
    }
    return { month: '2024-10', days }
  }

  /** The month calendar's own figures, to set beside the statistics. */
  const figures = (month: { days: { work_day: boolean; holiday_name: string | null; record: { status: number; clock_in_time: string | null; work_hours: number } | null }[] }) => ({
    work_days: month.days.filter((d) => d.work_day).length,
    attendance_days: month.days.filter((d) => d.record?.clock_in_time).length,
    absent_days: month.days.filter((d) => d.work_day && (d.record === null || d.record.status === 3)).length,
    late_days: month.days.filter((d) => d.record?.status === 1).length,
    total_work_hours: month.days.reduce((sum, d) => sum + Math.round((d.record?.work_hours ?? 0) * 100), 0) / 100,
    holiday_days: month.days.filter((d) => d.holiday_name !== null).length,
  })

  test('before day close: statistics and the month calendar, by hand', async () => {
    const statistics = await as('ann', 'GET', '/api/v1/attendance/statistics?start_date=2024-10-01&end_date=2024-10-31')
    expect(statistics.body).toEqual(ok(shown(OCTOBER_STATISTICS)))
    const month = await as('ann', 'GET', '/api/v1/attendance/calendar?month=2024-10')
    expect(month.body).toEqual(ok(await expectedCalendar()))
    const { work_days, attendance_days, absent_days, late_days, total_work_hours, holiday_days } = OCTOBER_STATISTICS
    expect(figures(month.body.data)).toEqual({ work_days, attendance_days, absent_days, late_days, total_work_hours, holiday_days })
  })

  test('day close marks the absence on 15 October, none on the holiday, and the make-up Saturday is judged', async () => {
    const absences: Record<string, number> = {}
    for (let day = 1; day <= 31; day++) {
      const date = `2024-10-${String(day).padStart(2, '0')}`
      const reply = await adminReq('POST', '/api/v1/admin/attendance/close-day', { date, group_id: 1 })
      expect(reply.body.data.groups).toEqual([
        { group_id: 1, timezone: 'Asia/Shanghai', closed: true, absent_records: reply.body.data.groups[0].absent_records, exception_records: 0 },
      ])
      absences[date] = reply.body.data.groups[0].absent_records
    }
    // ben clocked in only on the holiday: absent on every work day; ann on the 15th as well
    expect(absences).toEqual(
      Object.fromEntries(
        Array.from({ length: 31 }, (_, i) => `2024-10-${String(i + 1).padStart(2, '0')}`).map((date) => [
          date,
          OCTOBER_WORK_DAYS.includes(date) ? (date === '2024-10-15' ? 2 : 1) : 0,
        ]),
      ),
    )
    expect(await recordOf('ann', '2024-10-15')).toMatchObject({ status: 3, clockInTime: null, isWorkDay: true, ruleId: 1, groupId: 1 })
    expect(await recordOf('ann', '2024-10-01')).toBeNull()
    expect(await recordOf('ben', '2024-10-12')).toMatchObject({ status: 3, isWorkDay: true })
    expect(await recordOf('ben', '2024-10-13')).toBeNull()
  })

  test('after day close: the same statistics to the hundredth, and the calendar shows the absent record', async () => {
    const statistics = await as('ann', 'GET', '/api/v1/attendance/statistics?start_date=2024-10-01&end_date=2024-10-31')
    expect(statistics.body).toEqual(ok(shown(OCTOBER_STATISTICS)))
    const month = await as('ann', 'GET', '/api/v1/attendance/calendar?month=2024-10')
    expect(month.body).toEqual(ok(await expectedCalendar()))
    expect(month.body.data.days[14].record).toMatchObject({ status: 3, status_text: 'absent' })
    const { work_days, attendance_days, absent_days, late_days, total_work_hours, holiday_days } = OCTOBER_STATISTICS
    expect(figures(month.body.data)).toEqual({ work_days, attendance_days, absent_days, late_days, total_work_hours, holiday_days })
  })
})

describe('the month calendar', () => {
  test('without a month: the current one in the caller’s zone; Chinese status texts with Accept-Language: zh', async () => {
    at('2024-11-01T10:00:00')
    const reply = await as('ann', 'GET', '/api/v1/attendance/calendar')
    expect(reply.body.data.month).toBe('2024-11')
    expect(reply.body.data.days).toHaveLength(30)
    expect(reply.body.data.days[0]).toEqual({ date: '2024-11-01', weekday: 5, work_day: true, holiday_name: null, record: null, leave: null, leave_hours: [] })
    const zh = await req(t.app, 'GET', '/api/v1/attendance/calendar?month=2024-10', { token: tokens.ann, headers: { 'accept-language': 'zh' } })
    expect(zh.body.data.days[7].record.status_text).toBe('迟到')
  })

  test('February of a leap year has 29 days; a bad month → 400; an account without an employee → 403', async () => {
    expect((await as('ann', 'GET', '/api/v1/attendance/calendar?month=2024-02')).body.data.days.at(-1)).toMatchObject({ date: '2024-02-29', weekday: 4 })
    expect((await as('ann', 'GET', '/api/v1/attendance/calendar?month=2024-13')).body).toEqual(invalid('month', 'must be a month written YYYY-MM'))
    expect((await as('ann', 'GET', '/api/v1/attendance/calendar?month=0000-01')).body).toEqual(
      failure(400, 'month "0000-01-01" is not a real date', { errors: [{ field: 'month', message: '"0000-01-01" is not a real date' }] }),
    )
    expect((await adminReq('GET', '/api/v1/attendance/calendar')).body).toEqual(
      failure(403, 'Your account is not linked to an employee, so it has no attendance; ask an administrator to link it'),
    )
  })
})

describe('effects on past days', () => {
  // one instance: the job's lease is its own
  let job: ReturnType<typeof createDayClose> | undefined
  const dayClose = () => (job ??= createDayClose({ database: t.deps.database, clock: t.clock, defaultZone: 'UTC', logger: t.deps.logger }))
  const closed = async (group: number, date: string) =>
    (await database().select().from(attendanceClosedDays).where(and(eq(attendanceClosedDays.groupId, group), eq(attendanceClosedDays.workDate, date)))).length

  test('marking a past date holiday deletes that company’s absent records of the date, in one audited change', async () => {
    at('2024-11-01T10:00:00')
    await adminReq('POST', '/api/v1/admin/attendance/close-day', { date: '2024-10-15', group_id: 2 })
    const cyAbsent = await recordOf('cyd', '2024-10-15')
    expect(cyAbsent).toMatchObject({ status: 3 })
    const annAbsent = (await recordOf('ann', '2024-10-15'))!
    const benAbsent = (await recordOf('ben', '2024-10-15'))!
    const annWorked = await recordOf('ann', '2024-10-14')

    const reply = await adminReq('PUT', '/api/v1/admin/companies/1/calendar/2024-10-15', { kind: 'holiday', name: 'Typhoon day' })
    expect(reply.status).toBe(201)
    expect(await recordOf('ann', '2024-10-15')).toBeNull()
    expect(await recordOf('ben', '2024-10-15')).toBeNull()
    // another company's absence and ann's worked days stay
    expect(await recordOf('cyd', '2024-10-15')).toEqual(cyAbsent)
    expect(await recordOf('ann', '2024-10-14')).toEqual(annWorked)

    const [entry] = await database().select().from(auditLogs).where(eq(auditLogs.action, 'calendar_day.create')).orderBy(asc(auditLogs.id)).then((rows) => rows.slice(-1))
    expect(entry).toMatchObject({ resource: 'calendar_day', resourceId: '1/2024-10-15', before: null, actorId: 1 })
    expect(entry.after).toEqual({
      company_id: 1,
      date: '2024-10-15',
      kind: 'holiday',
      name: 'Typhoon day',
      statutory: false,
      created_at: stamp(),
      updated_at: stamp(),
      deleted_absent_records: [
        { id: annAbsent.id, employee_id: ids.ann, work_date: '2024-10-15', group_id: 1, rule_id: 1 },
        { id: benAbsent.id, employee_id: ids.ben, work_date: '2024-10-15', group_id: 1, rule_id: 1 },
      ].sort((a, b) => a.id - b.id),
    })

    const statistics = await as('ann', 'GET', '/api/v1/attendance/statistics?start_date=2024-10-01&end_date=2024-10-31')
    expect(statistics.body.data).toEqual(
      shown({ ...OCTOBER_STATISTICS, work_days: 22, absent_days: 0, attendance_rate: 100, holiday_days: 2 }),
    )
  })

  test('a clocked record on a date turned holiday stays; the absences beside it go', async () => {
    const worked = await recordOf('ann', '2024-10-02')
    expect(await recordOf('ben', '2024-10-02')).toMatchObject({ status: 3 })
    await adminReq('PUT', '/api/v1/admin/companies/1/calendar/2024-10-02', { kind: 'holiday', name: 'National Day' })
    expect(await recordOf('ann', '2024-10-02')).toEqual(worked)
    expect(await recordOf('ben', '2024-10-02')).toBeNull()
  })

  test('unmarking the holiday lets the next day close mark the date again', async () => {
    expect(await closed(1, '2024-10-15')).toBe(0)
    expect((await adminReq('DELETE', '/api/v1/admin/companies/1/calendar/2024-10-15')).status).toBe(200)
    expect(await recordOf('ann', '2024-10-15')).toBeNull()
    await dayClose().tick()
    expect(await closed(1, '2024-10-15')).toBe(1)
    expect(await recordOf('ann', '2024-10-15')).toMatchObject({ status: 3, isWorkDay: true, clockInTime: null })
    expect(await recordOf('ben', '2024-10-15')).toMatchObject({ status: 3, isWorkDay: true })
  })

  test('marking a past Saturday workday lets the next day close (or close-day) mark its absences', async () => {
    expect(await closed(1, '2024-10-19')).toBe(1)
    expect(await recordOf('ann', '2024-10-19')).toBeNull()
    await adminReq('PUT', '/api/v1/admin/companies/1/calendar/2024-10-19', { kind: 'workday', name: 'Stock-taking' })
    expect(await closed(1, '2024-10-19')).toBe(0)
    await dayClose().tick()
    for (const who of ['ann', 'ben']) expect(await recordOf(who, '2024-10-19')).toMatchObject({ status: 3, isWorkDay: true, ruleId: 1 })
    // Beta's Saturday stays a day off
    expect(await recordOf('cyd', '2024-10-19')).toBeNull()

    // the same through close-day, for a date the job has already passed
    await adminReq('PUT', '/api/v1/admin/companies/1/calendar/2024-10-26', { kind: 'workday', name: 'Stock-taking' })
    const reply = await adminReq('POST', '/api/v1/admin/attendance/close-day', { date: '2024-10-26', group_id: 3 })
    expect(reply.body.data.groups).toEqual([{ group_id: 3, timezone: 'Asia/Shanghai', closed: true, absent_records: 1, exception_records: 0 }])
    expect(await recordOf('dee', '2024-10-26')).toMatchObject({ status: 3, isWorkDay: true, ruleId: 3 })
  })
})

describe('races: the (company, date) index decides', () => {
  test('20 PUTs of one date over two instances at once: one 201, 19 × 200, one row, one audit entry each', async () => {
    const other = await startApp({ dir: t.dir, now: t.clock.now().toISOString() })
    try {
      const sinceId = (await database().select({ id: auditLogs.id }).from(auditLogs).orderBy(asc(auditLogs.id))).at(-1)!.id
      const replies = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          req(i % 2 ? other.app : t.app, 'PUT', '/api/v1/admin/companies/2/calendar/2026-05-01', {
            token: admin,
            body: { kind: 'holiday', name: `Labour Day ${i}` },
          }),
        ),
      )
      expect(replies.map((reply) => reply.status).sort()).toEqual([...Array(19).fill(200), 201])
      const rows = await database().select().from(calendarDays).where(and(eq(calendarDays.companyId, 2), eq(calendarDays.date, '2026-05-01')))
      expect(rows).toHaveLength(1)
      // the row is what the last writer sent, and that writer's answer says so
      const last = replies.find((reply) => reply.body.data.name === rows[0].name)
      expect(last).toBeDefined()
      const entries = (await database().select().from(auditLogs).orderBy(asc(auditLogs.id))).filter((entry) => entry.id > sinceId)
      expect(entries.map((entry) => entry.action).sort()).toEqual(['calendar_day.create', ...Array(19).fill('calendar_day.update')])
    } finally {
      other.close()
    }
  })
})
