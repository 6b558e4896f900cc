import { ValidationError } from '../../http/errors'
import { say } from './messages'
import type { BalanceResponse, LeaveRequestResponse, LeaveTypeResponse, LedgerEntryResponse } from './model'
import { figureOf } from './hours'
import { impliedGrant } from './repository'
import type * as repo from './repository'

/** Days as sent → integer half-days, exactly; anything but a multiple of 0.5 is a 400 naming the field. */
export function halfDaysOf(days: number, field: string): number {
  const half = days * 2
  if (!Number.isSafeInteger(half))
    throw new ValidationError(say.notHalfDays({ field, days }), [{ field, message: say.multipleOfHalf() }])
  return half
}

/** Half-days → days for JSON (3 → 1.5). */
export const daysOf = (halfDays: number) => halfDays / 2

export function toTypeResponse(row: repo.TypeRow): LeaveTypeResponse {
  return {
    id: row.id,
    name: row.name,
    paid: row.paid,
    requires_balance: row.requiresBalance,
    annual_days: daysOf(row.annualHalfDays),
    accrual: row.accrual,
    seniority_tiers: row.seniorityTiers?.map((tier) => ({ from_years: tier.fromYears, days: daysOf(tier.halfDays) })) ?? null,
    carry_over_max: daysOf(row.carryOverMaxHalfDays),
    carry_over_expires: row.carryOverExpires,
    unit: row.unit,
    payout_on_leaving: row.payoutOnLeaving,
    status: row.status,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  }
}

export function toRequestResponse(row: repo.FullRequest): LeaveRequestResponse {
  const r = row.request
  return {
    id: r.id,
    employee_id: r.employeeId,
    employee: { id: r.employeeId, name: row.employeeName },
    type_id: r.typeId,
    type_name: row.typeName,
    start_date: r.startDate,
    end_date: r.endDate,
    half_day: r.halfDay,
    start_time: r.startTime,
    end_time: r.endTime,
    unit: r.startTime === null ? 'day' : 'hour',
    // an hourly request covers no whole day
    days: r.startTime === null ? daysOf(r.amount) : 0,
    hours: r.startTime === null ? null : figureOf('hour', r.amount),
    reason: r.reason,
    status: r.status,
    approver: row.approverId === null || row.approverName === null ? null : { id: row.approverId, name: row.approverName },
    decided_by: r.decidedBy === null || row.deciderName === null ? null : { id: r.decidedBy, name: row.deciderName },
    decided_at: r.decidedAt?.toISOString() ?? null,
    decision_note: r.decisionNote,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  }
}

export const yearOf = (date: string) => Number(date.slice(0, 4))

/** A balance's `remaining` in the type's unit (half-days, minutes): what a change is checked against. */
export const remainingOf = (type: repo.TypeRow, sums: repo.LedgerSums | undefined): number =>
  impliedGrant(type) + (sums?.credited ?? 0) - (sums?.taken ?? 0) - (sums?.pending ?? 0)

/** A balance from the type and the ledger's sums, in the type's unit: days, or hours (CONTRACT §18). */
export function balanceOf(type: repo.TypeRow, year: number, sums: repo.LedgerSums | undefined): BalanceResponse {
  const granted = impliedGrant(type) + (sums?.credited ?? 0)
  const taken = sums?.taken ?? 0
  const pending = sums?.pending ?? 0
  const figure = (amount: number) => figureOf(type.unit, amount)
  return {
    type_id: type.id,
    type_name: type.name,
    year,
    unit: type.unit,
    granted: figure(granted),
    taken: figure(taken),
    pending: figure(pending),
    remaining: figure(granted - taken - pending),
  }
}

export function toLedgerEntry({ entry, typeName, unit, actorName }: Awaited<ReturnType<typeof repo.ledgerEntries>>[number]): LedgerEntryResponse {
  return {
    id: entry.id,
    type_id: entry.typeId,
    type_name: typeName,
    year: entry.year,
    kind: entry.kind,
    unit,
    days: unit === 'day' ? daysOf(entry.amount) : null,
    hours: unit === 'hour' ? figureOf('hour', entry.amount) : null,
    reason: entry.reason,
    event: entry.event,
    request_id: entry.requestId,
    actor: entry.actorId === null || actorName === null ? null : { id: entry.actorId, name: actorName },
    created_at: entry.createdAt.toISOString(),
  }
}
