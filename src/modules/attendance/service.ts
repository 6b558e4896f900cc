import type { Locale } from '../../config'
import type { Database } from '../../db/client'
import { ConflictError, NotFoundError, TooManyRequestsError, ValidationError } from '../../http/errors'
import { pageWindow, p2Pagination } from '../../http/pagination'
import type { Clock } from '../../lib/clock'
import { addDays, localDate, weekday } from '../../lib/local-time'
import { onConstraint } from '../../lib/sqlite-errors'
import { render } from '../../lib/messages'
import { statusText } from '../../lib/status-text'
import type { Principal } from '../rbac/access'
import type {
  AdminRecordQuery,
  AttemptQuery,
  AttendanceRecordResponse,
  ClockInput,
  OwnRecordQuery,
  StatisticsQuery,
  SummaryResponse,
} from './model'
import { closesAt, judgeClockIn, judgeClockOut } from './policy'
import { judgePosition, type Fence } from './geofence'
import { say } from './messages'
import {
  checkDate,
  checkRange,
  hoursOfRecord,
  policyOf,
  shiftColumns,
  shiftNow,
  shiftOfDay,
  shiftOfRecord,
  weekdayRules,
  toAttemptResponse,
  toRecordResponse,
} from './records'
import { callerContext, companyOf, requireActive, requireShift, ruleOfRecord, todayWorkDate, type CallerContext } from './caller'
import * as repo from './repository'
import type { RuleResponse } from './setup/model'
import * as setup from './setup/repository'
import { toRuleResponse } from './setup/shapes'
import { computeStatistics, type StatisticsResult } from './statistics'
import { calendarBetween, kindOn } from '../calendar/repository'
import { countedFrom, countedUntil } from '../calendar/work-days'
import { leaveInRange, timeOffNow } from '../leave/repository'

type Kind = 'clock_in' | 'clock_out'

/**
 * Refused clock attempts kept per employee: at most ATTEMPT_MAX in any ATTEMPT_WINDOW_MS. Beyond,
 * a refusal is a 429 and stores nothing, so one account cannot fill the table; a position inside
 * the area is never refused for this.
 */
export const ATTEMPT_MAX = 10
export const ATTEMPT_WINDOW_MS = 10 * 60_000

const NO_FENCE: Fence = { locationRequired: false, allowedLatitude: null, allowedLongitude: null, locationRadius: 0 }

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
  const checkPosition = async (context: CallerContext, rule: (Fence & { id: number }) | null, input: ClockInput, kind: Kind, now: Date) => {
    const verdict = judgePosition(rule ?? NO_FENCE, input, kind)
    if (verdict.allowed || !rule) return
    const since = new Date(now.getTime() - ATTEMPT_WINDOW_MS)
    const kept = await database.write((tx) =>
      repo.keepAttempt(
        tx,
        {
          employeeId: context.employeeId,
          ruleId: rule.id,
          kind,
          latitude: verdict.position?.latitude ?? null,
          longitude: verdict.position?.longitude ?? null,
          distance: verdict.distance,
          radius: rule.locationRadius,
          attemptedAt: now,
        },
        since,
        ATTEMPT_MAX,
      ),
    )
    if (kept) throw new ValidationError(verdict.message)
    const oldest = await repo.oldestAttemptSince(db, context.employeeId, since)
    const seconds = oldest ? Math.max(1, Math.ceil((oldest.getTime() + ATTEMPT_WINDOW_MS - now.getTime()) / 1000)) : 1
    throw new TooManyRequestsError(
      say.tooManyAttempts({ refusal: verdict.message, max: ATTEMPT_MAX, minutes: ATTEMPT_WINDOW_MS / 60_000, wait: Math.ceil(seconds / 60) }),
      seconds,
    )
  }

  const statisticsOf = async (context: CallerContext, start: string, end: string): Promise<StatisticsResult> => {
    // dates before the one a clock-in now gets are past: those of the work days with no record were missed
    const today = todayWorkDate(context, clock.now())
    // dates before the employee's attendance start (hire date, the company's go-live) are neither work days nor missed
    const since = countedFrom(start, context.attendanceFrom)
    // nor are the dates after their last day employed (CONTRACT §18 left_on), its records included
    const until = countedUntil(end, context.attendanceUntil)
    const company = companyOf(context)
    const [totals, calendar, leave] = await Promise.all([
      repo.dayTotals(db, context.employeeId, start, until, since, today, company),
      calendarBetween(db, company, start, end),
      leaveInRange(db, context.employeeId, start, until),
    ])
    return computeStatistics({
      start,
      end,
      today,
      since,
      until,
      weekdays: weekdayRules(context.rules),
      totals,
      calendar,
      leave: leave.dates,
      hourlyLeave: leave.hours,
    })
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
      requireActive(context)
      const { rule, workDate } = requireShift(context, now)
      await checkPosition(context, rule, input, 'clock_in', now)
      // a holiday of the group's company is a day off; a make-up workday is a work day; half a day or hours of approved leave move the start or end
      const [kind, off] = await Promise.all([kindOn(db, companyOf(context), workDate), timeOffNow(db, context.employeeId, workDate)])
      const shift = shiftOfDay(rule, context.zone, workDate, kind, context.attendanceFrom, off)
      const outcome = judgeClockIn(shift, now)
      const record = await onConstraint(
        () =>
          // one statement is its own transaction: no BEGIN and COMMIT around it
          database.exclusive(() =>
            repo.insertClockIn(db, {
              employeeId: context.employeeId,
              ruleId: rule.id,
              groupId: rule.groupId,
              workDate,
              timezone: context.zone,
              ...shiftColumns(shift),
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
        { unique: () => new ConflictError(say.alreadyClockedIn({ date: workDate })) },
      )
      if (!record) {
        const other = await repo.refusingRecord(db, context.employeeId, workDate, now)
        throw new ConflictError(
          other && other.workDate < workDate
            ? say.stillClockedIn({ date: other.workDate })
            : say.alreadyClockedIn({ date: other?.workDate ?? workDate }),
        )
      }
      const message = !shift.workDay
        ? say.clockedInOffDay()
        : outcome.status === 1
          ? say.clockedInLate({ minutes: outcome.lateMinutes })
          : say.clockedInOnTime()
      return {
        attendance_id: record.id,
        work_date: record.workDate,
        clock_in_time: now.toISOString(),
        status: record.status,
        status_text: statusText('attendance', record.status, locale),
        late_minutes: record.lateMinutes,
        message: render(message, locale),
      }
    },

    /**
     * Closes the caller's open record, found by record: judged under the shift and zone it
     * was opened with, whatever group, zone or rule the caller has now.
     */
    async clockOut(principal: Principal, input: ClockInput, locale: Locale) {
      const now = clock.now()
      const context = await contextOf(principal)
      requireActive(context)
      const open = await repo.latestClockIn(db, context.employeeId)
      if (!open || open.clockOutTime || open.status === 4) throw noOpenRecord(context, open, now)
      // the record's own rule, for its area (and, on a record from before records kept their shift, its terms)
      const rule = await ruleOfRecord(db, context, open.ruleId)
      // a record whose rule is gone is clocked out in the area of the rule the caller has now, if any
      await checkPosition(context, rule ?? shiftNow(context.rules, context.zone, now)?.rule ?? null, input, 'clock_out', now)
      const shift = shiftOfRecord(open, rule)
      const outcome = judgeClockOut(shift, open.clockInTime!, now, open.lateMinutes)
      const note = input.note?.trim()
      const closedNow = await database.write((tx) =>
        repo.closeRecord(tx, open.id, {
          clockOutTime: now,
          clockOutLat: input.latitude ?? null,
          clockOutLng: input.longitude ?? null,
          status: outcome.status,
          workMinutes: outcome.workMinutes,
          earlyMinutes: outcome.earlyMinutes,
          overtimeMinutes: outcome.overtimeMinutes,
          note: note ? (open.note ? `${open.note}\n${note}` : note) : open.note,
          updatedAt: now,
        }),
      )
      if (!closedNow) throw new ConflictError(say.alreadyClockedOut({ date: open.workDate }))
      const message =
        outcome.status === 2
          ? say.clockedOutEarly({ minutes: outcome.earlyMinutes })
          : outcome.status === 4
            ? say.clockedOutShort({ hours: outcome.workHours, required: shift.requiredWorkHours })
            : say.clockedOutDone()
      return {
        attendance_id: open.id,
        work_date: open.workDate,
        clock_out_time: now.toISOString(),
        status: outcome.status,
        status_text: statusText('attendance', outcome.status, locale),
        work_hours: outcome.workHours,
        early_minutes: outcome.earlyMinutes,
        overtime_minutes: outcome.overtimeMinutes,
        message: render(message, locale),
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

    async statistics(principal: Principal, query: StatisticsQuery): Promise<StatisticsResult> {
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
      const rule = shiftNow(context.rules, context.zone, clock.now())?.rule
      if (!rule)
        throw new NotFoundError(
          context.group ? say.groupWithoutRule({ group: context.group.group.name }) : say.notInGroup(),
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
      if (!row) throw new NotFoundError(say.recordMissing({ id }))
      return fullRecord(row, locale)
    },
  }

  /**
   * Why a clock-out found no open record: the caller's last clock-in, until day close would
   * close it, was clocked out (409) or closed by day close (409); else nothing to close
   * (400, or the reason the caller cannot clock at all).
   */
  function noOpenRecord(context: CallerContext, last: repo.RecordRow | null, now: Date): Error {
    if (last && now < closesAt(shiftOfRecord(last, null).end, last.timezone)) {
      if (last.clockOutTime) return new ConflictError(say.alreadyClockedOut({ date: last.workDate }))
      return new ConflictError(say.closedWithoutClockOut({ date: last.workDate }))
    }
    const { workDate } = requireShift(context, now)
    return new ValidationError(say.notClockedIn({ date: workDate }))
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
