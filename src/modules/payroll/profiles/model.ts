import { t } from 'elysia'
import { Id, Int, PositiveInt, Timestamp } from '../../../http/models'
import { freeRule, monthRule } from '../messages'

export const Month = (field: string) =>
  t.String({ pattern: '^\\d{4}-(0[1-9]|1[0-2])$', description: 'YYYY-MM', examples: ['2025-03'], error: monthRule(field) })

/** Yuan with at most 2 decimals; checked exactly (to fen) by the service. */
export const Yuan = t.Number({ description: 'yuan, at most 2 decimals, 0 to 100000000' })

export const EmployeeParams = t.Object({ id: PositiveInt('id') })
export const CompanyParams = t.Object({ id: PositiveInt('id') })

export const PayProfileBody = t.Object(
  {
    effective_month: Month('effective_month'),
    basic_salary: Yuan,
    seniority_pay: t.Optional(Yuan),
    allowance: t.Optional(Yuan),
    contribution_base: t.Optional(Yuan),
    housing_fund_base: t.Optional(Yuan),
    scheme_id: t.Optional(t.Nullable(Id)),
    bank_account: t.Optional(t.Nullable(t.String({ maxLength: 64 }))),
  },
  {
    description: 'From `effective_month` on, until a later profile. The same month again replaces that profile.',
    examples: [{ effective_month: '2025-01', basic_salary: 10000, seniority_pay: 300, allowance: 200, contribution_base: 10500, housing_fund_base: 10500, bank_account: '6222 0000 0000 0000' }],
  },
)
export type PayProfileInput = typeof PayProfileBody.static

export const PayProfile = t.Object({
  id: t.Integer(),
  employee_id: t.Integer(),
  effective_month: t.String(),
  basic_salary: t.Number(),
  seniority_pay: t.Number(),
  allowance: t.Number(),
  contribution_base: t.Number(),
  housing_fund_base: t.Number(),
  scheme_id: t.Nullable(t.Integer()),
  bank_account: t.Nullable(t.String()),
  created_at: Timestamp,
  updated_at: Timestamp,
})
export type PayProfileResponse = typeof PayProfile.static
export const PayProfileList = t.Object({ profiles: t.Array(PayProfile) })

const Ratio = t.Number({ description: 'a decimal with at most 2 places' })

export const PaySettingsBody = t.Object(
  {
    proration: t.Optional(t.Union([t.Literal('work_days'), t.Literal('calendar_days')])),
    days_per_month: t.Optional(Ratio),
    late_deduction: t.Optional(
      t.Object({
        per_occurrence: t.Optional(Yuan),
        per_minute: t.Optional(Yuan),
        free_occurrences: t.Optional(t.Nullable(Int({ minimum: 0, maximum: 31, error: freeRule }))),
      }),
    ),
    absence_deduction: t.Optional(t.Union([t.Literal('daily_wage'), Yuan])),
    overtime_multipliers: t.Optional(t.Object({ work_day: t.Optional(Ratio), rest_day: t.Optional(Ratio), statutory_holiday: t.Optional(Ratio) })),
  },
  {
    description: 'Every field left out takes its default (CONTRACT §16).',
    examples: [
      {
        proration: 'work_days',
        days_per_month: 21.75,
        late_deduction: { per_occurrence: 50, per_minute: 1, free_occurrences: 1 },
        absence_deduction: 'daily_wage',
        overtime_multipliers: { work_day: 1.5, rest_day: 2, statutory_holiday: 3 },
      },
    ],
  },
)
export type PaySettingsInput = typeof PaySettingsBody.static

export const PaySettings = t.Object({
  company_id: t.Integer(),
  proration: t.Union([t.Literal('work_days'), t.Literal('calendar_days')]),
  days_per_month: t.Number(),
  late_deduction: t.Object({ per_occurrence: t.Number(), per_minute: t.Number(), free_occurrences: t.Nullable(t.Integer()) }),
  absence_deduction: t.Union([t.Literal('daily_wage'), t.Number()]),
  overtime_multipliers: t.Object({ work_day: t.Number(), rest_day: t.Number(), statutory_holiday: t.Number() }),
})
export type PaySettingsResponse = typeof PaySettings.static
