import type { InValue, Transaction } from '@libsql/client'
import { addDays, instantAt } from '../../src/lib/local-time'
import { BREAK_END, BREAK_START, REQUIRED_WORK_HOURS, WORK_DAYS, WORK_END, WORK_START, type SeedRule } from './attendance-rows'
import { BulkInsert } from './bulk'
import { DEPARTMENTS, DEPARTMENT_WEIGHTS, personName, positionIn } from './names'
import type { Random } from './random'
import { payProfile, type PayProfile } from './salary-rows'

export const COMPANY = { name: 'Workforce Bench Co., Ltd.', timezone: 'Asia/Shanghai' }

const OFFICES: [string, number, number][] = [
  ['Shanghai HQ', 31.2304, 121.4737],
  ['Beijing office', 39.9042, 116.4074],
  ['Shenzhen office', 22.5431, 114.0579],
  ['Hangzhou office', 30.2741, 120.1551],
  ['Chengdu office', 30.5728, 104.0668],
]

export interface Organization {
  companyId: number
  departmentIds: number[]
  employees: { first: number; last: number }
  users: { first: number; last: number }
  rules: SeedRule[]
  /** index into `rules` of each employee, by employee id − employees.first */
  ruleOf: Uint16Array
  pay: PayProfile[]
  /** the instant the groups and rules were set up: the first work date, just after midnight */
  groupsCreatedAt: number
  counts: Record<string, number>
  timings: Record<string, number>
}

export interface OrganizationInput {
  employees: number
  groups: number
  /** the employee role's id and the hash every seeded account shares */
  employeeRoleId: number
  passwordHash: string
  /** the first id the seeded users get (the administrator is already there) */
  firstUserId: number
  firstWorkDate: string
  /** no one is hired on or after this date (YYYY-MM-DD) */
  hiredBefore: string
  rowsPerStatement: number
}

/** The company, departments, employee accounts, employees, groups with one rule each and their members, in `tx`. */
export async function seedOrganization(tx: Transaction, random: Random, input: OrganizationInput): Promise<Organization> {
  const counts: Record<string, number> = {}
  const timings: Record<string, number> = {}
  const timed = async (table: string, work: () => Promise<number>) => {
    const started = performance.now()
    counts[table] = await work()
    timings[table] = Math.round(performance.now() - started)
  }
  const bulk = (table: string, columns: string[]) => new BulkInsert(tx, table, columns, input.rowsPerStatement)
  const zone = COMPANY.timezone
  const foundedAt = Date.parse(`${addDays(input.hiredBefore, -9 * 365)}T01:00:00Z`)
  const groupsCreatedAt = instantAt(input.firstWorkDate, '00:05', zone).getTime()

  let companyId = 0
  await timed('companies', async () => {
    const result = await tx.execute({
      sql: 'INSERT INTO companies (name, timezone, created_at, updated_at) VALUES (?, ?, ?, ?)',
      args: [COMPANY.name, COMPANY.timezone, foundedAt, foundedAt],
    })
    companyId = Number(result.lastInsertRowid)
    return 1
  })

  const departmentIds: number[] = []
  await timed('departments', async () => {
    for (const name of DEPARTMENTS) {
      const result = await tx.execute({
        sql: 'INSERT INTO departments (name, created_at, updated_at) VALUES (?, ?, ?)',
        args: [name, foundedAt, foundedAt],
      })
      departmentIds.push(Number(result.lastInsertRowid))
    }
    return departmentIds.length
  })

  // people first: hire dates, names and departments, shared by the user and the employee rows
  const firstEmployee = 1
  const people = Array.from({ length: input.employees }, (_, index) => {
    const department = random.weighted(DEPARTMENT_WEIGHTS)
    const hireDate = addDays(input.hiredBefore, -random.int(30, 8 * 365))
    return {
      index: index + 1,
      name: personName(random),
      department,
      hireDate,
      hiredAt: Date.parse(`${hireDate}T01:30:00Z`) + random.int(0, 3_600_000),
    }
  })
  const userId = (index: number) => input.firstUserId + index - 1
  const contact = (index: number) => ({ phone: `138${String(index).padStart(8, '0')}`, email: `emp${index}@bench.example.com` })

  await timed('users', async () => {
    const users = bulk('users', [
      'id',
      'username',
      'password_hash',
      'name',
      'phone',
      'email',
      'avatar',
      'status',
      'token_version',
      'created_at',
      'updated_at',
    ])
    for (const p of people) {
      const { phone, email } = contact(p.index)
      await users.add([userId(p.index), `emp${p.index}`, input.passwordHash, p.name, phone, email, null, 1, 0, p.hiredAt, p.hiredAt])
    }
    return users.finish()
  })
  await timed('user_roles', async () => {
    const roles = bulk('user_roles', ['user_id', 'role_id', 'created_at'])
    for (const p of people) await roles.add([userId(p.index), input.employeeRoleId, p.hiredAt])
    return roles.finish()
  })

  const pay: PayProfile[] = []
  await timed('employees', async () => {
    const employees = bulk('employees', [
      'id',
      'employee_no',
      'name',
      'phone',
      'email',
      'department_id',
      'company_id',
      'position',
      'hire_date',
      'status',
      'user_id',
      'created_at',
      'updated_at',
    ])
    for (const p of people) {
      const { phone, email } = contact(p.index)
      const department = DEPARTMENTS[p.department]
      const id = firstEmployee + p.index - 1
      const row: InValue[] = [id, `E${String(p.index).padStart(6, '0')}`, p.name, phone, email, departmentIds[p.department], companyId]
      await employees.add([...row, positionIn(random, department), p.hireDate, 1, userId(p.index), p.hiredAt, p.hiredAt])
      pay.push(payProfile(random, id, p.hireDate))
    }
    return employees.finish()
  })

  // group g (1-based) holds employees g, g + G, g + 2G, …; its first member manages it
  const rules: SeedRule[] = []
  await timed('attendance_groups', async () => {
    const groups = bulk('attendance_groups', [
      'id',
      'name',
      'description',
      'company_id',
      'manager_id',
      'timezone',
      'status',
      'created_at',
      'updated_at',
    ])
    for (let g = 1; g <= input.groups; g++) {
      const [office] = OFFICES[(g - 1) % OFFICES.length]
      const name = `${office} · Team ${String(g).padStart(2, '0')}`
      await groups.add([g, name, `Attendance of ${name}`, companyId, firstEmployee + g - 1, null, 1, groupsCreatedAt, groupsCreatedAt])
    }
    return groups.finish()
  })
  await timed('attendance_rules', async () => {
    const columns = [
      'id',
      'group_id',
      'name',
      'description',
      'work_start_time',
      'work_end_time',
      'break_start_time',
      'break_end_time',
      'late_grace_period',
      'early_grace_period',
      'required_work_hours',
      'allowed_late_days',
      'location_required',
      'allowed_latitude',
      'allowed_longitude',
      'location_radius',
      'work_days',
      'flexible_time',
      'status',
      'created_at',
      'updated_at',
    ]
    const inserts = bulk('attendance_rules', columns)
    for (let g = 1; g <= input.groups; g++) {
      const [, latitude, longitude] = OFFICES[(g - 1) % OFFICES.length]
      const rule: SeedRule = {
        id: g,
        groupId: g,
        lateGrace: random.pick([0, 5, 10, 15]),
        earlyGrace: random.pick([0, 5, 10]),
        allowedLateDays: random.pick([0, 2, 3]),
        // every fourth group clocks in on site only
        location: g % 4 === 1 ? { latitude, longitude, radius: random.pick([200, 300, 500]) } : null,
      }
      rules.push(rule)
      const loc = rule.location
      await inserts.add([
        rule.id,
        g,
        'Office hours 09:00–18:00',
        loc ? `On site within ${loc.radius} m` : '',
        WORK_START,
        WORK_END,
        BREAK_START,
        BREAK_END,
        rule.lateGrace,
        rule.earlyGrace,
        REQUIRED_WORK_HOURS,
        rule.allowedLateDays,
        loc ? 1 : 0,
        loc?.latitude ?? null,
        loc?.longitude ?? null,
        loc?.radius ?? 0,
        WORK_DAYS.join(','),
        0,
        1,
        groupsCreatedAt,
        groupsCreatedAt,
      ])
    }
    return inserts.finish()
  })

  const ruleOf = new Uint16Array(input.employees)
  await timed('attendance_group_members', async () => {
    const members = bulk('attendance_group_members', ['employee_id', 'group_id', 'created_at'])
    for (let index = 1; index <= input.employees; index++) {
      const group = ((index - 1) % input.groups) + 1
      ruleOf[index - 1] = group - 1
      await members.add([firstEmployee + index - 1, group, groupsCreatedAt])
    }
    return members.finish()
  })

  return {
    companyId,
    departmentIds,
    employees: { first: firstEmployee, last: firstEmployee + input.employees - 1 },
    users: { first: userId(1), last: userId(input.employees) },
    rules,
    ruleOf,
    pay,
    groupsCreatedAt,
    counts,
    timings,
  }
}
