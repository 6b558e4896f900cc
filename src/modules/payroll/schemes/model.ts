import { t } from 'elysia'
import { Timestamp } from '../../../http/models'
import { codeRule } from '../messages'
import { Month, Yuan } from '../profiles/model'

const Code = t.Union(
  [t.Literal('pension'), t.Literal('medical'), t.Literal('unemployment'), t.Literal('work_injury'), t.Literal('maternity'), t.Literal('housing_fund')],
  { description: 'pension | medical | unemployment | work_injury | maternity | housing_fund', error: codeRule },
)
/** A rate as a decimal with at most 4 places; checked exactly by the service. */
const Rate = t.Number({ description: 'a decimal from 0 to 1 with at most 4 places, e.g. 0.08' })

const ItemBody = t.Object({
  code: Code,
  employee_rate: Rate,
  employer_rate: Rate,
  base_min: Yuan,
  base_max: Yuan,
  employee_fixed: t.Optional(Yuan),
})

export const SchemeBody = t.Object(
  {
    name: t.String({ maxLength: 100, description: 'the city (or region) whose scheme this is; schemes of one name are its years' }),
    effective_from: Month('effective_from'),
    items: t.Array(ItemBody, { minItems: 1, maxItems: 6 }),
  },
  {
    description:
      'A city’s yearly change is a new scheme of the same name with a later effective_from: a month uses, of the schemes named as its pay profile’s, the latest whose effective_from is not after it.',
    examples: [
      {
        name: 'Shanghai',
        effective_from: '2024-07',
        items: [
          { code: 'pension', employee_rate: 0.08, employer_rate: 0.16, base_min: 7384, base_max: 36921 },
          { code: 'medical', employee_rate: 0.02, employer_rate: 0.1, base_min: 7384, base_max: 36921 },
          { code: 'unemployment', employee_rate: 0.005, employer_rate: 0.005, base_min: 7384, base_max: 36921 },
          { code: 'work_injury', employee_rate: 0, employer_rate: 0.0016, base_min: 7384, base_max: 36921 },
          { code: 'housing_fund', employee_rate: 0.07, employer_rate: 0.07, base_min: 2690, base_max: 36921 },
        ],
      },
    ],
  },
)
export type SchemeInput = typeof SchemeBody.static

export const Scheme = t.Object({
  id: t.Integer(),
  name: t.String(),
  effective_from: t.String(),
  items: t.Array(
    t.Object({
      code: t.String(),
      employee_rate: t.Number(),
      employer_rate: t.Number(),
      base_min: t.Number(),
      base_max: t.Number(),
      employee_fixed: t.Number(),
    }),
  ),
  created_at: Timestamp,
  updated_at: Timestamp,
})
export type SchemeResponse = typeof Scheme.static
export const SchemeList = t.Object({ schemes: t.Array(Scheme) })
