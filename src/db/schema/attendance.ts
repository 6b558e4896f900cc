import { sql } from 'drizzle-orm'
import { check, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { timestamps } from './columns'
import { companies, employees } from './organization'

export const attendanceGroups = sqliteTable(
  'attendance_groups',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'restrict' }),
    managerId: integer('manager_id').references(() => employees.id, { onDelete: 'set null' }),
    /** IANA zone; null means the company's, then DEFAULT_TIMEZONE. */
    timezone: text('timezone'),
    status: integer('status').notNull().default(1),
    ...timestamps,
  },
  (t) => [
    index('attendance_groups_company_idx').on(t.companyId),
    index('attendance_groups_manager_idx').on(t.managerId),
    check('attendance_groups_status_check', sql`${t.status} IN (0, 1)`),
  ],
)

/** An employee is in at most one group: the employee is the key. */
export const attendanceGroupMembers = sqliteTable(
  'attendance_group_members',
  {
    employeeId: integer('employee_id')
      .primaryKey()
      .references(() => employees.id, { onDelete: 'cascade' }),
    groupId: integer('group_id')
      .notNull()
      .references(() => attendanceGroups.id, { onDelete: 'cascade' }),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [index('attendance_group_members_group_idx').on(t.groupId)],
)

export const attendanceRules = sqliteTable(
  'attendance_rules',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    groupId: integer('group_id')
      .notNull()
      .references(() => attendanceGroups.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    /** HH:MM, local to the group's zone */
    workStartTime: text('work_start_time').notNull(),
    workEndTime: text('work_end_time').notNull(),
    breakStartTime: text('break_start_time'),
    breakEndTime: text('break_end_time'),
    lateGracePeriod: integer('late_grace_period').notNull().default(0),
    earlyGracePeriod: integer('early_grace_period').notNull().default(0),
    requiredWorkHours: real('required_work_hours').notNull(),
    allowedLateDays: integer('allowed_late_days').notNull().default(0),
    locationRequired: integer('location_required', { mode: 'boolean' }).notNull().default(false),
    allowedLatitude: real('allowed_latitude'),
    allowedLongitude: real('allowed_longitude'),
    locationRadius: integer('location_radius').notNull().default(0),
    /** comma-separated ISO weekdays, e.g. 1,2,3,4,5 */
    workDays: text('work_days').notNull(),
    flexibleTime: integer('flexible_time', { mode: 'boolean' }).notNull().default(false),
    /** overtime on a work day counts only from this many minutes on (CONTRACT §11) */
    overtimeThresholdMinutes: integer('overtime_threshold_minutes').notNull().default(30),
    status: integer('status').notNull().default(1),
    ...timestamps,
  },
  (t) => [
    index('attendance_rules_group_idx').on(t.groupId, t.status),
    index('attendance_rules_created_idx').on(t.createdAt),
    check('attendance_rules_status_check', sql`${t.status} IN (0, 1)`),
  ],
)

/** A record clocked in and neither clocked out nor closed by day close (status 4); the open index's condition. */
export const OPEN_RECORD = 'clock_in_time IS NOT NULL AND clock_out_time IS NULL AND status <> 4'

export const attendanceRecords = sqliteTable(
  'attendance_records',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    employeeId: integer('employee_id')
      .notNull()
      .references(() => employees.id, { onDelete: 'restrict' }),
    ruleId: integer('rule_id').references(() => attendanceRules.id, { onDelete: 'set null' }),
    /** the group the record was opened under: history, so no foreign key; it stays when the group is deleted, as the zone does */
    groupId: integer('group_id'),
    /** YYYY-MM-DD in `timezone` */
    workDate: text('work_date').notNull(),
    /** the IANA zone the record was computed in */
    timezone: text('timezone').notNull(),
    // What the record is judged under, fixed when it is opened (policy.ts `Shift`), so that
    // edits of its rule, group or zone change nothing about it. Null on records written
    // before these were kept: they fall back to their rule.
    shiftStart: integer('shift_start', { mode: 'timestamp_ms' }),
    shiftEnd: integer('shift_end', { mode: 'timestamp_ms' }),
    /** until when a clock-in is dated on work_date: its local midnight, or the end of its overnight shift */
    workDateEnd: integer('work_date_end', { mode: 'timestamp_ms' }),
    breakStart: integer('break_start', { mode: 'timestamp_ms' }),
    breakEnd: integer('break_end', { mode: 'timestamp_ms' }),
    lateGracePeriod: integer('late_grace_period'),
    earlyGracePeriod: integer('early_grace_period'),
    requiredWorkHours: real('required_work_hours'),
    flexibleTime: integer('flexible_time', { mode: 'boolean' }),
    isWorkDay: integer('is_work_day', { mode: 'boolean' }),
    /** the rule's work end on the date (the whole shift's, also on a half day of leave): overtime counts from it */
    overtimeFrom: integer('overtime_from', { mode: 'timestamp_ms' }),
    overtimeThreshold: integer('overtime_threshold'),
    clockInTime: integer('clock_in_time', { mode: 'timestamp_ms' }),
    clockOutTime: integer('clock_out_time', { mode: 'timestamp_ms' }),
    clockInLat: real('clock_in_lat'),
    clockInLng: real('clock_in_lng'),
    clockOutLat: real('clock_out_lat'),
    clockOutLng: real('clock_out_lng'),
    status: integer('status').notNull(),
    /** whole minutes worked, break excluded; work_hours is derived from it */
    workMinutes: integer('work_minutes').notNull().default(0),
    lateMinutes: integer('late_minutes').notNull().default(0),
    earlyMinutes: integer('early_minutes').notNull().default(0),
    overtimeMinutes: integer('overtime_minutes').notNull().default(0),
    /** changed by an approved correction or an administrator's edit (CONTRACT §11) */
    corrected: integer('corrected', { mode: 'boolean' }).notNull().default(false),
    /** brought in by the history import (CONTRACT §23), judged by the rule of its date as a correction is */
    imported: integer('imported', { mode: 'boolean' }).notNull().default(false),
    note: text('note').notNull().default(''),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('attendance_records_employee_date_unique').on(t.employeeId, t.workDate),
    index('attendance_records_date_idx').on(t.workDate),
    index('attendance_records_status_date_idx').on(t.status, t.workDate),
    index('attendance_records_rule_idx').on(t.ruleId),
    // open records (clocked in, not out, not closed by day close): clock-out and day close find them by record
    index('attendance_records_open_idx').on(t.employeeId, t.workDateEnd).where(sql.raw(OPEN_RECORD)),
    check('attendance_records_status_check', sql`${t.status} BETWEEN 0 AND 4`),
  ],
)

/** Clock attempts refused for their position, for administrators to review. */
export const attendanceAttempts = sqliteTable(
  'attendance_attempts',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    employeeId: integer('employee_id')
      .notNull()
      .references(() => employees.id, { onDelete: 'cascade' }),
    ruleId: integer('rule_id').references(() => attendanceRules.id, { onDelete: 'set null' }),
    /** clock_in or clock_out */
    kind: text('kind').notNull(),
    latitude: real('latitude'),
    longitude: real('longitude'),
    /** metres from the allowed centre; null when no position was sent */
    distance: real('distance'),
    radius: integer('radius').notNull(),
    attemptedAt: integer('attempted_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [index('attendance_attempts_time_idx').on(t.attemptedAt), index('attendance_attempts_employee_idx').on(t.employeeId, t.attemptedAt)],
)

/** Work days already closed per group, so the day-close job does each once. */
export const attendanceClosedDays = sqliteTable(
  'attendance_closed_days',
  {
    groupId: integer('group_id')
      .notNull()
      .references(() => attendanceGroups.id, { onDelete: 'cascade' }),
    workDate: text('work_date').notNull(),
    closedAt: integer('closed_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.workDate] })],
)

/** A named lease: the instance holding an unexpired one runs the job. */
export const jobLeases = sqliteTable('job_leases', {
  name: text('name').primaryKey(),
  holder: text('holder').notNull(),
  expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
})
