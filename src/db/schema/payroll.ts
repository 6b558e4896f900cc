import { sql } from 'drizzle-orm'
import { check, index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { timestamps } from './columns'
import { companies, employees } from './organization'
import { users } from './users'

/*
 * Payroll (CONTRACT §16): effective-dated pay profiles, a company's pay settings, runs of a
 * company's month and their payslips. Money is integer fen; ratios are integer hundredths.
 */

/** An employee's pay from `effective_month` on, until a later profile; history is kept. */
export const payProfiles = sqliteTable(
  'pay_profiles',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    employeeId: integer('employee_id')
      .notNull()
      .references(() => employees.id, { onDelete: 'cascade' }),
    /** YYYY-MM */
    effectiveMonth: text('effective_month').notNull(),
    basicSalary: integer('basic_salary').notNull(),
    seniorityPay: integer('seniority_pay').notNull(),
    allowance: integer('allowance').notNull(),
    contributionBase: integer('contribution_base').notNull(),
    housingFundBase: integer('housing_fund_base').notNull(),
    /** the contribution scheme (CONTRACT §17, Payroll 2); kept as given until schemes exist */
    schemeId: integer('scheme_id'),
    bankAccount: text('bank_account'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('pay_profiles_employee_month_unique').on(t.employeeId, t.effectiveMonth),
    check('pay_profiles_amounts_check', sql`${t.basicSalary} >= 0 AND ${t.seniorityPay} >= 0 AND ${t.allowance} >= 0 AND ${t.contributionBase} >= 0 AND ${t.housingFundBase} >= 0`),
  ],
)

/** A company's pay settings; a company without a row uses the defaults of CONTRACT §16. */
export const paySettings = sqliteTable(
  'pay_settings',
  {
    companyId: integer('company_id')
      .primaryKey()
      .references(() => companies.id, { onDelete: 'cascade' }),
    proration: text('proration', { enum: ['work_days', 'calendar_days'] }).notNull().default('work_days'),
    daysPerMonthHundredths: integer('days_per_month_hundredths').notNull().default(2175),
    latePerOccurrence: integer('late_per_occurrence').notNull().default(0),
    latePerMinute: integer('late_per_minute').notNull().default(0),
    /** null: the rule's allowed_late_days */
    lateFreeOccurrences: integer('late_free_occurrences'),
    /** null: the daily wage; else fen per absent day */
    absenceFixed: integer('absence_fixed'),
    overtimeWorkDay: integer('overtime_work_day').notNull().default(150),
    overtimeRestDay: integer('overtime_rest_day').notNull().default(200),
    overtimeStatutoryHoliday: integer('overtime_statutory_holiday').notNull().default(300),
    ...timestamps,
  },
  (t) => [
    check('pay_settings_proration_check', sql`${t.proration} IN ('work_days', 'calendar_days')`),
    check('pay_settings_days_check', sql`${t.daysPerMonthHundredths} > 0`),
  ],
)

/** One run per company and month: draft while HR reviews it, approved (locked) once paid out into salary records. */
export const payrollRuns = sqliteTable(
  'payroll_runs',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'restrict' }),
    /** YYYY-MM */
    month: text('month').notNull(),
    status: text('status', { enum: ['draft', 'approved'] }).notNull().default('draft'),
    /** the company's pay settings the payslips were computed with, as JSON (compute/types.ts PaySettings) */
    settings: text('settings', { mode: 'json' }).notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    computedAt: integer('computed_at', { mode: 'timestamp_ms' }).notNull(),
    approvedBy: integer('approved_by').references(() => users.id, { onDelete: 'set null' }),
    approvedAt: integer('approved_at', { mode: 'timestamp_ms' }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('payroll_runs_company_month_unique').on(t.companyId, t.month),
    index('payroll_runs_month_idx').on(t.month),
    check('payroll_runs_status_check', sql`${t.status} IN ('draft', 'approved')`),
  ],
)

/** An employee's payslip in a run: its figures and the lines that explain them, as the computation returned them. */
export const payslips = sqliteTable(
  'payslips',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    runId: integer('run_id')
      .notNull()
      .references(() => payrollRuns.id, { onDelete: 'cascade' }),
    employeeId: integer('employee_id')
      .notNull()
      .references(() => employees.id, { onDelete: 'restrict' }),
    /** YYYY-MM, the run's */
    month: text('month').notNull(),
    profileId: integer('profile_id')
      .notNull()
      .references(() => payProfiles.id, { onDelete: 'restrict' }),
    gross: integer('gross').notNull(),
    /** the gross without adjustment lines */
    baseGross: integer('base_gross').notNull(),
    deductions: integer('deductions').notNull(),
    net: integer('net').notNull(),
    personalInsurance: integer('personal_insurance').notNull().default(0),
    housingFund: integer('housing_fund').notNull().default(0),
    specialDeductions: integer('special_deductions').notNull().default(0),
    personalTax: integer('personal_tax').notNull().default(0),
    employerContributions: integer('employer_contributions').notNull().default(0),
    /** the lines as JSON: [{code, kind, amount (fen), formula, inputs, sources, month?}] */
    lines: text('lines', { mode: 'json' }).notNull(),
    /** the month's attendance figures the lines used, as JSON */
    facts: text('facts', { mode: 'json' }).notNull(),
    performancePay: integer('performance_pay').notNull().default(0),
    bonus: integer('bonus').notNull().default(0),
    otherIncome: integer('other_income').notNull().default(0),
    otherDeductions: integer('other_deductions').notNull().default(0),
    note: text('note').notNull().default(''),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('payslips_run_employee_unique').on(t.runId, t.employeeId),
    index('payslips_employee_month_idx').on(t.employeeId, t.month),
  ],
)
