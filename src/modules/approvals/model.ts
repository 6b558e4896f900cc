import { t } from 'elysia'
import { PositiveInt, Timestamp } from '../../http/models'
import { P2Pagination, pageQuery } from '../../http/pagination'
import { Correction } from '../corrections/model'
import { rules as leaveRules } from '../leave/messages'
import { LeaveRequest } from '../leave/model'
import { rules } from './messages'

const Kind = t.Union([t.Literal('leave'), t.Literal('correction')], { error: rules.kind })
export type ApprovalKind = typeof Kind.static

const Status = t.Union([t.Literal('pending'), t.Literal('approved'), t.Literal('rejected'), t.Literal('cancelled')], {
  description: 'default pending; the others show the history of requests you may decide',
  error: leaveRules.status,
})

export const InboxQuery = t.Object({
  ...pageQuery(10),
  kind: t.Optional(t.Union([t.Literal('leave'), t.Literal('correction')], { description: 'default: every kind', error: rules.kind })),
  status: t.Optional(Status),
})
export type InboxQuery = typeof InboxQuery.static

export const ApprovalItem = t.Object({
  kind: Kind,
  id: t.Integer({ description: 'the request’s id, within its kind' }),
  employee: t.Object({ id: t.Integer(), name: t.String() }, { description: 'who asked' }),
  created_at: Timestamp,
  summary: t.String({
    description: 'a short text, e.g. "Annual leave, 2024-10-08 – 2024-10-10 (3 days)" or "Correction of 2024-10-08: clock-out 18:05"',
  }),
  request: t.Union([LeaveRequest, Correction], { description: 'the request itself: a leave request (kind leave) or a correction (kind correction)' }),
})
export type ApprovalItemResponse = typeof ApprovalItem.static

export const Inbox = t.Object({ items: t.Array(ApprovalItem), pagination: P2Pagination })

/** What a decision answers: the request, as its kind shows it. */
export const Decided = t.Union([LeaveRequest, Correction])

export const DecisionParams = t.Object({ kind: Kind, id: PositiveInt('id') })

export const ApproveBody = t.Object(
  { note: t.Optional(t.String({ maxLength: 500, description: 'kept with the decision' })) },
  { examples: [{ note: 'Enjoy the trip' }] },
)
export const RejectBody = t.Object(
  { note: t.String({ minLength: 1, maxLength: 500, description: 'why: required, not blank' }) },
  { examples: [{ note: 'The release is that week; please pick other dates' }] },
)
