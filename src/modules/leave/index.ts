import { Elysia, t } from 'elysia'
import type { AuthGuard } from '../../http/auth'
import { Envelope, type Replier } from '../../http/envelope'
import { IdParams } from '../../http/models'
import { errors } from '../../http/openapi'
import {
  AdjustBody,
  AdminBalanceQuery,
  AdminRequestQuery,
  Balance,
  Balances,
  Ledger,
  CreateRequestBody,
  CreateTypeBody,
  EnabledTypes,
  LeaveRequest,
  LeaveType,
  OwnBalanceQuery,
  OwnRequestQuery,
  RequestList,
  TypeList,
  TypeListQuery,
  UpdateTypeBody,
} from './model'
import { say } from './messages'
import type { LeaveService } from './service'
import type { LeaveTypesService } from './types'

const detail = (summary: string, extra: object = {}) => ({ tags: ['Leave'], summary, ...extra })
const mine = (summary: string, extra: Record<number, string> = {}, description?: string) =>
  detail(summary, { ...(description ? { description } : {}), ...errors({ 403: 'Your account is not linked to an employee record', ...extra }) })

const BALANCE =
  'A balance is `granted` (the type’s annual days, or the grants of a type that accrues, plus adjustments, carries and lapses) − `taken` (approved) − `pending` = `remaining`, in days (halves as .5).'
const LEDGER = 'Each balance is the sum of its rows (CONTRACT §18): oldest first, each with its kind, signed days, reason and, for accrual, its event.'

/** Leave types, balances and every request, for HR (CONTRACT §9). */
export const leaveAdminController = (guard: AuthGuard, reply: Replier, leave: LeaveService, types: LeaveTypesService) =>
  new Elysia({ name: 'leave-admin', prefix: '/api/v1/admin/leave' })
    .use(guard)
    .post('/types', async ({ body, actor, set }) => reply.created(set, await types.createType(body, actor), say.typeCreated()), {
      permission: 'leave_types:manage',
      body: CreateTypeBody,
      response: { 201: Envelope(LeaveType) },
      detail: detail('Create a leave type', {
        description: 'annual_days is a multiple of 0.5, granted again each year.',
        ...errors({ 400: 'annual_days is not a multiple of 0.5, or the name is blank', 409: 'A leave type of that name (ignoring case) exists' }),
      }),
    })
    .get('/types', async ({ query }) => reply.ok(await types.listTypes(query)), {
      permission: 'leave_types:read',
      query: TypeListQuery,
      response: Envelope(TypeList),
      detail: detail('List leave types, oldest first'),
    })
    .get('/types/:id', async ({ params }) => reply.ok(await types.getType(params.id)), {
      permission: 'leave_types:read',
      params: IdParams,
      response: Envelope(LeaveType),
      detail: detail('Read a leave type', errors({ 404: 'No such leave type' })),
    })
    .put('/types/:id', async ({ params, body, actor }) => reply.ok(await types.updateType(params.id, body, actor), say.typeUpdated()), {
      permission: 'leave_types:manage',
      params: IdParams,
      body: UpdateTypeBody,
      response: Envelope(LeaveType),
      detail: detail('Update a leave type', {
        description: 'A change of annual_days changes every balance of the type, past years too.',
        ...errors({ 400: 'annual_days is not a multiple of 0.5, or the name is blank', 404: 'No such leave type', 409: 'A leave type of that name (ignoring case) exists' }),
      }),
    })
    .delete('/types/:id', async ({ params, actor }) => reply.ok(await types.removeType(params.id, actor).then(() => null), say.typeDeleted()), {
      permission: 'leave_types:manage',
      params: IdParams,
      response: Envelope(t.Null()),
      detail: detail('Delete a leave type nobody has requested or been given days of', {
        ...errors({ 404: 'No such leave type', 409: 'The type has requests or balance adjustments; disable it instead' }),
      }),
    })
    .get('/balances', async ({ query }) => reply.ok(await leave.employeeBalances(query.employee_id, query.year)), {
      permission: 'leave:read',
      query: AdminBalanceQuery,
      response: Envelope(Balances),
      detail: detail('An employee’s balances of one year (default: this year)', { description: BALANCE, ...errors({ 404: 'No such employee' }) }),
    })
    .get('/ledger', async ({ query }) => reply.ok(await leave.employeeLedger(query.employee_id, query.year)), {
      permission: 'leave:read',
      query: AdminBalanceQuery,
      response: Envelope(Ledger),
      detail: detail('The ledger rows behind an employee’s balances of one year (default: this year)', { description: LEDGER, ...errors({ 404: 'No such employee' }) }),
    })
    .post('/balances/adjust', async ({ body, actor, principal }) => reply.ok(await leave.adjust(principal, body, actor), say.balanceAdjusted()), {
      permission: 'leave:manage',
      body: AdjustBody,
      response: Envelope(Balance),
      detail: detail('Add days to a balance, or take them away (never below zero remaining)', {
        description: `${BALANCE} Each adjustment is kept with its reason and who made it.`,
        ...errors({ 400: 'an unknown employee or type, days 0 or not a multiple of 0.5, a blank reason, or too few days remaining to take away' }),
      }),
    })
    .get('/requests', async ({ query }) => reply.ok(await leave.adminRequests(query)), {
      permission: 'leave:read',
      query: AdminRequestQuery,
      response: Envelope(RequestList),
      detail: detail('Every leave request, latest start first', {
        description: 'start_date and end_date select the requests with a day in that range.',
        ...errors({ 400: 'a date is not real' }),
      }),
    })
    .post('/requests/:id/cancel', async ({ params, actor, principal }) => reply.ok(await leave.adminCancel(principal, params.id, actor), say.requestCancelled()), {
      permission: 'leave:manage',
      params: IdParams,
      response: Envelope(LeaveRequest),
      detail: detail('Cancel a pending or approved request, whenever it is', {
        description: 'Approved leave is given back to the balance (a reversal in the ledger).',
        ...errors({ 404: 'No such leave request', 409: 'The request is rejected or cancelled already' }),
      }),
    })

/** The caller's own leave (CONTRACT §9). */
export const leaveController = (guard: AuthGuard, reply: Replier, leave: LeaveService, types: LeaveTypesService) =>
  new Elysia({ name: 'leave', prefix: '/api/v1/leave' })
    .use(guard)
    .get('/types', async () => reply.ok(await types.enabledTypes()), {
      permission: 'leave:request',
      response: Envelope(EnabledTypes),
      detail: detail('The leave types you may request'),
    })
    .get('/balances', async ({ principal, query }) => reply.ok(await leave.ownBalances(principal, query.year)), {
      permission: 'leave:request',
      query: OwnBalanceQuery,
      response: Envelope(Balances),
      detail: mine('Your balances of one year (default: this year)', {}, BALANCE),
    })
    .get('/ledger', async ({ principal, query }) => reply.ok(await leave.ownLedger(principal, query.year)), {
      permission: 'leave:request',
      query: OwnBalanceQuery,
      response: Envelope(Ledger),
      detail: mine('The ledger rows behind your balances of one year (default: this year)', {}, LEDGER),
    })
    .post('/requests', async ({ principal, body, actor, set }) => reply.created(set, await leave.createRequest(principal, body, actor), say.requested()), {
      permission: 'leave:request',
      body: CreateRequestBody,
      response: { 201: Envelope(LeaveRequest) },
      detail: mine(
        'Ask for leave',
        {
          400: 'start after end, over 366 days, no work day in the range, a half day over several dates, an unknown or disabled type, or more days than remain',
          409: 'A day of the range is covered by your pending or approved leave',
        },
        '`days` counts only your work days in the range (your rules’ work days and your company’s calendar), 0.5 for a half day. ' +
          'When the type requires a balance, the days are held as pending at once: requests at the same time cannot overdraw it.',
      ),
    })
    .get('/requests', async ({ principal, query }) => reply.ok(await leave.ownRequests(principal, query)), {
      permission: 'leave:request',
      query: OwnRequestQuery,
      response: Envelope(RequestList),
      detail: mine('Your leave requests, latest start first', {}, '`year` selects the requests with a day in that year.'),
    })
    .post('/requests/:id/cancel', async ({ principal, params, actor }) => reply.ok(await leave.cancelOwn(principal, params.id, actor), say.requestCancelled()), {
      permission: 'leave:request',
      params: IdParams,
      response: Envelope(LeaveRequest),
      detail: mine('Cancel your request: a pending one, or an approved one that has not started', {
        404: 'You have no such leave request',
        409: 'The request is rejected, cancelled, or approved and already started',
      }),
    })
