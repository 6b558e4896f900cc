import type { Db, Queryable } from '../../db/client'
import { ValidationError } from '../../http/errors'
import { localDate } from '../../lib/local-time'
import { attendanceStart } from '../calendar/work-days'
import { linkedEmployee, type Principal } from '../rbac/access'
import { say } from './messages'
import { shiftNow } from './records'
import * as setup from './setup/repository'
import { zoneOf } from './setup/shapes'

/** Who is clocking or reading their attendance: the caller's employee, group, zone and enabled rules. */
export interface CallerContext {
  employeeId: number
  hireDate: string | null
  /** false once the employee is marked as left (status 0) */
  active: boolean
  group: { group: setup.GroupRow; companyTimezone: string | null } | null
  zone: string
  rules: setup.RuleRow[]
  /**
   * The first date the employee's attendance counts (CONTRACT §23, calendar/work-days.ts
   * `attendanceStart`): no date before it is a work day, an absence or leave; null: no bound.
   */
  attendanceFrom: string | null
  /**
   * The last date the employee's attendance counts: their `left_on` (CONTRACT §18). No date after
   * it is a work day, an absence or leave, and no record after it counts; null: no bound.
   */
  attendanceUntil: string | null
}

type ContextDeps = { db: Db; defaultZone: string; ruleCache: setup.RuleCache }

/** Loads a caller's context (one query; the rules come from the shared cache); 403 when no employee is linked. */
export function callerContext(deps: ContextDeps) {
  const ofEmployee = employeeContext(deps)
  return (principal: Principal): Promise<CallerContext> => ofEmployee(linkedEmployee(principal, 'attendance'))
}

/** An employee's context, as their own requests see it (an administrator correcting their record uses it too). */
export function employeeContext({ db, defaultZone, ruleCache }: ContextDeps) {
  return async (employeeId: number): Promise<CallerContext> => {
    const membership = await setup.membershipOf(db, employeeId)
    const group = membership?.group ?? null
    const rules = group && group.status === 1 ? await ruleCache.get(group.id, () => setup.enabledRulesOfGroup(db, group.id)) : []
    return contextFrom(employeeId, membership, rules, defaultZone)
  }
}

/** An employee's context from their membership (null: the employee is gone) and their group's enabled rules. */
export function contextFrom(employeeId: number, membership: setup.Membership | null, rules: setup.RuleRow[], defaultZone: string): CallerContext {
  const group = membership?.group ? { group: membership.group, companyTimezone: membership.companyTimezone } : null
  const hireDate = membership?.hireDate ?? null
  return {
    employeeId,
    hireDate,
    active: membership?.status !== 0,
    group,
    zone: group ? zoneOf(group, defaultZone) : defaultZone,
    rules: group && group.group.status === 1 ? rules : [],
    // a company's start applies through the group whose calendar applies (none outside a group)
    attendanceFrom: attendanceStart(group ? (membership?.companyStartsOn ?? null) : null, hireDate),
    attendanceUntil: membership?.leftOn ?? null,
  }
}

/** A record's own rule: from the caller's enabled rules when it is one of them, else read (a disabled or other group's); null when gone. */
export async function ruleOfRecord(db: Queryable, context: CallerContext, ruleId: number | null): Promise<setup.RuleRow | null> {
  if (ruleId === null) return null
  return context.rules.find((rule) => rule.id === ruleId) ?? (await setup.findRule(db, ruleId))?.rule ?? null
}

/** The company whose work calendar applies to the caller: their group's (null outside a group). */
export const companyOf = (context: CallerContext): number | null => context.group?.group.companyId ?? null

/** Today's work date for the caller: the date a clock-in now would get (the local date, or the overnight shift still running). */
export function todayWorkDate(context: Pick<CallerContext, 'rules' | 'zone'>, now: Date): string {
  return shiftNow(context.rules, context.zone, now)?.workDate ?? localDate(now, context.zone)
}

/** 400 for an employee marked as left: they no longer clock in or out. */
export function requireActive(context: CallerContext): void {
  if (!context.active) throw new ValidationError(say.hasLeftClock())
}

/** The rule and work date the caller clocks in against now; 400 saying why when there is none. */
export function requireShift(context: CallerContext, now: Date): { rule: setup.RuleRow; workDate: string } {
  if (!context.group) throw new ValidationError(say.notInGroupAsk())
  const shift = shiftNow(context.rules, context.zone, now)
  if (!shift)
    throw new ValidationError(
      context.group.group.status === 1
        ? say.groupWithoutRuleAsk({ group: context.group.group.name })
        : say.groupDisabledAsk({ group: context.group.group.name }),
    )
  return shift
}

/** 400 for a request (leave, correction) of an employee who has left, or from a date before their hire date (CONTRACT §15). */
export function requireEmployed(context: CallerContext, firstDate: string, field: string): void {
  if (!context.active)
    throw new ValidationError(say.hasLeftRequests(), [{ field, message: say.employeeHasLeft() }])
  if (context.hireDate !== null && firstDate < context.hireDate)
    throw new ValidationError(say.beforeHireDate({ field, date: firstDate, hireDate: context.hireDate }), [
      { field, message: say.notBeforeHireDate({ hireDate: context.hireDate }) },
    ])
}
