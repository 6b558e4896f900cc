import { t } from 'elysia'
import { DateString, PositiveInt, Text, Timestamp } from '../../http/models'
import { rules } from './messages'

/** The most days one import may carry: a year of every date, with room to spare. */
export const MAX_IMPORT_DAYS = 400

const DayDate = (field: string) => t.String({ ...DateString, examples: ['2024-10-01'], error: rules.date(field) })

/** A literal union (not t.UnionEnum, which Elysia 1.4 gives its first value as a default). */
const Kind = t.Union([t.Literal('holiday'), t.Literal('workday')], {
  description: '`holiday`: a day off (e.g. a public holiday); `workday`: a working day on a weekly day off (e.g. a make-up day)',
  error: rules.kind,
})

const STATUTORY =
  'a statutory public holiday (法定节假日, paid at 300 % when worked): holidays only; a `workday` with `true` is refused. Left out: false'

export const CalendarDay = t.Object({
  company_id: t.Integer(),
  date: t.String({ description: 'YYYY-MM-DD, a local date (never an instant)' }),
  kind: t.Union([t.Literal('holiday'), t.Literal('workday')]),
  name: t.String(),
  statutory: t.Boolean({ description: 'a statutory public holiday (法定节假日); always false for a `workday`' }),
  created_at: Timestamp,
  updated_at: Timestamp,
})
export type CalendarDayResponse = typeof CalendarDay.static

export const CalendarYear = t.Object({ days: t.Array(CalendarDay, { description: 'sorted by date' }) })
export type CalendarYearResponse = typeof CalendarYear.static

export const CalendarYearQuery = t.Object({
  year: t.Optional(
    t.Integer({
      minimum: 1,
      maximum: 9999,
      description: 'the year to list; left out: the current year in the company’s zone',
      examples: [2024],
      error: rules.year,
    }),
  ),
})
export type CalendarYearQuery = typeof CalendarYearQuery.static

export const CompanyParams = t.Object({ id: PositiveInt('id') })
export const DayParams = t.Object({ id: PositiveInt('id'), date: DayDate('date') })

const dayFields = { kind: Kind, name: Text(100), statutory: t.Optional(t.Boolean({ description: STATUTORY })) }

export const PutDayBody = t.Object(dayFields, { examples: [{ kind: 'holiday', name: 'National Day', statutory: true }] })
export type PutDayInput = typeof PutDayBody.static

export const ImportBody = t.Object(
  {
    days: t.Array(t.Object({ date: DayDate('date'), ...dayFields }), {
      minItems: 1,
      maxItems: MAX_IMPORT_DAYS,
      description: `1 to ${MAX_IMPORT_DAYS} days, each date once; a date the company already has is replaced`,
      error: rules.days(MAX_IMPORT_DAYS),
    }),
  },
  {
    examples: [
      {
        days: [
          { date: '2024-10-01', kind: 'holiday', name: 'National Day', statutory: true },
          { date: '2024-10-02', kind: 'holiday', name: 'National Day', statutory: true },
          { date: '2024-10-12', kind: 'workday', name: 'National Day make-up day' },
        ],
      },
    ],
  },
)
export type ImportInput = typeof ImportBody.static

export const ImportResult = t.Object({ imported: t.Integer({ description: 'days created or replaced' }) })

/** A day of a preset: what the import takes, with `statutory` always given. */
const PresetDay = t.Object({ date: t.String({ description: 'YYYY-MM-DD' }), kind: t.Union([t.Literal('holiday'), t.Literal('workday')]), name: t.String(), statutory: t.Boolean() })

export const CalendarPreset = t.Object({
  id: t.String({ description: 'what POST …/calendar/apply-preset takes as `preset_id`', examples: ['cn-2026'] }),
  country: t.String({ description: 'ISO 3166-1 alpha-2', examples: ['CN'] }),
  year: t.Integer(),
  source: t.Object(
    {
      title: t.String(),
      number: t.String({ description: 'the document number' }),
      published: t.String({ description: 'YYYY-MM-DD' }),
      url: t.String(),
    },
    { description: 'the official notice the days are copied from' },
  ),
  days: t.Array(PresetDay, { description: 'sorted by date: every day off and every make-up workday of the notice' }),
})
export type CalendarPreset = typeof CalendarPreset.static

export const PresetList = t.Object({ presets: t.Array(CalendarPreset, { description: 'by id' }) })

export const ApplyPresetBody = t.Object(
  { preset_id: t.String({ minLength: 1, maxLength: 64, description: 'the `id` of a preset from GET /api/v1/admin/calendar-presets' }) },
  { examples: [{ preset_id: 'cn-2026' }] },
)
export type ApplyPresetInput = typeof ApplyPresetBody.static

export const MonthQuery = t.Object({
  month: t.Optional(
    t.String({
      pattern: '^\\d{4}-(0[1-9]|1[0-2])$',
      description: 'YYYY-MM; left out: the current month in your group’s zone',
      examples: ['2024-10'],
      error: rules.month,
    }),
  ),
})
export type MonthQuery = typeof MonthQuery.static

const DayRecord = t.Object({
  id: t.Integer(),
  status: t.Integer({ description: '0 normal, 1 late, 2 early leave, 3 absent, 4 exception' }),
  status_text: t.String(),
  clock_in_time: t.Nullable(Timestamp),
  clock_out_time: t.Nullable(Timestamp),
  work_hours: t.Number(),
})

/** Filled by the leave module (CONTRACT §9): approved leave of days on the date. */
const DayLeave = t.Object(
  {
    request_id: t.Integer(),
    type_name: t.String(),
    half_day: t.Union([t.Literal('am'), t.Literal('pm'), t.Null()]),
  },
  { description: 'approved leave of a whole or half day; hourly leave is in leave_hours' },
)

/** Approved hourly leave on the date (CONTRACT §18). */
const DayLeaveHours = t.Object({
  request_id: t.Integer(),
  type_name: t.String(),
  start_time: t.String({ description: 'HH:MM, local' }),
  end_time: t.String({ description: 'HH:MM, local' }),
  hours: t.Number({ description: 'the work time the span covers without breaks, in hours to the hundredth' }),
})

export const MonthDay = t.Object({
  date: t.String({ description: 'YYYY-MM-DD' }),
  weekday: t.Integer({ minimum: 1, maximum: 7, description: '1 = Monday … 7 = Sunday' }),
  work_day: t.Boolean({ description: 'a work day under the rule that applies on it and the company calendar' }),
  holiday_name: t.Nullable(t.String({ description: 'the name of the company’s holiday on this date' })),
  record: t.Nullable(DayRecord),
  leave: t.Nullable(DayLeave),
  leave_hours: t.Array(DayLeaveHours, { description: 'approved hourly leave on the date, earliest first; [] when none (extension, CONTRACT §18)' }),
})
export type MonthDayResponse = typeof MonthDay.static

export const MonthCalendar = t.Object({ month: t.String({ description: 'YYYY-MM' }), days: t.Array(MonthDay) })
export type MonthCalendarResponse = typeof MonthCalendar.static
