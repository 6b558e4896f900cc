import { t } from 'elysia'
import { PositiveInt } from '../../http/models'
import { rules } from './messages'

const Month = t.String({
  pattern: '^\\d{4}-(0[1-9]|1[0-2])$',
  description: 'YYYY-MM',
  examples: ['2024-03'],
  error: rules.month,
})

/** A literal union, not t.UnionEnum: Elysia gives a UnionEnum its first value as a default. */
const Format = t.Union([t.Literal('csv'), t.Literal('xlsx')], {
  description: '`csv` (UTF-8 with a byte-order mark, RFC 4180) or `xlsx`',
  examples: ['csv'],
  error: rules.format,
})

/** Optional: its default depends on the format (data for CSV, sheet for XLSX), which the service decides. */
const Layout = t.Union([t.Literal('data'), t.Literal('sheet')], {
  description:
    '`data`: a header row of field names and the values, the same every month, for formulas, scripts and other systems (the default for CSV); ' +
    '`sheet`: a sheet a clerk can hand over, in the language of Accept-Language (the default for XLSX)',
  examples: ['sheet'],
  error: rules.layout,
})

export type Layout = typeof Layout.static

export const AttendanceExportQuery = t.Object({
  month: Month,
  format: Format,
  layout: t.Optional(Layout),
  department_id: t.Optional(PositiveInt('department_id', 'only the employees of this department')),
  group_id: t.Optional(PositiveInt('group_id', 'only the employees now in this attendance group')),
})
export type AttendanceExportQuery = typeof AttendanceExportQuery.static

export const SalaryExportQuery = t.Object({ month: Month, format: Format, layout: t.Optional(Layout) })
export type SalaryExportQuery = typeof SalaryExportQuery.static
