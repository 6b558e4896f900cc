import type { Queryable } from '../../db/client'
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../../http/errors'
import { pageWindow, p2Pagination } from '../../http/pagination'
import { isCalendarDate } from '../../lib/dates'
import { addDays, localDate } from '../../lib/local-time'
import { onConstraint } from '../../lib/sqlite-errors'
import { requiredText } from '../../lib/text'
import type { Locale } from '../../config'
import { recordAudit, type Actor } from '../audit/recorder'
import { employeeContext, requireEmployed, type CallerContext } from '../attendance/caller'
import { hoursOfRecord, toRecordResponse } from '../attendance/records'
import * as attendanceRepo from '../attendance/repository'
import type { AttendanceDeps } from '../attendance/service'
import { decidableOf, type Authorize } from '../approvals/routing'
import { linkedEmployee, type Principal } from '../rbac/access'
import { partiesOf, requireNotOwn } from '../rbac/own-matters'
import type { CorrectionQuery, CorrectionResponse, CreateCorrectionInput, EditRecordInput, RecordSnapshot } from './model'
import { factsOn, planRecord, type Plan, type Problem, type Times } from './plan'
import { say as common } from '../../http/messages'
import { say } from './messages'
import * as repo from './repository'

/** How far back an employee may ask for a correction, in days before today (CONTRACT §11). */
export const CORRECTION_DAYS_BACK = 31

type RecordRow = attendanceRepo.RecordRow

export function snapshotOf(row: RecordRow | null): RecordSnapshot | null {
  if (!row) return null
  return {
    id: row.id,
    clock_in_time: row.clockInTime?.toISOString() ?? null,
    clock_out_time: row.clockOutTime?.toISOString() ?? null,
    status: row.status,
    late_minutes: row.lateMinutes,
    early_minutes: row.earlyMinutes,
    work_hours: hoursOfRecord(row),
    overtime_minutes: row.overtimeMinutes,
  }
}

export function toCorrectionResponse(row: repo.FullCorrection): CorrectionResponse {
  const c = row.correction
  return {
    id: c.id,
    employee_id: c.employeeId,
    employee: { id: c.employeeId, name: row.employeeName },
    work_date: c.workDate,
    timezone: c.timezone,
    clock_in_time: c.clockInTime?.toISOString() ?? null,
    clock_out_time: c.clockOutTime?.toISOString() ?? null,
    reason: c.reason,
    status: c.status,
    record_id: c.recordId,
    before: (c.before as RecordSnapshot | null) ?? null,
    after: (c.after as RecordSnapshot | null) ?? null,
    approver: row.approverId === null || row.approverName === null ? null : { id: row.approverId, name: row.approverName },
    decided_by: c.decidedBy === null || row.deciderName === null ? null : { id: c.decidedBy, name: row.deciderName },
    decided_at: c.decidedAt?.toISOString() ?? null,
    decision_note: c.decisionNote,
    created_at: c.createdAt.toISOString(),
    updated_at: c.updatedAt.toISOString(),
  }
}

const refuse = (problems: Problem[]) => ValidationError.of(problems)

/** A correction's status as messages name it. */
const STATUS = { pending: say.pendingStatus, approved: say.approvedStatus, rejected: say.rejectedStatus, cancelled: say.cancelledStatus } as const

/** A correction as a person knows it: whose, of which date. */
const named = (found: repo.FullCorrection) => say.correction({ employee: found.employeeName, date: found.correction.workDate })

/** The requested instants; at least one (400 naming the fields otherwise). */
function timesOf(input: { clock_in_time?: string; clock_out_time?: string }): Times {
  const problems: Problem[] = []
  const times: Times = {}
  for (const [field, key] of [
    ['clock_in_time', 'clockIn'],
    ['clock_out_time', 'clockOut'],
  ] as const) {
    const value = input[field]
    if (value === undefined) continue
    const instant = new Date(value)
    if (Number.isNaN(instant.getTime())) problems.push({ field, message: say.notInstant({ value }) })
    else times[key] = instant
  }
  if (problems.length === 0 && !times.clockIn && !times.clockOut)
    problems.push({ field: 'clock_in_time', message: say.oneTimeRequired() })
  if (problems.length > 0) throw refuse(problems)
  return times
}

export function createCorrectionsService({ database, clock, defaultZone, ruleCache }: AttendanceDeps) {
  const { db } = database
  const contextOf = employeeContext({ db, defaultZone, ruleCache })

  const load = async (q: Queryable, id: number) => toCorrectionResponse((await repo.findCorrection(q, id))!)

  /** What `times` would make of the record of `workDate`, judged by the facts as `q` reads them now. */
  const plan = async (q: Queryable, context: CallerContext, workDate: string, times: Times, now: Date): Promise<Plan> =>
    planRecord(context, workDate, times, now, await factsOn(q, context, workDate))

  /** Writes a plan: the record updated, or created when the date has none; either way `corrected`. */
  const write = (q: Queryable, context: CallerContext, workDate: string, { row, values }: Plan, now: Date) =>
    row
      ? repo.updateRecord(q, row.id, { ...values, corrected: true })
      : repo.insertRecord(q, { ...values, corrected: true, employeeId: context.employeeId, workDate, createdAt: now })

  const nothingToCorrect = (workDate: string) =>
    new ValidationError(say.nothingToCorrect({ date: workDate }), [{ field: 'clock_in_time', message: say.timesAlreadyThere() }])

  const pendingConflict = (workDate: string) => new ConflictError(say.pending({ date: workDate }))

  return {
    /** An employee asks to correct one of their work dates (CONTRACT §11); it waits for approval. */
    async request(principal: Principal, input: CreateCorrectionInput, actor: Actor): Promise<CorrectionResponse> {
      const context = await contextOf(linkedEmployee(principal, 'attendance'))
      const now = clock.now()
      const workDate = input.work_date
      if (!isCalendarDate(workDate)) throw refuse([{ field: 'work_date', message: common.notRealDate({ value: workDate }) }])
      const today = localDate(now, context.zone)
      const earliest = addDays(today, -CORRECTION_DAYS_BACK)
      if (workDate > today || workDate < earliest)
        throw refuse([{ field: 'work_date', message: say.dateRange({ earliest, today, zone: context.zone }) }])
      requireEmployed(context, workDate, 'work_date')
      const times = timesOf(input)
      const reason = requiredText(input.reason, 'reason', 500)
      // checked now against the record as it is, and again on approval against the record as it is then
      const planned = await plan(db, context, workDate, times, now)
      if (planned.unchanged) throw nothingToCorrect(workDate)
      return database.write(async (tx) => {
        const parties = await partiesOf(tx, context.employeeId)
        const id = await onConstraint(
          () =>
            repo.insertCorrection(tx, {
              ...parties,
              employeeId: context.employeeId,
              workDate,
              timezone: planned.values.timezone!,
              clockInTime: times.clockIn ?? null,
              clockOutTime: times.clockOut ?? null,
              reason,
              recordId: planned.row?.id ?? null,
              before: snapshotOf(planned.row),
              createdBy: actor.userId,
              createdAt: now,
              updatedAt: now,
            }),
          { unique: () => pendingConflict(workDate) },
        )
        const created = await load(tx, id)
        await recordAudit(tx, actor, now, { action: 'attendance_correction.create', resource: 'attendance_correction', resourceId: id, after: created })
        return created
      })
    },

    async own(principal: Principal, query: CorrectionQuery) {
      const employeeId = linkedEmployee(principal, 'attendance')
      const window = pageWindow(query, 10)
      const { rows, total } = await repo.listOwn(db, employeeId, query.status, window)
      return { corrections: rows.map(toCorrectionResponse), pagination: p2Pagination(total, window) }
    },

    /** The caller's own, while pending; another's is a 404 (it is not theirs to know of). */
    async cancelOwn(principal: Principal, id: number, actor: Actor): Promise<CorrectionResponse> {
      const employeeId = linkedEmployee(principal, 'attendance')
      const now = clock.now()
      return database.write(async (tx) => {
        const before = await repo.findCorrection(tx, id)
        if (!before || before.correction.employeeId !== employeeId) throw new NotFoundError(say.correctionMissing({ id }))
        if (!(await repo.transition(tx, id, 'cancelled', { updatedAt: now, decidedBy: actor.userId, decidedAt: now })))
          throw new ConflictError(say.notPendingCancel({ correction: named(before), status: STATUS[before.correction.status]() }))
        const after = await load(tx, id)
        await recordAudit(tx, actor, now, {
          action: 'attendance_correction.cancel',
          resource: 'attendance_correction',
          resourceId: id,
          before: toCorrectionResponse(before),
          after,
        })
        return after
      })
    },

    /** The approvals inbox's corrections (CONTRACT §10). */
    async decidable(filter: Parameters<typeof repo.listDecidable>[1], window: ReturnType<typeof pageWindow>) {
      const { rows, total } = await repo.listDecidable(db, filter, window)
      return { rows: rows.map(toCorrectionResponse), total }
    },

    /**
     * Approves or rejects a pending correction in one transaction; `authorize` runs inside it on
     * the row it decides. Approval recomputes the record (409 when the correction no longer fits
     * it, e.g. a clock-out now before the record's clock-in) and keeps it before and after.
     */
    async decide(
      id: number,
      decision: 'approved' | 'rejected',
      decider: Actor,
      note: string | null,
      authorize: Authorize,
    ): Promise<CorrectionResponse> {
      const now = clock.now()
      return database.write(async (tx) => {
        const found = await repo.findCorrection(tx, id)
        if (!found) throw new NotFoundError(say.correctionMissing({ id }))
        const c = found.correction
        const correction = named(found)
        await authorize(tx, decidableOf(correction, say.correctionMissing({ id }), c, found))
        if (c.status !== 'pending')
          throw new ConflictError(say.notPendingDecide({ correction, status: STATUS[c.status](), decision: (decision === 'approved' ? say.approve : say.reject)() }))
        const decided = { updatedAt: now, decidedBy: decider.userId, decidedAt: now, decisionNote: note }
        let change: { before: RecordSnapshot | null; after: RecordSnapshot | null; recordId: number } | null = null
        if (decision === 'approved') {
          const context = await contextOf(c.employeeId)
          const times = { clockIn: c.clockInTime ?? undefined, clockOut: c.clockOutTime ?? undefined }
          const planned = await plan(tx, context, c.workDate, times, now).catch((error) => {
            if (error instanceof ValidationError)
              throw new ConflictError(say.noLongerFits({ correction, problem: error.text }))
            throw error
          })
          const written = await write(tx, context, c.workDate, planned, now)
          change = { before: snapshotOf(planned.row), after: snapshotOf(written), recordId: written.id }
        }
        const row = await repo.transition(tx, id, decision, { ...decided, ...(change ?? {}) })
        if (!row) throw new ConflictError(say.changedMeanwhile({ correction }))
        const after = await load(tx, id)
        await recordAudit(tx, decider, now, {
          action: decision === 'approved' ? 'attendance_correction.approve' : 'attendance_correction.reject',
          resource: 'attendance_correction',
          resourceId: id,
          before: toCorrectionResponse(found),
          after,
        })
        return after
      })
    },

    /**
     * An administrator corrects a record at once (CONTRACT §11): the same recomputation as an
     * approved correction, kept as an approved correction with its reason. Never one's own record,
     * as nobody decides their own request; and not while the employee's correction of that date
     * is pending (decide that first).
     */
    async edit(principal: Principal, recordId: number, input: EditRecordInput, actor: Actor, locale: Locale) {
      const times = timesOf(input)
      const reason = requiredText(input.reason, 'reason', 500)
      const now = clock.now()
      const found = await repo.recordById(db, recordId)
      if (!found) throw new NotFoundError(say.recordMissing({ id: recordId }))
      const context = await contextOf(found.employeeId)
      const written = await database.write(async (tx) => {
        await requireNotOwn(tx, principal, { label: say.record({ id: recordId }), employeeId: found.employeeId }, 'edit')
        if (await repo.pendingOn(tx, found.employeeId, found.workDate)) throw pendingConflict(found.workDate)
        const planned = await plan(tx, context, found.workDate, times, now)
        if (planned.unchanged) throw nothingToCorrect(found.workDate)
        const record = await write(tx, context, found.workDate, planned, now)
        const before = snapshotOf(planned.row)
        const after = snapshotOf(record)
        const correctionId = await repo.insertCorrection(tx, {
          employeeId: found.employeeId,
          workDate: found.workDate,
          timezone: record.timezone,
          clockInTime: times.clockIn ?? null,
          clockOutTime: times.clockOut ?? null,
          reason,
          status: 'approved',
          recordId,
          before,
          after,
          ...(await partiesOf(tx, found.employeeId)),
          createdBy: actor.userId,
          decidedBy: actor.userId,
          decidedAt: now,
          createdAt: now,
          updatedAt: now,
        })
        await recordAudit(tx, actor, now, {
          action: 'attendance_record.correct',
          resource: 'attendance_record',
          resourceId: recordId,
          before,
          after: { ...after, reason, correction_id: correctionId },
        })
        return record
      })
      const row = await attendanceRepo.findRecord(db, written.id)
      return toRecordResponse(row!, locale)
    },
  }
}

export type CorrectionsService = ReturnType<typeof createCorrectionsService>
