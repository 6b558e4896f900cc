import { t } from 'elysia'
import { DateString, Id, PositiveInt, Timestamp } from '../../http/models'
import { P2Pagination, pageQuery } from '../../http/pagination'
import { rules } from './messages'
import { EmployeeSummary, Rule } from './setup/model'

const Coordinate = (name: 'latitude' | 'longitude', limit: number) =>
  t.Number({ minimum: -limit, maximum: limit, description: `${name}, -${limit} to ${limit}`, error: rules[name] })

export const ClockBody = t.Object(
  {
    latitude: t.Optional(Coordinate('latitude', 90)),
    longitude: t.Optional(Coordinate('longitude', 180)),
    note: t.Optional(t.String({ maxLength: 500 })),
  },
  { examples: [{ latitude: 31.2304, longitude: 121.4737, note: 'At the front desk' }] },
)
export type ClockInput = typeof ClockBody.static

export const ClockInResult = t.Object({
  attendance_id: t.Integer(),
  work_date: t.String({ description: 'YYYY-MM-DD in the group’s zone' }),
  clock_in_time: Timestamp,
  status: t.Integer(),
  status_text: t.String(),
  late_minutes: t.Integer(),
  message: t.String(),
})

export const ClockOutResult = t.Object({
  attendance_id: t.Integer(),
  work_date: t.String(),
  clock_out_time: Timestamp,
  status: t.Integer(),
  status_text: t.String(),
  work_hours: t.Number(),
  early_minutes: t.Integer(),
  overtime_minutes: t.Integer({ description: 'overtime of this work date (extension, CONTRACT §11)' }),
  message: t.String(),
})

export const AttendanceRecord = t.Object({
  id: t.Integer(),
  employee_id: t.Integer(),
  employee: t.Optional(t.Nullable(EmployeeSummary)),
  rule_id: t.Nullable(t.Integer()),
  rule: t.Optional(t.Nullable(Rule)),
  clock_in_time: t.Nullable(Timestamp),
  clock_out_time: t.Nullable(Timestamp),
  clock_in_lat: t.Nullable(t.Number()),
  clock_in_lng: t.Nullable(t.Number()),
  clock_out_lat: t.Nullable(t.Number()),
  clock_out_lng: t.Nullable(t.Number()),
  work_date: t.String(),
  timezone: t.String({ description: 'the IANA zone work_date and the rule times are local to' }),
  status: t.Integer(),
  status_text: t.String(),
  work_hours: t.Number(),
  late_minutes: t.Integer(),
  early_minutes: t.Integer(),
  overtime_minutes: t.Integer({
    description:
      'extension (CONTRACT §11): on a work day the minutes from the rule’s work end to the clock-out (flexible rule: the work time beyond the required hours), counted when they reach the rule’s overtime_threshold_minutes; on any other day all the time worked',
  }),
  corrected: t.Boolean({ description: 'changed by an approved correction or an administrator’s edit (extension, CONTRACT §11)' }),
  imported: t.Boolean({ description: 'brought in by the history import (extension, CONTRACT §23)' }),
  note: t.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
})
export type AttendanceRecordResponse = typeof AttendanceRecord.static

export const RecordList = t.Object({ records: t.Array(AttendanceRecord), pagination: P2Pagination })

const AttendanceStatus = t.Integer({
  minimum: 0,
  maximum: 4,
  description: '0 normal, 1 late, 2 early leave, 3 absent, 4 exception',
  error: rules.status,
})

const dateFilter = (field: 'start_date' | 'end_date') =>
  t.Optional(t.String({ ...DateString, error: field === 'start_date' ? rules.startDate : rules.endDate }))

export const OwnRecordQuery = t.Object({
  ...pageQuery(10),
  start_date: dateFilter('start_date'),
  end_date: dateFilter('end_date'),
  status: t.Optional(AttendanceStatus),
})
export type OwnRecordQuery = typeof OwnRecordQuery.static

export const AdminRecordQuery = t.Object({
  ...OwnRecordQuery.properties,
  employee_id: t.Optional(PositiveInt('employee_id')),
  group_id: t.Optional(PositiveInt('group_id', 'employees now in this group')),
})
export type AdminRecordQuery = typeof AdminRecordQuery.static

export const StatisticsQuery = t.Object({
  start_date: t.String({ ...DateString, error: rules.startDate }),
  end_date: t.String({ ...DateString, error: rules.endDate }),
})
export type StatisticsQuery = typeof StatisticsQuery.static

export const Statistics = t.Object({
  total_days: t.Integer(),
  work_days: t.Integer(),
  attendance_days: t.Integer(),
  late_days: t.Integer(),
  early_days: t.Integer(),
  absent_days: t.Integer(),
  exception_days: t.Integer(),
  holiday_days: t.Integer({ description: 'dates of the range the company marks as holidays (extension, CONTRACT §8)' }),
  leave_days: t.Number({
    description:
      'work days of approved leave of days in the range, halves as 0.5 (extension, CONTRACT §9); absent_days leaves out its full days. Hourly leave is in leave_hours',
  }),
  leave_hours: t.Number({
    description:
      'approved hourly leave on work days of the range: the work time it covers without breaks, in hours to the hundredth (extension, CONTRACT §18); never in leave_days',
  }),
  total_work_hours: t.Number(),
  avg_work_hours: t.Number(),
  total_late_minutes: t.Integer(),
  total_early_minutes: t.Integer(),
  overtime_hours: t.Number({ description: 'the records’ overtime_minutes summed, in hours rounded to 2 decimals (extension, CONTRACT §11)' }),
  attendance_rate: t.Number({ description: 'percent' }),
  late_days_allowed: t.Integer({ description: 'late days within each month’s allowed_late_days' }),
  late_days_over_allowance: t.Integer({ description: 'late days beyond each month’s allowance' }),
})
export type StatisticsResponse = typeof Statistics.static

const DayBrief = t.Object({
  id: t.Integer(),
  work_date: t.String(),
  status: t.Integer(),
  status_text: t.String(),
  work_hours: t.Number(),
})

export const Summary = t.Object({
  today: t.Nullable(
    t.Object({
      ...DayBrief.properties,
      clock_in_time: t.Nullable(Timestamp),
      clock_out_time: t.Nullable(Timestamp),
    }),
  ),
  this_week: Statistics,
  this_month: Statistics,
  recent: t.Array(DayBrief),
})
export type SummaryResponse = typeof Summary.static

export const Attempt = t.Object({
  id: t.Integer(),
  employee_id: t.Integer(),
  employee: t.Nullable(EmployeeSummary),
  rule_id: t.Nullable(t.Integer()),
  kind: t.String({ description: 'clock_in or clock_out' }),
  latitude: t.Nullable(t.Number()),
  longitude: t.Nullable(t.Number()),
  distance: t.Nullable(t.Number({ description: 'metres from the allowed centre; null when no position was sent' })),
  radius: t.Integer(),
  attempted_at: Timestamp,
})

export const AttemptQuery = t.Object({
  ...pageQuery(10),
  employee_id: t.Optional(PositiveInt('employee_id')),
  start_date: dateFilter('start_date'),
  end_date: dateFilter('end_date'),
})
export type AttemptQuery = typeof AttemptQuery.static

export const AttemptList = t.Object({ attempts: t.Array(Attempt), pagination: P2Pagination })

export const CloseDayBody = t.Object(
  {
    date: DateString,
    group_id: t.Optional(Id),
  },
  { examples: [{ date: '2024-03-15', group_id: 1 }] },
)

export const CloseDayResult = t.Object({
  date: t.String(),
  groups: t.Array(
    t.Object({
      group_id: t.Integer(),
      timezone: t.String(),
      closed: t.Boolean({ description: 'false when the day has not ended yet in the group’s zone' }),
      absent_records: t.Integer(),
      exception_records: t.Integer(),
    }),
  ),
})
export type CloseDayResponse = typeof CloseDayResult.static
