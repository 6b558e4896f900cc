/**
 * Benchmark data: a fresh database with N employees in G attendance groups (one rule
 * each), D work days of attendance per employee, M months of salaries, pay profiles and F files, all
 * as the service itself would have written them, bulk-inserted with the raw libSQL
 * client in large transactions.
 *
 *   bun run bench:seed                                  5,000 × 200 = 1,000,000 records
 *   bun run bench:seed --smoke                          a small database in a second or two
 *   bun run bench:seed --employees 100 --days 20 --db /tmp/x.db --storage /tmp/x-files
 *
 * Prints one JSON line: counts and time per table, ids and ranges for the load driver.
 */
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { createClient, type Client } from '@libsql/client'
import { prepare } from '../src/bootstrap'
import { loadConfig } from '../src/config'
import { addDays, instantAt, localDate } from '../src/lib/local-time'
import { silentLogger } from '../src/lib/logger'
import { hashPassword } from '../src/lib/password'
import { keepSetting } from '../src/modules/auth/repository'
import { ArgsError, usage } from './lib/args'
import { seedAttendance } from './lib/attendance'
import { workDates } from './lib/attendance-rows'
import { COMPANY, seedOrganization } from './lib/organization'
import { createRandom } from './lib/random'
import { seedFiles } from './lib/files'
import { benchCalendar, CLOSE_DATE_LEAVE_SHARE, seedCalendarAndLeave } from './lib/leave'
import { seedPayProfiles } from './lib/pay-profiles'
import { seedSalaries } from './lib/salaries'
import { monthsBefore } from './lib/salary-rows'
import { BENCH_DATA_DIR, DEFAULTS, FLAGS, optionsFromArgs, SMOKE_OPTIONS, type SeedOptions } from './lib/seed-options'

export { DEFAULTS, SMOKE_OPTIONS, optionsFromArgs, type SeedOptions }

const ROWS_PER_STATEMENT = 100

export type SeedSummary = Awaited<ReturnType<typeof seedDatabase>>

function isDisposable(path: string): boolean {
  return [BENCH_DATA_DIR, tmpdir()].some((root) => {
    const inside = relative(resolve(root), resolve(path))
    return inside !== '' && !inside.startsWith('..')
  })
}

function removeDatabase(path: string, force: boolean): void {
  if (existsSync(path) && !force && !isDisposable(path))
    throw new Error(`${path} exists and is not under bench/.data or the temp folder; pass --force to replace it`)
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(path + suffix, { force: true })
  mkdirSync(dirname(path), { recursive: true })
}

function emptyStorage(dir: string, force: boolean): void {
  if (existsSync(dir) && readdirSync(dir).length > 0) {
    if (!force && !isDisposable(dir))
      throw new Error(`${dir} is not empty and not under bench/.data or the temp folder; pass --force to empty it`)
    rmSync(dir, { recursive: true, force: true })
  }
  mkdirSync(dir, { recursive: true })
}

const yesterdayUtc = (now: Date) => addDays(now.toISOString().slice(0, 10), -1)

async function count(client: Client, table: string): Promise<number> {
  return Number((await client.execute(`SELECT count(*) AS n FROM ${table}`)).rows[0].n)
}

export async function seedDatabase(options: SeedOptions = {}) {
  const started = performance.now()
  const o = { ...DEFAULTS, ...Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) } as typeof DEFAULTS &
    SeedOptions
  const now = o.now ?? new Date()
  const log = o.log ?? (() => {})
  const db = resolve(o.db)
  const storage = resolve(o.storage ?? join(dirname(db), 'files'))
  const endDate = o.endDate ?? yesterdayUtc(now)
  if (endDate > yesterdayUtc(now)) throw new Error(`endDate ${endDate} has not ended yet; use ${yesterdayUtc(now)} or earlier`)
  if (o.groups > o.employees) throw new Error(`groups (${o.groups}) must not exceed employees (${o.employees})`)
  if (o.password.length < 8 || o.password.length > 128) throw new Error("the employees' password must be 8 to 128 characters long")
  const random = createRandom(o.seed)
  const timings: Record<string, number> = {}
  const lap = (name: string, since: number) => (timings[name] = Math.round(performance.now() - since))

  // 1. the app's own start-up: migrations, permissions and roles, signing key, first administrator
  let phase = performance.now()
  removeDatabase(db, o.force ?? false)
  emptyStorage(storage, o.force ?? false)
  const config = loadConfig({
    DATABASE_URL: `file:${db}`,
    STORAGE_URL: `file:${storage}`,
    JWT_SECRET: o.jwtSecret,
    ADMIN_USERNAME: o.adminUsername,
    ADMIN_PASSWORD: o.adminPassword,
    LOG_LEVEL: 'warn',
  })
  const deps = await prepare(config, { logger: silentLogger })
  try {
    // kept as the service keeps a generated key, so a server started without JWT_SECRET signs with the same one
    await deps.database.write((tx) => keepSetting(tx, 'jwt_secret', o.jwtSecret))
  } finally {
    deps.database.close()
  }
  const passwordHash = await hashPassword(o.password)
  lap('prepare', phase)
  log(`prepared ${db} in ${timings.prepare} ms`)

  const client = createClient({ url: `file:${db}` })
  try {
    // a generated file: durability does not matter until it is done (per connection; closing the client restores the defaults)
    await client.execute('PRAGMA synchronous = OFF')
    await client.execute('PRAGMA cache_size = -262144')
    await client.execute('PRAGMA temp_store = MEMORY')
    const admin = (await client.execute({ sql: 'SELECT id FROM users WHERE username = ?', args: [o.adminUsername] })).rows[0]
    const employeeRole = (await client.execute("SELECT id FROM roles WHERE name = 'employee'")).rows[0]
    const adminId = Number(admin.id)

    // the company calendar (holidays, a make-up workday) decides the work dates, as it does the service's
    const calendar = benchCalendar(endDate, o.days)
    const dates = workDates(endDate, o.days, undefined, calendar.days)
    const salaryMonths = monthsBefore(endDate.slice(0, 7), o.salaryMonths)
    const earliest = [dates[0], salaryMonths.length > 0 ? `${salaryMonths[0]}-01` : dates[0]].sort()[0]

    // 2. organization, in one transaction
    phase = performance.now()
    const tx = await client.transaction('write')
    let org
    try {
      org = await seedOrganization(tx, random, {
        employees: o.employees,
        groups: o.groups,
        employeeRoleId: Number(employeeRole.id),
        passwordHash,
        firstUserId: adminId + 1,
        firstWorkDate: dates[0],
        hiredBefore: earliest,
        rowsPerStatement: ROWS_PER_STATEMENT,
      })
      await tx.commit()
    } finally {
      tx.close()
    }
    Object.assign(timings, org.timings)
    lap('organization', phase)
    log(`organization: ${o.employees} employees in ${o.groups} groups in ${timings.organization} ms`)

    // 3. the company calendar, a leave type and approved leave (with its ledger), then attendance, which leaves out whoever is on leave
    const leave = await seedCalendarAndLeave(client, random, {
      org,
      dates,
      calendar,
      adminId,
      zone: COMPANY.timezone,
      rowsPerStatement: ROWS_PER_STATEMENT,
    })
    timings.calendar_and_leave = leave.ms
    log(`calendar and leave: ${JSON.stringify(leave.counts)} in ${leave.ms} ms`)
    const lastEnded = addDays(localDate(now, COMPANY.timezone), -1)
    const attendance = await seedAttendance(client, random, {
      org,
      dates,
      zone: COMPANY.timezone,
      lastEnded,
      onLeave: leave.onLeave,
      calendarDates: new Set(calendar.days.keys()),
      rowsPerStatement: ROWS_PER_STATEMENT,
      log,
    })
    Object.assign(timings, attendance.timings)

    // 4. salaries and files
    const salaries = await seedSalaries(client, random, { org, months: salaryMonths, rowsPerStatement: ROWS_PER_STATEMENT })
    timings.salaries = salaries.ms
    log(`salaries: ${salaries.count} in ${salaries.ms} ms`)
    // pay profiles from the first seeded month, so a payroll run (S11) of any seeded month finds one for everybody
    const profiles = await seedPayProfiles(client, {
      org,
      firstMonth: earliest.slice(0, 7),
      lastMonth: endDate.slice(0, 7),
      at: instantAt(earliest, '09:00', COMPANY.timezone).getTime(),
      rowsPerStatement: ROWS_PER_STATEMENT,
    })
    timings.pay_profiles = profiles.ms
    log(`pay profiles: ${profiles.count} (effective ${profiles.months.join(', ')}) and the company's pay settings in ${profiles.ms} ms`)
    const until = Math.min(now.getTime() - 3_600_000, Date.parse(`${endDate}T15:00:00Z`))
    const files = await seedFiles(client, random, {
      count: o.files,
      storage,
      uploaders: { first: org.users.first, last: org.users.last, admin: adminId },
      from: until - 365 * 86_400_000,
      until,
      maxBytes: o.maxFileBytes,
      rowsPerStatement: ROWS_PER_STATEMENT,
    })
    Object.assign(timings, files.timings)
    log(`files: ${files.count} rows and objects in ${files.timings.files + files.timings.file_objects} ms`)

    // 5. back to the service's settings: everything in the main file, WAL as the service opens it
    phase = performance.now()
    await client.execute('PRAGMA wal_checkpoint(TRUNCATE)')
    const journalMode = String((await client.execute('PRAGMA journal_mode')).rows[0].journal_mode)
    lap('checkpoint', phase)

    let checks: { integrity_check: string[]; foreign_key_violations: number; ms: number } | null = null
    if (o.check) {
      phase = performance.now()
      const integrity = (await client.execute('PRAGMA integrity_check')).rows.map((row) => String(row[0]))
      const foreignKeys = (await client.execute('PRAGMA foreign_key_check')).rows.length
      checks = { integrity_check: integrity, foreign_key_violations: foreignKeys, ms: Math.round(performance.now() - phase) }
    }

    const counts: Record<string, number> = {}
    for (const table of [
      'companies',
      'departments',
      'users',
      'user_roles',
      'employees',
      'attendance_groups',
      'attendance_rules',
      'attendance_group_members',
      'attendance_records',
      'attendance_closed_days',
      'calendar_days',
      'leave_types',
      'leave_requests',
      'leave_ledger',
      'salaries',
      'pay_profiles',
      'pay_settings',
      'files',
    ])
      counts[table] = await count(client, table)
    timings.total = Math.round(performance.now() - started)

    const sample = org.employees.first
    return {
      db,
      storage,
      journal_mode: journalMode,
      seed: o.seed,
      counts,
      file_objects: { written: files.count, bytes: files.bytes },
      attendance_by_status: attendance.byStatus,
      attendance_policy_check: attendance.policyCheck,
      /** seconds per table and in total; attendance_records includes rebuilding its indexes, also given alone as attendance_indexes */
      timings: Object.fromEntries(Object.entries(timings).map(([name, ms]) => [name, ms / 1000])),
      attendance_rows_per_second: Math.round(attendance.count / (timings.attendance_records / 1000)),
      company: { id: org.companyId, timezone: COMPANY.timezone },
      department_ids: org.departmentIds,
      admin: { user_id: adminId, username: o.adminUsername, password: o.adminPassword },
      jwt_secret: o.jwtSecret,
      employees: {
        ids: org.employees,
        user_ids: org.users,
        usernames: { first: `emp1`, last: `emp${o.employees}`, pattern: 'emp<n>, n = employee id' },
        password: o.password,
      },
      groups: org.rules.map((rule) => ({
        id: rule.groupId,
        rule_id: rule.id,
        members: Math.floor((o.employees - rule.groupId) / o.groups) + 1,
        late_grace_period: rule.lateGrace,
        location: rule.location,
      })),
      group_of_employee: 'group ((employee_id - 1) mod groups) + 1',
      work_dates: {
        first: dates[0],
        last: dates[dates.length - 1],
        work_days: dates.length,
        weekdays: '1-5',
        closed_through: attendance.closedThrough,
        calendar: Object.fromEntries([...calendar.days].sort(([a], [b]) => a.localeCompare(b))),
      },
      /** S8's dates: a work day with CLOSE_DATE_LEAVE_SHARE of employees on approved leave, and a weekday holiday */
      day_close: {
        work_day: calendar.closeDate,
        on_leave: leave.onLeave.get(calendar.closeDate)?.size ?? 0,
        leave_share: CLOSE_DATE_LEAVE_SHARE,
        holiday: calendar.holiday,
      },
      salary_months: {
        first: salaryMonths[0] ?? null,
        last: salaryMonths[salaryMonths.length - 1] ?? null,
        count: salaryMonths.length,
        unconfirmed_month: salaryMonths[salaryMonths.length - 1] ?? null,
      },
      /** every employee has a pay profile effective in each of these months (a raise each January) */
      pay_profile_months: profiles.months,
      sample_employee: {
        employee_id: sample,
        user_id: org.users.first,
        username: 'emp1',
        group_id: 1,
        records: dates.length,
        records_by_status: attendance.sampleByStatus,
        salaries: salaryMonths.length,
      },
      checks,
      notes: [
        `file rows have small objects (${files.bytes} bytes in all) in ${storage}; start the server with STORAGE_URL=file:${storage} or reconciliation deletes the rows`,
        `days up to ${attendance.closedThrough} are marked closed, so the server's day-close job adds no absences for them`,
      ],
    }
  } finally {
    client.close()
  }
}

if (import.meta.main) {
  try {
    const options = optionsFromArgs(process.argv.slice(2))
    if (options === null) console.log(usage('bun run bench:seed', FLAGS))
    else console.log(JSON.stringify(await seedDatabase(options)))
  } catch (error) {
    console.error(error instanceof ArgsError ? `${error.message}\n${usage('bun run bench:seed', FLAGS)}` : error)
    process.exit(error instanceof ArgsError ? 2 : 1)
  }
}
