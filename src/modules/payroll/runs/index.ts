import { Elysia, t } from 'elysia'
import type { AuthGuard } from '../../../http/auth'
import { Envelope, type Replier } from '../../../http/envelope'
import type { LocalePlugin } from '../../../http/locale'
import { errors } from '../../../http/openapi'
import { download, fileResponses, isHead } from '../../exports'
import { say } from '../messages'
import type { RunExports } from './export'
import { CreateRunBody, FormatQuery, InputsBody, Payslip, PayslipList, PayslipListQuery, PayslipParams, Run, RunList, RunListQuery, RunParams } from './model'
import type { RunsService } from './service'

const detail = (summary: string, extra: object = {}) => ({ tags: ['Payroll'], summary, ...extra })
const DRAFT_ONLY = 'The run is approved and locked (changes to its month go into the next month’s run as adjustments)'

/** Payroll runs and their payslips (CONTRACT §16). */
export const payrollRunsController = (guard: AuthGuard, locale: LocalePlugin, reply: Replier, runs: RunsService, files: RunExports) =>
  new Elysia({ name: 'payroll-runs', prefix: '/api/v1/admin/payroll/runs' })
    .use(guard)
    .use(locale)
    .post('', async ({ body, actor, set }) => reply.created(set, await runs.create(body, actor), say.runCreated()), {
      permission: 'payroll:manage',
      body: CreateRunBody,
      response: { 201: Envelope(Run) },
      detail: detail('Compute a company’s month: a draft run with a payslip for every employee with a pay profile employed in it', {
        description:
          'Each payslip’s lines are computed from attendance, leave and the company calendar by the same functions as statistics and the monthly sheet; each line keeps its formula, inputs and sources.',
        ...errors({ 400: 'month is not a real month, or company_id does not exist', 409: 'The company already has a run for the month' }),
      }),
    })
    .get('', async ({ query }) => reply.ok(await runs.list(query)), {
      permission: 'payroll:read',
      query: RunListQuery,
      response: Envelope(RunList),
      detail: detail('Payroll runs, newest month first'),
    })
    .get('/:id', async ({ params }) => reply.ok(await runs.get(params.id)), {
      permission: 'payroll:read',
      params: RunParams,
      response: Envelope(Run),
      detail: detail('A payroll run with its totals', { ...errors({ 404: 'No such run' }) }),
    })
    .get('/:id/payslips', async ({ params, query, locale }) => reply.ok(await runs.payslips(params.id, query.flag, locale)), {
      permission: 'payroll:read',
      params: RunParams,
      query: PayslipListQuery,
      response: Envelope(PayslipList),
      detail: detail('A run’s payslips with their lines; `flag` keeps those with something to review', { ...errors({ 404: 'No such run' }) }),
    })
    .post('/:id/recompute', async ({ params, actor }) => reply.ok(await runs.recompute(params.id, actor), say.runRecomputed()), {
      permission: 'payroll:manage',
      params: RunParams,
      response: Envelope(Run),
      detail: detail('Compute a draft run’s payslips again (after corrections, leave or calendar changes); entered inputs are kept', {
        ...errors({ 404: 'No such run', 409: DRAFT_ONLY }),
      }),
    })
    .put(
      '/:id/payslips/:payslip_id/inputs',
      async ({ params, body, actor, locale }) => reply.ok(await runs.putInputs(params.id, params.payslip_id, body, actor, locale), say.inputsSaved()),
      {
        permission: 'payroll:manage',
        params: PayslipParams,
        body: InputsBody,
        response: Envelope(Payslip),
        detail: detail('Enter a payslip’s performance pay, bonus, other income and other deductions (yuan); the payslip is computed again', {
          ...errors({
            400: 'an amount that is negative, above 100,000,000 or has more than 2 decimals',
            404: 'No such run or payslip',
            409: `${DRAFT_ONLY}; or the run no longer pays the employee (recompute it)`,
          }),
        }),
      },
    )
    .post('/:id/approve', async ({ params, actor, principal }) => reply.ok(await runs.approve(params.id, actor, principal), say.runApproved()), {
      permission: 'payroll:approve',
      params: RunParams,
      response: Envelope(Run),
      detail: detail('Approve a run: its payslips become the month’s salary records, in one transaction, and the run is locked', {
        description: 'Nobody approves a run holding their own payslip, except role admin (CONTRACT §15).',
        ...errors({
          403: 'The run holds your own payslip',
          404: 'No such run',
          409: 'the run is not a draft, a payslip’s net is below zero, or an employee already has a salary record of the month (typed by HR, or written by another company’s run)',
        }),
      }),
    })
    .delete('/:id', async ({ params, actor }) => reply.ok(await runs.remove(params.id, actor).then(() => null), say.runDeleted()), {
      permission: 'payroll:manage',
      params: RunParams,
      response: Envelope(t.Null()),
      detail: detail('Delete a draft run and its payslips', { ...errors({ 404: 'No such run', 409: DRAFT_ONLY }) }),
    })
    .get('/:id/register', async ({ params, query, actor, request }) => download(await files.register(params.id, query.format ?? 'xlsx', actor, isHead(request))), {
      permission: 'payroll:read',
      params: RunParams,
      query: FormatQuery,
      detail: detail('A run’s payroll register: a row per payslip with every line’s amount, gross, deductions, net and employer contributions, then a row of sums', {
        description: 'Amounts in yuan with 2 decimals, summed exactly in fen; a draft’s register is for review. Audited (`export.payroll_register`) before its first byte.',
        ...errors({ 400: 'format is not csv or xlsx', 404: 'No such run' }),
        responses: fileResponses('The payroll register', 'payroll-register-COMPANY'),
      }),
    })
    .get('/:id/bank-transfers', async ({ params, query, actor, request }) => download(await files.bankTransfers(params.id, query.format ?? 'xlsx', actor, isHead(request))), {
      permission: 'payroll:read',
      params: RunParams,
      query: FormatQuery,
      detail: detail('An approved run’s bank transfer list: employee_no, name, bank_account, net, then the sum', {
        description: 'Audited (`export.bank_transfers`) before its first byte.',
        ...errors({ 400: 'format is not csv or xlsx', 404: 'No such run', 409: 'The run is a draft: its net pay may still change' }),
        responses: fileResponses('The bank transfer list', 'bank-transfers-COMPANY'),
      }),
    })
