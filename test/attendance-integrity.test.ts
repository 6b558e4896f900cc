/**
 * Issue 20, "Attendance integrity": each reproduction of the issue, as a test that failed
 * before the fix. A record is dated, clocked out and closed under the shift it was opened
 * with, whatever later happens to the caller's group, zone or rules.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { asc, eq, gt } from 'drizzle-orm'
import { openDatabase } from '../src/db/client'
import { migrate } from '../src/db/migrate'
import { attendanceRecords, auditLogs } from '../src/db/schema'
import { createDayClose } from '../src/modules/attendance/day-close'
import { login, loginAdmin, req, startApp, tempDir, type TestApp } from './helpers'

/** Wall time in Shanghai (UTC+8 all year) as an ISO instant. */
const shanghai = (dateTime: string) => new Date(`${dateTime}+08:00`).toISOString()
/** Wall time in New York in March 2024 after the 10th (EDT, UTC−4) as an ISO instant. */
const newYork = (dateTime: string) => new Date(`${dateTime}-04:00`).toISOString()

/** One service per describe block: its own clock, groups and day close. */
function world(start: string) {
  const w = {
    t: undefined as unknown as TestApp,
    admin: '',
    tokens: {} as Record<string, string>,
    ids: {} as Record<string, number>,
    set: (instant: string) => w.t.clock.set(instant),
    ok: (data: unknown, message: string) => ({ code: 200, message, data, timestamp: w.t.clock.now().toISOString() }),
    failure: (code: number, message: string, extra: Record<string, unknown> = {}) => ({
      code,
      message,
      data: null,
      timestamp: w.t.clock.now().toISOString(),
      ...extra,
    }),
    adminReq: (method: string, path: string, body?: unknown) => req(w.t.app, method, path, { token: w.admin, body }),
    as: (who: string, method: string, path: string, body?: unknown) => req(w.t.app, method, path, { token: w.tokens[who], body }),
    clockIn: (who: string, body: unknown = {}) => w.as(who, 'POST', '/api/v1/attendance/clock-in', body),
    clockOut: (who: string, body: unknown = {}) => w.as(who, 'POST', '/api/v1/attendance/clock-out', body),
    async post(path: string, body: unknown) {
      const reply = await w.adminReq('POST', path, body)
      if (reply.status !== 201 && reply.status !== 200) throw new Error(`${path}: ${JSON.stringify(reply.body)}`)
      return reply.body.data
    },
    /** Employees with sign-ins, hired on `hireDate` (null: no hire date), in `groupId`. */
    async hire(names: string[], groupId: number | null, hireDate: string | null = '2024-03-01') {
      for (const name of names) {
        const password = `${name}-password`
        const employee = await w.post('/api/v1/admin/employees', { name, username: name, password, hire_date: hireDate ?? undefined })
        w.ids[name] = employee.id
        if (groupId !== null) await w.post(`/api/v1/admin/attendance/groups/${groupId}/employees`, { employee_ids: [employee.id] })
        w.tokens[name] = await login(w.t.app, name, password)
      }
    },
    records: (name: string) =>
      w.t.deps.database.db
        .select()
        .from(attendanceRecords)
        .where(eq(attendanceRecords.employeeId, w.ids[name]))
        .orderBy(asc(attendanceRecords.workDate)),
    /** [work date, status, late, early, minutes worked, clocked out] of each of the employee's records, by date */
    brief: async (name: string) =>
      (await w.records(name)).map((r) => [r.workDate, r.status, r.lateMinutes, r.earlyMinutes, r.workMinutes, r.clockOutTime !== null]),
    /** The scheduled day-close job, as this instance runs it (one lease holder). */
    tick: () => {
      w.dayClose ??= createDayClose({ database: w.t.deps.database, clock: w.t.clock, defaultZone: 'UTC', logger: w.t.deps.logger })
      return w.dayClose.tick()
    },
    dayClose: undefined as ReturnType<typeof createDayClose> | undefined,
  }
  beforeAll(async () => {
    // a month-long token: the tests move the clock over days
    w.t = await startApp({ now: start, env: { ACCESS_TOKEN_TTL: '2592000' } })
    w.admin = await loginAdmin(w.t.app)
  })
  afterAll(() => w.t.close())
  return w
}

const DAY_RULE = {
  work_start_time: '09:00',
  work_end_time: '18:00',
  break_start_time: '12:00',
  break_end_time: '13:00',
  required_work_hours: 8,
  work_days: '1,2,3,4,5',
}

describe('a shift across a weekday boundary between two rules', () => {
  // 2024-03-15 is a Friday. Rule A: nights 22:00–06:00 Monday to Friday; rule B: days 09:00–17:00 at the weekend.
  const w = world(shanghai('2024-03-14T12:00:00'))
  const CREW = Array.from({ length: 12 }, (_, i) => `crew${i + 1}`)

  beforeAll(async () => {
    await w.post('/api/v1/admin/companies', { name: 'Acme', timezone: 'Asia/Shanghai' })
    await w.post('/api/v1/admin/attendance/groups', { name: 'Plant', company_id: 1 })
    await w.post('/api/v1/admin/attendance/rules', {
      name: 'Nights',
      group_id: 1,
      work_start_time: '22:00',
      work_end_time: '06:00',
      required_work_hours: 7,
      work_days: '1,2,3,4,5',
    })
    await w.post('/api/v1/admin/attendance/rules', {
      name: 'Weekend days',
      group_id: 1,
      work_start_time: '09:00',
      work_end_time: '17:00',
      required_work_hours: 7,
      work_days: '6,7',
    })
    await w.hire(['fay', 'gus', ...CREW], 1)
  }, 30_000)

  test('a Friday 21:55 clock-in is clocked out on Saturday at 06:05, under the Friday night rule (was 400 "not clocked in for 2024-03-16")', async () => {
    w.set(shanghai('2024-03-15T21:55:00'))
    expect((await w.clockIn('fay')).body).toEqual(
      w.ok(
        {
          attendance_id: 1,
          work_date: '2024-03-15',
          clock_in_time: shanghai('2024-03-15T21:55:00'),
          status: 0,
          status_text: 'normal',
          late_minutes: 0,
          message: 'Clocked in on time',
        },
        'Clocked in',
      ),
    )
    w.set(shanghai('2024-03-15T22:00:00'))
    expect((await w.clockIn('gus')).body.data).toMatchObject({ attendance_id: 2, work_date: '2024-03-15', status: 0 })
    w.set(shanghai('2024-03-16T06:05:00'))
    const reply = await w.clockOut('fay')
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual(
      w.ok(
        {
          attendance_id: 1,
          work_date: '2024-03-15',
          clock_out_time: shanghai('2024-03-16T06:05:00'),
          status: 0,
          status_text: 'normal',
          // 21:55 → 06:05 is 8 h 10 min
          work_hours: 8.17,
          early_minutes: 0,
          overtime_minutes: 0,
          message: 'Clocked out',
        },
        'Clocked out',
      ),
    )
  })

  test('day close takes each Friday night by its own shift: the finished one stays, the unfinished one becomes an exception on Sunday 00:00', async () => {
    // Saturday 06:05: the night is over, but it closes at the midnight after it
    await w.tick()
    expect(await w.brief('gus')).toEqual([
      // Thursday night (the group's first) has closed: nobody worked it
      ['2024-03-14', 3, 0, 0, 0, false],
      ['2024-03-15', 0, 0, 0, 0, false],
    ])
    w.set(shanghai('2024-03-17T00:00:10'))
    await w.tick()
    expect(await w.brief('gus')).toEqual([
      ['2024-03-14', 3, 0, 0, 0, false],
      ['2024-03-15', 4, 0, 0, 0, false],
      // Saturday is a work day of the weekend rule
      ['2024-03-16', 3, 0, 0, 0, false],
    ])
    expect(await w.brief('fay')).toEqual([
      ['2024-03-14', 3, 0, 0, 0, false],
      ['2024-03-15', 0, 0, 0, 490, true],
      ['2024-03-16', 3, 0, 0, 0, false],
    ])
  })

  test('Monday 00:30 belongs to Monday (Sunday has a day rule): 12 clock-ins racing the close of Sunday all succeed, none becomes an exception', async () => {
    w.set(shanghai('2024-03-18T00:30:00'))
    const [close, ...replies] = await Promise.all([
      w.adminReq('POST', '/api/v1/admin/attendance/close-day', { date: '2024-03-17', group_id: 1 }),
      ...CREW.map((name) => w.clockIn(name)),
    ])
    // before: Monday's night rule dated these Sunday, already closed: 409 "already clocked in" for some, exceptions for the rest
    for (const reply of replies)
      expect(reply.body).toEqual(
        w.ok(
          {
            attendance_id: reply.body.data?.attendance_id,
            work_date: '2024-03-18',
            clock_in_time: shanghai('2024-03-18T00:30:00'),
            status: 0,
            status_text: 'normal',
            late_minutes: 0,
            message: 'Clocked in on time',
          },
          'Clocked in',
        ),
      )
    expect(close.body).toEqual(
      w.ok(
        {
          date: '2024-03-17',
          // fay, gus and the crew: nobody worked on Sunday
          groups: [{ group_id: 1, timezone: 'Asia/Shanghai', closed: true, absent_records: 14, exception_records: 0 }],
        },
        'Day closed',
      ),
    )
    for (const name of CREW)
      expect(await w.brief(name)).toEqual([
        ['2024-03-14', 3, 0, 0, 0, false],
        ['2024-03-15', 3, 0, 0, 0, false],
        ['2024-03-16', 3, 0, 0, 0, false],
        ['2024-03-17', 3, 0, 0, 0, false],
        ['2024-03-18', 0, 0, 0, 0, false],
      ])
    // the Monday night's shift is kept with the record: 22:00 on the 18th to 06:00 on the 19th
    const [monday] = (await w.records('crew1')).filter((r) => r.workDate === '2024-03-18')
    expect([monday.ruleId, monday.shiftStart, monday.shiftEnd]).toEqual([
      1,
      new Date(shanghai('2024-03-18T22:00:00')),
      new Date(shanghai('2024-03-19T06:00:00')),
    ])
  }, 20_000)
})

describe('a record left open by a later clock-in', () => {
  // one overnight rule, 20:00–04:00 every day, in UTC
  const w = world('2024-03-17T12:00:00.000Z')

  beforeAll(async () => {
    await w.post('/api/v1/admin/companies', { name: 'Acme' })
    await w.post('/api/v1/admin/attendance/groups', { name: 'Nights', company_id: 1 })
    await w.post('/api/v1/admin/attendance/rules', {
      name: 'Nights',
      group_id: 1,
      work_start_time: '20:00',
      work_end_time: '04:00',
      required_work_hours: 7,
      work_days: '1,2,3,4,5,6,7',
    })
    await w.hire(['owl'], 1)
  })

  test('a second clock-out never closes the older record left open (was: it did, and the two overlapped)', async () => {
    // Monday 00:00 belongs to Sunday night; at 04:30 Sunday night is over and a clock-in is Monday's
    w.set('2024-03-18T00:00:00.000Z')
    expect((await w.clockIn('owl')).body.data).toMatchObject({ attendance_id: 1, work_date: '2024-03-17', status: 1 })
    w.set('2024-03-18T04:30:00.000Z')
    expect((await w.clockIn('owl')).body.data).toMatchObject({ attendance_id: 2, work_date: '2024-03-18', status: 0 })
    w.set('2024-03-18T05:00:00.000Z')
    expect((await w.clockOut('owl')).body.data).toMatchObject({ attendance_id: 2, work_date: '2024-03-18' })
    w.set('2024-03-18T05:10:00.000Z')
    expect((await w.clockOut('owl')).body).toEqual(w.failure(409, 'You have already clocked out for 2024-03-18'))
    // Sunday night's record stays as it was, for day close to close at midnight
    expect(await w.brief('owl')).toEqual([
      ['2024-03-17', 1, 240, 0, 0, false],
      ['2024-03-18', 2, 0, 1380, 30, true],
    ])
    w.set('2024-03-19T00:00:05.000Z')
    await w.tick()
    expect((await w.brief('owl'))[0]).toEqual(['2024-03-17', 4, 240, 0, 0, false])
  })
})

describe('changes while a record is open', () => {
  const w = world(shanghai('2024-03-14T12:00:00'))
  const day = async (name: string, date: string) => (await w.brief(name)).find(([workDate]) => workDate === date)

  beforeAll(async () => {
    await w.post('/api/v1/admin/companies', { name: 'Acme', timezone: 'Asia/Shanghai' })
    await w.post('/api/v1/admin/attendance/groups', { name: 'Shanghai office', company_id: 1 })
    await w.post('/api/v1/admin/attendance/groups', { name: 'New York office', company_id: 1, timezone: 'America/New_York' })
    await w.post('/api/v1/admin/attendance/groups', { name: 'Plant', company_id: 1 })
    for (const group_id of [1, 2, 3])
      await w.post('/api/v1/admin/attendance/rules', { ...DAY_RULE, name: `Office hours ${group_id}`, group_id })
    await w.hire(['leaver', 'stray'], 1)
    await w.hire(['mover'], 2)
    await w.hire(['zed'], 3)
  })

  test('moved to a group in another zone: the new group’s day close leaves the record open; its owner clocks out under the old zone and rule', async () => {
    // Friday 08:55 in New York is 20:55 in Shanghai
    w.set(newYork('2024-03-15T08:55:00'))
    const opened = await w.clockIn('mover')
    expect(opened.body.data).toMatchObject({ work_date: '2024-03-15', status: 0 })
    await w.post('/api/v1/admin/attendance/groups/1/employees', { employee_ids: [w.ids.mover] })

    // Shanghai's Friday closes at its midnight, New York's noon: the record was made an exception then
    w.set(newYork('2024-03-15T12:00:10'))
    await w.tick()
    expect(await day('mover', '2024-03-15')).toEqual(['2024-03-15', 0, 0, 0, 0, false])

    // 18:05 in New York is Saturday 06:05 in Shanghai: was 400 "not clocked in for 2024-03-16"
    w.set(newYork('2024-03-15T18:05:00'))
    const reply = await w.clockOut('mover')
    expect(reply.body).toEqual(
      w.ok(
        {
          attendance_id: opened.body.data.attendance_id,
          work_date: '2024-03-15',
          clock_out_time: newYork('2024-03-15T18:05:00'),
          status: 0,
          status_text: 'normal',
          // 08:55 → 18:05 less New York's 12:00–13:00 break
          work_hours: 8.17,
          early_minutes: 0,
          overtime_minutes: 0,
          message: 'Clocked out',
        },
        'Clocked out',
      ),
    )
    const [row] = (await w.records('mover')).filter((r) => r.workDate === '2024-03-15')
    expect([row.groupId, row.ruleId, row.timezone, row.workMinutes]).toEqual([2, 2, 'America/New_York', 490])
  })

  test('removed from the group: its owner still clocks out (was 400 "not in an attendance group")', async () => {
    w.set(shanghai('2024-03-18T08:50:00'))
    const opened = await w.clockIn('leaver')
    expect(opened.body.data).toMatchObject({ work_date: '2024-03-18', status: 0 })
    await w.adminReq('DELETE', '/api/v1/admin/attendance/groups/1/employees', { employee_ids: [w.ids.leaver] })
    w.set(shanghai('2024-03-18T18:00:00'))
    expect((await w.clockOut('leaver')).body).toEqual(
      w.ok(
        {
          attendance_id: opened.body.data.attendance_id,
          work_date: '2024-03-18',
          clock_out_time: shanghai('2024-03-18T18:00:00'),
          status: 0,
          status_text: 'normal',
          work_hours: 8.17,
          early_minutes: 0,
          overtime_minutes: 0,
          message: 'Clocked out',
        },
        'Clocked out',
      ),
    )
  })

  test('the group’s zone changed: no second record for the previous local date, and the open one is clocked out in its own zone', async () => {
    // Wednesday 09:00 in Shanghai is Tuesday 21:00 in New York
    w.set(shanghai('2024-03-20T09:00:00'))
    const opened = await w.clockIn('zed')
    expect(opened.body.data).toMatchObject({ work_date: '2024-03-20', status: 0 })
    expect((await w.adminReq('PUT', '/api/v1/admin/attendance/groups/3', { timezone: 'America/New_York' })).status).toBe(200)

    // was 200 with a record for 2024-03-19 covering the same hours
    w.set(shanghai('2024-03-20T09:30:00'))
    expect((await w.clockIn('zed')).body).toEqual(w.failure(409, 'You have already clocked in for 2024-03-20'))

    // 11:00 in Shanghai, still Tuesday in New York: was 400 "not clocked in for 2024-03-19"
    w.set(shanghai('2024-03-20T11:00:00'))
    expect((await w.clockOut('zed')).body).toEqual(
      w.ok(
        {
          attendance_id: opened.body.data.attendance_id,
          work_date: '2024-03-20',
          clock_out_time: shanghai('2024-03-20T11:00:00'),
          status: 2,
          status_text: 'early leave',
          work_hours: 2,
          early_minutes: 420,
          overtime_minutes: 0,
          message: 'Clocked out 420 minutes early',
        },
        'Clocked out',
      ),
    )
    expect(await day('zed', '2024-03-19')).toBeUndefined()
    expect(await day('zed', '2024-03-20')).toEqual(['2024-03-20', 2, 0, 420, 120, true])
  })

  test('re-zoned to where it is already the next day: no new record while the open one’s work day runs (was a second record over the same hours)', async () => {
    // Thursday 09:00 in New York (the group's zone now) is 21:00 in Shanghai
    w.set(newYork('2024-03-21T09:00:00'))
    const opened = await w.clockIn('zed')
    expect(opened.body.data).toMatchObject({ work_date: '2024-03-21', status: 0 })
    await w.adminReq('PUT', '/api/v1/admin/attendance/groups/3', { timezone: 'Asia/Shanghai' })
    // 12:30 in New York is Friday 00:30 in Shanghai, and the New York Thursday runs to its midnight
    w.set(newYork('2024-03-21T12:30:00'))
    expect((await w.clockIn('zed')).body).toEqual(
      w.failure(409, 'You are still clocked in for 2024-03-21; clock out first'),
    )
    w.set(newYork('2024-03-21T18:00:00'))
    expect((await w.clockOut('zed')).body.data).toMatchObject({ attendance_id: opened.body.data.attendance_id, status: 0, work_hours: 8 })
    expect(await day('zed', '2024-03-22')).toBeUndefined()
  })

  test('the rule edited while a record is open: the clock-out is judged by the terms it was opened under', async () => {
    w.set(shanghai('2024-03-22T08:55:00'))
    expect((await w.clockIn('zed')).status).toBe(200)
    await w.adminReq('PUT', '/api/v1/admin/attendance/rules/3', { work_end_time: '17:00', break_start_time: null, break_end_time: null })
    w.set(shanghai('2024-03-22T17:30:00'))
    // under the edited rule it was not early: 8.58 hours, normal
    expect((await w.clockOut('zed')).body.data).toMatchObject({ status: 2, work_hours: 7.58, early_minutes: 30 })
  })

  test('the rule deleted while a record is open: the clock-out is judged by the terms it was opened under', async () => {
    w.set(shanghai('2024-03-25T09:10:00'))
    const opened = await w.clockIn('zed')
    expect(opened.body.data).toMatchObject({ status: 1, late_minutes: 10 })
    expect((await w.adminReq('DELETE', '/api/v1/admin/attendance/rules/3')).status).toBe(200)
    w.set(shanghai('2024-03-25T16:30:00'))
    // was 400: the group has no enabled rule left
    expect((await w.clockOut('zed')).body).toEqual(
      w.ok(
        {
          attendance_id: opened.body.data.attendance_id,
          work_date: '2024-03-25',
          clock_out_time: shanghai('2024-03-25T16:30:00'),
          status: 2,
          status_text: 'early leave',
          // under the rule as it was at 09:10 (edited above: to 17:00, no break)
          work_hours: 7.33,
          early_minutes: 30,
          overtime_minutes: 0,
          message: 'Clocked out 30 minutes early',
        },
        'Clocked out',
      ),
    )
  })

  test('removed from the group and never clocked out: day close still closes the record once its shift has closed (it stayed open forever)', async () => {
    w.set(shanghai('2024-03-26T09:00:00'))
    expect((await w.clockIn('stray')).body.data).toMatchObject({ work_date: '2024-03-26', status: 0 })
    await w.adminReq('DELETE', '/api/v1/admin/attendance/groups/1/employees', { employee_ids: [w.ids.stray] })
    w.set(shanghai('2024-03-26T23:59:00'))
    await w.tick()
    expect(await day('stray', '2024-03-26')).toEqual(['2024-03-26', 0, 0, 0, 0, false])
    w.set(shanghai('2024-03-27T00:00:05'))
    await w.tick()
    expect(await day('stray', '2024-03-26')).toEqual(['2024-03-26', 4, 0, 0, 0, false])
    // nothing is open any more, and no group to clock in with
    expect((await w.clockOut('stray')).body).toEqual(
      w.failure(400, 'You are not in an attendance group; ask an administrator to add you to one'),
    )
  })
})

describe('who may clock, and which days may be closed', () => {
  const w = world(shanghai('2024-03-14T12:00:00'))

  beforeAll(async () => {
    await w.post('/api/v1/admin/companies', { name: 'Acme', timezone: 'Asia/Shanghai' })
    await w.post('/api/v1/admin/attendance/groups', { name: 'Office', company_id: 1 })
    await w.post('/api/v1/admin/attendance/groups', { name: 'Annex', company_id: 1 })
    for (const group_id of [1, 2]) await w.post('/api/v1/admin/attendance/rules', { ...DAY_RULE, name: `Hours ${group_id}`, group_id })
    await w.hire(['lea', 'max'], 1)
    // no hire date: can be missed on any day
    await w.hire(['ola'], 1, null)
    await w.hire(['nia'], 1, '2024-03-20')
  })

  test('an employee marked as left cannot clock in, nor out of a record opened before (clock-in was 200)', async () => {
    w.set(shanghai('2024-03-15T09:00:00'))
    expect((await w.clockIn('max')).status).toBe(200)
    for (const name of ['lea', 'max'])
      expect((await w.adminReq('PUT', `/api/v1/admin/employees/${w.ids[name]}`, { status: 0 })).status).toBe(200)
    const left = () => w.failure(400, 'You are marked as having left (employee status 0), so you can no longer clock in or out')
    expect((await w.clockIn('lea')).body).toEqual(left())
    w.set(shanghai('2024-03-15T18:00:00'))
    expect((await w.clockOut('max')).body).toEqual(left())
    expect(await w.brief('lea')).toEqual([])
    expect(await w.brief('max')).toEqual([['2024-03-15', 0, 0, 0, 0, false]])
  })

  test('close-day for a date before the group existed → 400, nothing written (ola was marked absent under a rule that did not exist)', async () => {
    const before = await w.t.deps.database.db.select().from(auditLogs)
    const reply = await w.adminReq('POST', '/api/v1/admin/attendance/close-day', { date: '2000-01-03', group_id: 1 })
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual(
      w.failure(400, 'Attendance group "Office" did not exist on 2000-01-03: it was created on 2024-03-14', {
        errors: [{ field: 'date', message: 'is before the group was created (2024-03-14)' }],
      }),
    )
    // every group at once: the groups that did not exist are left out
    const all = await w.adminReq('POST', '/api/v1/admin/attendance/close-day', { date: '2000-01-03' })
    expect(all.body).toEqual(w.ok({ date: '2000-01-03', groups: [] }, 'Day closed'))
    expect(await w.t.deps.database.db.select().from(attendanceRecords).where(eq(attendanceRecords.workDate, '2000-01-03'))).toEqual([])
    expect((await w.t.deps.database.db.select().from(auditLogs)).length).toBe(before.length + 1)
  })

  test('close-day writes no absence before an employee’s hire date, nor for one who has left', async () => {
    w.set(shanghai('2024-03-19T12:00:00'))
    const reply = await w.adminReq('POST', '/api/v1/admin/attendance/close-day', { date: '2024-03-18', group_id: 1 })
    // lea and max have left; nia starts on the 20th; ola did not come
    expect(reply.body).toEqual(
      w.ok(
        {
          date: '2024-03-18',
          groups: [{ group_id: 1, timezone: 'Asia/Shanghai', closed: true, absent_records: 1, exception_records: 0 }],
        },
        'Day closed',
      ),
    )
    expect(await w.brief('nia')).toEqual([])
    expect(await w.brief('ola')).toEqual([['2024-03-18', 3, 0, 0, 0, false]])
  })

  test('moving a member from group A to group B writes an audit entry for both groups (was B only)', async () => {
    const since = (await w.t.deps.database.db.select().from(auditLogs).orderBy(asc(auditLogs.id))).at(-1)!.id
    await w.post('/api/v1/admin/attendance/groups/2/employees', { employee_ids: [w.ids.nia, w.ids.lea] })
    const entries = await w.t.deps.database.db.select().from(auditLogs).where(gt(auditLogs.id, since)).orderBy(asc(auditLogs.id))
    const at = w.t.clock.now()
    expect(entries.map(({ id: _id, ...entry }) => entry)).toEqual([
      {
        actorId: 1,
        action: 'attendance_group.employees.add',
        resource: 'attendance_group',
        resourceId: '2',
        before: { employee_ids: [] },
        after: { employee_ids: [w.ids.lea, w.ids.nia] },
        ip: null,
        createdAt: at,
      },
      {
        actorId: 1,
        action: 'attendance_group.employees.move_out',
        resource: 'attendance_group',
        resourceId: '1',
        before: { employee_ids: [w.ids.lea, w.ids.max, w.ids.ola, w.ids.nia] },
        after: { employee_ids: [w.ids.max, w.ids.ola], moved_to_group_id: 2 },
        ip: null,
        createdAt: at,
      },
    ])
  })
})

describe('statistics judge each date by the rule that applies on it', () => {
  // 2024-03-04 is a Monday. Weekdays 09:00–18:00 (one late day allowed a month); Saturdays 09:00–13:00 (one allowed).
  const w = world(shanghai('2024-03-01T12:00:00'))

  beforeAll(async () => {
    await w.post('/api/v1/admin/companies', { name: 'Acme', timezone: 'Asia/Shanghai' })
    await w.post('/api/v1/admin/attendance/groups', { name: 'Shop', company_id: 1 })
    await w.post('/api/v1/admin/attendance/rules', { ...DAY_RULE, name: 'Weekdays', group_id: 1, allowed_late_days: 1 })
    await w.post('/api/v1/admin/attendance/rules', {
      name: 'Saturdays',
      group_id: 1,
      work_start_time: '09:00',
      work_end_time: '13:00',
      required_work_hours: 3.5,
      work_days: '6',
      allowed_late_days: 1,
    })
    await w.hire(['sam'], 1)
    const days: [string, string, string][] = [
      ['2024-03-04', '09:20', '18:00'], // late 20, 460 min
      ['2024-03-05', '09:10', '18:00'], // late 10, 470 min
      ['2024-03-06', '09:00', '18:00'], // 480 min
      ['2024-03-07', '09:00', '18:00'], // 480 min
      // Friday the 8th: nobody
      ['2024-03-09', '09:30', '13:00'], // Saturday rule: late 30, 210 min
    ]
    for (const [date, clockIn, clockOut] of days) {
      w.set(shanghai(`${date}T${clockIn}:00`))
      expect((await w.clockIn('sam')).status).toBe(200)
      w.set(shanghai(`${date}T${clockOut}:00`))
      expect((await w.clockOut('sam')).status).toBe(200)
    }
  })

  const MON_TO_SAT = {
    total_days: 6,
    work_days: 6,
    attendance_days: 5,
    late_days: 3,
    early_days: 0,
    // Friday the 8th
    absent_days: 1,
    exception_days: 0,
    holiday_days: 0,
    leave_days: 0,
    leave_hours: 0,
    total_work_hours: 35,
    avg_work_hours: 7,
    total_late_minutes: 60,
    total_early_minutes: 0,
    overtime_hours: 0,
    attendance_rate: 83.33,
    // one of the two weekday late days, and the Saturday one
    late_days_allowed: 2,
    late_days_over_allowance: 1,
  }

  test('asked on a Saturday (was work_days 1 and attendance_rate 500)', async () => {
    w.set(shanghai('2024-03-09T14:00:00'))
    const reply = await w.as('sam', 'GET', '/api/v1/attendance/statistics?start_date=2024-03-04&end_date=2024-03-09')
    expect(reply.body).toEqual(w.ok(MON_TO_SAT, 'success'))
  })

  test('asked on a weekday (was work_days 5, the Saturday allowance unused)', async () => {
    w.set(shanghai('2024-03-11T10:00:00'))
    const reply = await w.as('sam', 'GET', '/api/v1/attendance/statistics?start_date=2024-03-04&end_date=2024-03-09')
    expect(reply.body).toEqual(w.ok(MON_TO_SAT, 'success'))
  })

  test('a missed Saturday counts as absent (it never did)', async () => {
    w.set(shanghai('2024-03-18T10:00:00'))
    const reply = await w.as('sam', 'GET', '/api/v1/attendance/statistics?start_date=2024-03-11&end_date=2024-03-17')
    expect(reply.body).toEqual(
      w.ok(
        {
          total_days: 7,
          work_days: 6,
          attendance_days: 0,
          late_days: 0,
          early_days: 0,
          absent_days: 6,
          exception_days: 0,
          holiday_days: 0,
          leave_days: 0,
          leave_hours: 0,
          total_work_hours: 0,
          avg_work_hours: 0,
          total_late_minutes: 0,
          total_early_minutes: 0,
          overtime_hours: 0,
          attendance_rate: 0,
          late_days_allowed: 0,
          late_days_over_allowance: 0,
        },
        'success',
      ),
    )
  })
})

describe('hours as the records show them', () => {
  const w = world(shanghai('2024-03-01T12:00:00'))

  beforeAll(async () => {
    await w.post('/api/v1/admin/companies', { name: 'Acme', timezone: 'Asia/Shanghai' })
    await w.post('/api/v1/admin/attendance/groups', { name: 'Fixed', company_id: 1 })
    await w.post('/api/v1/admin/attendance/groups', { name: 'Flexible', company_id: 1 })
    const rule = {
      work_start_time: '09:00',
      work_end_time: '17:50',
      break_start_time: '12:00',
      break_end_time: '12:30',
      required_work_hours: 8.34,
      work_days: '1,2,3,4,5',
    }
    await w.post('/api/v1/admin/attendance/rules', { ...rule, name: 'Fixed', group_id: 1 })
    await w.post('/api/v1/admin/attendance/rules', { ...rule, name: 'Flexible', group_id: 2, flexible_time: true })
    await w.hire(['fix'], 1)
    await w.hire(['flex'], 2)
  })

  test('8.33 hours is short of 8.34: status 4 (was 0), or early leave by the missing minute on a flexible rule (was 0)', async () => {
    w.set(shanghai('2024-03-04T09:00:00'))
    for (const name of ['fix', 'flex']) expect((await w.clockIn(name)).status).toBe(200)
    w.set(shanghai('2024-03-04T17:50:00'))
    // 09:00 → 17:50 less the half-hour break is 500 minutes, shown as 8.33 hours
    expect((await w.clockOut('fix')).body).toEqual(
      w.ok(
        {
          attendance_id: 1,
          work_date: '2024-03-04',
          clock_out_time: shanghai('2024-03-04T17:50:00'),
          status: 4,
          status_text: 'exception',
          work_hours: 8.33,
          early_minutes: 0,
          overtime_minutes: 0,
          message: 'Clocked out after 8.33 hours, short of the required 8.34',
        },
        'Clocked out',
      ),
    )
    expect((await w.clockOut('flex')).body).toEqual(
      w.ok(
        {
          attendance_id: 2,
          work_date: '2024-03-04',
          clock_out_time: shanghai('2024-03-04T17:50:00'),
          status: 2,
          status_text: 'early leave',
          work_hours: 8.33,
          // 501 minutes show as 8.35 hours, the first to reach 8.34
          early_minutes: 1,
          overtime_minutes: 0,
          message: 'Clocked out 1 minutes early',
        },
        'Clocked out',
      ),
    )
  })

  test('total_work_hours is the sum of the hours the records show: three 1-minute records are 0.06 (was 0.05)', async () => {
    for (const date of ['2024-03-05', '2024-03-06', '2024-03-07']) {
      w.set(shanghai(`${date}T09:00:00`))
      expect((await w.clockIn('fix')).status).toBe(200)
      w.set(shanghai(`${date}T09:01:00`))
      expect((await w.clockOut('fix')).body.data.work_hours).toBe(0.02)
    }
    w.set(shanghai('2024-03-07T12:00:00'))
    const reply = await w.as('fix', 'GET', '/api/v1/attendance/statistics?start_date=2024-03-05&end_date=2024-03-07')
    expect(reply.body).toEqual(
      w.ok(
        {
          total_days: 3,
          work_days: 3,
          attendance_days: 3,
          late_days: 0,
          early_days: 3,
          absent_days: 0,
          exception_days: 0,
          holiday_days: 0,
          leave_days: 0,
          leave_hours: 0,
          total_work_hours: 0.06,
          avg_work_hours: 0.02,
          total_late_minutes: 0,
          total_early_minutes: 3 * 529,
          overtime_hours: 0,
          attendance_rate: 100,
          late_days_allowed: 0,
          late_days_over_allowance: 0,
        },
        'success',
      ),
    )
  })
})

describe('records from before records kept their shift (migration 0006)', () => {
  const w = world(shanghai('2024-03-14T12:00:00'))
  /** A record as 0005 wrote it: no kept shift, judged by its rule. */
  const legacy = (name: string, ruleId: number | null, workDate: string, clockIn: string, lateMinutes: number) =>
    w.t.deps.database.db
      .insert(attendanceRecords)
      .values({
        employeeId: w.ids[name],
        ruleId,
        groupId: 1,
        workDate,
        timezone: 'Asia/Shanghai',
        clockInTime: new Date(clockIn),
        status: lateMinutes > 0 ? 1 : 0,
        lateMinutes,
        createdAt: new Date(clockIn),
        updatedAt: new Date(clockIn),
      })
      .returning({ id: attendanceRecords.id })

  beforeAll(async () => {
    await w.post('/api/v1/admin/companies', { name: 'Acme', timezone: 'Asia/Shanghai' })
    await w.post('/api/v1/admin/attendance/groups', { name: 'Office', company_id: 1 })
    await w.post('/api/v1/admin/attendance/rules', { ...DAY_RULE, name: 'Office hours', group_id: 1 })
    await w.hire(['old', 'odd'], 1)
  })

  test('one is clocked out under its rule', async () => {
    const [{ id }] = await legacy('old', 1, '2024-03-15', shanghai('2024-03-15T09:10:00'), 10)
    w.set(shanghai('2024-03-15T17:00:00'))
    expect((await w.clockOut('old')).body).toEqual(
      w.ok(
        {
          attendance_id: id,
          work_date: '2024-03-15',
          clock_out_time: shanghai('2024-03-15T17:00:00'),
          status: 2,
          status_text: 'early leave',
          // 09:10 → 17:00 less the rule's 12:00–13:00 break
          work_hours: 6.83,
          early_minutes: 60,
          overtime_minutes: 0,
          message: 'Clocked out 60 minutes early',
        },
        'Clocked out',
      ),
    )
  })

  test('one whose rule is gone is closed by day close a day after its date (whatever shift it had, it is over)', async () => {
    w.set(shanghai('2024-03-18T09:00:00'))
    await legacy('odd', null, '2024-03-18', shanghai('2024-03-18T09:00:00'), 0)
    w.set(shanghai('2024-03-19T00:00:30'))
    await w.tick()
    expect((await w.brief('odd')).at(-1)).toEqual(['2024-03-18', 0, 0, 0, 0, false])
    w.set(shanghai('2024-03-20T00:00:30'))
    await w.tick()
    expect((await w.brief('odd')).find(([date]) => date === '2024-03-18')).toEqual(['2024-03-18', 4, 0, 0, 0, false])
  })

  test('the migration gives existing records the group of their rule and leaves their shift unknown', async () => {
    const dir = tempDir()
    const before = join(dir, 'drizzle-0005')
    mkdirSync(join(before, 'meta'), { recursive: true })
    const migrations = join(import.meta.dir, '..', 'drizzle')
    const journal = JSON.parse(readFileSync(join(migrations, 'meta', '_journal.json'), 'utf8'))
    const all = journal.entries.length
    journal.entries = journal.entries.filter((entry: { idx: number }) => entry.idx <= 5)
    writeFileSync(join(before, 'meta', '_journal.json'), JSON.stringify(journal))
    for (const entry of journal.entries) copyFileSync(join(migrations, `${entry.tag}.sql`), join(before, `${entry.tag}.sql`))
    const database = await openDatabase(`file:${join(dir, 'old.db')}`)
    try {
      await migrate(database, before)
      for (const statement of [
        `INSERT INTO companies (name) VALUES ('Acme')`,
        `INSERT INTO attendance_groups (name, company_id) VALUES ('Office', 1), ('Night', 1)`,
        `INSERT INTO attendance_rules (group_id, name, work_start_time, work_end_time, required_work_hours, work_days) VALUES (2, 'Nights', '22:00', '06:00', 7, '1,2,3,4,5')`,
        `INSERT INTO employees (name) VALUES ('Ann')`,
        `INSERT INTO attendance_records (employee_id, rule_id, work_date, timezone, status) VALUES (1, 1, '2024-03-14', 'UTC', 3), (1, NULL, '2024-03-13', 'UTC', 3)`,
      ])
        await database.client.execute(statement)
      // 0006 and every migration after it
      expect(await migrate(database)).toBe(all - journal.entries.length)
      const rows = await database.client.execute(
        'SELECT work_date, rule_id, group_id, shift_start, shift_end, work_date_end, is_work_day FROM attendance_records ORDER BY work_date',
      )
      const unknown = { shift_start: null, shift_end: null, work_date_end: null, is_work_day: null }
      expect(rows.rows.map((row): Record<string, unknown> => ({ ...row }))).toEqual([
        { work_date: '2024-03-13', rule_id: null, group_id: null, ...unknown },
        { work_date: '2024-03-14', rule_id: 1, group_id: 2, ...unknown },
      ])
    } finally {
      database.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
