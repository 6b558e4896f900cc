import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import { attendanceCorrections, attendanceRecords, auditLogs, users } from '../src/db/schema'
import { errorBody, invalidBody, login, loginAdmin, makeUser, req, startApp, tableRows, type TestApp } from './helpers'

/** A correction as its messages name it: whose, of which date. */
const named = (c: Json) => `${(c.employee as { name: string }).name}'s correction of ${c.work_date}`

/*
 * CONTRACT §11 (with §10 for the decisions): corrections of clock times, recomputed on approval by
 * the clock policy; the administrator's direct edit; overtime on the records and in statistics.
 * Asia/Shanghai, through the HTTP API, clock frozen and moved by hand.
 *
 * Company Acme. Groups: Office (id 1; rule 1: 09:00–18:00, break 12:00–13:00, 5 minutes' late
 * grace, no early grace, 8 h, Mon–Fri, overtime threshold 30 by default) with mia, ann, ben, zoe
 * and ada (the administrator's employee record); Night (id 2; rule 2: 22:00–06:00 overnight, no
 * break, 5 minutes' grace, 8 h, Mon–Fri) with ned. mia manages both groups, so she decides their
 * requests; hr holds approvals:manage and has no employee record.
 *
 * March 2024 (1 March is a Friday), as set up before the tests:
 *   Mon 04  ned clocks in 22:05 and never out; day close (6 March) makes it an exception (4)
 *   Tue 05  ann 09:40–18:35: late 40, 535 − 60 = 475 min = 7.92 h, overtime 35 (≥ 30), status 1
 *   Wed 06  nothing (it becomes a company holiday in a test)
 *   Thu 07  ann has the morning off (approved `am` leave), no record
 *   Fri 08  nobody clocks: day close (9 March) writes absent records (3) for the five of Office
 *   Mon 11  ann 08:50–17:00: early 60, 490 − 60 = 430 min = 7.17 h, status 2
 *   Tue 12  ann 08:55–18:05 (8.17 h); ben and zoe 09:00–18:00 (8 h); all status 0
 * "Today" is then Friday 15 March, 12:00 (31 days back is 13 February).
 */

const local = (dateTime: string) => new Date(`${dateTime}+08:00`).toISOString()
/** an instant as a client writes it: local time with the zone's offset */
const instant = (dateTime: string) => `${dateTime}:00+08:00`
const TODAY = '2024-03-15'

let t: TestApp
let admin: string
let adminName: string
const tokens: Record<string, string> = {}
const ids: Record<string, number> = {}
const userIds: Record<string, number> = {}

const at = (dateTime: string) => t.clock.set(local(dateTime))
/** one second on: requests made one after another have distinct, ordered created_at */
const tick = () => t.clock.advance(1000)
const stamp = () => t.clock.now().toISOString()
const ok = (data: unknown, message = 'success') => ({ code: 200, message, data, timestamp: stamp() })
const failure = (code: number, message: string, extra: Record<string, unknown> = {}) => ({ ...errorBody(code, message, extra), timestamp: stamp() })
const refused = (field: string, message: string) => failure(400, `${field} ${message}`, { errors: [{ field, message }] })
const adminReq = (method: string, path: string, body?: unknown) => req(t.app, method, path, { token: admin, body })
const as = (who: string, method: string, path: string, body?: unknown) => req(t.app, method, path, { token: who === 'admin' ? admin : tokens[who], body })
/** The same request with Accept-Language: zh. */
const inChinese = (who: string, method: string, path: string, body?: unknown) =>
  req(t.app, method, path, { token: who === 'admin' ? admin : tokens[who], body, headers: { 'accept-language': 'zh' } })
const person = (who: string) => ({ id: ids[who], name: who })
const database = () => t.deps.database.db

type Json = Record<string, unknown>
type RecordReply = Json & { id: number }

/** The admin list's record of an employee and date, or null. */
async function recordOf(who: string, date: string): Promise<RecordReply | null> {
  const reply = await adminReq('GET', `/api/v1/admin/attendance/records?employee_id=${ids[who]}&start_date=${date}&end_date=${date}`)
  expect(reply.status).toBe(200)
  expect(reply.body.data.records.length).toBeLessThanOrEqual(1)
  return reply.body.data.records[0] ?? null
}

const SNAPSHOT_KEYS = ['id', 'clock_in_time', 'clock_out_time', 'status', 'late_minutes', 'early_minutes', 'work_hours', 'overtime_minutes'] as const
/** A record as a correction's before / after keeps it. */
const snapshot = (record: Json | null) => (record ? Object.fromEntries(SNAPSHOT_KEYS.map((key) => [key, record[key]])) : null)

interface Figures {
  status: number
  late_minutes: number
  early_minutes: number
  work_hours: number
  overtime_minutes: number
  clock_in_time: string | null
  clock_out_time: string | null
}
const figures = (record: Json | null) =>
  record && {
    status: record.status,
    late_minutes: record.late_minutes,
    early_minutes: record.early_minutes,
    work_hours: record.work_hours,
    overtime_minutes: record.overtime_minutes,
    clock_in_time: record.clock_in_time,
    clock_out_time: record.clock_out_time,
    corrected: record.corrected,
  }
const figured = (status: number, late: number, early: number, hours: number, overtime: number, clockIn: string | null, clockOut: string | null, corrected: boolean) => ({
  status,
  late_minutes: late,
  early_minutes: early,
  work_hours: hours,
  overtime_minutes: overtime,
  clock_in_time: clockIn && local(clockIn),
  clock_out_time: clockOut && local(clockOut),
  corrected,
})

/** A record's row exactly as stored: every column, in order. */
async function rawRecord(id: number): Promise<unknown[]> {
  const result = await t.deps.database.client.execute({ sql: 'SELECT * FROM attendance_records WHERE id = ?', args: [id] })
  expect(result.rows).toHaveLength(1)
  return result.columns.map((column) => result.rows[0][column])
}

const recordsOn = (who: string, date: string) =>
  database()
    .select()
    .from(attendanceRecords)
    .where(and(eq(attendanceRecords.employeeId, ids[who]), eq(attendanceRecords.workDate, date)))

const correctionRow = async (id: number) => (await database().select().from(attendanceCorrections).where(eq(attendanceCorrections.id, id)))[0]

const auditOf = (action: string, resourceId: number) =>
  database()
    .select()
    .from(auditLogs)
    .where(and(eq(auditLogs.action, action), eq(auditLogs.resourceId, String(resourceId))))

/** A correction as the API answers it when it was just requested. */
function requested(who: string, id: number, date: string, times: { clock_in_time?: string; clock_out_time?: string }, reason: string, record: Json | null) {
  return {
    id,
    employee_id: ids[who],
    employee: person(who),
    work_date: date,
    timezone: 'Asia/Shanghai',
    clock_in_time: times.clock_in_time ? new Date(times.clock_in_time).toISOString() : null,
    clock_out_time: times.clock_out_time ? new Date(times.clock_out_time).toISOString() : null,
    reason,
    status: 'pending',
    record_id: (record?.id as number | undefined) ?? null,
    before: snapshot(record),
    after: null,
    approver: person('mia'),
    decided_by: null,
    decided_at: null,
    decision_note: null,
    created_at: stamp(),
    updated_at: stamp(),
  }
}

async function ask(who: string, date: string, times: { clock_in_time?: string; clock_out_time?: string }, reason = 'Forgot to clock') {
  const reply = await as(who, 'POST', '/api/v1/attendance/corrections', { work_date: date, ...times, reason })
  if (reply.status !== 201) throw new Error(`correction of ${who} on ${date}: ${JSON.stringify(reply.body)}`)
  const made = reply.body.data as Json & { id: number }
  tick()
  return made
}

const decide = (who: string, decision: 'approve' | 'reject', id: number, body: unknown = {}) =>
  as(who, 'POST', `/api/v1/approvals/correction/${id}/${decision}`, body)

const statisticsOf = async (who: string, start: string, end: string) =>
  (await as(who, 'GET', `/api/v1/attendance/statistics?start_date=${start}&end_date=${end}`)).body

const OFFICE_RULE = {
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
const NIGHT_RULE = {
  name: 'Night shift',
  group_id: 2,
  work_start_time: '22:00',
  work_end_time: '06:00',
  late_grace_period: 5,
  early_grace_period: 0,
  required_work_hours: 8,
  work_days: '1,2,3,4,5',
}

async function clock(who: string, kind: 'in' | 'out', dateTime: string) {
  at(dateTime)
  const reply = await as(who, 'POST', `/api/v1/attendance/clock-${kind}`, {})
  if (reply.status !== 200) throw new Error(`clock-${kind} of ${who} at ${dateTime}: ${JSON.stringify(reply.body)}`)
  return reply.body.data
}

beforeAll(async () => {
  t = await startApp({ now: local('2024-03-01T08:00:00'), env: { ACCESS_TOKEN_TTL: '2592000' } })
  admin = await loginAdmin(t.app)
  adminName = (await database().select().from(users).where(eq(users.id, 1)))[0].name
  expect((await adminReq('POST', '/api/v1/admin/companies', { name: 'Acme', timezone: 'Asia/Shanghai' })).status).toBe(201)
  for (const name of ['mia', 'ann', 'ben', 'zoe', 'ned']) {
    const created = await adminReq('POST', '/api/v1/admin/employees', { name, username: name, password: `${name}-password` })
    expect(created.status).toBe(201)
    ids[name] = created.body.data.id
    userIds[name] = created.body.data.user_id
    tokens[name] = await login(t.app, name, `${name}-password`)
  }
  const ada = await adminReq('POST', '/api/v1/admin/employees', { name: 'ada', user_id: 1 })
  expect(ada.status).toBe(201)
  ids.ada = ada.body.data.id
  expect((await adminReq('POST', '/api/v1/admin/roles', { name: 'approver' })).status).toBe(201)
  expect((await adminReq('POST', '/api/v1/admin/roles/permissions/add', { role_name: 'approver', permission_name: 'approvals:manage' })).status).toBe(200)
  const hr = await makeUser(t.app, admin, 'hrx', ['approver', 'employee'])
  tokens.hr = hr.token
  userIds.hr = hr.id
  // the administrator signs in again: its token now carries its employee record
  admin = await loginAdmin(t.app)

  expect((await adminReq('POST', '/api/v1/admin/attendance/groups', { name: 'Office', company_id: 1, manager_id: ids.mia })).status).toBe(201)
  expect((await adminReq('POST', '/api/v1/admin/attendance/groups', { name: 'Night', company_id: 1, manager_id: ids.mia })).status).toBe(201)
  expect((await adminReq('POST', '/api/v1/admin/attendance/rules', OFFICE_RULE)).status).toBe(201)
  expect((await adminReq('POST', '/api/v1/admin/attendance/rules', NIGHT_RULE)).status).toBe(201)
  // nobody chooses who decides their own requests (CONTRACT §15): another administrator puts ada (admin's employee) in the group
  const owner2 = await makeUser(t.app, admin, 'owner2', ['admin'])
  const office = await req(t.app, 'POST', '/api/v1/admin/attendance/groups/1/employees', {
    token: owner2.token,
    body: { employee_ids: [ids.mia, ids.ann, ids.ben, ids.zoe, ids.ada] },
  })
  expect(office.status).toBe(200)
  expect((await adminReq('POST', '/api/v1/admin/attendance/groups/2/employees', { employee_ids: [ids.ned] })).status).toBe(200)

  // ann's morning off on Thursday the 7th, approved by mia
  expect((await adminReq('POST', '/api/v1/admin/leave/types', { name: 'Annual leave', annual_days: 10 })).status).toBe(201)
  const leave = await as('ann', 'POST', '/api/v1/leave/requests', { type_id: 1, start_date: '2024-03-07', end_date: '2024-03-07', half_day: 'am', reason: 'Dentist' })
  expect(leave.status).toBe(201)
  expect((await as('mia', 'POST', `/api/v1/approvals/leave/${leave.body.data.id}/approve`, {})).body.data.status).toBe('approved')

  expect(await clock('ned', 'in', '2024-03-04T22:05:00')).toMatchObject({ work_date: '2024-03-04', status: 0, late_minutes: 0 })
  expect(await clock('ann', 'in', '2024-03-05T09:40:00')).toMatchObject({ work_date: '2024-03-05', status: 1, late_minutes: 40 })
  expect(await clock('ann', 'out', '2024-03-05T18:35:00')).toMatchObject({ status: 1, work_hours: 7.92, early_minutes: 0, overtime_minutes: 35 })
  at('2024-03-06T10:00:00')
  const night = await adminReq('POST', '/api/v1/admin/attendance/close-day', { date: '2024-03-04', group_id: 2 })
  expect(night.body.data.groups).toEqual([{ group_id: 2, timezone: 'Asia/Shanghai', closed: true, absent_records: 0, exception_records: 1 }])
  at('2024-03-09T10:00:00')
  const friday = await adminReq('POST', '/api/v1/admin/attendance/close-day', { date: '2024-03-08', group_id: 1 })
  expect(friday.body.data.groups).toEqual([{ group_id: 1, timezone: 'Asia/Shanghai', closed: true, absent_records: 5, exception_records: 0 }])
  await clock('ann', 'in', '2024-03-11T08:50:00')
  expect(await clock('ann', 'out', '2024-03-11T17:00:00')).toMatchObject({ status: 2, early_minutes: 60, work_hours: 7.17, overtime_minutes: 0 })
  await clock('ann', 'in', '2024-03-12T08:55:00')
  for (const who of ['ben', 'zoe']) await clock(who, 'in', '2024-03-12T09:00:00')
  await clock('ann', 'out', '2024-03-12T18:05:00')
  for (const who of ['ben', 'zoe']) await clock(who, 'out', '2024-03-12T18:00:00')
  at(`${TODAY}T12:00:00`)
}, 30_000)

afterAll(() => t.close())

interface Recomputation {
  who: string
  date: string
  times: { clock_in_time?: string; clock_out_time?: string }
  /** what happens first (a calendar mark) */
  prepare?: () => Promise<void>
  before: ReturnType<typeof figured> | null
  after: ReturnType<typeof figured>
}

const RECOMPUTATIONS: [string, Recomputation][] = [
  [
    // 22:05 → 06:30 the next morning = 505 min = 8.42 h ≥ 8; 30 minutes past 06:00 reach the threshold
    'a missed clock-out of an overnight shift, closed as an exception: judged again, with overtime',
    {
      who: 'ned',
      date: '2024-03-04',
      times: { clock_out_time: instant('2024-03-05T06:30') },
      before: figured(4, 0, 0, 0, 0, '2024-03-04T22:05:00', null, false),
      after: figured(0, 0, 0, 8.42, 30, '2024-03-04T22:05:00', '2024-03-05T06:30:00', true),
    },
  ],
  [
    // 08:58 → 18:35 = 577 − 60 = 517 min = 8.62 h; the overtime (35) is the clock-out's and stays
    'a late clock-in corrected to on time: normal, no late minutes',
    {
      who: 'ann',
      date: '2024-03-05',
      times: { clock_in_time: instant('2024-03-05T08:58') },
      before: figured(1, 40, 0, 7.92, 35, '2024-03-05T09:40:00', '2024-03-05T18:35:00', false),
      after: figured(0, 0, 0, 8.62, 35, '2024-03-05T08:58:00', '2024-03-05T18:35:00', true),
    },
  ],
  [
    // 10:00 → 15:30 = 330 − 60 break = 270 min = 4.5 h, all of it overtime; no lateness, no required hours
    'a holiday with no record: a new record, normal, all the time worked is overtime',
    {
      who: 'ann',
      date: '2024-03-06',
      times: { clock_in_time: instant('2024-03-06T10:00'), clock_out_time: instant('2024-03-06T15:30') },
      prepare: async () => {
        const marked = await adminReq('PUT', '/api/v1/admin/companies/1/calendar/2024-03-06', { kind: 'holiday', name: 'Staff day' })
        expect(marked.status).toBe(201)
        expect(marked.body.data).toMatchObject({ company_id: 1, date: '2024-03-06', kind: 'holiday', name: 'Staff day' })
      },
      before: null,
      after: figured(0, 0, 0, 4.5, 270, '2024-03-06T10:00:00', '2024-03-06T15:30:00', true),
    },
  ],
  [
    // morning off: judged from the break's end (13:00, 5 minutes' grace); 13:05 → 18:00 = 295 min = 4.92 h ≥ 8 / 2
    'a half day of leave (morning off): on time against the break’s end, half the hours required',
    {
      who: 'ann',
      date: '2024-03-07',
      times: { clock_in_time: instant('2024-03-07T13:05'), clock_out_time: instant('2024-03-07T18:00') },
      before: null,
      after: figured(0, 0, 0, 4.92, 0, '2024-03-07T13:05:00', '2024-03-07T18:00:00', true),
    },
  ],
  [
    'an absence written by day close: the same record, updated in place',
    {
      who: 'ann',
      date: '2024-03-08',
      times: { clock_in_time: instant('2024-03-08T09:00'), clock_out_time: instant('2024-03-08T18:00') },
      before: figured(3, 0, 0, 0, 0, null, null, false),
      after: figured(0, 0, 0, 8, 0, '2024-03-08T09:00:00', '2024-03-08T18:00:00', true),
    },
  ],
  [
    // 08:50 (kept) → 18:00 = 550 − 60 = 490 min = 8.17 h
    'only a clock-out: the record’s clock-in is kept',
    {
      who: 'ann',
      date: '2024-03-11',
      times: { clock_out_time: instant('2024-03-11T18:00') },
      before: figured(2, 0, 60, 7.17, 0, '2024-03-11T08:50:00', '2024-03-11T17:00:00', false),
      after: figured(0, 0, 0, 8.17, 0, '2024-03-11T08:50:00', '2024-03-11T18:00:00', true),
    },
  ],
]

/** The corrections the table approved, by date. */
const approved: Record<string, Json & { id: number }> = {}

describe('recomputation on approval', () => {
  test('before: ned’s overnight day is an exception with no hours', async () => {
    expect(await statisticsOf('ned', '2024-03-04', '2024-03-04')).toEqual(
      ok({
        total_days: 1,
        work_days: 1,
        attendance_days: 1,
        late_days: 0,
        early_days: 0,
        absent_days: 0,
        exception_days: 1,
        total_work_hours: 0,
        avg_work_hours: 0,
        total_late_minutes: 0,
        total_early_minutes: 0,
        overtime_hours: 0,
        attendance_rate: 100,
        late_days_allowed: 0,
        late_days_over_allowance: 0,
        holiday_days: 0,
        leave_days: 0,
        leave_hours: 0,
      }),
    )
  })

  test.each(RECOMPUTATIONS)('%s', async (_, row) => {
    await row.prepare?.()
    const before = await recordOf(row.who, row.date)
    expect(figures(before)).toEqual(row.before)

    const reason = `Correcting ${row.date}`
    const asked = await as(row.who, 'POST', '/api/v1/attendance/corrections', { work_date: row.date, ...row.times, reason })
    expect(asked.status).toBe(201)
    const pending = requested(row.who, asked.body.data.id, row.date, row.times, reason, before)
    expect(asked.body).toEqual(ok(pending, 'Correction requested'))
    // nothing changes until it is decided
    expect(await recordOf(row.who, row.date)).toEqual(before)

    tick()
    const decided = await decide('mia', 'approve', pending.id, { note: ' Checked the gate log ' })
    const after = (await recordOf(row.who, row.date))!
    const result = {
      ...pending,
      status: 'approved',
      record_id: after.id,
      before: snapshot(before),
      after: snapshot(after),
      decided_by: { id: userIds.mia, name: 'mia' },
      decided_at: stamp(),
      decision_note: 'Checked the gate log',
      updated_at: stamp(),
    }
    expect(decided.body).toEqual(ok(result, 'Request approved'))
    approved[row.date] = result

    // the record, by hand
    expect(figures(after)).toEqual(row.after)
    expect(after.updated_at).toBe(stamp())
    if (before) expect(after.id).toBe(before.id)
    expect(await recordsOn(row.who, row.date)).toHaveLength(1)
    const stored = await correctionRow(pending.id)
    expect({ status: stored.status, recordId: stored.recordId, before: stored.before, after: stored.after, decidedBy: stored.decidedBy }).toEqual({
      status: 'approved',
      recordId: after.id,
      before: snapshot(before),
      after: snapshot(after),
      decidedBy: userIds.mia,
    })
    const audit = await auditOf('attendance_correction.approve', pending.id)
    expect(audit.map((entry) => ({ actor: entry.actorId, before: entry.before, after: entry.after }))).toEqual([
      { actor: userIds.mia, before: pending, after: result },
    ])
    // deciding it again → 409, cancelling it → 409
    expect((await decide('mia', 'approve', pending.id)).body).toEqual(failure(409, `${named(pending)} is approved, not pending: it cannot be approved`))
    expect((await decide('hr', 'reject', pending.id, { note: 'Too late' })).body).toEqual(
      failure(409, `${named(pending)} is approved, not pending: it cannot be rejected`),
    )
    expect(await recordOf(row.who, row.date)).toEqual(after)
    expect((await as(row.who, 'POST', `/api/v1/attendance/corrections/${pending.id}/cancel`)).body).toEqual(
      failure(409, `${named(pending)} is approved; only a pending one can be cancelled`),
    )
    tick()
  })

  test('the corrected record in full (GET /admin/attendance/records/{id}): corrected, with its rule', async () => {
    const corrected = approved['2024-03-04']
    const rule = await adminReq('GET', '/api/v1/admin/attendance/rules/2')
    expect(rule.status).toBe(200)
    const reply = await adminReq('GET', `/api/v1/admin/attendance/records/${corrected.record_id}`)
    expect(reply.body).toEqual(
      ok({
        id: corrected.record_id,
        employee_id: ids.ned,
        employee: { id: ids.ned, name: 'ned', phone: null },
        rule_id: 2,
        rule: rule.body.data,
        clock_in_time: local('2024-03-04T22:05:00'),
        clock_out_time: local('2024-03-05T06:30:00'),
        clock_in_lat: null,
        clock_in_lng: null,
        clock_out_lat: null,
        clock_out_lng: null,
        work_date: '2024-03-04',
        timezone: 'Asia/Shanghai',
        status: 0,
        status_text: 'normal',
        work_hours: 8.42,
        late_minutes: 0,
        early_minutes: 0,
        overtime_minutes: 30,
        corrected: true,
        imported: false,
        note: '',
        created_at: local('2024-03-04T22:05:00'),
        updated_at: corrected.decided_at,
      }),
    )
  })

  test('statistics follow: no exception, the hours and the overtime counted', async () => {
    const body = await statisticsOf('ned', '2024-03-04', '2024-03-04')
    expect(body.data).toEqual({
      total_days: 1,
      work_days: 1,
      attendance_days: 1,
      late_days: 0,
      early_days: 0,
      absent_days: 0,
      exception_days: 0,
      total_work_hours: 8.42,
      avg_work_hours: 8.42,
      total_late_minutes: 0,
      total_early_minutes: 0,
      overtime_hours: 0.5,
      attendance_rate: 100,
      late_days_allowed: 0,
      late_days_over_allowance: 0,
      holiday_days: 0,
      leave_days: 0,
      leave_hours: 0,
    })
    // ann, 5–11 March: 4 work days (the 6th is now a holiday), clocked on all of them and on the holiday, none late,
    // early or absent any more; hours 8.62 + 4.5 + 4.92 + 8 + 8.17 = 34.21 over 5 days = 6.84;
    // overtime 35 + 270 = 305 min = 5.08 h; attendance 5 / 4 work days = 125 % (the holiday counts as attended)
    const ann = await statisticsOf('ann', '2024-03-05', '2024-03-11')
    expect(ann.data).toEqual({
      total_days: 7,
      work_days: 4,
      attendance_days: 5,
      late_days: 0,
      early_days: 0,
      absent_days: 0,
      exception_days: 0,
      total_work_hours: 34.21,
      avg_work_hours: 6.84,
      total_late_minutes: 0,
      total_early_minutes: 0,
      overtime_hours: 5.08,
      attendance_rate: 125,
      late_days_allowed: 0,
      late_days_over_allowance: 0,
      holiday_days: 1,
      leave_days: 0.5,
      leave_hours: 0,
    })
  })

  test('the employee sees their corrections, newest first, with before and after', async () => {
    const reply = await as('ann', 'GET', '/api/v1/attendance/corrections?page_size=3')
    const dates = ['2024-03-11', '2024-03-08', '2024-03-07']
    expect(reply.body).toEqual(
      ok({
        corrections: dates.map((date) => approved[date]),
        pagination: { current_page: 1, page_size: 3, total_items: 5, total_pages: 2, has_next: true, has_prev: false },
      }),
    )
    expect((await as('ann', 'GET', '/api/v1/attendance/corrections?status=pending')).body.data.corrections).toEqual([])
    expect((await as('ben', 'GET', '/api/v1/attendance/corrections')).body.data.corrections).toEqual([])
    const unknown = await as('ann', 'GET', '/api/v1/attendance/corrections?status=done')
    expect(unknown.status).toBe(400)
    expect(unknown.body.errors.map((e: { field: string }) => e.field)).toEqual(['status'])
  })
})

describe('deciding: rejection and who decides', () => {
  test('a rejection needs a note, changes no record (byte for byte) and keeps the note', async () => {
    const record = (await recordOf('ann', '2024-03-12'))!
    const raw = await rawRecord(record.id)
    const times = { clock_in_time: instant('2024-03-12T08:30') }
    const made = await ask('ann', '2024-03-12', times, 'Badge reader was down')
    const pending = requested('ann', made.id, '2024-03-12', times, 'Badge reader was down', record)
    expect(made).toEqual({ ...pending, created_at: made.created_at, updated_at: made.created_at })

    expect((await decide('mia', 'reject', made.id, {})).body).toEqual({ ...invalidBody('note', 'is required'), timestamp: stamp() })
    expect((await decide('mia', 'reject', made.id, { note: '   ' })).body).toEqual(refused('note', 'must not be blank'))
    expect((await correctionRow(made.id)).status).toBe('pending')

    const reply = await decide('mia', 'reject', made.id, { note: 'The reader log shows 08:55' })
    const rejected = {
      ...made,
      status: 'rejected',
      decided_by: { id: userIds.mia, name: 'mia' },
      decided_at: stamp(),
      decision_note: 'The reader log shows 08:55',
      updated_at: stamp(),
    }
    expect(reply.body).toEqual(ok(rejected, 'Request rejected'))
    expect(await rawRecord(record.id)).toEqual(raw)
    expect(await recordOf('ann', '2024-03-12')).toEqual(record)
    const stored = await correctionRow(made.id)
    expect({ status: stored.status, note: stored.decisionNote, after: stored.after, decidedBy: stored.decidedBy, decidedAt: stored.decidedAt }).toEqual({
      status: 'rejected',
      note: 'The reader log shows 08:55',
      after: null,
      decidedBy: userIds.mia,
      decidedAt: new Date(stamp()),
    })
    const audit = await auditOf('attendance_correction.reject', made.id)
    expect(audit.map((entry) => ({ actor: entry.actorId, before: entry.before, after: entry.after }))).toEqual([{ actor: userIds.mia, before: made, after: rejected }])
    expect(await auditOf('attendance_correction.approve', made.id)).toEqual([])

    tick()
    expect((await decide('mia', 'approve', made.id)).body).toEqual(failure(409, `${named(made)} is rejected, not pending: it cannot be approved`))
    expect((await decide('mia', 'reject', made.id, { note: 'Again' })).body).toEqual(failure(409, `${named(made)} is rejected, not pending: it cannot be rejected`))
    expect(await rawRecord(record.id)).toEqual(raw)
  })

  test('the employee may not decide their own, nor another employee who is not the approver (404); nothing changes', async () => {
    const made = await ask('ann', '2024-03-12', { clock_in_time: instant('2024-03-12T08:40') })
    const record = (await recordOf('ann', '2024-03-12'))!
    const raw = await rawRecord(record.id)
    expect((await decide('ann', 'approve', made.id)).body).toEqual(failure(403, `${named(made)} is your own: nobody decides their own request`))
    expect((await decide('ann', 'reject', made.id, { note: 'No' })).body).toEqual(failure(403, `${named(made)} is your own: nobody decides their own request`))
    // to anyone but its approver and holders of approvals:manage it does not exist (CONTRACT §15)
    expect((await decide('ben', 'approve', made.id)).body).toEqual(failure(404, `Correction ${made.id} does not exist`))
    expect((await decide('ned', 'reject', made.id, { note: 'No' })).status).toBe(404)
    expect(await correctionRow(made.id)).toMatchObject({ status: 'pending', decidedBy: null, decidedAt: null })
    expect(await rawRecord(record.id)).toEqual(raw)
    // withdrawn by its author: cancelled, decided by ann's account
    const cancelled = await as('ann', 'POST', `/api/v1/attendance/corrections/${made.id}/cancel`)
    expect(cancelled.body).toEqual(
      ok({ ...made, status: 'cancelled', decided_by: { id: userIds.ann, name: 'ann' }, decided_at: stamp(), updated_at: stamp() }, 'Correction cancelled'),
    )
    expect(await rawRecord(record.id)).toEqual(raw)
    tick()
  })

  test('a holder of approvals:manage with no employee record decides; an administrator never its own', async () => {
    const absent = (await recordOf('ben', '2024-03-08'))!
    expect(absent).toMatchObject({ status: 3, clock_in_time: null })
    const times = { clock_in_time: instant('2024-03-08T09:00'), clock_out_time: instant('2024-03-08T18:45') }
    const made = await ask('ben', '2024-03-08', times)
    const reply = await decide('hr', 'approve', made.id)
    const after = (await recordOf('ben', '2024-03-08'))!
    expect(reply.body).toEqual(
      ok(
        {
          ...made,
          status: 'approved',
          record_id: absent.id,
          before: snapshot(absent),
          after: snapshot(after),
          decided_by: { id: userIds.hr, name: 'hrx' },
          decided_at: stamp(),
          decision_note: null,
          updated_at: stamp(),
        },
        'Request approved',
      ),
    )
    // 09:00 → 18:45 = 585 − 60 = 525 min = 8.75 h; 45 past 18:00
    expect(figures(after)).toEqual(figured(0, 0, 0, 8.75, 45, '2024-03-08T09:00:00', '2024-03-08T18:45:00', true))
    expect(after.id).toBe(absent.id)
    tick()

    // ada is the administrator's employee record: it holds approvals:manage, and still not for its own
    const own = await ask('admin', '2024-03-08', { clock_in_time: instant('2024-03-08T09:00'), clock_out_time: instant('2024-03-08T18:00') })
    expect(own).toMatchObject({ employee_id: ids.ada, approver: person('mia'), status: 'pending' })
    expect((await decide('admin', 'approve', own.id)).body).toEqual(failure(403, `${named(own)} is your own: nobody decides their own request`))
    expect((await as('admin', 'POST', `/api/v1/attendance/corrections/${own.id}/cancel`)).body.data.status).toBe('cancelled')
    tick()
  })

  test('unknown corrections → 404', async () => {
    expect((await decide('hr', 'approve', 9999)).body).toEqual(failure(404, 'Correction 9999 does not exist'))
    expect((await decide('hr', 'reject', 9999, { note: 'No' })).body).toEqual(failure(404, 'Correction 9999 does not exist'))
  })
})

describe('the approvals inbox', () => {
  const pagination = (total: number, page_size = 10, current_page = 1) => {
    const total_pages = Math.ceil(total / page_size)
    return { current_page, page_size, total_items: total, total_pages, has_next: current_page < total_pages, has_prev: current_page > 1 }
  }
  const correctionItem = (request: Json & { id: number }, summary: string) => ({
    kind: 'correction',
    id: request.id,
    employee: request.employee,
    created_at: request.created_at,
    summary,
    request,
  })
  const leaveItem = (request: Json & { id: number }, summary: string) => ({
    kind: 'leave',
    id: request.id,
    employee: request.employee,
    created_at: request.created_at,
    summary,
    request,
  })

  test('corrections come as kind correction with a summary, mixed with leave (oldest first) when kind is omitted', async () => {
    const leave = await as('ben', 'POST', '/api/v1/leave/requests', { type_id: 1, start_date: '2024-03-20', end_date: '2024-03-20', reason: 'Move' })
    expect(leave.status).toBe(201)
    tick()
    const ann = await ask('ann', '2024-03-12', { clock_in_time: instant('2024-03-12T08:45') })
    const ned = await ask('ned', '2024-03-11', { clock_in_time: instant('2024-03-11T22:00'), clock_out_time: instant('2024-03-12T06:10') })
    expect(ned).toMatchObject({ record_id: null, before: null, approver: person('mia') })

    const items = [
      leaveItem(leave.body.data, 'Annual leave, 2024-03-20 (1 day)'),
      correctionItem(ann, 'Correction of 2024-03-12: clock-in 08:45'),
      correctionItem(ned, 'Correction of 2024-03-11: clock-in 22:00, clock-out 06:10 on 2024-03-12'),
    ]
    const inbox = async (who: string, query = '') => (await as(who, 'GET', `/api/v1/approvals${query}`)).body
    expect(await inbox('mia')).toEqual(ok({ items, pagination: pagination(3) }))
    expect(await inbox('mia', '?kind=correction')).toEqual(ok({ items: items.slice(1), pagination: pagination(2) }))
    expect(await inbox('mia', '?kind=correction&status=pending')).toEqual(ok({ items: items.slice(1), pagination: pagination(2) }))
    expect(await inbox('mia', '?kind=leave')).toEqual(ok({ items: items.slice(0, 1), pagination: pagination(1) }))
    expect(await inbox('mia', '?page_size=2')).toEqual(ok({ items: items.slice(0, 2), pagination: pagination(3, 2) }))
    expect(await inbox('mia', '?page_size=2&page=2')).toEqual(ok({ items: items.slice(2), pagination: pagination(3, 2, 2) }))
    expect(await inbox('hr')).toEqual(ok({ items, pagination: pagination(3) }))
    expect(await inbox('admin')).toEqual(ok({ items, pagination: pagination(3) }))
    // nobody sees their own, and ann and ben decide nothing
    expect(await inbox('ann')).toEqual(ok({ items: [], pagination: pagination(0) }))
    expect(await inbox('ben', '?kind=correction')).toEqual(ok({ items: [], pagination: pagination(0) }))

    // the history: approved corrections mia may decide, oldest first
    const history = (await inbox('mia', '?kind=correction&status=approved&page_size=100')).data
    expect(history.items.map((item: { summary: string }) => item.summary)).toEqual([
      'Correction of 2024-03-04: clock-out 06:30 on 2024-03-05',
      'Correction of 2024-03-05: clock-in 08:58',
      'Correction of 2024-03-06: clock-in 10:00, clock-out 15:30',
      'Correction of 2024-03-07: clock-in 13:05, clock-out 18:00',
      'Correction of 2024-03-08: clock-in 09:00, clock-out 18:00',
      'Correction of 2024-03-11: clock-out 18:00',
      'Correction of 2024-03-08: clock-in 09:00, clock-out 18:45',
    ])
    expect(history.pagination).toEqual(pagination(7, 100))

    // withdrawn: the inbox empties
    expect((await as('ann', 'POST', `/api/v1/attendance/corrections/${ann.id}/cancel`)).status).toBe(200)
    expect((await as('ned', 'POST', `/api/v1/attendance/corrections/${ned.id}/cancel`)).status).toBe(200)
    expect((await as('ben', 'POST', `/api/v1/leave/requests/${leave.body.data.id}/cancel`)).status).toBe(200)
    expect(await inbox('mia')).toEqual(ok({ items: [], pagination: pagination(0) }))
    tick()
  })
})

describe('requesting: the rules of §11', () => {
  // today is 2024-03-15, 12:00:xx in Shanghai; ann has no record on the 13th and 14th
  const EARLIEST = '2024-02-13'
  const range = `must be from ${EARLIEST} to today (${TODAY}, Asia/Shanghai)`
  const refusals: [string, Json, () => unknown][] = [
    ['a work date in the future', { work_date: '2024-03-16', clock_in_time: instant('2024-03-15T09:00') }, () => refused('work_date', range)],
    ['a work date 32 days back', { work_date: '2024-02-12', clock_in_time: instant('2024-02-12T09:00') }, () => refused('work_date', range)],
    ['a work date that is no real date', { work_date: '2024-02-30', clock_in_time: instant('2024-03-01T09:00') }, () => refused('work_date', '"2024-02-30" is not a real date')],
    ['no time at all', { work_date: '2024-03-13' }, () => refused('clock_in_time', 'or clock_out_time is required: give at least one time to correct')],
    [
      'a clock-in on another local date (23:30 the day before)',
      { work_date: '2024-03-13', clock_in_time: instant('2024-03-12T23:30') },
      () => refused('clock_in_time', `must fall on 2024-03-13 in Asia/Shanghai; ${local('2024-03-12T23:30:00')} is on 2024-03-12 there`),
    ],
    [
      'a clock-in on the next local date',
      { work_date: '2024-03-13', clock_in_time: instant('2024-03-14T00:00') },
      () => refused('clock_in_time', `must fall on 2024-03-13 in Asia/Shanghai; ${local('2024-03-14T00:00:00')} is on 2024-03-14 there`),
    ],
    [
      'a clock-out equal to the clock-in',
      { work_date: '2024-03-13', clock_in_time: instant('2024-03-13T09:00'), clock_out_time: instant('2024-03-13T09:00') },
      () => refused('clock_out_time', `must be after the clock-in (${local('2024-03-13T09:00:00')})`),
    ],
    [
      'a clock-out before the clock-in',
      { work_date: '2024-03-13', clock_in_time: instant('2024-03-13T09:00'), clock_out_time: instant('2024-03-13T08:00') },
      () => refused('clock_out_time', `must be after the clock-in (${local('2024-03-13T09:00:00')})`),
    ],
    [
      'a clock-out 24 hours and a minute after the clock-in',
      { work_date: '2024-03-13', clock_in_time: instant('2024-03-13T09:00'), clock_out_time: instant('2024-03-14T09:01') },
      () => refused('clock_out_time', `must be at most 24 hours after the clock-in (${local('2024-03-13T09:00:00')})`),
    ],
    [
      'a clock-out in the future',
      { work_date: TODAY, clock_in_time: instant(`${TODAY}T09:00`), clock_out_time: instant(`${TODAY}T18:00`) },
      () => refused('clock_out_time', 'must not be in the future'),
    ],
    ['a clock-in in the future', { work_date: TODAY, clock_in_time: instant(`${TODAY}T13:00`) }, () => refused('clock_in_time', 'must not be in the future')],
    [
      'a clock-out alone on a date with no record',
      { work_date: '2024-03-13', clock_out_time: instant('2024-03-13T18:00') },
      () => refused('clock_in_time', 'is required: the record of 2024-03-13 has no clock-in to go with the clock-out'),
    ],
    [
      'a clock-out alone before the record’s clock-in',
      { work_date: '2024-03-12', clock_out_time: instant('2024-03-12T08:00') },
      () => refused('clock_out_time', `must be after the clock-in (${local('2024-03-12T08:55:00')})`),
    ],
    [
      'the record’s own times: nothing to change',
      { work_date: '2024-03-12', clock_in_time: instant('2024-03-12T08:55'), clock_out_time: instant('2024-03-12T18:05') },
      () =>
        failure(400, 'The record of 2024-03-12 already has these times: there is nothing to correct', {
          errors: [{ field: 'clock_in_time', message: 'and clock_out_time are the record’s already' }],
        }),
    ],
    [
      'the record’s own clock-in alone: nothing to change',
      { work_date: '2024-03-12', clock_in_time: instant('2024-03-12T08:55') },
      () =>
        failure(400, 'The record of 2024-03-12 already has these times: there is nothing to correct', {
          errors: [{ field: 'clock_in_time', message: 'and clock_out_time are the record’s already' }],
        }),
    ],
    ['a blank reason', { work_date: '2024-03-13', clock_in_time: instant('2024-03-13T09:00'), reason: '  ' }, () => refused('reason', 'must not be blank')],
  ]

  test.each(refusals)('%s → 400, nothing stored', async (_, body, expected) => {
    const rows = await tableRows(t)
    const reply = await as('ann', 'POST', '/api/v1/attendance/corrections', { reason: 'Forgot', ...body })
    expect(reply.body).toEqual(expected())
    expect(await tableRows(t)).toEqual(rows)
  })

  test('the same refusals in Chinese: whole messages and each field’s', async () => {
    const post = (body: Json) => inChinese('ann', 'POST', '/api/v1/attendance/corrections', { reason: 'Forgot', ...body })
    const refusedInChinese = (field: string, message: string) => failure(400, `${field}：${message}`, { errors: [{ field, message }] })
    expect((await post({ work_date: '2024-03-16', clock_in_time: instant('2024-03-15T09:00') })).body).toEqual(
      refusedInChinese('work_date', `必须在 ${EARLIEST} 到今天（${TODAY}，Asia/Shanghai）之间`),
    )
    expect((await post({ work_date: '2024-03-13' })).body).toEqual(refusedInChinese('clock_in_time', '与 clock_out_time 至少须填写一个；请给出要更正的时间'))
    expect((await post({ work_date: '2024-03-13', clock_in_time: instant('2024-03-13T09:00'), clock_out_time: instant('2024-03-13T08:00') })).body).toEqual(
      refusedInChinese('clock_out_time', `必须晚于上班打卡时间（${local('2024-03-13T09:00:00')}）`),
    )
    expect((await post({ work_date: '2024-03-13', clock_in_time: instant('2024-03-12T23:30') })).body).toEqual(
      refusedInChinese('clock_in_time', `必须在 Asia/Shanghai 时区的 2024-03-13 当天；${local('2024-03-12T23:30:00')} 在该时区是 2024-03-12`),
    )
    expect((await post({ work_date: '2024-03-12', clock_in_time: instant('2024-03-12T08:55') })).body).toEqual(
      failure(400, '2024-03-12 的记录已是这些时间：没有需要更正的内容', { errors: [{ field: 'clock_in_time', message: '与 clock_out_time 已与记录一致' }] }),
    )
    expect((await post({ work_date: '2024-03-13', clock_in_time: instant('2024-03-13T09:00'), reason: '  ' })).body).toEqual(refusedInChinese('reason', '不能为空'))
  })

  test('malformed bodies → 400 naming the field, nothing stored', async () => {
    const rows = await tableRows(t)
    const post = (body: unknown) => as('ann', 'POST', '/api/v1/attendance/corrections', body)
    const missingReason = await post({ work_date: '2024-03-13', clock_in_time: instant('2024-03-13T09:00') })
    expect(missingReason.status).toBe(400)
    expect(missingReason.body.errors.map((e: { field: string }) => e.field)).toEqual(['reason'])
    const notAnInstant = await post({ work_date: '2024-03-13', clock_in_time: 'yesterday at nine', reason: 'x' })
    expect(notAnInstant.status).toBe(400)
    expect(notAnInstant.body.errors.map((e: { field: string }) => e.field)).toEqual(['clock_in_time'])
    const badDate = await post({ work_date: '13/03/2024', clock_in_time: instant('2024-03-13T09:00'), reason: 'x' })
    expect(badDate.status).toBe(400)
    expect(badDate.body.errors.map((e: { field: string }) => e.field)).toEqual(['work_date'])
    expect(await tableRows(t)).toEqual(rows)
  })

  test('exactly 31 days back is accepted; a clock-out exactly 24 hours after the clock-in too', async () => {
    const times = { clock_in_time: instant(`${EARLIEST}T09:00`), clock_out_time: instant('2024-02-14T09:00') }
    const reply = await as('ann', 'POST', '/api/v1/attendance/corrections', { work_date: EARLIEST, ...times, reason: 'Long shift' })
    expect(reply.body).toEqual(ok(requested('ann', reply.body.data.id, EARLIEST, times, 'Long shift', null), 'Correction requested'))
    expect((await as('ann', 'POST', `/api/v1/attendance/corrections/${reply.body.data.id}/cancel`)).status).toBe(200)
    tick()
  })

  test('one pending correction per date (409); after cancelling it a new one is accepted', async () => {
    const first = await ask('ann', '2024-03-13', { clock_in_time: instant('2024-03-13T09:00'), clock_out_time: instant('2024-03-13T18:00') })
    const rows = await tableRows(t)
    const second = await as('ann', 'POST', '/api/v1/attendance/corrections', { work_date: '2024-03-13', clock_in_time: instant('2024-03-13T08:00'), reason: 'Again' })
    expect(second.body).toEqual(failure(409, 'A correction of 2024-03-13 is already pending; cancel it or wait for the decision'))
    const secondInChinese = await inChinese('ann', 'POST', '/api/v1/attendance/corrections', { work_date: '2024-03-13', clock_in_time: instant('2024-03-13T08:00'), reason: 'Again' })
    expect(secondInChinese.body).toEqual(failure(409, '2024-03-13 已有一条待审批的考勤更正；请先取消，或等待审批结果'))
    expect(await tableRows(t)).toEqual(rows)
    // another date, or another employee's same date, is free
    const other = await ask('ben', '2024-03-13', { clock_in_time: instant('2024-03-13T09:00') })

    // someone else's correction is not theirs to know of; a decided one cannot be cancelled
    expect((await as('ben', 'POST', `/api/v1/attendance/corrections/${first.id}/cancel`)).body).toEqual(failure(404, `Correction ${first.id} does not exist`))
    expect((await as('hr', 'POST', `/api/v1/attendance/corrections/${first.id}/cancel`)).status).toBe(403)
    expect((await as('ann', 'POST', '/api/v1/attendance/corrections/9999/cancel')).body).toEqual(failure(404, 'Correction 9999 does not exist'))
    expect((await correctionRow(first.id)).status).toBe('pending')

    const cancelled = await as('ann', 'POST', `/api/v1/attendance/corrections/${first.id}/cancel`)
    expect(cancelled.body).toEqual(
      ok({ ...first, status: 'cancelled', decided_by: { id: userIds.ann, name: 'ann' }, decided_at: stamp(), updated_at: stamp() }, 'Correction cancelled'),
    )
    expect((await as('ann', 'POST', `/api/v1/attendance/corrections/${first.id}/cancel`)).body).toEqual(
      failure(409, "ann's correction of 2024-03-13 is cancelled; only a pending one can be cancelled"),
    )
    expect(await auditOf('attendance_correction.cancel', first.id)).toHaveLength(1)
    tick()
    const again = await ask('ann', '2024-03-13', { clock_in_time: instant('2024-03-13T08:00') }, 'Again')
    expect(again.status).toBe('pending')
    for (const [who, id] of [
      ['ann', again.id],
      ['ben', other.id],
    ] as const)
      expect((await as(who, 'POST', `/api/v1/attendance/corrections/${id}/cancel`)).status).toBe(200)
    tick()
  })

  test('an account without an employee record → 403', async () => {
    const rows = await tableRows(t)
    const body = { work_date: '2024-03-13', clock_in_time: instant('2024-03-13T09:00'), reason: 'x' }
    const message = 'Your account is not linked to an employee, so it has no attendance; ask an administrator to link it'
    expect((await as('hr', 'POST', '/api/v1/attendance/corrections', body)).body).toEqual(failure(403, message))
    expect((await as('hr', 'GET', '/api/v1/attendance/corrections')).body).toEqual(failure(403, message))
    expect((await inChinese('hr', 'GET', '/api/v1/attendance/corrections')).body).toEqual(failure(403, '您的账号未关联员工，因此没有考勤记录；请联系管理员关联'))
    expect(await tableRows(t)).toEqual(rows)
    expect((await req(t.app, 'POST', '/api/v1/attendance/corrections', { body })).status).toBe(401)
  })
})

describe('the administrator’s direct correction (PUT /admin/attendance/records/{id})', () => {
  test('refusals: no reason, no time, unknown record, one’s own record, times that do not fit, nothing to change; nothing stored', async () => {
    const record = (await recordOf('ben', '2024-03-12'))!
    const own = (await recordOf('ada', '2024-03-08'))!
    const rows = await tableRows(t)
    const put = (id: number, body: unknown) => adminReq('PUT', `/api/v1/admin/attendance/records/${id}`, body)
    const noReason = await put(record.id, { clock_out_time: instant('2024-03-12T19:00') })
    expect(noReason.status).toBe(400)
    expect(noReason.body.errors.map((e: { field: string }) => e.field)).toEqual(['reason'])
    expect((await put(record.id, { clock_out_time: instant('2024-03-12T19:00'), reason: ' ' })).body).toEqual(refused('reason', 'must not be blank'))
    expect((await put(record.id, { reason: 'Gate log' })).body).toEqual(
      refused('clock_in_time', 'or clock_out_time is required: give at least one time to correct'),
    )
    expect((await put(9999, { clock_out_time: instant('2024-03-12T19:00'), reason: 'Gate log' })).body).toEqual(
      failure(404, 'Attendance record 9999 does not exist'),
    )
    expect((await put(own.id, { clock_in_time: instant('2024-03-08T09:00'), reason: 'Mine' })).body).toEqual(
      failure(403, `Attendance record ${own.id} is your own: request a correction for your manager to decide`),
    )
    expect((await inChinese('admin', 'PUT', `/api/v1/admin/attendance/records/${own.id}`, { clock_in_time: instant('2024-03-08T09:00'), reason: 'Mine' })).body).toEqual(
      failure(403, `第 ${own.id} 号考勤记录是您自己的：请提交考勤更正申请，由您的上级审批`),
    )
    expect((await put(record.id, { clock_out_time: instant('2024-03-12T08:00'), reason: 'Gate log' })).body).toEqual(
      refused('clock_out_time', `must be after the clock-in (${local('2024-03-12T09:00:00')})`),
    )
    expect((await put(record.id, { clock_in_time: instant('2024-03-12T09:00'), reason: 'Gate log' })).body).toEqual(
      failure(400, 'The record of 2024-03-12 already has these times: there is nothing to correct', {
        errors: [{ field: 'clock_in_time', message: 'and clock_out_time are the record’s already' }],
      }),
    )
    expect(await tableRows(t)).toEqual(rows)
    // an employee without attendance_records:update
    expect((await as('mia', 'PUT', `/api/v1/admin/attendance/records/${record.id}`, { clock_out_time: instant('2024-03-12T19:00'), reason: 'x' })).status).toBe(403)
  })

  test('409 while the employee’s correction of that date is pending', async () => {
    const record = (await recordOf('ben', '2024-03-12'))!
    const raw = await rawRecord(record.id)
    const pending = await ask('ben', '2024-03-12', { clock_out_time: instant('2024-03-12T18:20') })
    const reply = await adminReq('PUT', `/api/v1/admin/attendance/records/${record.id}`, { clock_out_time: instant('2024-03-12T19:00'), reason: 'Gate log' })
    expect(reply.body).toEqual(failure(409, 'A correction of 2024-03-12 is already pending; cancel it or wait for the decision'))
    expect(await rawRecord(record.id)).toEqual(raw)
    expect((await as('ben', 'POST', `/api/v1/attendance/corrections/${pending.id}/cancel`)).status).toBe(200)
    tick()
  })

  test('recomputes at once, keeps an approved correction the employee sees, audits attendance_record.correct', async () => {
    const before = (await recordOf('ben', '2024-03-12'))!
    const reason = 'The gate log shows 19:10'
    const reply = await adminReq('PUT', `/api/v1/admin/attendance/records/${before.id}`, { clock_out_time: instant('2024-03-12T19:10'), reason })
    const after = (await adminReq('GET', `/api/v1/admin/attendance/records/${before.id}`)).body.data
    // the answer is the record (without its rule)
    expect(reply.body).toEqual(ok({ ...after, rule: undefined }, 'Record corrected'))
    expect(reply.body.data).not.toHaveProperty('rule')
    // 09:00 → 19:10 = 610 − 60 = 550 min = 9.17 h; 70 minutes past 18:00
    expect(figures(after)).toEqual(figured(0, 0, 0, 9.17, 70, '2024-03-12T09:00:00', '2024-03-12T19:10:00', true))
    expect(after).toMatchObject({ id: before.id, updated_at: stamp(), employee: { id: ids.ben, name: 'ben', phone: null } })

    const list = await as('ben', 'GET', '/api/v1/attendance/corrections?status=approved')
    const kept = list.body.data.corrections[0]
    expect(kept).toEqual({
      id: kept.id,
      employee_id: ids.ben,
      employee: person('ben'),
      work_date: '2024-03-12',
      timezone: 'Asia/Shanghai',
      clock_in_time: null,
      clock_out_time: local('2024-03-12T19:10:00'),
      reason,
      status: 'approved',
      record_id: before.id,
      before: snapshot(before),
      after: snapshot(after),
      approver: person('mia'),
      decided_by: { id: 1, name: adminName },
      decided_at: stamp(),
      decision_note: null,
      created_at: stamp(),
      updated_at: stamp(),
    })
    expect(list.body.data.pagination.total_items).toBe(2)
    const audit = await auditOf('attendance_record.correct', before.id)
    expect(audit.map((entry) => ({ actor: entry.actorId, resource: entry.resource, before: entry.before, after: entry.after }))).toEqual([
      { actor: 1, resource: 'attendance_record', before: snapshot(before), after: { ...snapshot(after), reason, correction_id: kept.id } },
    ])
    // kept approved, asked and decided by the administrator: nothing is left pending
    expect(await correctionRow(kept.id)).toMatchObject({ status: 'approved', decidedBy: 1, createdBy: 1 })
    tick()
  })
})

describe('races', () => {
  test('20 correction requests of one date at once → one 201, 19 × 409, one pending row', async () => {
    const body = { work_date: '2024-03-12', clock_out_time: instant('2024-03-12T18:30'), reason: 'Stayed for the release' }
    const replies = await Promise.all(Array.from({ length: 20 }, () => as('zoe', 'POST', '/api/v1/attendance/corrections', body)))
    expect(replies.map((r) => r.status).sort()).toEqual([201, ...Array(19).fill(409)])
    for (const reply of replies.filter((r) => r.status === 409))
      expect(reply.body).toEqual(failure(409, 'A correction of 2024-03-12 is already pending; cancel it or wait for the decision'))
    const rows = await database().select().from(attendanceCorrections).where(eq(attendanceCorrections.employeeId, ids.zoe))
    expect(rows.map((row) => row.status)).toEqual(['pending'])
    expect(await auditOf('attendance_correction.create', rows[0].id)).toHaveLength(1)
  }, 20_000)

  test('approve and reject of one correction at once, on two instances → one 200, one 409; the record changed at most once', async () => {
    tick()
    const [pending] = await database()
      .select()
      .from(attendanceCorrections)
      .where(and(eq(attendanceCorrections.employeeId, ids.zoe), eq(attendanceCorrections.status, 'pending')))
    const record = (await recordOf('zoe', '2024-03-12'))!
    const raw = await rawRecord(record.id)
    const other = await startApp({ dir: t.dir, now: stamp() })
    try {
      const replies = await Promise.all([
        req(t.app, 'POST', `/api/v1/approvals/correction/${pending.id}/approve`, { token: tokens.mia, body: {} }),
        req(other.app, 'POST', `/api/v1/approvals/correction/${pending.id}/reject`, { token: tokens.hr, body: { note: 'No' } }),
      ])
      expect(replies.map((r) => r.status).sort()).toEqual([200, 409])
      const winner = replies.find((r) => r.status === 200)!.body.data.status
      expect((await correctionRow(pending.id)).status).toBe(winner)
      const decisions = [...(await auditOf('attendance_correction.approve', pending.id)), ...(await auditOf('attendance_correction.reject', pending.id))]
      expect(decisions).toHaveLength(1)
      if (winner === 'rejected') expect(await rawRecord(record.id)).toEqual(raw)
      else {
        // 09:00 → 18:30 = 570 − 60 = 510 min = 8.5 h; 30 past 18:00 reach the threshold
        expect(figures(await recordOf('zoe', '2024-03-12'))).toEqual(figured(0, 0, 0, 8.5, 30, '2024-03-12T09:00:00', '2024-03-12T18:30:00', true))
      }
      expect(await recordsOn('zoe', '2024-03-12')).toHaveLength(1)
    } finally {
      other.close()
    }
  })
})

describe('approval when the correction no longer fits → 409, still pending', () => {
  test('an overnight clock-in claimed for the early morning, then a real clock-out more than 24 hours after it', async () => {
    // Monday 18 March: ned asks for a clock-in at 05:50 (no record yet: accepted), then works the night shift for real
    at('2024-03-18T21:00:00')
    const times = { clock_in_time: instant('2024-03-18T05:50') }
    const made = await ask('ned', '2024-03-18', times, 'Came in early')
    expect(made).toMatchObject({ record_id: null, before: null, status: 'pending' })
    expect(await clock('ned', 'in', '2024-03-18T22:00:00')).toMatchObject({ work_date: '2024-03-18', status: 0 })
    expect(await clock('ned', 'out', '2024-03-19T06:30:00')).toMatchObject({ status: 0, work_hours: 8.5, overtime_minutes: 30 })
    const record = (await recordOf('ned', '2024-03-18'))!
    const raw = await rawRecord(record.id)

    at('2024-03-19T08:00:00')
    // with the record's clock-out (06:30 on the 19th) the 05:50 clock-in would make a shift of 24 h 40 min
    const reply = await decide('mia', 'approve', made.id)
    expect(reply.body).toEqual(
      failure(
        409,
        `ned's correction of 2024-03-18 no longer fits the record of that date: clock_out_time must be at most 24 hours after the clock-in ` +
          `(${local('2024-03-18T05:50:00')}). Reject it, and ask for a new one`,
      ),
    )
    expect(await correctionRow(made.id)).toMatchObject({ status: 'pending', decidedBy: null, recordId: null, after: null })
    expect(await rawRecord(record.id)).toEqual(raw)
    expect(await auditOf('attendance_correction.approve', made.id)).toEqual([])
    // rejecting it still works
    expect((await decide('mia', 'reject', made.id, { note: 'Ask again with the right time' })).body.data.status).toBe('rejected')
    expect(await rawRecord(record.id)).toEqual(raw)
  })

  test('a date with no record whose rule was disabled meanwhile: nothing to judge it by → 409 until it is enabled again', async () => {
    const times = { clock_in_time: instant('2024-03-14T09:00'), clock_out_time: instant('2024-03-14T18:00') }
    const made = await ask('ann', '2024-03-14', times)
    expect((await adminReq('PUT', '/api/v1/admin/attendance/rules/1', { status: 0 })).status).toBe(200)
    const reply = await decide('mia', 'approve', made.id)
    expect(reply.body).toEqual(
      failure(
        409,
        `ann's correction of 2024-03-14 no longer fits the record of that date: The attendance group "Office" has no enabled rule to judge 2024-03-14 by; ` +
          'ask an administrator to add one. Reject it, and ask for a new one',
      ),
    )
    expect((await correctionRow(made.id)).status).toBe('pending')
    expect(await recordsOn('ann', '2024-03-14')).toEqual([])

    expect((await adminReq('PUT', '/api/v1/admin/attendance/rules/1', { status: 1 })).status).toBe(200)
    tick()
    const approvedNow = await decide('mia', 'approve', made.id)
    expect(approvedNow.body.data).toMatchObject({ status: 'approved', before: null })
    expect(figures(await recordOf('ann', '2024-03-14'))).toEqual(figured(0, 0, 0, 8, 0, '2024-03-14T09:00:00', '2024-03-14T18:00:00', true))
  })
})
