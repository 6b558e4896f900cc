import { Elysia, t } from 'elysia'
import type { AuthGuard } from '../../http/auth'
import { Envelope, type Replier } from '../../http/envelope'
import { errors } from '../../http/openapi'
import type { LocalePlugin } from '../../http/locale'
import { IdParams } from '../../http/models'
import { say } from './messages'
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

const admin = (summary: string, extra: object = {}) => ({ tags: ['Salaries'], summary, ...extra })
const mine = (summary: string, extra: object = {}) => ({
  tags: ['My salaries'],
  summary,
  description: 'Only your own records: the account must be linked to an employee record.',
  ...errors({ 403: 'Your account is not linked to an employee record' }),
  ...extra,
})
const AMOUNTS = 'Amounts are yuan with at most 2 decimals, from 0 to 100,000,000; totals and net are computed (a sent `net_salary` must match).'

/** Salary create and the lists carry `success: true` beside `code` (API §1). */
const withSuccess = <T>(envelope: { code: number; message: string; data: T; timestamp: string }) => ({ success: true, ...envelope })

export const salariesAdminController = (guard: AuthGuard, locale: LocalePlugin, reply: Replier, salaries: SalariesService) =>
  new Elysia({ name: 'salaries-admin', prefix: '/api/v1/admin/salaries' })
    .use(guard)
    .use(locale)
    .post(
      '',
      async ({ body, actor, principal, set }) => withSuccess(reply.created(set, await salaries.create(body, actor, principal), say.created())),
      {
        permission: 'salaries:create',
        body: CreateSalaryBody,
        response: { 201: SuccessEnvelope(Salary) },
        detail: admin('Create a monthly salary record (amounts in yuan, stored exactly in fen)', {
          description: AMOUNTS,
          ...errors({
            400: 'an unknown employee, a wrong net_salary, a negative net, or a payment_date for an unpaid record',
            409: 'The employee already has a record for this month',
          }),
        }),
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
      async ({ body, actor, principal }) => reply.ok(await salaries.batchStatus(body.ids, body.status, actor, principal).then(() => null), say.statusesUpdated()),
      {
        permission: 'salaries:update',
        body: BatchStatusBody,
        response: Envelope(t.Null()),
        detail: admin('Set the status of many records at once (all or none)', {
          description: 'Status "1" (paid) sets the payment date to today; "0" clears it.',
          ...errors({ 400: 'unknown record ids (nothing was changed)' }),
        }),
      },
    )
    .get('/:id', async ({ params, locale }) => reply.ok(await salaries.get(params.id, locale)), {
      permission: 'salaries:read',
      params: IdParams,
      response: Envelope(Salary),
      detail: admin('Read a salary record', errors({ 404: 'No such salary record' })),
    })
    .put(
      '/:id',
      async ({ params, body, actor, principal, locale }) => reply.ok(await salaries.update(params.id, body, actor, principal, locale), say.updated()),
      {
        permission: 'salaries:update',
        params: IdParams,
        body: UpdateSalaryBody,
        response: Envelope(Salary),
        detail: admin('Update a salary record; totals and net are recomputed; a paid record’s amounts are locked', {
          description: `${AMOUNTS} Set status "0" first to change a paid record’s amounts.`,
          ...errors({
            400: 'a wrong net_salary, a negative net, or a payment_date for an unpaid record',
            404: 'No such salary record',
            409: 'The record is paid (its amounts are locked), or a payroll run wrote it (its amounts change only through the next runs’ adjustments)',
          }),
        }),
      },
    )
    .delete(
      '/:id',
      async ({ params, actor, principal }) => reply.ok(await salaries.remove(params.id, actor, principal).then(() => null), say.deleted()),
      {
        permission: 'salaries:delete',
        params: IdParams,
        response: Envelope(t.Null()),
        detail: admin('Delete a salary record', errors({ 404: 'No such salary record', 409: 'A payroll run wrote the record: it changes only through the next runs’ adjustments' })),
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
      detail: mine('Your salary record for a month', {
        ...errors({ 403: 'Your account is not linked to an employee record', 404: 'You have no salary record for that month' }),
      }),
    })
