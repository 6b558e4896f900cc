import { Elysia, t } from 'elysia'
import type { AuthGuard } from '../../http/auth'
import { Envelope, type Replier } from '../../http/envelope'
import { errors } from '../../http/openapi'
import { IdParams } from '../../http/models'
import { P1 } from '../../http/pagination'
import { say } from './messages'
import { Company, CompanyListQuery, CreateCompanyBody, UpdateCompanyBody } from './model'
import type { CompaniesService } from './service'

const detail = (summary: string, extra: object = {}) => ({ tags: ['Companies'], summary, ...extra })

export const companiesController = (guard: AuthGuard, reply: Replier, companies: CompaniesService) =>
  new Elysia({ name: 'companies', prefix: '/api/v1/admin/companies' })
    .use(guard)
    .post('', async ({ body, actor, set }) => reply.created(set, await companies.create(body, actor), say.created()), {
      permission: 'companies:create',
      body: CreateCompanyBody,
      response: { 201: Envelope(Company) },
      detail: detail('Create a company', errors({ 409: 'A company with this name exists' })),
    })
    .get('', async ({ query }) => reply.ok(await companies.list(query)), {
      permission: 'companies:read',
      query: CompanyListQuery,
      response: Envelope(P1(Company)),
      detail: detail('List companies'),
    })
    .get('/:id', async ({ params }) => reply.ok(await companies.get(params.id)), {
      permission: 'companies:read',
      params: IdParams,
      response: Envelope(Company),
      detail: detail('Read a company', errors({ 404: 'No such company' })),
    })
    .put('/:id', async ({ params, body, actor }) => reply.ok(await companies.update(params.id, body, actor), say.updated()), {
      permission: 'companies:update',
      params: IdParams,
      body: UpdateCompanyBody,
      response: Envelope(Company),
      detail: detail('Update a company', {
        description:
          'Fields left out stay as they are; a null `timezone` means the service default. `attendance_starts_on` (go-live, CONTRACT §23): ' +
          'for the employees of the company’s attendance groups no date before it is a work day, an absence or leave. Moving it later deletes ' +
          'the absent records (status 3, no clock times) its groups have before it; moving it earlier (or to null) lets the next day close ' +
          'mark the dates it brings in, as a calendar change does. The audit entry lists the deleted records.',
        ...errors({ 404: 'No such company', 409: 'A company with this name exists' }),
      }),
    })
    .delete('/:id', async ({ params, actor }) => reply.ok(await companies.remove(params.id, actor).then(() => null), say.deleted()), {
      permission: 'companies:delete',
      params: IdParams,
      response: Envelope(t.Null()),
      detail: detail('Delete a company that nothing references', errors({ 404: 'No such company', 409: 'Employees or attendance groups still belong to it' })),
    })
