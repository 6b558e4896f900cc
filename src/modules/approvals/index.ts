import { Elysia } from 'elysia'
import type { AuthGuard } from '../../http/auth'
import { Envelope, type Replier } from '../../http/envelope'
import type { LocalePlugin } from '../../http/locale'
import { errors } from '../../http/openapi'
import { say } from './messages'
import { ApproveBody, Decided, DecisionParams, Inbox, InboxQuery, RejectBody } from './model'
import type { ApprovalsService } from './service'

const detail = (summary: string, extra: object = {}) => ({ tags: ['Approvals'], summary, ...extra })

const WHO =
  'You decide a request when you are the employee’s manager (manager_id), or, when they have none, their attendance group’s manager; ' +
  'holders of approvals:manage decide any request. Nobody decides their own.'

const DECISION_ERRORS = {
  403: 'The request is your own, or not yours to decide',
  404: 'No such request',
  409: 'The request is not pending (decided or cancelled, perhaps just now by someone else)',
}

/**
 * The approvals inbox and decisions (CONTRACT §10). Any signed-in user; the routing decides what they see.
 * `locale` words the inbox's summaries (TRANSITION: app.ts passes the app's; until then, English is the fallback).
 */
export const approvalsController = (guard: AuthGuard, locale: LocalePlugin, reply: Replier, approvals: ApprovalsService) =>
  new Elysia({ name: 'approvals', prefix: '/api/v1/approvals' })
    .use(guard)
    .use(locale)
    .get('', async ({ principal, query, locale }) => reply.ok(await approvals.inbox(principal, query, locale)), {
      auth: true,
      query: InboxQuery,
      response: Envelope(Inbox),
      detail: detail('The requests you may decide, oldest first', {
        description: `${WHO} status defaults to pending; without kind, leave requests and corrections come together, oldest first.`,
      }),
    })
    .post(
      '/:kind/:id/approve',
      async ({ principal, params, body, actor }) =>
        reply.ok(await approvals.decide(principal, params.kind, params.id, 'approved', body.note, actor), say.approved()),
      {
        auth: true,
        params: DecisionParams,
        body: ApproveBody,
        response: Envelope(Decided),
        detail: detail('Approve a pending request', { description: `${WHO} The note is optional.`, ...errors(DECISION_ERRORS) }),
      },
    )
    .post(
      '/:kind/:id/reject',
      async ({ principal, params, body, actor }) =>
        reply.ok(await approvals.decide(principal, params.kind, params.id, 'rejected', body.note, actor), say.rejected()),
      {
        auth: true,
        params: DecisionParams,
        body: RejectBody,
        response: Envelope(Decided),
        detail: detail('Reject a pending request, saying why', {
          description: `${WHO} The note is required.`,
          ...errors({ 400: 'The note is missing or blank', ...DECISION_ERRORS }),
        }),
      },
    )
