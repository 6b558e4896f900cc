import { Elysia, t } from 'elysia'
import type { AuthGuard } from '../../http/auth'
import { Envelope, type Replier } from '../../http/envelope'
import type { LocalePlugin } from '../../http/locale'
import { IdParams } from '../../http/models'
import {
  BatchStatusBody,
  CreateSalaryBody,
  MonthParams,
  Salary,
  SalaryList,
  SalaryListQuery,
  SalaryStats,
  StatsQuery,
  SuccessEnvelope,
  UpdateSalaryBody,
} from './model'
import type { SalariesService } from './service'

const admin = (summary: string) => ({ tags: ['Salaries'], summary })
const mine = (summary: string) => ({ tags: ['My salaries'], summary })

/** Salary create and the lists carry `success: true` beside `code` (API §1). */
const withSuccess = <T>(envelope: { code: number; message: string; data: T; timestamp: string }) => ({ success: true, ...envelope })

export const salariesAdminController = (guard: AuthGuard, locale: LocalePlugin, reply: Replier, salaries: SalariesService) =>
  new Elysia({ name: 'salaries-admin', prefix: '/api/v1/admin/salaries' })
    .use(guard)
    .use(locale)
    .post(
      '',
      async ({ body, actor, set }) => withSuccess(reply.created(set, await salaries.create(body, actor), 'Salary record created')),
      {
        permission: 'salaries:create',
        body: CreateSalaryBody,
        response: { 201: SuccessEnvelope(Salary) },
        detail: admin('Create a monthly salary record (amounts in yuan, stored exactly in fen)'),
      },
    )
    .get('', async ({ query, locale }) => withSuccess(reply.ok(await salaries.adminList(query, locale))), {
      permission: 'salaries:read',
      query: SalaryListQuery,
      response: SuccessEnvelope(SalaryList),
      detail: admin('List salary records, newest month first'),
    })
    .get('/stats', async ({ query }) => reply.ok(await salaries.stats(query.month)), {
      permission: 'salaries:read',
      query: StatsQuery,
      response: Envelope(SalaryStats),
      detail: admin('Statistics of net salaries for a month, or all months when month is empty'),
    })
    .patch(
      '/batch-status',
      async ({ body, actor }) => reply.ok(await salaries.batchStatus(body.ids, body.status, actor).then(() => null), 'Statuses updated'),
      {
        permission: 'salaries:update',
        body: BatchStatusBody,
        response: Envelope(t.Null()),
        detail: admin('Set the status of many records at once (all or none)'),
      },
    )
    .get('/:id', async ({ params, locale }) => reply.ok(await salaries.get(params.id, locale)), {
      permission: 'salaries:read',
      params: IdParams,
      response: Envelope(Salary),
      detail: admin('Read a salary record'),
    })
    .put(
      '/:id',
      async ({ params, body, actor, locale }) => reply.ok(await salaries.update(params.id, body, actor, locale), 'Salary record updated'),
      {
        permission: 'salaries:update',
        params: IdParams,
        body: UpdateSalaryBody,
        response: Envelope(Salary),
        detail: admin('Update a salary record; totals and net are recomputed; a paid record’s amounts are locked'),
      },
    )
    .delete(
      '/:id',
      async ({ params, actor }) => reply.ok(await salaries.remove(params.id, actor).then(() => null), 'Salary record deleted'),
      {
        permission: 'salaries:delete',
        params: IdParams,
        response: Envelope(t.Null()),
        detail: admin('Delete a salary record'),
      },
    )

export const salariesEmployeeController = (guard: AuthGuard, locale: LocalePlugin, reply: Replier, salaries: SalariesService) =>
  new Elysia({ name: 'salaries-employee', prefix: '/api/v1/employees/salaries' })
    .use(guard)
    .use(locale)
    .get('', async ({ principal, query, locale }) => withSuccess(reply.ok(await salaries.ownList(principal, query, locale))), {
      permission: 'salaries:read_own',
      query: SalaryListQuery,
      response: SuccessEnvelope(SalaryList),
      detail: mine('Your salary records (employee_id is ignored)'),
    })
    .get('/:month', async ({ principal, params, locale }) => reply.ok(await salaries.ownMonth(principal, params.month, locale)), {
      permission: 'salaries:read_own',
      params: MonthParams,
      response: Envelope(Salary),
      detail: mine('Your salary record for a month'),
    })
