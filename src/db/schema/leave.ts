import { sql } from 'drizzle-orm'
import { check, index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { timestamps } from './columns'
import { employees } from './organization'
import { users } from './users'

/**
 * Who a request concerns, frozen when it is made (CONTRACT §15): the account that made it, the
 * account linked to its employee then, and the employee who decides it (the manager, else the
 * group's manager, skipping anyone who had left; null: only holders of approvals:manage).
 */
export const requestParties = {
  createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
  linkedUserId: integer('linked_user_id').references(() => users.id, { onDelete: 'set null' }),
  approverId: integer('approver_id').references(() => employees.id, { onDelete: 'set null' }),
}

export const ACCRUALS = ['none', 'yearly', 'monthly'] as const
export const LEAVE_UNITS = ['day', 'hour'] as const
/** A day of an hourly type's allowance: its annual days, tiers and carry-over are counted at 8 hours a day (CONTRACT §16: hourly = daily ÷ 8). */
export const MINUTES_PER_LEAVE_DAY = 8 * 60

/**
 * Kinds of leave (CONTRACT §9). Day amounts are integer half-days (exact, as money is fen):
 * `annual_half_days` 20 is 10 days.
 */
export const leaveTypes = sqliteTable(
  'leave_types',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    name: text('name').notNull(),
    paid: integer('paid', { mode: 'boolean' }).notNull().default(true),
    requiresBalance: integer('requires_balance', { mode: 'boolean' }).notNull().default(true),
    annualHalfDays: integer('annual_half_days').notNull().default(0),
    /** CONTRACT §18: none (annual_days each year, implied), yearly (granted on 1 January) or monthly (annual ÷ 12 on each 1st), as ledger rows */
    accrual: text('accrual', { enum: ACCRUALS }).notNull().default('none'),
    /** [{fromYears, halfDays}] by years of work, ascending; null: annual_half_days for everyone */
    seniorityTiers: text('seniority_tiers', { mode: 'json' }).$type<{ fromYears: number; halfDays: number }[]>(),
    /** half-days of a year's remaining balance moved to the next year; the rest lapses */
    carryOverMaxHalfDays: integer('carry_over_max_half_days').notNull().default(0),
    /** MM-DD of the next year after which carried days lapse; null: they do not */
    carryOverExpires: text('carry_over_expires'),
    // accrual and carry_over_max_half_days are checked by triggers (drizzle/0020): a CHECK added to this
    // table would rebuild it, and a table others reference cannot be dropped inside the migration's transaction
    /**
     * CONTRACT §18: `day` (requests of whole and half days) or `hour` (requests of a time span on one
     * date, their work time without breaks); fixed once the type has requests or ledger rows
     */
    unit: text('unit', { enum: LEAVE_UNITS }).notNull().default('day'),
    /** a leaver's remaining days are paid out on their last payslip (daily × 2 × days); day types only */
    payoutOnLeaving: integer('payout_on_leaving', { mode: 'boolean' }).notNull().default(false),
    // unit and payout_on_leaving are checked by triggers too (drizzle/0021), as accrual is
    /** 1 enabled, 0 disabled */
    status: integer('status').notNull().default(1),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('leave_types_name_unique').on(sql`lower(${t.name})`),
    check('leave_types_annual_check', sql`${t.annualHalfDays} >= 0`),
    check('leave_types_status_check', sql`${t.status} IN (0, 1)`),
  ],
)

export const LEAVE_STATUSES = ['pending', 'approved', 'rejected', 'cancelled'] as const

/**
 * A leave request over local dates [start_date, end_date]. `amount` counts only its work time, in
 * its type's unit: half-days of its work days, or, for an hourly request (start_time and end_time
 * on one date), minutes of work time without breaks.
 */
export const leaveRequests = sqliteTable(
  'leave_requests',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    employeeId: integer('employee_id')
      .notNull()
      .references(() => employees.id, { onDelete: 'restrict' }),
    typeId: integer('type_id')
      .notNull()
      .references(() => leaveTypes.id, { onDelete: 'restrict' }),
    /** YYYY-MM-DD, local */
    startDate: text('start_date').notNull(),
    endDate: text('end_date').notNull(),
    /** am or pm off on a single date; null for whole days */
    halfDay: text('half_day', { enum: ['am', 'pm'] }),
    /** HH:MM local, both or neither: an hourly request's span on start_date (= end_date) */
    startTime: text('start_time'),
    endTime: text('end_time'),
    /** half-days, or minutes for an hourly request (see above) */
    amount: integer('amount').notNull(),
    reason: text('reason').notNull().default(''),
    status: text('status', { enum: LEAVE_STATUSES }).notNull().default('pending'),
    ...requestParties,
    decidedBy: integer('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: integer('decided_at', { mode: 'timestamp_ms' }),
    decisionNote: text('decision_note'),
    ...timestamps,
  },
  (t) => [
    index('leave_requests_approver_status_idx').on(t.approverId, t.status),
    index('leave_requests_employee_status_dates_idx').on(t.employeeId, t.status, t.startDate, t.endDate),
    index('leave_requests_status_idx').on(t.status, t.startDate),
    index('leave_requests_type_idx').on(t.typeId),
    check('leave_requests_status_check', sql`${t.status} IN ('pending', 'approved', 'rejected', 'cancelled')`),
    check('leave_requests_half_day_check', sql`${t.halfDay} IS NULL OR (${t.halfDay} IN ('am', 'pm') AND ${t.startDate} = ${t.endDate})`),
    check('leave_requests_dates_check', sql`${t.startDate} <= ${t.endDate}`),
    check('leave_requests_half_days_check', sql`${t.amount} > 0`),
    // start_time and end_time are checked by triggers (drizzle/0021): a CHECK added here would rebuild a table the ledger references
  ],
)

/**
 * What a ledger row moves, in its type's unit: each kind changes one figure of a balance. `grant`,
 * `carry` and `lapse` are accrual's (CONTRACT §18): a grant adds, a carry moves days out of a
 * year (negative) and into the next (positive), a lapse takes days that were not used in time;
 * a `payout` takes the days a leaver is paid for on their last payslip.
 */
export const LEDGER_KINDS = ['adjustment', 'pending', 'release', 'taken', 'reversal', 'grant', 'carry', 'lapse', 'payout'] as const

/**
 * Every change of a balance (employee, type, year), so a balance is always explained:
 * granted = the type's annual days (accrual none only) + Σ adjustment, grant, carry, lapse and payout;
 * pending = Σ pending + Σ release (negative); taken = Σ taken + Σ reversal (negative);
 * remaining = granted − taken − pending.
 */
export const leaveLedger = sqliteTable(
  'leave_ledger',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    employeeId: integer('employee_id')
      .notNull()
      .references(() => employees.id, { onDelete: 'cascade' }),
    typeId: integer('type_id')
      .notNull()
      .references(() => leaveTypes.id, { onDelete: 'restrict' }),
    year: integer('year').notNull(),
    kind: text('kind', { enum: LEDGER_KINDS }).notNull(),
    /** signed, in the type's unit: half-days, or minutes for an hourly type */
    amount: integer('amount').notNull(),
    reason: text('reason').notNull().default(''),
    requestId: integer('request_id').references(() => leaveRequests.id, { onDelete: 'restrict' }),
    actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
    /** the accrual event a grant, carry or lapse row is ('grant 2026', 'grant 2026-03', 'carry out 2025', …): once per employee and type */
    event: text('event'),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [
    index('leave_ledger_balance_idx').on(t.employeeId, t.typeId, t.year),
    index('leave_ledger_request_idx').on(t.requestId),
    uniqueIndex('leave_ledger_event_unique').on(t.employeeId, t.typeId, t.event).where(sql`${t.event} IS NOT NULL`),
    check('leave_ledger_kind_check', sql`${t.kind} IN ('adjustment', 'pending', 'release', 'taken', 'reversal', 'grant', 'carry', 'lapse', 'payout')`),
    check('leave_ledger_amount_check', sql`${t.amount} <> 0`),
  ],
)
