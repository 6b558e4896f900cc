import { t } from 'elysia'
import { Id, Int, PositiveInt, Status, StatusFilter, Text, Timestamp } from '../../../http/models'
import { P2Pagination, pageQuery } from '../../../http/pagination'
import { rules, sortRule } from '../messages'

const ClockTime = t.String({
  pattern: '^([01]\\d|2[0-3]):[0-5]\\d$',
  description: 'HH:MM, 00:00 to 23:59, local to the group’s time zone',
  examples: ['09:00'],
  error: rules.clockTime,
})

const WorkDays = t.String({
  pattern: '^[1-7](,[1-7]){0,6}$',
  description: 'comma-separated distinct ISO weekdays, 1 = Monday … 7 = Sunday',
  examples: ['1,2,3,4,5'],
  error: rules.workDays,
})

const Minutes = Int({ minimum: 0, maximum: 1440, description: 'minutes', error: rules.minutes })
const Latitude = t.Number({ minimum: -90, maximum: 90, error: rules.latitude })
const Longitude = t.Number({ minimum: -180, maximum: 180, error: rules.longitude })

export const TimeZoneField = t.String({
  minLength: 1,
  maxLength: 64,
  description: 'IANA time zone; null means the company’s, then the service default',
  examples: ['Asia/Shanghai'],
  error: rules.timeZone,
})

export const GroupSummary = t.Object({ id: t.Integer(), name: t.String() })
export const EmployeeSummary = t.Object({ id: t.Integer(), name: t.String(), phone: t.Nullable(t.String()) })
export type EmployeeSummary = typeof EmployeeSummary.static

export const Rule = t.Object({
  id: t.Integer(),
  name: t.String(),
  description: t.String(),
  group_id: t.Integer(),
  group: t.Nullable(GroupSummary),
  work_start_time: t.String(),
  work_end_time: t.String(),
  break_start_time: t.Nullable(t.String()),
  break_end_time: t.Nullable(t.String()),
  late_grace_period: t.Integer(),
  early_grace_period: t.Integer(),
  required_work_hours: t.Number(),
  allowed_late_days: t.Integer(),
  location_required: t.Boolean(),
  allowed_latitude: t.Nullable(t.Number()),
  allowed_longitude: t.Nullable(t.Number()),
  location_radius: t.Integer(),
  work_days: t.String(),
  flexible_time: t.Boolean(),
  overtime_threshold_minutes: t.Integer({ description: 'overtime on a work day counts only from this many minutes past the work end (extension, CONTRACT §11)' }),
  status: t.Integer(),
  status_text: t.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
})
export type RuleResponse = typeof Rule.static

const ruleFields = {
  name: Text(100),
  description: t.Optional(t.String({ maxLength: 500 })),
  group_id: Id,
  work_start_time: ClockTime,
  work_end_time: ClockTime,
  break_start_time: t.Optional(t.Nullable(ClockTime)),
  break_end_time: t.Optional(t.Nullable(ClockTime)),
  late_grace_period: t.Optional(Minutes),
  early_grace_period: t.Optional(Minutes),
  required_work_hours: t.Number({
    minimum: 0,
    maximum: 24,
    description: 'hours, 0 to 24',
    error: rules.hours,
  }),
  allowed_late_days: t.Optional(Int({ minimum: 0, maximum: 31, error: rules.lateDays })),
  location_required: t.Optional(t.Boolean()),
  allowed_latitude: t.Optional(t.Nullable(Latitude)),
  allowed_longitude: t.Optional(t.Nullable(Longitude)),
  location_radius: t.Optional(Int({ minimum: 0, maximum: 100_000, error: rules.radius })),
  work_days: WorkDays,
  flexible_time: t.Optional(t.Boolean()),
  overtime_threshold_minutes: t.Optional(
    Int({
      minimum: 0,
      maximum: 1440,
      description: 'minutes past the work end from which they count as overtime (extension); default 30',
      error: rules.minutes,
    }),
  ),
}

const RULE_EXAMPLE = {
  name: 'Office hours',
  description: 'Weekdays 09:00 to 18:00 with a lunch break',
  group_id: 1,
  work_start_time: '09:00',
  work_end_time: '18:00',
  break_start_time: '12:00',
  break_end_time: '13:00',
  late_grace_period: 10,
  early_grace_period: 10,
  required_work_hours: 8,
  allowed_late_days: 3,
  location_required: true,
  allowed_latitude: 31.2304,
  allowed_longitude: 121.4737,
  location_radius: 500,
  work_days: '1,2,3,4,5',
  flexible_time: false,
  overtime_threshold_minutes: 30,
}

export const CreateRuleBody = t.Object(ruleFields, { examples: [RULE_EXAMPLE] })
export type CreateRuleInput = typeof CreateRuleBody.static

export const UpdateRuleBody = t.Partial(t.Object({ ...ruleFields, status: Status() }), {
  examples: [{ work_start_time: '09:30', work_end_time: '18:30', late_grace_period: 15, status: 1 }],
})
export type UpdateRuleInput = typeof UpdateRuleBody.static

export const RULE_SORTS = ['id', 'name', 'created_at', 'updated_at', 'work_start_time'] as const

export const RuleListQuery = t.Object({
  ...pageQuery(10),
  group_id: t.Optional(PositiveInt('group_id')),
  status: t.Optional(StatusFilter()),
  sort: t.Optional(t.UnionEnum(RULE_SORTS, { default: 'created_at', error: sortRule(RULE_SORTS) })),
  order: t.Optional(t.UnionEnum(['asc', 'desc'], { default: 'desc', error: rules.order })),
})
export type RuleListQuery = typeof RuleListQuery.static

export const RuleList = t.Object({ rules: t.Array(Rule), pagination: P2Pagination })

export const Group = t.Object({
  id: t.Integer(),
  name: t.String(),
  description: t.String(),
  company_id: t.Integer(),
  company: t.Nullable(GroupSummary),
  manager_id: t.Nullable(t.Integer()),
  manager: t.Nullable(EmployeeSummary),
  timezone: t.Nullable(t.String({ description: 'the group’s own zone; null means the company’s, then the service default' })),
  effective_timezone: t.String({ description: 'the zone attendance of this group is computed in' }),
  status: t.Integer(),
  status_text: t.String(),
  employee_count: t.Integer(),
  rule_count: t.Integer(),
  created_at: Timestamp,
  updated_at: Timestamp,
})
export type GroupResponse = typeof Group.static

const groupFields = {
  name: Text(100),
  description: t.Optional(t.String({ maxLength: 500 })),
  company_id: Id,
  manager_id: t.Optional(t.Nullable(Id)),
  timezone: t.Optional(t.Nullable(TimeZoneField)),
}

export const CreateGroupBody = t.Object(groupFields, {
  examples: [{ name: 'Shanghai office', description: 'Everyone working at the Shanghai office', company_id: 1, timezone: 'Asia/Shanghai' }],
})
export type CreateGroupInput = typeof CreateGroupBody.static

export const UpdateGroupBody = t.Partial(t.Object({ ...groupFields, status: Status() }), {
  examples: [{ description: 'Shanghai office, floors 3 to 5', manager_id: 1, status: 1 }],
})
export type UpdateGroupInput = typeof UpdateGroupBody.static

export const GroupListQuery = t.Object({
  ...pageQuery(10),
  company_id: t.Optional(PositiveInt('company_id')),
  status: t.Optional(StatusFilter()),
  search: t.Optional(t.String({ maxLength: 100, description: 'part of the name, ignoring case' })),
})
export type GroupListQuery = typeof GroupListQuery.static

export const GroupList = t.Object({ groups: t.Array(Group), pagination: P2Pagination })

export const EmployeeIdsBody = t.Object(
  { employee_ids: t.Array(Id, { minItems: 1, maxItems: 1000, description: 'employee ids, 1 to 1000' }) },
  { examples: [{ employee_ids: [1] }] },
)
export type EmployeeIdsInput = typeof EmployeeIdsBody.static
