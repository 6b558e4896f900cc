import type { Database, Queryable } from '../../db/client'
import { ConflictError, NotFoundError, ValidationError } from '../../http/errors'
import { pageWindow, p2Pagination } from '../../http/pagination'
import type { Clock } from '../../lib/clock'
import { isCalendarDate } from '../../lib/dates'
import { addDays, daysBetween, localDate } from '../../lib/local-time'
import type { Message } from '../../lib/messages'
import { requiredText } from '../../lib/text'
import { recordAudit, type Actor } from '../audit/recorder'
import { callerContext, companyOf, requireEmployed, type CallerContext } from '../attendance/caller'
import { policyOf, ruleFor } from '../attendance/records'
import type { RuleCache } from '../attendance/setup/repository'
import { calendarBetween } from '../calendar/repository'
import type { LeaveOfDate, LeaveOfDates } from '../calendar/service'
import { isWorkDate } from '../calendar/work-days'
import { decidableOf, type Authorize } from '../approvals/routing'
import { linkedEmployee, type Principal } from '../rbac/access'
import { partiesOf, requireNotOwn } from '../rbac/own-matters'
import { say as common } from '../../http/messages'
import { say } from './messages'
import type { AdjustInput, AdminRequestQuery, BalanceResponse, CreateRequestInput, LeaveRequestResponse, OwnRequestQuery } from './model'
import * as repo from './repository'
import { figureOf, workMinutesCovered } from './hours'
import { workAmount, type LeaveSpan } from './recount'
import { balanceOf, daysOf, halfDaysOf, remainingOf, toLedgerEntry, toRequestResponse, yearOf } from './shapes'

/** The longest request, in calendar days (CONTRACT §9). */
export const MAX_REQUEST_DAYS = 366

function checkRequestDates(input: CreateRequestInput): void {
  for (const field of ['start_date', 'end_date'] as const)
    if (!isCalendarDate(input[field]))
      throw new ValidationError(common.notRealDateOf({ field, value: input[field] }), [{ field, message: common.notRealDate({ value: input[field] }) }])
  const range = { start: input.start_date, end: input.end_date }
  if (input.start_date > input.end_date) throw new ValidationError(say.startAfterEnd(range), [{ field: 'start_date', message: say.notAfterEndDate() }])
  const length = daysBetween(input.start_date, input.end_date) + 1
  if (length > MAX_REQUEST_DAYS)
    throw new ValidationError(say.rangeTooLong({ ...range, length, max: MAX_REQUEST_DAYS }), [
      { field: 'end_date', message: say.atMostDaysAfterStart({ max: MAX_REQUEST_DAYS }) },
    ])
  if (input.half_day && input.start_date !== input.end_date)
    throw new ValidationError(say.halfDayNeedsOneDate({ ...range, half: input.half_day }), [{ field: 'half_day', message: say.onlyOneDate() }])
}

/**
 * What an adjustment adds in the type's unit: `days` (half-days) for a day type, `hours` (whole
 * minutes) for an hourly one; the other field, or neither, is a 400 naming the one to send.
 */
function adjustmentOf(input: AdjustInput, type: repo.TypeRow): number {
  const [field, other] = type.unit === 'hour' ? (['hours', 'days'] as const) : (['days', 'hours'] as const)
  const sent = input[field]
  if (sent === undefined || input[other] !== undefined) {
    const unit = type.unit === 'hour' ? say.unitHour() : say.unitDay()
    throw new ValidationError(say.daysOrHours({ type: type.name, unit, field }), [
      sent === undefined ? { field, message: common.required() } : { field: other, message: say.otherUnit() },
    ])
  }
  if (sent === 0) throw new ValidationError(type.unit === 'hour' ? say.hoursZero() : say.daysZero(), [{ field, message: say.notZero() }])
  if (type.unit === 'day') return halfDaysOf(sent, 'days')
  // hours as sent are a decimal (0.1 is 6 minutes): the nearest whole minute, if the hours are that
  const minutes = Math.round(sent * 60)
  if (Math.abs(minutes - sent * 60) > 1e-9) throw new ValidationError(say.notWholeMinutes({ hours: sent }), [{ field, message: say.wholeMinutes() }])
  return minutes
}

/** The span a request asks for, checked against its type's unit: days (and halves), or hours on one date (CONTRACT §18). */
function spanAsked(input: CreateRequestInput, type: repo.TypeRow): LeaveSpan {
  const span = { startDate: input.start_date, endDate: input.end_date, halfDay: input.half_day ?? null, startTime: null, endTime: null }
  const timed = (['start_time', 'end_time'] as const).filter((field) => input[field] !== undefined)
  if (type.unit === 'day') {
    if (timed.length > 0) throw new ValidationError(say.timesNeedHourType({ type: type.name }), timed.map((field) => ({ field, message: say.dayType() })))
    return span
  }
  const missing = (['start_time', 'end_time'] as const).filter((field) => input[field] === undefined)
  if (missing.length > 0)
    throw new ValidationError(say.hourTypeNeedsTimes({ type: type.name }), missing.map((field) => ({ field, message: say.timeRequired() })))
  if (input.half_day) throw ValidationError.of([{ field: 'half_day', message: say.hoursNoHalfDay() }])
  if (input.start_date !== input.end_date)
    throw new ValidationError(say.hoursOneDate({ start: input.start_date, end: input.end_date }), [{ field: 'end_date', message: say.onlyOneDate() }])
  const [start, end] = [input.start_time!, input.end_time!]
  if (end <= start) throw new ValidationError(say.endNotAfterStart({ start, end }), [{ field: 'end_time', message: say.afterStartTime() }])
  return { ...span, startTime: start, endTime: end }
}

/**
 * Hourly leave leaves some of its date's work time (CONTRACT §18): a date whose whole work time is
 * on hourly leave would still want its work, so day close would call it an absence and payroll
 * would deduct it twice (an absent day and the hours). Such a date is a day of leave: the request
 * that would complete it is refused (400), in the transaction that inserted it.
 */
async function requireSomeWorkLeft(tx: Queryable, context: CallerContext, employeeId: number, date: string): Promise<void> {
  const rule = ruleFor(context.rules, date)
  if (rule === null) return
  const policy = policyOf(rule)
  const workMinutes = workMinutesCovered(policy, policy.workStart, policy.workEnd)
  const onLeave = await repo.hourlyMinutesOn(tx, employeeId, date)
  if (onLeave >= workMinutes)
    throw new ValidationError(say.wholeDayByHours({ date, hours: figureOf('hour', workMinutes) }), [{ field: 'end_time', message: say.leaveSomeWork() }])
}

/** A request's status in words: "pending", 待审批. */
const statusOf = (status: repo.RequestRow['status']): Message => say[status]()

/** The dates of a request as a person reads them: "from 2024-03-18 to 2024-03-22", "on 2024-03-26 (pm)". */
/** A request as a person knows it: whose, of which type, which days. */
const named = (full: repo.FullRequest): Message => say.request({ employee: full.employeeName, type: full.typeName, span: spanOf(full.request) })

function spanOf(span: LeaveSpan): Message {
  if (span.startTime !== null && span.endTime !== null) return say.atHours({ date: span.startDate, start: span.startTime, end: span.endTime })
  if (span.halfDay === 'am') return say.onMorning({ date: span.startDate })
  if (span.halfDay === 'pm') return say.onAfternoon({ date: span.startDate })
  return span.startDate === span.endDate ? say.onDate({ date: span.startDate }) : say.fromTo({ start: span.startDate, end: span.endDate })
}

export interface LeaveDeps {
  database: Database
  clock: Clock
  defaultZone: string
  ruleCache: RuleCache
}

export function createLeaveService({ database, clock, defaultZone, ruleCache }: LeaveDeps) {
  const { db } = database
  const contextOf = callerContext({ db, defaultZone, ruleCache })
  const missingRequest = (id: number) => new NotFoundError(say.requestMissing({ id }))
  const reload = async (tx: Queryable, id: number) => toRequestResponse((await repo.findRequest(tx, id))!)
  const thisYear = (zone: string) => yearOf(localDate(clock.now(), zone))

  const balancesOf = async (q: Queryable, employeeId: number, year: number): Promise<BalanceResponse[]> => {
    const [types, sums] = await Promise.all([repo.listTypes(q, undefined, null), repo.ledgerSums(q, employeeId, year)])
    // enabled types, and disabled ones the year's ledger still mentions
    return types.rows.filter((type) => type.status === 1 || sums.has(type.id)).map((type) => balanceOf(type, year, sums.get(type.id)))
  }

  /**
   * Ends a pending or approved request: a pending one gives its days back to the balance
   * (release), an approved one returns what it took (reversal). `mayEnd` refuses with a reason.
   */
  const cancel = async (
    id: number,
    actor: Actor,
    mayEnd: (row: repo.RequestRow, request: Message) => Message | null,
    who: { ownerId: number } | { principal: Principal },
  ) => {
    const now = clock.now()
    return database.write(async (tx) => {
      const before = await repo.findRequest(tx, id)
      if (!before || ('ownerId' in who && before.request.employeeId !== who.ownerId)) throw missingRequest(id)
      const request = named(before)
      if ('principal' in who) await requireNotOwn(tx, who.principal, decidableOf(request, say.requestMissing({ id }), before.request, before), 'cancel')
      const refusal = ['pending', 'approved'].includes(before.request.status)
        ? mayEnd(before.request, request)
        : say.notCancellable({ request, status: statusOf(before.request.status) })
      if (refusal) throw new ConflictError(refusal)
      const from = before.request.status
      if (!(await repo.transition(tx, id, [from], 'cancelled', now))) throw new ConflictError(say.changedMeanwhile({ request }))
      const held = await repo.ledgerOf(tx, id, from === 'pending' ? 'pending' : 'taken')
      await repo.append(
        tx,
        held.map((row) => ({
          ...row,
          id: undefined,
          kind: from === 'pending' ? ('release' as const) : ('reversal' as const),
          amount: -row.amount,
          reason: 'cancelled',
          actorId: actor.userId,
          createdAt: now,
        })),
      )
      const after = await reload(tx, id)
      await recordAudit(tx, actor, now, {
        action: 'leave_request.cancel',
        resource: 'leave_request',
        resourceId: id,
        before: toRequestResponse(before),
        after,
      })
      return after
    })
  }

  const listRequests = async (filter: repo.RequestFilter, query: { page?: number; page_size?: number }) => {
    const window = pageWindow(query, 10)
    const { rows, total } = await repo.listRequests(db, filter, window)
    return { requests: rows.map(toRequestResponse), pagination: p2Pagination(total, window) }
  }

  return {
    // ---- balances

    async ownBalances(principal: Principal, year: number | undefined) {
      const context = await contextOf(principal)
      return { balances: await balancesOf(db, context.employeeId, year ?? thisYear(context.zone)) }
    },

    async employeeBalances(employeeId: number, year: number | undefined) {
      if ((await repo.employeeName(db, employeeId)) === null) throw new NotFoundError(say.employeeMissing({ id: employeeId }))
      return { balances: await balancesOf(db, employeeId, year ?? thisYear(defaultZone)) }
    },

    /** The rows behind the caller's balances of a year: every figure explained. */
    async ownLedger(principal: Principal, year: number | undefined) {
      const context = await contextOf(principal)
      return { entries: (await repo.ledgerEntries(db, context.employeeId, year ?? thisYear(context.zone))).map(toLedgerEntry) }
    },

    async employeeLedger(employeeId: number, year: number | undefined) {
      if ((await repo.employeeName(db, employeeId)) === null) throw new NotFoundError(say.employeeMissing({ id: employeeId }))
      return { entries: (await repo.ledgerEntries(db, employeeId, year ?? thisYear(defaultZone))).map(toLedgerEntry) }
    },

    /** Adds days (hours, to an hourly type) to a balance, or takes them from it; taking may not bring `remaining` below zero. */
    async adjust(principal: Principal, input: AdjustInput, actor: Actor): Promise<BalanceResponse> {
      const reason = requiredText(input.reason, 'reason', 500)
      const now = clock.now()
      return database.write(async (tx) => {
        const employeeName = await repo.employeeName(tx, input.employee_id)
        if (employeeName === null)
          throw new ValidationError(say.employeeRefMissing({ id: input.employee_id }), [{ field: 'employee_id', message: common.doesNotExist() }])
        const type = await repo.findType(tx, input.type_id)
        if (!type) throw new ValidationError(say.typeRefMissing({ id: input.type_id }), [{ field: 'type_id', message: common.doesNotExist() }])
        const amount = adjustmentOf(input, type)
        const label = say.balanceOfEmployee({ type: type.name, name: employeeName })
        await requireNotOwn(tx, principal, { label, employeeId: input.employee_id }, 'adjust')
        const sums = (await repo.ledgerSums(tx, input.employee_id, input.year, type.id)).get(type.id)
        const before = balanceOf(type, input.year, sums)
        const entry = {
          employeeId: input.employee_id,
          typeId: type.id,
          year: input.year,
          kind: 'adjustment' as const,
          amount,
          reason,
          requestId: null,
          actorId: actor.userId,
          createdAt: now,
        }
        if (amount > 0) await repo.append(tx, [entry])
        else if (!(await repo.appendGuarded(tx, entry, amount))) {
          const taken = { type: type.name, year: input.year, left: figureOf(type.unit, remainingOf(type, sums) + amount), remaining: before.remaining }
          throw new ValidationError(
            type.unit === 'hour' ? say.takesTooManyHours({ ...taken, hours: figureOf('hour', -amount) }) : say.takesTooMuch({ ...taken, days: daysOf(-amount) }),
            [{ field: type.unit === 'hour' ? 'hours' : 'days', message: say.atLeast({ n: Math.max(0, before.remaining) }) }],
          )
        }
        const after = balanceOf(type, input.year, (await repo.ledgerSums(tx, input.employee_id, input.year, type.id)).get(type.id))
        await recordAudit(tx, actor, now, {
          action: 'leave_balance.adjust',
          resource: 'leave_balance',
          resourceId: `${input.employee_id}/${type.id}/${input.year}`,
          before,
          after: { ...after, ...(type.unit === 'hour' ? { hours: input.hours } : { days: input.days }), reason },
        })
        return after
      })
    },

    // ---- requests

    async createRequest(principal: Principal, input: CreateRequestInput, actor: Actor): Promise<LeaveRequestResponse> {
      const employeeId = linkedEmployee(principal, 'leave')
      checkRequestDates(input)
      const type = await repo.findType(db, input.type_id)
      if (!type) throw new ValidationError(say.typeRefMissing({ id: input.type_id }), [{ field: 'type_id', message: common.doesNotExist() }])
      if (type.status !== 1) throw new ValidationError(say.typeDisabled({ name: type.name }), [{ field: 'type_id', message: say.isDisabled() }])
      const asked = spanAsked(input, type)
      const context = await contextOf(principal)
      requireEmployed(context, input.start_date, 'start_date')
      const perYear = await workAmount(db, context, asked)
      const total = [...perYear.values()].reduce((a, b) => a + b, 0)
      if (total === 0)
        throw asked.startTime !== null
          ? new ValidationError(say.noWorkTime({ date: asked.startDate, start: asked.startTime, end: asked.endTime! }), [
              { field: 'start_time', message: say.noWorkTimeField() },
            ])
          : new ValidationError(say.noWorkDays({ start: input.start_date, end: input.end_date }), [{ field: 'start_date', message: say.noWorkDay() }])
      const now = clock.now()
      return database.write(async (tx) => {
        const span = { employeeId, ...asked }
        const parties = await partiesOf(tx, employeeId)
        const id = await repo.insertRequestUnlessOverlap(tx, {
          ...span,
          ...parties,
          createdBy: actor.userId,
          typeId: type.id,
          amount: total,
          reason: input.reason?.trim() ?? '',
          at: now,
        })
        if (id !== null && asked.startTime !== null) await requireSomeWorkLeft(tx, context, employeeId, asked.startDate)
        if (id === null) {
          // the other leave as the employee knows it: its type, its dates and where it stands, never its id
          const other = await repo.overlappingRequest(tx, span)
          const asked = spanOf(span)
          throw new ConflictError(
            other === null
              ? say.overlapsAnother({ asked })
              : say.overlaps({ asked, type: other.typeName, other: spanOf(other), status: statusOf(other.status) }),
          )
        }
        for (const [year, amount] of perYear) {
          const entry = { employeeId, typeId: type.id, year, kind: 'pending' as const, amount, reason: 'requested', requestId: id, actorId: actor.userId, createdAt: now }
          if (!type.requiresBalance) await repo.append(tx, [entry])
          else if (!(await repo.appendGuarded(tx, entry, -amount))) {
            const balance = balanceOf(type, year, (await repo.ledgerSums(tx, employeeId, year, type.id)).get(type.id))
            const { remaining, granted, taken, pending } = balance
            const figures = { type: type.name, year, remaining, granted, taken, pending }
            throw new ValidationError(
              type.unit === 'hour'
                ? say.notEnoughHoursLeft({ ...figures, hours: figureOf('hour', amount) })
                : say.notEnoughLeft({ ...figures, days: daysOf(amount) }),
              [
                type.unit === 'hour'
                  ? { field: 'end_time', message: say.requestedAndLeftHours({ hours: figureOf('hour', amount), remaining }) }
                  : { field: 'end_date', message: say.requestedAndLeft({ days: daysOf(amount), remaining }) },
              ],
            )
          }
        }
        const request = await reload(tx, id)
        await recordAudit(tx, actor, now, { action: 'leave_request.create', resource: 'leave_request', resourceId: id, after: request })
        return request
      })
    },

    ownRequests(principal: Principal, query: OwnRequestQuery) {
      const employeeId = linkedEmployee(principal, 'leave')
      const year = query.year === undefined ? {} : { from: `${String(query.year).padStart(4, '0')}-01-01`, to: `${String(query.year).padStart(4, '0')}-12-31` }
      return listRequests({ employeeId, status: query.status, ...year }, query)
    },

    adminRequests(query: AdminRequestQuery) {
      for (const field of ['start_date', 'end_date'] as const)
        if (query[field] !== undefined && !isCalendarDate(query[field]))
          throw new ValidationError(common.notRealDateOf({ field, value: query[field]! }), [{ field, message: say.notRealDate() }])
      return listRequests(
        { employeeId: query.employee_id, typeId: query.type_id, status: query.status, from: query.start_date, to: query.end_date },
        query,
      )
    },

    /** The caller's own: a pending one, or an approved one whose first day has not come (in their zone). */
    async cancelOwn(principal: Principal, id: number, actor: Actor): Promise<LeaveRequestResponse> {
      const context = await contextOf(principal)
      const today = localDate(clock.now(), context.zone)
      return cancel(
        id,
        actor,
        (row, request) => (row.status === 'approved' && row.startDate <= today ? say.approvedAndBegun({ request, start: row.startDate, today }) : null),
        { ownerId: context.employeeId },
      )
    },

    /** HR: any pending or approved request, whenever it is; never one's own (CONTRACT §15). */
    adminCancel: (principal: Principal, id: number, actor: Actor) => cancel(id, actor, () => null, { principal }),

    /**
     * Approves or rejects a pending request (approvals, CONTRACT §10, call this) in one
     * transaction; `authorize` (who may decide it) runs inside it on the row it decides, so nothing
     * changes between check and decision. One conditional update, so of two decisions at once
     * exactly one happens; approval moves the days from pending to taken and deletes the absent
     * records its full days cover.
     */
    async decide(
      id: number,
      decision: 'approved' | 'rejected',
      decider: Actor,
      note: string | null,
      authorize: Authorize = async () => {},
    ): Promise<LeaveRequestResponse> {
      const now = clock.now()
      return database.write(async (tx) => {
        const before = await repo.findRequest(tx, id)
        if (!before) throw missingRequest(id)
        const request = named(before)
        await authorize(tx, decidableOf(request, say.requestMissing({ id }), before.request, before))
        const row = await repo.transition(tx, id, ['pending'], decision, now, { by: decider.userId, note: note?.trim() || null })
        if (!row) {
          const verb = decision === 'approved' ? say.decisionApproved() : say.decisionRejected()
          throw new ConflictError(say.notPending({ request, status: statusOf(before.request.status), decision: verb }))
        }
        const pending = await repo.ledgerOf(tx, id, 'pending')
        const entry = (from: (typeof pending)[number], kind: repo.LedgerKind, amount: number) => ({
          employeeId: from.employeeId,
          typeId: from.typeId,
          year: from.year,
          kind,
          amount,
          reason: decision,
          requestId: id,
          actorId: decider.userId,
          createdAt: now,
        })
        await repo.append(tx, [
          ...pending.map((p) => entry(p, 'release', -p.amount)),
          ...(decision === 'approved' ? pending.map((p) => entry(p, 'taken', p.amount)) : []),
        ])
        // full days only: a day with half of it or some hours on leave still wants its work
        const deleted =
          decision === 'approved' && row.halfDay === null && row.startTime === null
            ? await repo.deleteAbsences(tx, row.employeeId, row.startDate, row.endDate)
            : []
        const after = await reload(tx, id)
        await recordAudit(tx, decider, now, {
          action: decision === 'approved' ? 'leave_request.approve' : 'leave_request.reject',
          resource: 'leave_request',
          resourceId: id,
          before: toRequestResponse(before),
          after: deleted.length > 0 ? { ...after, deleted_absent_records: deleted } : after,
        })
        return after
      })
    },

    /** The month calendar's seam: each date of [start, end] an approved request covers, its leave of days and its hours (earliest first). */
    leaveOf: (async (employeeId, start, end) => {
      const days = new Map<string, LeaveOfDate>()
      const dayOf = (date: string) => days.get(date) ?? days.set(date, { leave: null, leave_hours: [] }).get(date)!
      for (const request of await repo.approvedBetween(db, employeeId, start, end)) {
        if (request.startTime !== null && request.endTime !== null) {
          dayOf(request.startDate).leave_hours.push({
            request_id: request.id,
            type_name: request.typeName,
            start_time: request.startTime,
            end_time: request.endTime,
            hours: figureOf('hour', request.amount),
          })
          continue
        }
        const first = request.startDate > start ? request.startDate : start
        const last = request.endDate < end ? request.endDate : end
        for (const date of repo.datesOf(first, last)) dayOf(date).leave = { request_id: request.id, type_name: request.typeName, half_day: request.halfDay }
      }
      for (const day of days.values()) day.leave_hours.sort((a, b) => (a.start_time < b.start_time ? -1 : a.start_time > b.start_time ? 1 : 0))
      return days
    }) satisfies LeaveOfDates,
  }
}

export type LeaveService = ReturnType<typeof createLeaveService>
