import type { Locale } from '../../../config'
import { toYuan } from '../../../lib/money'
import { render } from '../../../lib/messages'
import type { EnteredInputs, PayLine, PayProfile } from '../compute/types'
import { say } from '../messages'
import type { ProfileRow } from '../profiles/repository'
import type { Flag, PayslipResponse, RunResponse } from './model'
import type { PayslipRow, PayslipWithEmployee, RunTotals, RunWithNames } from './repository'

/** An employee in a message: name and employee number. */
export const employeeName = (row: { name: string; employeeNo: string | null }) =>
  row.employeeNo ? say.employee({ name: row.name, no: row.employeeNo }) : say.employeeNoNumber({ name: row.name })

export function payProfileOf(row: ProfileRow): PayProfile {
  return {
    id: row.id,
    effectiveMonth: row.effectiveMonth,
    basicSalary: row.basicSalary,
    seniorityPay: row.seniorityPay,
    allowance: row.allowance,
    contributionBase: row.contributionBase,
    housingFundBase: row.housingFundBase,
  }
}

const NO_TOTALS: RunTotals = { gross: 0, deductions: 0, employee: 0, employer: 0, tax: 0, net: 0, headCount: 0 }

export function toRunResponse({ run, company, approver }: RunWithNames, totals: RunTotals = NO_TOTALS): RunResponse {
  return {
    id: run.id,
    company: { id: run.companyId, name: company },
    month: run.month,
    status: run.status,
    totals: {
      gross: toYuan(totals.gross),
      deductions: toYuan(totals.deductions),
      employee_contributions: toYuan(totals.employee),
      employer_contributions: toYuan(totals.employer),
      tax: toYuan(totals.tax),
      net: toYuan(totals.net),
      head_count: totals.headCount,
    },
    created_at: run.createdAt.toISOString(),
    computed_at: run.computedAt.toISOString(),
    approved_at: run.approvedAt?.toISOString() ?? null,
    approved_by: run.approvedBy !== null && approver !== null ? { id: run.approvedBy, username: approver } : null,
  }
}

/** The review's flags of a payslip: what a clerk should look at before approving. */
export function flagsOf(lines: readonly PayLine[], facts: { employedWorkDays: number; workDaysOfMonth: number; employedCalendarDays: number; calendarDaysOfMonth: number }, entered: EnteredInputs, net: number): Flag[] {
  const has = (...codes: string[]) => lines.some((line) => codes.includes(line.code))
  const flags: Flag[] = []
  if (facts.employedCalendarDays < facts.calendarDaysOfMonth) flags.push('prorated')
  if (has('absence')) flags.push('absence')
  if (has('unpaid_leave', 'unpaid_leave_hours')) flags.push('unpaid_leave')
  if (has('lateness')) flags.push('lateness')
  if (has('overtime_work_day', 'overtime_rest_day', 'overtime_statutory_holiday')) flags.push('overtime')
  if (has('adjustment')) flags.push('adjustment')
  if (entered.performancePay || entered.bonus || entered.otherIncome || entered.otherDeductions || entered.note) flags.push('entered')
  if (net < 0) flags.push('negative_net')
  return flags
}

export function labelOf(line: PayLine, locale: Locale): string {
  const key = `line_${line.code}` as const
  return render(line.code === 'adjustment' ? say.line_adjustment({ month: line.month ?? '' }) : say[key as Exclude<typeof key, 'line_adjustment'>](), locale)
}

export function toPayslipResponse({ payslip, name, employeeNo }: PayslipWithEmployee, status: 'draft' | 'approved', locale: Locale): PayslipResponse {
  const lines = payslip.lines as PayLine[]
  return {
    id: payslip.id,
    run_id: payslip.runId,
    employee: { id: payslip.employeeId, name, employee_no: employeeNo },
    month: payslip.month,
    status,
    gross: toYuan(payslip.gross),
    deductions: toYuan(payslip.deductions),
    net: toYuan(payslip.net),
    lines: lines.map((line) => ({
      code: line.code,
      label: labelOf(line, locale),
      kind: line.kind,
      amount: toYuan(line.amount),
      formula: line.formula,
      inputs: line.inputs,
      sources: line.sources,
      ...(line.month === undefined ? {} : { month: line.month }),
    })),
    inputs: {
      performance_pay: toYuan(payslip.performancePay),
      bonus: toYuan(payslip.bonus),
      other_income: toYuan(payslip.otherIncome),
      other_deductions: toYuan(payslip.otherDeductions),
      note: payslip.note,
    },
    flags: storedFlags(payslip),
  }
}

export function storedFlags(payslip: PayslipRow): Flag[] {
  return flagsOf(payslip.lines as PayLine[], payslip.facts as Parameters<typeof flagsOf>[1], enteredOf(payslip), payslip.net)
}

/** The inputs HR entered on a stored payslip. */
export function enteredOf(row: PayslipRow): EnteredInputs {
  return { performancePay: row.performancePay, bonus: row.bonus, otherIncome: row.otherIncome, otherDeductions: row.otherDeductions, note: row.note }
}
