import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { and, asc, eq, gt } from 'drizzle-orm'
import { attendanceRecords, auditLogs } from '../src/db/schema'
import { login, loginAdmin, makeUser, req, startApp, tableRows, type TestApp } from './helpers'

/*
 * CONTRACT §24, holidays in bulk (issue 27): `statutory` on calendar days, the presets shipped with
 * the release, and applying one to a company: the whole of the notice in one step, all or none, one
 * audit entry. "Today" is Tuesday 10 March 2026 in Asia/Shanghai, so the Spring Festival is past.
 */

const local = (dateTime: string) => new Date(`${dateTime}+08:00`).toISOString()

let t: TestApp
let admin: string
let employee: string
const ids = { ann: 0, company: 0, other: 0 }

const stamp = () => t.clock.now().toISOString()
const ok = (data: unknown, message = 'success') => ({ code: 200, message, data, timestamp: stamp() })
const failure = (code: number, message: string, extra: Record<string, unknown> = {}) => ({ code, message, data: null, timestamp: stamp(), ...extra })
const adminReq = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => req(t.app, method, path, { token: admin, body, headers })
const ZH = { 'accept-language': 'zh' }
const database = () => t.deps.database.db
const lastAuditId = async () => (await database().select({ id: auditLogs.id }).from(auditLogs).orderBy(asc(auditLogs.id))).at(-1)?.id ?? 0
const auditSince = (id: number) => database().select().from(auditLogs).where(gt(auditLogs.id, id)).orderBy(asc(auditLogs.id))

/*
 * 国务院办公厅关于2026年部分节假日安排的通知（国办发明电〔2025〕7号，2025-11-04）, as the notice words it:
 * the days off by festival, the make-up workdays, and the 13 statutory days of the year.
 */
const NOTICE_2026 = {
  off: [
    ['元旦', '01-01', '01-03'],
    ['春节', '02-15', '02-23'],
    ['清明节', '04-04', '04-06'],
    ['劳动节', '05-01', '05-05'],
    ['端午节', '06-19', '06-21'],
    ['中秋节', '09-25', '09-27'],
    ['国庆节', '10-01', '10-07'],
  ],
  work: [
    ['元旦调休上班', '01-04'],
    ['春节调休上班', '02-14'],
    ['春节调休上班', '02-28'],
    ['劳动节调休上班', '05-09'],
    ['国庆节调休上班', '09-20'],
    ['国庆节调休上班', '10-10'],
  ],
  statutory: ['01-01', '02-16', '02-17', '02-18', '02-19', '04-05', '05-01', '05-02', '06-19', '09-25', '10-01', '10-02', '10-03'],
} as const

/** The notice's days of 2026 as {date, kind, name, statutory}, by date. */
function noticeDays() {
  const days: { date: string; kind: 'holiday' | 'workday'; name: string; statutory: boolean }[] = []
  for (const [name, from, to] of NOTICE_2026.off)
    for (let day = new Date(`2026-${from}T00:00:00Z`); day <= new Date(`2026-${to}T00:00:00Z`); day.setUTCDate(day.getUTCDate() + 1)) {
      const date = day.toISOString().slice(0, 10)
      days.push({ date, kind: 'holiday', name, statutory: (NOTICE_2026.statutory as readonly string[]).includes(date.slice(5)) })
    }
  for (const [name, date] of NOTICE_2026.work) days.push({ date: `2026-${date}`, kind: 'workday', name, statutory: false })
  return days.sort((a, b) => a.date.localeCompare(b.date))
}

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

beforeAll(async () => {
  // Ann joins the group before the Spring Festival, so its days count as hers
  t = await startApp({ now: local('2026-01-05T09:00:00') })
  admin = await loginAdmin(t.app)
  ids.company = (await adminReq('POST', '/api/v1/admin/companies', { name: 'Acme', timezone: 'Asia/Shanghai' })).body.data.id
  ids.other = (await adminReq('POST', '/api/v1/admin/companies', { name: 'Beta', timezone: 'Asia/Shanghai' })).body.data.id
  const group = (await adminReq('POST', '/api/v1/admin/attendance/groups', { name: 'Office', company_id: ids.company })).body.data.id
  expect((await adminReq('POST', '/api/v1/admin/attendance/rules', { ...RULE, name: 'Office hours', group_id: group })).status).toBe(201)
  const created = await adminReq('POST', '/api/v1/admin/employees', { name: 'Ann', username: 'ann', password: 'ann-password-1', hire_date: '2026-01-05' })
  ids.ann = created.body.data.id
  expect((await adminReq('POST', `/api/v1/admin/attendance/groups/${group}/employees`, { employee_ids: [ids.ann] })).status).toBe(200)
  t.clock.set(local('2026-03-10T09:00:00'))
  admin = await loginAdmin(t.app)
  employee = await login(t.app, 'ann', 'ann-password-1')
})

afterAll(() => t.close())

describe('statutory, on holidays only', () => {
  const day = (date: string, kind: string, name: string, statutory: boolean, created = stamp(), updated = created) => ({
    company_id: ids.other,
    date,
    kind,
    name,
    statutory,
    created_at: created,
    updated_at: updated,
  })

  test('PUT takes statutory (left out: false); GET answers it for every day', async () => {
    const path = `/api/v1/admin/companies/${ids.other}/calendar`
    const created = stamp()
    expect((await adminReq('PUT', `${path}/2026-10-01`, { kind: 'holiday', name: '国庆节', statutory: true })).body).toEqual(
      ok(day('2026-10-01', 'holiday', '国庆节', true), 'Calendar day created'),
    )
    expect((await adminReq('PUT', `${path}/2026-10-04`, { kind: 'holiday', name: '国庆节' })).body).toEqual(
      ok(day('2026-10-04', 'holiday', '国庆节', false), 'Calendar day created'),
    )
    expect((await adminReq('PUT', `${path}/2026-10-10`, { kind: 'workday', name: '国庆节调休上班', statutory: false })).body).toEqual(
      ok(day('2026-10-10', 'workday', '国庆节调休上班', false), 'Calendar day created'),
    )
    // a replacement that leaves statutory out makes it false again
    t.clock.advance(60_000)
    expect((await adminReq('PUT', `${path}/2026-10-01`, { kind: 'holiday', name: 'National Day' })).body).toEqual(
      ok(day('2026-10-01', 'holiday', 'National Day', false, created, stamp()), 'Calendar day replaced'),
    )
    expect((await adminReq('PUT', `${path}/2026-10-01`, { kind: 'holiday', name: '国庆节', statutory: true })).status).toBe(200)
    expect((await adminReq('GET', `${path}?year=2026`)).body).toEqual(
      ok({
        days: [
          day('2026-10-01', 'holiday', '国庆节', true, created, stamp()),
          day('2026-10-04', 'holiday', '国庆节', false, created),
          day('2026-10-10', 'workday', '国庆节调休上班', false, created),
        ],
      }),
    )
  })

  test('statutory true on a workday → 400 naming the field, in English and Chinese; nothing changes', async () => {
    const before = await tableRows(t)
    const path = `/api/v1/admin/companies/${ids.other}/calendar`
    expect((await adminReq('PUT', `${path}/2026-10-11`, { kind: 'workday', name: 'x', statutory: true })).body).toEqual(
      failure(400, 'statutory can be true only for a holiday, not for a make-up workday', {
        errors: [{ field: 'statutory', message: 'can be true only for a holiday, not for a make-up workday' }],
      }),
    )
    // turning a statutory holiday into a workday must say statutory: false (left out, it is)
    expect((await adminReq('PUT', `${path}/2026-10-01`, { kind: 'workday', name: 'x', statutory: true }, ZH)).body).toEqual(
      failure(400, 'statutory：只有节假日才能设为 true，调休上班日不能设为法定节假日', {
        errors: [{ field: 'statutory', message: '只有节假日才能设为 true，调休上班日不能设为法定节假日' }],
      }),
    )
    expect((await adminReq('PUT', `${path}/2026-10-11`, { kind: 'holiday', name: 'x', statutory: 'yes' })).body).toEqual(
      failure(400, 'Invalid request: statutory must be a boolean', { errors: [{ field: 'statutory', message: 'must be a boolean' }] }),
    )
    const importing = (days: unknown, headers?: Record<string, string>) => adminReq('POST', `${path}/import`, { days }, headers)
    const days = [
      { date: '2026-10-02', kind: 'holiday', name: '国庆节', statutory: true },
      { date: '2026-10-11', kind: 'workday', name: 'x', statutory: true },
      { date: '2026-10-12', kind: 'holiday', name: ' ' },
    ]
    expect((await importing(days)).body).toEqual(
      failure(400, 'Nothing was imported: days[1].statutory can be true only for a holiday, not for a make-up workday; days[2].name must not be blank', {
        errors: [
          { field: 'days[1].statutory', message: 'can be true only for a holiday, not for a make-up workday' },
          { field: 'days[2].name', message: 'must not be blank' },
        ],
      }),
    )
    expect((await importing(days, ZH)).body).toEqual(
      failure(400, '未导入任何日期：days[1].statutory：只有节假日才能设为 true，调休上班日不能设为法定节假日；days[2].name：不能为空', {
        errors: [
          { field: 'days[1].statutory', message: '只有节假日才能设为 true，调休上班日不能设为法定节假日' },
          { field: 'days[2].name', message: '不能为空' },
        ],
      }),
    )
    expect(await tableRows(t)).toEqual(before)
  })

  test('the import takes statutory per day (left out: false), and replaces it', async () => {
    const path = `/api/v1/admin/companies/${ids.other}/calendar`
    const reply = await adminReq('POST', `${path}/import`, {
      days: [
        { date: '2026-10-01', kind: 'holiday', name: '国庆节' },
        { date: '2026-10-02', kind: 'holiday', name: '国庆节', statutory: true },
      ],
    })
    expect(reply.body).toEqual(ok({ imported: 2 }, 'Calendar imported'))
    const year = (await adminReq('GET', `${path}?year=2026`)).body.data.days
    expect(year.map((d: { date: string; statutory: boolean }) => [d.date, d.statutory])).toEqual([
      ['2026-10-01', false],
      ['2026-10-02', true],
      ['2026-10-04', false],
      ['2026-10-10', false],
    ])
  })

  test('the other refusals of the calendar, in Chinese', async () => {
    expect((await adminReq('DELETE', `/api/v1/admin/companies/${ids.other}/calendar/2026-01-09`, undefined, ZH)).body).toEqual(
      failure(404, `公司 ${ids.other} 的日历中没有 2026-01-09 这一天`),
    )
    expect((await adminReq('GET', '/api/v1/admin/companies/99/calendar', undefined, ZH)).body).toEqual(failure(404, '公司 99 不存在'))
    expect((await adminReq('PUT', `/api/v1/admin/companies/${ids.other}/calendar/2026-02-30`, { kind: 'holiday', name: 'x' }, ZH)).body).toEqual(
      failure(400, 'date“2026-02-30”不是真实存在的日期', { errors: [{ field: 'date', message: '“2026-02-30”不是真实存在的日期' }] }),
    )
    expect((await adminReq('PUT', `/api/v1/admin/companies/${ids.other}/calendar/2026-1-05`, { kind: 'holiday', name: 'x' }, ZH)).body).toEqual(
      failure(400, '请求无效：date：必须是 YYYY-MM-DD 格式的日期', { errors: [{ field: 'date', message: '必须是 YYYY-MM-DD 格式的日期' }] }),
    )
    expect((await adminReq('PUT', `/api/v1/admin/companies/${ids.other}/calendar/2026-10-05`, { kind: 'off', name: 'x' }, ZH)).body).toEqual(
      failure(400, '请求无效：kind：必须是 "holiday"（节假日）或 "workday"（调休上班日）', {
        errors: [{ field: 'kind', message: '必须是 "holiday"（节假日）或 "workday"（调休上班日）' }],
      }),
    )
    const saved = await adminReq('PUT', `/api/v1/admin/companies/${ids.other}/calendar/2026-10-05`, { kind: 'holiday', name: '国庆节' }, ZH)
    expect([saved.status, saved.body.message]).toEqual([201, '已添加日历日期'])
  })
})

describe('the presets shipped with the release', () => {
  const file = (id: string) => JSON.parse(readFileSync(join(import.meta.dir, '..', 'src', 'modules', 'calendar', 'presets', `${id}.json`), 'utf8'))

  test('GET /api/v1/admin/calendar-presets lists them by id, each with its source and days', async () => {
    const reply = await adminReq('GET', '/api/v1/admin/calendar-presets')
    expect(reply.body).toEqual(ok({ presets: [file('cn-2025'), file('cn-2026')] }))
    const [, cn2026] = reply.body.data.presets
    expect({ ...cn2026, days: undefined }).toEqual({
      id: 'cn-2026',
      country: 'CN',
      year: 2026,
      source: {
        title: '国务院办公厅关于2026年部分节假日安排的通知',
        number: '国办发明电〔2025〕7号',
        published: '2025-11-04',
        url: 'https://politics.gmw.cn/2025-11/04/content_38391083.htm',
      },
      days: undefined,
    })
    // the notice, day by day
    expect(cn2026.days).toEqual(noticeDays())
  })

  test('calendar:read lists them; an employee gets 403 for the list and the apply', async () => {
    expect((await req(t.app, 'GET', '/api/v1/admin/calendar-presets', { token: employee })).body).toEqual(
      failure(403, 'Your roles do not grant the permission calendar:read; ask an administrator for it'),
    )
    expect((await req(t.app, 'POST', `/api/v1/admin/companies/${ids.company}/calendar/apply-preset`, { token: employee, body: { preset_id: 'cn-2026' } })).body).toEqual(
      failure(403, 'Your roles do not grant the permission calendar:update; ask an administrator for it'),
    )
  })
})

describe('applying a preset', () => {
  const path = () => `/api/v1/admin/companies/${ids.company}/calendar`

  test('an unknown preset or company → 404 naming what was sent, in English and Chinese; nothing changes', async () => {
    const before = await tableRows(t)
    expect((await adminReq('POST', `${path()}/apply-preset`, { preset_id: 'cn-1999' })).body).toEqual(
      failure(404, 'There is no calendar preset "cn-1999"; GET /api/v1/admin/calendar-presets lists them'),
    )
    expect((await adminReq('POST', `${path()}/apply-preset`, { preset_id: 'cn-1999' }, ZH)).body).toEqual(
      failure(404, '没有日历预设“cn-1999”；可用的预设请见 GET /api/v1/admin/calendar-presets'),
    )
    expect((await adminReq('POST', '/api/v1/admin/companies/99/calendar/apply-preset', { preset_id: 'cn-2026' })).body).toEqual(
      failure(404, 'Company 99 does not exist'),
    )
    expect((await adminReq('POST', `${path()}/apply-preset`, { preset_id: '' })).body).toEqual(
      failure(400, 'Invalid request: preset_id must be at least 1 character long', { errors: [{ field: 'preset_id', message: 'must be at least 1 character long' }] }),
    )
    expect((await adminReq('POST', `${path()}/apply-preset`, {})).body).toEqual(
      failure(400, 'Invalid request: preset_id is required', { errors: [{ field: 'preset_id', message: 'is required' }] }),
    )
    expect(await tableRows(t)).toEqual(before)
  })

  test('all or none: a failure inside the change (here the audit entry refused) leaves the calendar, the absences and the audit log as they were', async () => {
    // Monday 16 February, a statutory day: closed before anyone marked it, so Ann is absent
    expect((await adminReq('POST', '/api/v1/admin/attendance/close-day', { date: '2026-02-16' })).status).toBe(200)
    expect((await adminReq('POST', '/api/v1/admin/attendance/close-day', { date: '2026-02-17' })).status).toBe(200)
    const absences = await database().select().from(attendanceRecords).where(eq(attendanceRecords.employeeId, ids.ann)).orderBy(asc(attendanceRecords.workDate))
    expect(absences.map((row) => [row.workDate, row.status])).toEqual([
      ['2026-02-16', 3],
      ['2026-02-17', 3],
    ])
    const { client } = t.deps.database
    await client.execute(
      `CREATE TRIGGER refuse_calendar_audit BEFORE INSERT ON audit_logs WHEN NEW.resource = 'company_calendar' BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`,
    )
    try {
      const before = await tableRows(t)
      const reply = await adminReq('POST', `${path()}/apply-preset`, { preset_id: 'cn-2026' })
      expect(reply.body).toEqual(failure(500, 'Internal server error; the failure was logged'))
      expect(await tableRows(t)).toEqual(before)
    } finally {
      await client.execute('DROP TRIGGER refuse_calendar_audit')
    }
  })

  test('cn-2026 in one step: the calendar is exactly the notice’s (other dates kept), past absences on its holidays go, one audit entry', async () => {
    // what the company had: a date the notice also has (replaced), and one it has not (kept)
    const earlier = stamp()
    expect((await adminReq('PUT', `${path()}/2026-10-01`, { kind: 'holiday', name: 'Founders day' })).status).toBe(201)
    expect((await adminReq('PUT', `${path()}/2026-12-25`, { kind: 'holiday', name: 'Christmas' })).status).toBe(201)
    const absences = await database()
      .select()
      .from(attendanceRecords)
      .where(and(eq(attendanceRecords.employeeId, ids.ann), eq(attendanceRecords.status, 3)))
      .orderBy(asc(attendanceRecords.workDate))
    expect(absences).toHaveLength(2)

    t.clock.advance(60_000)
    const since = await lastAuditId()
    const reply = await adminReq('POST', `${path()}/apply-preset`, { preset_id: 'cn-2026' })
    expect(reply.body).toEqual(ok({ imported: 39 }, 'Calendar preset applied'))

    const row = (day: ReturnType<typeof noticeDays>[number]) => ({
      company_id: ids.company,
      ...day,
      created_at: day.date === '2026-10-01' ? earlier : stamp(),
      updated_at: stamp(),
    })
    const christmas = { company_id: ids.company, date: '2026-12-25', kind: 'holiday', name: 'Christmas', statutory: false, created_at: earlier, updated_at: earlier }
    expect((await adminReq('GET', `${path()}?year=2026`)).body).toEqual(ok({ days: [...noticeDays().map(row), christmas] }))

    // 16 and 17 February are holidays now: Ann's absences there are gone
    expect(await database().select().from(attendanceRecords).where(eq(attendanceRecords.employeeId, ids.ann))).toEqual([])

    const entries = await auditSince(since)
    expect(entries).toHaveLength(1)
    expect(entries[0]).toMatchObject({ actorId: 1, action: 'calendar.apply_preset', resource: 'company_calendar', resourceId: String(ids.company) })
    expect(entries[0].before).toEqual({
      days: [{ company_id: ids.company, date: '2026-10-01', kind: 'holiday', name: 'Founders day', statutory: false, created_at: earlier, updated_at: earlier }],
    })
    expect(entries[0].after).toEqual({
      preset_id: 'cn-2026',
      days: noticeDays().map(row),
      deleted_absent_records: absences.map((record) => ({
        id: record.id,
        employee_id: ids.ann,
        work_date: record.workDate,
        group_id: record.groupId,
        rule_id: record.ruleId,
      })),
    })

    // Ann's month shows the holidays by name
    const month = await req(t.app, 'GET', '/api/v1/attendance/calendar?month=2026-02', { token: employee })
    expect(month.body.data.days.filter((d: { holiday_name: string | null }) => d.holiday_name).map((d: { date: string }) => d.date)).toEqual(
      noticeDays()
        .filter((d) => d.kind === 'holiday' && d.date.startsWith('2026-02'))
        .map((d) => d.date),
    )
  })

  test('applying it again changes nothing but the times; a role holding just calendar:update may apply, in Chinese too', async () => {
    const clerkRole = 'calendar_clerk'
    expect((await adminReq('POST', '/api/v1/admin/roles', { name: clerkRole })).status).toBe(201)
    expect((await adminReq('POST', '/api/v1/admin/roles/permissions/add', { role_name: clerkRole, permission_name: 'calendar:update' })).status).toBe(200)
    const clerk = await makeUser(t.app, admin, 'calendar-clerk', [clerkRole])
    const since = await lastAuditId()
    const reply = await req(t.app, 'POST', `${path()}/apply-preset`, { token: clerk.token, body: { preset_id: 'cn-2026' }, headers: ZH })
    expect(reply.body).toEqual(ok({ imported: 39 }, '已应用日历预设'))
    expect(await auditSince(since)).toHaveLength(1)
    const days = (await adminReq('GET', `${path()}?year=2026`)).body.data.days
    expect(days.map(({ date, kind, name, statutory }: { date: string; kind: string; name: string; statutory: boolean }) => ({ date, kind, name, statutory }))).toEqual([
      ...noticeDays(),
      { date: '2026-12-25', kind: 'holiday', name: 'Christmas', statutory: false },
    ])
  })
})
