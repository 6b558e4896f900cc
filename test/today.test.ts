import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { attendanceRecords } from '../src/db/schema'
import { errorBody, login, loginAdmin, okBody, req, startApp, type TestApp } from './helpers'

/*
 * Issue 26, CONTRACT §23: GET /api/v1/admin/attendance/today — who is in, late, absent, on leave, not
 * yet in, or off today, each on the work date of their group's zone, for the caller's scope: holders
 * of attendance_records:read see everyone, a manager their reports and their groups' members.
 *
 * Two groups on two zones: "Shanghai" (Asia/Shanghai, managed by Manny, 09:00–18:00 on weekdays, no
 * grace) and "New York" (America/New_York, 09:00–17:00 on weekdays). At 2024-03-15 03:00Z it is
 * Friday 11:00 in Shanghai and still Thursday 23:00 in New York; a day later Shanghai is on a
 * Saturday (a day off) while New York is on Friday.
 */

let t: TestApp
let admin: string

const FIRST = '2024-03-15T03:00:00.000Z'
const SECOND = '2024-03-16T03:00:00.000Z'

const ids = {} as Record<'manny' | 'ann' | 'bob' | 'cat' | 'dan' | 'eve' | 'fay' | 'gus' | 'hal' | 'nia' | 'ned' | 'xan' | 'sh' | 'ny', number>
const tokens = {} as Record<'manny' | 'ann', string>

async function ok(method: string, path: string, body?: unknown, token = admin) {
  const reply = await req(t.app, method, path, { token, body })
  if (reply.status !== 200 && reply.status !== 201) throw new Error(`${method} ${path}: ${JSON.stringify(reply.body)}`)
  return reply.body.data
}

/** An employee with an account `<name>` (password `<name>-password-1`). */
async function person(name: string, extra: Record<string, unknown> = {}) {
  return (await ok('POST', '/api/v1/admin/employees', { name, username: name.toLowerCase(), password: `${name.toLowerCase()}-password-1`, ...extra })).id as number
}

const as = async (name: string) => login(t.app, name.toLowerCase(), `${name.toLowerCase()}-password-1`)

async function clockIn(name: string, at: string) {
  t.clock.set(at)
  const reply = await req(t.app, 'POST', '/api/v1/attendance/clock-in', { token: await as(name), body: {} })
  if (reply.status !== 200) throw new Error(`clock-in of ${name}: ${JSON.stringify(reply.body)}`)
}

beforeAll(async () => {
  t = await startApp({ now: '2024-03-14T00:00:00.000Z' })
  admin = await loginAdmin(t.app)
  const shanghai = await ok('POST', '/api/v1/admin/companies', { name: 'Shanghai Co', timezone: 'Asia/Shanghai' })
  const newYork = await ok('POST', '/api/v1/admin/companies', { name: 'New York Co', timezone: 'America/New_York' })
  ids.manny = await person('Manny')
  ids.sh = (await ok('POST', '/api/v1/admin/attendance/groups', { name: 'Shanghai', company_id: shanghai.id, manager_id: ids.manny })).id
  ids.ny = (await ok('POST', '/api/v1/admin/attendance/groups', { name: 'New York', company_id: newYork.id })).id
  const rule = (group: number, end: string) => ({ name: 'Weekdays', group_id: group, work_start_time: '09:00', work_end_time: end, required_work_hours: 8, work_days: '1,2,3,4,5' })
  await ok('POST', '/api/v1/admin/attendance/rules', rule(ids.sh, '18:00'))
  await ok('POST', '/api/v1/admin/attendance/rules', rule(ids.ny, '17:00'))
  for (const name of ['Ann', 'Bob', 'Cat', 'Dan', 'Eve', 'Fay'] as const) ids[name.toLowerCase() as 'ann'] = await person(name)
  ids.gus = await person('Gus', { hire_date: '2024-03-18' })
  ids.hal = await person('Hal')
  ids.nia = await person('Nia')
  ids.ned = await person('Ned', { manager_id: ids.manny })
  ids.xan = await person('Xan')
  await ok('POST', `/api/v1/admin/attendance/groups/${ids.sh}/employees`, { employee_ids: [ids.ann, ids.bob, ids.cat, ids.dan, ids.eve, ids.fay, ids.gus, ids.hal] })
  await ok('POST', `/api/v1/admin/attendance/groups/${ids.ny}/employees`, { employee_ids: [ids.nia, ids.ned] })
  await ok('PUT', `/api/v1/admin/employees/${ids.hal}`, { status: 0 })

  // Dan has Friday off (approved); Eve has Friday morning off, so she is still to come in
  const type = await ok('POST', '/api/v1/admin/leave/types', { name: 'Personal', requires_balance: false })
  for (const [name, half] of [['Dan', undefined], ['Eve', 'am']] as const) {
    const request = await ok('POST', '/api/v1/leave/requests', { type_id: type.id, start_date: '2024-03-15', end_date: '2024-03-15', half_day: half }, await as(name))
    await ok('POST', `/api/v1/approvals/leave/${request.id}/approve`, {})
  }

  await clockIn('Nia', '2024-03-14T13:00:00.000Z') // Thursday 09:00 in New York
  await clockIn('Ann', '2024-03-15T00:55:00.000Z') // Friday 08:55 in Shanghai
  await clockIn('Bob', '2024-03-15T01:25:00.000Z') // 09:25: 25 minutes late
  // Cat's Friday is recorded as an absence, the record day close (or the history import) writes
  const closed = new Date('2024-03-15T02:00:00.000Z')
  await t.deps.database.db
    .insert(attendanceRecords)
    .values({ employeeId: ids.cat, groupId: ids.sh, workDate: '2024-03-15', timezone: 'Asia/Shanghai', status: 3, createdAt: closed, updatedAt: closed })

}, 60_000)

/** Access tokens expire: each moment signs in afresh. */
async function at(moment: string) {
  t.clock.set(moment)
  admin = await loginAdmin(t.app)
  tokens.manny = await as('Manny')
  tokens.ann = await as('Ann')
}
afterAll(() => t.close())

const board = (token: string, query = '') => req(t.app, 'GET', `/api/v1/admin/attendance/today${query}`, { token })

/** The employee's record of `date` as the administrators' record list shows it, without its employee. */
async function recordOf(employeeId: number, date: string) {
  const { records } = await ok('GET', `/api/v1/admin/attendance/records?employee_id=${employeeId}&start_date=${date}&end_date=${date}`)
  expect(records.length).toBe(1)
  const { employee: _, ...record } = records[0]
  return record
}

const entry = (name: string, group: number | null, state: string, record: unknown = null) => ({
  id: ids[name.toLowerCase() as 'ann'],
  name,
  group_id: group,
  state,
  record,
})

const counts = (values: Partial<Record<'expected' | 'in' | 'late' | 'absent' | 'on_leave' | 'not_yet' | 'day_off', number>>) => ({
  expected: 0,
  in: 0,
  late: 0,
  absent: 0,
  on_leave: 0,
  not_yet: 0,
  day_off: 0,
  ...values,
})

describe('Friday in Shanghai, still Thursday in New York', () => {
  beforeAll(() => at(FIRST))

  test('an administrator sees every active employee, each on their group’s date', async () => {
    const reply = await board(admin)
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual({
      ...okBody({
        date: '2024-03-15',
        groups: [
          { id: ids.sh, name: 'Shanghai', date: '2024-03-15' },
          { id: ids.ny, name: 'New York', date: '2024-03-14' },
        ],
        counts: counts({ expected: 7, in: 2, late: 1, absent: 1, on_leave: 1, not_yet: 3, day_off: 3 }),
        employees: [
          entry('Manny', null, 'day_off'),
          entry('Ann', ids.sh, 'in', await recordOf(ids.ann, '2024-03-15')),
          entry('Bob', ids.sh, 'late', await recordOf(ids.bob, '2024-03-15')),
          entry('Cat', ids.sh, 'absent', await recordOf(ids.cat, '2024-03-15')),
          entry('Dan', ids.sh, 'on_leave'),
          entry('Eve', ids.sh, 'not_yet'),
          entry('Fay', ids.sh, 'not_yet'),
          // hired on Monday
          entry('Gus', ids.sh, 'day_off'),
          // Hal has left: not shown
          entry('Nia', ids.ny, 'in', await recordOf(ids.nia, '2024-03-14')),
          entry('Ned', ids.ny, 'not_yet'),
          // in no group: no rule makes any day a work day
          entry('Xan', null, 'day_off'),
        ],
      }),
      timestamp: FIRST,
    })
    expect(reply.body.data.employees[2].record).toMatchObject({ status: 1, late_minutes: 25, clock_in_time: '2024-03-15T01:25:00.000Z' })
  })

  test('the manager sees their group’s members and their report in New York, nobody else', async () => {
    const reply = await board(tokens.manny)
    expect(reply.body).toEqual({
      ...okBody({
        date: '2024-03-15',
        groups: [
          { id: ids.sh, name: 'Shanghai', date: '2024-03-15' },
          { id: ids.ny, name: 'New York', date: '2024-03-14' },
        ],
        counts: counts({ expected: 6, in: 1, late: 1, absent: 1, on_leave: 1, not_yet: 3, day_off: 1 }),
        employees: [
          entry('Ann', ids.sh, 'in', await recordOf(ids.ann, '2024-03-15')),
          entry('Bob', ids.sh, 'late', await recordOf(ids.bob, '2024-03-15')),
          entry('Cat', ids.sh, 'absent', await recordOf(ids.cat, '2024-03-15')),
          entry('Dan', ids.sh, 'on_leave'),
          entry('Eve', ids.sh, 'not_yet'),
          entry('Fay', ids.sh, 'not_yet'),
          entry('Gus', ids.sh, 'day_off'),
          entry('Ned', ids.ny, 'not_yet'),
        ],
      }),
      timestamp: FIRST,
    })
  })

  test('group_id narrows the board to the group’s members in the caller’s scope, on the group’s date', async () => {
    expect((await board(tokens.manny, `?group_id=${ids.ny}`)).body).toEqual({
      ...okBody({
        date: '2024-03-14',
        groups: [{ id: ids.ny, name: 'New York', date: '2024-03-14' }],
        counts: counts({ expected: 1, not_yet: 1 }),
        employees: [entry('Ned', ids.ny, 'not_yet')],
      }),
      timestamp: FIRST,
    })
    expect((await board(admin, `?group_id=${ids.ny}`)).body).toEqual({
      ...okBody({
        date: '2024-03-14',
        groups: [{ id: ids.ny, name: 'New York', date: '2024-03-14' }],
        counts: counts({ expected: 2, in: 1, not_yet: 1 }),
        employees: [entry('Nia', ids.ny, 'in', await recordOf(ids.nia, '2024-03-14')), entry('Ned', ids.ny, 'not_yet')],
      }),
      timestamp: FIRST,
    })
    expect((await board(admin, '?group_id=999')).body).toEqual(
      errorBody(400, 'group_id names attendance group 999, which does not exist', { errors: [{ field: 'group_id', message: 'does not exist' }], timestamp: FIRST }),
    )
    const zh = await req(t.app, 'GET', '/api/v1/admin/attendance/today?group_id=999', { token: admin, headers: { 'accept-language': 'zh' } })
    expect(zh.body).toEqual(errorBody(400, 'group_id 指定的考勤组 999 不存在', { errors: [{ field: 'group_id', message: '不存在' }], timestamp: FIRST }))
  })

  test('an employee who manages no one, and a caller with no employee record, are refused', async () => {
    const refusal = errorBody(
      403,
      'Today’s board is for holders of attendance_records:read and for managers: your account is not linked to an active employee who manages an employee or an attendance group',
      { timestamp: FIRST },
    )
    expect((await board(tokens.ann)).body).toEqual(refusal)
    const zh = await req(t.app, 'GET', '/api/v1/admin/attendance/today', { token: tokens.ann, headers: { 'accept-language': 'zh' } })
    expect(zh.body).toEqual(
      errorBody(403, '今日看板仅供拥有 attendance_records:read 权限的账号和负责人查看：您的账号没有关联到负责员工或考勤组的在职员工', {
        timestamp: FIRST,
      }),
    )
    const plain = (await ok('POST', '/api/v1/admin/users', { username: 'no-record', password: 'no-record-password-1', name: 'No Record' })).id
    expect(plain).toBeGreaterThan(0)
    expect((await board(await login(t.app, 'no-record', 'no-record-password-1'))).body).toEqual(refusal)
    expect((await req(t.app, 'GET', '/api/v1/admin/attendance/today')).status).toBe(401)
  })
})

describe('Saturday in Shanghai (a day off), Friday in New York', () => {
  beforeAll(async () => {
    // Ann comes in on Saturday: her record decides, on a day off too
    await clockIn('Ann', '2024-03-16T02:00:00.000Z')
    await at(SECOND)
  })

  test('Shanghai is off but for Ann’s record; New York is expected', async () => {
    expect((await board(admin)).body).toEqual({
      ...okBody({
        date: '2024-03-16',
        groups: [
          { id: ids.sh, name: 'Shanghai', date: '2024-03-16' },
          { id: ids.ny, name: 'New York', date: '2024-03-15' },
        ],
        counts: counts({ expected: 2, in: 1, not_yet: 2, day_off: 8 }),
        employees: [
          entry('Manny', null, 'day_off'),
          entry('Ann', ids.sh, 'in', await recordOf(ids.ann, '2024-03-16')),
          ...(['Bob', 'Cat', 'Dan', 'Eve', 'Fay', 'Gus'] as const).map((name) => entry(name, ids.sh, 'day_off')),
          entry('Nia', ids.ny, 'not_yet'),
          entry('Ned', ids.ny, 'not_yet'),
          entry('Xan', null, 'day_off'),
        ],
      }),
      timestamp: SECOND,
    })
  })

  test('a holder of attendance_records:read alone sees what an administrator sees', async () => {
    await ok('POST', '/api/v1/admin/roles', { name: 'records_reader' })
    await ok('POST', '/api/v1/admin/roles/permissions/add', { role_name: 'records_reader', permission_name: 'attendance_records:read' })
    await ok('POST', '/api/v1/admin/users', { username: 'reader', password: 'reader-password-1', name: 'Reader', roles: ['records_reader'] })
    const reply = await board(await login(t.app, 'reader', 'reader-password-1'))
    expect(reply.body).toEqual((await board(admin)).body)
    expect(reply.body.data.employees.length).toBe(11)
  })

  test('an employee who becomes another’s manager sees that report (on the report’s date); one who has left sees nothing', async () => {
    await ok('PUT', `/api/v1/admin/employees/${ids.xan}`, { manager_id: ids.ann })
    expect((await board(tokens.ann)).body).toEqual({
      ...okBody({
        date: '2024-03-16',
        groups: [],
        counts: counts({ day_off: 1 }),
        employees: [entry('Xan', null, 'day_off')],
      }),
      timestamp: SECOND,
    })
    await ok('PUT', `/api/v1/admin/employees/${ids.manny}`, { status: 0 })
    expect((await board(tokens.manny)).body).toEqual(
      errorBody(
        403,
        'Today’s board is for holders of attendance_records:read and for managers: your account is not linked to an active employee who manages an employee or an attendance group',
        { timestamp: SECOND },
      ),
    )
  })
})
