import { sql } from 'drizzle-orm'
import { check, index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { timestamps } from './columns'
import { employees } from './organization'
import { payrollRuns } from './payroll'

/** Monthly salaries; every amount is integer fen. Totals and net are stored for aggregates. */
export const salaries = sqliteTable(
  'salaries',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    employeeId: integer('employee_id')
      .notNull()
      .references(() => employees.id, { onDelete: 'restrict' }),
    /** YYYY-MM */
    month: text('month').notNull(),
    /** 0 unconfirmed, 1 paid */
    status: integer('status').notNull().default(0),
    /** YYYY-MM-DD */
    paymentDate: text('payment_date'),
    categoryId: integer('category_id'),
    basicSalary: integer('basic_salary').notNull().default(0),
    seniorityPay: integer('seniority_pay').notNull().default(0),
    performancePay: integer('performance_pay').notNull().default(0),
    overtimePay: integer('overtime_pay').notNull().default(0),
    bonus: integer('bonus').notNull().default(0),
    allowance: integer('allowance').notNull().default(0),
    attendanceDeduction: integer('attendance_deduction').notNull().default(0),
    personalInsurance: integer('personal_insurance').notNull().default(0),
    personalTax: integer('personal_tax').notNull().default(0),
    housingFund: integer('housing_fund').notNull().default(0),
    otherDeductions: integer('other_deductions').notNull().default(0),
    totalIncome: integer('total_income').notNull(),
    totalDeductions: integer('total_deductions').notNull(),
    netSalary: integer('net_salary').notNull(),
    remarks: text('remarks').notNull().default(''),
    /** the payroll run that wrote this record (CONTRACT §16); such a record changes only by runs */
    payrollRunId: integer('payroll_run_id').references(() => payrollRuns.id, { onDelete: 'restrict' }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('salaries_employee_month_unique').on(t.employeeId, t.month),
    // covers the statistics of one month (and of all months, by a scan of the index alone)
    index('salaries_month_stats_idx').on(t.month, t.employeeId, t.netSalary),
    index('salaries_status_month_idx').on(t.status, t.month),
    check('salaries_status_check', sql`${t.status} IN (0, 1)`),
    check('salaries_net_check', sql`${t.netSalary} >= 0`),
  ],
)
