import { Elysia, t } from 'elysia'
import type { AuthGuard } from '../../http/auth'
import { Envelope, type Replier } from '../../http/envelope'
import type { LocalePlugin } from '../../http/locale'
import { errors } from '../../http/openapi'
import { say } from './messages'
import {
  ApplyPresetBody,
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
  PresetList,
  PutDayBody,
} from './model'
import type { CalendarService } from './service'

// under Companies: a calendar belongs to its company (a tag of its own would need a description in the document's tag list)
const detail = (summary: string, extra: object = {}) => ({ tags: ['Companies'], summary, ...extra })

const PAST_DAYS =
  'A past date turned `holiday` loses the absent records (status 3 with no clock times) that day close wrote for the company’s groups; ' +
  'any changed date is judged again by the next day close (or close-day), so a past date turned `workday` gets its absences. ' +
  'Pending and approved leave over a changed date is recounted: its days, and the ledger the difference (reason `calendar`); a request left with no work day is cancelled.'

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
        return created ? reply.created(set, day, say.dayCreated()) : reply.ok(day, say.dayReplaced())
      },
      {
        permission: 'calendar:update',
        params: DayParams,
        body: PutDayBody,
        response: { 200: Envelope(CalendarDay), 201: Envelope(CalendarDay) },
        detail: detail('Mark a date as a holiday or a make-up workday (create: 201, or replace: 200)', {
          description: PAST_DAYS,
          ...errors({ 400: 'the date is not a real date, the kind or name is invalid, or `statutory` is true for a workday', 404: 'No such company', 409: 'The change adds work days to approved or pending leave of a type that requires a balance with too few days left (CONTRACT §18)' }),
        }),
      },
    )
    .delete(
      '/:date',
      async ({ params, actor }) => reply.ok(await calendar.remove(params.id, params.date, actor).then(() => null), say.dayDeleted()),
      {
        permission: 'calendar:update',
        params: DayParams,
        response: Envelope(t.Null()),
        detail: detail('Unmark a date: it follows the rules’ work days again', {
          description: 'The date is judged again by the next day close (or close-day).',
          ...errors({ 400: 'the date is not a real date', 404: 'No such company, or the company has no calendar day on that date', 409: 'The change adds work days to approved or pending leave of a type that requires a balance with too few days left (CONTRACT §18)' }),
        }),
      },
    )
    .post('/import', async ({ params, body, actor }) => reply.ok(await calendar.import(params.id, body, actor), say.imported()), {
      permission: 'calendar:update',
      params: CompanyParams,
      body: ImportBody,
      response: Envelope(ImportResult),
      detail: detail(`Import up to ${MAX_IMPORT_DAYS} calendar days at once: all or none`, {
        description: `Dates the company already has are replaced. ${PAST_DAYS}`,
        ...errors({
          400: 'a date is not real or is given twice, a kind or name is invalid, `statutory` is true for a workday, or there are too many days; nothing is imported',
          404: 'No such company',
          409: 'The change adds work days to approved or pending leave of a type that requires a balance with too few days left (CONTRACT §18); nothing is imported',
        }),
      }),
    })
    .post(
      '/apply-preset',
      async ({ params, body, actor }) => reply.ok(await calendar.applyPreset(params.id, body, actor), say.presetApplied()),
      {
        permission: 'calendar:update',
        params: CompanyParams,
        body: ApplyPresetBody,
        response: Envelope(ImportResult),
        detail: detail('Apply a holiday preset (e.g. China’s official arrangement of a year): all or none', {
          description: `The preset’s days are imported as by POST …/calendar/import, in one change with one audit entry: dates the company already has are replaced, other dates stay. ${PAST_DAYS}`,
          ...errors({ 404: 'No such company, or no preset with that id (GET /api/v1/admin/calendar-presets lists them)', 409: 'The change adds work days to approved or pending leave of a type that requires a balance with too few days left (CONTRACT §18)' }),
        }),
      },
    )

/** The holiday presets shipped with the release (CONTRACT §24). */
const presetsController = (guard: AuthGuard, reply: Replier, calendar: CalendarService) =>
  new Elysia({ name: 'calendar-presets', prefix: '/api/v1/admin/calendar-presets' }).use(guard).get('', () => reply.ok(calendar.presets()), {
    permission: 'calendar:read',
    response: Envelope(PresetList),
    detail: detail('The holiday presets shipped with the release, each with its days', {
      description:
        'Each preset copies an official notice (named in `source`): every day off (`holiday`, with `statutory` on the statutory public holidays) and every make-up workday. ' +
        'POST /api/v1/admin/companies/{id}/calendar/apply-preset imports one into a company’s calendar.',
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
  new Elysia({ name: 'calendar-routes' })
    .use(calendarAdminController(guard, reply, calendar))
    .use(presetsController(guard, reply, calendar))
    .use(monthController(guard, locale, reply, calendar))
