/**
 * B8: a company's payroll for one month by hand. The rows S11's run reads (employees with their
 * latest pay profile, attendance rules, the company calendar, the month's records and approved
 * corrections, approved leave with its type's `paid`, the year's approved payslips) read raw with
 * the libsql driver (payroll-read.ts), then one plain loop per employee that counts the month as
 * CONTRACT §16 counts it (the rules of `computeStatistics` and the sheet, written out again here:
 * no service code) and computes the lines in integer fen, each rounded half up once: prorated
 * basic, seniority and allowance, overtime by the kind of the record's day, absence, unpaid
 * leave, lateness beyond the free occurrences, the gross, the cumulative personal tax and the net.
 *
 * It leaves out what the bench data has none of: adjustments of approved months, entered inputs,
 * contributions (0 until Payroll 2). The figures are compared with the run's payslips (S11), so
 * this is known to do the same work, not less.
 */
import Database from 'libsql'
import { readPayrollRows, type PayrollRows, type RawEmployee, type RawRecord } from './payroll-read'

/** The annual cumulative-withholding table (CONTRACT §17): up to (fen), rate %, quick deduction (fen). */
const BRACKETS: [number, number, number][] = [
  [36_000_00, 3, 0],
  [144_000_00, 10, 2_520_00],
  [300_000_00, 20, 16_920_00],
  [420_000_00, 25, 31_920_00],
  [660_000_00, 30, 52_920_00],
  [960_000_00, 35, 85_920_00],
  [Infinity, 45, 181_920_00],
]
const BASIC_DEDUCTION = 5_000_00

/** n ÷ d rounded half up, for non-negative integers whose product stayed below 2^53. */
export function roundDiv(n: number, d: number): number {
  let q = Math.floor(n / d)
  let r = n - q * d
  if (r < 0) {
    q--
    r += d
  } else if (r >= d) {
    q++
    r -= d
  }
  return 2 * r >= d ? q + 1 : q
}

export interface LoopFacts {
  workDaysOfMonth: number
  employedWorkDays: number
  absentDays: number
  unpaidLeaveDays: number
  lateOccurrences: number
  freeLateOccurrences: number
  lateMinutesCounted: number
  overtimeMinutes: { workDay: number; restDay: number; statutoryHoliday: number }
}

export interface LoopPayslip {
  employeeId: number
  gross: number
  tax: number
  net: number
  /** the lines' amounts by code, fen (only the non-zero ones and basic_salary, personal_tax) */
  lines: Record<string, number>
  facts: LoopFacts
}

interface Day {
  date: string
  weekday: number
  kind: string | null
  statutory: boolean
}

function monthDays(month: string, calendar: PayrollRows['calendar']): Day[] {
  const [year, m] = [Number(month.slice(0, 4)), Number(month.slice(5, 7))]
  const count = new Date(Date.UTC(year, m, 0)).getUTCDate()
  return Array.from({ length: count }, (_, i) => {
    const date = `${month}-${String(i + 1).padStart(2, '0')}`
    const marked = calendar.get(date)
    return { date, weekday: ((new Date(Date.UTC(year, m - 1, i + 1)).getUTCDay() + 6) % 7) + 1, kind: marked?.kind ?? null, statutory: marked?.statutory ?? false }
  })
}

const monthsFrom = (from: string, to: string) => (Number(to.slice(0, 4)) - Number(from.slice(0, 4))) * 12 + Number(to.slice(5, 7)) - Number(from.slice(5, 7)) + 1

/** One employee's month; `records` are theirs, in date order. */
function payslipOf(rows: PayrollRows, days: Day[], month: string, today: string, employee: RawEmployee, records: RawRecord[]): LoopPayslip {
  const { settings } = rows
  const first = days[0].date
  const last = days[days.length - 1].date
  const from = employee.hireDate !== null && employee.hireDate > first ? employee.hireDate : first
  const to = employee.leftOn !== null && employee.leftOn < last ? employee.leftOn : last
  const startsOn = rows.attendanceStartsOn
  const attendanceFrom = startsOn === null ? employee.hireDate : employee.hireDate === null || startsOn > employee.hireDate ? startsOn : employee.hireDate
  const since = attendanceFrom !== null && attendanceFrom > from ? attendanceFrom : from

  // the rule of each weekday: the first enabled rule working on it, else the first
  const rules = rows.rules.get(employee.id) ?? []
  const ruleOf: (number | null)[] = [null]
  const weeklyWorkDay = [false]
  const allowedOf = new Map<number, number>()
  for (let weekday = 1; weekday <= 7; weekday++) {
    const rule = rules.find((r) => r.workDays.includes(weekday)) ?? rules[0] ?? null
    ruleOf.push(rule?.id ?? null)
    weeklyWorkDay.push(rule !== null && rule.workDays.includes(weekday))
    if (rule) allowedOf.set(rule.id, rule.allowedLateDays)
  }
  const isWorkDate = (day: Day) => ruleOf[day.weekday] !== null && (day.kind === 'workday' || (day.kind !== 'holiday' && weeklyWorkDay[day.weekday]))

  // leave by day of the month: 0 none, 1 half, 2 whole (two requests on one date make it whole, as the sheet merges them)
  const anyLeave = new Uint8Array(days.length)
  const unpaidLeave = new Uint8Array(days.length)
  for (const request of rows.leave.get(employee.id) ?? []) {
    const a = request.startDate > first ? Number(request.startDate.slice(8, 10)) : 1
    const b = request.endDate < last ? Number(request.endDate.slice(8, 10)) : days.length
    for (let d = a - 1; d < b; d++) {
      anyLeave[d] = anyLeave[d] ? 2 : request.half ? 1 : 2
      if (!request.paid) unpaidLeave[d] = unpaidLeave[d] ? 2 : request.half ? 1 : 2
    }
  }

  let workDaysOfMonth = 0
  for (const day of days) if (isWorkDate(day)) workDaysOfMonth++
  const byDay: (RawRecord | undefined)[] = new Array(days.length)
  for (const record of records) byDay[Number(record.workDate.slice(8, 10)) - 1] = record

  let employedWorkDays = 0
  let absentRecords = 0
  let pastWorkDays = 0
  let pastWorkDayRecords = 0
  let excused = 0
  let unpaidHalves = 0
  const lateRecords: RawRecord[] = []
  const lateByRule = new Map<number | null, number>()
  const overtime = { workDay: 0, restDay: 0, statutoryHoliday: 0 }
  for (let d = Number(from.slice(8, 10)) - 1; d <= Number(to.slice(8, 10)) - 1; d++) {
    const day = days[d]
    const record = byDay[d]
    const workDate = isWorkDate(day)
    const counted = day.date >= since
    const past = day.date < today
    if (workDate) employedWorkDays++
    if (counted && past && workDate) pastWorkDays++
    if (record) {
      if (record.status === 3 && counted) absentRecords++
      if (counted && past && workDate) pastWorkDayRecords++
      if (record.status === 1 || record.lateMinutes > 0) {
        lateRecords.push(record)
        lateByRule.set(ruleOf[day.weekday], (lateByRule.get(ruleOf[day.weekday]) ?? 0) + 1)
      }
      if (record.overtimeMinutes > 0) {
        if (day.kind === 'holiday' && day.statutory) overtime.statutoryHoliday += record.overtimeMinutes
        else if (workDate && counted) overtime.workDay += record.overtimeMinutes
        else overtime.restDay += record.overtimeMinutes
      }
    }
    // leave counts on the employee's work days only; a full day of it excuses a missed day
    if (workDate && counted) {
      unpaidHalves += unpaidLeave[d]
      const absentRecord = record !== undefined && record.status === 3 && !record.clockedIn
      if (anyLeave[d] === 2 && (absentRecord || (record === undefined && past))) excused++
    }
  }
  const absentDays = Math.max(0, absentRecords + Math.max(0, pastWorkDays - pastWorkDayRecords) - excused)
  let allowed = 0
  for (const [rule, late] of lateByRule) allowed += Math.min(late, allowedOf.get(rule as number) ?? 0)
  const free = Math.min(lateRecords.length, settings.lateFreeOccurrences ?? allowed)
  let lateMinutes = 0
  for (let i = free; i < lateRecords.length; i++) lateMinutes += lateRecords[i].lateMinutes
  const lateCounted = lateRecords.length - free

  // the lines, fen, each rounded once
  const monthly = employee.basic + employee.seniority + employee.allowance
  const D = settings.daysPerMonthHundredths
  const byCalendar = settings.proration === 'calendar_days' || workDaysOfMonth === 0
  const [employed, total] = byCalendar ? [Number(to.slice(8, 10)) - Number(from.slice(8, 10)) + 1, days.length] : [employedWorkDays, workDaysOfMonth]
  const lines: Record<string, number> = {
    basic_salary: roundDiv(employee.basic * employed, total),
    seniority_pay: roundDiv(employee.seniority * employed, total),
    allowance: roundDiv(employee.allowance * employed, total),
    // M ÷ D ÷ 8 × minutes ÷ 60 × multiplier: D and the multiplier in hundredths
    overtime_work_day: roundDiv(monthly * overtime.workDay * settings.overtime.workDay, D * 480),
    overtime_rest_day: roundDiv(monthly * overtime.restDay * settings.overtime.restDay, D * 480),
    overtime_statutory_holiday: roundDiv(monthly * overtime.statutoryHoliday * settings.overtime.statutoryHoliday, D * 480),
    absence: settings.absenceFixed === null ? roundDiv(monthly * absentDays * 100, D) : settings.absenceFixed * absentDays,
    unpaid_leave: roundDiv(monthly * unpaidHalves * 50, D),
    lateness: settings.latePerOccurrence * lateCounted + settings.latePerMinute * lateMinutes,
  }
  const income = lines.basic_salary + lines.seniority_pay + lines.allowance + lines.overtime_work_day + lines.overtime_rest_day + lines.overtime_statutory_holiday
  const gross = income - lines.absence - lines.unpaid_leave - lines.lateness

  // cumulative withholding over the year at this company
  const ytd = rows.yearToDate.get(employee.id)
  const n = monthsFrom(ytd?.firstMonth ?? month, month)
  const taxable = Math.max(0, (ytd?.gross ?? 0) + gross - BASIC_DEDUCTION * n - (ytd?.contributions ?? 0) - (ytd?.specialDeductions ?? 0))
  const [, rate, quick] = BRACKETS.find(([upTo]) => taxable <= upTo)!
  const tax = Math.max(0, roundDiv(taxable * rate, 100) - quick - (ytd?.withheld ?? 0))
  lines.personal_tax = tax
  for (const code of Object.keys(lines)) if (lines[code] === 0 && code !== 'basic_salary' && code !== 'personal_tax') delete lines[code]

  return {
    employeeId: employee.id,
    gross,
    tax,
    net: gross - tax,
    lines,
    facts: {
      workDaysOfMonth,
      employedWorkDays,
      absentDays,
      unpaidLeaveDays: unpaidHalves / 2,
      lateOccurrences: lateRecords.length,
      freeLateOccurrences: free,
      lateMinutesCounted: lateMinutes,
      overtimeMinutes: overtime,
    },
  }
}

/** Every employee's payslip figures from rows already read. */
export function computePayroll(rows: PayrollRows, month: string, today: string): LoopPayslip[] {
  const days = monthDays(month, rows.calendar)
  const payslips: LoopPayslip[] = []
  let at = 0
  for (const employee of rows.employees) {
    // records are ordered by employee like the employees: walk both once
    while (at < rows.records.length && rows.records[at].employeeId < employee.id) at++
    const start = at
    while (at < rows.records.length && rows.records[at].employeeId === employee.id) at++
    payslips.push(payslipOf(rows, days, month, today, employee, rows.records.slice(start, at)))
  }
  return payslips
}

export interface PayrollLoopFigures {
  month: string
  employees: number
  /** timed runs */
  runs: number
  /** read + compute, the median run */
  seconds: number
  readMs: number
  computeMs: number
  counts: Record<string, number>
  /** ms per statement of the median run */
  statementMs: Record<string, number>
  totals: { gross: number; tax: number; net: number }
  payslips: LoopPayslip[]
}

/** B8: `runs` timed runs (after one untimed) of reading and computing company `companyId`'s `month`; the figures of the median. */
export function payrollLoop(dbPath: string, input: { companyId: number; month: string; today: string; runs?: number }): PayrollLoopFigures {
  const { companyId, month, today } = input
  const days = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)).getUTCDate()
  const [first, last] = [`${month}-01`, `${month}-${String(days).padStart(2, '0')}`]
  // opened as Workforce opens the file: its page cache size, read-only here
  const db = new Database(dbPath, { readonly: true, timeout: 5000 })
  db.exec('PRAGMA cache_size = -65536')
  try {
    const once = () => {
      const started = performance.now()
      const rows = readPayrollRows(db, companyId, month, first, last)
      const read = performance.now()
      const payslips = computePayroll(rows, month, today)
      const done = performance.now()
      return { rows, payslips, readMs: read - started, computeMs: done - read }
    }
    once()
    const runs = []
    for (let i = 0; i < (input.runs ?? 5); i++) runs.push(once())
    runs.sort((a, b) => a.readMs + a.computeMs - (b.readMs + b.computeMs))
    const median = runs[Math.floor(runs.length / 2)]
    const sum = (pick: (p: LoopPayslip) => number) => median.payslips.reduce((acc, p) => acc + pick(p), 0)
    return {
      month,
      employees: median.payslips.length,
      runs: runs.length,
      seconds: (median.readMs + median.computeMs) / 1000,
      readMs: median.readMs,
      computeMs: median.computeMs,
      counts: median.rows.counts,
      statementMs: median.rows.ms,
      totals: { gross: sum((p) => p.gross), tax: sum((p) => p.tax), net: sum((p) => p.net) },
      payslips: median.payslips,
    }
  } finally {
    db.close()
  }
}
