import type { Locale } from '../../../config'
import { ValidationError, type FieldError } from '../../../http/errors'
import { statusText } from '../../../lib/status-text'
import { requiredText } from '../../../lib/text'
import { say } from '../messages'
import type { CreateRuleInput, GroupResponse, RuleResponse } from './model'
import type * as repo from './repository'

export type Problem = FieldError

export function refuse(problems: Problem[]): never {
  throw ValidationError.of(problems)
}

export function toRuleResponse({ rule, groupName }: repo.RuleWithGroup, locale: Locale): RuleResponse {
  return {
    id: rule.id,
    name: rule.name,
    description: rule.description,
    group_id: rule.groupId,
    group: groupName === null ? null : { id: rule.groupId, name: groupName },
    work_start_time: rule.workStartTime,
    work_end_time: rule.workEndTime,
    break_start_time: rule.breakStartTime,
    break_end_time: rule.breakEndTime,
    late_grace_period: rule.lateGracePeriod,
    early_grace_period: rule.earlyGracePeriod,
    required_work_hours: rule.requiredWorkHours,
    allowed_late_days: rule.allowedLateDays,
    location_required: rule.locationRequired,
    allowed_latitude: rule.allowedLatitude,
    allowed_longitude: rule.allowedLongitude,
    location_radius: rule.locationRadius,
    work_days: rule.workDays,
    flexible_time: rule.flexibleTime,
    overtime_threshold_minutes: rule.overtimeThresholdMinutes,
    status: rule.status,
    status_text: statusText('switch', rule.status, locale),
    created_at: rule.createdAt.toISOString(),
    updated_at: rule.updatedAt.toISOString(),
  }
}

/** The zone a group's attendance is computed in: its own, else its company's, else the default. */
export function zoneOf(detail: Pick<repo.GroupDetail, 'group' | 'companyTimezone'>, defaultZone: string): string {
  return detail.group.timezone ?? detail.companyTimezone ?? defaultZone
}

export function toGroupResponse(detail: repo.GroupDetail, locale: Locale, defaultZone: string): GroupResponse {
  const { group } = detail
  return {
    id: group.id,
    name: group.name,
    description: group.description,
    company_id: group.companyId,
    company: detail.companyName === null ? null : { id: group.companyId, name: detail.companyName },
    manager_id: group.managerId,
    manager: detail.manager,
    timezone: group.timezone,
    effective_timezone: zoneOf(detail, defaultZone),
    status: group.status,
    status_text: statusText('switch', group.status, locale),
    employee_count: detail.employeeCount,
    rule_count: detail.ruleCount,
    created_at: group.createdAt.toISOString(),
    updated_at: group.updatedAt.toISOString(),
  }
}

/** A rule's full state must hang together; every problem is named at once. */
export function checkRule(rule: repo.NewRule): void {
  const problems: Problem[] = []
  const days = rule.workDays.split(',')
  if (new Set(days).size !== days.length) problems.push({ field: 'work_days', message: say.repeatedWeekday() })
  if (rule.workStartTime === rule.workEndTime) problems.push({ field: 'work_end_time', message: say.sameAsWorkStart() })
  if ((rule.breakStartTime == null) !== (rule.breakEndTime == null))
    problems.push({
      field: rule.breakStartTime == null ? 'break_start_time' : 'break_end_time',
      message: say.withOtherBreakTime(),
    })
  else if (rule.breakStartTime != null && rule.breakStartTime === rule.breakEndTime)
    problems.push({ field: 'break_end_time', message: say.sameAsBreakStart() })
  if ((rule.allowedLatitude == null) !== (rule.allowedLongitude == null))
    problems.push({
      field: rule.allowedLatitude == null ? 'allowed_latitude' : 'allowed_longitude',
      message: say.withOtherCoordinate(),
    })
  if (rule.locationRequired) {
    if (rule.allowedLatitude == null && rule.allowedLongitude == null)
      problems.push({ field: 'allowed_latitude', message: say.areaRequired() })
    if (!rule.locationRadius) problems.push({ field: 'location_radius', message: say.radiusRequired() })
  }
  if (problems.length > 0) refuse(problems)
}

export function ruleValues(input: Partial<CreateRuleInput> & { status?: number }): Partial<repo.NewRule> {
  return {
    name: input.name === undefined ? undefined : requiredText(input.name, 'name'),
    description: input.description?.trim(),
    groupId: input.group_id,
    workStartTime: input.work_start_time,
    workEndTime: input.work_end_time,
    breakStartTime: input.break_start_time,
    breakEndTime: input.break_end_time,
    lateGracePeriod: input.late_grace_period,
    earlyGracePeriod: input.early_grace_period,
    requiredWorkHours: input.required_work_hours,
    allowedLateDays: input.allowed_late_days,
    locationRequired: input.location_required,
    allowedLatitude: input.allowed_latitude,
    allowedLongitude: input.allowed_longitude,
    locationRadius: input.location_radius,
    workDays: input.work_days,
    flexibleTime: input.flexible_time,
    overtimeThresholdMinutes: input.overtime_threshold_minutes,
    status: input.status,
  }
}

export const withoutUndefined = <T extends object>(value: T): Partial<T> =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>
