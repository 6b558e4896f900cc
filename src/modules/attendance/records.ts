import type { Locale } from '../../config'
import { ValidationError, type FieldError } from '../../http/errors'
import { isCalendarDate } from '../../lib/dates'
import { addDays, daysBetween, instantAt, parseHHMM } from '../../lib/local-time'
import { statusText } from '../../lib/status-text'
import type { AttendanceRecordResponse } from './model'
import { say as common } from '../../http/messages'
import { say } from './messages'
import type { DayKind } from '../calendar/work-days'
import { workMinutesCovered } from '../leave/hours'
import {
  halfDayShift,
  hoursOf,
  hoursOffShift,
  isOvernight,
  ruleOfWeekday,
  ruleOn,
  shiftAt,
  shiftFor,
  type HoursOff,
  type PolicyRule,
  type Shift,
} from './policy'
import type { DayRule } from './statistics'
import type * as repo from './repository'
import type { RuleResponse } from './setup/model'
import type * as setup from './setup/repository'

export const MAX_STATISTICS_DAYS = 366

/** A rule's overtime_threshold_minutes when not given (CONTRACT §11). */
export const DEFAULT_OVERTIME_THRESHOLD = 30

const policies = new WeakMap<setup.RuleRow, PolicyRule>()

/** A rule row's terms for the policy (kept per row: the cached rows are read on every clock-in). */
export function policyOf(rule: setup.RuleRow): PolicyRule {
  let policy = policies.get(rule)
  if (!policy) {
    policy = {
      workStart: rule.workStartTime,
      workEnd: rule.workEndTime,
      breakStart: rule.breakStartTime,
      breakEnd: rule.breakEndTime,
      lateGrace: rule.lateGracePeriod,
      earlyGrace: rule.earlyGracePeriod,
      requiredWorkHours: rule.requiredWorkHours,
      workDays: rule.workDays.split(',').map(Number),
      flexible: rule.flexibleTime,
      overtimeThreshold: rule.overtimeThresholdMinutes,
    }
    policies.set(rule, policy)
  }
  return policy
}

/** The rule that applies on each ISO weekday (index 1–7), as statistics (and the exported sheet) judge dates by it. */
export function weekdayRules(rules: readonly setup.RuleRow[]): DayRule[] {
  return Array.from({ length: 8 }, (_, day) => {
    const rule = day === 0 ? null : ruleOfWeekday(rules, policyOf, day)
    const workDay = rule !== null && policyOf(rule).workDays.includes(day)
    return { rule: rule?.id ?? null, workDay, allowedLateDays: rule?.allowedLateDays ?? 0 }
  })
}

/** The rule of a group's enabled rules (lowest id first) that applies on a date. */
export const ruleFor = (rules: readonly setup.RuleRow[], date: string) => ruleOn(rules, policyOf, date)

/** The work date and rule a clock-in now gets among a group's enabled rules. */
export const shiftNow = (rules: readonly setup.RuleRow[], zone: string, at: Date) => shiftAt(rules, policyOf, zone, at)

/** A span of approved hourly leave on a date (CONTRACT §18), HH:MM local, the end after the start. */
export interface HoursSpan {
  startTime: string
  endTime: string
}

/** What of a date an employee has on approved leave besides whole days: half of it, and spans of hours. */
export interface TimeOff {
  half: 'am' | 'pm' | null
  hours: readonly HoursSpan[]
}

export const NO_TIME_OFF: TimeOff = { half: null, hours: [] }

/**
 * Hourly leave of a work date as instants under the rule, each with the work time it covers
 * (leave/hours `workMinutesCovered`, the length its request was counted with). Times are read on
 * the shift's line, as there: under an overnight rule a time before the work start is the next
 * morning's; a span that runs backwards on that line covers nothing and is left out.
 */
export function hoursOffOn(rule: PolicyRule, zone: string, workDate: string, spans: readonly HoursSpan[]): HoursOff[] {
  const nextDay = addDays(workDate, 1)
  const instant = (hhmm: string) =>
    instantAt(isOvernight(rule) && parseHHMM(hhmm)! < parseHHMM(rule.workStart)! ? nextDay : workDate, hhmm, zone)
  return spans
    .map((span) => ({ start: instant(span.startTime), end: instant(span.endTime), minutes: workMinutesCovered(rule, span.startTime, span.endTime) }))
    .filter((span) => span.end > span.start)
}

/**
 * A work date's shift under a rule: the company calendar's mark applied (§8), the employee's
 * attendance start (`from`, §23: a date before it is a day off), and approved leave of part of
 * the date: half a day (§9), hours (§18).
 */
export function shiftOfDay(
  rule: setup.RuleRow,
  zone: string,
  workDate: string,
  kind: DayKind | null,
  from: string | null,
  off: TimeOff | null,
): Shift {
  let shift = shiftFor(policyOf(rule), zone, workDate, kind, from)
  if (off?.half) shift = halfDayShift(shift, off.half)
  if (off && off.hours.length > 0) shift = hoursOffShift(shift, hoursOffOn(policyOf(rule), zone, workDate, off.hours))
  return shift
}

/** The columns that keep what a record is judged under. */
export function shiftColumns(shift: Shift) {
  return {
    shiftStart: shift.start,
    shiftEnd: shift.end,
    workDateEnd: shift.workDateEnd,
    breakStart: shift.breakStart,
    breakEnd: shift.breakEnd,
    lateGracePeriod: shift.lateGrace,
    earlyGracePeriod: shift.earlyGrace,
    requiredWorkHours: shift.requiredWorkHours,
    flexibleTime: shift.flexible,
    isWorkDay: shift.workDay,
    overtimeFrom: shift.overtimeFrom,
    overtimeThreshold: shift.overtimeThreshold,
  } satisfies Partial<repo.NewRecord>
}

/**
 * What a record is judged under: the shift it keeps; for a record written before records
 * kept one, its rule's shift on its date; with that rule gone too, none (a day off).
 */
export function shiftOfRecord(row: repo.RecordRow, rule: setup.RuleRow | null): Shift {
  if (row.shiftStart && row.shiftEnd && row.workDateEnd)
    return {
      start: row.shiftStart,
      end: row.shiftEnd,
      workDateEnd: row.workDateEnd,
      breakStart: row.breakStart,
      breakEnd: row.breakEnd,
      lateGrace: row.lateGracePeriod ?? 0,
      earlyGrace: row.earlyGracePeriod ?? 0,
      requiredWorkHours: row.requiredWorkHours ?? 0,
      flexible: row.flexibleTime ?? false,
      workDay: row.isWorkDay ?? false,
      overtimeFrom: row.overtimeFrom ?? row.shiftEnd,
      overtimeThreshold: row.overtimeThreshold ?? rule?.overtimeThresholdMinutes ?? DEFAULT_OVERTIME_THRESHOLD,
    }
  if (rule) return shiftFor(policyOf(rule), row.timezone, row.workDate)
  // no rule to go by: the whole work date, judged as a day off
  const end = instantAt(addDays(row.workDate, 1), '00:00', row.timezone)
  return {
    start: instantAt(row.workDate, '00:00', row.timezone),
    end,
    workDateEnd: end,
    breakStart: null,
    breakEnd: null,
    lateGrace: 0,
    earlyGrace: 0,
    requiredWorkHours: 0,
    flexible: false,
    workDay: false,
    overtimeFrom: end,
    overtimeThreshold: DEFAULT_OVERTIME_THRESHOLD,
  }
}

export function toRecordResponse(
  row: repo.RecordRow & { employee?: repo.RecordWithEmployee['employee'] },
  locale: Locale,
  rule?: RuleResponse | null,
): AttendanceRecordResponse {
  return {
    id: row.id,
    employee_id: row.employeeId,
    ...(row.employee !== undefined ? { employee: row.employee } : {}),
    rule_id: row.ruleId,
    ...(rule !== undefined ? { rule } : {}),
    clock_in_time: row.clockInTime?.toISOString() ?? null,
    clock_out_time: row.clockOutTime?.toISOString() ?? null,
    clock_in_lat: row.clockInLat,
    clock_in_lng: row.clockInLng,
    clock_out_lat: row.clockOutLat,
    clock_out_lng: row.clockOutLng,
    work_date: row.workDate,
    timezone: row.timezone,
    status: row.status,
    status_text: statusText('attendance', row.status, locale),
    work_hours: hoursOfRecord(row),
    late_minutes: row.lateMinutes,
    early_minutes: row.earlyMinutes,
    overtime_minutes: row.overtimeMinutes,
    corrected: row.corrected,
    imported: row.imported,
    note: row.note,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  }
}

export const hoursOfRecord = (row: { workMinutes: number }) => hoursOf(row.workMinutes)

/** A date that has the YYYY-MM-DD shape but is no real day (2024-02-30, 0000-00-00) → 400. */
export function checkDate(field: string, value: string | undefined): void {
  if (value !== undefined && !isCalendarDate(value))
    throw new ValidationError(common.notRealDateOf({ field, value }), [{ field, message: common.notRealDate({ value }) }])
}

/** A real date range, start ≤ end, at most `maxDays` days long. */
export function checkRange(start: string, end: string, maxDays = MAX_STATISTICS_DAYS): void {
  const problems: FieldError[] = []
  for (const [field, value] of [
    ['start_date', start],
    ['end_date', end],
  ] as const)
    if (!isCalendarDate(value)) problems.push({ field, message: common.notRealDate({ value }) })
  if (problems.length === 0 && start > end) problems.push({ field: 'start_date', message: say.notAfterEndDate() })
  if (problems.length === 0 && daysBetween(start, end) + 1 > maxDays)
    problems.push({ field: 'end_date', message: say.rangeTooLong({ max: maxDays }) })
  if (problems.length > 0) throw ValidationError.of(problems)
}

export function toAttemptResponse({ attempt, name, phone }: Awaited<ReturnType<typeof repo.listAttempts>>['rows'][number]) {
  return {
    id: attempt.id,
    employee_id: attempt.employeeId,
    employee: name === null ? null : { id: attempt.employeeId, name, phone },
    rule_id: attempt.ruleId,
    kind: attempt.kind,
    latitude: attempt.latitude,
    longitude: attempt.longitude,
    distance: attempt.distance,
    radius: attempt.radius,
    attempted_at: attempt.attemptedAt.toISOString(),
  }
}
