import { sql } from 'drizzle-orm'
import { check, index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { attendanceRecords } from './attendance'
import { timestamps } from './columns'
import { requestParties } from './leave'
import { employees } from './organization'
import { users } from './users'

export const CORRECTION_STATUSES = ['pending', 'approved', 'rejected', 'cancelled'] as const

/**
 * A request to correct the clock times of one work date (CONTRACT §11). An administrator's
 * direct edit is kept as one too, approved at once. `before` and `after` are the record as
 * JSON, before and after the change (null: no record).
 */
export const attendanceCorrections = sqliteTable(
  'attendance_corrections',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    employeeId: integer('employee_id')
      .notNull()
      .references(() => employees.id, { onDelete: 'restrict' }),
    /** YYYY-MM-DD, local to the employee's zone */
    workDate: text('work_date').notNull(),
    /** the IANA zone work_date is local to: the record's, or the employee's when the date had none */
    timezone: text('timezone').notNull(),
    clockInTime: integer('clock_in_time', { mode: 'timestamp_ms' }),
    clockOutTime: integer('clock_out_time', { mode: 'timestamp_ms' }),
    reason: text('reason').notNull(),
    status: text('status', { enum: CORRECTION_STATUSES }).notNull().default('pending'),
    recordId: integer('record_id').references(() => attendanceRecords.id, { onDelete: 'set null' }),
    before: text('before', { mode: 'json' }),
    after: text('after', { mode: 'json' }),
    ...requestParties,
    decidedBy: integer('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: integer('decided_at', { mode: 'timestamp_ms' }),
    decisionNote: text('decision_note'),
    ...timestamps,
  },
  (t) => [
    // one pending correction per employee and date: of simultaneous requests one is kept
    uniqueIndex('attendance_corrections_pending_unique').on(t.employeeId, t.workDate).where(sql`status = 'pending'`),
    index('attendance_corrections_employee_idx').on(t.employeeId, t.createdAt),
    index('attendance_corrections_status_idx').on(t.status, t.createdAt),
    index('attendance_corrections_record_idx').on(t.recordId),
    index('attendance_corrections_approver_status_idx').on(t.approverId, t.status),
    check('attendance_corrections_status_check', sql`${t.status} IN ('pending', 'approved', 'rejected', 'cancelled')`),
  ],
)
