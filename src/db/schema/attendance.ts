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
    status: integer('status').notNull().default(1),
    ...timestamps,
  },
  (t) => [
    index('attendance_rules_group_idx').on(t.groupId, t.status),
    index('attendance_rules_created_idx').on(t.createdAt),
    check('attendance_rules_status_check', sql`${t.status} IN (0, 1)`),
  ],
)

export const attendanceRecords = sqliteTable(
  'attendance_records',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    employeeId: integer('employee_id')
      .notNull()
      .references(() => employees.id, { onDelete: 'restrict' }),
    ruleId: integer('rule_id').references(() => attendanceRules.id, { onDelete: 'set null' }),
    /** YYYY-MM-DD in `timezone` */
    workDate: text('work_date').notNull(),
    /** the IANA zone the record was computed in */
    timezone: text('timezone').notNull(),
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
    note: text('note').notNull().default(''),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('attendance_records_employee_date_unique').on(t.employeeId, t.workDate),
    index('attendance_records_date_idx').on(t.workDate),
    index('attendance_records_status_date_idx').on(t.status, t.workDate),
    index('attendance_records_rule_idx').on(t.ruleId),
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
