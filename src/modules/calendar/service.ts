import type { Locale } from '../../config'
import type { Database, Queryable } from '../../db/client'
import { type FieldError, NotFoundError, problemsMessage, ValidationError } from '../../http/errors'
import type { Clock } from '../../lib/clock'
import { isCalendarDate } from '../../lib/dates'
import { addDays, localDate, weekday } from '../../lib/local-time'
import { say as inputSay } from '../../lib/input-messages'
import { statusText } from '../../lib/status-text'
import { requiredText } from '../../lib/text'
import { recordAudit, type Actor } from '../audit/recorder'
import { callerContext, companyOf } from '../attendance/caller'
import { hoursOf, isWorkDay } from '../attendance/policy'
import { policyOf, ruleFor } from '../attendance/records'
import type { RuleCache } from '../attendance/setup/repository'
import { findCompany } from '../companies/repository'
import type { Principal } from '../rbac/access'
import { say as common } from '../../http/messages'
import { say } from './messages'
import type {
  ApplyPresetInput,
  CalendarDayResponse,
  CalendarYearQuery,
  CalendarYearResponse,
  ImportInput,
  MonthCalendarResponse,
  MonthDayResponse,
  MonthQuery,
  PutDayInput,
} from './model'
import { PRESETS, presetById } from './presets'
import * as repo from './repository'
import type { DayKind } from './work-days'

export interface CalendarDeps {
  database: Database
  clock: Clock
  defaultZone: string
  ruleCache: RuleCache
}

export function toDayResponse(row: repo.CalendarDayRow): CalendarDayResponse {
  return {
    company_id: row.companyId,
    date: row.date,
    kind: row.kind,
    name: row.name,
    statutory: row.statutory,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  }
}

/** A date with the YYYY-MM-DD shape that is no real day (2024-02-30) → 400 naming the field. */
function realDate(field: string, value: string): string {
  if (!isCalendarDate(value)) throw new ValidationError(common.notRealDateOf({ field, value }), [{ field, message: common.notRealDate({ value }) }])
  return value
}

/** `statutory` is for holidays only (the database's CHECK says so too): a workday with `true` is a 400 naming the field. */
const statutoryProblem = (field: string, day: { kind: DayKind; statutory?: boolean }): FieldError | null =>
  day.statutory === true && day.kind !== 'holiday' ? { field, message: say.statutoryOnlyHoliday() } : null

/** The days of an import, checked: every date real and given once, every name not blank, `statutory` on holidays only. */
function checkedDays(input: ImportInput['days']) {
  const problems: FieldError[] = []
  const seen = new Map<string, number>()
  const days = input.map((day, index) => {
    if (!isCalendarDate(day.date)) problems.push({ field: `days[${index}].date`, message: common.notRealDate({ value: day.date }) })
    else if (seen.has(day.date)) problems.push({ field: `days[${index}].date`, message: say.givenTwice({ date: day.date, index: seen.get(day.date)! }) })
    seen.set(day.date, seen.get(day.date) ?? index)
    const name = day.name.trim()
    if (name === '') problems.push({ field: `days[${index}].name`, message: inputSay.notBlank() })
    const statutory = statutoryProblem(`days[${index}].statutory`, day)
    if (statutory) problems.push(statutory)
    return { date: day.date, kind: day.kind, name, statutory: day.statutory ?? false }
  })
  if (problems.length > 0) throw new ValidationError(say.nothingImported({ problems: problemsMessage(problems) }), problems)
  return days
}

/** A date's approved leave in the month calendar: of days (CONTRACT §9), and of hours (§18). */
export type LeaveOfDate = Pick<MonthDayResponse, 'leave' | 'leave_hours'>

/**
 * What leave requests make of the dates in the month calendar, by date (a date without leave may
 * be missing). The leave module answers this; without it no date has leave.
 */
export type LeaveOfDates = (employeeId: number, start: string, end: string) => Promise<Map<string, LeaveOfDate>>
const NO_LEAVE: LeaveOfDates = async () => new Map()

/** What the leave module does when the calendar changes on `dates` (CONTRACT §18: leave over them is recounted), in the change's transaction. */
export type RecountLeave = (tx: Queryable, companyId: number, dates: readonly string[], actor: Actor, now: Date) => Promise<void>
const NO_RECOUNT: RecountLeave = async () => {}

export function createCalendarService(
  { database, clock, defaultZone, ruleCache }: CalendarDeps,
  leaveOf: LeaveOfDates = NO_LEAVE,
  recountLeave: RecountLeave = NO_RECOUNT,
) {
  const { db } = database
  const contextOf = callerContext({ db, defaultZone, ruleCache })

  const companyOrThrow = async (tx: Queryable, id: number) => {
    const company = await findCompany(tx, id)
    if (!company) throw new NotFoundError(say.noCompany({ id }))
    return company
  }

  /**
   * What a change of the company's calendar on `dates` does to days already past: the
   * absent records of its groups on the dates now holidays go, and its groups' day-close
   * marks on every changed date are forgotten, so the next day close (or close-day) judges
   * those dates again under the calendar; pending and approved leave over them is recounted
   * (each with an audit entry of its own). Returns the deleted records, for the change's one
   * audit entry.
   */
  const applyToPast = async (tx: Queryable, companyId: number, changed: { date: string; kind: DayKind | null }[], actor: Actor, now: Date) => {
    await recountLeave(
      tx,
      companyId,
      changed.map((day) => day.date),
      actor,
      now,
    )
    const holidays = changed.filter((day) => day.kind === 'holiday').map((day) => day.date)
    const removed = await repo.deleteAbsences(tx, companyId, holidays)
    await repo.reopenClosedDays(
      tx,
      companyId,
      changed.map((day) => day.date),
    )
    return removed.map((row) => ({ id: row.id, employee_id: row.employeeId, work_date: row.workDate, group_id: row.groupId, rule_id: row.ruleId }))
  }
  /** The audit entry's `after`: what the change made, with the absent records it deleted, if any. */
  const withDeleted = <T extends object>(after: T, deleted: Awaited<ReturnType<typeof applyToPast>>) =>
    deleted.length > 0 ? { ...after, deleted_absent_records: deleted } : after

  /**
   * Creates or replaces `days` (checked) in one transaction: the past dates' absences and
   * day-close marks as `applyToPast` says, and one audit entry naming the days before and after.
   */
  const importDays = async (
    companyId: number,
    days: ReturnType<typeof checkedDays>,
    actor: Actor,
    audit: { action: 'calendar.import' | 'calendar.apply_preset'; preset?: string },
  ): Promise<{ imported: number }> => {
    const now = clock.now()
    return database.write(async (tx) => {
      await companyOrThrow(tx, companyId)
      const dates = new Set(days.map((day) => day.date))
      const sorted = [...dates].sort()
      const before = await repo.daysBetween(tx, companyId, sorted[0], sorted[sorted.length - 1])
      const rows = await repo.upsertDays(
        tx,
        days.map((day) => ({ companyId, ...day, createdAt: now, updatedAt: now })),
      )
      const deleted = await applyToPast(tx, companyId, days, actor, now)
      const after = { days: rows.map(toDayResponse).sort((a, b) => a.date.localeCompare(b.date)) }
      await recordAudit(tx, actor, now, {
        action: audit.action,
        resource: 'company_calendar',
        resourceId: companyId,
        before: { days: before.filter((row) => dates.has(row.date)).map(toDayResponse) },
        after: withDeleted(audit.preset === undefined ? after : { preset_id: audit.preset, ...after }, deleted),
      })
      return { imported: rows.length }
    })
  }

  return {
    async list(companyId: number, query: CalendarYearQuery): Promise<CalendarYearResponse> {
      const company = await companyOrThrow(db, companyId)
      const year = query.year === undefined ? localDate(clock.now(), company.timezone ?? defaultZone).slice(0, 4) : String(query.year).padStart(4, '0')
      const rows = await repo.daysBetween(db, companyId, `${year}-01-01`, `${year}-12-31`)
      return { days: rows.map(toDayResponse) }
    },

    /** Creates or replaces the day; `created` tells which. */
    async put(companyId: number, date: string, input: PutDayInput, actor: Actor): Promise<{ day: CalendarDayResponse; created: boolean }> {
      realDate('date', date)
      const name = requiredText(input.name, 'name')
      const statutory = statutoryProblem('statutory', input)
      if (statutory) throw ValidationError.of([statutory])
      const now = clock.now()
      return database.write(async (tx) => {
        await companyOrThrow(tx, companyId)
        const before = await repo.findDay(tx, companyId, date)
        const [row] = await repo.upsertDays(tx, [{ companyId, date, kind: input.kind, name, statutory: input.statutory ?? false, createdAt: now, updatedAt: now }])
        const day = toDayResponse(row)
        const deleted = await applyToPast(tx, companyId, [{ date, kind: input.kind }], actor, now)
        await recordAudit(tx, actor, now, {
          action: before ? 'calendar_day.update' : 'calendar_day.create',
          resource: 'calendar_day',
          resourceId: `${companyId}/${date}`,
          before: before ? toDayResponse(before) : undefined,
          after: withDeleted(day, deleted),
        })
        return { day, created: !before }
      })
    },

    async remove(companyId: number, date: string, actor: Actor): Promise<void> {
      realDate('date', date)
      const now = clock.now()
      await database.write(async (tx) => {
        await companyOrThrow(tx, companyId)
        const before = await repo.findDay(tx, companyId, date)
        if (!before || !(await repo.deleteDay(tx, companyId, date)))
          throw new NotFoundError(say.noDay({ id: companyId, date }))
        await applyToPast(tx, companyId, [{ date, kind: null }], actor, now)
        await recordAudit(tx, actor, now, {
          action: 'calendar_day.delete',
          resource: 'calendar_day',
          resourceId: `${companyId}/${date}`,
          before: toDayResponse(before),
        })
      })
    },

    /** All the days or none (`checkedDays`); existing dates are replaced. */
    async import(companyId: number, input: ImportInput, actor: Actor): Promise<{ imported: number }> {
      return importDays(companyId, checkedDays(input.days), actor, { action: 'calendar.import' })
    },

    /** The presets shipped with the release (CONTRACT §24). */
    presets: () => ({ presets: [...PRESETS] }),

    /** A preset's days imported as `import` does, in one transaction with one audit entry; an unknown id → 404. */
    async applyPreset(companyId: number, input: ApplyPresetInput, actor: Actor): Promise<{ imported: number }> {
      const preset = presetById(input.preset_id)
      if (!preset) throw new NotFoundError(say.noPreset({ id: input.preset_id }))
      return importDays(companyId, checkedDays(preset.days), actor, { action: 'calendar.apply_preset', preset: preset.id })
    },

    /**
     * The caller's month, date by date: whether it is a work day for them (the rule that
     * applies on it, their group's company calendar and their attendance start, as clock-in,
     * day close and statistics judge it), the holiday's name, their record and their leave.
     */
    async month(principal: Principal, query: MonthQuery, locale: Locale): Promise<MonthCalendarResponse> {
      const context = await contextOf(principal)
      const month = query.month ?? localDate(clock.now(), context.zone).slice(0, 7)
      const first = realDate('month', `${month}-01`)
      const [year, monthNumber] = month.split('-').map(Number)
      const last = `${month}-${String(new Date(Date.UTC(year, monthNumber, 0)).getUTCDate()).padStart(2, '0')}`
      const [calendar, records, leave] = await Promise.all([
        repo.calendarBetween(db, companyOf(context), first, last),
        repo.recordsBetween(db, context.employeeId, first, last),
        leaveOf(context.employeeId, first, last),
      ])
      const byDate = new Map(records.map((row) => [row.workDate, row]))
      const days: MonthDayResponse[] = []
      for (let date = first; ; date = addDays(date, 1)) {
        const marked = calendar.get(date)
        const rule = ruleFor(context.rules, date)
        const record = byDate.get(date)
        days.push({
          date,
          weekday: weekday(date),
          // nor after the last day employed (CONTRACT §18 left_on)
          work_day: rule !== null && isWorkDay(policyOf(rule), date, marked?.kind ?? null, context.attendanceFrom) && (context.attendanceUntil === null || date <= context.attendanceUntil),
          holiday_name: marked?.kind === 'holiday' ? marked.name : null,
          record: record
            ? {
                id: record.id,
                status: record.status,
                status_text: statusText('attendance', record.status, locale),
                clock_in_time: record.clockInTime?.toISOString() ?? null,
                clock_out_time: record.clockOutTime?.toISOString() ?? null,
                work_hours: hoursOf(record.workMinutes),
              }
            : null,
          leave: leave.get(date)?.leave ?? null,
          leave_hours: leave.get(date)?.leave_hours ?? [],
        })
        if (date === last) break
      }
      return { month, days }
    },
  }
}

export type CalendarService = ReturnType<typeof createCalendarService>
