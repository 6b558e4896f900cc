/*
 * Shared pieces of the attendance oracle and property tests (issue 20): a plain re-statement of
 * CONTRACT §4 written from the documents, not from src/modules/attendance. Local time comes from
 * Intl directly; rule times are generated outside 01:00–03:59 so no rule time ever falls into a
 * DST gap or overlap and every (date, HH:MM, zone) names exactly one instant.
 */
import { req, type Reply } from './helpers'
import type { App } from '../src/app'

export const DST_ZONES = ['America/New_York', 'Europe/Berlin', 'Australia/Sydney', 'Asia/Shanghai', 'UTC'] as const

const MINUTE = 60_000
const DAY = 86_400_000

// ---------------------------------------------------------------- calendar and local time

export const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10)
/** 1 = Monday … 7 = Sunday */
export const weekday = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay() || 7
export const daysFrom = (start: string, end: string) => Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / DAY)
export const hhmm = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`
export const minutesOfHHMM = (value: string) => Number(value.slice(0, 2)) * 60 + Number(value.slice(3, 5))

const formats = new Map<string, Intl.DateTimeFormat>()
function wallParts(ms: number, zone: string) {
  let format = formats.get(zone)
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
    formats.set(zone, format)
  }
  const parts: Record<string, string> = {}
  for (const part of format.formatToParts(ms)) parts[part.type] = part.value
  return parts
}

/** The wall clock in `zone` at the instant, as if it were UTC (ms). */
function wallMs(ms: number, zone: string): number {
  const p = wallParts(ms, zone)
  return Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second))
}

export const localDateOf = (instant: Date | number, zone: string) => new Date(wallMs(+instant, zone)).toISOString().slice(0, 10)
export const localMinuteOf = (instant: Date | number, zone: string) => {
  const wall = new Date(wallMs(+instant, zone))
  return wall.getUTCHours() * 60 + wall.getUTCMinutes()
}

/** The one instant at which `zone` shows `date time`; throws for a wall time in a gap or an overlap. */
export function instantAt(date: string, time: string, zone: string): Date {
  const wanted = Date.parse(`${date}T${time}:00Z`)
  const hits = new Set<number>()
  for (const probe of [wanted - DAY, wanted, wanted + DAY]) {
    const candidate = wanted - (wallMs(probe, zone) - Math.floor(probe / 1000) * 1000)
    if (wallMs(candidate, zone) === wanted) hits.add(candidate)
  }
  if (hits.size !== 1) throw new Error(`${date} ${time} in ${zone} is not one instant (${hits.size})`)
  return new Date([...hits][0])
}

/** Whole minutes since the epoch: comparing these drops the seconds. */
export const minuteOf = (instant: Date | string | number) => Math.floor(new Date(instant).getTime() / MINUTE)

// ---------------------------------------------------------------- rules

export interface RuleSpec {
  id: number
  start: string
  end: string
  breakStart: string | null
  breakEnd: string | null
  lateGrace: number
  earlyGrace: number
  required: number
  allowedLate: number
  workDays: number[]
  flexible: boolean
  enabled: boolean
}

export const isOvernight = (rule: RuleSpec) => minutesOfHHMM(rule.end) < minutesOfHHMM(rule.start)

/** CONTRACT §4, the caller's rule: among enabled rules, lowest id first, the one working on the date's weekday, else the first. */
export function ruleOn(rules: RuleSpec[], date: string): RuleSpec | null {
  const enabled = rules.filter((rule) => rule.enabled).sort((a, b) => a.id - b.id)
  return enabled.find((rule) => rule.workDays.includes(weekday(date))) ?? enabled[0] ?? null
}

export const isWorkDate = (rules: RuleSpec[], date: string) => {
  const rule = ruleOn(rules, date)
  return rule !== null && rule.workDays.includes(weekday(date))
}

/** Shift start and end instants of a work date under a rule (the end on the next day for an overnight rule). */
export function shiftOf(rule: RuleSpec, zone: string, workDate: string) {
  return {
    start: instantAt(workDate, rule.start, zone),
    end: instantAt(isOvernight(rule) ? addDays(workDate, 1) : workDate, rule.end, zone),
  }
}

/** The break window that lies inside the shift of `workDate`. */
function breakOf(rule: RuleSpec, zone: string, workDate: string) {
  if (!rule.breakStart || !rule.breakEnd) return null
  const afterMidnight = isOvernight(rule) && minutesOfHHMM(rule.breakStart) < minutesOfHHMM(rule.start)
  const startDate = afterMidnight ? addDays(workDate, 1) : workDate
  const endDate = minutesOfHHMM(rule.breakEnd) < minutesOfHHMM(rule.breakStart) ? addDays(startDate, 1) : startDate
  return { start: instantAt(startDate, rule.breakStart, zone), end: instantAt(endDate, rule.breakEnd, zone) }
}

/** The work date a clock-in at `at` gets: yesterday when yesterday's own rule is an overnight shift still running, else today. */
export function expectedWorkDate(rules: RuleSpec[], zone: string, at: Date): string {
  const today = localDateOf(at, zone)
  const yesterday = addDays(today, -1)
  const rule = ruleOn(rules, yesterday)
  if (rule && isOvernight(rule) && localMinuteOf(at, zone) < minutesOfHHMM(rule.end)) return yesterday
  return today
}

/** Minutes between clock-in and clock-out (seconds dropped) less their overlap with the break window. */
export function workedMinutes(rule: RuleSpec, zone: string, workDate: string, clockIn: string | number, clockOut: string | number): number {
  const from = minuteOf(clockIn)
  const to = minuteOf(clockOut)
  const pause = breakOf(rule, zone, workDate)
  const overlap = pause ? Math.max(0, Math.min(to, minuteOf(pause.end)) - Math.max(from, minuteOf(pause.start))) : 0
  return Math.max(0, to - from - overlap)
}

export interface Judged {
  status: number
  late_minutes: number
  early_minutes: number
  /** null when `early_minutes` may be either rounding of a fractional shortfall */
  early_alternatives: number[]
  work_hours: number
}

const round6 = (value: number) => Math.round(value * 1e6) / 1e6

/** Status, lateness, early leave and hours of a record under its own rule, zone and work date (CONTRACT §4 and issue 20). */
export function judge(rule: RuleSpec, zone: string, workDate: string, clockIn: string, clockOut: string | null): Judged {
  const workDay = rule.workDays.includes(weekday(workDate))
  const shift = shiftOf(rule, zone, workDate)
  const late = workDay && !rule.flexible && minuteOf(clockIn) > minuteOf(shift.start) + rule.lateGrace ? minuteOf(clockIn) - minuteOf(shift.start) : 0
  if (clockOut === null)
    return { status: late > 0 ? 1 : 0, late_minutes: late, early_minutes: 0, early_alternatives: [0], work_hours: 0 }

  const to = minuteOf(clockOut)
  const minutes = workedMinutes(rule, zone, workDate, clockIn, clockOut)
  const hours = Math.round((minutes / 60) * 100 + 1e-9) / 100
  const worked = { late_minutes: late, work_hours: hours }
  if (!workDay) return { status: 0, early_minutes: 0, early_alternatives: [0], ...worked }
  if (rule.flexible) {
    if (hours < rule.required) {
      const shortfall = round6(rule.required * 60 - minutes)
      const options = [...new Set([Math.ceil(shortfall), Math.round(shortfall)])].filter((n) => n > 0)
      return { status: 2, early_minutes: options[0] ?? 1, early_alternatives: options.length ? options : [1], ...worked }
    }
    return { status: 0, early_minutes: 0, early_alternatives: [0], ...worked }
  }
  const end = minuteOf(shift.end)
  if (to < end - rule.earlyGrace) return { status: 2, early_minutes: end - to, early_alternatives: [end - to], ...worked }
  if (late > 0) return { status: 1, early_minutes: 0, early_alternatives: [0], ...worked }
  if (hours < rule.required) return { status: 4, early_minutes: 0, early_alternatives: [0], ...worked }
  return { status: 0, early_minutes: 0, early_alternatives: [0], ...worked }
}

// ---------------------------------------------------------------- statistics

export interface ListedRecord {
  id: number
  employee_id: number
  rule_id: number | null
  work_date: string
  timezone?: string
  clock_in_time: string | null
  clock_out_time: string | null
  status: number
  status_text: string
  work_hours: number
  late_minutes: number
  early_minutes: number
  overtime_minutes: number
}

/** Hundredths as an integer, so sums and averages are exact. */
const cents = (hours: number) => Math.round(hours * 100)
const roundedRatio = (numerator: number, denominator: number) => (denominator === 0 ? 0 : Math.round(numerator / denominator) / 100)

/**
 * The statistics object, by a loop over the dates: every date judged by the rule that applies on it;
 * no date before the employee's attendance start (the later of the hire date and the company's
 * attendance_starts_on, CONTRACT §23) is a work day or an absence, so missing past work days count
 * absent from then on; totals are sums of what the records show.
 * The late allowance ("allowed late days per month" of a rule): each rule allows its allowed_late_days
 * among the late days of a calendar month that it governs (the rule that applies on the day), so a
 * month's allowed late days are the sum over rules of min(late days under the rule, its allowance).
 */
export function oracleStatistics(input: {
  start: string
  end: string
  today: string
  hireDate: string | null
  /** the attendance_starts_on of the employee's group's company */
  companyStartsOn?: string | null
  rules: RuleSpec[]
  records: ListedRecord[]
}) {
  const { start, end, today, hireDate, rules } = input
  const companyStartsOn = input.companyStartsOn ?? null
  const counted = (date: string) => (hireDate === null || date >= hireDate) && (companyStartsOn === null || date >= companyStartsOn)
  const byDate = new Map(input.records.map((record) => [record.work_date, record]))
  let workDays = 0
  let missing = 0
  let attendance = 0
  let late = 0
  let early = 0
  let absent = 0
  let exception = 0
  let hundredths = 0
  let lateMinutes = 0
  let earlyMinutes = 0
  let overtimeMinutes = 0
  let allowed = 0
  const lateInMonth = new Map<string, number>()
  for (let date = start; date <= end; date = addDays(date, 1)) {
    const work = counted(date) && isWorkDate(rules, date)
    if (work) workDays++
    const record = byDate.get(date)
    if (!record) {
      if (work && date < today) missing++
      continue
    }
    if (record.clock_in_time !== null) attendance++
    if (record.status === 1 || record.late_minutes > 0) {
      late++
      const rule = ruleOn(rules, date)
      const key = `${date.slice(0, 7)} ${rule?.id}`
      const k = (lateInMonth.get(key) ?? 0) + 1
      lateInMonth.set(key, k)
      if (k <= (rule?.allowedLate ?? 0)) allowed++
    }
    if (record.early_minutes > 0) early++
    if (record.status === 3 && counted(date)) absent++
    if (record.status === 4) exception++
    hundredths += cents(record.work_hours)
    lateMinutes += record.late_minutes
    earlyMinutes += record.early_minutes
    overtimeMinutes += record.overtime_minutes
  }
  return {
    total_days: daysFrom(start, end) + 1,
    work_days: workDays,
    attendance_days: attendance,
    late_days: late,
    early_days: early,
    absent_days: absent + missing,
    exception_days: exception,
    holiday_days: 0,
    leave_days: 0,
    leave_hours: 0,
    total_work_hours: hundredths / 100,
    avg_work_hours: roundedRatio(hundredths, attendance),
    total_late_minutes: lateMinutes,
    total_early_minutes: earlyMinutes,
    overtime_hours: Math.round((overtimeMinutes * 100) / 60) / 100,
    attendance_rate: roundedRatio(attendance * 10_000, workDays),
    late_days_allowed: allowed,
    late_days_over_allowance: late - allowed,
  }
}

// ---------------------------------------------------------------- generation

/** A small seeded generator (mulberry32) for the oracle's histories. */
export function prng(seed: number) {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let x = state
    x = Math.imul(x ^ (x >>> 15), x | 1)
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61)
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296
  }
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)],
    chance: (p: number) => next() < p,
  }
}
export type Prng = ReturnType<typeof prng>

/** Rule times never fall in 01:00–03:59, where DST moves the clocks of the zones used here. */
const DAY_STARTS = [6 * 60, 7 * 60, 8 * 60, 8 * 60 + 30, 9 * 60, 9 * 60 + 15, 10 * 60, 12 * 60, 14 * 60]
const NIGHT_STARTS = [18 * 60, 20 * 60, 21 * 60, 22 * 60, 23 * 60]
const NIGHT_ENDS = [4 * 60, 5 * 60, 6 * 60, 7 * 60]
const REQUIRED_FRACTIONS = [0, 0, 0.5, 0.25, 0.34, -0.01, 0.1, -0.5]

export type RuleShape = Omit<RuleSpec, 'id' | 'workDays' | 'enabled'>

/** A random rule: a day shift, an overnight shift, or flexible; breaks inside the shift; required hours often not whole minutes. */
export function randomRuleShape(r: Prng, kind: 'day' | 'night' | 'flexible' = r.pick(['day', 'day', 'night', 'flexible'] as const)): RuleShape {
  let start: number
  let end: number
  let breakWindow: [number, number] | null = null
  if (kind === 'night') {
    start = r.pick(NIGHT_STARTS)
    end = r.pick(NIGHT_ENDS)
    if (r.chance(0.5)) breakWindow = r.chance(0.5) ? [0, r.pick([15, 30, 45])] : [start + 60, start + 90]
  } else {
    start = r.pick(DAY_STARTS)
    end = Math.min(start + r.int(4, 10) * 60 + r.pick([0, 15, 30, 50]), 23 * 60 + 59)
    if (r.chance(0.7)) {
      const from = start + r.int(2, 3) * 60
      breakWindow = from + 60 < end ? [from, from + r.pick([30, 45, 60])] : null
    }
  }
  const length = ((end - start + 1440) % 1440) / 60 - (breakWindow ? (breakWindow[1] - breakWindow[0]) / 60 : 0)
  const required = Math.max(0, Math.round((Math.floor(length) + r.pick(REQUIRED_FRACTIONS)) * 100) / 100)
  return {
    start: hhmm(start),
    end: hhmm(end),
    breakStart: breakWindow ? hhmm(breakWindow[0] % 1440) : null,
    breakEnd: breakWindow ? hhmm(breakWindow[1] % 1440) : null,
    lateGrace: r.pick([0, 0, 5, 10, 15]),
    earlyGrace: r.pick([0, 0, 5, 10]),
    required,
    allowedLate: r.pick([0, 1, 2, 3]),
    flexible: kind === 'flexible',
  }
}

/** Splits the weekdays between `count` rules (some days to none, some to two); every rule gets at least one day. */
export function splitWeekdays(r: Prng, count: number): number[][] {
  const days: number[][] = Array.from({ length: count }, () => [])
  for (let day = 1; day <= 7; day++) {
    const roll = r.next()
    if (roll < 0.15) continue
    days[r.int(0, count - 1)].push(day)
    if (count > 1 && roll > 0.9) days[r.int(0, count - 1)].push(day)
  }
  return days.map((list) => {
    const unique = [...new Set(list)].sort()
    return unique.length ? unique : [r.int(1, 7)]
  })
}

// ---------------------------------------------------------------- HTTP

export const ruleBody = (groupId: number, name: string, shape: RuleShape, workDays: number[]) => ({
  name,
  group_id: groupId,
  work_start_time: shape.start,
  work_end_time: shape.end,
  ...(shape.breakStart ? { break_start_time: shape.breakStart, break_end_time: shape.breakEnd } : {}),
  late_grace_period: shape.lateGrace,
  early_grace_period: shape.earlyGrace,
  required_work_hours: shape.required,
  allowed_late_days: shape.allowedLate,
  work_days: workDays.join(','),
  flexible_time: shape.flexible,
})

/** A request that must be answered: a 5xx fails the test at once, with the request and the answer. */
export async function call(app: App, method: string, path: string, token: string, body?: unknown): Promise<Reply> {
  const reply = await req(app, method, path, { token, body })
  if (reply.status >= 500) throw new Error(`${method} ${path} ${JSON.stringify(body ?? null)} → ${reply.status} ${JSON.stringify(reply.body)}`)
  return reply
}

/** Every record of one employee through the admin list, oldest work date first. */
export async function recordsOf(app: App, token: string, employeeId: number): Promise<ListedRecord[]> {
  const all: ListedRecord[] = []
  for (let page = 1; ; page++) {
    const reply = await call(app, 'GET', `/api/v1/admin/attendance/records?employee_id=${employeeId}&page_size=100&page=${page}`, token)
    if (reply.status !== 200) throw new Error(`records of ${employeeId}: ${reply.status} ${JSON.stringify(reply.body)}`)
    all.push(...reply.body.data.records)
    if (!reply.body.data.pagination.has_next) break
  }
  return all.sort((a, b) => (a.work_date < b.work_date ? -1 : a.work_date > b.work_date ? 1 : a.id - b.id))
}
