import { t } from 'elysia'
import { DateString, Id, Int, PositiveInt, Status, StatusFilter, Timestamp } from '../../http/models'
import { P2Pagination, pageQuery } from '../../http/pagination'
import { rules } from './messages'

/** Days as the API shows them: whole or half days (stored as integer half-days). */
const Days = (description: string) => t.Number({ description })

/** A literal union, not t.UnionEnum: Elysia gives a UnionEnum its first value as a default, which an update would send. */
const Accrual = t.Union([t.Literal('none'), t.Literal('yearly'), t.Literal('monthly')], {
  description: 'none: annual_days each year (default); yearly: granted on 1 January, prorated in the hire year; monthly: annual ÷ 12 on the 1st of each month employed',
  error: rules.accrual,
})

const Unit = t.Union([t.Literal('day'), t.Literal('hour')], {
  description:
    'day: requests of whole and half days (default); hour: requests of a time span on one date, counted in work time without breaks, balances in hours (a day of annual_days, tiers and carry-over is 8 hours)',
  error: rules.unit,
})

/** Hours as the API shows them: minutes ÷ 60 to the hundredth. */
const Hours = (description: string) => t.Number({ description })

const ClockTime = (description: string) =>
  t.String({ pattern: '^([01]\\d|2[0-3]):[0-5]\\d$', description: `HH:MM, local: ${description}`, examples: ['14:00'], error: rules.clockTime })

const SeniorityTier = t.Object({
  from_years: Int({ minimum: 0, maximum: 100, description: 'whole years of work', error: rules.fromYears }),
  days: t.Number({ minimum: 0, maximum: 366, description: 'days a year, a multiple of 0.5' }),
})

const typeFields = {
  name: t.String({ minLength: 1, maxLength: 50, description: 'unique, ignoring case' }),
  paid: t.Optional(t.Boolean({ description: 'paid leave (default true)' })),
  requires_balance: t.Optional(t.Boolean({ description: 'requests may not exceed the remaining balance (default true)' })),
  annual_days: t.Optional(t.Number({ minimum: 0, maximum: 366, description: 'days granted each year, a multiple of 0.5 (default 0)' })),
  accrual: t.Optional(Accrual),
  seniority_tiers: t.Optional(
    t.Nullable(
      t.Array(SeniorityTier, {
        maxItems: 20,
        description: 'the year’s days by years of work (work_start_date, else hire_date), replacing annual_days; none below the lowest tier',
      }),
    ),
  ),
  carry_over_max: t.Optional(t.Number({ minimum: 0, maximum: 366, description: 'days of a year’s remaining balance moved to the next year, a multiple of 0.5 (default 0); the rest lapses' })),
  carry_over_expires: t.Optional(t.Nullable(t.String({ description: 'MM-DD of the next year after which carried days lapse; null: they do not' }))),
  unit: t.Optional(Unit),
  payout_on_leaving: t.Optional(
    t.Boolean({ description: 'a leaver’s remaining days are paid on their last payslip at daily × 2 × days (default false; day types only)' }),
  ),
  status: t.Optional(Status()),
}

export const CreateTypeBody = t.Object(typeFields, {
  examples: [
    { name: 'Annual leave', paid: true, requires_balance: true, annual_days: 10, status: 1 },
    {
      name: 'Statutory annual leave',
      accrual: 'yearly',
      seniority_tiers: [
        { from_years: 1, days: 5 },
        { from_years: 10, days: 10 },
        { from_years: 20, days: 15 },
      ],
      carry_over_max: 5,
      carry_over_expires: '03-31',
    },
  ],
})
export type CreateTypeInput = typeof CreateTypeBody.static

export const UpdateTypeBody = t.Partial(t.Object(typeFields), { examples: [{ annual_days: 12.5 }] })
export type UpdateTypeInput = typeof UpdateTypeBody.static

export const LeaveType = t.Object({
  id: t.Integer(),
  name: t.String(),
  paid: t.Boolean(),
  requires_balance: t.Boolean(),
  annual_days: Days('days granted each year'),
  accrual: Accrual,
  seniority_tiers: t.Nullable(t.Array(SeniorityTier)),
  carry_over_max: Days('days moved to the next year at most'),
  carry_over_expires: t.Nullable(t.String({ description: 'MM-DD' })),
  unit: Unit,
  payout_on_leaving: t.Boolean(),
  status: t.Integer({ description: '1 enabled, 0 disabled' }),
  created_at: Timestamp,
  updated_at: Timestamp,
})
export type LeaveTypeResponse = typeof LeaveType.static

export const TypeListQuery = t.Object({ ...pageQuery(10), status: t.Optional(StatusFilter()) })
export type TypeListQuery = typeof TypeListQuery.static
export const TypeList = t.Object({ types: t.Array(LeaveType), pagination: P2Pagination })
export const EnabledTypes = t.Object({ types: t.Array(LeaveType) })

const Year = (field: string) => t.Integer({ minimum: 1, maximum: 9999, error: rules.year(field) })

export const Balance = t.Object({
  type_id: t.Integer(),
  type_name: t.String(),
  year: t.Integer(),
  unit: t.Union([t.Literal('day'), t.Literal('hour')], { description: 'what the figures count: days, or hours for an hourly type' }),
  granted: Days('the type’s annual days plus adjustments (and accrual’s rows), in the unit'),
  taken: Days('approved leave, in the unit'),
  pending: Days('requested, not yet decided, in the unit'),
  remaining: Days('granted − taken − pending, in the unit'),
})
export type BalanceResponse = typeof Balance.static
export const Balances = t.Object({ balances: t.Array(Balance) })

export const LedgerEntry = t.Object({
  id: t.Integer(),
  type_id: t.Integer(),
  type_name: t.String(),
  year: t.Integer(),
  kind: t.UnionEnum(['adjustment', 'pending', 'release', 'taken', 'reversal', 'grant', 'carry', 'lapse', 'payout'], {
    description:
      'adjustment, grant, carry, lapse and payout (a leaver’s days paid on the last payslip) count in `granted`; pending and release in `pending`; taken and reversal in `taken`',
  }),
  unit: t.Union([t.Literal('day'), t.Literal('hour')]),
  days: t.Nullable(Days('signed: what the row adds to its figure; null for an hourly type')),
  hours: t.Nullable(Hours('signed, for an hourly type; else null')),
  reason: t.String(),
  event: t.Nullable(t.String({ description: 'the accrual event of a grant, carry or lapse (`grant 2026`, `carry in 2025`, …)' })),
  request_id: t.Nullable(t.Integer()),
  actor: t.Nullable(t.Object({ id: t.Integer(), name: t.String() }, { description: 'who wrote it; null: the service (accrual, or an account since deleted)' })),
  created_at: Timestamp,
})
export type LedgerEntryResponse = typeof LedgerEntry.static
export const Ledger = t.Object({ entries: t.Array(LedgerEntry) })

export const OwnBalanceQuery = t.Object({ year: t.Optional(Year('year')) })
export const AdminBalanceQuery = t.Object({
  employee_id: t.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, examples: [1], error: rules.employeeId }),
  year: t.Optional(Year('year')),
})

export const AdjustBody = t.Object(
  {
    employee_id: Id,
    type_id: Id,
    year: Int({ minimum: 1, maximum: 9999, error: rules.yearValue }),
    days: t.Optional(t.Number({ minimum: -366, maximum: 366, description: 'a day type: added (or, negative, taken away); a multiple of 0.5, not 0' })),
    hours: t.Optional(
      t.Number({ minimum: -2928, maximum: 2928, description: 'an hourly type, instead of days: hours added or taken away, whole minutes (0.25 = 15 minutes), not 0' }),
    ),
    reason: t.String({ minLength: 1, maxLength: 500 }),
  },
  { examples: [{ employee_id: 1, type_id: 1, year: 2024, days: 2, reason: 'Carried over from 2023' }] },
)
export type AdjustInput = typeof AdjustBody.static

const HalfDay = t.Union([t.Literal('am'), t.Literal('pm'), t.Null()], {
  description: 'the morning (am) or the afternoon (pm) off, only when start_date = end_date; null for whole days',
  error: rules.halfDay,
})

export const CreateRequestBody = t.Object(
  {
    type_id: Id,
    start_date: DateString,
    end_date: DateString,
    half_day: t.Optional(HalfDay),
    start_time: t.Optional(ClockTime('an hourly type: when the leave starts on start_date (= end_date)')),
    end_time: t.Optional(ClockTime('an hourly type: when it ends, after start_time')),
    reason: t.Optional(t.String({ maxLength: 500 })),
  },
  {
    examples: [
      { type_id: 1, start_date: '2024-03-18', end_date: '2024-03-19', reason: 'Family visit' },
      { type_id: 3, start_date: '2024-03-20', end_date: '2024-03-20', start_time: '10:00', end_time: '14:00', reason: 'Doctor' },
    ],
  },
)
export type CreateRequestInput = typeof CreateRequestBody.static

const Person = t.Object({ id: t.Integer(), name: t.String() })
const RequestStatus = t.Union([t.Literal('pending'), t.Literal('approved'), t.Literal('rejected'), t.Literal('cancelled')], {
  error: rules.status,
})

export const LeaveRequest = t.Object({
  id: t.Integer(),
  employee_id: t.Integer(),
  employee: Person,
  type_id: t.Integer(),
  type_name: t.String(),
  start_date: t.String({ description: 'YYYY-MM-DD' }),
  end_date: t.String({ description: 'YYYY-MM-DD' }),
  half_day: HalfDay,
  start_time: t.Nullable(t.String({ description: 'HH:MM: an hourly request’s start; null for days' })),
  end_time: t.Nullable(t.String({ description: 'HH:MM: an hourly request’s end; null for days' })),
  unit: t.Union([t.Literal('day'), t.Literal('hour')]),
  days: Days('work days of the range, 0.5 for a half day; 0 for an hourly request'),
  hours: t.Nullable(Hours('an hourly request’s work time without breaks (minutes ÷ 60, to the hundredth); null for days')),
  reason: t.String(),
  status: RequestStatus,
  approver: t.Nullable(t.Object({ id: t.Integer({ description: 'an employee id' }), name: t.String() }, { description: 'who decides it: the employee’s manager (manager_id), else their attendance group’s manager; never the employee themselves' })),
  decided_by: t.Nullable(t.Object({ id: t.Integer({ description: 'a user id' }), name: t.String() }, { description: 'the account that approved, rejected or cancelled it' })),
  decided_at: t.Nullable(Timestamp),
  decision_note: t.Nullable(t.String()),
  created_at: Timestamp,
  updated_at: Timestamp,
})
export type LeaveRequestResponse = typeof LeaveRequest.static

export const OwnRequestQuery = t.Object({ ...pageQuery(10), status: t.Optional(RequestStatus), year: t.Optional(Year('year')) })
export type OwnRequestQuery = typeof OwnRequestQuery.static
export const AdminRequestQuery = t.Object({
  ...pageQuery(10),
  employee_id: t.Optional(PositiveInt('employee_id')),
  type_id: t.Optional(PositiveInt('type_id')),
  status: t.Optional(RequestStatus),
  start_date: t.Optional(t.String({ ...DateString, error: rules.startDate })),
  end_date: t.Optional(t.String({ ...DateString, error: rules.endDate })),
})
export type AdminRequestQuery = typeof AdminRequestQuery.static
export const RequestList = t.Object({ requests: t.Array(LeaveRequest), pagination: P2Pagination })
