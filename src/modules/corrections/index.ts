import { Elysia } from 'elysia'
import type { AuthGuard } from '../../http/auth'
import { Envelope, type Replier } from '../../http/envelope'
import type { LocalePlugin } from '../../http/locale'
import { IdParams } from '../../http/models'
import { errors } from '../../http/openapi'
import { AttendanceRecord } from '../attendance/model'
import { Correction, CorrectionList, CorrectionQuery, CreateCorrectionBody, EditRecordBody } from './model'
import { say } from './messages'
import type { CorrectionsService } from './service'

const RECOMPUTED =
  'On approval the record of that date is created or updated with the requested times (a time not given keeps the record’s), and its ' +
  'lateness, early leave, work hours, overtime and status are recomputed by the clock-in and clock-out rules: a record already clocked in ' +
  'under the shift it keeps, a new one (or an absence) under the rule that applies on the date now. The record is marked `corrected`; ' +
  '`before` and `after` keep both versions.'
const TIMES =
  'Times are ISO 8601 instants. The clock-in must fall on work_date in the record’s zone; the clock-out must come after the clock-in, ' +
  'by at most 24 hours; neither may be in the future.'

const mine = (summary: string, extra: Record<number, string> = {}, description?: string) => ({
  tags: ['Corrections'],
  summary,
  ...(description ? { description } : {}),
  ...errors({ 403: 'Your account is not linked to an employee record', ...extra }),
})

/** The caller's own corrections (CONTRACT §11); they are decided through the approvals inbox (§10). */
export const correctionsController = (guard: AuthGuard, reply: Replier, corrections: CorrectionsService) =>
  new Elysia({ name: 'corrections', prefix: '/api/v1/attendance/corrections' })
    .use(guard)
    .post('', async ({ principal, body, actor, set }) => reply.created(set, await corrections.request(principal, body, actor), say.requested()), {
      permission: 'attendance:correct',
      body: CreateCorrectionBody,
      response: { 201: Envelope(Correction) },
      detail: mine(
        'Ask to correct the clock times of one of your work dates',
        {
          400: 'work_date not today or within the last 31 days, no time given, times that do not fit (see above), nothing to change, or no rule to judge the date by',
          409: 'A correction of that date is already pending',
        },
        `${TIMES} It waits for your manager (or your group’s, or a holder of approvals:manage) to decide it. ${RECOMPUTED}`,
      ),
    })
    .get('', async ({ principal, query }) => reply.ok(await corrections.own(principal, query)), {
      permission: 'attendance:correct',
      query: CorrectionQuery,
      response: Envelope(CorrectionList),
      detail: mine('Your corrections, newest first', {}, 'Administrators’ edits of your records are listed too, as approved corrections.'),
    })
    .post('/:id/cancel', async ({ principal, params, actor }) => reply.ok(await corrections.cancelOwn(principal, params.id, actor), say.cancelled()), {
      permission: 'attendance:correct',
      params: IdParams,
      response: Envelope(Correction),
      detail: mine('Cancel your pending correction', { 404: 'You have no such correction', 409: 'The correction is no longer pending' }),
    })

/** An administrator's direct correction of a record (CONTRACT §11). */
export const recordEditController = (guard: AuthGuard, locale: LocalePlugin, reply: Replier, corrections: CorrectionsService) =>
  new Elysia({ name: 'attendance-record-edit', prefix: '/api/v1/admin/attendance/records' })
    .use(guard)
    .use(locale)
    .put('/:id', async ({ principal, params, body, actor, locale }) => reply.ok(await corrections.edit(principal, params.id, body, actor, locale), say.recordCorrected()), {
      permission: 'attendance_records:update',
      params: IdParams,
      body: EditRecordBody,
      response: Envelope(AttendanceRecord),
      detail: {
        tags: ['Attendance records'],
        summary: 'Correct a record’s clock times at once, with a reason',
        description: `${TIMES} ${RECOMPUTED.replace('On approval the', 'The')} The edit is kept as an approved correction of the employee (with your reason) and audited.`,
        ...errors({
          400: 'no time given, the reason is missing, times that do not fit, or nothing to change',
          403: 'The record is your own: request a correction instead',
          404: 'No such record',
          409: 'A correction of that date is pending: decide it first',
        }),
      },
    })
