import type { Locale } from '../../config'
import { ValidationError } from '../../http/errors'
import { isCalendarDate } from '../../lib/dates'
import { daysBetween, weekday } from '../../lib/local-time'
import { statusText } from '../../lib/status-text'
import type { AttendanceRecordResponse } from './model'
import { hoursOf, type PolicyRule } from './policy'
import type * as repo from './repository'
import type { RuleResponse } from './setup-model'
import type * as setup from './setup-repository'

export const MAX_STATISTICS_DAYS = 366

export function policyOf(rule: setup.RuleRow): PolicyRule {
  return {
    workStart: rule.workStartTime,
    workEnd: rule.workEndTime,
    breakStart: rule.breakStartTime,
    breakEnd: rule.breakEndTime,
    lateGrace: rule.lateGracePeriod,
    earlyGrace: rule.earlyGracePeriod,
    requiredWorkHours: rule.requiredWorkHours,
    workDays: rule.workDays.split(',').map(Number),
    flexible: rule.flexibleTime,
  }
}

/** Among enabled rules (lowest id first): the first whose work days hold the date's weekday, else the first. */
export function ruleFor<T extends { workDays: string }>(rules: T[], date: string): T | null {
  const day = String(weekday(date))
  return rules.find((rule) => rule.workDays.split(',').includes(day)) ?? rules[0] ?? null
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
    note: row.note,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  }
}

export const hoursOfRecord = (row: { workMinutes: number }) => hoursOf(row.workMinutes)

/** A date that has the YYYY-MM-DD shape but is no real day (2024-02-30, 0000-00-00) → 400. */
export function checkDate(field: string, value: string | undefined): void {
  if (value !== undefined && !isCalendarDate(value))
    throw new ValidationError(`${field} "${value}" is not a real date`, [{ field, message: `"${value}" is not a real date` }])
}

/** A real date range, start ≤ end, at most `maxDays` days long. */
export function checkRange(start: string, end: string, maxDays = MAX_STATISTICS_DAYS): void {
  const problems: { field: string; message: string }[] = []
  for (const [field, value] of [
    ['start_date', start],
    ['end_date', end],
  ] as const)
    if (!isCalendarDate(value)) problems.push({ field, message: `"${value}" is not a real date` })
  if (problems.length === 0 && start > end) problems.push({ field: 'start_date', message: 'must not be after end_date' })
  if (problems.length === 0 && daysBetween(start, end) + 1 > maxDays)
    problems.push({ field: 'end_date', message: `must be at most ${maxDays} days after start_date (inclusive)` })
  if (problems.length > 0) throw new ValidationError(problems.map((p) => `${p.field} ${p.message}`).join('; '), problems)
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
