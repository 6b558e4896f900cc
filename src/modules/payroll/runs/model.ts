import { t } from 'elysia'
import { Id, PositiveInt, Timestamp } from '../../../http/models'
import { flagRule, formatRule, yearRule } from '../messages'
import { Month, Yuan } from '../profiles/model'

export const FLAGS = ['prorated', 'absence', 'unpaid_leave', 'lateness', 'overtime', 'adjustment', 'entered', 'negative_net'] as const
export type Flag = (typeof FLAGS)[number]

export const CreateRunBody = t.Object(
  { company_id: Id, month: Month('month') },
  { examples: [{ company_id: 1, month: '2025-03' }] },
)
export type CreateRunInput = typeof CreateRunBody.static

export const RunParams = t.Object({ id: PositiveInt('id') })
export const PayslipParams = t.Object({ id: PositiveInt('id'), payslip_id: PositiveInt('payslip_id') })
export const MonthParams = t.Object({ month: Month('month') })

export const RunListQuery = t.Object({
  company_id: t.Optional(PositiveInt('company_id')),
  year: t.Optional(t.Integer({ minimum: 1, maximum: 9999, error: yearRule })),
  status: t.Optional(t.Union([t.Literal('draft'), t.Literal('approved')])),
})
export type RunListQuery = typeof RunListQuery.static

export const PayslipListQuery = t.Object({
  flag: t.Optional(
    t.Union(
      [
        t.Literal('prorated'),
        t.Literal('absence'),
        t.Literal('unpaid_leave'),
        t.Literal('lateness'),
        t.Literal('overtime'),
        t.Literal('adjustment'),
        t.Literal('entered'),
        t.Literal('negative_net'),
      ],
      { error: flagRule },
    ),
  ),
})
export const YearQuery = t.Object({ year: t.Optional(t.Integer({ minimum: 1, maximum: 9999, error: yearRule })) })
export const FormatQuery = t.Object({ format: t.Optional(t.Union([t.Literal('csv'), t.Literal('xlsx')], { error: formatRule })) })

export const InputsBody = t.Object(
  {
    performance_pay: t.Optional(Yuan),
    bonus: t.Optional(Yuan),
    other_income: t.Optional(Yuan),
    other_deductions: t.Optional(Yuan),
    note: t.Optional(t.String({ maxLength: 500 })),
  },
  { description: 'Fields left out become 0 (or an empty note).', examples: [{ bonus: 2000, note: 'Q1 bonus' }] },
)
export type InputsInput = typeof InputsBody.static

const Totals = t.Object({
  gross: t.Number(),
  deductions: t.Number(),
  employee_contributions: t.Number(),
  employer_contributions: t.Number(),
  tax: t.Number(),
  net: t.Number(),
  head_count: t.Integer(),
})

export const Run = t.Object({
  id: t.Integer(),
  company: t.Object({ id: t.Integer(), name: t.String() }),
  month: t.String(),
  status: t.Union([t.Literal('draft'), t.Literal('approved')]),
  totals: Totals,
  created_at: Timestamp,
  computed_at: Timestamp,
  approved_at: t.Nullable(Timestamp),
  approved_by: t.Nullable(t.Object({ id: t.Integer(), username: t.String() })),
})
export type RunResponse = typeof Run.static
export const RunList = t.Object({ runs: t.Array(Run) })

const SourceModel = t.Object({
  kind: t.Union([
    t.Literal('attendance_record'),
    t.Literal('leave_request'),
    t.Literal('correction'),
    t.Literal('calendar_day'),
    t.Literal('pay_profile'),
    t.Literal('payslip'),
    t.Literal('leave_type'),
    t.Literal('leave_ledger'),
    t.Literal('contribution_scheme'),
    t.Literal('tax_deduction'),
  ]),
  id: t.Integer(),
})

export const Line = t.Object({
  code: t.String(),
  label: t.String(),
  kind: t.Union([t.Literal('income'), t.Literal('attendance'), t.Literal('deduction'), t.Literal('employer')], {
    description: 'employer: the employer’s contributions, in none of gross, deductions and net',
  }),
  amount: t.Number({ description: 'yuan' }),
  formula: t.String({ description: 'the arithmetic with its numbers, e.g. "10000.00 ÷ 21.75 × 2 = 919.54"' }),
  inputs: t.Record(t.String(), t.Union([t.Number(), t.String()])),
  sources: t.Array(SourceModel),
  month: t.Optional(t.String({ description: 'for an adjustment: the month it corrects' })),
})

export const Payslip = t.Object({
  id: t.Integer(),
  run_id: t.Integer(),
  employee: t.Object({ id: t.Integer(), name: t.String(), employee_no: t.Nullable(t.String()) }),
  month: t.String(),
  status: t.Union([t.Literal('draft'), t.Literal('approved')]),
  gross: t.Number(),
  deductions: t.Number(),
  net: t.Number(),
  lines: t.Array(Line),
  inputs: t.Object({ performance_pay: t.Number(), bonus: t.Number(), other_income: t.Number(), other_deductions: t.Number(), note: t.String() }),
  flags: t.Array(t.String()),
})
export type PayslipResponse = typeof Payslip.static
export const PayslipList = t.Object({ payslips: t.Array(Payslip) })
