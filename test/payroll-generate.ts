import { expect } from 'bun:test'
import { attendanceRecords, leaveLedger, leaveRequests } from '../src/db/schema'
import { req, type TestApp } from './helpers'
import {
  addDays,
  coveredMinutes,
  datesBetween,
  employedRange,
  firstOf,
  lastOf,
  weekdayOf,
  type OracleCalendarDay,
  type OracleLeave,
  type OracleLedgerRow,
  type OraclePayoutType,
  type OracleRecord,
  type OracleRule,
  type OracleSettings,
} from './payroll-oracle'

/*
 * The generator of the payroll oracle test (issue 28): seeded companies (one rule or two splitting
 * the week, a disabled one to ignore, or none enabled; calendars with statutory holidays, days off
 * and make-up days; a go-live inside the month; pay settings), employees (joiners, leavers, raises,
 * no profile, no group, a half-fen tie), and each month's attendance records and leave (days and
 * hours; the annual leave's ledger rows, whose balance a leaver is paid out), written
 * straight into the database as rows (the oracle reads the same rows back with plain SQL, see
 * `loadRows`).
 */

// ---------------------------------------------------------------- a seeded generator (mulberry32)

export function prng(seed: number) {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let x = state
    x = Math.imul(x ^ (x >>> 15), x | 1)
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61)
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296
  }
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1))
  return {
    next,
    int,
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)],
    chance: (p: number) => next() < p,
    /** fen in [min, max] yuan, with random fen */
    fen: (min: number, max: number) => int(min * 100, max * 100),
  }
}
export type Prng = ReturnType<typeof prng>

// ---------------------------------------------------------------- plans

export interface ProfilePlan {
  month: string
  basic: number
  seniority: number
  allowance: number
}

export interface EmployeePlan {
  key: string
  no: string
  hireDate: string | null
  leftOn: string | null
  status: 0 | 1
  inGroup: boolean
  profiles: ProfilePlan[]
  id: number
}

export interface CompanyPlan {
  index: number
  name: string
  zone: string
  startsOn: string | null
  /** false: the group's rules are all disabled (no work days) */
  ruleEnabled: boolean
  /** the enabled rules, in the order they are made (id order) */
  rules: OracleRule[]
  /** a rule working every day, made first and disabled: to be ignored */
  disabledRule: boolean
  /** null: no PUT, the defaults */
  settingsBody: Record<string, unknown> | null
  settings: OracleSettings
  calendar: Map<string, OracleCalendarDay & { name: string }>
  employees: EmployeePlan[]
  companyId: number
  groupId: number
  ruleIds: number[]
}

export const DEFAULT_SETTINGS: OracleSettings = {
  proration: 'work_days',
  daysPerMonth100: 2175,
  latePerOccurrence: 0,
  latePerMinute: 0,
  lateFree: null,
  absenceFixed: null,
  otWorkDay: 150,
  otRestDay: 200,
  otStatutory: 300,
}

const yuan = (fen: number) => fen / 100

function planSettings(r: Prng): { body: Record<string, unknown> | null; settings: OracleSettings } {
  if (r.chance(0.15)) return { body: null, settings: DEFAULT_SETTINGS }
  const days = r.pick([2175, 2175, 2175, 2200, 2083, 2100, 3000, 2000])
  const perOccurrence = r.pick([0, 5000, 2050, 10000, 1999])
  const perMinute = r.pick([0, 0, 100, 50, 235])
  const free = r.pick([null, null, 0, 1, 2, 3])
  const fixed = r.pick([null, null, null, 20000, 15050, 0])
  const multipliers = r.pick([
    [150, 200, 300],
    [150, 200, 300],
    [125, 175, 350],
    [100, 150, 200],
  ])
  const settings: OracleSettings = {
    proration: r.chance(0.5) ? 'work_days' : 'calendar_days',
    daysPerMonth100: days,
    latePerOccurrence: perOccurrence,
    latePerMinute: perMinute,
    lateFree: free,
    absenceFixed: fixed,
    otWorkDay: multipliers[0],
    otRestDay: multipliers[1],
    otStatutory: multipliers[2],
  }
  const body = {
    proration: settings.proration,
    days_per_month: days / 100,
    late_deduction: { per_occurrence: yuan(perOccurrence), per_minute: yuan(perMinute), free_occurrences: free },
    absence_deduction: fixed === null ? 'daily_wage' : yuan(fixed),
    overtime_multipliers: { work_day: multipliers[0] / 100, rest_day: multipliers[1] / 100, statutory_holiday: multipliers[2] / 100 },
  }
  return { body, settings }
}

function planCalendar(r: Prng, months: readonly string[], workDays: number[]): CompanyPlan['calendar'] {
  const calendar: CompanyPlan['calendar'] = new Map()
  for (const month of months) {
    const dates = datesBetween(firstOf(month), lastOf(month))
    const weekdays = dates.filter((d) => workDays.includes(weekdayOf(d)))
    const restDays = dates.filter((d) => !workDays.includes(weekdayOf(d)))
    const mark = (date: string, day: OracleCalendarDay & { name: string }) => {
      if (!calendar.has(date)) calendar.set(date, day)
    }
    for (let i = r.int(0, 3); i > 0; i--) {
      const statutory = r.chance(0.6)
      mark(r.pick(weekdays), { kind: 'holiday', statutory, name: statutory ? 'Festival' : 'Company day off' })
    }
    if (r.chance(0.5) && restDays.length) mark(r.pick(restDays), { kind: 'workday', statutory: false, name: 'Make-up day' })
    if (r.chance(0.35) && restDays.length) mark(r.pick(restDays), { kind: 'holiday', statutory: true, name: 'Festival on a rest day' })
    if (r.chance(0.15) && restDays.length) mark(r.pick(restDays), { kind: 'holiday', statutory: false, name: 'Rest-day holiday' })
  }
  return calendar
}

function planProfile(r: Prng, month: string): ProfilePlan {
  const band = r.pick(['low', 'mid', 'mid', 'mid', 'high', 'top'] as const)
  const basic =
    band === 'low' ? r.fen(2500, 5000) : band === 'mid' ? r.fen(5000, 25000) : band === 'high' ? r.fen(25000, 60000) : r.fen(60000, 160000)
  return {
    month,
    basic: r.chance(0.3) ? Math.round(basic / 100) * 100 : basic,
    seniority: r.chance(0.5) ? 0 : r.fen(50, 2000),
    allowance: r.chance(0.4) ? 0 : r.fen(10, 3000),
  }
}

/** One rule for the work days, or (a quarter of the time) two splitting them, with their own allowances. */
function splitRules(r: Prng, workDays: number[]): OracleRule[] {
  const allowance = () => r.pick([0, 0, 1, 2, 3])
  if (!r.chance(0.25)) return [{ workDays, allowedLateDays: allowance() }]
  const cut = r.int(1, workDays.length - 1)
  const parts = r.chance(0.5) ? [workDays.slice(0, cut), workDays.slice(cut)] : [workDays.filter((_, i) => i % 2 === 0), workDays.filter((_, i) => i % 2 === 1)]
  return parts.map((days) => ({ workDays: days, allowedLateDays: allowance() }))
}

export function planCompany(r: Prng, index: number, months: readonly string[], prefix: string): CompanyPlan {
  const workDays = r.pick([[1, 2, 3, 4, 5], [1, 2, 3, 4, 5], [1, 2, 3, 4, 5], [1, 2, 3, 4, 5, 6], [2, 3, 4, 5, 6]])
  const first = firstOf(months[0])
  const startsOn = r.chance(0.2) ? addDays(first, r.int(3, 16)) : r.chance(0.1) ? addDays(first, -r.int(1, 300)) : null
  const { body, settings } = planSettings(r)
  const employees: EmployeePlan[] = []
  const count = r.int(8, 11)
  const span = datesBetween(first, lastOf(months[months.length - 1]))
  for (let i = 0; i < count; i++) {
    const roll = r.next()
    const hireDate =
      roll < 0.62
        ? addDays(first, -r.int(20, 1500))
        : roll < 0.82
          ? r.pick(span)
          : roll < 0.88
            ? null
            : roll < 0.92
              ? addDays(first, -r.int(0, 3))
              : roll < 0.95
                ? addDays(span[span.length - 1], r.int(1, 40))
                : first
    let leftOn: string | null = null
    if (r.chance(0.14)) {
      const after = span.filter((d) => hireDate === null || d >= hireDate)
      if (after.length) leftOn = r.pick(after)
    } else if (r.chance(0.03) && hireDate !== null && hireDate < addDays(first, -20)) leftOn = addDays(first, -r.int(1, 20))
    const profiles: ProfilePlan[] = []
    const profileRoll = r.next()
    if (profileRoll < 0.04) {
      // no profile: no payslip
    } else if (profileRoll < 0.08 && months.length > 1) profiles.push(planProfile(r, months[1]))
    else profiles.push(planProfile(r, r.chance(0.5) ? months[0] : '2023-07'))
    if (profiles.length && months.length > 1 && r.chance(0.25)) {
      const raise = planProfile(r, r.pick(months.slice(1)))
      if (raise.month > profiles[0].month) profiles.push(raise)
    }
    employees.push({
      key: `${prefix}c${index}e${i}`,
      no: `${prefix.toUpperCase()}${index}-${String(i).padStart(2, '0')}`,
      hireDate,
      leftOn,
      status: leftOn !== null && r.chance(0.5) ? 0 : 1,
      inGroup: !r.chance(0.05),
      profiles,
      id: 0,
    })
  }
  // a joiner on the 16th with an odd number of fen: half of a 30-day month rounds a half fen (calendar days)
  const tieMonth = r.pick(months)
  const tie = planProfile(r, months[0])
  employees.push({
    key: `${prefix}c${index}e${count}`,
    no: `${prefix.toUpperCase()}${index}-${String(count).padStart(2, '0')}`,
    hireDate: `${tieMonth}-16`,
    leftOn: null,
    status: 1,
    inGroup: true,
    profiles: [{ ...tie, basic: tie.basic | 1, seniority: tie.seniority === 0 ? 0 : tie.seniority | 1, allowance: tie.allowance === 0 ? 0 : tie.allowance | 1 }],
    id: 0,
  })
  return {
    index,
    name: `${prefix} company ${index}`,
    zone: r.chance(0.15) ? 'America/Los_Angeles' : 'Asia/Shanghai',
    startsOn,
    ruleEnabled: !r.chance(0.08),
    rules: splitRules(r, workDays),
    disabledRule: r.chance(0.15),
    settingsBody: body,
    settings,
    calendar: planCalendar(r, months, workDays),
    employees,
    companyId: 0,
    groupId: 0,
    ruleIds: [],
  }
}

/** The profile a month uses: the latest whose effective month ≤ it. */
export const profileOf = (e: EmployeePlan, month: string) => e.profiles.filter((p) => p.month <= month).sort((a, b) => (a.month < b.month ? 1 : -1))[0] ?? null

// ---------------------------------------------------------------- HTTP setup

export async function call(t: TestApp, token: string, method: string, path: string, body?: unknown, want?: number) {
  const reply = await req(t.app, method, path, { token, body })
  if (want !== undefined && reply.status !== want) throw new Error(`${method} ${path} → ${reply.status} ${JSON.stringify(reply.body)} (sent ${JSON.stringify(body)})`)
  return reply
}

export interface LeaveTypes {
  /** paid[0] is the annual leave, paid out on leaving */
  paid: number[]
  unpaid: number[]
  hourly: { paid: number; unpaid: number }
  /** the types paid out on leaving (§18), as the oracle reads them */
  payout: OraclePayoutType[]
}

/** Annual leave's days a year (accrual none: granted without a ledger row). */
export const ANNUAL_DAYS = 5

export async function createLeaveTypes(t: TestApp, admin: string): Promise<LeaveTypes> {
  const make = async (name: string, paid: boolean, extra: Record<string, unknown> = {}) =>
    (await call(t, admin, 'POST', '/api/v1/admin/leave/types', { name, paid, requires_balance: false, annual_days: 0, ...extra }, 201)).body.data.id as number
  const annual = await make('Annual leave', true, { annual_days: ANNUAL_DAYS, payout_on_leaving: true })
  return {
    paid: [annual, await make('Sick leave', true)],
    unpaid: [await make('Personal leave', false), await make('Unpaid leave', false)],
    hourly: { paid: await make('Doctor hours', true, { unit: 'hour' }), unpaid: await make('Personal hours', false, { unit: 'hour' }) },
    payout: [{ id: annual, accrualNone: true, annualHalves: ANNUAL_DAYS * 2 }],
  }
}

/** The rules' hours (every generated rule has them): hourly leave is measured against them. */
export const WORK_TIMES = { start: '09:00', end: '18:00', breakStart: '12:00', breakEnd: '13:00' }

/** Spans of hourly leave, all inside the work hours: 180, 150 (the break excluded), 120, 240 (the break excluded), 30 minutes. */
export const HOURLY_SPANS: [string, string][] = [
  ['09:00', '12:00'],
  ['11:00', '14:30'],
  ['16:00', '18:00'],
  ['10:00', '15:00'],
  ['13:30', '14:00'],
]

export async function setUpCompany(t: TestApp, admin: string, c: CompanyPlan): Promise<void> {
  c.companyId = (
    await call(t, admin, 'POST', '/api/v1/admin/companies', { name: c.name, timezone: c.zone, ...(c.startsOn ? { attendance_starts_on: c.startsOn } : {}) }, 201)
  ).body.data.id
  c.groupId = (await call(t, admin, 'POST', '/api/v1/admin/attendance/groups', { name: `${c.name} office`, company_id: c.companyId }, 201)).body.data.id
  const makeRule = async (rule: OracleRule, name: string) =>
    (
      await call(
        t,
        admin,
        'POST',
        '/api/v1/admin/attendance/rules',
        {
          name,
          group_id: c.groupId,
          work_start_time: '09:00',
          work_end_time: '18:00',
          break_start_time: '12:00',
          break_end_time: '13:00',
          late_grace_period: 5,
          early_grace_period: 0,
          required_work_hours: 8,
          allowed_late_days: rule.allowedLateDays,
          work_days: rule.workDays.join(','),
        },
        201,
      )
    ).body.data.id as number
  if (c.disabledRule) {
    const off = await makeRule({ workDays: [1, 2, 3, 4, 5, 6, 7], allowedLateDays: 9 }, 'Retired hours')
    await call(t, admin, 'PUT', `/api/v1/admin/attendance/rules/${off}`, { status: 0 }, 200)
  }
  for (const [i, rule] of c.rules.entries()) c.ruleIds.push(await makeRule(rule, `Office hours ${i + 1}`))
  if (!c.ruleEnabled) for (const id of c.ruleIds) await call(t, admin, 'PUT', `/api/v1/admin/attendance/rules/${id}`, { status: 0 }, 200)
  if (c.calendar.size)
    await call(
      t,
      admin,
      'POST',
      `/api/v1/admin/companies/${c.companyId}/calendar/import`,
      { days: [...c.calendar].map(([date, day]) => ({ date, kind: day.kind, name: day.name, statutory: day.statutory })) },
      200,
    )
  if (c.settingsBody) {
    const put = await call(t, admin, 'PUT', `/api/v1/admin/companies/${c.companyId}/pay-settings`, c.settingsBody, 200)
    expect(put.body.data).toMatchObject({ company_id: c.companyId, ...c.settingsBody })
  }
  for (const e of c.employees) {
    const created = await call(
      t,
      admin,
      'POST',
      '/api/v1/admin/employees',
      { name: e.key, employee_no: e.no, company_id: c.companyId, hire_date: e.hireDate, left_on: e.leftOn, status: e.status },
      201,
    )
    e.id = created.body.data.id
    expect(created.body.data.left_on).toBe(e.leftOn)
    for (const p of e.profiles)
      await call(
        t,
        admin,
        'PUT',
        `/api/v1/admin/employees/${e.id}/pay-profile`,
        {
          effective_month: p.month,
          basic_salary: yuan(p.basic),
          seniority_pay: yuan(p.seniority),
          allowance: yuan(p.allowance),
          contribution_base: yuan(p.basic),
          housing_fund_base: yuan(p.basic),
          bank_account: `6222${String(e.id).padStart(12, '0')}`,
        },
        200,
      )
  }
  const members = c.employees.filter((e) => e.inGroup).map((e) => e.id)
  if (members.length) await call(t, admin, 'POST', `/api/v1/admin/attendance/groups/${c.groupId}/employees`, { employee_ids: members }, 200)
}

// ---------------------------------------------------------------- a month's rows

/** The company's mark on a date, and whether the date is a work day of its rule (no employment bound). */
export function workDayOf(c: CompanyPlan, date: string): boolean {
  if (!c.ruleEnabled) return false
  const mark = c.calendar.get(date)
  if (mark) return mark.kind === 'workday'
  return c.rules.some((rule) => rule.workDays.includes(weekdayOf(date)))
}

export function attendanceFromOf(c: CompanyPlan, e: EmployeePlan): string | null {
  if (!e.inGroup || c.startsOn === null) return e.hireDate
  if (e.hireDate === null) return c.startsOn
  return c.startsOn > e.hireDate ? c.startsOn : e.hireDate
}

type RecordRow = typeof attendanceRecords.$inferInsert
type LeaveRow = typeof leaveRequests.$inferInsert

const at = (date: string, hhmm: string) => new Date(`${date}T${hhmm}:00+08:00`)

function recordRow(c: CompanyPlan, e: EmployeePlan, date: string, shape: { status: number; late?: number; early?: number; overtime?: number; clocked?: 'both' | 'in' | 'none'; work?: number }): RecordRow {
  const clocked = shape.clocked ?? 'both'
  const late = shape.late ?? 0
  const early = shape.early ?? 0
  const overtime = shape.overtime ?? 0
  const work = shape.work ?? (clocked === 'both' ? Math.max(30, 480 - late - early + overtime) : 0)
  const inAt = at(date, '09:00').getTime() + late * 60_000 - (late ? 0 : 5 * 60_000)
  return {
    employeeId: e.id,
    ruleId: c.ruleIds[Math.max(0, c.rules.findIndex((rule) => rule.workDays.includes(weekdayOf(date))))],
    groupId: c.groupId,
    workDate: date,
    timezone: c.zone,
    clockInTime: clocked === 'none' ? null : new Date(inAt),
    clockOutTime: clocked === 'both' ? new Date(inAt + (work + 60) * 60_000) : null,
    status: shape.status,
    workMinutes: work,
    lateMinutes: late,
    earlyMinutes: early,
    overtimeMinutes: overtime,
    isWorkDay: workDayOf(c, date),
  }
}

/** Dates of approved-or-not leave already planned per employee (requests never overlap, as the API keeps them; hours and days never share a date). */
export type LeaveDays = Map<number, Map<string, 'full' | 'half' | 'hours'>>

function workDaysIn(c: CompanyPlan, from: string, to: string) {
  return datesBetween(from, to).filter((d) => workDayOf(c, d))
}

type LedgerRow = typeof leaveLedger.$inferInsert

function leaveRow(e: EmployeePlan, typeId: number, start: string, end: string, half: 'am' | 'pm' | null, halfDays: number, status: string, times?: [string, string]): LeaveRow {
  return {
    employeeId: e.id,
    typeId,
    startDate: start,
    endDate: end,
    halfDay: half,
    startTime: times?.[0] ?? null,
    endTime: times?.[1] ?? null,
    amount: times ? coveredMinutes(WORK_TIMES, times[0], times[1]) : Math.max(1, halfDays),
    reason: 'generated',
    status: status as LeaveRow['status'],
    decidedAt: status === 'pending' ? null : new Date(`${start}T00:00:00Z`),
  }
}

/**
 * A month's leave (some crossing into the next month) and records, for every employee of the
 * company in a group, over the employed part of the month from their attendance start, before `today`.
 */
export function generateMonth(
  r: Prng,
  c: CompanyPlan,
  month: string,
  today: (e: EmployeePlan) => string,
  types: LeaveTypes,
  leaveDays: LeaveDays,
): { records: RecordRow[]; leave: LeaveRow[]; ledger: LedgerRow[] } {
  const records: RecordRow[] = []
  const leave: LeaveRow[] = []
  const ledger: LedgerRow[] = []
  const year = Number(month.slice(0, 4))
  /** annual leave's ledger rows of a request of days: a row a year its work days fall in */
  const annualRows = (e: EmployeePlan, start: string, end: string, half: boolean, status: string) => {
    const kind = status === 'approved' ? 'taken' : status === 'pending' ? 'pending' : null
    if (!kind) return
    const byYear = new Map<number, number>()
    for (const date of workDaysIn(c, start, end)) byYear.set(Number(date.slice(0, 4)), (byYear.get(Number(date.slice(0, 4))) ?? 0) + (half ? 1 : 2))
    for (const [y, amount] of byYear)
      ledger.push({ employeeId: e.id, typeId: types.paid[0], year: y, kind, amount, reason: 'generated', createdAt: new Date(`${start}T00:00:00Z`) })
  }
  for (const e of c.employees) {
    // HR's adjustments of the annual leave (anyone with a profile, in a group or not)
    if (employedRange(month, e.hireDate, e.leftOn) && r.chance(0.15)) {
      const amount = r.pick([-6, -3, -1, 1, 2, 4, 9])
      ledger.push({ employeeId: e.id, typeId: types.paid[0], year, kind: 'adjustment', amount, reason: 'generated', createdAt: new Date(`${month}-01T00:00:00Z`) })
    }
    if (!e.inGroup) continue
    const range = employedRange(month, e.hireDate, e.leftOn)
    if (!range) continue
    const attendanceFrom = attendanceFromOf(c, e)
    const from = attendanceFrom !== null && attendanceFrom > range.from ? attendanceFrom : range.from
    if (from > range.to) continue
    const mine = leaveDays.get(e.id) ?? new Map<string, 'full' | 'half'>()
    leaveDays.set(e.id, mine)

    if (c.ruleEnabled) {
      const workDays = workDaysIn(c, from, range.to)
      for (let n = r.pick([0, 0, 0, 1, 1, 2]); n > 0 && workDays.length; n--) {
        const start = r.pick(workDays)
        const paid = r.chance(0.5)
        const typeId = r.pick(paid ? types.paid : types.unpaid)
        const status = r.pick(['approved', 'approved', 'approved', 'approved', 'approved', 'approved', 'rejected', 'cancelled', 'pending'])
        if (r.chance(0.3)) {
          if (mine.has(start)) continue
          mine.set(start, 'half')
          leave.push(leaveRow(e, typeId, start, start, r.chance(0.5) ? 'am' : 'pm', 1, status))
          if (typeId === types.paid[0]) annualRows(e, start, start, true, status)
        } else {
          let end = addDays(start, r.int(0, 4))
          if (e.leftOn !== null && end > e.leftOn) end = e.leftOn
          const dates = datesBetween(start, end)
          if (dates.some((d) => mine.has(d))) continue
          for (const d of dates) mine.set(d, 'full')
          leave.push(leaveRow(e, typeId, start, end, null, 2 * workDaysIn(c, start, end).length, status))
          if (typeId === types.paid[0]) annualRows(e, start, end, false, status)
        }
      }
      // hourly leave (§18): a span of a work day, paid or not, one request a date
      for (let n = r.pick([0, 0, 1, 1, 2]); n > 0 && workDays.length; n--) {
        const date = r.pick(workDays)
        if (mine.has(date)) continue
        mine.set(date, 'hours')
        const status = r.pick(['approved', 'approved', 'approved', 'approved', 'rejected', 'pending'])
        leave.push(leaveRow(e, r.chance(0.6) ? types.hourly.unpaid : types.hourly.paid, date, date, null, 0, status, r.pick(HOURLY_SPANS)))
      }
    }

    const last = range.to < addDays(today(e), -1) ? range.to : addDays(today(e), -1)
    for (const date of datesBetween(from, last)) {
      const onLeave = mine.get(date)
      if (!workDayOf(c, date)) {
        if (r.chance(0.12)) {
          const minutes = r.int(60, 600)
          records.push(recordRow(c, e, date, { status: 0, overtime: minutes, work: minutes }))
        }
        continue
      }
      if (onLeave === 'full') {
        if (r.chance(0.06)) records.push(recordRow(c, e, date, { status: 3, clocked: 'none' }))
        continue
      }
      const roll = r.next()
      const overtime = r.chance(0.2) ? r.int(30, 240) : 0
      if (onLeave === 'half') {
        if (roll < 0.5) records.push(recordRow(c, e, date, { status: 0, work: 240 }))
        else if (roll < 0.75) records.push(recordRow(c, e, date, { status: 3, clocked: 'none' }))
        continue
      }
      if (roll < 0.7) records.push(recordRow(c, e, date, { status: 0, overtime }))
      else if (roll < 0.8) records.push(recordRow(c, e, date, { status: 1, late: r.int(1, 120), overtime: r.chance(0.5) ? overtime : 0 }))
      else if (roll < 0.83) records.push(recordRow(c, e, date, { status: 2, late: r.int(6, 60), early: r.int(10, 90) }))
      else if (roll < 0.86) records.push(recordRow(c, e, date, { status: 2, early: r.int(10, 90) }))
      else if (roll < 0.88) records.push(recordRow(c, e, date, { status: 4, clocked: 'in' }))
      else if (roll < 0.89) records.push(recordRow(c, e, date, { status: 4, clocked: 'in', late: r.int(10, 30) }))
      else if (roll < 0.94) records.push(recordRow(c, e, date, { status: 3, clocked: 'none' }))
      // else: no record at all (a day close that never ran)
    }
  }
  return { records, leave, ledger }
}

export async function insertRows(t: TestApp, rows: { records: RecordRow[]; leave: LeaveRow[]; ledger?: LedgerRow[] }) {
  await t.deps.database.write(async (tx) => {
    for (let i = 0; i < rows.records.length; i += 200) await tx.insert(attendanceRecords).values(rows.records.slice(i, i + 200))
    for (let i = 0; i < rows.leave.length; i += 200) await tx.insert(leaveRequests).values(rows.leave.slice(i, i + 200))
    const ledger = rows.ledger ?? []
    for (let i = 0; i < ledger.length; i += 200) await tx.insert(leaveLedger).values(ledger.slice(i, i + 200))
  })
}

/** An employee's ledger rows (read with plain SQL): what the oracle's payout reads. */
export async function loadLedger(t: TestApp, employeeId: number): Promise<(OracleLedgerRow & { id: number; reason: string; actorId: number | null })[]> {
  const rows = await t.deps.database.client.execute({
    sql: 'SELECT id, type_id, year, kind, amount, event, reason, actor_id FROM leave_ledger WHERE employee_id = ? ORDER BY id',
    args: [employeeId],
  })
  return rows.rows.map((row) => ({
    id: Number(row.id),
    typeId: Number(row.type_id),
    year: Number(row.year),
    kind: String(row.kind),
    amount: Number(row.amount),
    event: row.event === null ? null : String(row.event),
    reason: String(row.reason),
    actorId: row.actor_id === null ? null : Number(row.actor_id),
  }))
}

// ---------------------------------------------------------------- reading the rows back (plain SQL)

export interface MonthRows {
  records: Map<number, OracleRecord[]>
  leave: Map<number, OracleLeave[]>
  calendar: Map<string, OracleCalendarDay>
}

/** Every row of the company's employees that touches [from, to], read with plain SQL. */
export async function loadRows(t: TestApp, c: CompanyPlan, from: string, to: string): Promise<MonthRows> {
  const { client } = t.deps.database
  const ids = c.employees.map((e) => e.id).join(',')
  const records = await client.execute({
    sql: `SELECT id, employee_id, work_date, status, clock_in_time, late_minutes, overtime_minutes FROM attendance_records
          WHERE employee_id IN (${ids}) AND work_date BETWEEN ? AND ?`,
    args: [from, to],
  })
  const leave = await client.execute({
    sql: `SELECT r.id, r.employee_id, r.start_date, r.end_date, r.half_day, r.start_time, r.end_time, t.paid FROM leave_requests r JOIN leave_types t ON t.id = r.type_id
          WHERE r.employee_id IN (${ids}) AND r.status = 'approved' AND r.start_date <= ? AND r.end_date >= ?`,
    args: [to, from],
  })
  const calendar = await client.execute({
    sql: `SELECT date, kind, statutory FROM calendar_days WHERE company_id = ? AND date BETWEEN ? AND ?`,
    args: [c.companyId, from, to],
  })
  const rows: MonthRows = { records: new Map(), leave: new Map(), calendar: new Map() }
  for (const row of records.rows) {
    const list = rows.records.get(Number(row.employee_id)) ?? []
    list.push({
      id: Number(row.id),
      workDate: String(row.work_date),
      status: Number(row.status),
      clockedIn: row.clock_in_time !== null,
      lateMinutes: Number(row.late_minutes),
      overtimeMinutes: Number(row.overtime_minutes),
    })
    rows.records.set(Number(row.employee_id), list)
  }
  for (const row of leave.rows) {
    const list = rows.leave.get(Number(row.employee_id)) ?? []
    list.push({
      id: Number(row.id),
      startDate: String(row.start_date),
      endDate: String(row.end_date),
      halfDay: row.half_day === null ? null : (String(row.half_day) as 'am' | 'pm'),
      startTime: row.start_time === null ? null : String(row.start_time),
      endTime: row.end_time === null ? null : String(row.end_time),
      paid: Number(row.paid) === 1,
    })
    rows.leave.set(Number(row.employee_id), list)
  }
  for (const row of calendar.rows)
    rows.calendar.set(String(row.date), { kind: String(row.kind) as 'holiday' | 'workday', statutory: Number(row.statutory) === 1 })
  return rows
}
