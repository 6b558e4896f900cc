import type { Locale } from '../../config'
import type { Database } from '../../db/client'
import { NotFoundError } from '../../http/errors'
import { pageWindow, p2Pagination, type PageWindow } from '../../http/pagination'
import { localClockTime, localDate } from '../../lib/local-time'
import { render, type Message } from '../../lib/messages'
import { requiredText } from '../../lib/text'
import type { Actor } from '../audit/recorder'
import type { CorrectionResponse } from '../corrections/model'
import type { CorrectionsService } from '../corrections/service'
import type { Authorize, DecidableFilter } from './routing'
import * as leaveRepo from '../leave/repository'
import type { LeaveService } from '../leave/service'
import { toRequestResponse } from '../leave/shapes'
import type { LeaveRequestResponse } from '../leave/model'
import type { Principal } from '../rbac/access'
import { allows } from '../rbac/ability'
import { linkedEmployeeNow, MANAGE_APPROVALS, requireNotOwn } from '../rbac/own-matters'
import { say } from './messages'
import type { ApprovalItemResponse, ApprovalKind, InboxQuery } from './model'

export { MANAGE_APPROVALS }

/** "Annual leave, 2024-10-08 – 2024-10-10 (3 days)"; one date: "Sick leave, 2024-10-08 am (0.5 days)". */
export function leaveSummary(request: LeaveRequestResponse): Message {
  const { type_name: type, days } = request
  if (request.start_date !== request.end_date) return say.leaveRange({ type, start: request.start_date, end: request.end_date, days })
  if (request.half_day) return say.leaveHalfDay({ type, date: request.start_date, half: say[request.half_day](), days })
  return say.leaveDay({ type, date: request.start_date, days })
}

/** "Correction of 2024-10-08: clock-in 09:00, clock-out 18:05"; local times, with the date when it is another (an overnight clock-out). */
export function correctionSummary(correction: CorrectionResponse): Message {
  const time = (iso: string | null, at: typeof say.clockIn, atOn: typeof say.clockInOn) => {
    if (iso === null) return null
    const instant = new Date(iso)
    const date = localDate(instant, correction.timezone)
    const clock = localClockTime(instant, correction.timezone)
    return date === correction.work_date ? at({ time: clock }) : atOn({ time: clock, date })
  }
  const clockIn = time(correction.clock_in_time, say.clockIn, say.clockInOn)
  const clockOut = time(correction.clock_out_time, say.clockOut, say.clockOutOn)
  const date = correction.work_date
  if (clockIn && clockOut) return say.correctionBoth({ date, clockIn, clockOut })
  const one = clockIn ?? clockOut
  return one ? say.correction({ date, time: one }) : say.correctionEmpty({ date })
}

const leaveItem = (request: LeaveRequestResponse, locale: Locale): ApprovalItemResponse => ({
  kind: 'leave',
  id: request.id,
  employee: request.employee,
  created_at: request.created_at,
  summary: render(leaveSummary(request), locale),
  request,
})

const correctionItem = (request: CorrectionResponse, locale: Locale): ApprovalItemResponse => ({
  kind: 'correction',
  id: request.id,
  employee: request.employee,
  created_at: request.created_at,
  summary: render(correctionSummary(request), locale),
  request,
})

/**
 * Who decides what: the employee's manager, else their attendance group's manager (the
 * request's `approver`), or anyone holding approvals:manage; never the employee themselves.
 */
export function createApprovalsService({ database, leave, corrections }: { database: Database; leave: LeaveService; corrections: CorrectionsService }) {
  const { db } = database

  /**
   * The check every decision runs inside its transaction, on the row it decides: never one's own
   * matter (403); the frozen approver while still employed, or a holder of approvals:manage; to
   * anyone else the request does not exist (404), as they have no business knowing it does.
   */
  const authorizer =
    (principal: Principal) =>
    (async (tx, request) => {
      await requireNotOwn(tx, principal, request, 'decide')
      if (allows(principal.ability, MANAGE_APPROVALS)) return
      const decides = request.approverId !== null && request.approverStatus === 1 && request.approverId === (await linkedEmployeeNow(tx, principal.userId))
      if (!decides) throw new NotFoundError(request.missing)
    }) satisfies Authorize

  /** One kind's decidable requests in a window, as inbox items. */
  const itemsOf = async (kind: ApprovalKind, filter: DecidableFilter, window: PageWindow, locale: Locale) => {
    if (kind === 'leave') {
      const { rows, total } = await leaveRepo.listDecidable(db, filter, window)
      return { items: rows.map((row) => leaveItem(toRequestResponse(row), locale)), total }
    }
    const { rows, total } = await corrections.decidable(filter, window)
    return { items: rows.map((row) => correctionItem(row, locale)), total }
  }

  return {
    /** The requests the caller may decide, each with its summary in words of `locale`. */
    async inbox(principal: Principal, query: InboxQuery, locale: Locale) {
      const window = pageWindow(query, 10)
      const all = allows(principal.ability, MANAGE_APPROVALS)
      // an account without an employee record decides only through approvals:manage
      if (!all && principal.employeeId === null) return { items: [], pagination: p2Pagination(0, window) }
      const filter = {
        status: query.status ?? 'pending',
        approverId: all ? undefined : principal.employeeId!,
        caller: { userId: principal.userId, employeeId: principal.employeeId },
      }
      if (query.kind) {
        const { items, total } = await itemsOf(query.kind, filter, window, locale)
        return { items, pagination: p2Pagination(total, window) }
      }
      // both kinds, oldest first: each kind's first offset + page_size, merged, then the page cut out
      const wide = { ...window, offset: 0, pageSize: window.offset + window.pageSize }
      const kinds = await Promise.all((['leave', 'correction'] as const).map((kind) => itemsOf(kind, filter, wide, locale)))
      const merged = kinds
        .flatMap((kind) => kind.items)
        .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.kind.localeCompare(b.kind) || a.id - b.id)
      return {
        items: merged.slice(window.offset, window.offset + window.pageSize),
        pagination: p2Pagination(kinds[0].total + kinds[1].total, window),
      }
    },

    async decide(
      principal: Principal,
      kind: ApprovalKind,
      id: number,
      decision: 'approved' | 'rejected',
      note: string | undefined,
      actor: Actor,
    ): Promise<LeaveRequestResponse | CorrectionResponse> {
      const text = decision === 'rejected' ? requiredText(note ?? '', 'note', 500) : note?.trim() || null
      const authorize = authorizer(principal)
      // checked inside the decision's transaction; of two decisions at once one happens, the other is a 409
      if (kind === 'correction') return corrections.decide(id, decision, actor, text, authorize)
      return leave.decide(id, decision, actor, text, authorize)
    },
  }
}

export type ApprovalsService = ReturnType<typeof createApprovalsService>
