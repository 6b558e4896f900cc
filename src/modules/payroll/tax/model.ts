import { t } from 'elysia'
import { Int, PositiveInt, Timestamp } from '../../../http/models'
import { childrenRule, yearRule } from '../messages'
import { Month, Yuan } from '../profiles/model'

export const DeclarationParams = t.Object({ id: PositiveInt('id'), year: t.Integer({ minimum: 1, maximum: 9999, error: yearRule }) })

export const DeclarationBody = t.Object(
  {
    from_month: t.Optional(Month('from_month')),
    children_education: t.Optional(Yuan),
    infant_care: t.Optional(Yuan),
    continuing_education: t.Optional(Yuan),
    housing_loan_interest: t.Optional(Yuan),
    housing_rent: t.Optional(Yuan),
    elderly_support: t.Optional(Yuan),
    children: t.Optional(Int({ minimum: 0, maximum: 20, error: childrenRule })),
  },
  {
    description:
      'Monthly amounts in yuan (missing: 0), counted in the year’s cumulative withholding from from_month (default January) on. Caps a month (2023 standard): children’s education and infant care together 2,000 per child, continuing education 400, housing loan interest 1,000, housing rent 1,500 (not both), elderly support 3,000.',
    examples: [{ from_month: '2025-01', children_education: 2000, housing_rent: 1500, elderly_support: 1500, children: 1 }],
  },
)
export type DeclarationInput = typeof DeclarationBody.static

export const Declaration = t.Object({
  id: t.Integer(),
  employee_id: t.Integer(),
  year: t.Integer(),
  from_month: t.String(),
  children_education: t.Number(),
  infant_care: t.Number(),
  continuing_education: t.Number(),
  housing_loan_interest: t.Number(),
  housing_rent: t.Number(),
  elderly_support: t.Number(),
  children: t.Integer(),
  monthly_total: t.Number(),
  created_at: Timestamp,
  updated_at: Timestamp,
})
export type DeclarationResponse = typeof Declaration.static
export const DeclarationList = t.Object({ tax_deductions: t.Array(Declaration) })

export const SummaryQuery = t.Object({
  year: t.Optional(t.Integer({ minimum: 1, maximum: 9999, error: yearRule })),
  employee_id: t.Optional(PositiveInt('employee_id', 'the employee; left out: the one your account is linked to')),
})
export const OwnSummaryQuery = t.Object({ year: t.Optional(t.Integer({ minimum: 1, maximum: 9999, error: yearRule })) })

const SummaryMonth = t.Object({
  month: t.String(),
  company: t.Object({ id: t.Integer(), name: t.String() }),
  payslip_id: t.Integer(),
  income: t.Number({ description: 'the payslip’s gross (wage payable)' }),
  contributions: t.Number({ description: 'personal_insurance + housing_fund' }),
  special_deductions: t.Number({ description: 'what the month added to the cumulative special deductions: a declaration made late takes in its earlier months at once' }),
  cumulative_income: t.Number(),
  cumulative_basic_deduction: t.Number(),
  cumulative_contributions: t.Number(),
  cumulative_special_deductions: t.Number(),
  cumulative_taxable: t.Number(),
  cumulative_tax: t.Number(),
  tax_withheld: t.Number({ description: 'this month’s personal_tax' }),
  cumulative_withheld: t.Number(),
})

export const TaxSummary = t.Object({
  year: t.Integer(),
  employee: t.Object({ id: t.Integer(), name: t.String(), employee_no: t.Nullable(t.String()) }),
  months: t.Array(SummaryMonth),
  totals: t.Object({ income: t.Number(), contributions: t.Number(), special_deductions: t.Number(), tax_withheld: t.Number() }),
})
export type TaxSummaryResponse = typeof TaxSummary.static
