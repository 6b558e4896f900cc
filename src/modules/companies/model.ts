import { t } from 'elysia'
import { DateString, Text, Timestamp } from '../../http/models'
import { pageQuery } from '../../http/pagination'
import { rules } from './messages'

const TimeZone = t.String({
  minLength: 1,
  maxLength: 64,
  description: 'IANA time zone, e.g. Asia/Shanghai',
  examples: ['Asia/Shanghai'],
  error: rules.timeZone,
})

export const Company = t.Object({
  id: t.Integer(),
  name: t.String(),
  timezone: t.Nullable(t.String({ description: 'IANA zone; null means the service default (DEFAULT_TIMEZONE)' })),
  attendance_starts_on: t.Nullable(
    t.String({ description: 'YYYY-MM-DD, local: the first date attendance counts for the employees of its groups; null: no bound' }),
  ),
  created_at: Timestamp,
  updated_at: Timestamp,
})
export type CompanyResponse = typeof Company.static

/**
 * When the company goes live (CONTRACT §23): for the employees of its attendance groups, no date
 * before it is a work day, an absence or leave.
 */
const AttendanceStartsOn = t.Nullable(
  t.String({
    pattern: DateString.pattern,
    error: DateString.error,
    examples: ['2024-01-01'],
    description:
      'YYYY-MM-DD, local: the first date attendance counts (go-live) for the employees of its attendance groups; before it no date ' +
      'is a work day, an absence or leave. null (the default): no bound',
  }),
)

export const CreateCompanyBody = t.Object(
  { name: Text(100), timezone: t.Optional(t.Nullable(TimeZone)), attendance_starts_on: t.Optional(AttendanceStartsOn) },
  { examples: [{ name: 'Acme Shanghai', timezone: 'Asia/Shanghai', attendance_starts_on: '2024-01-01' }] },
)
export type CreateCompanyInput = typeof CreateCompanyBody.static

export const UpdateCompanyBody = t.Object(
  { name: t.Optional(Text(100)), timezone: t.Optional(t.Nullable(TimeZone)), attendance_starts_on: t.Optional(AttendanceStartsOn) },
  { examples: [{ name: 'Acme Shanghai Ltd.' }] },
)
export type UpdateCompanyInput = typeof UpdateCompanyBody.static

export const CompanyListQuery = t.Object({
  ...pageQuery(10),
  search: t.Optional(t.String({ maxLength: 100, description: 'part of the name, ignoring case' })),
})
export type CompanyListQuery = typeof CompanyListQuery.static
