import { t } from 'elysia'
import { Text, Timestamp } from '../../http/models'
import { pageQuery } from '../../http/pagination'

const TimeZone = t.String({
  minLength: 1,
  maxLength: 64,
  description: 'IANA time zone, e.g. Asia/Shanghai',
  examples: ['Asia/Shanghai'],
  error: 'must be an IANA time zone name such as Asia/Shanghai',
})

export const Company = t.Object({
  id: t.Integer(),
  name: t.String(),
  timezone: t.Nullable(t.String({ description: 'IANA zone; null means the service default (DEFAULT_TIMEZONE)' })),
  created_at: Timestamp,
  updated_at: Timestamp,
})
export type CompanyResponse = typeof Company.static

export const CreateCompanyBody = t.Object(
  { name: Text(100), timezone: t.Optional(t.Nullable(TimeZone)) },
  { examples: [{ name: 'Acme Shanghai', timezone: 'Asia/Shanghai' }] },
)
export type CreateCompanyInput = typeof CreateCompanyBody.static

export const UpdateCompanyBody = t.Object(
  { name: t.Optional(Text(100)), timezone: t.Optional(t.Nullable(TimeZone)) },
  { examples: [{ name: 'Acme Shanghai Ltd.' }] },
)
export type UpdateCompanyInput = typeof UpdateCompanyBody.static

export const CompanyListQuery = t.Object({
  ...pageQuery(10),
  search: t.Optional(t.String({ maxLength: 100, description: 'part of the name, ignoring case' })),
})
export type CompanyListQuery = typeof CompanyListQuery.static
