/**
 * B4: a clock-in as Workforce does it (src/modules/attendance/service.ts `clockIn`), written out
 * by hand: the caller's group and zone, the group's enabled rules (kept half a second, as
 * Workforce's rule cache keeps them), the work date and rule, the position against the rule's
 * area, the calendar's mark and any half day or hours of leave on the date, the shift and the verdict by
 * Workforce's own pure functions (policy.ts, records.ts, geofence.ts), then the one INSERT …
 * SELECT … RETURNING. Only the failure paths S1 never takes are shortened (a refused position
 * is answered 400 without keeping the attempt).
 */
import { ConflictError, ValidationError, type FieldError } from '../../src/http/errors'
import { say as http } from '../../src/http/messages'
import { localDate } from '../../src/lib/local-time'
import { render, ruleMessage } from '../../src/lib/messages'
import { statusText } from '../../src/lib/status-text'
import type { Locale } from '../../src/config'
import { judgePosition } from '../../src/modules/attendance/geofence'
import { rules, say } from '../../src/modules/attendance/messages'
import { judgeClockIn } from '../../src/modules/attendance/policy'
import { shiftColumns, shiftNow, shiftOfDay } from '../../src/modules/attendance/records'
import type { RuleRow } from '../../src/modules/attendance/setup/repository'
import { attendanceStart } from '../../src/modules/calendar/work-days'
import { CLOCKED_IN, type Membership, type SameWorkDb } from './same-work-db'

const RULES_TTL_MS = 500

export interface Context {
  employeeId: number
  active: boolean
  membership: Membership | null
  zone: string
  rules: RuleRow[]
}

/** The caller's group, zone and enabled rules (attendance/caller.ts `employeeContext`). */
export function contextReader(db: SameWorkDb, defaultZone: string) {
  const rulesOfGroup = new Map<number, { until: number; rules: RuleRow[] }>()
  const enabledRules = (groupId: number) => {
    const now = performance.now()
    const hit = rulesOfGroup.get(groupId)
    if (hit && hit.until > now) return hit.rules
    const rules = db.enabledRules(groupId)
    rulesOfGroup.set(groupId, { until: now + RULES_TTL_MS, rules })
    return rules
  }
  return (employeeId: number): Context => {
    const membership = db.membership(employeeId)
    const group = membership?.group ?? null
    const zone = group ? (group.timezone ?? membership!.companyTimezone ?? defaultZone) : defaultZone
    const rules = group && group.status === 1 ? enabledRules(group.id) : []
    return { employeeId, active: membership?.status !== 0, membership, zone, rules }
  }
}

export interface ClockBody {
  latitude?: number
  longitude?: number
  note?: string
}

/**
 * What Workforce's JSON reader and ClockBody model accept, refused as they refuse it: a note with
 * NUL by the reader (json-body.ts), then every field the model refuses (the error handler's
 * "Invalid request: field problem", naming the first): an object, coordinates in range, a note of
 * at most 500 characters.
 */
export function clockBody(body: unknown): ClockBody {
  const { note } = (body ?? {}) as Record<string, unknown>
  if (typeof note === 'string' && note.includes('\u0000')) throw new ValidationError(http.nulInField({ key: 'note' }))
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw refused([{ field: 'body', message: http.mustBeObject() }])
  const { latitude, longitude } = body as Record<string, unknown>
  const problems: FieldError[] = []
  const coordinate = (name: 'latitude' | 'longitude', value: unknown, limit: number) => {
    if (value !== undefined && (typeof value !== 'number' || !(Math.abs(value) <= limit)))
      problems.push({ field: name, message: ruleMessage(rules[name], name) })
  }
  coordinate('latitude', latitude, 90)
  coordinate('longitude', longitude, 180)
  if (note !== undefined && typeof note !== 'string') problems.push({ field: 'note', message: http.mustBeString() })
  else if (typeof note === 'string' && note.length > 500) problems.push({ field: 'note', message: http.maxLength({ n: 500 }) })
  if (problems.length > 0) throw refused(problems)
  return body as ClockBody
}

const refused = (problems: FieldError[]) =>
  new ValidationError(http.invalidField({ field: problems[0].field, problem: problems[0].message }), problems)

export function clockIn(db: SameWorkDb, context: Context, input: ClockBody, locale: Locale) {
  const now = new Date()
  if (!context.active) throw new ValidationError(say.hasLeftClock())
  const group = context.membership?.group
  if (!group) throw new ValidationError(say.notInGroupAsk())
  const found = shiftNow(context.rules, context.zone, now)
  if (!found)
    throw new ValidationError(group.status === 1 ? say.groupWithoutRuleAsk({ group: group.name }) : say.groupDisabledAsk({ group: group.name }))
  const { rule, workDate } = found
  const verdict = judgePosition(rule, input, 'clock_in')
  if (!verdict.allowed) throw new ValidationError(verdict.message)

  const kind = db.kindOn(group.companyId, workDate)
  const off = db.timeOff(context.employeeId, workDate)
  const membership = context.membership!
  const shift = shiftOfDay(rule, context.zone, workDate, kind, attendanceStart(membership.companyStartsOn, membership.hireDate), off)
  const outcome = judgeClockIn(shift, now)
  const at = now.getTime()
  const kept = shiftColumns(shift)
  const time = (value: Date | null) => (value === null ? null : value.getTime())
  const flag = (value: boolean) => (value ? 1 : 0)
  let row: unknown[] | undefined
  try {
    row = db.insertClockIn([
      context.employeeId, rule.id, rule.groupId, workDate, context.zone,
      time(kept.shiftStart), time(kept.shiftEnd), time(kept.workDateEnd), time(kept.breakStart), time(kept.breakEnd),
      kept.lateGracePeriod, kept.earlyGracePeriod, kept.requiredWorkHours, flag(kept.flexibleTime), flag(kept.isWorkDay),
      time(kept.overtimeFrom), kept.overtimeThreshold,
      at, input.latitude ?? null, input.longitude ?? null,
      outcome.status, 0, outcome.lateMinutes, 0, 0, 0, 0, input.note?.trim() ?? '', at, at,
      // the two NOT EXISTS: a clock-in on a later date, an open record of an earlier date not over yet
      context.employeeId, workDate, context.employeeId, at, workDate,
    ]) // prettier-ignore
  } catch (error) {
    if (error instanceof Error && error.message.includes('UNIQUE constraint failed')) throw new ConflictError(say.alreadyClockedIn({ date: workDate }))
    throw error
  }
  if (!row) {
    const other = db.refusingDate(context.employeeId, workDate, at)
    throw new ConflictError(other !== null && other < workDate ? say.stillClockedIn({ date: other }) : say.alreadyClockedIn({ date: other ?? workDate }))
  }
  const message = !shift.workDay
    ? say.clockedInOffDay()
    : outcome.status === 1
      ? say.clockedInLate({ minutes: outcome.lateMinutes })
      : say.clockedInOnTime()
  const status = row[CLOCKED_IN.status] as number
  const lateMinutes = row[CLOCKED_IN.late_minutes] as number
  return {
    attendance_id: row[CLOCKED_IN.id] as number,
    work_date: row[CLOCKED_IN.work_date] as string,
    clock_in_time: now.toISOString(),
    status,
    status_text: statusText('attendance', status, locale),
    late_minutes: lateMinutes,
    message: render(message, locale),
  }
}

/** Today's work date for the caller: a clock-in's now, or the local date (caller.ts `todayWorkDate`). */
export function todayWorkDate(context: Context, now: Date): string {
  return shiftNow(context.rules, context.zone, now)?.workDate ?? localDate(now, context.zone)
}
