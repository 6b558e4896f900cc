import { Elysia, t } from 'elysia'
import type { AuthGuard } from '../../http/auth'
import { Envelope, type Replier } from '../../http/envelope'
import { IdParams } from '../../http/models'
import { P1 } from '../../http/pagination'
import { Company, CompanyListQuery, CreateCompanyBody, UpdateCompanyBody } from './model'
import type { CompaniesService } from './service'

const detail = (summary: string) => ({ tags: ['Companies'], summary })

export const companiesController = (guard: AuthGuard, reply: Replier, companies: CompaniesService) =>
  new Elysia({ name: 'companies', prefix: '/api/v1/admin/companies' })
    .use(guard)
    .post('', async ({ body, actor, set }) => reply.created(set, await companies.create(body, actor), 'Company created'), {
      permission: 'companies:create',
      body: CreateCompanyBody,
      response: { 201: Envelope(Company) },
      detail: detail('Create a company'),
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
      detail: detail('Read a company'),
    })
    .put('/:id', async ({ params, body, actor }) => reply.ok(await companies.update(params.id, body, actor), 'Company updated'), {
      permission: 'companies:update',
      params: IdParams,
      body: UpdateCompanyBody,
      response: Envelope(Company),
      detail: detail('Update a company'),
    })
    .delete('/:id', async ({ params, actor }) => reply.ok(await companies.remove(params.id, actor).then(() => null), 'Company deleted'), {
      permission: 'companies:delete',
      params: IdParams,
      response: Envelope(t.Null()),
      detail: detail('Delete a company that nothing references'),
    })
