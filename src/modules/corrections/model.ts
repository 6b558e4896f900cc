import { t } from 'elysia'
import { DateString, Timestamp } from '../../http/models'
import { P2Pagination, pageQuery } from '../../http/pagination'
import { ruleText } from '../../lib/messages'

const Instant = t.String({
  format: 'date-time',
  description: 'an ISO 8601 instant, e.g. 2024-10-08T01:02:00Z',
  error: ruleText({ en: 'must be an ISO 8601 instant such as 2024-10-08T09:00:00+08:00', zh: '必须是 ISO 8601 时间，例如 2024-10-08T09:00:00+08:00' }),
})
const Reason = t.String({
  minLength: 1,
  maxLength: 500,
  description: 'why: required, not blank',
  error: ruleText({ en: 'reason is required (1 to 500 characters)', zh: 'reason 为必填项（1 到 500 个字符）' }),
})
// written out: a union mapped from CORRECTION_STATUSES is typed `never` in the routes' responses, and the handlers fail to type-check
const Status = t.Union([t.Literal('pending'), t.Literal('approved'), t.Literal('rejected'), t.Literal('cancelled')], {
  error: ruleText({ en: 'status must be pending, approved, rejected or cancelled', zh: 'status 必须是 pending、approved、rejected 或 cancelled' }),
})
const Person = (description: string) => t.Object({ id: t.Integer(), name: t.String() }, { description })

/** A record as a correction found it and left it. */
export const RecordSnapshot = t.Object(
  {
    id: t.Integer(),
    clock_in_time: t.Nullable(Timestamp),
    clock_out_time: t.Nullable(Timestamp),
    status: t.Integer({ description: '0 normal, 1 late, 2 early leave, 3 absent, 4 exception' }),
    late_minutes: t.Integer(),
    early_minutes: t.Integer(),
    work_hours: t.Number(),
    overtime_minutes: t.Integer(),
  },
  { description: 'the record’s clock times and figures' },
)
export type RecordSnapshot = typeof RecordSnapshot.static

export const Correction = t.Object({
  id: t.Integer(),
  employee_id: t.Integer(),
  employee: Person('who it corrects'),
  work_date: t.String({ description: 'YYYY-MM-DD, local to `timezone`' }),
  timezone: t.String({ description: 'the IANA zone work_date is local to (extension)' }),
  clock_in_time: t.Nullable(Timestamp),
  clock_out_time: t.Nullable(Timestamp),
  reason: t.String(),
  status: Status,
  record_id: t.Nullable(t.Integer({ description: 'the record it changed (or would change); null while the date has none' })),
  before: t.Nullable(RecordSnapshot),
  after: t.Nullable(RecordSnapshot),
  approver: t.Nullable(Person('who decides it: the employee’s manager, else their group’s; holders of approvals:manage may too')),
  decided_by: t.Nullable(Person('the account that approved, rejected or cancelled it')),
  decided_at: t.Nullable(Timestamp),
  decision_note: t.Nullable(t.String()),
  created_at: Timestamp,
  updated_at: Timestamp,
})
export type CorrectionResponse = typeof Correction.static

export const CreateCorrectionBody = t.Object(
  {
    work_date: t.String({ ...DateString, error: ruleText({ en: 'work_date must be a date written YYYY-MM-DD', zh: 'work_date 必须是 YYYY-MM-DD 格式的日期' }) }),
    clock_in_time: t.Optional(Instant),
    clock_out_time: t.Optional(Instant),
    reason: Reason,
  },
  {
    examples: [
      {
        work_date: '2024-03-14',
        clock_in_time: '2024-03-14T09:02:00+08:00',
        clock_out_time: '2024-03-14T18:05:00+08:00',
        reason: 'At the client’s office all day, where I could not clock in or out',
      },
    ],
  },
)
export type CreateCorrectionInput = typeof CreateCorrectionBody.static

export const EditRecordBody = t.Object(
  { clock_in_time: t.Optional(Instant), clock_out_time: t.Optional(Instant), reason: Reason },
  { examples: [{ clock_in_time: '2024-03-15T09:00:00+08:00', reason: 'The gate reader was down; the guard’s log shows 09:00' }] },
)
export type EditRecordInput = typeof EditRecordBody.static

export const CorrectionQuery = t.Object({ ...pageQuery(10), status: t.Optional(Status) })
export type CorrectionQuery = typeof CorrectionQuery.static

export const CorrectionList = t.Object({ corrections: t.Array(Correction), pagination: P2Pagination })
