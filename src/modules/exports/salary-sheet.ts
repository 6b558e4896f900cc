import type { Locale } from '../../config'
import { statusText } from '../../lib/status-text'
import { DEDUCTION_ITEMS, INCOME_ITEMS } from '../salaries/model'
import { COLUMN } from '../salaries/service'
import type { SalaryExportRow } from './repository'
import type { Column, Row } from './sheet'

/*
 * The salary register of a month: one row per salary record, every amount in yuan with 2
 * decimals as written from integer fen, and a last row of sums, added up in fen (exact).
 */

/** The amounts of a row, in column order: the income items, their total, the deductions, their total, the net. */
const AMOUNTS: { header: string; of: (salary: SalaryExportRow['salary']) => number }[] = [
  ...INCOME_ITEMS.map((item) => ({ header: item, of: (salary: SalaryExportRow['salary']) => salary[COLUMN[item]] as number })),
  { header: 'total_income', of: (salary) => salary.totalIncome },
  ...DEDUCTION_ITEMS.map((item) => ({ header: item, of: (salary: SalaryExportRow['salary']) => salary[COLUMN[item]] as number })),
  { header: 'total_deductions', of: (salary) => salary.totalDeductions },
  { header: 'net_salary', of: (salary) => salary.netSalary },
]

export const SALARY_COLUMNS: readonly Column[] = [
  { header: 'employee_no', kind: 'text', width: 14 },
  { header: 'name', kind: 'text', width: 18 },
  { header: 'department', kind: 'text', width: 18 },
  ...AMOUNTS.map(({ header }): Column => ({ header, kind: 'yuan', width: Math.max(14, header.length + 2) })),
  { header: 'status', kind: 'text', width: 12 },
  { header: 'payment_date', kind: 'text', width: 13 },
]

/** Rows of the register and, at the end, the row of their sums (in fen, so exact). */
export function salaryRegister(locale: Locale) {
  const sums = AMOUNTS.map(() => 0)
  return {
    row({ salary, employeeNo, name, department }: SalaryExportRow): Row {
      const amounts = AMOUNTS.map(({ of }, i) => {
        const fen = of(salary)
        sums[i] += fen
        return fen
      })
      return [employeeNo, name, department, ...amounts, statusText('salary', salary.status, locale), salary.paymentDate]
    },
    footer: (): Row => ['total', null, null, ...sums, null, null],
  }
}
