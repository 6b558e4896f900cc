import { ValidationError } from '../../http/errors'
import { say } from './messages'
import type { BalanceResponse, LeaveRequestResponse, LeaveTypeResponse, LedgerEntryResponse } from './model'
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
    days: daysOf(r.halfDays),
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

/** A balance from the type and the ledger's sums, in days. */
export function balanceOf(type: repo.TypeRow, year: number, sums: repo.LedgerSums | undefined): BalanceResponse {
  const granted = impliedGrant(type) + (sums?.credited ?? 0)
  const taken = sums?.taken ?? 0
  const pending = sums?.pending ?? 0
  return {
    type_id: type.id,
    type_name: type.name,
    year,
    granted: daysOf(granted),
    taken: daysOf(taken),
    pending: daysOf(pending),
    remaining: daysOf(granted - taken - pending),
  }
}

export function toLedgerEntry({ entry, typeName, actorName }: Awaited<ReturnType<typeof repo.ledgerEntries>>[number]): LedgerEntryResponse {
  return {
    id: entry.id,
    type_id: entry.typeId,
    type_name: typeName,
    year: entry.year,
    kind: entry.kind,
    days: daysOf(entry.halfDays),
    reason: entry.reason,
    event: entry.event,
    request_id: entry.requestId,
    actor: entry.actorId === null || actorName === null ? null : { id: entry.actorId, name: actorName },
    created_at: entry.createdAt.toISOString(),
  }
}
