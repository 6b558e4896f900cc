import {
  absenceLine,
  adjustmentLine,
  enteredLine,
  latenessLine,
  leavePayoutLine,
  overtimeLine,
  proratedLine,
  prorationOf,
  unpaidLeaveHoursLine,
  unpaidLeaveLine,
  type Wage,
} from './lines'
import { contributionLines } from './contributions'
import { monthFacts } from './month-facts'
import { declaredMonths, taxLine } from './tax'
import type { PayLine, Payslip, PayslipInput } from './types'

/*
 * One employee's payslip for one month (CONTRACT §16, §17), from rows the service loaded: the lines
 * in their fixed order, and the totals they add up to. gross (the wage payable) = income − attendance
 * deductions; the tax is on that gross, adjustments included, less the contributions and special
 * deductions; net = gross − deductions. The employer's contributions come last, in no total.
 */

const sum = (lines: readonly PayLine[]) => lines.reduce((total, line) => total + line.amount, 0)
const present = (lines: readonly (PayLine | null)[]): PayLine[] => lines.filter((line): line is PayLine => line !== null)

export function computePayslip(input: PayslipInput): Payslip {
  const { profile, settings, entered } = input
  const { sources, countedLateMinutes, ...facts } = monthFacts(input)
  const wage: Wage = { monthly: profile.basicSalary + profile.seniorityPay + profile.allowance, daysPerMonthHundredths: settings.daysPerMonthHundredths }
  const proration = prorationOf(facts, settings)

  const income = present([
    proratedLine('basic_salary', profile.basicSalary, proration, profile.id),
    proratedLine('seniority_pay', profile.seniorityPay, proration, profile.id),
    proratedLine('allowance', profile.allowance, proration, profile.id),
    overtimeLine('overtime_work_day', wage, facts.overtimeMinutes.workDay, settings.overtimeWorkDay, sources.overtime.workDay),
    overtimeLine('overtime_rest_day', wage, facts.overtimeMinutes.restDay, settings.overtimeRestDay, sources.overtime.restDay),
    overtimeLine('overtime_statutory_holiday', wage, facts.overtimeMinutes.statutoryHoliday, settings.overtimeStatutoryHoliday, sources.overtime.statutoryHoliday),
    ...[...input.payouts].sort((a, b) => a.typeId - b.typeId).map((payout) => leavePayoutLine(wage, payout)),
    enteredLine('performance_pay', entered.performancePay),
    enteredLine('bonus', entered.bonus),
    enteredLine('other_income', entered.otherIncome),
    ...[...input.adjustments].sort((a, b) => (a.month < b.month ? -1 : a.month > b.month ? 1 : 0)).map(adjustmentLine),
  ])
  const attendance = present([
    absenceLine(wage, settings.absenceFixed, facts.absentDays, sources.absence),
    unpaidLeaveLine(wage, facts.unpaidLeaveDays, sources.unpaidLeave),
    unpaidLeaveHoursLine(wage, facts.unpaidLeaveMinutes, sources.unpaidLeaveHours),
    latenessLine(
      {
        perOccurrence: settings.latePerOccurrence,
        perMinute: settings.latePerMinute,
        lateOccurrences: facts.lateOccurrences,
        freeOccurrences: facts.freeLateOccurrences,
        countedMinutes: countedLateMinutes,
      },
      sources.lateness,
    ),
  ])
  const gross = sum(income) - sum(attendance)
  const baseGross = gross - sum(income.filter((line) => line.code === 'adjustment'))

  const contributions = contributionLines(input.scheme, profile)
  const contributed = (contributions.personalInsurance?.amount ?? 0) + (contributions.housingFund?.amount ?? 0)
  const { declaration } = input
  const deductionLines = present([
    contributions.personalInsurance,
    contributions.housingFund,
    taxLine({ month: input.month, gross, contributions: contributed, declaration, tax: input.tax }),
    enteredLine('other_deductions', entered.otherDeductions),
  ])
  const deductions = sum(deductionLines)
  return {
    lines: contributions.employer === null ? [...income, ...attendance, ...deductionLines] : [...income, ...attendance, ...deductionLines, contributions.employer],
    gross,
    baseGross,
    deductions,
    net: gross - deductions,
    employerContributions: contributions.employer?.amount ?? 0,
    specialDeductions: declaredMonths(declaration, input.month, input.month) === 0 ? 0 : (declaration?.monthlyTotal ?? 0),
    facts,
  }
}
