import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { asc, count } from 'drizzle-orm'
import { attendanceGroupMembers, attendanceGroups, attendanceRules, auditLogs, companies, employees } from '../src/db/schema'
import { BAD_ID, errorBody, guardedRoutes, invalidBody, loginAdmin, makeUser, NOW, okBody, req, startApp, type TestApp } from './helpers'

const GROUPS = '/api/v1/admin/attendance/groups'
const RULES = '/api/v1/admin/attendance/rules'
const LATER = '2024-03-15T10:15:00.000Z'

let t: TestApp
let admin: string
let db: TestApp['deps']['database']['db']

beforeAll(async () => {
  t = await startApp()
  admin = await loginAdmin(t.app)
  db = t.deps.database.db
  const setup: [string, unknown][] = [
    ['/api/v1/admin/companies', { name: 'Acme', timezone: 'Asia/Shanghai' }],
    ['/api/v1/admin/companies', { name: 'Globex' }],
    ['/api/v1/admin/employees', { name: 'Ann', phone: '13800000001' }],
    ['/api/v1/admin/employees', { name: 'Bob' }],
    ['/api/v1/admin/employees', { name: 'Cid', phone: '13800000003' }],
    ['/api/v1/admin/employees', { name: 'Dee' }],
  ]
  for (const [path, body] of setup) {
    const reply = await req(t.app, 'POST', path, { token: admin, body })
    if (reply.status !== 201) throw new Error(JSON.stringify(reply.body))
  }
})

afterAll(() => t.close())

/** A success envelope stamped at a time other than `NOW`. */
const okAt = (timestamp: string, data: unknown, message = 'success') => ({ code: 200, message, data, timestamp })

/** The 400 the service's own checks give: one or more `{field, message}` problems joined by "; ". */
const refused = (...problems: [string, string][]) =>
  errorBody(400, problems.map(([field, message]) => `${field} ${message}`).join('; '), {
    errors: problems.map(([field, message]) => ({ field, message })),
  })

const ACME = { id: 1, name: 'Acme' }
const GLOBEX = { id: 2, name: 'Globex' }
const ANN = { id: 1, name: 'Ann', phone: '13800000001' }
const BOB = { id: 2, name: 'Bob', phone: null }
const CID = { id: 3, name: 'Cid', phone: '13800000003' }

const group = (id: number, name: string, fields: Record<string, unknown> = {}) => ({
  id,
  name,
  description: '',
  company_id: 1,
  company: ACME,
  manager_id: null,
  manager: null,
  timezone: null,
  effective_timezone: 'Asia/Shanghai',
  status: 1,
  status_text: 'enabled',
  employee_count: 0,
  rule_count: 0,
  created_at: NOW,
  updated_at: NOW,
  ...fields,
})

const DAY = group(1, 'Day shift', { description: 'Office staff', manager_id: 1, manager: ANN })
const BERLIN = group(2, 'Berlin office', { company_id: 2, company: GLOBEX, timezone: 'Europe/Berlin', effective_timezone: 'Europe/Berlin' })
const NIGHT = group(3, 'Night shift', { company_id: 2, company: GLOBEX, effective_timezone: 'UTC' })

const rule = (id: number, name: string, owner: { id: number; name: string }, fields: Record<string, unknown> = {}) => ({
  id,
  name,
  description: '',
  group_id: owner.id,
  group: { id: owner.id, name: owner.name },
  work_start_time: '09:00',
  work_end_time: '18:00',
  break_start_time: null,
  break_end_time: null,
  late_grace_period: 0,
  early_grace_period: 0,
  required_work_hours: 8,
  allowed_late_days: 0,
  location_required: false,
  allowed_latitude: null,
  allowed_longitude: null,
  location_radius: 0,
  work_days: '1,2,3,4,5',
  flexible_time: false,
  overtime_threshold_minutes: 30,
  status: 1,
  status_text: 'enabled',
  created_at: NOW,
  updated_at: NOW,
  ...fields,
})

const pagination = (total: number, page = 1, pageSize = 10) => {
  const totalPages = Math.ceil(total / pageSize)
  return {
    current_page: page,
    page_size: pageSize,
    total_items: total,
    total_pages: totalPages,
    has_next: page < totalPages,
    has_prev: page > 1,
  }
}

/** Every group row, to show what a request changed (or that it changed nothing). */
const groupRows = async () =>
  (await db.select().from(attendanceGroups).orderBy(asc(attendanceGroups.id))).map((row) => [
    row.id,
    row.name,
    row.description,
    row.companyId,
    row.managerId,
    row.timezone,
    row.status,
  ])

/** Every membership as [employee id, group id]. */
const memberRows = async () =>
  (await db.select().from(attendanceGroupMembers).orderBy(asc(attendanceGroupMembers.employeeId))).map((row) => [
    row.employeeId,
    row.groupId,
  ])

const ruleRows = async () => db.select().from(attendanceRules).orderBy(asc(attendanceRules.id))
const ruleIds = async () => (await ruleRows()).map((row) => [row.id, row.groupId])

const auditCount = async () => {
  const [{ n }] = await db.select({ n: count() }).from(auditLogs)
  return n
}

/** The audit rows written after the first `since` rows, without their ids. */
const auditSince = async (since: number) =>
  (await db.select().from(auditLogs).orderBy(asc(auditLogs.id))).slice(since).map(({ id: _id, ...row }) => row)

const audit = (action: string, resource: string, id: number, before: unknown, after: unknown, at = NOW) => ({
  actorId: 1,
  action,
  resource,
  resourceId: String(id),
  before,
  after,
  ip: null,
  createdAt: new Date(at),
})

/** The attendance group an employee is in, as the employee API shows it. */
const groupOfEmployee = async (id: number) => {
  const reply = await req(t.app, 'GET', `/api/v1/admin/employees/${id}`, { token: admin })
  expect(reply.status).toBe(200)
  return reply.body.data.attendance_group_id
}

describe('groups: create', () => {
  test('an empty list to begin with', async () => {
    const reply = await req(t.app, 'GET', GROUPS, { token: admin })
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual(okBody({ groups: [], pagination: pagination(0) }))
  })

  test('POST → 201 with body code 200: status 1, no members, no rules, the company’s zone; one audit row', async () => {
    const since = await auditCount()
    const reply = await req(t.app, 'POST', GROUPS, {
      token: admin,
      body: { name: ' Day shift ', description: ' Office staff ', company_id: 1, manager_id: 1 },
    })
    expect(reply.status).toBe(201)
    expect(reply.body).toEqual(okBody(DAY, 'Group created'))
    expect(await groupRows()).toEqual([[1, 'Day shift', 'Office staff', 1, 1, null, 1]])
    expect(await auditSince(since)).toEqual([audit('attendance_group.create', 'attendance_group', 1, null, DAY)])
  })

  test('a timezone of its own is canonicalised and is the effective zone', async () => {
    const reply = await req(t.app, 'POST', GROUPS, {
      token: admin,
      body: { name: 'Berlin office', company_id: 2, timezone: ' europe/berlin ' },
    })
    expect(reply.status).toBe(201)
    expect(reply.body).toEqual(okBody(BERLIN, 'Group created'))
  })

  test('no zone on the group nor its company → DEFAULT_TIMEZONE (UTC)', async () => {
    const reply = await req(t.app, 'POST', GROUPS, {
      token: admin,
      body: { name: 'Night shift', company_id: 2, manager_id: null, timezone: null },
    })
    expect(reply.status).toBe(201)
    expect(reply.body).toEqual(okBody(NIGHT, 'Group created'))
    expect((await groupRows()).map((row) => row[0])).toEqual([1, 2, 3])
  })

  const refusals: [string, unknown, unknown][] = [
    [
      'an unknown company and manager',
      { name: 'Ghost', company_id: 99, manager_id: 98 },
      refused(['company_id', 'names company 99, which does not exist'], ['manager_id', 'names employee 98, which does not exist']),
    ],
    [
      'an unknown manager',
      { name: 'Ghost', company_id: 1, manager_id: 98 },
      refused(['manager_id', 'names employee 98, which does not exist']),
    ],
    ['no company_id', { name: 'Ghost' }, invalidBody('company_id', 'is required')],
    ['company_id 0', { name: 'Ghost', company_id: 0 }, invalidBody('company_id', 'must be a positive whole number')],
    [
      'a bare offset as timezone',
      { name: 'Ghost', company_id: 1, timezone: '+08:00' },
      errorBody(400, '"+08:00" is not an IANA time zone; use a name such as Asia/Shanghai or UTC', {
        errors: [{ field: 'timezone', message: 'is not an IANA time zone' }],
      }),
    ],
    [
      'an unknown zone',
      { name: 'Ghost', company_id: 1, timezone: 'Mars/Base' },
      errorBody(400, '"Mars/Base" is not an IANA time zone; use a name such as Asia/Shanghai or UTC', {
        errors: [{ field: 'timezone', message: 'is not an IANA time zone' }],
      }),
    ],
    [
      'an empty timezone',
      { name: 'Ghost', company_id: 1, timezone: '' },
      invalidBody('timezone', 'must be an IANA time zone name such as Asia/Shanghai'),
    ],
    ['a blank name', { name: '  ', company_id: 1 }, refused(['name', 'must not be blank'])],
    ['no name', { company_id: 1 }, invalidBody('name', 'is required')],
  ]
  for (const [what, body, expected] of refusals)
    test(`POST with ${what} → 400, nothing added, no audit`, async () => {
      const since = await auditCount()
      const reply = await req(t.app, 'POST', GROUPS, { token: admin, body })
      expect(reply.status).toBe(400)
      expect(reply.body).toEqual(expected)
      expect((await groupRows()).map((row) => row[0])).toEqual([1, 2, 3])
      expect(await auditCount()).toBe(since)
    })
})

describe('groups: read and list', () => {
  test('GET :id reads one group', async () => {
    const reply = await req(t.app, 'GET', `${GROUPS}/2`, { token: admin })
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual(okBody(BERLIN))
  })

  test('GET :id of an unknown group → 404; a bad id → 400', async () => {
    const reply = await req(t.app, 'GET', `${GROUPS}/99`, { token: admin })
    expect(reply.status).toBe(404)
    expect(reply.body).toEqual(errorBody(404, 'Attendance group 99 does not exist'))
    for (const id of ['abc', '0', '-1']) expect((await req(t.app, 'GET', `${GROUPS}/${id}`, { token: admin })).body).toEqual(BAD_ID)
  })

  test('the list is style P2 in id order', async () => {
    const reply = await req(t.app, 'GET', GROUPS, { token: admin })
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual(okBody({ groups: [DAY, BERLIN, NIGHT], pagination: pagination(3) }))
  })

  test('page and page_size choose a window', async () => {
    const first = await req(t.app, 'GET', `${GROUPS}?page_size=2`, { token: admin })
    expect(first.body).toEqual(okBody({ groups: [DAY, BERLIN], pagination: pagination(3, 1, 2) }))
    const second = await req(t.app, 'GET', `${GROUPS}?page=2&page_size=2`, { token: admin })
    expect(second.body).toEqual(okBody({ groups: [NIGHT], pagination: pagination(3, 2, 2) }))
  })

  test('company_id and search filter; search ignores case', async () => {
    const cases: [string, unknown[]][] = [
      ['company_id=2', [BERLIN, NIGHT]],
      ['company_id=1', [DAY]],
      ['company_id=9', []],
      ['search=SHIFT', [DAY, NIGHT]],
      ['search=berlin', [BERLIN]],
      ['search=%25', []],
      ['company_id=2&search=shift', [NIGHT]],
    ]
    for (const [query, list] of cases) {
      const reply = await req(t.app, 'GET', `${GROUPS}?${query}`, { token: admin })
      expect(reply.status).toBe(200)
      expect(reply.body).toEqual(okBody({ groups: list, pagination: pagination(list.length) }))
    }
  })

  test('bad filters → 400', async () => {
    const status = await req(t.app, 'GET', `${GROUPS}?status=2`, { token: admin })
    expect(status.status).toBe(400)
    expect(status.body).toEqual(invalidBody('status', 'must be 0 or 1'))
    const company = await req(t.app, 'GET', `${GROUPS}?company_id=0`, { token: admin })
    expect(company.body).toEqual(invalidBody('company_id', 'must be a positive whole number'))
    const page = await req(t.app, 'GET', `${GROUPS}?page=0`, { token: admin })
    expect(page.body).toEqual(invalidBody('page', 'must be a whole number of at least 1'))
  })
})

describe('groups: update', () => {
  const LATE = group(3, 'Late shift', {
    description: 'Evenings',
    company_id: 2,
    company: GLOBEX,
    manager_id: 2,
    manager: BOB,
    timezone: 'Asia/Tokyo',
    effective_timezone: 'Asia/Tokyo',
    updated_at: LATER,
  })

  test('PUT changes name, description, manager and zone; updated_at and the audit follow the clock', async () => {
    const since = await auditCount()
    t.clock.set(LATER)
    try {
      const reply = await req(t.app, 'PUT', `${GROUPS}/3`, {
        token: admin,
        body: { name: ' Late shift ', description: ' Evenings ', manager_id: 2, timezone: 'asia/tokyo' },
      })
      expect(reply.status).toBe(200)
      expect(reply.body).toEqual(okAt(LATER, LATE, 'Group updated'))
      expect(await auditSince(since)).toEqual([audit('attendance_group.update', 'attendance_group', 3, NIGHT, LATE, LATER)])
    } finally {
      t.clock.set(NOW)
    }
    expect((await groupRows())[2]).toEqual([3, 'Late shift', 'Evenings', 2, 2, 'Asia/Tokyo', 1])
    expect((await req(t.app, 'GET', `${GROUPS}/3`, { token: admin })).body).toEqual(okBody(LATE))
  })

  test('fields not sent stay; timezone null falls back to the company’s zone, then the default', async () => {
    const cleared = await req(t.app, 'PUT', `${GROUPS}/3`, { token: admin, body: { timezone: null } })
    expect(cleared.body).toEqual(okBody({ ...LATE, timezone: null, effective_timezone: 'UTC', updated_at: NOW }, 'Group updated'))
    const moved = await req(t.app, 'PUT', `${GROUPS}/3`, { token: admin, body: { company_id: 1 } })
    expect(moved.body).toEqual(
      okBody(
        { ...LATE, company_id: 1, company: ACME, timezone: null, effective_timezone: 'Asia/Shanghai', updated_at: NOW },
        'Group updated',
      ),
    )
    const noManager = await req(t.app, 'PUT', `${GROUPS}/3`, { token: admin, body: { manager_id: null } })
    expect(noManager.body).toEqual(
      okBody(
        {
          ...LATE,
          company_id: 1,
          company: ACME,
          manager_id: null,
          manager: null,
          timezone: null,
          effective_timezone: 'Asia/Shanghai',
          updated_at: NOW,
        },
        'Group updated',
      ),
    )
    expect((await groupRows())[2]).toEqual([3, 'Late shift', 'Evenings', 1, null, null, 1])
  })

  test('status 0 disables, 1 enables; Accept-Language: zh gives 禁用 / 启用; the list filters by status', async () => {
    const off = await req(t.app, 'PUT', `${GROUPS}/2`, { token: admin, body: { status: 0 }, headers: { 'accept-language': 'zh' } })
    expect(off.status).toBe(200)
    expect(off.body).toEqual(okBody({ ...BERLIN, status: 0, status_text: '禁用' }, '考勤组已更新'))
    const read = await req(t.app, 'GET', `${GROUPS}/2`, { token: admin })
    expect(read.body).toEqual(okBody({ ...BERLIN, status: 0, status_text: 'disabled' }))
    const disabled = await req(t.app, 'GET', `${GROUPS}?status=0`, { token: admin })
    expect(disabled.body).toEqual(okBody({ groups: [{ ...BERLIN, status: 0, status_text: 'disabled' }], pagination: pagination(1) }))
    const enabled = await req(t.app, 'GET', `${GROUPS}?status=1`, { token: admin })
    const late = {
      ...LATE,
      company_id: 1,
      company: ACME,
      manager_id: null,
      manager: null,
      timezone: null,
      effective_timezone: 'Asia/Shanghai',
      updated_at: NOW,
    }
    expect(enabled.body).toEqual(okBody({ groups: [DAY, late], pagination: pagination(2) }))
    const on = await req(t.app, 'PUT', `${GROUPS}/2`, { token: admin, body: { status: 1 }, headers: { 'accept-language': 'zh' } })
    expect(on.body).toEqual(okBody({ ...BERLIN, status_text: '启用' }, '考勤组已更新'))
    expect((await groupRows())[1]).toEqual([2, 'Berlin office', '', 2, null, 'Europe/Berlin', 1])
  })

  const refusals: [string, unknown, unknown][] = [
    [
      'an unknown company and manager',
      { company_id: 99, manager_id: 98 },
      refused(['company_id', 'names company 99, which does not exist'], ['manager_id', 'names employee 98, which does not exist']),
    ],
    ['status 2', { status: 2 }, invalidBody('status', 'must be 0 or 1')],
    [
      'a bad zone',
      { timezone: 'Mars/Base' },
      errorBody(400, '"Mars/Base" is not an IANA time zone; use a name such as Asia/Shanghai or UTC', {
        errors: [{ field: 'timezone', message: 'is not an IANA time zone' }],
      }),
    ],
    ['a blank name', { name: ' ' }, refused(['name', 'must not be blank'])],
    ['a wrongly typed name', { name: 5 }, invalidBody('name', 'must be a string')],
  ]
  for (const [what, body, expected] of refusals)
    test(`PUT with ${what} → 400, nothing changes, no audit`, async () => {
      const before = await groupRows()
      const since = await auditCount()
      const reply = await req(t.app, 'PUT', `${GROUPS}/3`, { token: admin, body })
      expect(reply.status).toBe(400)
      expect(reply.body).toEqual(expected)
      expect(await groupRows()).toEqual(before)
      expect(await auditCount()).toBe(since)
    })

  test('PUT of an unknown group → 404; a bad id → 400; no audit', async () => {
    const since = await auditCount()
    const unknown = await req(t.app, 'PUT', `${GROUPS}/99`, { token: admin, body: { name: 'Nobody' } })
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual(errorBody(404, 'Attendance group 99 does not exist'))
    expect((await req(t.app, 'PUT', `${GROUPS}/abc`, { token: admin, body: { name: 'Nobody' } })).body).toEqual(BAD_ID)
    expect(await auditCount()).toBe(since)
  })

  test('every field at once puts the group back as it was created', async () => {
    const reply = await req(t.app, 'PUT', `${GROUPS}/3`, {
      token: admin,
      body: { name: 'Night shift', description: '', company_id: 2, manager_id: null, timezone: null, status: 1 },
    })
    expect(reply.body).toEqual(okBody(NIGHT, 'Group updated'))
    expect(await groupRows()).toEqual([
      [1, 'Day shift', 'Office staff', 1, 1, null, 1],
      [2, 'Berlin office', '', 2, null, 'Europe/Berlin', 1],
      [3, 'Night shift', '', 2, null, null, 1],
    ])
  })
})

describe('groups: members', () => {
  test('POST employees adds them (a repeated id once); the group counts them; one audit row', async () => {
    const since = await auditCount()
    const reply = await req(t.app, 'POST', `${GROUPS}/1/employees`, { token: admin, body: { employee_ids: [2, 1, 2] } })
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual(okBody(null, 'Employees added'))
    expect(await memberRows()).toEqual([
      [1, 1],
      [2, 1],
    ])
    expect(await auditSince(since)).toEqual([
      audit('attendance_group.employees.add', 'attendance_group', 1, { employee_ids: [] }, { employee_ids: [1, 2] }),
    ])
    const members = await req(t.app, 'GET', `${GROUPS}/1/employees`, { token: admin })
    expect(members.status).toBe(200)
    expect(members.body).toEqual(okBody([ANN, BOB]))
    expect((await req(t.app, 'GET', `${GROUPS}/1`, { token: admin })).body).toEqual(okBody({ ...DAY, employee_count: 2 }))
    expect(await groupOfEmployee(1)).toBe(1)
    expect(await groupOfEmployee(2)).toBe(1)
    expect(await groupOfEmployee(3)).toBeNull()
  })

  test('adding an employee of another group moves them; the other group’s count drops', async () => {
    const reply = await req(t.app, 'POST', `${GROUPS}/3/employees`, { token: admin, body: { employee_ids: [3, 2] } })
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual(okBody(null, 'Employees added'))
    expect(await memberRows()).toEqual([
      [1, 1],
      [2, 3],
      [3, 3],
    ])
    expect((await req(t.app, 'GET', `${GROUPS}/1/employees`, { token: admin })).body).toEqual(okBody([ANN]))
    expect((await req(t.app, 'GET', `${GROUPS}/3/employees`, { token: admin })).body).toEqual(okBody([BOB, CID]))
    const list = await req(t.app, 'GET', GROUPS, { token: admin })
    expect(list.body).toEqual(
      okBody({ groups: [{ ...DAY, employee_count: 1 }, BERLIN, { ...NIGHT, employee_count: 2 }], pagination: pagination(3) }),
    )
    expect(await groupOfEmployee(2)).toBe(3)
    expect((await req(t.app, 'GET', `${GROUPS}/2/employees`, { token: admin })).body).toEqual(okBody([]))
  })

  test('unknown ids → 400 naming every one of them; nothing changes, not even for the known ids; no audit', async () => {
    const since = await auditCount()
    const added = await req(t.app, 'POST', `${GROUPS}/1/employees`, { token: admin, body: { employee_ids: [3, 98, 4, 99] } })
    expect(added.status).toBe(400)
    expect(added.body).toEqual(refused(['employee_ids', 'names employees that do not exist: 98, 99']))
    const removed = await req(t.app, 'DELETE', `${GROUPS}/3/employees`, { token: admin, body: { employee_ids: [2, 97] } })
    expect(removed.status).toBe(400)
    expect(removed.body).toEqual(refused(['employee_ids', 'names employees that do not exist: 97']))
    expect(await memberRows()).toEqual([
      [1, 1],
      [2, 3],
      [3, 3],
    ])
    expect(await auditCount()).toBe(since)
  })

  test('an empty, missing or badly typed employee_ids → 400, nothing changes', async () => {
    const since = await auditCount()
    for (const method of ['POST', 'DELETE']) {
      const empty = await req(t.app, method, `${GROUPS}/1/employees`, { token: admin, body: { employee_ids: [] } })
      expect(empty.status).toBe(400)
      expect(empty.body).toEqual(invalidBody('employee_ids', 'must have at least 1 item'))
      const zero = await req(t.app, method, `${GROUPS}/1/employees`, { token: admin, body: { employee_ids: [0] } })
      expect(zero.status).toBe(400)
      expect(zero.body).toEqual(invalidBody('employee_ids.0', 'must be a positive whole number'))
      const missing = await req(t.app, method, `${GROUPS}/1/employees`, { token: admin, body: {} })
      expect(missing.body).toEqual(invalidBody('employee_ids', 'is required'))
    }
    expect(await memberRows()).toHaveLength(3)
    expect(await auditCount()).toBe(since)
  })

  test('an unknown group → 404 on add, list and remove; a bad id → 400', async () => {
    const since = await auditCount()
    const missing = errorBody(404, 'Attendance group 99 does not exist')
    const add = await req(t.app, 'POST', `${GROUPS}/99/employees`, { token: admin, body: { employee_ids: [4] } })
    expect(add.status).toBe(404)
    expect(add.body).toEqual(missing)
    const list = await req(t.app, 'GET', `${GROUPS}/99/employees`, { token: admin })
    expect(list.status).toBe(404)
    expect(list.body).toEqual(missing)
    const remove = await req(t.app, 'DELETE', `${GROUPS}/99/employees`, { token: admin, body: { employee_ids: [1] } })
    expect(remove.status).toBe(404)
    expect(remove.body).toEqual(missing)
    expect((await req(t.app, 'GET', `${GROUPS}/0/employees`, { token: admin })).body).toEqual(BAD_ID)
    expect(await memberRows()).toHaveLength(3)
    expect(await auditCount()).toBe(since)
  })

  test('DELETE employees removes them from the group; the employee shows no group; one audit row', async () => {
    const since = await auditCount()
    const reply = await req(t.app, 'DELETE', `${GROUPS}/3/employees`, { token: admin, body: { employee_ids: [3] } })
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual(okBody(null, 'Employees removed'))
    expect(await memberRows()).toEqual([
      [1, 1],
      [2, 3],
    ])
    expect(await auditSince(since)).toEqual([
      audit('attendance_group.employees.remove', 'attendance_group', 3, { employee_ids: [2, 3] }, { employee_ids: [2] }),
    ])
    expect((await req(t.app, 'GET', `${GROUPS}/3/employees`, { token: admin })).body).toEqual(okBody([BOB]))
    expect((await req(t.app, 'GET', `${GROUPS}/3`, { token: admin })).body).toEqual(okBody({ ...NIGHT, employee_count: 1 }))
    expect(await groupOfEmployee(3)).toBeNull()
    const [{ n }] = await db.select({ n: count() }).from(employees)
    expect(n).toBe(4)
  })
})

const DAY_SUMMARY = { id: 1, name: 'Day shift' }
const NIGHT_SUMMARY = { id: 3, name: 'Night shift' }
const T_NIGHT = '2024-03-15T10:00:00.000Z'
const T_EARLY = '2024-03-15T08:00:00.000Z'

const OFFICE = rule(1, 'Office hours', DAY_SUMMARY, {
  description: 'Main office',
  break_start_time: '12:00',
  break_end_time: '13:00',
  late_grace_period: 5,
  early_grace_period: 10,
  required_work_hours: 8,
  allowed_late_days: 3,
  location_required: true,
  allowed_latitude: 31.2304,
  allowed_longitude: 121.4737,
  location_radius: 200,
  work_days: '1,2,3,4,5',
  flexible_time: true,
})
const NIGHT_RULE = rule(2, 'Night', NIGHT_SUMMARY, {
  work_start_time: '22:00',
  work_end_time: '06:00',
  required_work_hours: 7.5,
  work_days: '1,2,3,4',
  created_at: T_NIGHT,
  updated_at: T_NIGHT,
})
const EARLY = rule(3, 'Early', DAY_SUMMARY, {
  work_start_time: '07:30',
  work_end_time: '16:30',
  work_days: '6,7',
  created_at: T_EARLY,
  updated_at: T_EARLY,
})

/** A valid create body; each refusal case overrides part of it. */
const VALID = {
  name: 'Ghost',
  group_id: 1,
  work_start_time: '09:00',
  work_end_time: '18:00',
  required_work_hours: 8,
  work_days: '1,2,3,4,5',
}

describe('rules: create', () => {
  test('an empty list to begin with', async () => {
    const reply = await req(t.app, 'GET', RULES, { token: admin })
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual(okBody({ rules: [], pagination: pagination(0) }))
  })

  test('POST with every field → 201, status 1, group summary; the row and one audit row', async () => {
    const since = await auditCount()
    const reply = await req(t.app, 'POST', RULES, {
      token: admin,
      body: {
        name: ' Office hours ',
        description: ' Main office ',
        group_id: 1,
        work_start_time: '09:00',
        work_end_time: '18:00',
        break_start_time: '12:00',
        break_end_time: '13:00',
        late_grace_period: 5,
        early_grace_period: 10,
        required_work_hours: 8,
        allowed_late_days: 3,
        location_required: true,
        allowed_latitude: 31.2304,
        allowed_longitude: 121.4737,
        location_radius: 200,
        work_days: '1,2,3,4,5',
        flexible_time: true,
      },
    })
    expect(reply.status).toBe(201)
    expect(reply.body).toEqual(okBody(OFFICE, 'Rule created'))
    expect(await ruleRows()).toEqual([
      {
        id: 1,
        groupId: 1,
        name: 'Office hours',
        description: 'Main office',
        workStartTime: '09:00',
        workEndTime: '18:00',
        breakStartTime: '12:00',
        breakEndTime: '13:00',
        lateGracePeriod: 5,
        earlyGracePeriod: 10,
        requiredWorkHours: 8,
        allowedLateDays: 3,
        locationRequired: true,
        allowedLatitude: 31.2304,
        allowedLongitude: 121.4737,
        locationRadius: 200,
        workDays: '1,2,3,4,5',
        flexibleTime: true,
        overtimeThresholdMinutes: 30,
        status: 1,
        createdAt: new Date(NOW),
        updatedAt: new Date(NOW),
      },
    ])
    expect(await auditSince(since)).toEqual([audit('attendance_rule.create', 'attendance_rule', 1, null, OFFICE)])
    expect((await req(t.app, 'GET', `${GROUPS}/1`, { token: admin })).body).toEqual(okBody({ ...DAY, employee_count: 1, rule_count: 1 }))
  })

  test('optional fields default; an overnight shift (end before start) is allowed', async () => {
    t.clock.set(T_NIGHT)
    try {
      const reply = await req(t.app, 'POST', RULES, {
        token: admin,
        body: {
          name: 'Night',
          group_id: 3,
          work_start_time: '22:00',
          work_end_time: '06:00',
          required_work_hours: 7.5,
          work_days: '1,2,3,4',
        },
      })
      expect(reply.status).toBe(201)
      expect(reply.body).toEqual(okAt(T_NIGHT, NIGHT_RULE, 'Rule created'))
    } finally {
      t.clock.set(NOW)
    }
  })

  test('null break times and coordinates are the same as none', async () => {
    t.clock.set(T_EARLY)
    try {
      const reply = await req(t.app, 'POST', RULES, {
        token: admin,
        body: {
          name: 'Early',
          group_id: 1,
          work_start_time: '07:30',
          work_end_time: '16:30',
          break_start_time: null,
          break_end_time: null,
          allowed_latitude: null,
          allowed_longitude: null,
          required_work_hours: 8,
          work_days: '6,7',
        },
      })
      expect(reply.status).toBe(201)
      expect(reply.body).toEqual(okAt(T_EARLY, EARLY, 'Rule created'))
    } finally {
      t.clock.set(NOW)
    }
    expect(await ruleIds()).toEqual([
      [1, 1],
      [2, 3],
      [3, 1],
    ])
  })

  const TIME = 'must be a time HH:MM between 00:00 and 23:59'
  const DAYS = 'must be distinct weekday digits 1 to 7 joined by commas, such as 1,2,3,4,5'
  const MINUTES = 'must be a whole number of minutes from 0 to 1440'
  const HOURS = 'must be a number of hours from 0 to 24'
  const refusals: [string, Record<string, unknown>, unknown][] = [
    ['work_start_time 24:00', { work_start_time: '24:00' }, invalidBody('work_start_time', TIME)],
    ['work_start_time 9:00', { work_start_time: '9:00' }, invalidBody('work_start_time', TIME)],
    ['work_end_time 12:60', { work_end_time: '12:60' }, invalidBody('work_end_time', TIME)],
    ['break_start_time 25:00', { break_start_time: '25:00', break_end_time: '13:00' }, invalidBody('break_start_time', TIME)],
    ['a repeated weekday', { work_days: '1,1' }, refused(['work_days', 'must not repeat a weekday'])],
    ['weekdays out of range', { work_days: '0,8' }, invalidBody('work_days', DAYS)],
    ['a weekday range', { work_days: '1-5' }, invalidBody('work_days', DAYS)],
    ['empty work_days', { work_days: '' }, invalidBody('work_days', DAYS)],
    ['a negative late grace period', { late_grace_period: -1 }, invalidBody('late_grace_period', MINUTES)],
    ['a negative early grace period', { early_grace_period: -1 }, invalidBody('early_grace_period', MINUTES)],
    ['required_work_hours -1', { required_work_hours: -1 }, invalidBody('required_work_hours', HOURS)],
    ['required_work_hours 25', { required_work_hours: 25 }, invalidBody('required_work_hours', HOURS)],
    ['allowed_late_days -1', { allowed_late_days: -1 }, invalidBody('allowed_late_days', 'must be a whole number of days from 0 to 31')],
    ['latitude 91', { allowed_latitude: 91, allowed_longitude: 0 }, invalidBody('allowed_latitude', 'must be a latitude from -90 to 90')],
    [
      'longitude 181',
      { allowed_latitude: 0, allowed_longitude: 181 },
      invalidBody('allowed_longitude', 'must be a longitude from -180 to 180'),
    ],
    [
      'location_required without coordinates or radius',
      { location_required: true },
      refused(
        ['allowed_latitude', 'and allowed_longitude are required when location_required is true'],
        ['location_radius', 'must be above 0 when location_required is true'],
      ),
    ],
    [
      'location_required with radius 0',
      { location_required: true, allowed_latitude: 31.2, allowed_longitude: 121.5, location_radius: 0 },
      refused(['location_radius', 'must be above 0 when location_required is true']),
    ],
    [
      'location_required with coordinates but no radius',
      { location_required: true, allowed_latitude: 31.2, allowed_longitude: 121.5 },
      refused(['location_radius', 'must be above 0 when location_required is true']),
    ],
    ['only break_start_time', { break_start_time: '12:00' }, refused(['break_end_time', 'is required with the other break time'])],
    ['only break_end_time', { break_end_time: '13:00' }, refused(['break_start_time', 'is required with the other break time'])],
    [
      'equal break times',
      { break_start_time: '12:00', break_end_time: '12:00' },
      refused(['break_end_time', 'must differ from break_start_time']),
    ],
    ['only a latitude', { allowed_latitude: 31.2 }, refused(['allowed_longitude', 'is required with the other coordinate'])],
    ['only a longitude', { allowed_longitude: 121.5 }, refused(['allowed_latitude', 'is required with the other coordinate'])],
    ['work_end_time equal to work_start_time', { work_end_time: '09:00' }, refused(['work_end_time', 'must differ from work_start_time'])],
    ['an unknown group', { group_id: 99 }, refused(['group_id', 'names attendance group 99, which does not exist'])],
    ['group_id 0', { group_id: 0 }, invalidBody('group_id', 'must be a positive whole number')],
    ['a blank name', { name: '   ' }, refused(['name', 'must not be blank'])],
    ['a wrongly typed location_required', { location_required: 'yes' }, invalidBody('location_required', 'must be a boolean')],
  ]
  for (const [what, change, expected] of refusals)
    test(`POST with ${what} → 400, nothing added, no audit`, async () => {
      const since = await auditCount()
      const reply = await req(t.app, 'POST', RULES, { token: admin, body: { ...VALID, ...change } })
      expect(reply.status).toBe(400)
      expect(reply.body).toEqual(expected)
      expect((await ruleIds()).map(([id]) => id)).toEqual([1, 2, 3])
      expect(await auditCount()).toBe(since)
    })

  test('POST without the required fields → 400 naming each', async () => {
    const reply = await req(t.app, 'POST', RULES, { token: admin, body: { name: 'Ghost' } })
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual(
      errorBody(400, 'Invalid request: group_id is required', {
        errors: ['group_id', 'work_start_time', 'work_end_time', 'required_work_hours', 'work_days'].map((field) => ({
          field,
          message: 'is required',
        })),
      }),
    )
    expect(await ruleIds()).toHaveLength(3)
  })

  test('bounds are inclusive: 24 hours, all seven days, the poles and the date line', async () => {
    const since = await auditCount()
    const reply = await req(t.app, 'POST', RULES, {
      token: admin,
      body: {
        ...VALID,
        name: 'Edge',
        required_work_hours: 24,
        work_days: '7,6,5,4,3,2,1',
        location_required: true,
        allowed_latitude: -90,
        allowed_longitude: 180,
        location_radius: 1,
      },
    })
    expect(reply.status).toBe(201)
    const edge = rule(4, 'Edge', DAY_SUMMARY, {
      required_work_hours: 24,
      work_days: '7,6,5,4,3,2,1',
      location_required: true,
      allowed_latitude: -90,
      allowed_longitude: 180,
      location_radius: 1,
    })
    expect(reply.body).toEqual(okBody(edge, 'Rule created'))
    // tidy up so the lists below hold three rules
    const removed = await req(t.app, 'DELETE', `${RULES}/4`, { token: admin })
    expect(removed.body).toEqual(okBody(null, 'Rule deleted'))
    expect(await auditSince(since)).toEqual([
      audit('attendance_rule.create', 'attendance_rule', 4, null, edge),
      audit('attendance_rule.delete', 'attendance_rule', 4, edge, null),
    ])
    expect((await ruleIds()).map(([id]) => id)).toEqual([1, 2, 3])
  })
})

describe('rules: list', () => {
  const cases: [string, unknown[]][] = [
    ['', [NIGHT_RULE, OFFICE, EARLY]],
    ['?order=asc', [EARLY, OFFICE, NIGHT_RULE]],
    ['?sort=created_at&order=desc', [NIGHT_RULE, OFFICE, EARLY]],
    ['?sort=updated_at', [NIGHT_RULE, OFFICE, EARLY]],
    ['?sort=id', [EARLY, NIGHT_RULE, OFFICE]],
    ['?sort=id&order=asc', [OFFICE, NIGHT_RULE, EARLY]],
    ['?sort=name&order=asc', [EARLY, NIGHT_RULE, OFFICE]],
    ['?sort=name', [OFFICE, NIGHT_RULE, EARLY]],
    ['?sort=work_start_time&order=asc', [EARLY, OFFICE, NIGHT_RULE]],
    ['?group_id=1', [OFFICE, EARLY]],
    ['?group_id=3', [NIGHT_RULE]],
    ['?group_id=2', []],
    ['?status=1&group_id=1&order=asc', [EARLY, OFFICE]],
    ['?status=0', []],
  ]
  for (const [query, list] of cases)
    test(`GET ${query || '(defaults: created_at desc)'}`, async () => {
      const reply = await req(t.app, 'GET', `${RULES}${query}`, { token: admin })
      expect(reply.status).toBe(200)
      expect(reply.body).toEqual(okBody({ rules: list, pagination: pagination(list.length) }))
    })

  test('page and page_size choose a window of the sorted list', async () => {
    const first = await req(t.app, 'GET', `${RULES}?page_size=2`, { token: admin })
    expect(first.body).toEqual(okBody({ rules: [NIGHT_RULE, OFFICE], pagination: pagination(3, 1, 2) }))
    const second = await req(t.app, 'GET', `${RULES}?page=2&page_size=2`, { token: admin })
    expect(second.body).toEqual(okBody({ rules: [EARLY], pagination: pagination(3, 2, 2) }))
    const beyond = await req(t.app, 'GET', `${RULES}?page=5&page_size=2`, { token: admin })
    expect(beyond.body).toEqual(okBody({ rules: [], pagination: pagination(3, 5, 2) }))
  })

  test('an unknown sort or order, or a bad filter → 400', async () => {
    const sort = await req(t.app, 'GET', `${RULES}?sort=salary`, { token: admin })
    expect(sort.status).toBe(400)
    expect(sort.body).toEqual(invalidBody('sort', 'must be one of id, name, created_at, updated_at, work_start_time'))
    const order = await req(t.app, 'GET', `${RULES}?order=up`, { token: admin })
    expect(order.status).toBe(400)
    expect(order.body).toEqual(invalidBody('order', 'must be asc or desc'))
    const status = await req(t.app, 'GET', `${RULES}?status=5`, { token: admin })
    expect(status.body).toEqual(invalidBody('status', 'must be 0 or 1'))
    const groupId = await req(t.app, 'GET', `${RULES}?group_id=abc`, { token: admin })
    expect(groupId.body).toEqual(invalidBody('group_id', 'must be a positive whole number'))
  })
})

describe('rules: read, update, delete', () => {
  const EARLY_BIRD = rule(3, 'Early bird', NIGHT_SUMMARY, {
    description: 'Dawn',
    work_start_time: '06:00',
    work_end_time: '15:00',
    break_start_time: '10:00',
    break_end_time: '10:30',
    late_grace_period: 15,
    early_grace_period: 20,
    required_work_hours: 8.5,
    allowed_late_days: 2,
    location_required: true,
    allowed_latitude: 39.9042,
    allowed_longitude: 116.4074,
    location_radius: 500,
    work_days: '1,3,5',
    flexible_time: true,
    created_at: T_EARLY,
    updated_at: LATER,
  })

  test('GET :id reads one rule; an unknown one → 404; a bad id → 400', async () => {
    const reply = await req(t.app, 'GET', `${RULES}/1`, { token: admin })
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual(okBody(OFFICE))
    const unknown = await req(t.app, 'GET', `${RULES}/99`, { token: admin })
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual(errorBody(404, 'Attendance rule 99 does not exist'))
    expect((await req(t.app, 'GET', `${RULES}/x`, { token: admin })).body).toEqual(BAD_ID)
  })

  test('PUT accepts every create field (moving the rule to another group); one audit row', async () => {
    const since = await auditCount()
    t.clock.set(LATER)
    try {
      const reply = await req(t.app, 'PUT', `${RULES}/3`, {
        token: admin,
        body: {
          name: ' Early bird ',
          description: ' Dawn ',
          group_id: 3,
          work_start_time: '06:00',
          work_end_time: '15:00',
          break_start_time: '10:00',
          break_end_time: '10:30',
          late_grace_period: 15,
          early_grace_period: 20,
          required_work_hours: 8.5,
          allowed_late_days: 2,
          location_required: true,
          allowed_latitude: 39.9042,
          allowed_longitude: 116.4074,
          location_radius: 500,
          work_days: '1,3,5',
          flexible_time: true,
        },
      })
      expect(reply.status).toBe(200)
      expect(reply.body).toEqual(okAt(LATER, EARLY_BIRD, 'Rule updated'))
      expect(await auditSince(since)).toEqual([audit('attendance_rule.update', 'attendance_rule', 3, EARLY, EARLY_BIRD, LATER)])
    } finally {
      t.clock.set(NOW)
    }
    const [row] = (await ruleRows()).filter((r) => r.id === 3)
    expect(row).toEqual({
      id: 3,
      groupId: 3,
      name: 'Early bird',
      description: 'Dawn',
      workStartTime: '06:00',
      workEndTime: '15:00',
      breakStartTime: '10:00',
      breakEndTime: '10:30',
      lateGracePeriod: 15,
      earlyGracePeriod: 20,
      requiredWorkHours: 8.5,
      allowedLateDays: 2,
      locationRequired: true,
      allowedLatitude: 39.9042,
      allowedLongitude: 116.4074,
      locationRadius: 500,
      workDays: '1,3,5',
      flexibleTime: true,
      overtimeThresholdMinutes: 30,
      status: 1,
      createdAt: new Date(T_EARLY),
      updatedAt: new Date(LATER),
    })
    const list = await req(t.app, 'GET', GROUPS, { token: admin })
    expect(list.body).toEqual(
      okBody({
        groups: [{ ...DAY, employee_count: 1, rule_count: 1 }, BERLIN, { ...NIGHT, employee_count: 1, rule_count: 2 }],
        pagination: pagination(3),
      }),
    )
    const byUpdate = await req(t.app, 'GET', `${RULES}?sort=updated_at`, { token: admin })
    expect(byUpdate.body).toEqual(okBody({ rules: [EARLY_BIRD, NIGHT_RULE, OFFICE], pagination: pagination(3) }))
  })

  const refusals: [string, number, Record<string, unknown>, unknown][] = [
    [
      'location_required on a rule without coordinates',
      2,
      { location_required: true },
      refused(
        ['allowed_latitude', 'and allowed_longitude are required when location_required is true'],
        ['location_radius', 'must be above 0 when location_required is true'],
      ),
    ],
    [
      'location_required with coordinates on a rule with radius 0',
      2,
      { location_required: true, allowed_latitude: 1, allowed_longitude: 2 },
      refused(['location_radius', 'must be above 0 when location_required is true']),
    ],
    ['clearing one break time', 1, { break_start_time: null }, refused(['break_start_time', 'is required with the other break time'])],
    ['clearing one coordinate', 1, { allowed_longitude: null }, refused(['allowed_longitude', 'is required with the other coordinate'])],
    [
      'an end time equal to the stored start',
      1,
      { work_end_time: '09:00' },
      refused(['work_end_time', 'must differ from work_start_time']),
    ],
    ['a repeated weekday', 1, { work_days: '5,5' }, refused(['work_days', 'must not repeat a weekday'])],
    [
      'weekday 9',
      1,
      { work_days: '1,2,9' },
      invalidBody('work_days', 'must be distinct weekday digits 1 to 7 joined by commas, such as 1,2,3,4,5'),
    ],
    ['24:00', 1, { work_start_time: '24:00' }, invalidBody('work_start_time', 'must be a time HH:MM between 00:00 and 23:59')],
    [
      'required_work_hours 25',
      1,
      { required_work_hours: 25 },
      invalidBody('required_work_hours', 'must be a number of hours from 0 to 24'),
    ],
    ['an unknown group', 1, { group_id: 99 }, refused(['group_id', 'names attendance group 99, which does not exist'])],
    ['a blank name', 1, { name: ' ' }, refused(['name', 'must not be blank'])],
    ['status 2', 1, { status: 2 }, invalidBody('status', 'must be 0 or 1')],
  ]
  for (const [what, id, body, expected] of refusals)
    test(`PUT with ${what} → 400, nothing changes, no audit`, async () => {
      const before = await ruleRows()
      const since = await auditCount()
      const reply = await req(t.app, 'PUT', `${RULES}/${id}`, { token: admin, body })
      expect(reply.status).toBe(400)
      expect(reply.body).toEqual(expected)
      expect(await ruleRows()).toEqual(before)
      expect(await auditCount()).toBe(since)
    })

  test('PUT may clear breaks and location together', async () => {
    const reply = await req(t.app, 'PUT', `${RULES}/1`, {
      token: admin,
      body: {
        break_start_time: null,
        break_end_time: null,
        location_required: false,
        allowed_latitude: null,
        allowed_longitude: null,
        location_radius: 0,
      },
    })
    expect(reply.status).toBe(200)
    const cleared = {
      ...OFFICE,
      break_start_time: null,
      break_end_time: null,
      location_required: false,
      allowed_latitude: null,
      allowed_longitude: null,
      location_radius: 0,
    }
    expect(reply.body).toEqual(okBody(cleared, 'Rule updated'))
    const back = await req(t.app, 'PUT', `${RULES}/1`, {
      token: admin,
      body: {
        break_start_time: '12:00',
        break_end_time: '13:00',
        location_required: true,
        allowed_latitude: 31.2304,
        allowed_longitude: 121.4737,
        location_radius: 200,
      },
    })
    expect(back.body).toEqual(okBody(OFFICE, 'Rule updated'))
  })

  test('status 0 disables and 1 enables (zh texts too); the list filters by status', async () => {
    const off = await req(t.app, 'PUT', `${RULES}/2`, { token: admin, body: { status: 0 }, headers: { 'accept-language': 'zh' } })
    expect(off.status).toBe(200)
    expect(off.body).toEqual(okBody({ ...NIGHT_RULE, status: 0, status_text: '禁用', updated_at: NOW }, '考勤规则已更新'))
    const disabled = { ...NIGHT_RULE, status: 0, status_text: 'disabled', updated_at: NOW }
    expect((await req(t.app, 'GET', `${RULES}/2`, { token: admin })).body).toEqual(okBody(disabled))
    const zero = await req(t.app, 'GET', `${RULES}?status=0`, { token: admin })
    expect(zero.body).toEqual(okBody({ rules: [disabled], pagination: pagination(1) }))
    const one = await req(t.app, 'GET', `${RULES}?status=1&sort=id&order=asc`, { token: admin })
    expect(one.body).toEqual(okBody({ rules: [OFFICE, EARLY_BIRD], pagination: pagination(2) }))
    const zh = await req(t.app, 'GET', `${RULES}?status=0`, { token: admin, headers: { 'accept-language': 'zh-CN,zh;q=0.9' } })
    expect(zh.body).toEqual(okBody({ rules: [{ ...disabled, status_text: '禁用' }], pagination: pagination(1) }, '成功'))
    const on = await req(t.app, 'PUT', `${RULES}/2`, { token: admin, body: { status: 1 }, headers: { 'accept-language': 'zh' } })
    expect(on.body).toEqual(okBody({ ...NIGHT_RULE, status_text: '启用', updated_at: NOW }, '考勤规则已更新'))
  })

  test('PUT of an unknown rule → 404; a bad id → 400; no audit', async () => {
    const since = await auditCount()
    const unknown = await req(t.app, 'PUT', `${RULES}/99`, { token: admin, body: { status: 0 } })
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual(errorBody(404, 'Attendance rule 99 does not exist'))
    expect((await req(t.app, 'PUT', `${RULES}/0`, { token: admin, body: { status: 0 } })).body).toEqual(BAD_ID)
    expect(await auditCount()).toBe(since)
  })

  test('DELETE → data null; the row goes; one audit row; again → 404', async () => {
    const since = await auditCount()
    const reply = await req(t.app, 'DELETE', `${RULES}/2`, { token: admin })
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual(okBody(null, 'Rule deleted'))
    expect(await ruleIds()).toEqual([
      [1, 1],
      [3, 3],
    ])
    const last = { ...NIGHT_RULE, updated_at: NOW }
    expect(await auditSince(since)).toEqual([audit('attendance_rule.delete', 'attendance_rule', 2, last, null)])
    const read = await req(t.app, 'GET', `${RULES}/2`, { token: admin })
    expect(read.status).toBe(404)
    expect(read.body).toEqual(errorBody(404, 'Attendance rule 2 does not exist'))
    const again = await req(t.app, 'DELETE', `${RULES}/2`, { token: admin })
    expect(again.status).toBe(404)
    expect(again.body).toEqual(errorBody(404, 'Attendance rule 2 does not exist'))
    expect((await req(t.app, 'DELETE', `${RULES}/abc`, { token: admin })).body).toEqual(BAD_ID)
    expect(await auditCount()).toBe(since + 1)
  })
})

describe('deleting groups and companies', () => {
  const companyRows = async () => (await db.select().from(companies).orderBy(asc(companies.id))).map((row) => row.id)

  test('a company a group references cannot be deleted → 409, nothing changes', async () => {
    const since = await auditCount()
    for (const id of [1, 2]) {
      const reply = await req(t.app, 'DELETE', `/api/v1/admin/companies/${id}`, { token: admin })
      expect(reply.status).toBe(409)
      expect(reply.body).toEqual(errorBody(409, `Company ${id} still has employees or attendance groups; move or delete them first`))
    }
    expect(await companyRows()).toEqual([1, 2])
    expect(await groupRows()).toHaveLength(3)
    expect(await auditCount()).toBe(since)
  })

  test('DELETE a group → data null; its rules and memberships go, its employees stay; one audit row', async () => {
    const since = await auditCount()
    const reply = await req(t.app, 'DELETE', `${GROUPS}/1`, { token: admin })
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual(okBody(null, 'Group deleted'))
    expect((await groupRows()).map((row) => row[0])).toEqual([2, 3])
    expect(await ruleIds()).toEqual([[3, 3]])
    expect(await memberRows()).toEqual([[2, 3]])
    const [{ n }] = await db.select({ n: count() }).from(employees)
    expect(n).toBe(4)
    expect(await groupOfEmployee(1)).toBeNull()
    expect(await groupOfEmployee(2)).toBe(3)
    expect(await auditSince(since)).toEqual([
      audit('attendance_group.delete', 'attendance_group', 1, { ...DAY, employee_count: 1, rule_count: 1, employee_ids: [1] }, null),
    ])
    const gone = await req(t.app, 'GET', `${RULES}/1`, { token: admin })
    expect(gone.status).toBe(404)
  })

  test('a deleted group → 404 on read, update, delete and members', async () => {
    const since = await auditCount()
    const missing = errorBody(404, 'Attendance group 1 does not exist')
    const calls: [string, string, unknown][] = [
      ['GET', `${GROUPS}/1`, undefined],
      ['PUT', `${GROUPS}/1`, { name: 'Back' }],
      ['DELETE', `${GROUPS}/1`, undefined],
      ['GET', `${GROUPS}/1/employees`, undefined],
      ['POST', `${GROUPS}/1/employees`, { employee_ids: [1] }],
    ]
    for (const [method, path, body] of calls) {
      const reply = await req(t.app, method, path, { token: admin, body })
      expect(reply.status).toBe(404)
      expect(reply.body).toEqual(missing)
    }
    expect((await req(t.app, 'DELETE', `${GROUPS}/0`, { token: admin })).body).toEqual(BAD_ID)
    expect(await memberRows()).toEqual([[2, 3]])
    expect(await auditCount()).toBe(since)
  })

  test('once no group references it, the company can be deleted', async () => {
    const reply = await req(t.app, 'DELETE', '/api/v1/admin/companies/1', { token: admin })
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual(okBody(null, 'Company deleted'))
    expect(await companyRows()).toEqual([2])
  })
})

describe('access', () => {
  let worker: string

  beforeAll(async () => {
    worker = (await makeUser(t.app, admin, 'worker', ['employee'])).token
  })

  const routes: [string, string, string, unknown, string][] = [
    ['POST', '/rules', RULES, { ...VALID, group_id: 3 }, 'attendance_rules:create'],
    ['GET', '/rules', RULES, undefined, 'attendance_rules:read'],
    ['GET', '/rules/:id', `${RULES}/3`, undefined, 'attendance_rules:read'],
    ['PUT', '/rules/:id', `${RULES}/3`, { status: 0 }, 'attendance_rules:update'],
    ['DELETE', '/rules/:id', `${RULES}/3`, undefined, 'attendance_rules:delete'],
    ['POST', '/groups', GROUPS, { name: 'Sneaky', company_id: 2 }, 'attendance_groups:create'],
    ['GET', '/groups', GROUPS, undefined, 'attendance_groups:read'],
    ['GET', '/groups/:id', `${GROUPS}/3`, undefined, 'attendance_groups:read'],
    ['PUT', '/groups/:id', `${GROUPS}/3`, { status: 0 }, 'attendance_groups:update'],
    ['DELETE', '/groups/:id', `${GROUPS}/3`, undefined, 'attendance_groups:delete'],
    ['POST', '/groups/:id/employees', `${GROUPS}/3/employees`, { employee_ids: [4] }, 'attendance_groups:update'],
    ['GET', '/groups/:id/employees', `${GROUPS}/3/employees`, undefined, 'attendance_groups:read'],
    ['DELETE', '/groups/:id/employees', `${GROUPS}/3/employees`, { employee_ids: [2] }, 'attendance_groups:update'],
  ]

  const snapshot = async () => [await groupRows(), await memberRows(), await ruleRows(), await auditCount()]

  test('every rules and groups route is in the table, with the permission its docs declare', () => {
    const declared = guardedRoutes(t.app)
      .filter((route) => /^\/api\/v1\/admin\/attendance\/(rules|groups)/.test(route.path))
      .map((route) => [route.method, route.path.replace('/api/v1/admin/attendance', ''), route.permission])
      .sort()
    expect(declared).toEqual(routes.map(([method, pattern, , , permission]) => [method, pattern, permission]).sort())
  })

  for (const [method, pattern, path, body, permission] of routes)
    test(`${method} ${pattern} as a plain employee → 403 naming ${permission}; nothing changes`, async () => {
      const before = await snapshot()
      const reply = await req(t.app, method, path, { token: worker, body })
      expect(reply.status).toBe(403)
      expect(reply.body).toEqual(errorBody(403, `Your roles do not grant the permission ${permission}; ask an administrator for it`))
      expect(await snapshot()).toEqual(before)
    })

  test('no token → 401 on every route; nothing changes', async () => {
    const before = await snapshot()
    for (const [method, , path, body] of routes) {
      const reply = await req(t.app, method, path, { body })
      expect(reply.status).toBe(401)
      expect(reply.headers.get('www-authenticate')).toBe('Bearer')
      expect(reply.body).toEqual(errorBody(401, 'Sign in first: send "Authorization: Bearer <access token>" from POST /api/v1/auth/login'))
    }
    expect(await snapshot()).toEqual(before)
  })
})
