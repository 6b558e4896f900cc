import { Elysia, t } from 'elysia'
import type { AuthGuard } from '../../http/auth'
import { Envelope, type Replier } from '../../http/envelope'
import { errors } from '../../http/openapi'
import type { LocalePlugin } from '../../http/locale'
import { IdParams } from '../../http/models'
import type { DayClose } from './day-close'
import { say } from './messages'
import {
  AdminRecordQuery,
  AttemptList,
  AttemptQuery,
  AttendanceRecord,
  ClockBody,
  ClockInResult,
  ClockOutResult,
  CloseDayBody,
  CloseDayResult,
  OwnRecordQuery,
  RecordList,
  Statistics,
  StatisticsQuery,
  Summary,
} from './model'
import type { AttendanceService } from './service'
import { Rule } from './setup/model'

/** Every route of an employee's own attendance needs the account linked to an employee record (403 otherwise). */
const mine = (summary: string, extra: { 'x-errors'?: object; description?: string } = {}) => ({
  tags: ['Attendance'],
  summary,
  ...extra,
  'x-errors': { 403: 'Your account is not linked to an employee record', ...extra['x-errors'] },
})
const admin = (summary: string, extra: object = {}) => ({ tags: ['Attendance records'], summary, ...extra })
const CLOCK_AREA =
  'When the rule requires a position, one outside its area is refused (400) and kept for review; more than 10 refusals in 10 minutes are a 429 that keeps nothing.'

export const attendanceController = (guard: AuthGuard, locale: LocalePlugin, reply: Replier, attendance: AttendanceService) =>
  new Elysia({ name: 'attendance', prefix: '/api/v1/attendance' })
    .use(guard)
    .use(locale)
    .post('/clock-in', async ({ principal, body, locale }) => reply.ok(await attendance.clockIn(principal, body, locale), say.clockedIn()), {
      permission: 'attendance:clock',
      body: ClockBody,
      response: Envelope(ClockInResult),
      detail: mine('Clock in now (server time); position needed when the rule says so', {
        description: `The work date and rule are decided at the server’s time in the group’s zone. ${CLOCK_AREA}`,
        ...errors({
          400: 'the position is outside the allowed area or missing where the rule requires one, or you are marked as having left',
          409: 'You already clocked in for this work date, or an earlier shift is still open (clock out first)',
          429: 'More than 10 clock attempts refused for their position within 10 minutes',
        }),
      }),
    })
    .post(
      '/clock-out',
      async ({ principal, body, locale }) => reply.ok(await attendance.clockOut(principal, body, locale), say.clockedOut()),
      {
        permission: 'attendance:clock',
        body: ClockBody,
        response: Envelope(ClockOutResult),
        detail: mine('Clock out now (server time)', {
          description: `Closes your open record by the terms it was clocked in under. ${CLOCK_AREA}`,
          ...errors({
            400: 'you have not clocked in, the position is outside the allowed area, or you are marked as having left',
            409: 'You already clocked out, or the work day was closed without a clock-out',
            429: 'More than 10 clock attempts refused for their position within 10 minutes',
          }),
        }),
      },
    )
    .get(
      '/today',
      async ({ principal, locale }) => {
        const record = await attendance.today(principal, locale)
        return reply.ok(record, record ? undefined : say.noRecordToday())
      },
      {
        permission: 'attendance:view',
        response: Envelope(t.Nullable(AttendanceRecord)),
        detail: mine('Your record for today, with employee and rule (null when there is none)', {
          description: 'Today is the work date a clock-in now would get: the previous date while its overnight shift runs.',
        }),
      },
    )
    .get('/records', async ({ principal, query, locale }) => reply.ok(await attendance.ownRecords(principal, query, locale)), {
      permission: 'attendance:view',
      query: OwnRecordQuery,
      response: Envelope(RecordList),
      detail: mine('Your records, newest first', { description: 'Filtered by work date range and status.' }),
    })
    .get('/summary', async ({ principal, locale }) => reply.ok(await attendance.summary(principal, locale)), {
      permission: 'attendance:view',
      response: Envelope(Summary),
      detail: mine('Today, this week, this month and your last 7 records', { description: 'Weeks start on Monday; dates are local to your group’s zone.' }),
    })
    .get('/statistics', async ({ principal, query }) => reply.ok(await attendance.statistics(principal, query)), {
      permission: 'attendance:view',
      query: StatisticsQuery,
      response: Envelope(Statistics),
      detail: mine('Your statistics over a date range of at most 366 days', {
        description: 'Each date is judged by the rule that applies on it.',
      }),
    })
    .get('/rule', async ({ principal, locale }) => reply.ok(await attendance.rule(principal, locale)), {
      permission: 'attendance:view',
      response: Envelope(Rule),
      detail: mine('The attendance rule that applies to you today', errors({ 404: 'You are not in an attendance group, or your group has no enabled rule' })),
    })

export const attendanceAdminController = (
  guard: AuthGuard,
  locale: LocalePlugin,
  reply: Replier,
  attendance: AttendanceService,
  dayClose: DayClose,
) =>
  new Elysia({ name: 'attendance-admin', prefix: '/api/v1/admin/attendance' })
    .use(guard)
    .use(locale)
    .get('/records', async ({ query, locale }) => reply.ok(await attendance.adminRecords(query, locale)), {
      permission: 'attendance_records:read',
      query: AdminRecordQuery,
      response: Envelope(RecordList),
      detail: admin('Every employee’s records, newest first'),
    })
    .get('/records/:id', async ({ params, locale }) => reply.ok(await attendance.adminRecord(params.id, locale)), {
      permission: 'attendance_records:read',
      params: IdParams,
      response: Envelope(AttendanceRecord),
      detail: admin('One record in full, with employee and rule', errors({ 404: 'No such record' })),
    })
    .get('/attempts', async ({ query }) => reply.ok(await attendance.attempts(query)), {
      permission: 'attendance_records:read',
      query: AttemptQuery,
      response: Envelope(AttemptList),
      detail: admin('Clock attempts refused for their position, newest first'),
    })
    .post('/close-day', async ({ body, actor }) => reply.ok(await dayClose.close(body.date, body.group_id, actor), say.dayClosed()), {
      permission: 'attendance_records:close',
      body: CloseDayBody,
      response: Envelope(CloseDayResult),
      detail: admin('Close a work day now: absences and exceptions (days not yet ended are left open)', {
        description: 'Idempotent. Members without a record get an absent record; open records of ended shifts become exceptions.',
        ...errors({ 400: 'the group does not exist, is disabled, or did not exist on that date' }),
      }),
    })
