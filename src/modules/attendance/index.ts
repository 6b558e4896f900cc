import { Elysia, t } from 'elysia'
import type { AuthGuard } from '../../http/auth'
import { Envelope, type Replier } from '../../http/envelope'
import type { LocalePlugin } from '../../http/locale'
import { IdParams } from '../../http/models'
import type { DayClose } from './day-close'
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
import { Rule } from './setup-model'

const mine = (summary: string) => ({ tags: ['Attendance'], summary })
const admin = (summary: string) => ({ tags: ['Attendance records'], summary })

export const attendanceController = (guard: AuthGuard, locale: LocalePlugin, reply: Replier, attendance: AttendanceService) =>
  new Elysia({ name: 'attendance', prefix: '/api/v1/attendance' })
    .use(guard)
    .use(locale)
    .post('/clock-in', async ({ principal, body, locale }) => reply.ok(await attendance.clockIn(principal, body, locale), 'Clocked in'), {
      permission: 'attendance:clock',
      body: ClockBody,
      response: Envelope(ClockInResult),
      detail: mine('Clock in now (server time); position needed when the rule says so'),
    })
    .post(
      '/clock-out',
      async ({ principal, body, locale }) => reply.ok(await attendance.clockOut(principal, body, locale), 'Clocked out'),
      {
        permission: 'attendance:clock',
        body: ClockBody,
        response: Envelope(ClockOutResult),
        detail: mine('Clock out now (server time)'),
      },
    )
    .get(
      '/today',
      async ({ principal, locale }) => {
        const record = await attendance.today(principal, locale)
        return reply.ok(record, record ? 'success' : 'No attendance record today')
      },
      {
        permission: 'attendance:view',
        response: Envelope(t.Nullable(AttendanceRecord)),
        detail: mine('Your record for today, with employee and rule (null when there is none)'),
      },
    )
    .get('/records', async ({ principal, query, locale }) => reply.ok(await attendance.ownRecords(principal, query, locale)), {
      permission: 'attendance:view',
      query: OwnRecordQuery,
      response: Envelope(RecordList),
      detail: mine('Your records, newest first'),
    })
    .get('/summary', async ({ principal, locale }) => reply.ok(await attendance.summary(principal, locale)), {
      permission: 'attendance:view',
      response: Envelope(Summary),
      detail: mine('Today, this week, this month and your last 7 records'),
    })
    .get('/statistics', async ({ principal, query }) => reply.ok(await attendance.statistics(principal, query)), {
      permission: 'attendance:view',
      query: StatisticsQuery,
      response: Envelope(Statistics),
      detail: mine('Your statistics over a date range of at most 366 days'),
    })
    .get('/rule', async ({ principal, locale }) => reply.ok(await attendance.rule(principal, locale)), {
      permission: 'attendance:view',
      response: Envelope(Rule),
      detail: mine('The attendance rule that applies to you today'),
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
      detail: admin('One record in full, with employee and rule'),
    })
    .get('/attempts', async ({ query }) => reply.ok(await attendance.attempts(query)), {
      permission: 'attendance_records:read',
      query: AttemptQuery,
      response: Envelope(AttemptList),
      detail: admin('Clock attempts refused for their position, newest first'),
    })
    .post('/close-day', async ({ body, actor }) => reply.ok(await dayClose.close(body.date, body.group_id, actor), 'Day closed'), {
      permission: 'attendance_records:close',
      body: CloseDayBody,
      response: Envelope(CloseDayResult),
      detail: admin('Close a work day now: absences and exceptions (days not yet ended are left open)'),
    })
