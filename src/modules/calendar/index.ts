import { Elysia, t } from 'elysia'
import type { AuthGuard } from '../../http/auth'
import { Envelope, type Replier } from '../../http/envelope'
import type { LocalePlugin } from '../../http/locale'
import { errors } from '../../http/openapi'
import {
  CalendarDay,
  CalendarYear,
  CalendarYearQuery,
  CompanyParams,
  DayParams,
  ImportBody,
  ImportResult,
  MAX_IMPORT_DAYS,
  MonthCalendar,
  MonthQuery,
  PutDayBody,
} from './model'
import type { CalendarService } from './service'

// under Companies: a calendar belongs to its company (a tag of its own would need a description in the document's tag list)
const detail = (summary: string, extra: object = {}) => ({ tags: ['Companies'], summary, ...extra })

const PAST_DAYS =
  'A past date turned `holiday` loses the absent records (status 3 with no clock times) that day close wrote for the company’s groups; ' +
  'any changed date is judged again by the next day close (or close-day), so a past date turned `workday` gets its absences.'

/** A company's holidays and make-up workdays (CONTRACT §8). */
const calendarAdminController = (guard: AuthGuard, reply: Replier, calendar: CalendarService) =>
  new Elysia({ name: 'calendar-admin', prefix: '/api/v1/admin/companies/:id/calendar' })
    .use(guard)
    .get('', async ({ params, query }) => reply.ok(await calendar.list(params.id, query)), {
      permission: 'calendar:read',
      params: CompanyParams,
      query: CalendarYearQuery,
      response: Envelope(CalendarYear),
      detail: detail('A company’s calendar days of one year, by date', {
        description: 'Dates the company marks as holidays or as make-up workdays; every other date follows the rules’ work days.',
        ...errors({ 404: 'No such company' }),
      }),
    })
    .put(
      '/:date',
      async ({ params, body, actor, set }) => {
        const { day, created } = await calendar.put(params.id, params.date, body, actor)
        return created ? reply.created(set, day, 'Calendar day created') : reply.ok(day, 'Calendar day replaced')
      },
      {
        permission: 'calendar:update',
        params: DayParams,
        body: PutDayBody,
        response: { 200: Envelope(CalendarDay), 201: Envelope(CalendarDay) },
        detail: detail('Mark a date as a holiday or a make-up workday (create: 201, or replace: 200)', {
          description: PAST_DAYS,
          ...errors({ 400: 'the date is not a real date, or the kind or name is invalid', 404: 'No such company' }),
        }),
      },
    )
    .delete(
      '/:date',
      async ({ params, actor }) => reply.ok(await calendar.remove(params.id, params.date, actor).then(() => null), 'Calendar day deleted'),
      {
        permission: 'calendar:update',
        params: DayParams,
        response: Envelope(t.Null()),
        detail: detail('Unmark a date: it follows the rules’ work days again', {
          description: 'The date is judged again by the next day close (or close-day).',
          ...errors({ 400: 'the date is not a real date', 404: 'No such company, or the company has no calendar day on that date' }),
        }),
      },
    )
    .post('/import', async ({ params, body, actor }) => reply.ok(await calendar.import(params.id, body, actor), 'Calendar imported'), {
      permission: 'calendar:update',
      params: CompanyParams,
      body: ImportBody,
      response: Envelope(ImportResult),
      detail: detail(`Import up to ${MAX_IMPORT_DAYS} calendar days at once: all or none`, {
        description: `Dates the company already has are replaced. ${PAST_DAYS}`,
        ...errors({ 400: 'a date is not real or is given twice, a kind or name is invalid, or there are too many days; nothing is imported', 404: 'No such company' }),
      }),
    })

/** The caller's month, date by date (CONTRACT §8). */
const monthController = (guard: AuthGuard, locale: LocalePlugin, reply: Replier, calendar: CalendarService) =>
  new Elysia({ name: 'calendar', prefix: '/api/v1/attendance/calendar' })
    .use(guard)
    .use(locale)
    .get('', async ({ principal, query, locale }) => reply.ok(await calendar.month(principal, query, locale)), {
      permission: 'attendance:view',
      query: MonthQuery,
      response: Envelope(MonthCalendar),
      detail: {
        tags: ['Attendance'],
        summary: 'Your month, date by date: work day, holiday, record and leave',
        description:
          'A date is a work day when your group’s company marks it a make-up workday, or its weekday is a work day of the rule that applies on it ' +
          'and the company does not mark it a holiday: as clock-in, day close and statistics judge it. `leave` is the approved leave covering the date, or null.',
        ...errors({ 400: 'month is not a real month', 403: 'Your account is not linked to an employee record' }),
      },
    })

/** The work calendar's routes: companies' calendars for administrators, the month for employees. */
export const calendarController = (guard: AuthGuard, locale: LocalePlugin, reply: Replier, calendar: CalendarService) =>
  new Elysia({ name: 'calendar-routes' }).use(calendarAdminController(guard, reply, calendar)).use(monthController(guard, locale, reply, calendar))
