import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { and, asc, count, eq } from 'drizzle-orm'
import { attendanceRecords, auditLogs, leaveLedger } from '../src/db/schema'
import { login, loginAdmin, makeUser, replyOf, req, startApp, tableRows, type Reply, type TestApp } from './helpers'

/*
 * The first week's history (CONTRACT §23, issue 26): September 2024 of 20 employees imported from a
 * CSV file, then their statistics against a table worked out by hand; a dry run; a file with
 * problems; records already there (kept unless replace=true, absences replaced); one's own records;
 * opening leave balances.
 *
 * Acme, Asia/Shanghai; group Office: 09:00–18:00, break 12:00–13:00, 5 minutes' grace, 8 h, Monday
 * to Friday, one late day a month allowed, overtime from 30 minutes, all set up on 30 August.
 * September 2024 has 21 work days (the 1st is a Sunday). It is now Tuesday 8 October, 10:00.
 *
 * The days, by hand (break 12:00–13:00 taken off; hours as a record shows them, minutes × 5/3 rounded):
 *   normal    08:55–18:05  490 min = 8.17 h, on time, 5 min after the end: no overtime
 *   late      09:20–18:10  470 min = 7.83 h, 20 min late (past 09:05), status late
 *   overtime  08:58–19:30  572 min = 9.53 h, 90 min overtime
 *   early     08:50–17:00  430 min = 7.17 h, 60 min early, status early leave
 *   open      09:00 only   an exception once the day is closed: 0 h
 *   night     Saturday 22:00–02:00: a day off, 240 min = 4.00 h, all of it overtime
 *
 * Five profiles, four employees each (P01–P04 A, P05–P08 B, …):
 *   A  every work day normal                                  21 rows
 *   B  late on the 3rd and the 17th (written as ISO instants), the rest normal    21 rows
 *   C  no row on the 9th, 10th and 30th, the rest normal        18 rows
 *   D  overtime every Friday (6, 13, 20, 27) and on the 30th, the rest normal     21 rows
 *   E  early on the 4th, open on the 5th, no row on the 6th, the night of Saturday the 7th,
 *      the rest normal                                          21 rows
 */

const local = (dateTime: string) => new Date(`${dateTime}+08:00`).toISOString()
const NOW = local('2024-10-08T10:00:00')
const SEPTEMBER = Array.from({ length: 30 }, (_, i) => `2024-09-${String(i + 1).padStart(2, '0')}`)
const WORK_DAYS = SEPTEMBER.filter((date) => (new Date(`${date}T00:00:00Z`).getUTCDay() || 7) <= 5)
const PROFILES = ['A', 'B', 'C', 'D', 'E'] as const
type Profile = (typeof PROFILES)[number]
const NUMBERS = Array.from({ length: 20 }, (_, i) => `P${String(i + 1).padStart(2, '0')}`)
const profileOf = (no: string): Profile => PROFILES[Math.floor((Number(no.slice(1)) - 1) / 4)]

/** The file's rows of one employee: [work_date, clock_in, clock_out, note]. */
function rowsOf(no: string): string[][] {
  const profile = profileOf(no)
  const rows: string[][] = []
  for (const date of WORK_DAYS) {
    if (profile === 'B' && (date === '2024-09-03' || date === '2024-09-17')) rows.push([date, `${date}T09:20:00+08:00`, `${date}T10:10:00Z`, 'traffic'])
    else if (profile === 'C' && ['2024-09-09', '2024-09-10', '2024-09-30'].includes(date)) continue
    else if (profile === 'D' && (new Date(`${date}T00:00:00Z`).getUTCDay() === 5 || date === '2024-09-30')) rows.push([date, '08:58', '19:30', 'release'])
    else if (profile === 'E' && date === '2024-09-04') rows.push([date, '8:50', '17:00', ''])
    else if (profile === 'E' && date === '2024-09-05') rows.push([date, '09:00:00', '', 'forgot to clock out'])
    else if (profile === 'E' && date === '2024-09-06') continue
    else rows.push([date, '08:55', '18:05', ''])
  }
  if (profile === 'E') rows.push(['2024-09-07', '22:00', '02:00', 'night shift'])
  return rows
}

const csv = (...lines: string[]) => lines.map((line) => `${line}\r\n`).join('')
const HISTORY = csv('employee_no,work_date,clock_in,clock_out,note', ...NUMBERS.flatMap((no) => rowsOf(no).map((cells) => [no, ...cells].join(','))))
const ROWS = NUMBERS.reduce((sum, no) => sum + rowsOf(no).length, 0)

/** September by hand, per profile (see the table above). */
const BY_HAND: Record<Profile, Record<string, number>> = {
  // 21 × 8.17
  A: { attendance_days: 21, late_days: 0, absent_days: 0, total_work_hours: 171.57, avg_work_hours: 8.17, total_late_minutes: 0, overtime_hours: 0, attendance_rate: 100 },
  // 19 × 8.17 + 2 × 7.83 = 170.89; 17089 / 21 = 813.8 → 8.14; one of the two late days allowed
  B: { attendance_days: 21, late_days: 2, absent_days: 0, total_work_hours: 170.89, avg_work_hours: 8.14, total_late_minutes: 40, overtime_hours: 0, attendance_rate: 100, late_days_allowed: 1, late_days_over_allowance: 1 },
  // 18 × 8.17 = 147.06; 18 / 21 = 85.71 %
  C: { attendance_days: 18, late_days: 0, absent_days: 3, total_work_hours: 147.06, avg_work_hours: 8.17, total_late_minutes: 0, overtime_hours: 0, attendance_rate: 85.71 },
  // 16 × 8.17 + 5 × 9.53 = 178.37; 17837 / 21 = 849.4 → 8.49; 5 × 90 min = 7.5 h
  D: { attendance_days: 21, late_days: 0, absent_days: 0, total_work_hours: 178.37, avg_work_hours: 8.49, total_late_minutes: 0, overtime_hours: 7.5, attendance_rate: 100 },
  // 18 normal + early + open + the Saturday night = 21 days clocked in, of 21 work days (the Saturday is none; the 6th is missed):
  // 18 × 8.17 + 7.17 + 0 + 4 = 158.23; 15823 / 21 = 753.5 → 7.53; the night's 240 min = 4 h of overtime
  E: {
    attendance_days: 21,
    late_days: 0,
    absent_days: 1,
    early_days: 1,
    total_early_minutes: 60,
    exception_days: 1,
    total_work_hours: 158.23,
    avg_work_hours: 7.53,
    total_late_minutes: 0,
    overtime_hours: 4,
    attendance_rate: 100,
  },
}

const statisticsByHand = (profile: Profile) => ({
  total_days: 30,
  work_days: 21,
  attendance_days: 0,
  late_days: 0,
  early_days: 0,
  absent_days: 0,
  exception_days: 0,
  total_work_hours: 0,
  avg_work_hours: 0,
  total_late_minutes: 0,
  total_early_minutes: 0,
  overtime_hours: 0,
  attendance_rate: 0,
  late_days_allowed: 0,
  late_days_over_allowance: 0,
  holiday_days: 0,
  leave_days: 0,
  leave_hours: 0,
  ...BY_HAND[profile],
})

let t: TestApp
let admin: string
const ids: Record<string, number> = {}
const tokens: Record<string, string> = {}

const ok = (data: unknown, message: string) => ({ code: 200, message, data, timestamp: NOW })
const refused = (code: number, message: string, extra: Record<string, unknown> = {}) => ({ code, message, data: null, timestamp: NOW, ...extra })

async function upload(path: string, file: string, token = admin, headers: Record<string, string> = {}): Promise<Reply> {
  const form = new FormData()
  form.append('file', new File([file], 'history.csv', { type: 'text/csv' }))
  return replyOf(
    await t.app.handle(new Request(`http://localhost${path}`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}`, ...headers } })),
  )
}
const history = (file: string, query = 'dry_run=false', token = admin) => upload(`/api/v1/admin/attendance/records/import?${query}`, file, token)
/** The same, asking for Chinese. */
const historyZh = (file: string, query = 'dry_run=false') =>
  upload(`/api/v1/admin/attendance/records/import?${query}`, file, admin, { 'accept-language': 'zh' })
const balances = (file: string, query = 'dry_run=false', token = admin) => upload(`/api/v1/admin/leave/balances/import?${query}`, file, token)
const adminReq = (method: string, path: string, body?: unknown) => req(t.app, method, path, { token: admin, body })

const recordOf = async (no: string, date: string) => {
  const [row] = await t.deps.database.db
    .select()
    .from(attendanceRecords)
    .where(and(eq(attendanceRecords.employeeId, ids[no]), eq(attendanceRecords.workDate, date)))
  return row
}
const auditCount = async (action: string) =>
  (await t.deps.database.db.select({ n: count() }).from(auditLogs).where(eq(auditLogs.action, action)))[0].n

beforeAll(async () => {
  t = await startApp({ now: local('2024-08-30T12:00:00') })
  admin = await loginAdmin(t.app)
  const created = async (path: string, body: unknown) => {
    const reply = await adminReq('POST', path, body)
    if (reply.status !== 201 && reply.status !== 200) throw new Error(`${path}: ${JSON.stringify(reply.body)}`)
    return reply.body.data
  }
  await created('/api/v1/admin/companies', { name: 'Acme', timezone: 'Asia/Shanghai' })
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
    allowed_late_days: 1,
    work_days: '1,2,3,4,5',
  })
  await created('/api/v1/admin/leave/types', { name: 'Annual leave', annual_days: 10 })
  // the 20 employees come the way a first week brings them: from a file, with their accounts
  const people = csv('name,employee_no,hire_date,username,password', ...NUMBERS.map((no) => `Person ${no},${no},2024-01-02,${no.toLowerCase()},${no}-password`))
  const imported = await upload('/api/v1/admin/employees/import?dry_run=false', people)
  expect(imported.body.data).toEqual({ created: 20, errors: [] })
  const list = await adminReq('GET', '/api/v1/admin/employees?page_size=100')
  for (const employee of list.body.data.list ?? list.body.data.employees) ids[employee.employee_no] = employee.id
  ids.N01 = (await created('/api/v1/admin/employees', { name: 'Loner', employee_no: 'N01' })).id
  ids.N02 = (await created('/api/v1/admin/employees', { name: 'Newbie', employee_no: 'N02', hire_date: '2024-09-16' })).id
  await created('/api/v1/admin/attendance/groups/1/employees', { employee_ids: [...NUMBERS.map((no) => ids[no]), ids.N02] })
  t.clock.set(NOW)
  admin = await loginAdmin(t.app)
}, 60_000)

afterAll(() => t.close())

describe('a month of 20 employees', () => {
  test('a dry run checks the whole file, counts, and writes nothing', async () => {
    const before = await tableRows(t)
    const reply = await history(HISTORY, 'dry_run=true')
    expect({ status: reply.status, body: reply.body }).toEqual({
      status: 200,
      body: ok(
        { created: ROWS, replaced: 0, kept: 0, errors: [] },
        `The file is fine; importing it would leave: ${ROWS} records created, 0 replaced, 0 kept as they were`,
      ),
    })
    expect(ROWS).toBe(408)
    const zh = await historyZh(HISTORY, 'dry_run=true')
    expect(zh.body.message).toBe(`文件没有问题；导入后的结果将是：新建 ${ROWS} 条记录，替换 0 条，保留 0 条不变`)
    expect(await tableRows(t)).toEqual(before)
  })

  test('the import writes every record, marked imported, each audited', async () => {
    const reply = await history(HISTORY)
    expect({ status: reply.status, body: reply.body }).toEqual({
      status: 200,
      body: ok({ created: 408, replaced: 0, kept: 0, errors: [] }, 'Imported: 408 records created, 0 replaced, 0 kept as they were'),
    })
    expect(await auditCount('attendance_record.import')).toBe(408)
    const night = await adminReq('GET', `/api/v1/admin/attendance/records?employee_id=${ids.P17}&start_date=2024-09-07&end_date=2024-09-07`)
    expect(night.body.data.records).toEqual([
      expect.objectContaining({
        work_date: '2024-09-07',
        timezone: 'Asia/Shanghai',
        clock_in_time: local('2024-09-07T22:00:00'),
        clock_out_time: local('2024-09-08T02:00:00'),
        status: 0,
        work_hours: 4,
        late_minutes: 0,
        overtime_minutes: 240,
        corrected: false,
        imported: true,
        note: 'night shift',
      }),
    ])
    const late = await recordOf('P05', '2024-09-03')
    expect([late.clockInTime, late.clockOutTime, late.status, late.lateMinutes, late.workMinutes, late.imported]).toEqual([
      new Date(local('2024-09-03T09:20:00')),
      new Date(local('2024-09-03T18:10:00')),
      1,
      20,
      470,
      true,
    ])
    const open = await recordOf('P18', '2024-09-05')
    expect([open.clockOutTime, open.status, open.note]).toEqual([null, 4, 'forgot to clock out'])
  })

  test.each(NUMBERS)('%s: September’s statistics are the table worked out by hand', async (no) => {
    tokens[no] ??= await login(t.app, no.toLowerCase(), `${no}-password`)
    const reply = await req(t.app, 'GET', '/api/v1/attendance/statistics?start_date=2024-09-01&end_date=2024-09-30', { token: tokens[no] })
    expect(reply.status).toBe(200)
    expect(reply.body.data).toEqual(statisticsByHand(profileOf(no)))
  })
})

describe('a file with problems', () => {
  test('every problem of every row in one 400, nothing written', async () => {
    tokens.P05 ??= await login(t.app, 'p05', 'P05-password')
    const asked = await req(t.app, 'POST', '/api/v1/attendance/corrections', {
      token: tokens.P05,
      body: { work_date: '2024-10-07', clock_in_time: local('2024-10-07T09:00:00'), reason: 'Forgot' },
    })
    expect(asked.status).toBe(201)
    const before = await tableRows(t)
    const file = csv(
      'Employee No,work_date,clock_in,clock_out,note',
      'P99,2024-09-02,09:00,18:00,',
      'P01,2024-09-31,09:00,18:00,',
      'P01,2024-10-09,09:00,18:00,',
      'P02,2024-10-02,25:00,18:00,',
      'P03,2024-10-02,09:00,09:00,',
      'P04,2024-10-02,09:00,18:00,',
      'P04,2024-10-02,09:30,18:00,',
      'N01,2024-10-02,09:00,18:00,',
      'N02,2024-09-10,09:00,18:00,',
      `P06,2024-10-02,09:00,18:00,${'x'.repeat(501)}`,
      'P07,2024-10-02,,18:00,',
      'P08,2024-10-02,2024-10-02T09:00:00+08:00,2024-10-03T10:00:00+08:00,',
      'P05,2024-10-07,09:00,18:00,',
      'P09,2024-10-08,09:00,18:00,',
      'P10,2024-10-02',
    )
    const reply = await history(file)
    const errors = [
      { row: 2, field: 'employee_no', message: 'no employee has the employee number "P99"' },
      { row: 3, field: 'work_date', message: '"2024-09-31" is not a real date written YYYY-MM-DD' },
      { row: 4, field: 'work_date', message: '2024-10-09 is in the future (today is 2024-10-08 in Asia/Shanghai)' },
      { row: 5, field: 'clock_in', message: '"25:00" is not a time of day (00:00 to 23:59)' },
      { row: 6, field: 'clock_out', message: `must be after the clock-in (${local('2024-10-02T09:00:00')})` },
      { row: 8, field: 'work_date', message: '2024-10-02 of employee P04 (Person P04) is also in row 7' },
      {
        row: 9,
        field: 'employee_no',
        message: 'employee N01 (Loner) is not in an attendance group, so 2024-10-02 has no rule to judge it by; add them to one first',
      },
      {
        row: 10,
        field: 'work_date',
        message: '2024-09-10 is before the hire date, 2024-09-16, of employee N02 (Newbie): no date before it counts. Move that date first to import it',
      },
      { row: 11, field: 'note', message: 'must be at most 500 characters (it has 501)' },
      {
        row: 12,
        field: 'clock_in',
        message: 'is required: a record is imported with its clock-in (a past work day without a record counts as absent by itself)',
      },
      { row: 13, field: 'clock_out', message: `must be at most 24 hours after the clock-in (${local('2024-10-02T09:00:00')})` },
      { row: 14, field: 'work_date', message: 'employee P05 (Person P05) has a pending correction of 2024-10-07: decide it first' },
      { row: 15, field: 'clock_out', message: 'must not be in the future' },
      { row: 16, field: 'file', message: 'has 2 cells but the header has 5: add the missing commas' },
    ]
    expect({ status: reply.status, body: reply.body }).toEqual({
      status: 400,
      body: refused(400, `The file has 14 problems in 14 rows; nothing was imported. Row 2, employee_no: ${errors[0].message}`, { errors }),
    })
    // the same problems in Chinese (those the import itself finds)
    const zh = await historyZh(file)
    const mine = [2, 3, 4, 5, 8, 9, 10, 11, 12, 14]
    expect((zh.body.errors as { row: number; field: string; message: string }[]).filter(({ row }) => mine.includes(row))).toEqual([
      { row: 2, field: 'employee_no', message: '没有工号为“P99”的员工' },
      { row: 3, field: 'work_date', message: '“2024-09-31”不是 YYYY-MM-DD 格式的有效日期' },
      { row: 4, field: 'work_date', message: '2024-10-09 是将来的日期（Asia/Shanghai 的今天是 2024-10-08）' },
      { row: 5, field: 'clock_in', message: '“25:00”不是有效的时刻（00:00 到 23:59）' },
      { row: 8, field: 'work_date', message: '员工 P04（Person P04）的 2024-10-02 也出现在第 7 行' },
      { row: 9, field: 'employee_no', message: '员工 N01（Loner）不在任何考勤组中，2024-10-02 没有可依据的考勤规则；请先将其加入考勤组' },
      { row: 10, field: 'work_date', message: '2024-09-10 早于员工 N02（Newbie）的入职日期 2024-09-16：此前的日期都不计入考勤。如需导入，请先调整该日期' },
      { row: 11, field: 'note', message: '不能超过 500 个字符（现有 501 个）' },
      { row: 12, field: 'clock_in', message: '为必填项：导入的记录必须带有上班打卡时间（过去没有记录的工作日本来就算作缺勤）' },
      { row: 14, field: 'work_date', message: '员工 P05（Person P05）有一条 2024-10-07 的补卡申请尚待审批：请先处理' },
    ])
    expect(await tableRows(t)).toEqual(before)
  })

  test('the header: unknown and missing columns; more than 50,000 rows', async () => {
    const reply = await history(csv('employee_no,date,clock_in', 'P01,2024-09-02,09:00'))
    expect(reply.body.errors).toEqual([
      { row: 1, field: 'date', message: 'column B is not a column of the import; the columns are employee_no, work_date, clock_in, clock_out, note' },
      { row: 1, field: 'work_date', message: 'the header has no column "work_date"; the import needs one' },
    ])
    const many = csv('employee_no,work_date,clock_in', ...Array.from({ length: 50_001 }, () => 'P01,2024-09-02,09:00'))
    const tooMany = await history(many, 'dry_run=true')
    expect([tooMany.status, tooMany.body.message]).toEqual([400, 'The file has more than 50,000 rows of records; import at most 50,000 at a time (split the file)'])
  })
})

describe('dates that have records already', () => {
  test('replace=false keeps records with clock times (counted as kept) and replaces absences; replace=true replaces them too', async () => {
    // day close marks profile E's missing Friday the 6th absent; P02 clocks in today for real
    expect((await adminReq('POST', '/api/v1/admin/attendance/close-day', { date: '2024-09-06' })).status).toBe(200)
    expect((await recordOf('P17', '2024-09-06')).status).toBe(3)
    t.clock.set(local('2024-10-08T08:50:00'))
    tokens.P02 ??= await login(t.app, 'p02', 'P02-password')
    expect((await req(t.app, 'POST', '/api/v1/attendance/clock-in', { token: tokens.P02, body: {} })).status).toBe(200)
    t.clock.set(NOW)
    const clockedToday = await recordOf('P02', '2024-10-08')
    const importedBefore = await recordOf('P01', '2024-09-02')

    const file = csv(
      'employee_no,work_date,clock_in,clock_out,note',
      'P17,2024-09-06,09:10,18:00,was there after all',
      'P18,2024-09-06,08:55,18:05,',
      'P01,2024-09-02,09:30,18:00,came late',
      'P02,2024-10-08,09:10,,',
    )
    const kept = await history(file)
    expect(kept.body).toEqual(ok({ created: 0, replaced: 2, kept: 2, errors: [] }, 'Imported: 0 records created, 2 replaced, 2 kept as they were'))
    expect(await recordOf('P01', '2024-09-02')).toEqual(importedBefore)
    expect(await recordOf('P02', '2024-10-08')).toEqual(clockedToday)
    const replacedAbsence = await recordOf('P17', '2024-09-06')
    expect([replacedAbsence.status, replacedAbsence.lateMinutes, replacedAbsence.workMinutes, replacedAbsence.imported, replacedAbsence.note]).toEqual([
      1,
      10,
      470,
      true,
      'was there after all',
    ])
    const absenceAudit = await t.deps.database.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'attendance_record.import'), eq(auditLogs.resourceId, String(replacedAbsence.id))))
    expect(absenceAudit.map((entry) => [entry.before, entry.after])).toEqual([
      [
        expect.objectContaining({ id: replacedAbsence.id, status: 3, clock_in_time: null }),
        expect.objectContaining({ id: replacedAbsence.id, status: 1, late_minutes: 10, imported: true, note: 'was there after all', row: 2 }),
      ],
    ])

    const replaced = await history(file, 'dry_run=false&replace=true')
    expect(replaced.body).toEqual(ok({ created: 0, replaced: 4, kept: 0, errors: [] }, 'Imported: 0 records created, 4 replaced, 0 kept as they were'))
    const late = await recordOf('P01', '2024-09-02')
    expect([late.id, late.status, late.lateMinutes, late.workMinutes, late.note]).toEqual([importedBefore.id, 1, 30, 450, 'came late'])
    // today's record keeps the shift it was opened under and loses the position of a clock-in it no longer has
    const today = await recordOf('P02', '2024-10-08')
    expect([today.id, today.clockInTime, today.clockOutTime, today.status, today.imported, today.clockInLat]).toEqual([
      clockedToday.id,
      new Date(local('2024-10-08T09:10:00')),
      null,
      1,
      true,
      null,
    ])
  })
})

describe('nobody imports their own records or balances (CONTRACT §15)', () => {
  test('a file with a row of one’s own employee is a 403 for the whole file, nothing written', async () => {
    const clerk = await makeUser(t.app, admin, 'clerk', ['admin'])
    expect((await adminReq('PUT', `/api/v1/admin/employees/${ids.P19}`, { user_id: clerk.id })).status).toBe(200)
    const before = await tableRows(t)
    const own = await history(csv('employee_no,work_date,clock_in,clock_out', 'P01,2024-09-27,09:00,18:00', 'P19,2024-09-27,09:00,18:00'), 'dry_run=true', clerk.token)
    expect({ status: own.status, body: own.body }).toEqual({
      status: 403,
      body: refused(403, 'Row 3, the attendance record of employee P19 on 2024-09-27, is your own: request a correction for your manager to decide'),
    })
    const ownBalance = await balances(csv('employee_no,leave_type,year,days', 'P19,Annual leave,2024,3'), 'dry_run=false', clerk.token)
    expect({ status: ownBalance.status, body: ownBalance.body }).toEqual({
      status: 403,
      body: refused(403, 'Row 2, the Annual leave 2024 balance of employee P19, is your own: nobody adjusts their own leave balance; ask HR'),
    })
    expect(await tableRows(t)).toEqual(before)
  })
})

describe('opening leave balances', () => {
  const FILE = csv('employee_no,leave_type,year,days', 'P01,Annual leave,2024,5', 'P02,annual leave,2024,-2', 'P03, ANNUAL LEAVE ,2025,2.5')
  const balanceOf = async (no: string, year: number) =>
    (await adminReq('GET', `/api/v1/admin/leave/balances?employee_id=${ids[no]}&year=${year}`)).body.data.balances[0]
  /** The import of `file` asked for in Chinese. */
  const inChinese = async (file: string, query = 'dry_run=false') => {
    const form = new FormData()
    form.append('file', new File([file], 'balances.csv', { type: 'text/csv' }))
    const headers = { authorization: `Bearer ${admin}`, 'accept-language': 'zh' }
    return replyOf(await t.app.handle(new Request(`http://localhost/api/v1/admin/leave/balances/import?${query}`, { method: 'POST', body: form, headers })))
  }

  test('a dry run counts and writes nothing', async () => {
    const before = await tableRows(t)
    const reply = await balances(FILE, 'dry_run=true')
    expect(reply.body).toEqual(ok({ created: 3, errors: [] }, 'The file is fine: 3 opening balances would be written'))
    expect((await inChinese(FILE, 'dry_run=true')).body).toEqual(ok({ created: 3, errors: [] }, '文件检查通过：将写入 3 项期初余额'))
    expect(await tableRows(t)).toEqual(before)
  })

  test('each row is an adjustment with the reason "opening balance", audited', async () => {
    const reply = await balances(FILE)
    expect(reply.body).toEqual(ok({ created: 3, errors: [] }, '3 opening balances imported'))
    expect(await balanceOf('P01', 2024)).toEqual({ type_id: 1, type_name: 'Annual leave', year: 2024, unit: 'day', granted: 15, taken: 0, pending: 0, remaining: 15 })
    expect(await balanceOf('P02', 2024)).toEqual({ type_id: 1, type_name: 'Annual leave', year: 2024, unit: 'day', granted: 8, taken: 0, pending: 0, remaining: 8 })
    expect(await balanceOf('P03', 2025)).toEqual({ type_id: 1, type_name: 'Annual leave', year: 2025, unit: 'day', granted: 12.5, taken: 0, pending: 0, remaining: 12.5 })
    const ledger = await t.deps.database.db
      .select({ employeeId: leaveLedger.employeeId, year: leaveLedger.year, kind: leaveLedger.kind, halfDays: leaveLedger.amount, reason: leaveLedger.reason })
      .from(leaveLedger)
      .orderBy(asc(leaveLedger.id))
    expect(ledger).toEqual([
      { employeeId: ids.P01, year: 2024, kind: 'adjustment', halfDays: 10, reason: 'opening balance' },
      { employeeId: ids.P02, year: 2024, kind: 'adjustment', halfDays: -4, reason: 'opening balance' },
      { employeeId: ids.P03, year: 2025, kind: 'adjustment', halfDays: 5, reason: 'opening balance' },
    ])
    const audits = await t.deps.database.db.select().from(auditLogs).where(eq(auditLogs.action, 'leave_balance.import')).orderBy(asc(auditLogs.id))
    expect(audits.map((entry) => [entry.resourceId, entry.before, entry.after])).toEqual([
      [
        `${ids.P01}/1/2024`,
        { type_id: 1, type_name: 'Annual leave', year: 2024, unit: 'day', granted: 10, taken: 0, pending: 0, remaining: 10 },
        { type_id: 1, type_name: 'Annual leave', year: 2024, unit: 'day', granted: 15, taken: 0, pending: 0, remaining: 15, days: 5, reason: 'opening balance', row: 2 },
      ],
      [
        `${ids.P02}/1/2024`,
        { type_id: 1, type_name: 'Annual leave', year: 2024, unit: 'day', granted: 10, taken: 0, pending: 0, remaining: 10 },
        { type_id: 1, type_name: 'Annual leave', year: 2024, unit: 'day', granted: 8, taken: 0, pending: 0, remaining: 8, days: -2, reason: 'opening balance', row: 3 },
      ],
      [
        `${ids.P03}/1/2025`,
        { type_id: 1, type_name: 'Annual leave', year: 2025, unit: 'day', granted: 10, taken: 0, pending: 0, remaining: 10 },
        { type_id: 1, type_name: 'Annual leave', year: 2025, unit: 'day', granted: 12.5, taken: 0, pending: 0, remaining: 12.5, days: 2.5, reason: 'opening balance', row: 4 },
      ],
    ])
  })

  test('a balance takes one opening balance; every problem at once, nothing written', async () => {
    const before = await tableRows(t)
    const file = csv(
      'employee_no,leave_type,year,days',
      'P01,Annual leave,2024,1',
      'P04,Sick leave,2024,1',
      'P99,Annual leave,2024,1',
      'P04,Annual leave,24,0.3',
      'P05,Annual leave,2024,0',
      'P06,Annual leave,2024,-11',
      'P07,Annual leave,2024,1',
      'P07,Annual leave,2024,2',
    )
    const reply = await balances(file)
    const errors = [
      {
        row: 2,
        field: 'leave_type',
        message: 'the Annual leave 2024 balance of employee P01 (Person P01) has an opening balance already; change it with POST /api/v1/admin/leave/balances/adjust',
      },
      { row: 3, field: 'leave_type', message: 'no leave type is named "Sick leave" (names are compared ignoring case); the types are Annual leave' },
      { row: 4, field: 'employee_no', message: 'no employee has the employee number "P99"' },
      { row: 5, field: 'year', message: '"24" is not a year (four digits, e.g. 2024)' },
      { row: 5, field: 'days', message: '"0.3" is not a whole or half number of days (e.g. 5, 2.5 or -1)' },
      { row: 6, field: 'days', message: 'must not be 0' },
      { row: 7, field: 'days', message: 'taking 11 days from the Annual leave 2024 balance of employee P06 (Person P06) would leave -1: only 10 remain' },
      { row: 9, field: 'leave_type', message: 'the Annual leave 2024 balance of employee P07 (Person P07) is also in row 8: a balance has one opening balance' },
    ]
    expect({ status: reply.status, body: reply.body }).toEqual({
      status: 400,
      body: refused(400, `The file has 8 problems in 7 rows; nothing was imported. Row 2, leave_type: ${errors[0].message}`, { errors }),
    })
    // the same refusal in Chinese, every row's problem too
    const zh = [
      { row: 2, field: 'leave_type', message: '员工 P01（Person P01）在 2024 年的“Annual leave”余额已有期初余额；如需修改，请用 POST /api/v1/admin/leave/balances/adjust' },
      { row: 3, field: 'leave_type', message: '没有名为“Sick leave”的假期类型（名称不区分大小写）；现有的假期类型为 Annual leave' },
      { row: 4, field: 'employee_no', message: '没有工号为“P99”的员工' },
      { row: 5, field: 'year', message: '“24”不是年份（四位数字，例如 2024）' },
      { row: 5, field: 'days', message: '“0.3”不是整天或半天的天数（例如 5、2.5 或 -1）' },
      { row: 6, field: 'days', message: '不能为 0' },
      { row: 7, field: 'days', message: '从员工 P06（Person P06）在 2024 年的“Annual leave”余额中扣减 11 天后将剩 -1 天：目前只剩 10 天' },
      { row: 9, field: 'leave_type', message: '员工 P07（Person P07）在 2024 年的“Annual leave”余额与第 8 行重复：每项余额只能有一个期初余额' },
    ]
    expect((await inChinese(file)).body).toEqual(refused(400, `文件中的 7 行共有 8 处问题，未导入任何数据。第 2 行，leave_type：${zh[0].message}`, { errors: zh }))
    expect(await tableRows(t)).toEqual(before)
  })
})
