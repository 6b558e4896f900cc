import { Elysia, t } from 'elysia'
import type { AuthGuard } from '../../../http/auth'
import { Envelope, type Replier } from '../../../http/envelope'
import { IdParams } from '../../../http/models'
import { errors } from '../../../http/openapi'
import { say } from '../messages'
import { Scheme, SchemeBody, SchemeList } from './model'
import type { SchemesService } from './service'

const detail = (summary: string, extra: object = {}) => ({ tags: ['Payroll'], summary, ...extra })
const INVALID = 'a rate that is not a decimal from 0 to 1 with at most 4 places, an amount out of range, base_max below base_min, or a code given twice'

/** Contribution schemes: social insurance and housing fund rates, floors and ceilings of a city from a month on (CONTRACT §17). */
export const schemesController = (guard: AuthGuard, reply: Replier, schemes: SchemesService) =>
  new Elysia({ name: 'payroll-schemes', prefix: '/api/v1/admin/payroll/schemes' })
    .use(guard)
    .get('', async () => reply.ok(await schemes.list()), {
      permission: 'payroll:read',
      response: Envelope(SchemeList),
      detail: detail('Contribution schemes, by name, then newest effective month first'),
    })
    .post('', async ({ body, actor, set }) => reply.created(set, await schemes.create(body, actor), say.schemeCreated()), {
      permission: 'payroll:manage',
      body: SchemeBody,
      response: { 201: Envelope(Scheme) },
      detail: detail('Add a city’s contribution scheme from a month on (rates as decimals, amounts in yuan)', {
        ...errors({ 400: INVALID, 409: 'A scheme of this name from this month exists' }),
      }),
    })
    .get('/:id', async ({ params }) => reply.ok(await schemes.get(params.id)), {
      permission: 'payroll:read',
      params: IdParams,
      response: Envelope(Scheme),
      detail: detail('A contribution scheme', { ...errors({ 404: 'No such scheme' }) }),
    })
    .put('/:id', async ({ params, body, actor }) => reply.ok(await schemes.update(params.id, body, actor), say.schemeSaved()), {
      permission: 'payroll:manage',
      params: IdParams,
      body: SchemeBody,
      response: Envelope(Scheme),
      detail: detail('Replace a contribution scheme: months computed after use the new figures; approved payslips keep theirs', {
        ...errors({ 400: INVALID, 404: 'No such scheme', 409: 'Another scheme of this name from this month exists' }),
      }),
    })
    .delete('/:id', async ({ params, actor }) => reply.ok(await schemes.remove(params.id, actor).then(() => null), say.schemeDeleted()), {
      permission: 'payroll:manage',
      params: IdParams,
      response: Envelope(t.Null()),
      detail: detail('Delete a contribution scheme no pay profile names and no payslip used', {
        ...errors({ 404: 'No such scheme', 409: 'A pay profile names it, or a run’s payslips were computed with it' }),
      }),
    })
