import { aliasedTable, and, eq } from 'drizzle-orm'
import type { SQLiteColumn, SQLiteSelect } from 'drizzle-orm/sqlite-core'
import { employees } from '../../db/schema'
import type { Queryable } from '../../db/client'
import type { Message } from '../../lib/messages'
import { notOwnMatter, type Matter } from '../rbac/own-matters'

/** The employee who decides a request, joined as `manager` (CONTRACT §10). */
export const manager = aliasedTable(employees, 'manager')

/**
 * Joins to a query of requests (leave, corrections) their requester (`employees`) and the `manager`
 * who decides them: the approver frozen on the request when it was made (CONTRACT §15).
 */
export function joinApprover<T extends SQLiteSelect>(query: T, requester: SQLiteColumn, approver: SQLiteColumn) {
  return query.innerJoin(employees, eq(employees.id, requester)).leftJoin(manager, eq(manager.id, approver))
}

export interface DecidableFilter {
  status: 'pending' | 'approved' | 'rejected' | 'cancelled'
  /** only requests this employee decides while still employed; undefined: every request (approvals:manage) */
  approverId?: number
  /** never the caller's own matters (CONTRACT §15) */
  caller: { userId: number; employeeId: number | null }
}

/** The inbox's conditions over a request table (leave, corrections): the one place they are written. */
export function decidableWhere(
  table: { status: SQLiteColumn; approverId: SQLiteColumn; employeeId: SQLiteColumn; createdBy: SQLiteColumn; linkedUserId: SQLiteColumn; createdAt: SQLiteColumn },
  filter: DecidableFilter,
) {
  return and(
    eq(table.status, filter.status),
    filter.approverId === undefined ? undefined : and(eq(table.approverId, filter.approverId), eq(manager.status, 1)),
    notOwnMatter(filter.caller.userId, filter.caller.employeeId, table),
  )
}


/** A request as the decision's check sees it: the matter (whose it is) and who decides it. */
export interface Decidable extends Matter {
  /** the 404 anyone who may not decide it gets: the same as for an id that does not exist */
  missing: Message
  approverId: number | null
  /** the approver's employee status now: one who has left (0) decides nothing */
  approverStatus: number | null
}

/** Who may decide a request, checked inside the decision's transaction (approvals' authorizer). */
export type Authorize = (tx: Queryable, request: Decidable) => Promise<void>

/** The decidable view of a stored request (leave or correction) joined with its approver. */
export function decidableOf(
  label: Message,
  missing: Message,
  request: { employeeId: number; createdBy: number | null; linkedUserId: number | null; createdAt: Date },
  approver: { approverId: number | null; approverStatus: number | null },
): Decidable {
  return {
    label,
    missing,
    employeeId: request.employeeId,
    createdBy: request.createdBy,
    linkedUserId: request.linkedUserId,
    madeAt: request.createdAt,
    approverId: approver.approverId,
    approverStatus: approver.approverStatus,
  }
}
