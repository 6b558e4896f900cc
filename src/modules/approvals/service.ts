import type { Database } from '../../db/client'
import { ForbiddenError, NotFoundError } from '../../http/errors'
import { pageWindow, p2Pagination } from '../../http/pagination'
import { requiredText } from '../../lib/text'
import type { Actor } from '../audit/recorder'
import * as leaveRepo from '../leave/repository'
import type { LeaveService } from '../leave/service'
import { toRequestResponse } from '../leave/shapes'
import type { LeaveRequestResponse } from '../leave/model'
import type { Principal } from '../rbac/access'
import { allows } from '../rbac/ability'
import type { ApprovalItemResponse, ApprovalKind, InboxQuery } from './model'

/** Holders decide any request but their own (CONTRACT §10). */
export const MANAGE_APPROVALS = 'approvals:manage'

/** "Annual leave, 2024-10-08 – 2024-10-10 (3 days)"; one date: "Sick leave, 2024-10-08 am (0.5 days)". */
export function leaveSummary(request: LeaveRequestResponse): string {
  const dates =
    request.start_date === request.end_date
      ? `${request.start_date}${request.half_day ? ` ${request.half_day}` : ''}`
      : `${request.start_date} – ${request.end_date}`
  return `${request.type_name}, ${dates} (${request.days} ${request.days === 1 ? 'day' : 'days'})`
}

const toItem = (request: LeaveRequestResponse): ApprovalItemResponse => ({
  kind: 'leave',
  id: request.id,
  employee: request.employee,
  created_at: request.created_at,
  summary: leaveSummary(request),
  request,
})

/**
 * Who decides what: the employee's manager, else their attendance group's manager (the
 * request's `approver`), or anyone holding approvals:manage; never the employee themselves.
 */
export function createApprovalsService({ database, leave }: { database: Database; leave: LeaveService }) {
  const { db } = database

  return {
    async inbox(principal: Principal, query: InboxQuery) {
      const window = pageWindow(query, 10)
      if (query.kind === 'correction') return { items: [], pagination: p2Pagination(0, window) }
      const all = allows(principal.ability, MANAGE_APPROVALS)
      // an account without an employee record decides only through approvals:manage
      if (!all && principal.employeeId === null) return { items: [], pagination: p2Pagination(0, window) }
      const { rows, total } = await leaveRepo.listDecidable(
        db,
        { status: query.status ?? 'pending', approverId: all ? undefined : principal.employeeId!, exceptEmployeeId: principal.employeeId },
        window,
      )
      return { items: rows.map((row) => toItem(toRequestResponse(row))), pagination: p2Pagination(total, window) }
    },

    async decide(
      principal: Principal,
      kind: ApprovalKind,
      id: number,
      decision: 'approved' | 'rejected',
      note: string | undefined,
      actor: Actor,
    ): Promise<LeaveRequestResponse> {
      if (kind === 'correction') throw new NotFoundError(`Correction ${id} does not exist`)
      const text = decision === 'rejected' ? requiredText(note ?? '', 'note', 500) : note?.trim() || null
      // checked inside the decision's transaction; of two decisions at once one happens, the other is a 409
      return leave.decide(id, decision, actor, text, (row) => {
        const owner = row.request.employeeId
        if (principal.employeeId !== null && owner === principal.employeeId)
          throw new ForbiddenError(`Leave request ${id} is your own: nobody decides their own request`)
        const isApprover = principal.employeeId !== null && row.approverId === principal.employeeId
        if (!isApprover && !allows(principal.ability, MANAGE_APPROVALS))
          throw new ForbiddenError(
            row.approverId === null
              ? `Leave request ${id} has no approver you stand for: only holders of ${MANAGE_APPROVALS} decide it`
              : `Leave request ${id} is for ${row.approverName} (employee ${row.approverId}) to decide, or a holder of ${MANAGE_APPROVALS}`,
          )
      })
    },
  }
}

export type ApprovalsService = ReturnType<typeof createApprovalsService>
