import { sql } from 'drizzle-orm'
import { check, index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { timestamps } from './columns'
import { companies, employees } from './organization'
import { users } from './users'

/*
 * Payroll (CONTRACT §16, §17): effective-dated pay profiles, a company's pay settings, runs of a
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
    /** the contribution scheme whose name chooses the month's scheme (CONTRACT §17); a trigger keeps it pointing at one (no foreign key: the table predates schemes) */
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
    /** the contribution scheme in effect for the month, and the year's declaration of special deductions counted (CONTRACT §17) */
    schemeId: integer('scheme_id').references(() => contributionSchemes.id, { onDelete: 'restrict' }),
    taxDeductionId: integer('tax_deduction_id').references(() => taxDeductions.id, { onDelete: 'restrict' }),
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

/** A city's contribution scheme from `effective_from` on (CONTRACT §17); its yearly change is a scheme of the same name with a later month. */
export const contributionSchemes = sqliteTable(
  'contribution_schemes',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    name: text('name').notNull(),
    /** YYYY-MM */
    effectiveFrom: text('effective_from').notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex('contribution_schemes_name_from_unique').on(t.name, t.effectiveFrom)],
)

/** One insurance (or the housing fund) of a scheme: rates in ten-thousandths (800 = 0.08), bases and the fixed amount in fen. */
export const contributionSchemeItems = sqliteTable(
  'contribution_scheme_items',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    schemeId: integer('scheme_id')
      .notNull()
      .references(() => contributionSchemes.id, { onDelete: 'cascade' }),
    code: text('code', { enum: ['pension', 'medical', 'unemployment', 'work_injury', 'maternity', 'housing_fund'] }).notNull(),
    employeeRate: integer('employee_rate').notNull(),
    employerRate: integer('employer_rate').notNull(),
    baseMin: integer('base_min').notNull(),
    baseMax: integer('base_max').notNull(),
    employeeFixed: integer('employee_fixed').notNull().default(0),
  },
  (t) => [
    uniqueIndex('contribution_scheme_items_code_unique').on(t.schemeId, t.code),
    check('contribution_scheme_items_code_check', sql`${t.code} IN ('pension', 'medical', 'unemployment', 'work_injury', 'maternity', 'housing_fund')`),
    check(
      'contribution_scheme_items_figures_check',
      sql`${t.employeeRate} BETWEEN 0 AND 10000 AND ${t.employerRate} BETWEEN 0 AND 10000 AND ${t.baseMin} >= 0 AND ${t.baseMin} <= ${t.baseMax} AND ${t.employeeFixed} >= 0`,
    ),
  ],
)

/** An employee's special additional deductions of a year (CONTRACT §17): monthly amounts in fen from `from_month` on. */
export const taxDeductions = sqliteTable(
  'tax_deductions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    employeeId: integer('employee_id')
      .notNull()
      .references(() => employees.id, { onDelete: 'cascade' }),
    year: integer('year').notNull(),
    /** YYYY-MM of `year` */
    fromMonth: text('from_month').notNull(),
    childrenEducation: integer('children_education').notNull().default(0),
    infantCare: integer('infant_care').notNull().default(0),
    continuingEducation: integer('continuing_education').notNull().default(0),
    housingLoanInterest: integer('housing_loan_interest').notNull().default(0),
    housingRent: integer('housing_rent').notNull().default(0),
    elderlySupport: integer('elderly_support').notNull().default(0),
    children: integer('children').notNull().default(0),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('tax_deductions_employee_year_unique').on(t.employeeId, t.year),
    check('tax_deductions_month_check', sql`substr(${t.fromMonth}, 1, 4) = printf('%04d', ${t.year})`),
    check(
      'tax_deductions_caps_check',
      sql`${t.children} >= 0 AND ${t.childrenEducation} >= 0 AND ${t.infantCare} >= 0 AND ${t.childrenEducation} + ${t.infantCare} <= 200000 * ${t.children} AND ${t.continuingEducation} BETWEEN 0 AND 40000 AND ${t.housingLoanInterest} BETWEEN 0 AND 100000 AND ${t.housingRent} BETWEEN 0 AND 150000 AND ${t.elderlySupport} BETWEEN 0 AND 300000 AND (${t.housingLoanInterest} = 0 OR ${t.housingRent} = 0)`,
    ),
  ],
)
