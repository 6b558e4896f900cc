import type { Queryable } from '../../db/client'
import { ValidationError, type FieldError } from '../../http/errors'
import { localDate } from '../../lib/local-time'
import { companyOf, ruleOfRecord, type CallerContext } from '../attendance/caller'
import { closesAt, judgeRecord, type Shift } from '../attendance/policy'
import { ruleFor, shiftColumns, shiftOfDay, shiftOfRecord, type TimeOff } from '../attendance/records'
import type * as attendanceRepo from '../attendance/repository'
import type { RuleRow } from '../attendance/setup/repository'
import { kindOnIn } from '../calendar/repository'
import type { DayKind } from '../calendar/work-days'
import { timeOffOn } from '../leave/repository'
import { say } from './messages'
import * as repo from './repository'

/*
 * What a change of a record's clock times does to it (CONTRACT §11): an approved correction, an
 * administrator's edit and the history import (§23) all plan it here, from the same facts, by the
 * same clock policy. `planRecord` is pure; `factsOn` reads its facts for one date, and the import
 * reads them for a whole file at once.
 */

const DAY_MS = 86_400_000

type RecordRow = attendanceRepo.RecordRow
export type Problem = FieldError

export interface Times {
  clockIn?: Date
  clockOut?: Date
}

/** What the record of an employee and date is judged from, besides its new times. */
export interface PlanFacts {
  /** the record of the date, if there is one */
  row: RecordRow | null
  /** that record's own rule (see `ruleOfRecord`): a record clocked in before records kept their shift is judged by it */
  rowRule: RuleRow | null
  /** how the employee's group's company marks the date */
  kind: DayKind | null
  /** what of the date the employee has on approved leave besides whole days: half of it, hours */
  off: TimeOff | null
}

/** What a change would do to the record of an employee and date: nothing written. */
export interface Plan {
  row: RecordRow | null
  values: Omit<attendanceRepo.NewRecord, 'employeeId' | 'workDate' | 'createdAt'>
  /** the requested times are the record's already */
  unchanged: boolean
}

/**
 * Whether the clock times a record would have hang together (CONTRACT §11): the clock-in on
 * the work date in the record's zone, the clock-out after it by at most 24 hours, neither in
 * the future, and no clock-out without a clock-in.
 */
export function timeProblems(workDate: string, zone: string, clockIn: Date | null, clockOut: Date | null, now: Date): Problem[] {
  const problems: Problem[] = []
  if (clockIn) {
    const date = localDate(clockIn, zone)
    if (date !== workDate)
      problems.push({ field: 'clock_in_time', message: say.clockInOffDate({ date: workDate, zone, instant: clockIn.toISOString(), actual: date }) })
    if (clockIn > now) problems.push({ field: 'clock_in_time', message: say.notInFuture() })
  }
  if (clockOut) {
    if (!clockIn) problems.push({ field: 'clock_in_time', message: say.clockInMissing({ date: workDate }) })
    else if (clockOut <= clockIn) problems.push({ field: 'clock_out_time', message: say.afterClockIn({ clockIn: clockIn.toISOString() }) })
    else if (clockOut.getTime() - clockIn.getTime() > DAY_MS)
      problems.push({ field: 'clock_out_time', message: say.within24Hours({ clockIn: clockIn.toISOString() }) })
    if (clockOut > now) problems.push({ field: 'clock_out_time', message: say.notInFuture() })
  }
  return problems
}

/** The zone a record's times are read in: a record clocked in keeps its own, a new one (or an absence) gets the employee's now. */
export const zoneOfPlan = (context: CallerContext, row: RecordRow | null): string => (row?.clockInTime ? row.timezone : context.zone)

/**
 * The record of `workDate` with `times` applied and recomputed by the clock policy: a record
 * clocked in is judged under the shift it keeps; a new record (or an absence) under the rule
 * that applies on the date now, with the calendar's mark, the employee's attendance start and
 * half-day or hourly leave, as a clock-in would be. A 400 (ValidationError) when there is no rule to judge
 * the date by or the times do not hang together.
 */
export function planRecord(context: CallerContext, workDate: string, times: Times, now: Date, { row, rowRule, kind, off }: PlanFacts): Plan {
  let shift: Shift
  let opened: Partial<attendanceRepo.NewRecord> = {}
  const zone = zoneOfPlan(context, row)
  if (row?.clockInTime) shift = shiftOfRecord(row, rowRule)
  else {
    const rule = ruleFor(context.rules, workDate)
    if (!rule)
      throw new ValidationError(
        context.group ? say.groupHasNoRule({ group: context.group.group.name, date: workDate }) : say.noGroup({ date: workDate }),
      )
    shift = shiftOfDay(rule, zone, workDate, kind, context.attendanceFrom, off)
    opened = { ruleId: rule.id, groupId: rule.groupId, timezone: zone, ...shiftColumns(shift) }
  }
  const clockIn = times.clockIn ?? row?.clockInTime ?? null
  const clockOut = times.clockOut ?? row?.clockOutTime ?? null
  const problems = timeProblems(workDate, zone, clockIn, clockOut, now)
  if (problems.length > 0) throw ValidationError.of(problems)
  const judged = judgeRecord(shift, clockIn, clockOut, now >= closesAt(shift.end, zone))
  const same = (a: Date | null | undefined, b: Date | null | undefined) => (a?.getTime() ?? null) === (b?.getTime() ?? null)
  return {
    row,
    values: { timezone: zone, ...opened, clockInTime: clockIn, clockOutTime: clockOut, ...judged, updatedAt: now },
    unchanged: row !== null && same(row.clockInTime, clockIn) && same(row.clockOutTime, clockOut),
  }
}

/** The facts of one employee's date, read in `q` (the database, or the transaction that writes the plan). */
export async function factsOn(q: Queryable, context: CallerContext, workDate: string): Promise<PlanFacts> {
  const row = await repo.recordOn(q, context.employeeId, workDate)
  if (row?.clockInTime) return { row, rowRule: await ruleOfRecord(q, context, row.ruleId), kind: null, off: null }
  const [kind, off] = await Promise.all([kindOnIn(q, companyOf(context), workDate), timeOffOn(q, context.employeeId, workDate)])
  return { row, rowRule: null, kind, off }
}
