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
import { monthFacts } from './month-facts'
import { taxLine } from './tax'
import type { PayLine, Payslip, PayslipInput } from './types'

/*
 * One employee's payslip for one month (CONTRACT §16, §17), from rows the service loaded: the lines
 * in their fixed order, and the totals they add up to. gross (the wage payable) = income − attendance
 * deductions; the tax is on that gross, adjustments included; net = gross − deductions.
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

  const deductionLines = present([
    // computed from the contribution scheme in Payroll 2; until then given (and 0)
    enteredLine('personal_insurance', input.contributions.personalInsurance),
    enteredLine('housing_fund', input.contributions.housingFund),
    taxLine({ month: input.month, gross, contributions: input.contributions, tax: input.tax }),
    enteredLine('other_deductions', entered.otherDeductions),
  ])
  const deductions = sum(deductionLines)
  return { lines: [...income, ...attendance, ...deductionLines], gross, baseGross, deductions, net: gross - deductions, facts }
}
