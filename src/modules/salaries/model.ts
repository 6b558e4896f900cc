import { t } from 'elysia'
import { answerSchema } from '../../http/envelope'
import { DateString, Id, PositiveInt, Timestamp } from '../../http/models'
import { P2Pagination, pageQuery } from '../../http/pagination'
import { monthRule, statsMonthRule, statusRule } from './messages'

export const INCOME_ITEMS = ['basic_salary', 'seniority_pay', 'performance_pay', 'overtime_pay', 'bonus', 'allowance'] as const
export const DEDUCTION_ITEMS = ['attendance_deduction', 'personal_insurance', 'personal_tax', 'housing_fund', 'other_deductions'] as const
export type AmountField = (typeof INCOME_ITEMS)[number] | (typeof DEDUCTION_ITEMS)[number]

const Month = (field: string) =>
  t.String({
    pattern: '^\\d{4}-(0[1-9]|1[0-2])$',
    description: 'YYYY-MM',
    examples: ['2024-03'],
    error: monthRule(field),
  })

/** A literal union, not t.UnionEnum: Elysia 1.4 gives a UnionEnum its first value as a default, which would fill in status "0". */
const SalaryStatus = (field = 'status') =>
  t.Union([t.Literal('0'), t.Literal('1')], {
    description: '"0" unconfirmed, "1" paid',
    error: statusRule(field),
  })

/** Yuan with at most 2 decimals; checked exactly (to fen) by the service. */
const Yuan = t.Number({ description: 'yuan, at most 2 decimals, 0 to 100000000' })

const OptionalYuan = t.Optional(Yuan)
const amounts = Object.fromEntries([...INCOME_ITEMS, ...DEDUCTION_ITEMS].map((item) => [item, OptionalYuan])) as Record<
  AmountField,
  typeof OptionalYuan
>

const salaryFields = {
  employee_id: Id,
  month: Month('month'),
  status: t.Optional(SalaryStatus()),
  payment_date: t.Optional(t.Nullable(DateString)),
  category_id: t.Optional(t.Nullable(Id)),
  ...amounts,
  net_salary: t.Optional(t.Number({ description: 'when sent, must equal the computed net (yuan)' })),
  remarks: t.Optional(t.String({ maxLength: 1000 })),
}

export const CreateSalaryBody = t.Object(salaryFields, {
  examples: [
    {
      employee_id: 1,
      month: '2024-03',
      basic_salary: 12000,
      performance_pay: 1500.5,
      allowance: 300,
      personal_insurance: 1260,
      personal_tax: 345.15,
      housing_fund: 840,
      remarks: 'March 2024',
    },
  ],
})
export type CreateSalaryInput = typeof CreateSalaryBody.static

export const UpdateSalaryBody = t.Partial(t.Omit(t.Object(salaryFields), ['employee_id', 'month']), {
  examples: [{ bonus: 2000, remarks: 'March 2024, with the quarterly bonus' }],
})
export type UpdateSalaryInput = typeof UpdateSalaryBody.static

const YuanOut = t.Number()
const Amounts = <K extends readonly string[]>(items: K) =>
  t.Object(Object.fromEntries([...items, 'total'].map((item) => [item, YuanOut])) as Record<K[number] | 'total', typeof YuanOut>)

export const Salary = t.Object({
  id: t.Integer(),
  employee_id: t.Integer(),
  employee_name: t.String(),
  month: t.String({ description: 'YYYY年MM月', examples: ['2024年03月'] }),
  net_salary: t.Number({ description: 'yuan' }),
  status: t.String({ description: 'the text; the raw digit in the create response' }),
  status_code: t.Union([t.Literal('0'), t.Literal('1')]),
  payment_date: t.Nullable(Timestamp),
  category_id: t.Nullable(t.Integer()),
  income: Amounts(INCOME_ITEMS),
  deductions: Amounts(DEDUCTION_ITEMS),
  summary: t.Object({ total_income: t.Number(), total_deductions: t.Number(), net_salary: t.Number() }),
  remarks: t.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
})
export type SalaryResponse = typeof Salary.static

/** The envelope of salary create and lists: `success` beside `code`. */
export const SuccessEnvelope = <T extends Parameters<typeof t.Object>[0][string]>(data: T) =>
  answerSchema(t.Object({ success: t.Boolean(), code: t.Integer(), message: t.String(), data, timestamp: Timestamp }))

export const SalaryList = t.Object({ salaries: t.Array(Salary), pagination: P2Pagination })

export const SalaryListQuery = t.Object({
  ...pageQuery(10),
  employee_id: t.Optional(PositiveInt('employee_id')),
  month: t.Optional(Month('month')),
  status: t.Optional(SalaryStatus()),
  start_month: t.Optional(Month('start_month')),
  end_month: t.Optional(Month('end_month')),
})
export type SalaryListQuery = typeof SalaryListQuery.static

export const BatchStatusBody = t.Object(
  {
    ids: t.Array(Id, { minItems: 1, maxItems: 1000, description: 'salary ids, 1 to 1000' }),
    status: SalaryStatus(),
  },
  { examples: [{ ids: [1], status: '1' }] },
)

export const StatsQuery = t.Object({
  month: t.Optional(t.Union([t.Literal(''), Month('month')], { error: statsMonthRule })),
})

export const SalaryStats = t.Object({
  total_employees: t.Integer(),
  total_salaries: t.Integer({ description: 'sum of net salaries, in fen' }),
  avg_salary: t.Number({ description: 'yuan' }),
  max_salary: t.Number({ description: 'yuan' }),
  min_salary: t.Number({ description: 'yuan' }),
})
export type SalaryStatsResponse = typeof SalaryStats.static

export const MonthParams = t.Object({ month: Month('month') })
