import { afterAll, expect, test } from 'bun:test'
import { parse } from 'csv-parse/sync'
import { eq } from 'drizzle-orm'
import { attendanceRecords, leaveRequests } from '../src/db/schema'
import { login, loginAdmin, makeUser, req, startApp, type TestApp } from './helpers'
import {
  call,
  createLeaveTypes,
  generateMonth,
  insertRows,
  loadLedger,
  loadRows,
  planCompany,
  prng,
  profileOf,
  setUpCompany,
  attendanceFromOf,
  workDayOf,
  HOURLY_SPANS,
  WORK_TIMES,
  type CompanyPlan,
  type EmployeePlan,
  type LeaveDays,
  type LeaveTypes,
  type MonthRows,
  type Prng,
} from './payroll-generate'
import {
  addDays,
  coveredMinutes,
  datesBetween,
  employedRange,
  evaluateFormula,
  fenOf,
  firstOf,
  Frac,
  lastOf,
  LINE_ORDER,
  money2,
  nextMonth,
  numberText,
  oraclePayouts,
  oraclePayslip,
  type OracleAdjustment,
  type OracleEntered,
  type OracleMonth,
  type OraclePayout,
  type OraclePayslip,
} from './payroll-oracle'

/*
 * The payroll oracle test (issue 28). Seeded companies and employees, months of attendance and
 * leave written as rows, runs made, edited, approved and changed afterwards (adjustments, the
 * year's cumulative tax); then every payslip of every run is compared with test/payroll-oracle.ts
 * — a plain loop written from CONTRACT §8, §9, §16, §17, §23 and the brief, not from src/ — line by
 * line and in its totals. Every line's formula is evaluated by the oracle's own exact evaluator,
 * and the attendance figures (the oracle's and those in the payslip's line inputs) are compared
 * with GET /attendance/statistics over the employed part and with the month's attendance sheet.
 * Some draft runs are changed (records, leave, a day off declared) and recomputed before approval;
 * approved months are changed afterwards, so that later runs carry (and do not repeat) adjustments.
 * Leave comes in days and in hours (§18: unpaid hours deducted by a line of their own, never a
 * leave day); leavers are paid their remaining annual leave (the oracle sums the ledger rows
 * itself), and each approval is checked to have written the payout row that brings it to 0.
 * The statistics are read through one employee account linked to each employee in turn.
 *
 * Another history: PAYROLL_SEED=<n> bun test test/payroll-oracle.test.ts
 */

const SEED = Number(process.env.PAYROLL_SEED ?? 280028)

interface Batch {
  prefix: string
  months: string[]
  companies: number
  /** the last month is run while it is still going on (the 17th) and stays a draft */
  inMonthLast: boolean
}

const BATCHES: Batch[] = [
  { prefix: 'a', months: ['2025-01', '2025-02', '2025-03'], companies: 9, inMonthLast: false },
  { prefix: 'b', months: ['2024-11', '2024-12', '2025-01'], companies: 7, inMonthLast: true },
]

interface Mismatch {
  what: string
  where: string
  service: unknown
  oracle: unknown
}

const mismatches: Mismatch[] = []
const formulaProblems: Mismatch[] = []
/** run and employee of every payslip compared */
const seen = new Set<string>()
const counts = {
  runs: 0,
  payslips: 0,
  comparisons: 0,
  lines: 0,
  formulas: 0,
  statistics: 0,
  sheetRows: 0,
  adjustments: 0,
  carried: 0,
  taxed: 0,
  recomputes: 0,
  changedBeforeApproval: 0,
  unpaidHours: 0,
  payouts: 0,
  payoutsWritten: 0,
}
const apps: TestApp[] = []
afterAll(() => {
  for (const t of apps) t.close()
})

/** The local date at `instant` in `zone` (Intl, not src/). */
const localDateIn = (instant: string, zone: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(instant))

interface Approved {
  gross: number
  baseGross: number
  tax: number
  entered: OracleEntered
  /** what it paid out on leaving: an approved month recomputed pays the same (its ledger row took those days) */
  payouts: readonly OraclePayout[]
}

const NO_ENTRY: OracleEntered = { performancePay: 0, bonus: 0, otherIncome: 0, otherDeductions: 0 }

/** What the oracle knows of approved payslips: by employee, by month. */
class Ledger {
  approved = new Map<number, Map<string, Approved>>()
  carried = new Map<number, Map<string, number>>()
  of(e: EmployeePlan) {
    return this.approved.get(e.id) ?? new Map<string, Approved>()
  }
  approve(e: EmployeePlan, month: string, slip: OraclePayslip, entered: OracleEntered, payouts: readonly OraclePayout[]) {
    const mine = this.approved.get(e.id) ?? new Map()
    mine.set(month, { gross: slip.gross, baseGross: slip.baseGross, tax: slip.tax, entered, payouts })
    this.approved.set(e.id, mine)
    const carried = this.carried.get(e.id) ?? new Map()
    for (const line of slip.lines) if (line.code === 'adjustment') carried.set(line.month!, (carried.get(line.month!) ?? 0) + line.amount)
    this.carried.set(e.id, carried)
  }
}

class World {
  r: Prng
  companies: CompanyPlan[] = []
  ledger = new Ledger()
  leaveDays: LeaveDays = new Map()
  types!: LeaveTypes
  admin = ''
  viewer = { id: 0, token: '', linked: 0 }
  rowsCache = new Map<string, MonthRows>()
  constructor(
    public t: TestApp,
    public batch: Batch,
    seed: number,
  ) {
    this.r = prng(seed)
  }

  async rows(c: CompanyPlan, month: string): Promise<MonthRows> {
    const key = `${c.companyId} ${month}`
    let rows = this.rowsCache.get(key)
    if (!rows) this.rowsCache.set(key, (rows = await loadRows(this.t, c, firstOf(month), lastOf(month))))
    return rows
  }

  /** The month's payouts on leaving (§18), from the employee's ledger as it is now. */
  async payouts(e: EmployeePlan, month: string): Promise<OraclePayout[]> {
    if (e.leftOn === null || e.leftOn.slice(0, 7) !== month) return []
    return oraclePayouts(month, e.leftOn, this.types.payout, await loadLedger(this.t, e.id))
  }

  input(
    c: CompanyPlan,
    e: EmployeePlan,
    month: string,
    today: string,
    rows: MonthRows,
    entered: OracleEntered,
    adjustments: OracleAdjustment[],
    payouts: readonly OraclePayout[],
  ): OracleMonth {
    const profile = profileOf(e, month)!
    const approved = [...this.ledger.of(e)].filter(([m]) => m.slice(0, 4) === month.slice(0, 4) && m < month)
    return {
      month,
      today,
      hireDate: e.hireDate,
      leftOn: e.leftOn,
      companyStartsOn: e.inGroup ? c.startsOn : null,
      rules: e.inGroup && c.ruleEnabled ? c.rules : [],
      calendar: e.inGroup ? rows.calendar : new Map(),
      records: rows.records.get(e.id) ?? [],
      leave: rows.leave.get(e.id) ?? [],
      workTimes: WORK_TIMES,
      payouts,
      profile: { basic: profile.basic, seniority: profile.seniority, allowance: profile.allowance },
      settings: c.settings,
      entered,
      adjustments,
      tax: {
        firstMonth: approved.map(([m]) => m).sort()[0] ?? month,
        gross: approved.reduce((sum, [, a]) => sum + a.gross, 0),
        withheld: approved.reduce((sum, [, a]) => sum + a.tax, 0),
      },
    }
  }

  /** The oracle's payslip of `e` for `month` now, with the adjustments of every approved earlier month recomputed. */
  async oracle(c: CompanyPlan, e: EmployeePlan, month: string, today: string, entered: OracleEntered): Promise<OraclePayslip> {
    const adjustments: OracleAdjustment[] = []
    for (const [earlier, approved] of this.ledger.of(e)) {
      if (earlier >= month) continue
      const again = oraclePayslip(this.input(c, e, earlier, today, await this.rows(c, earlier), approved.entered, [], approved.payouts))
      adjustments.push({ month: earlier, recomputed: again.baseGross, approved: approved.baseGross, carried: this.ledger.carried.get(e.id)?.get(earlier) ?? 0 })
    }
    return oraclePayslip(this.input(c, e, month, today, await this.rows(c, month), entered, adjustments, await this.payouts(e, month)))
  }
}

const mismatch = (what: string, where: string, service: unknown, oracle: unknown) => mismatches.push({ what, where, service, oracle })

// ---------------------------------------------------------------- the comparisons

interface ApiLine {
  code: string
  label: string
  kind: string
  amount: number
  formula: string
  inputs: Record<string, unknown>
  sources: { kind: string; id: number }[]
  month?: string | null
}

interface ApiPayslip {
  id: number
  run_id: number
  employee: { id: number; name: string; employee_no: string | null }
  month: string
  status: string
  gross: number
  deductions: number
  net: number
  lines: ApiLine[]
  inputs: Record<string, unknown>
  flags: string[]
  facts?: Record<string, unknown>
}

const lineKey = (line: { code: string; kind: string; amount: number; month?: string | null }) =>
  `${line.code}${line.month ? `(${line.month})` : ''} ${line.kind} ${line.amount}`

function compareSlip(where: string, api: ApiPayslip, oracle: OraclePayslip, noted: boolean) {
  const apiLines = api.lines.map((l) => lineKey({ ...l, amount: fenOf(l.amount) }))
  const oracleLines = oracle.lines.map(lineKey)
  if (JSON.stringify(apiLines) !== JSON.stringify(oracleLines)) mismatch('lines', where, apiLines, oracleLines)
  for (const [field, want] of [
    ['gross', oracle.gross],
    ['deductions', oracle.deductions],
    ['net', oracle.net],
  ] as const)
    if (fenOf(api[field]) !== want) mismatch(field, where, fenOf(api[field]), want)
  // the lines come in the brief's order
  const order = api.lines.map((l) => LINE_ORDER.indexOf(l.code))
  if (order.some((i, k) => i < 0 || (k > 0 && i < order[k - 1]))) mismatch('line order', where, api.lines.map((l) => l.code), LINE_ORDER)
  const flags = expectedFlags(oracle, noted)
  const apiFlags = [...api.flags].sort()
  if (JSON.stringify(apiFlags) !== JSON.stringify(flags)) mismatch('flags', where, apiFlags, flags)
  if (api.facts) compareFacts(where, api.facts, oracle)
}

/** `noted`: HR left a note on the payslip (entered inputs, as an amount is). */
function expectedFlags(o: OraclePayslip, noted: boolean): string[] {
  const f = o.facts
  const flags = new Set<string>()
  if (f.from !== `${f.from.slice(0, 7)}-01` || f.to !== lastOf(f.from.slice(0, 7))) flags.add('prorated')
  if (f.absentDays > 0) flags.add('absence')
  if (f.unpaidLeaveHalves > 0 || f.unpaidMinutes > 0) flags.add('unpaid_leave')
  if (f.countedLate > 0) flags.add('lateness')
  if (f.overtimeTotal > 0) flags.add('overtime')
  if (o.lines.some((l) => l.code === 'adjustment')) flags.add('adjustment')
  if (noted || o.lines.some((l) => ['performance_pay', 'bonus', 'other_income', 'other_deductions'].includes(l.code))) flags.add('entered')
  if (o.net < 0) flags.add('negative_net')
  return [...flags].sort()
}

/** The payslip's `facts` (camelCase as the computation keeps them, or snake_case) against the oracle's. */
function compareFacts(where: string, facts: Record<string, unknown>, o: OraclePayslip) {
  const f = o.facts
  const pick = (...names: string[]) => names.map((n) => facts[n]).find((v) => v !== undefined)
  const overtime = pick('overtimeMinutes', 'overtime_minutes') as Record<string, number> | undefined
  const want: [string, unknown, unknown][] = [
    ['from', pick('from'), f.from],
    ['to', pick('to'), f.to],
    ['workDaysOfMonth', pick('workDaysOfMonth', 'work_days_of_month'), f.workDaysOfMonth],
    ['employedWorkDays', pick('employedWorkDays', 'employed_work_days'), f.employedWorkDays],
    ['absentDays', pick('absentDays', 'absent_days'), f.absentDays],
    ['unpaidLeaveDays', pick('unpaidLeaveDays', 'unpaid_leave_days'), f.unpaidLeaveHalves / 2],
    ['unpaidLeaveMinutes', pick('unpaidLeaveMinutes', 'unpaid_leave_minutes'), f.unpaidMinutes],
    ['lateOccurrences', pick('lateOccurrences', 'late_occurrences'), f.lateOccurrences],
    ['freeLateOccurrences', pick('freeLateOccurrences', 'free_late_occurrences'), f.freeLate],
    [
      'overtimeMinutes',
      overtime && [overtime.workDay ?? overtime.work_day, overtime.restDay ?? overtime.rest_day, overtime.statutoryHoliday ?? overtime.statutory_holiday],
      [f.overtime.workDay, f.overtime.restDay, f.overtime.statutory],
    ],
  ]
  for (const [name, service, oracle] of want)
    if (service !== undefined && JSON.stringify(service) !== JSON.stringify(oracle)) mismatch(`facts.${name}`, where, service, oracle)
}

/** The numbers an input value stands for (a number, or a string that is one). */
function inputNumbers(inputs: Record<string, unknown>): Frac[] {
  const out: Frac[] = []
  const visit = (value: unknown) => {
    if (typeof value === 'number') out.push(Frac.parse(numberText(value)))
    else if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value)) out.push(Frac.parse(value))
    else if (value && typeof value === 'object') for (const v of Object.values(value)) visit(v)
  }
  visit(inputs)
  return out
}

/** The property: each part evaluates (exactly, rounded half up) to its result, the last to the amount, and every number is an input or an earlier result. */
function checkFormula(where: string, line: ApiLine) {
  counts.formulas++
  const problem = (what: string, detail: unknown) => formulaProblems.push({ what, where: `${where} ${line.code}`, service: line.formula, oracle: detail })
  let parts
  try {
    parts = evaluateFormula(line.formula)
  } catch (error) {
    return problem('unparsable formula', String(error))
  }
  const known = inputNumbers(line.inputs)
  for (const part of parts) {
    const rounded = money2(part.value)
    if (rounded !== part.result) problem('part does not evaluate to its result', { part: part.expr, exact: part.value.toString(), rounded, result: part.result })
    for (const number of part.numbers) {
      const value = Frac.parse(number)
      if (!known.some((k) => k.eq(value))) problem('number not in inputs', { number, inputs: line.inputs })
    }
    known.push(Frac.parse(part.result))
  }
  const last = parts[parts.length - 1]
  if (fenOf(last.result) !== fenOf(line.amount)) problem('last result is not the amount', { result: last.result, amount: line.amount })
}

// ---------------------------------------------------------------- a batch

async function linkViewer(w: World, e: EmployeePlan) {
  if (w.viewer.linked === e.id) return
  if (w.viewer.linked) await call(w.t, w.admin, 'PUT', `/api/v1/admin/employees/${w.viewer.linked}`, { user_id: null }, 200)
  await call(w.t, w.admin, 'PUT', `/api/v1/admin/employees/${e.id}`, { user_id: w.viewer.id }, 200)
  w.viewer.linked = e.id
}

const hoursOf = (minutes: number) => Number(money2(new Frac(BigInt(minutes), 60n)))

/** The attendance figures a payslip shows in its lines' inputs. */
interface SlipFigures {
  absentDays: number
  unpaidLeaveDays: number
  /** from the unpaid_leave_hours line */
  unpaidLeaveMinutes: number
  /** undefined: no lateness line (no occurrence beyond the free ones) */
  lateOccurrences: number | undefined
  freeOccurrences: number | undefined
  overtimeMinutes: number
  /** undefined: prorated by calendar days */
  employedWorkDays: number | undefined
}

function slipFigures(api: ApiPayslip): SlipFigures {
  const inputsOf = (code: string) => api.lines.find((l) => l.code === code)?.inputs
  const overtime = api.lines.filter((l) => l.code.startsWith('overtime_')).reduce((sum, l) => sum + Number(l.inputs.overtime_minutes), 0)
  const lateness = inputsOf('lateness')
  return {
    absentDays: Number(inputsOf('absence')?.absent_days ?? 0),
    unpaidLeaveDays: Number(inputsOf('unpaid_leave')?.unpaid_leave_days ?? 0),
    unpaidLeaveMinutes: Number(inputsOf('unpaid_leave_hours')?.unpaid_leave_minutes ?? 0),
    lateOccurrences: lateness ? Number(lateness.late_occurrences) : undefined,
    freeOccurrences: lateness ? Number(lateness.free_occurrences) : undefined,
    overtimeMinutes: overtime,
    employedWorkDays: inputsOf('basic_salary')?.employed_work_days as number | undefined,
  }
}

/** Statistics (or the sheet's totals) against the payslip's own figures: `settingsFree` the settings' free occurrences. */
function agreeWithSlip(
  what: string,
  where: string,
  s: Record<string, number>,
  slip: SlipFigures,
  settingsFree: number | null,
  leaveAllUnpaid: boolean,
  workDaysComparable: boolean,
  hoursAllUnpaid: boolean,
) {
  const pairs: [string, unknown, unknown][] = [
    ['absent_days', s.absent_days, slip.absentDays],
    ['overtime_hours', s.overtime_hours, hoursOf(slip.overtimeMinutes)],
  ]
  if (slip.lateOccurrences !== undefined) {
    pairs.push(['late_days', s.late_days, slip.lateOccurrences])
    if (settingsFree === null && s.late_days_allowed !== undefined) pairs.push(['late_days_allowed', s.late_days_allowed, slip.freeOccurrences])
  } else {
    // no lateness line: every late day was free
    const free = settingsFree ?? s.late_days_allowed
    if (free !== undefined && s.late_days > free) pairs.push(['late days beyond the free ones without a lateness line', s.late_days, free])
  }
  if (leaveAllUnpaid) pairs.push(['leave_days', s.leave_days, slip.unpaidLeaveDays])
  else if (s.leave_days < slip.unpaidLeaveDays) pairs.push(['leave_days ≥ unpaid leave', s.leave_days, slip.unpaidLeaveDays])
  if (workDaysComparable && slip.employedWorkDays !== undefined) pairs.push(['work_days', s.work_days, slip.employedWorkDays])
  // §18: leave_hours (where statistics or the sheet show it) are the unpaid hours of the payslip where all the hourly leave is unpaid
  if (s.leave_hours !== undefined && !Number.isNaN(s.leave_hours)) {
    if (hoursAllUnpaid) pairs.push(['leave_hours', s.leave_hours, hoursOf(slip.unpaidLeaveMinutes)])
    else if (s.leave_hours < hoursOf(slip.unpaidLeaveMinutes)) pairs.push(['leave_hours ≥ unpaid hours', s.leave_hours, hoursOf(slip.unpaidLeaveMinutes)])
  }
  for (const [name, service, payslip] of pairs) if (service !== payslip) mismatch(`${what}.${name} vs payslip`, where, service, payslip)
}

async function checkStatistics(w: World, c: CompanyPlan, e: EmployeePlan, o: OraclePayslip, api: ApiPayslip, where: string) {
  await linkViewer(w, e)
  const f = o.facts
  const reply = await call(w.t, w.viewer.token, 'GET', `/api/v1/attendance/statistics?start_date=${f.from}&end_date=${f.to}`, undefined, 200)
  counts.statistics++
  const s = reply.body.data
  const pairs: [string, unknown, unknown][] = [
    ['absent_days', s.absent_days, f.absentDays],
    ['late_days', s.late_days, f.lateOccurrences],
    ['overtime_hours', s.overtime_hours, hoursOf(f.overtimeTotal)],
    ['leave_days', s.leave_days, f.leaveHalves / 2],
    ['work_days', s.work_days, workDaysFromAttendanceStart(c, e, f.from, f.to)],
  ]
  if (c.settings.lateFree === null) pairs.push(['late_days_allowed', s.late_days_allowed, f.freeLate])
  // the unpaid leave of the payslip is the statistics' leave where all the leave is unpaid
  const slipUnpaid = o.facts.unpaidLeaveHalves / 2
  if (f.leaveHalves === f.unpaidLeaveHalves) pairs.push(['leave_days = unpaid leave', s.leave_days, slipUnpaid])
  if (s.leave_hours !== undefined) pairs.push(['leave_hours', s.leave_hours, hoursOf(f.leaveMinutes)])
  for (const [name, service, oracle] of pairs) if (service !== oracle) mismatch(`statistics.${name}`, where, service, oracle)
  const start = attendanceFromOf(c, e)
  agreeWithSlip(
    'statistics',
    where,
    s,
    slipFigures(api),
    c.settings.lateFree,
    f.leaveHalves === f.unpaidLeaveHalves,
    e.inGroup && (start === null || start <= f.from),
    f.leaveMinutes === f.unpaidMinutes,
  )
}

/** §23: statistics' work days count from the attendance start. */
function workDaysFromAttendanceStart(c: CompanyPlan, e: EmployeePlan, from: string, to: string) {
  if (!e.inGroup) return 0
  const start = attendanceFromOf(c, e)
  return datesBetween(from, to).filter((d) => (start === null || d >= start) && workDayOf(c, d)).length
}

async function checkSheet(w: World, c: CompanyPlan, month: string, slips: Map<number, OraclePayslip>, apis: Map<number, ApiPayslip>) {
  const reply = await req(w.t.app, 'GET', `/api/v1/admin/exports/attendance?month=${month}&format=csv&layout=data&group_id=${c.groupId}`, { token: w.admin })
  expect(reply.status).toBe(200)
  const text = String(reply.body).replace(/^\uFEFF/, '')
  const rows: string[][] = parse(text)
  const header = rows[0]
  const col = (name: string) => header.indexOf(name)
  for (const e of c.employees) {
    const o = slips.get(e.id)
    if (!o || !e.inGroup) continue
    if (e.leftOn !== null && e.leftOn <= lastOf(month)) continue
    const row = rows.find((cells) => cells[col('employee_no')] === e.no)
    const where = `${c.name} ${e.key} ${month} sheet`
    if (!row) {
      // the sheet leaves out employees marked as left (status 0) who have no record in the month
      if (e.status === 0) continue
      mismatch('sheet row missing', where, null, e.no)
      continue
    }
    counts.sheetRows++
    const f = o.facts
    const pairs: [string, number, number][] = [
      ['absent_days', Number(row[col('absent_days')]), f.absentDays],
      ['late_days', Number(row[col('late_days')]), f.lateOccurrences],
      ['overtime_hours', Number(row[col('overtime_hours')]), hoursOf(f.overtimeTotal)],
      ['leave_days', Number(row[col('leave_days')]), f.leaveHalves / 2],
    ]
    if (col('leave_hours') >= 0) pairs.push(['leave_hours', Number(row[col('leave_hours')]), hoursOf(f.leaveMinutes)])
    if (f.from === firstOf(month)) pairs.push(['work_days', Number(row[col('work_days')]), workDaysFromAttendanceStart(c, e, f.from, f.to)])
    for (const [name, service, oracle] of pairs) if (service !== oracle) mismatch(`sheet.${name}`, where, service, oracle)
    const api = apis.get(e.id)
    if (!api) continue
    const headers = ['absent_days', 'late_days', 'overtime_hours', 'leave_days', 'work_days', ...(col('leave_hours') >= 0 ? ['leave_hours'] : [])]
    const totals = Object.fromEntries(headers.map((h) => [h, Number(row[col(h)])]))
    const start = attendanceFromOf(c, e)
    agreeWithSlip(
      'sheet',
      where,
      totals,
      slipFigures(api),
      c.settings.lateFree,
      f.leaveHalves === f.unpaidLeaveHalves,
      f.from === firstOf(month) && (start === null || start <= f.from),
      f.leaveMinutes === f.unpaidMinutes,
    )
  }
}

function randomEntry(r: Prng): OracleEntered {
  return {
    performancePay: r.chance(0.5) ? r.fen(100, 8000) : 0,
    bonus: r.chance(0.3) ? r.fen(100, 20000) : 0,
    otherIncome: r.chance(0.2) ? r.fen(1, 500) : 0,
    otherDeductions: r.chance(0.3) ? r.fen(1, 300) : 0,
  }
}

const entryBody = (e: OracleEntered, note: string) => ({
  performance_pay: e.performancePay / 100,
  bonus: e.bonus / 100,
  other_income: e.otherIncome / 100,
  other_deductions: e.otherDeductions / 100,
  note,
})

async function payslipsOf(w: World, runId: number): Promise<ApiPayslip[]> {
  return (await call(w.t, w.admin, 'GET', `/api/v1/admin/payroll/runs/${runId}/payslips`, undefined, 200)).body.data.payslips
}

interface RunState {
  c: CompanyPlan
  month: string
  runId: number
  today: (e: EmployeePlan) => string
  expected: EmployeePlan[]
  entered: Map<number, OracleEntered>
  notes: Set<number>
}

/** HR enters figures: on some payslips at random, and a bonus wherever the net would be negative (so that the run can be approved). */
async function enterInputs(w: World, run: RunState, payslips: ApiPayslip[], randomly: boolean): Promise<boolean> {
  const { r } = w
  let any = false
  for (const e of run.expected) {
    const before = run.entered.get(e.id) ?? NO_ENTRY
    let entry = randomly && r.chance(0.3) ? randomEntry(r) : before
    const trial = await w.oracle(run.c, e, run.month, run.today(e), entry)
    if (trial.net < 0) entry = { ...entry, bonus: entry.bonus + -trial.net + r.fen(0, 100) }
    if (entry === before) continue
    const slip = payslips.find((p) => p.employee.id === e.id)
    if (!slip) continue
    const note = r.chance(0.6) ? 'entered by the oracle test' : ''
    const put = await call(w.t, w.admin, 'PUT', `/api/v1/admin/payroll/runs/${run.runId}/payslips/${slip.id}/inputs`, entryBody(entry, note), 200)
    expect(put.body.data.id).toBe(slip.id)
    expect(put.body.data.inputs).toEqual(entryBody(entry, note))
    run.entered.set(e.id, entry)
    if (note) run.notes.add(e.id)
    else run.notes.delete(e.id)
    any = true
  }
  return any
}

/** Every payslip of the run against the oracle, its formulas, statistics and the sheet; the run's totals. */
async function compareRun(w: World, run: RunState, payslips: ApiPayslip[]): Promise<Map<number, OraclePayslip>> {
  const { c, month } = run
  const got = payslips.map((p) => p.employee.id).sort((a, b) => a - b)
  const want = run.expected.map((e) => e.id).sort((a, b) => a - b)
  if (JSON.stringify(got) !== JSON.stringify(want))
    mismatch('who has a payslip', `${c.name} ${month}`, got.map((id) => c.employees.find((e) => e.id === id)?.key ?? id), want.map((id) => c.employees.find((e) => e.id === id)!.key))

  const slips = new Map<number, OraclePayslip>()
  const apis = new Map<number, ApiPayslip>()
  const totals = { gross: 0, deductions: 0, tax: 0, net: 0 }
  for (const e of run.expected) {
    const where = `${c.name} ${e.key} ${month}`
    const o = await w.oracle(c, e, month, run.today(e), run.entered.get(e.id) ?? NO_ENTRY)
    slips.set(e.id, o)
    totals.gross += o.gross
    totals.deductions += o.deductions
    totals.tax += o.tax
    totals.net += o.net
    const api = payslips.find((p) => p.employee.id === e.id)
    if (!api) continue
    const first = !seen.has(`${run.runId} ${e.id}`)
    seen.add(`${run.runId} ${e.id}`)
    counts.comparisons++
    if (first) {
      counts.payslips++
      counts.lines += api.lines.length
      if (o.lines.some((l) => l.code === 'adjustment')) counts.adjustments++
      if ([...(w.ledger.carried.get(e.id)?.values() ?? [])].some((v) => v !== 0)) counts.carried++
      if (o.tax > 0) counts.taxed++
      if (o.facts.unpaidMinutes > 0) counts.unpaidHours++
      if (o.lines.some((l) => l.code === 'leave_payout')) counts.payouts++
    }
    expect(api).toMatchObject({ run_id: run.runId, month, status: 'draft', employee: { id: e.id, employee_no: e.no } })
    compareSlip(where, api, o, run.notes.has(e.id))
    if (process.env.PAYROLL_ORACLE_SAMPLE && counts.payslips === Number(process.env.PAYROLL_ORACLE_SAMPLE)) console.log(JSON.stringify(api, null, 1))
    for (const line of api.lines) checkFormula(where, line)
    apis.set(e.id, api)
    await checkStatistics(w, c, e, o, api, where)
  }
  await checkSheet(w, c, month, slips, apis)

  const shown = (await call(w.t, w.admin, 'GET', `/api/v1/admin/payroll/runs/${run.runId}`, undefined, 200)).body.data
  const apiTotals = { gross: fenOf(shown.totals.gross), deductions: fenOf(shown.totals.deductions), tax: fenOf(shown.totals.tax), net: fenOf(shown.totals.net) }
  if (JSON.stringify(apiTotals) !== JSON.stringify(totals)) mismatch('run totals', `${c.name} ${month}`, apiTotals, totals)
  if (shown.totals.head_count !== run.expected.length) mismatch('run head count', `${c.name} ${month}`, shown.totals.head_count, run.expected.length)
  return slips
}

async function runMonth(w: World, c: CompanyPlan, month: string, runAt: string, draft: boolean) {
  const { t, r } = w
  const created = await call(t, w.admin, 'POST', '/api/v1/admin/payroll/runs', { company_id: c.companyId, month }, 201)
  counts.runs++
  expect(created.body.data).toMatchObject({ company: { id: c.companyId }, month, status: 'draft' })
  const run: RunState = {
    c,
    month,
    runId: created.body.data.id,
    today: () => localDateIn(runAt, c.zone),
    expected: c.employees.filter((e) => profileOf(e, month) !== null && employedRange(month, e.hireDate, e.leftOn) !== null),
    entered: new Map(),
    notes: new Set(),
  }
  let payslips = await payslipsOf(w, run.runId)
  if (await enterInputs(w, run, payslips, true)) payslips = await payslipsOf(w, run.runId)
  let slips = await compareRun(w, run, payslips)

  // changes while the run is a draft (a correction, a leave decision, a day off declared), then a recompute that keeps HR's inputs
  if (draft || r.chance(0.3)) {
    let changed = false
    for (const e of run.expected) if (r.chance(0.3)) changed = (await changeEmployeeMonth(w, c, e, month, 'before approval')) || changed
    if (r.chance(0.3)) changed = (await declareHoliday(w, c, month)) || changed
    w.rowsCache.delete(`${c.companyId} ${month}`)
    const recomputed = await call(t, w.admin, 'POST', `/api/v1/admin/payroll/runs/${run.runId}/recompute`, undefined, 200)
    expect(recomputed.body.data).toMatchObject({ id: run.runId, status: 'draft' })
    counts.recomputes++
    if (changed) counts.changedBeforeApproval++
    payslips = await payslipsOf(w, run.runId)
    if (await enterInputs(w, run, payslips, false)) payslips = await payslipsOf(w, run.runId)
    slips = await compareRun(w, run, payslips)
  }

  if (draft) return
  const payouts = new Map<number, OraclePayout[]>()
  for (const e of run.expected) payouts.set(e.id, await w.payouts(e, month))
  const approved = await call(t, w.admin, 'POST', `/api/v1/admin/payroll/runs/${run.runId}/approve`)
  if (approved.status !== 200) {
    mismatch('approval', `${c.name} ${month}`, approved.body, 'approved')
    return
  }
  expect(approved.body.data).toMatchObject({ id: run.runId, status: 'approved' })
  for (const e of run.expected) {
    w.ledger.approve(e, month, slips.get(e.id)!, run.entered.get(e.id) ?? NO_ENTRY, payouts.get(e.id)!)
    await checkPayoutsWritten(w, e, month, payouts.get(e.id)!)
  }
}

/** §18: approval wrote one payout row per balance paid (−the half-days, event `payout <year>`, the approver), and the balance now pays nothing more. */
async function checkPayoutsWritten(w: World, e: EmployeePlan, month: string, paid: readonly OraclePayout[]) {
  const where = `${e.key} ${month} ledger`
  const year = Number(month.slice(0, 4))
  const rows = (await loadLedger(w.t, e.id)).filter((row) => row.kind === 'payout')
  const written = rows.map((row) => ({ typeId: row.typeId, year: row.year, amount: row.amount, event: row.event, reason: row.reason, byApprover: row.actorId !== null }))
  const want = paid.map((p) => ({ typeId: p.typeId, year, amount: -p.halves, event: `payout ${year}`, reason: 'paid out on leaving', byApprover: true }))
  if (JSON.stringify(written) !== JSON.stringify(want)) mismatch('payout rows', where, written, want)
  if (paid.length === 0) return
  counts.payoutsWritten += paid.length
  // the balance of each paid type reads 0: nothing remains to pay (and a payout row is there, so nothing would be paid twice)
  const ledger = await loadLedger(w.t, e.id)
  for (const p of paid) {
    const type = w.types.payout.find((each) => each.id === p.typeId)!
    const rows = ledger.filter((row) => row.typeId === p.typeId && row.year === year && row.kind !== 'payout')
    const remaining = rows.reduce((sum, row) => sum + (['adjustment', 'grant', 'carry', 'lapse'].includes(row.kind) ? row.amount : -row.amount), type.accrualNone ? type.annualHalves : 0) - p.halves
    if (remaining !== 0) mismatch('remaining after the payout', where, remaining, 0)
    const balance = (await call(w.t, w.admin, 'GET', `/api/v1/admin/leave/balances?employee_id=${e.id}&year=${year}`, undefined, 200)).body.data.balances.find(
      (b: { type_id: number }) => b.type_id === p.typeId,
    )
    if (balance?.remaining !== 0) mismatch('balance remaining after the payout', where, balance, 0)
  }
}

/** One change to an employee's month (its records or approved leave), as corrections and leave decisions make; false when none applied. */
async function changeEmployeeMonth(w: World, c: CompanyPlan, e: EmployeePlan, month: string, why: string): Promise<boolean> {
  const { t, r } = w
  const db = t.deps.database
  const rows = await loadRows(t, c, firstOf(month), lastOf(month))
  const records = rows.records.get(e.id) ?? []
  const kind = r.pick(['absent', 'unpaid', 'hours', 'overtime', 'unlate', 'late'] as const)
  const leaveOn = w.leaveDays.get(e.id) ?? new Map()
  const pickRecord = async (candidates: typeof records, set: Partial<typeof attendanceRecords.$inferInsert>) => {
    if (!candidates.length) return false
    const rec = r.pick(candidates)
    await db.write((tx) => tx.update(attendanceRecords).set(set).where(eq(attendanceRecords.id, rec.id)))
    return true
  }
  if (kind === 'absent') {
    const candidates = records.filter((rec) => rec.clockedIn && workDayOf(c, rec.workDate) && !leaveOn.has(rec.workDate))
    return pickRecord(candidates, { status: 3, clockInTime: null, clockOutTime: null, lateMinutes: 0, earlyMinutes: 0, overtimeMinutes: 0, workMinutes: 0 })
  }
  if (kind === 'unpaid') {
    const range = employedRange(month, e.hireDate, e.leftOn)!
    const start = attendanceFromOf(c, e)
    const dates = datesBetween(range.from, range.to).filter((d) => workDayOf(c, d) && !leaveOn.has(d) && (start === null || d >= start))
    if (!dates.length || !e.inGroup) return false
    const date = r.pick(dates)
    const half = r.chance(0.3) ? r.pick(['am', 'pm'] as const) : null
    leaveOn.set(date, half ? 'half' : 'full')
    w.leaveDays.set(e.id, leaveOn)
    await db.write((tx) =>
      tx.insert(leaveRequests).values({
        employeeId: e.id,
        typeId: r.pick(w.types.unpaid),
        startDate: date,
        endDate: date,
        halfDay: half,
        amount: half ? 1 : 2,
        status: 'approved',
        reason: why,
        decidedAt: t.clock.now(),
      }),
    )
    return true
  }
  if (kind === 'hours') {
    // §18: an approved span of unpaid hours on a free work day of the employed part
    const range = employedRange(month, e.hireDate, e.leftOn)!
    const start = attendanceFromOf(c, e)
    const dates = datesBetween(range.from, range.to).filter((d) => workDayOf(c, d) && !leaveOn.has(d) && (start === null || d >= start))
    if (!dates.length || !e.inGroup) return false
    const date = r.pick(dates)
    const [from, to] = r.pick(HOURLY_SPANS)
    leaveOn.set(date, 'hours')
    w.leaveDays.set(e.id, leaveOn)
    await db.write((tx) =>
      tx.insert(leaveRequests).values({
        employeeId: e.id,
        typeId: w.types.hourly.unpaid,
        startDate: date,
        endDate: date,
        halfDay: null,
        startTime: from,
        endTime: to,
        amount: coveredMinutes(WORK_TIMES, from, to),
        status: 'approved',
        reason: why,
        decidedAt: t.clock.now(),
      }),
    )
    return true
  }
  if (kind === 'overtime') {
    const candidates = records.filter((rec) => rec.clockedIn)
    if (!candidates.length) return false
    const rec = r.pick(candidates)
    return pickRecord([rec], { overtimeMinutes: rec.overtimeMinutes + r.int(30, 200) })
  }
  if (kind === 'late') return pickRecord(records.filter((rec) => rec.status === 0 && rec.clockedIn && workDayOf(c, rec.workDate)), { status: 1, lateMinutes: r.int(1, 90) })
  return pickRecord(records.filter((rec) => rec.status === 1), { status: 0, lateMinutes: 0 })
}

/** A day off declared afterwards on a work day of the month (its absent records go, its work days change). */
async function declareHoliday(w: World, c: CompanyPlan, month: string): Promise<boolean> {
  if (!c.ruleEnabled) return false
  const dates = datesBetween(firstOf(month), lastOf(month)).filter((d) => workDayOf(c, d) && !c.calendar.has(d))
  if (!dates.length) return false
  const date = w.r.pick(dates)
  const statutory = w.r.chance(0.5)
  await call(w.t, w.admin, 'PUT', `/api/v1/admin/companies/${c.companyId}/calendar/${date}`, { kind: 'holiday', name: 'Declared afterwards', statutory }, 201)
  c.calendar.set(date, { kind: 'holiday', statutory, name: 'Declared afterwards' })
  return true
}

/** Changes to approved months after their approval: the next run carries them as adjustments. */
async function changeApprovedMonths(w: World, c: CompanyPlan, nextRunMonth: string) {
  const { r } = w
  const touched = new Set<string>()
  for (const e of c.employees) {
    const months = [...w.ledger.of(e).keys()].sort()
    if (!months.length || !r.chance(0.3)) continue
    if (profileOf(e, nextRunMonth) === null || employedRange(nextRunMonth, e.hireDate, e.leftOn) === null) continue
    const month = r.chance(0.7) ? months[months.length - 1] : r.pick(months)
    if (await changeEmployeeMonth(w, c, e, month, 'after approval')) touched.add(month)
  }
  const approvedMonths = [...new Set(c.employees.flatMap((e) => [...w.ledger.of(e).keys()]))].sort()
  if (approvedMonths.length && r.chance(0.3) && (await declareHoliday(w, c, approvedMonths[approvedMonths.length - 1]))) touched.add(approvedMonths[approvedMonths.length - 1])
  for (const month of touched) w.rowsCache.delete(`${c.companyId} ${month}`)
}

async function runBatch(batch: Batch, seed: number) {
  const first = firstOf(batch.months[0])
  const t = await startApp({ now: `${addDays(first, -20)}T02:00:00.000Z`, env: { ACCESS_TOKEN_TTL: String(30 * 86_400) } })
  apps.push(t)
  const w = new World(t, batch, seed)
  w.admin = await loginAdmin(t.app)
  w.types = await createLeaveTypes(t, w.admin)
  const viewer = await makeUser(t.app, w.admin, `${batch.prefix}-viewer`, ['employee'])
  w.viewer = { id: viewer.id, token: viewer.token, linked: 0 }
  for (let i = 0; i < batch.companies; i++) {
    const c = planCompany(w.r, i, batch.months, batch.prefix)
    await setUpCompany(t, w.admin, c)
    w.companies.push(c)
  }

  for (const [k, month] of batch.months.entries()) {
    const last = k === batch.months.length - 1
    const inMonth = last && batch.inMonthLast
    const runAt = inMonth ? `${month}-17T02:00:00.000Z` : `${nextMonth(month)}-03T02:00:00.000Z`
    for (const c of w.companies) {
      const rows = generateMonth(w.r, c, month, () => localDateIn(runAt, c.zone), w.types, w.leaveDays)
      await insertRows(t, rows)
    }
    w.rowsCache.clear()
    t.clock.set(runAt)
    w.admin = await loginAdmin(t.app)
    w.viewer.token = await login(t.app, `${batch.prefix}-viewer`, `${batch.prefix}-viewer-password-1`)
    for (const c of w.companies) await runMonth(w, c, month, runAt, inMonth)
    if (!last) {
      t.clock.set(`${nextMonth(month)}-03T06:00:00.000Z`)
      for (const c of w.companies) await changeApprovedMonths(w, c, nextMonth(month))
    }
  }
}

function report(): string {
  const sample = (list: Mismatch[]) =>
    list
      .slice(0, 25)
      .map((m) => `  ${m.what} @ ${m.where}\n    service: ${JSON.stringify(m.service)}\n    oracle:  ${JSON.stringify(m.oracle)}`)
      .join('\n')
  const byKind = (list: Mismatch[]) => {
    const kinds = new Map<string, number>()
    for (const m of list) kinds.set(m.what, (kinds.get(m.what) ?? 0) + 1)
    return [...kinds].map(([k, v]) => `${k}: ${v}`)
  }
  return [
    `seed ${SEED}: ${JSON.stringify(counts)}`,
    `mismatches ${mismatches.length} ${JSON.stringify(byKind(mismatches))}`,
    sample(mismatches),
    `formula problems ${formulaProblems.length} ${JSON.stringify(byKind(formulaProblems))}`,
    sample(formulaProblems),
  ].join('\n')
}

test(
  'every payslip of every generated month agrees with the oracle, its formulas, statistics and the sheet',
  async () => {
    for (const [i, batch] of BATCHES.entries()) await runBatch(batch, SEED + i * 7919)
    const text = report()
    if (process.env.PAYROLL_ORACLE_VERBOSE || mismatches.length || formulaProblems.length) console.log(text)
    expect(counts.payslips).toBeGreaterThanOrEqual(300)
    expect(mismatches).toEqual([])
    expect(formulaProblems).toEqual([])
  },
  120_000,
)
