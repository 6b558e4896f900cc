import type { salaries } from '../../../db/schema'
import type { PayLine } from '../compute/types'
import type { PayslipRow } from './repository'

const OVERTIME = new Set(['overtime_work_day', 'overtime_rest_day', 'overtime_statutory_holiday'])
const ATTENDANCE = new Set(['absence', 'unpaid_leave', 'unpaid_leave_hours', 'lateness'])

/**
 * The §6 salary record of an approved payslip (CONTRACT §16 "Approve"): basic_salary is the
 * prorated basic wage, overtime_pay the overtime lines, bonus the bonus, other income and leave paid
 * out on leaving (§18; §6 has no column of its own for it), and the attendance deduction the
 * absence, unpaid leave (days and hours) and lateness lines. An adjustment is part of the
 * month's wage: one that adds goes to the bonus, one that takes away to the attendance deduction,
 * so the record's net is the payslip's net.
 */
export function salaryOf(payslip: PayslipRow, runId: number, now: Date): typeof salaries.$inferInsert {
  const lines = payslip.lines as PayLine[]
  const sum = (pick: (line: PayLine) => boolean) => lines.filter(pick).reduce((total, line) => total + line.amount, 0)
  const of = (code: string) => sum((line) => line.code === code)
  const adjustments = lines.filter((line) => line.code === 'adjustment')
  const added = adjustments.filter((line) => line.amount > 0).reduce((total, line) => total + line.amount, 0)
  const taken = adjustments.filter((line) => line.amount < 0).reduce((total, line) => total - line.amount, 0)
  const income = {
    basicSalary: of('basic_salary'),
    seniorityPay: of('seniority_pay'),
    allowance: of('allowance'),
    overtimePay: sum((line) => OVERTIME.has(line.code)),
    performancePay: of('performance_pay'),
    bonus: of('bonus') + of('other_income') + of('leave_payout') + added,
  }
  const deductions = {
    attendanceDeduction: sum((line) => ATTENDANCE.has(line.code)) + taken,
    personalInsurance: of('personal_insurance'),
    housingFund: of('housing_fund'),
    personalTax: of('personal_tax'),
    otherDeductions: of('other_deductions'),
  }
  const totalIncome = Object.values(income).reduce((a, b) => a + b, 0)
  const totalDeductions = Object.values(deductions).reduce((a, b) => a + b, 0)
  return {
    employeeId: payslip.employeeId,
    month: payslip.month,
    status: 0,
    ...income,
    ...deductions,
    totalIncome,
    totalDeductions,
    netSalary: totalIncome - totalDeductions,
    remarks: '',
    payrollRunId: runId,
    createdAt: now,
    updatedAt: now,
  }
}
