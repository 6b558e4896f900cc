/*
 * The payroll oracle (issue 28): one employee's month computed by a plain loop over its dates,
 * written from CONTRACT §8, §9, §16, §17, §18 (hourly leave, the payout on leaving), §23 and the
 * payroll brief alone. Nothing here comes from
 * src/: its own dates, its own work-day rule, its own exact arithmetic (bigint fractions), its own
 * formula evaluator. Money is integer fen; every line is rounded once, half up (away from zero).
 */

// ---------------------------------------------------------------- exact fractions

export class Frac {
  readonly n: bigint
  readonly d: bigint
  constructor(n: bigint, d: bigint = 1n) {
    if (d === 0n) throw new RangeError('division by zero')
    if (d < 0n) {
      n = -n
      d = -d
    }
    const g = gcd(n < 0n ? -n : n, d)
    this.n = g > 1n ? n / g : n
    this.d = g > 1n ? d / g : d
  }
  static of(value: number | bigint): Frac {
    if (typeof value === 'bigint') return new Frac(value)
    if (!Number.isInteger(value)) throw new RangeError(`not an integer: ${value}`)
    return new Frac(BigInt(value))
  }
  /** A decimal as written ("-919.54", "21.75", "3"), exactly. */
  static parse(text: string): Frac {
    const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text)
    if (!match) throw new RangeError(`not a decimal: ${text}`)
    const decimals = match[3] ?? ''
    const n = BigInt(match[2] + decimals) * (match[1] ? -1n : 1n)
    return new Frac(n, 10n ** BigInt(decimals.length))
  }
  add(o: Frac) {
    return new Frac(this.n * o.d + o.n * this.d, this.d * o.d)
  }
  sub(o: Frac) {
    return new Frac(this.n * o.d - o.n * this.d, this.d * o.d)
  }
  mul(o: Frac) {
    return new Frac(this.n * o.n, this.d * o.d)
  }
  div(o: Frac) {
    return new Frac(this.n * o.d, this.d * o.n)
  }
  cmp(o: Frac): number {
    const l = this.n * o.d
    const r = o.n * this.d
    return l < r ? -1 : l > r ? 1 : 0
  }
  eq(o: Frac) {
    return this.cmp(o) === 0
  }
  /** Rounded to an integer, half away from zero. */
  round(): bigint {
    const a = this.n < 0n ? -this.n : this.n
    const q = (2n * a + this.d) / (2n * this.d)
    return this.n < 0n ? -q : q
  }
  toString() {
    return this.d === 1n ? `${this.n}` : `${this.n}/${this.d}`
  }
}

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b]
  return a === 0n ? 1n : a
}

/** fen = round(numerator / denominator), half away from zero, as a JS integer. */
export function roundDiv(numerator: bigint, denominator: bigint): number {
  return Number(new Frac(numerator, denominator).round())
}

/** A yuan amount as JSON shows it (a number such as 919.54 or -0.5), in fen, exactly; throws on a third decimal. */
export function fenOf(yuan: number | string): number {
  const value = Frac.parse(typeof yuan === 'number' ? numberText(yuan) : yuan).mul(Frac.of(100))
  if (value.d !== 1n) throw new RangeError(`more than 2 decimals: ${yuan}`)
  return Number(value.n)
}

/** A JS number's shortest decimal spelling, without exponent. */
export function numberText(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`not finite: ${value}`)
  const text = String(value)
  if (!/e/i.test(text)) return text
  if (Number.isInteger(value)) return BigInt(value).toString()
  return value.toFixed(20).replace(/\.?0+$/, '')
}

export const yuanText = (fen: number) => {
  const sign = fen < 0 ? '-' : ''
  const a = Math.abs(fen)
  return `${sign}${Math.floor(a / 100)}.${String(a % 100).padStart(2, '0')}`
}

// ---------------------------------------------------------------- dates (UTC days, no zones)

const DAY = 86_400_000
const ms = (date: string) => Date.parse(`${date}T00:00:00Z`)
export const dateOf = (t: number) => new Date(t).toISOString().slice(0, 10)
export const addDays = (date: string, days: number) => dateOf(ms(date) + days * DAY)
/** ISO weekday, Monday 1 … Sunday 7 */
export const weekdayOf = (date: string) => ((new Date(ms(date)).getUTCDay() + 6) % 7) + 1
export const daysInMonth = (month: string) => {
  const [y, m] = month.split('-').map(Number)
  return new Date(Date.UTC(y, m, 0)).getUTCDate()
}
export const firstOf = (month: string) => `${month}-01`
export const lastOf = (month: string) => `${month}-${String(daysInMonth(month)).padStart(2, '0')}`
export function datesBetween(from: string, to: string): string[] {
  const out: string[] = []
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d)
  return out
}
export const monthIndex = (month: string) => Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1
export const nextMonth = (month: string) => {
  const i = monthIndex(month) + 1
  return `${Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`
}
const later = (a: string, b: string | null) => (b !== null && b > a ? b : a)
const earlier = (a: string, b: string | null) => (b !== null && b < a ? b : a)

// ---------------------------------------------------------------- the month's rows

export interface OracleRule {
  /** ISO weekdays */
  workDays: number[]
  allowedLateDays: number
}

/**
 * §4: the rule of a weekday among the group's enabled rules (in id order): the first whose work
 * days contain it, else the first.
 */
export const ruleOfWeekday = (rules: readonly OracleRule[], weekday: number): OracleRule | null =>
  rules.find((rule) => rule.workDays.includes(weekday)) ?? rules[0] ?? null

export interface OracleCalendarDay {
  kind: 'holiday' | 'workday'
  statutory: boolean
}

export interface OracleRecord {
  id: number
  workDate: string
  status: number
  clockedIn: boolean
  lateMinutes: number
  overtimeMinutes: number
}

export interface OracleLeave {
  id: number
  startDate: string
  endDate: string
  halfDay: 'am' | 'pm' | null
  /** an hourly request's span on startDate (HH:MM); null for a request of days (§18) */
  startTime: string | null
  endTime: string | null
  /** the type's paid flag */
  paid: boolean
}

/** The work hours and break of the rules (HH:MM): what an hourly request's span covers is measured against them. */
export interface OracleWorkTimes {
  start: string
  end: string
  breakStart: string
  breakEnd: string
}

/** A leave type's balance to be paid out on leaving (§18): the type, and the remaining half-days paid. */
export interface OraclePayout {
  typeId: number
  halves: number
}

export interface OracleLedgerRow {
  typeId: number
  year: number
  kind: string
  amount: number
  event: string | null
}

export interface OraclePayoutType {
  id: number
  /** accrual none: the annual days are granted each year without a ledger row */
  accrualNone: boolean
  annualHalves: number
}

export interface OracleSettings {
  proration: 'work_days' | 'calendar_days'
  /** days per month in hundredths (2175) */
  daysPerMonth100: number
  latePerOccurrence: number
  latePerMinute: number
  lateFree: number | null
  /** fen per absent day; null: the daily wage */
  absenceFixed: number | null
  /** multipliers in hundredths */
  otWorkDay: number
  otRestDay: number
  otStatutory: number
}

export interface OracleProfile {
  basic: number
  seniority: number
  allowance: number
}

export interface OracleEntered {
  performancePay: number
  bonus: number
  otherIncome: number
  otherDeductions: number
}

export interface OracleAdjustment {
  month: string
  recomputed: number
  approved: number
  carried: number
}

export interface OracleTaxYear {
  /** the first month of the year with an (approved) payslip here; this month when none */
  firstMonth: string
  gross: number
  withheld: number
}

export interface OracleMonth {
  month: string
  /** the employee's local date now: days before it are past */
  today: string
  hireDate: string | null
  leftOn: string | null
  /** the company's attendance_starts_on, when the employee is in a group of it */
  companyStartsOn: string | null
  /** the enabled rules of their group, lowest id first; none: no group or no enabled rule */
  rules: readonly OracleRule[]
  /** the calendar of their group's company (empty outside a group) */
  calendar: ReadonlyMap<string, OracleCalendarDay>
  records: readonly OracleRecord[]
  /** approved leave only */
  leave: readonly OracleLeave[]
  workTimes: OracleWorkTimes
  /** remaining leave paid out in the month of left_on (`oraclePayouts`), or what an approved month paid */
  payouts: readonly OraclePayout[]
  profile: OracleProfile
  settings: OracleSettings
  entered: OracleEntered
  adjustments: readonly OracleAdjustment[]
  tax: OracleTaxYear
}

export interface OracleFacts {
  from: string
  to: string
  workDaysOfMonth: number
  employedWorkDays: number
  calendarDaysOfMonth: number
  employedCalendarDays: number
  absentDays: number
  /** in halves of a day */
  unpaidLeaveHalves: number
  /** all approved leave of days (paid or not), halves: what the sheet and statistics show as leave_days */
  leaveHalves: number
  /** minutes of approved unpaid hourly leave on counted work days of the employed part */
  unpaidMinutes: number
  /** the same of all approved hourly leave (paid or not): leave_hours of statistics and the sheet */
  leaveMinutes: number
  lateOccurrences: number
  freeLate: number
  countedLate: number
  countedLateMinutes: number
  countedLateIds: number[]
  overtime: { workDay: number; restDay: number; statutory: number }
  overtimeTotal: number
}

export interface OracleLine {
  code: string
  kind: 'income' | 'attendance' | 'deduction'
  amount: number
  month?: string
}

export interface OraclePayslip {
  lines: OracleLine[]
  gross: number
  baseGross: number
  deductions: number
  tax: number
  net: number
  facts: OracleFacts
}

/** §8: a work day by the rule's weekdays and the company's marks (no employment bound). */
function weeklyWorkDay(input: OracleMonth, date: string): boolean {
  if (input.rules.length === 0) return false
  const mark = input.calendar.get(date)
  if (mark?.kind === 'workday') return true
  if (mark?.kind === 'holiday') return false
  return ruleOfWeekday(input.rules, weekdayOf(date))!.workDays.includes(weekdayOf(date))
}

/** The employed part of the month, or null when not employed in it. */
export function employedRange(month: string, hireDate: string | null, leftOn: string | null): { from: string; to: string } | null {
  const from = later(firstOf(month), hireDate)
  const to = earlier(lastOf(month), leftOn)
  return from <= to ? { from, to } : null
}

/** Halves of leave on each date of the requests of days given (two halves of one date make a whole day); hourly leave is no leave day. */
function leaveHalvesByDate(leave: readonly OracleLeave[]): Map<string, number> {
  const byDate = new Map<string, number>()
  for (const request of leave.filter((l) => l.startTime === null))
    for (const date of datesBetween(request.startDate, request.endDate)) byDate.set(date, Math.min(2, (byDate.get(date) ?? 0) + (request.halfDay ? 1 : 2)))
  return byDate
}

export function oracleFacts(input: OracleMonth): OracleFacts {
  const { month } = input
  const range = employedRange(month, input.hireDate, input.leftOn)
  if (!range) throw new Error(`not employed in ${month}`)
  const { from, to } = range
  // §23: the attendance start is the later of the company's go-live and the hire date
  const attendanceFrom = input.companyStartsOn === null ? input.hireDate : later(input.companyStartsOn, input.hireDate)
  const since = later(from, attendanceFrom)
  const counted = (date: string) => date >= since && weeklyWorkDay(input, date)

  let workDaysOfMonth = 0
  for (const date of datesBetween(firstOf(month), lastOf(month))) if (weeklyWorkDay(input, date)) workDaysOfMonth++
  let employedWorkDays = 0
  for (const date of datesBetween(from, to)) if (weeklyWorkDay(input, date)) employedWorkDays++

  const recordOn = new Map(input.records.map((r) => [r.workDate, r]))
  const allLeave = leaveHalvesByDate(input.leave)
  const unpaidLeave = leaveHalvesByDate(input.leave.filter((l) => !l.paid))

  let absentDays = 0
  let leaveHalves = 0
  let unpaidLeaveHalves = 0
  for (const date of datesBetween(from, to)) {
    if (!counted(date)) continue
    leaveHalves += allLeave.get(date) ?? 0
    unpaidLeaveHalves += unpaidLeave.get(date) ?? 0
    const record = recordOn.get(date)
    const fullLeave = (allLeave.get(date) ?? 0) === 2
    const missed = !record || (record.status === 3 && !record.clockedIn)
    if (date < input.today && missed && !fullLeave) absentDays++
  }

  // §18: an hourly request's length is the work time its span covers, the break excluded; it counts on a counted work day
  const hourlyMinutes = (only: (l: OracleLeave) => boolean) =>
    input.leave
      .filter((l) => l.startTime !== null && only(l) && l.startDate >= from && l.startDate <= to && counted(l.startDate))
      .reduce((sum, l) => sum + coveredMinutes(input.workTimes, l.startTime!, l.endTime!), 0)
  const unpaidMinutes = hourlyMinutes((l) => !l.paid)
  const leaveMinutes = hourlyMinutes(() => true)

  const inRange = input.records.filter((r) => r.workDate >= from && r.workDate <= to).sort((a, b) => (a.workDate < b.workDate ? -1 : 1))
  const late = inRange.filter((r) => r.status === 1 || r.lateMinutes > 0)
  // the rules' allowance (as statistics' late_days_allowed): per rule, at most its allowed days of the late days it applies on
  let allowedByRules = 0
  for (const rule of input.rules) {
    const lateUnder = late.filter((r) => ruleOfWeekday(input.rules, weekdayOf(r.workDate)) === rule).length
    allowedByRules += Math.min(lateUnder, rule.allowedLateDays)
  }
  const freeLate = Math.min(late.length, input.settings.lateFree ?? allowedByRules)
  const countedRecords = late.slice(freeLate)

  const overtime = { workDay: 0, restDay: 0, statutory: 0 }
  for (const record of inRange) {
    if (record.overtimeMinutes <= 0) continue
    const mark = input.calendar.get(record.workDate)
    if (mark?.kind === 'holiday' && mark.statutory) overtime.statutory += record.overtimeMinutes
    else if (counted(record.workDate)) overtime.workDay += record.overtimeMinutes
    else overtime.restDay += record.overtimeMinutes
  }

  return {
    from,
    to,
    workDaysOfMonth,
    employedWorkDays,
    calendarDaysOfMonth: daysInMonth(month),
    employedCalendarDays: datesBetween(from, to).length,
    absentDays,
    unpaidLeaveHalves,
    leaveHalves,
    unpaidMinutes,
    leaveMinutes,
    lateOccurrences: late.length,
    freeLate,
    countedLate: countedRecords.length,
    countedLateMinutes: countedRecords.reduce((sum, r) => sum + r.lateMinutes, 0),
    countedLateIds: countedRecords.map((r) => r.id),
    overtime,
    overtimeTotal: overtime.workDay + overtime.restDay + overtime.statutory,
  }
}

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5))

/** The minutes of [start, end) inside the work hours and outside the break (same-day hours only). */
export function coveredMinutes(times: OracleWorkTimes, start: string, end: string): number {
  const overlap = (a: number, b: number, c: number, d: number) => Math.max(0, Math.min(b, d) - Math.max(a, c))
  const [s, e] = [minutesOf(start), minutesOf(end)]
  return overlap(s, e, minutesOf(times.start), minutesOf(times.end)) - overlap(s, e, minutesOf(times.breakStart), minutesOf(times.breakEnd))
}

/**
 * §18: in the month of left_on, each type paid out on leaving pays its remaining balance of the year
 * of left_on, when above 0 and not paid out before (a `payout <year>` row): remaining = the annual
 * days (accrual none) + adjustments, grants, carries, lapses and payouts − taken and reversals −
 * pending and releases.
 */
export function oraclePayouts(month: string, leftOn: string | null, types: readonly OraclePayoutType[], ledger: readonly OracleLedgerRow[]): OraclePayout[] {
  if (leftOn === null || leftOn.slice(0, 7) !== month) return []
  const year = Number(month.slice(0, 4))
  const payouts: OraclePayout[] = []
  for (const type of [...types].sort((a, b) => a.id - b.id)) {
    const rows = ledger.filter((row) => row.typeId === type.id && row.year === year)
    if (rows.some((row) => row.kind === 'payout' && row.event === `payout ${year}`)) continue
    let remaining = type.accrualNone ? type.annualHalves : 0
    for (const row of rows) {
      if (['adjustment', 'grant', 'carry', 'lapse', 'payout'].includes(row.kind)) remaining += row.amount
      else if (['taken', 'reversal', 'pending', 'release'].includes(row.kind)) remaining -= row.amount
      else throw new Error(`a ledger row of an unknown kind: ${row.kind}`)
    }
    if (remaining > 0) payouts.push({ typeId: type.id, halves: remaining })
  }
  return payouts
}

/** The annual table of cumulative withholding (CONTRACT §17): upper bound (yuan), rate (%), quick deduction (yuan). */
const BRACKETS: [number, number, number][] = [
  [36_000, 3, 0],
  [144_000, 10, 2_520],
  [300_000, 20, 16_920],
  [420_000, 25, 31_920],
  [660_000, 30, 52_920],
  [960_000, 35, 85_920],
  [Infinity, 45, 181_920],
]

export function cumulativeTax(taxableFen: number): { rate: number; quick: number; tax: number } {
  const [, rate, quick] = BRACKETS.find(([upTo]) => taxableFen <= upTo * 100)!
  const tax = new Frac(BigInt(taxableFen) * BigInt(rate), 100n).sub(Frac.of(quick * 100)).round()
  return { rate, quick: quick * 100, tax: Number(tax) }
}

export function oraclePayslip(input: OracleMonth): OraclePayslip {
  const facts = oracleFacts(input)
  const { profile, settings: s, entered } = input
  const M = BigInt(profile.basic + profile.seniority + profile.allowance)
  const D = BigInt(s.daysPerMonth100)
  const lines: OracleLine[] = []
  const add = (code: string, kind: OracleLine['kind'], amount: number, shown: boolean, month?: string) => {
    if (shown) lines.push(month ? { code, kind, amount, month } : { code, kind, amount })
  }

  const byWorkDays = s.proration === 'work_days' && facts.workDaysOfMonth > 0
  const part = BigInt(byWorkDays ? facts.employedWorkDays : facts.employedCalendarDays)
  const whole = BigInt(byWorkDays ? facts.workDaysOfMonth : facts.calendarDaysOfMonth)
  const prorated = (fen: number) => roundDiv(BigInt(fen) * part, whole)
  const basic = prorated(profile.basic)
  add('basic_salary', 'income', basic, true)
  const seniority = prorated(profile.seniority)
  add('seniority_pay', 'income', seniority, seniority !== 0)
  const allowance = prorated(profile.allowance)
  add('allowance', 'income', allowance, allowance !== 0)

  // M ÷ (D/100) ÷ 8 × minutes ÷ 60 × (multiplier/100) = M × minutes × multiplier / (D × 480)
  const overtime = (minutes: number, multiplier: number) => roundDiv(M * BigInt(minutes) * BigInt(multiplier), D * 480n)
  add('overtime_work_day', 'income', overtime(facts.overtime.workDay, s.otWorkDay), facts.overtime.workDay > 0)
  add('overtime_rest_day', 'income', overtime(facts.overtime.restDay, s.otRestDay), facts.overtime.restDay > 0)
  add('overtime_statutory_holiday', 'income', overtime(facts.overtime.statutory, s.otStatutory), facts.overtime.statutory > 0)
  // §18: daily × 2 × days = M ÷ (D/100) × 2 × halves ÷ 2 = M × halves × 100 ÷ D
  for (const payout of [...input.payouts].sort((a, b) => a.typeId - b.typeId)) add('leave_payout', 'income', roundDiv(M * BigInt(payout.halves) * 100n, D), payout.halves > 0)
  add('performance_pay', 'income', entered.performancePay, entered.performancePay !== 0)
  add('bonus', 'income', entered.bonus, entered.bonus !== 0)
  add('other_income', 'income', entered.otherIncome, entered.otherIncome !== 0)
  for (const adjustment of [...input.adjustments].sort((a, b) => (a.month < b.month ? -1 : 1))) {
    const amount = adjustment.recomputed - adjustment.approved - adjustment.carried
    add('adjustment', 'income', amount, amount !== 0, adjustment.month)
  }

  const absence = s.absenceFixed !== null ? s.absenceFixed * facts.absentDays : roundDiv(M * 100n * BigInt(facts.absentDays), D)
  add('absence', 'attendance', absence, facts.absentDays > 0)
  add('unpaid_leave', 'attendance', roundDiv(M * 100n * BigInt(facts.unpaidLeaveHalves), D * 2n), facts.unpaidLeaveHalves > 0)
  // hourly × hours = M ÷ (D/100) ÷ 8 × minutes ÷ 60 = M × minutes × 100 ÷ (D × 480)
  add('unpaid_leave_hours', 'attendance', roundDiv(M * 100n * BigInt(facts.unpaidMinutes), D * 480n), facts.unpaidMinutes > 0)
  const lateness = s.latePerOccurrence * facts.countedLate + s.latePerMinute * facts.countedLateMinutes
  add('lateness', 'attendance', lateness, facts.countedLate > 0 || lateness !== 0)

  const sum = (kind: OracleLine['kind'], only?: string) => lines.filter((l) => l.kind === kind && (!only || l.code === only)).reduce((a, l) => a + l.amount, 0)
  const gross = sum('income') - sum('attendance')
  const baseGross = gross - sum('income', 'adjustment')

  const n = monthIndex(input.month) - monthIndex(input.tax.firstMonth) + 1
  const taxable = Math.max(0, input.tax.gross + gross - 500_000 * n)
  const cumulative = cumulativeTax(taxable)
  const tax = Math.max(0, cumulative.tax - input.tax.withheld)
  add('personal_tax', 'deduction', tax, true)
  add('other_deductions', 'deduction', entered.otherDeductions, entered.otherDeductions !== 0)
  const deductions = sum('deduction')
  return { lines, gross, baseGross, deductions, tax, net: gross - deductions, facts }
}

/** The order lines come in (the brief's table). */
export const LINE_ORDER = [
  'basic_salary',
  'seniority_pay',
  'allowance',
  'overtime_work_day',
  'overtime_rest_day',
  'overtime_statutory_holiday',
  'leave_payout',
  'performance_pay',
  'bonus',
  'other_income',
  'adjustment',
  'absence',
  'unpaid_leave',
  'unpaid_leave_hours',
  'lateness',
  'personal_insurance',
  'housing_fund',
  'personal_tax',
  'other_deductions',
]

// ---------------------------------------------------------------- the formula evaluator

/**
 * A formula of the brief's grammar: parts `[label: ]expr = result` joined by '; '; expr has
 * numbers (a leading '-' is a sign), '+', '−' (U+2212), '×', '÷', parentheses, max(a, b) and
 * min(a, b) (§17: a contribution base clamped to a scheme's ceiling).
 */
export interface FormulaPart {
  label: string | null
  expr: string
  result: string
  value: Frac
  /** the decimals the expression is written with */
  numbers: string[]
}

export function evaluateFormula(formula: string): FormulaPart[] {
  return formula.split('; ').map((text) => {
    const labelled = /^([^:()=]+): (.*)$/.exec(text)
    const label = labelled ? labelled[1] : null
    const body = labelled ? labelled[2] : text
    const at = body.lastIndexOf(' = ')
    if (at < 0) throw new Error(`no "=" in "${text}"`)
    const expr = body.slice(0, at)
    const result = body.slice(at + 3)
    if (!/^-?\d+\.\d{2}$/.test(result)) throw new Error(`result "${result}" is not money with 2 decimals`)
    const { value, numbers } = parseExpression(expr)
    return { label, expr, result, value, numbers }
  })
}

function parseExpression(expr: string): { value: Frac; numbers: string[] } {
  const tokens = expr.match(/max|min|\d+(?:\.\d+)?|[()+−×÷,-]|\S/g) ?? []
  const numbers: string[] = []
  let at = 0
  const peek = () => tokens[at]
  const take = (want?: string) => {
    const token = tokens[at++]
    if (want !== undefined && token !== want) throw new Error(`expected "${want}" at token ${at - 1} of "${expr}", got "${token}"`)
    if (token === undefined) throw new Error(`unexpected end of "${expr}"`)
    return token
  }
  const primary = (): Frac => {
    const token = take()
    if (token === '(') {
      const value = sum()
      take(')')
      return value
    }
    if (token === 'max' || token === 'min') {
      take('(')
      const a = sum()
      take(',')
      const b = sum()
      take(')')
      return (token === 'max' ? a.cmp(b) >= 0 : a.cmp(b) <= 0) ? a : b
    }
    if (token === '-') {
      const digits = take()
      if (!/^\d/.test(digits)) throw new Error(`a sign before "${digits}" in "${expr}"`)
      numbers.push(`-${digits}`)
      return Frac.parse(`-${digits}`)
    }
    if (/^\d/.test(token)) {
      numbers.push(token)
      return Frac.parse(token)
    }
    throw new Error(`unexpected "${token}" in "${expr}"`)
  }
  const product = (): Frac => {
    let value = primary()
    while (peek() === '×' || peek() === '÷') value = take() === '×' ? value.mul(primary()) : value.div(primary())
    return value
  }
  const sum = (): Frac => {
    let value = product()
    while (peek() === '+' || peek() === '−') value = take() === '+' ? value.add(product()) : value.sub(product())
    return value
  }
  const value = sum()
  if (at !== tokens.length) throw new Error(`left over "${tokens.slice(at).join(' ')}" in "${expr}"`)
  return { value, numbers }
}

/** Rounded half up to 2 decimals, written with them. */
export function money2(value: Frac): string {
  return yuanText(Number(value.mul(Frac.of(100)).round()))
}
