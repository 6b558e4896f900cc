import { and, eq, gte, inArray, lte, sql } from 'drizzle-orm'
import type { Db, Queryable } from '../../db/client'
import { attendanceGroupMembers, attendanceGroups, leaveLedger, leaveRequests } from '../../db/schema'
import { ConflictError } from '../../http/errors'
import { addDays } from '../../lib/local-time'
import { recordAudits, type Actor } from '../audit/recorder'
import { companyOf, employeeContext, type CallerContext } from '../attendance/caller'
import { policyOf, ruleFor } from '../attendance/records'
import * as setup from '../attendance/setup/repository'
import { calendarBetween } from '../calendar/repository'
import { isWorkDate } from '../calendar/work-days'
import { say } from './messages'
import * as repo from './repository'
import { figureOf, workMinutesCovered } from './hours'
import { balanceOf, daysOf, toRequestResponse, yearOf } from './shapes'

/** What a request covers: whole days, half of one date, or a span of hours on one date. */
export interface LeaveSpan {
  startDate: string
  endDate: string
  halfDay: 'am' | 'pm' | null
  startTime: string | null
  endTime: string | null
}

/**
 * The work time of a request for the employee, per year, in its unit: half-days of its work days,
 * or for an hourly request the minutes of work time its span covers on a work day (breaks
 * excluded). The rule that applies on each date, the company calendar (read through `q`, so a
 * change in the same transaction counts) and the employee's attendance start (CONTRACT §23: a
 * date before it counts 0) decide.
 */
export async function workAmount(q: Queryable, context: CallerContext, span: LeaveSpan): Promise<Map<number, number>> {
  const { startDate: start, endDate: end } = span
  const calendar = await calendarBetween(q, companyOf(context), start, end)
  const perYear = new Map<number, number>()
  for (let date = start; ; date = addDays(date, 1)) {
    const rule = ruleFor(context.rules, date)
    if (rule !== null && isWorkDate(policyOf(rule).workDays, date, calendar.get(date)?.kind ?? null, context.attendanceFrom)) {
      const amount =
        span.startTime !== null && span.endTime !== null ? workMinutesCovered(policyOf(rule), span.startTime, span.endTime) : span.halfDay ? 1 : 2
      if (amount > 0) perYear.set(yearOf(date), (perYear.get(yearOf(date)) ?? 0) + amount)
    }
    if (date === end) break
  }
  return perYear
}

/**
 * A calendar change inside pending or approved leave recounts it (CONTRACT §18), in the change's
 * transaction: the request's days become its work days under the new calendar, and the ledger
 * gets the difference per year (a `pending` or `taken` row, reason `calendar`), so the balance,
 * statistics and payroll agree. A request left with no work day is cancelled, its days given
 * back. Days added where the type requires a balance that has too few left refuse the change
 * (409 naming the request): HR adjusts the balance or cancels the request first.
 */
export function createLeaveRecount(deps: { db: Db; defaultZone: string; ruleCache: setup.RuleCache }) {
  // membership and rules are not what the change changes: read as a request reads them
  const contextOf = employeeContext(deps)

  return async (tx: Queryable, companyId: number, dates: readonly string[], actor: Actor, now: Date): Promise<void> => {
    if (dates.length === 0) return
    const sorted = [...dates].sort()
    const changed = new Set(sorted)
    const candidates = await tx
      .select({ id: leaveRequests.id, startDate: leaveRequests.startDate, endDate: leaveRequests.endDate })
      .from(leaveRequests)
      .innerJoin(attendanceGroupMembers, eq(attendanceGroupMembers.employeeId, leaveRequests.employeeId))
      .innerJoin(attendanceGroups, eq(attendanceGroups.id, attendanceGroupMembers.groupId))
      .where(
        and(
          eq(attendanceGroups.companyId, companyId),
          inArray(leaveRequests.status, ['pending', 'approved']),
          lte(leaveRequests.startDate, sorted[sorted.length - 1]),
          gte(leaveRequests.endDate, sorted[0]),
        ),
      )
    const audits: Parameters<typeof recordAudits>[3] = []
    for (const candidate of candidates) {
      if (!sorted.some((date) => date >= candidate.startDate && date <= candidate.endDate && changed.has(date))) continue
      const before = (await repo.findRequest(tx, candidate.id))!
      const request = before.request
      const perYear = await workAmount(tx, await contextOf(request.employeeId), request)
      const total = [...perYear.values()].reduce((a, b) => a + b, 0)
      if (total === request.amount) continue
      const [heldKind, returnKind] = request.status === 'pending' ? (['pending', 'release'] as const) : (['taken', 'reversal'] as const)
      const held = await tx
        .select({ year: leaveLedger.year, typeId: leaveLedger.typeId, amount: sql<number>`sum(${leaveLedger.amount})` })
        .from(leaveLedger)
        .where(and(eq(leaveLedger.requestId, request.id), inArray(leaveLedger.kind, [heldKind, returnKind])))
        .groupBy(leaveLedger.year, leaveLedger.typeId)
      const entry = (year: number, kind: repo.LedgerKind, amount: number): repo.LedgerEntry => ({
        employeeId: request.employeeId,
        typeId: request.typeId,
        year,
        kind,
        amount,
        reason: 'calendar',
        requestId: request.id,
        actorId: actor.userId,
        createdAt: now,
      })
      if (total === 0) {
        // no work day left: the request ends, its days given back
        await repo.transition(tx, request.id, [request.status], 'cancelled', now)
        await repo.append(tx, held.filter((row) => Number(row.amount) !== 0).map((row) => entry(row.year, returnKind, -Number(row.amount))))
      } else {
        const type = (await repo.findType(tx, request.typeId))!
        const years = new Set([...perYear.keys(), ...held.map((row) => row.year)])
        for (const year of years) {
          const difference = (perYear.get(year) ?? 0) - Number(held.find((row) => row.year === year)?.amount ?? 0)
          if (difference === 0) continue
          const row = entry(year, heldKind, difference)
          if (difference < 0 || !type.requiresBalance) await repo.append(tx, [row])
          else if (!(await repo.appendGuarded(tx, row, -difference))) {
            const { remaining } = balanceOf(type, year, (await repo.ledgerSums(tx, request.employeeId, year, type.id)).get(type.id))
            const owner = { request: before.employeeName, type: type.name, year, remaining }
            throw new ConflictError(
              type.unit === 'hour'
                ? say.calendarOverdrawsHours({ ...owner, hours: figureOf('hour', difference) })
                : say.calendarOverdraws({ ...owner, days: daysOf(difference) }),
            )
          }
        }
        await tx.update(leaveRequests).set({ amount: total, updatedAt: now }).where(eq(leaveRequests.id, request.id))
      }
      audits.push({
        action: total === 0 ? 'leave_request.cancel' : 'leave_request.recount',
        resource: 'leave_request',
        resourceId: request.id,
        before: toRequestResponse(before),
        after: toRequestResponse((await repo.findRequest(tx, request.id))!),
      })
    }
    await recordAudits(tx, actor, now, audits)
  }
}

export type LeaveRecount = ReturnType<typeof createLeaveRecount>
