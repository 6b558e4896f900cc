import type { InValue } from '@libsql/client'
import { evaluateClockIn, evaluateClockOut, isWorkDay, shiftFor, type PolicyRule } from '../../src/modules/attendance/policy'
import { addDays, instantAt, weekday } from '../../src/lib/local-time'
import type { Random } from './random'

/** Every seeded rule keeps office hours; groups differ in grace periods and the geofence. */
export const WORK_START = '09:00'
export const WORK_END = '18:00'
export const BREAK_START = '12:00'
export const BREAK_END = '13:00'
export const REQUIRED_WORK_HOURS = 8
export const WORK_DAYS = [1, 2, 3, 4, 5]
/** the rules' overtime_threshold_minutes (the column's default) */
export const OVERTIME_THRESHOLD = 30

export interface SeedRule {
  id: number
  groupId: number
  lateGrace: number
  earlyGrace: number
  allowedLateDays: number
  location: { latitude: number; longitude: number; radius: number } | null
}

export const ATTENDANCE_COLUMNS = [
  'employee_id',
  'rule_id',
  'group_id',
  'work_date',
  'timezone',
  // the shift the record keeps (policy.ts `Shift`)
  'shift_start',
  'shift_end',
  'work_date_end',
  'break_start',
  'break_end',
  'late_grace_period',
  'early_grace_period',
  'required_work_hours',
  'flexible_time',
  'is_work_day',
  'clock_in_time',
  'clock_out_time',
  'clock_in_lat',
  'clock_in_lng',
  'clock_out_lat',
  'clock_out_lng',
  'status',
  'work_minutes',
  'late_minutes',
  'early_minutes',
  'overtime_minutes',
  'note',
  'created_at',
  'updated_at',
] as const

/** Share of records per status (CONTRACT §4): normal, late, early leave, absent, exception. */
export const STATUS_MIX = [80, 8, 4, 5, 3] as const
export const STATUS_NAMES = ['normal', 'late', 'early_leave', 'absent', 'exception'] as const

const MINUTE_MS = 60_000
/** the scheduled day close runs every 15 s after a day has ended */
const DAY_CLOSE_LAG_MS = 15_000

export const policyOf = (rule: SeedRule): PolicyRule => ({
  workStart: WORK_START,
  workEnd: WORK_END,
  breakStart: BREAK_START,
  breakEnd: BREAK_END,
  lateGrace: rule.lateGrace,
  earlyGrace: rule.earlyGrace,
  requiredWorkHours: REQUIRED_WORK_HOURS,
  overtimeThreshold: OVERTIME_THRESHOLD,
  workDays: WORK_DAYS,
  flexible: false,
})

/**
 * The last `count` work dates on or before `end`, oldest first: dates whose ISO weekday is
 * a work day, less the company calendar's holidays, plus its make-up workdays.
 */
export function workDates(
  end: string,
  count: number,
  days: readonly number[] = WORK_DAYS,
  calendar: ReadonlyMap<string, 'holiday' | 'workday'> = new Map(),
): string[] {
  const dates: string[] = []
  for (let date = end; dates.length < count; date = addDays(date, -1)) {
    const kind = calendar.get(date)
    if (kind === 'workday' || (kind !== 'holiday' && days.includes(weekday(date)))) dates.push(date)
  }
  return dates.reverse()
}

/** A work date's shift, break and day-close instants in whole epoch minutes (ms for the close). */
export interface DayFrame {
  start: number
  end: number
  breakStart: number
  breakEnd: number
  closeMs: number
}

export function dayFrame(date: string, zone: string): DayFrame {
  const minute = (hhmm: string) => instantAt(date, hhmm, zone).getTime() / MINUTE_MS
  return {
    start: minute(WORK_START),
    end: minute(WORK_END),
    breakStart: minute(BREAK_START),
    breakEnd: minute(BREAK_END),
    closeMs: instantAt(addDays(date, 1), '00:00', zone).getTime(),
  }
}

const LATE_NOTES = ['地铁延误', 'Traffic jam on the ring road', '送孩子上学', 'Doctor appointment in the morning']
const EARLY_NOTES = ['家中有事', 'Left for a client meeting', '身体不适', 'Picked up a parcel at customs']

function near(random: Random, location: NonNullable<SeedRule['location']>): [number, number] {
  const metres = random.next() * location.radius * 0.6
  const angle = random.next() * 2 * Math.PI
  const latitude = location.latitude + (metres * Math.cos(angle)) / 111_320
  const longitude = location.longitude + (metres * Math.sin(angle)) / (111_320 * Math.cos((location.latitude * Math.PI) / 180))
  return [Math.round(latitude * 1e6) / 1e6, Math.round(longitude * 1e6) / 1e6]
}

/**
 * One employee's record for one work date, as the clock-in, clock-out and day-close
 * code would have left it: status, late and early minutes, minutes worked and overtime follow
 * the rule (checked against src/modules/attendance/policy.ts by `checkRecord`).
 * Returns the row in ATTENDANCE_COLUMNS order.
 */
export function makeRecord(random: Random, rule: SeedRule, frame: DayFrame, employeeId: number, workDate: string, zone: string): InValue[] {
  // every generated date is a work day of the rule (see `workDates`)
  const kept: InValue[] = [
    frame.start * MINUTE_MS,
    frame.end * MINUTE_MS,
    frame.closeMs,
    frame.breakStart * MINUTE_MS,
    frame.breakEnd * MINUTE_MS,
    rule.lateGrace,
    rule.earlyGrace,
    REQUIRED_WORK_HOURS,
    0,
    1,
  ]
  const head = [employeeId, rule.id, rule.groupId, workDate, zone, ...kept]
  const kind = random.weighted(STATUS_MIX)
  if (kind === 3) {
    const at = frame.closeMs + random.int(0, DAY_CLOSE_LAG_MS - 1)
    return [...head, null, null, null, null, null, null, 3, 0, 0, 0, 0, '', at, at]
  }
  // some of the early leavers and of the forgotten clock-outs came in late as well
  const late = kind === 1 || ((kind === 2 || kind === 4) && random.chance(0.2))
  let inMinute: number
  if (late) inMinute = frame.start + rule.lateGrace + 1 + Math.floor(random.next() ** 2 * 90)
  else if (rule.lateGrace > 0 && random.chance(0.2)) inMinute = frame.start + random.int(0, rule.lateGrace)
  else inMinute = frame.start - Math.floor(random.next() ** 1.5 * 45)
  const lateMinutes = late ? inMinute - frame.start : 0
  const clockIn = inMinute * MINUTE_MS + random.int(0, MINUTE_MS - 1)
  const [inLat, inLng] = rule.location ? near(random, rule.location) : [null, null]
  let note = late && random.chance(0.1) ? random.pick(LATE_NOTES) : ''

  if (kind === 4) {
    const closedAt = frame.closeMs + random.int(0, DAY_CLOSE_LAG_MS - 1)
    return [...head, clockIn, null, inLat, inLng, null, null, 4, 0, lateMinutes, 0, 0, note, clockIn, closedAt]
  }

  let outMinute: number
  if (kind === 2) outMinute = frame.end - rule.earlyGrace - 1 - Math.floor(random.next() ** 2 * 150)
  else if (kind === 1) outMinute = frame.end + Math.floor(random.next() ** 2 * 60)
  else {
    // on time and long enough: at least the required hours plus the break
    const enough = inMinute + REQUIRED_WORK_HOURS * 60 + (frame.breakEnd - frame.breakStart)
    outMinute = Math.max(frame.end, enough) + Math.floor(random.next() ** 2 * 75)
  }
  const overlap = Math.max(0, Math.min(outMinute, frame.breakEnd) - Math.max(inMinute, frame.breakStart))
  const workMinutes = Math.max(0, outMinute - inMinute - overlap)
  const earlyMinutes = kind === 2 ? frame.end - outMinute : 0
  // policy.ts `overtimeOf` on a work day: from the work end to the clock-out, when it reaches the threshold
  const beyond = Math.min(outMinute - frame.end, workMinutes)
  const overtimeMinutes = beyond >= OVERTIME_THRESHOLD ? beyond : 0
  const clockOut = outMinute * MINUTE_MS + random.int(0, MINUTE_MS - 1)
  const [outLat, outLng] = rule.location ? near(random, rule.location) : [null, null]
  if (kind === 2 && random.chance(0.2)) note = note ? `${note}\n${random.pick(EARLY_NOTES)}` : random.pick(EARLY_NOTES)
  return [...head, clockIn, clockOut, inLat, inLng, outLat, outLng, kind, workMinutes, lateMinutes, earlyMinutes, overtimeMinutes, note, clockIn, clockOut]
}

const column = (name: (typeof ATTENDANCE_COLUMNS)[number]) => ATTENDANCE_COLUMNS.indexOf(name)
const AT = {
  workDate: column('work_date'),
  shiftStart: column('shift_start'),
  clockIn: column('clock_in_time'),
  clockOut: column('clock_out_time'),
  status: column('status'),
  workMinutes: column('work_minutes'),
  lateMinutes: column('late_minutes'),
  earlyMinutes: column('early_minutes'),
  overtimeMinutes: column('overtime_minutes'),
}

/** The kept-shift columns of a row, in ATTENDANCE_COLUMNS order. */
const keptOf = (row: readonly InValue[]) => row.slice(AT.shiftStart, AT.shiftStart + 10)

/** What the app's own policy says of a generated row; null when they agree, else the difference. */
export function checkRecord(rule: SeedRule, zone: string, row: readonly InValue[]): string | null {
  const policy = policyOf(rule)
  const workDate = row[AT.workDate] as string
  const stored = {
    status: row[AT.status] as number,
    lateMinutes: row[AT.lateMinutes] as number,
    earlyMinutes: row[AT.earlyMinutes] as number,
    workMinutes: row[AT.workMinutes] as number,
    overtimeMinutes: row[AT.overtimeMinutes] as number,
  }
  if (!isWorkDay(policy, workDate)) return `${workDate} is not a work day of rule ${rule.id}`
  const shift = shiftFor(policy, zone, workDate)
  const kept = [shift.start, shift.end, shift.workDateEnd, shift.breakStart!, shift.breakEnd!].map((at) => at.getTime())
  const expectedKept = [...kept, shift.lateGrace, shift.earlyGrace, shift.requiredWorkHours, Number(shift.flexible), Number(shift.workDay)]
  const keptRow = JSON.stringify(keptOf(row))
  if (keptRow !== JSON.stringify(expectedKept)) return `kept shift ${keptRow}, policy ${JSON.stringify(expectedKept)}`
  if (row[AT.clockIn] === null) {
    const expected = { status: 3, lateMinutes: 0, earlyMinutes: 0, workMinutes: 0, overtimeMinutes: 0 }
    return JSON.stringify(stored) === JSON.stringify(expected) ? null : `absent row ${JSON.stringify(stored)}`
  }
  const clockIn = new Date(row[AT.clockIn] as number)
  const atIn = evaluateClockIn(policy, zone, clockIn)
  if (atIn.workDate !== workDate) return `clock-in ${clockIn.toISOString()} falls on ${atIn.workDate}, stored ${workDate}`
  let expected: typeof stored
  if (row[AT.clockOut] === null) expected = { status: 4, lateMinutes: atIn.lateMinutes, earlyMinutes: 0, workMinutes: 0, overtimeMinutes: 0 }
  else {
    const atOut = evaluateClockOut(policy, zone, workDate, clockIn, new Date(row[AT.clockOut] as number), atIn.lateMinutes)
    expected = {
      status: atOut.status,
      lateMinutes: atIn.lateMinutes,
      earlyMinutes: atOut.earlyMinutes,
      workMinutes: atOut.workMinutes,
      overtimeMinutes: atOut.overtimeMinutes,
    }
  }
  return JSON.stringify(stored) === JSON.stringify(expected) ? null : `stored ${JSON.stringify(stored)}, policy ${JSON.stringify(expected)}`
}
