import type { Locale } from '../../config'
import type { Database } from '../../db/client'
import { ConflictError, NotFoundError, ValidationError } from '../../http/errors'
import { pageWindow, p2Pagination } from '../../http/pagination'
import type { Clock } from '../../lib/clock'
import { addDays, localDate, weekday } from '../../lib/local-time'
import { onConstraint } from '../../lib/sqlite-errors'
import { statusText } from '../../lib/status-text'
import type { Principal } from '../rbac/access'
import type {
  AdminRecordQuery,
  AttemptQuery,
  AttendanceRecordResponse,
  ClockInput,
  OwnRecordQuery,
  StatisticsQuery,
  StatisticsResponse,
  SummaryResponse,
} from './model'
import { evaluateClockIn, evaluateClockOut, isOvernight, workDateOf } from './policy'
import { judgePosition } from './geofence'
import { checkDate, checkRange, hoursOfRecord, policyOf, ruleFor, toAttemptResponse, toRecordResponse } from './records'
import { callerContext, requireRule, todayWorkDate, type CallerContext } from './caller'
import * as repo from './repository'
import type { RuleResponse } from './setup-model'
import * as setup from './setup-repository'
import { toRuleResponse } from './setup-shapes'
import { computeStatistics } from './statistics'

type Kind = 'clock_in' | 'clock_out'

export interface AttendanceDeps {
  database: Database
  clock: Clock
  defaultZone: string
  ruleCache: setup.RuleCache
}

export function createAttendanceService({ database, clock, defaultZone, ruleCache }: AttendanceDeps) {
  const { db } = database

  const contextOf = callerContext({ db, defaultZone, ruleCache })

  /** Refuses a position outside the rule's area (or none where one is needed), keeping the attempt for administrators. */
  const checkPosition = async (context: CallerContext, rule: setup.RuleRow, input: ClockInput, kind: Kind, now: Date) => {
    const verdict = judgePosition(rule, input, kind === 'clock_in' ? 'clock in' : 'clock out')
    if (verdict.allowed) return
    await database.write((tx) =>
      repo.insertAttempt(tx, {
        employeeId: context.employeeId,
        ruleId: rule.id,
        kind,
        latitude: verdict.position?.latitude ?? null,
        longitude: verdict.position?.longitude ?? null,
        distance: verdict.distance,
        radius: rule.locationRadius,
        attemptedAt: now,
      }),
    )
    throw new ValidationError(verdict.message)
  }

  const statisticsOf = async (context: CallerContext, start: string, end: string): Promise<StatisticsResponse> => {
    const today = localDate(clock.now(), context.zone)
    const rule = ruleFor(context.rules, today)
    const workDays = rule ? policyOf(rule).workDays : []
    // days before the employee was hired cannot be missed
    const since = context.hireDate && context.hireDate > start ? context.hireDate : start
    const totals = await repo.monthlyTotals(db, context.employeeId, start, end, since, today, workDays)
    return computeStatistics({ start, end, today, since, workDays, allowedLateDays: rule?.allowedLateDays ?? 0, totals })
  }

  /** The record with its employee and rule; the rule comes from the caller's context when it is one of theirs. */
  const fullRecord = async (row: repo.RecordWithEmployee, locale: Locale, context?: CallerContext) => {
    const group = context?.group
    const known = group ? context.rules.find((rule) => rule.id === row.ruleId) : undefined
    const rule =
      known && group ? { rule: known, groupName: group.group.name } : row.ruleId === null ? null : await setup.findRule(db, row.ruleId)
    return toRecordResponse(row, locale, rule ? toRuleResponse(rule, locale) : null)
  }

  return {
    async clockIn(principal: Principal, input: ClockInput, locale: Locale) {
      const now = clock.now()
      const context = await contextOf(principal)
      const rule = requireRule(context, now)
      await checkPosition(context, rule, input, 'clock_in', now)
      const outcome = evaluateClockIn(policyOf(rule), context.zone, now)
      const record = await onConstraint(
        () =>
          // one statement is its own transaction: no BEGIN and COMMIT around it
          database.exclusive(() =>
            repo.insertClockIn(db, {
              employeeId: context.employeeId,
              ruleId: rule.id,
              workDate: outcome.workDate,
              timezone: context.zone,
              clockInTime: now,
              clockInLat: input.latitude ?? null,
              clockInLng: input.longitude ?? null,
              status: outcome.status,
              lateMinutes: outcome.lateMinutes,
              note: input.note?.trim() ?? '',
              createdAt: now,
              updatedAt: now,
            }),
          ),
        { unique: () => new ConflictError(`You have already clocked in for ${outcome.workDate}`) },
      )
      const message = !outcome.isWorkDay
        ? 'Clocked in on a day off'
        : outcome.status === 1
          ? `Clocked in ${outcome.lateMinutes} minutes late`
          : 'Clocked in on time'
      return {
        attendance_id: record.id,
        work_date: record.workDate,
        clock_in_time: now.toISOString(),
        status: record.status,
        status_text: statusText('attendance', record.status, locale),
        late_minutes: record.lateMinutes,
        message,
      }
    },

    async clockOut(principal: Principal, input: ClockInput, locale: Locale) {
      const now = clock.now()
      const context = await contextOf(principal)
      const current = requireRule(context, now)
      await checkPosition(context, current, input, 'clock_out', now)

      // the shift being closed: today's, or for an overnight rule the one that began yesterday
      const workDate = workDateOf(policyOf(current), context.zone, now)
      const dates = isOvernight(policyOf(current)) ? [workDate, addDays(localDate(now, context.zone), -1)] : [workDate]
      const candidates = (await Promise.all([...new Set(dates)].map((date) => repo.findRecordOn(db, context.employeeId, date)))).filter(
        (row): row is repo.RecordWithEmployee => row !== null,
      )
      const open = candidates.find((row) => row.clockInTime !== null && row.clockOutTime === null && row.status !== 4)
      if (!open) {
        const done = candidates.find((row) => row.clockOutTime !== null)
        if (done) throw new ConflictError(`You have already clocked out for ${done.workDate}`)
        const closed = candidates.find((row) => row.clockInTime !== null)
        if (closed)
          throw new ConflictError(
            `Your work day ${closed.workDate} was closed without a clock-out (status exception); ask an administrator`,
          )
        throw new ValidationError(`You have not clocked in for ${workDate}; clock in first`)
      }
      // the rule the record was clocked in under: usually still among the enabled ones
      const recordRule =
        context.rules.find((rule) => rule.id === open.ruleId) ??
        (open.ruleId === null ? null : (await setup.findRule(db, open.ruleId))?.rule) ??
        current
      const outcome = evaluateClockOut(policyOf(recordRule), open.timezone, open.workDate, open.clockInTime!, now, open.lateMinutes)
      const note = input.note?.trim()
      const closedNow = await database.write((tx) =>
        repo.closeRecord(tx, open.id, {
          clockOutTime: now,
          clockOutLat: input.latitude ?? null,
          clockOutLng: input.longitude ?? null,
          status: outcome.status,
          workMinutes: outcome.workMinutes,
          earlyMinutes: outcome.earlyMinutes,
          note: note ? (open.note ? `${open.note}\n${note}` : note) : open.note,
          updatedAt: now,
        }),
      )
      if (!closedNow) throw new ConflictError(`You have already clocked out for ${open.workDate}`)
      const message =
        outcome.status === 2
          ? `Clocked out ${outcome.earlyMinutes} minutes early`
          : outcome.status === 4
            ? `Clocked out after ${outcome.workHours} hours, short of the required ${recordRule.requiredWorkHours}`
            : 'Clocked out'
      return {
        attendance_id: open.id,
        work_date: open.workDate,
        clock_out_time: now.toISOString(),
        status: outcome.status,
        status_text: statusText('attendance', outcome.status, locale),
        work_hours: outcome.workHours,
        early_minutes: outcome.earlyMinutes,
        message,
      }
    },

    /** The caller's record for today's work date, with employee and rule; null when there is none. */
    async today(principal: Principal, locale: Locale): Promise<AttendanceRecordResponse | null> {
      const context = await contextOf(principal)
      const row = await repo.findRecordOn(db, context.employeeId, todayWorkDate(context, clock.now()))
      return row ? fullRecord(row, locale, context) : null
    },

    async ownRecords(principal: Principal, query: OwnRecordQuery, locale: Locale) {
      const context = await contextOf(principal)
      return listRecords({ ...query, employee_id: context.employeeId }, locale)
    },

    async statistics(principal: Principal, query: StatisticsQuery): Promise<StatisticsResponse> {
      checkRange(query.start_date, query.end_date)
      return statisticsOf(await contextOf(principal), query.start_date, query.end_date)
    },

    async summary(principal: Principal, locale: Locale): Promise<SummaryResponse> {
      const context = await contextOf(principal)
      const now = clock.now()
      const today = localDate(now, context.zone)
      const monday = addDays(today, 1 - weekday(today))
      const first = `${today.slice(0, 8)}01`
      const [todayRow, week, month, recent] = await Promise.all([
        repo.findRecordOn(db, context.employeeId, todayWorkDate(context, now)),
        statisticsOf(context, monday, today),
        statisticsOf(context, first, today),
        repo.recentRecords(db, context.employeeId, 7),
      ])
      const brief = (row: repo.RecordRow) => ({
        id: row.id,
        work_date: row.workDate,
        status: row.status,
        status_text: statusText('attendance', row.status, locale),
        work_hours: hoursOfRecord(row),
      })
      return {
        today: todayRow
          ? {
              ...brief(todayRow),
              clock_in_time: todayRow.clockInTime?.toISOString() ?? null,
              clock_out_time: todayRow.clockOutTime?.toISOString() ?? null,
            }
          : null,
        this_week: week,
        this_month: month,
        recent: recent.map(brief),
      }
    },

    async rule(principal: Principal, locale: Locale): Promise<RuleResponse> {
      const context = await contextOf(principal)
      const rule = ruleFor(context.rules, localDate(clock.now(), context.zone))
      if (!rule)
        throw new NotFoundError(
          context.group ? `Your attendance group "${context.group.group.name}" has no enabled rule` : 'You are not in an attendance group',
        )
      return toRuleResponse((await setup.findRule(db, rule.id))!, locale)
    },

    adminRecords: (query: AdminRecordQuery, locale: Locale) => listRecords(query, locale),

    /** Refused clock attempts, newest first; dates are UTC days. */
    async attempts(query: AttemptQuery) {
      checkDate('start_date', query.start_date)
      checkDate('end_date', query.end_date)
      if (query.start_date && query.end_date) checkRange(query.start_date, query.end_date, Infinity)
      const window = pageWindow(query, 10)
      const { rows, total } = await repo.listAttempts(
        db,
        {
          employeeId: query.employee_id,
          from: query.start_date ? new Date(`${query.start_date}T00:00:00Z`) : undefined,
          // a day later by the millisecond: addDays cannot write the day after 9999-12-31
          until: query.end_date ? new Date(Date.parse(`${query.end_date}T00:00:00Z`) + 86_400_000) : undefined,
        },
        window,
      )
      return {
        attempts: rows.map(toAttemptResponse),
        pagination: p2Pagination(total, window),
      }
    },

    async adminRecord(id: number, locale: Locale): Promise<AttendanceRecordResponse> {
      const row = await repo.findRecord(db, id)
      if (!row) throw new NotFoundError(`Attendance record ${id} does not exist`)
      return fullRecord(row, locale)
    },
  }

  async function listRecords(query: AdminRecordQuery, locale: Locale) {
    if (query.start_date && query.end_date) checkRange(query.start_date, query.end_date, Infinity)
    const window = pageWindow(query, 10)
    const { rows, total } = await repo.listRecords(
      db,
      {
        employeeId: query.employee_id,
        groupId: query.group_id,
        startDate: query.start_date,
        endDate: query.end_date,
        status: query.status,
      },
      window,
    )
    return { records: rows.map((row) => toRecordResponse(row, locale)), pagination: p2Pagination(total, window) }
  }
}

export type AttendanceService = ReturnType<typeof createAttendanceService>
