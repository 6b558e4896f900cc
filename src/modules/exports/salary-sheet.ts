import type { Locale } from '../../config'
import { statusText } from '../../lib/status-text'
import { DEDUCTION_ITEMS, INCOME_ITEMS } from '../salaries/model'
import { COLUMN } from '../salaries/service'
import type { SalaryExportRow } from './repository'
import type { Column, Row } from './sheet'

/*
 * The salary register of a month: one row per salary record, every amount in yuan with 2
 * decimals as written from integer fen; the sheet adds the last row of sums (in fen, exact).
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

/** A row of the register: who, the amounts in fen, the status in words of `locale` and the payment date. */
export const salaryRow =
  (locale: Locale) =>
  ({ salary, employeeNo, name, department }: SalaryExportRow): Row => [
    employeeNo,
    name,
    department,
    ...AMOUNTS.map(({ of }) => of(salary)),
    statusText('salary', salary.status, locale),
    salary.paymentDate,
  ]
