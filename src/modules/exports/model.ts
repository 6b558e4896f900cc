import { t } from 'elysia'
import { PositiveInt } from '../../http/models'

const Month = t.String({
  pattern: '^\\d{4}-(0[1-9]|1[0-2])$',
  description: 'YYYY-MM',
  examples: ['2024-03'],
  error: 'month must be a month written YYYY-MM',
})

/** A literal union, not t.UnionEnum: Elysia gives a UnionEnum its first value as a default. */
const Format = t.Union([t.Literal('csv'), t.Literal('xlsx')], {
  description: '`csv` (UTF-8 with a byte-order mark, RFC 4180) or `xlsx`',
  examples: ['csv'],
  error: 'format must be csv or xlsx',
})

export const AttendanceExportQuery = t.Object({
  month: Month,
  format: Format,
  department_id: t.Optional(PositiveInt('department_id', 'only the employees of this department')),
  group_id: t.Optional(PositiveInt('group_id', 'only the employees now in this attendance group')),
})
export type AttendanceExportQuery = typeof AttendanceExportQuery.static

export const SalaryExportQuery = t.Object({ month: Month, format: Format })
export type SalaryExportQuery = typeof SalaryExportQuery.static
