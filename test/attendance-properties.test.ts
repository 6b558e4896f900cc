import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import fc from 'fast-check'
import {
  addDays,
  call,
  DST_ZONES,
  expectedWorkDate,
  instantAt,
  isOvernight,
  judge,
  localDateOf,
  prng,
  randomRuleShape,
  recordsOf,
  ruleBody,
  ruleOn,
  shiftOf,
  workedMinutes,
  type ListedRecord,
  type RuleShape,
  type RuleSpec,
} from './attendance-fixtures'
import { createApp } from '../src/app'
import { prepare } from '../src/bootstrap'
import { fixedClock } from '../src/lib/clock'
import type { Logger } from '../src/lib/logger'
import { loginAdmin, makeUser, testConfig } from './helpers'
import { onSqld } from './sqld'

/*
 * Property-based tests of attendance integrity (issue 20). Each generated schedule gets two fresh
 * groups (random zones, rules: day, overnight, flexible, split weekdays) and one or two fresh
 * employees, then a short run of clock-ins, clock-outs, group moves and removals, re-zoning,
 * day-close runs and leaving, on a frozen clock that only moves forward. Invariants:
 *  - never a 5xx;
 *  - at most one record per employee and work date, and never a clock-in while the same employee
 *    has an open record whose shift has not closed (two records for one real day);
 *  - every clock-in can be clocked out by its owner until its shift's close, whatever moved;
 *  - day close never marks absent a work date on which a clock-in can still be dated, never makes
 *    an exception of a shift that has not closed, and eventually closes every open record;
 *  - a record is dated, ruled and zoned as at its clock-in, and its status, lateness, early leave
 *    and hours are what CONTRACT §4 gives under that rule (attendance-fixtures.ts `judge`);
 *  - left employees are refused (400).
 * A shift "closes" at the end of its work date (local midnight) for a day rule, at the shift's end
 * for an overnight rule.
 *
 * FUZZ_SEED=<n> varies the schedules; FUZZ_RUNS=<n> sets how many (default 2000, 500 on a libSQL server);
 * FUZZ_SURVEY=1 runs them all without stopping and prints each kind of violation once;
 * FUZZ_ONLY=<kind,kind> fails only on those kinds (to shrink one bug at a time).
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20240321)
/** On a libSQL server a quarter of them: the properties are the same on either store, and 2,000 take 75 s there (bun run test:sqld). */
const RUNS = Number(process.env.FUZZ_RUNS ?? (onSqld ? 500 : 2000))
const SURVEY = process.env.FUZZ_SURVEY === '1'
const ONLY = process.env.FUZZ_ONLY ? new Set(process.env.FUZZ_ONLY.split(',')) : null

const MINUTE = 60_000
/** where DST moves the clocks: a few days around the 2024 transitions of New York, Berlin and Sydney */
const TRANSITIONS = ['2024-03-10', '2024-03-31', '2024-04-07', '2024-10-06', '2024-10-27', '2024-11-03']
/** tokens are issued at this instant (30 days of validity): every schedule runs before it */
const TOKEN_TIME = '2025-01-20T00:00:00.000Z'

// ---------------------------------------------------------------- schedules

type Who = 0 | 1
type Step =
  | { kind: 'in'; who: Who; gap: number }
  | { kind: 'in-at-start'; who: Who; rule: number; offset: number }
  | { kind: 'out'; who: Who; gap: number }
  | { kind: 'out-at-end'; who: Who; offset: number }
  | { kind: 'out-worked'; who: Who; delta: number }
  | { kind: 'move'; who: Who; to: 0 | 1; gap: number }
  | { kind: 'remove'; who: Who; gap: number }
  | { kind: 'rezone'; group: 0 | 1; zone: string; gap: number }
  | { kind: 'close'; group: 0 | 1; back: number; gap: number }
  | { kind: 'leave'; who: Who; gap: number }

interface GroupPlan {
  zone: string
  rules: { shape: RuleShape; workDays: number[] }[]
}

interface Schedule {
  base: string
  people: 1 | 2
  groups: [GroupPlan, GroupPlan]
  steps: Step[]
}

const zoneArb = fc.constantFrom<string>(...DST_ZONES, DST_ZONES[0], DST_ZONES[1])
const whoArb = fc.constantFrom<Who>(0, 0, 1)
/** minutes to the next step: mostly hours, sometimes a few minutes, sometimes most of a day */
const gapArb = fc.oneof(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 30, max: 600 }), fc.integer({ min: 600, max: 1200 }))
const ruleArb = fc
  .record({
    seed: fc.integer({ min: 0, max: 1_000_000 }),
    kind: fc.constantFrom('day' as const, 'night' as const, 'night' as const, 'flexible' as const),
    workDays: fc.subarray([1, 2, 3, 4, 5, 6, 7], { minLength: 1 }),
  })
  .map(({ seed, kind, workDays }) => ({ shape: randomRuleShape(prng(seed), kind), workDays }))
const groupArb = (maxRules: number) => fc.record({ zone: zoneArb, rules: fc.array(ruleArb, { minLength: 1, maxLength: maxRules }) })
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('in' as const), who: whoArb, gap: gapArb }) },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('in-at-start' as const),
      who: whoArb,
      rule: fc.integer({ min: 0, max: 2 }),
      offset: fc.integer({ min: -90, max: 150 }),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('out' as const), who: whoArb, gap: gapArb }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('out-at-end' as const), who: whoArb, offset: fc.integer({ min: -120, max: 60 }) }) },
  /** a clock-out when the worked minutes are the required hours give or take a minute (a requirement in fractions of a minute) */
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('out-worked' as const), who: whoArb, delta: fc.integer({ min: -1, max: 1 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('move' as const), who: whoArb, to: fc.constantFrom<0 | 1>(0, 1), gap: gapArb }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('remove' as const), who: whoArb, gap: gapArb }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('rezone' as const), group: fc.constantFrom<0 | 1>(0, 1), zone: zoneArb, gap: gapArb }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('close' as const),
      group: fc.constantFrom<0 | 1>(0, 1),
      back: fc.integer({ min: 0, max: 5 }),
      gap: gapArb,
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('leave' as const), who: whoArb, gap: gapArb }) },
)
const scheduleArb: fc.Arbitrary<Schedule> = fc.record({
  base: fc.oneof(
    fc.tuple(fc.constantFrom(...TRANSITIONS), fc.integer({ min: -2, max: 1 })).map(([date, shift]) => addDays(date, shift)),
    fc.integer({ min: 0, max: 340 }).map((n) => addDays('2024-01-08', n)),
  ),
  people: fc.constantFrom<1 | 2>(1, 1, 2),
  groups: fc.tuple(groupArb(3), groupArb(2)),
  steps: fc.array(stepArb, { minLength: 2, maxLength: 9 }),
})

// ---------------------------------------------------------------- the run of one schedule

class Violation extends Error {
  constructor(
    readonly kind: string,
    message: string,
  ) {
    super(`[${kind}] ${message}`)
  }
}

interface Clocked {
  id: number
  workDate: string
  rule: RuleSpec
  zone: string
  clockIn: number
  clockOut: number | null
  /** closed by day close as an exception */
  closed: boolean
}

interface Person {
  employeeId: number
  token: string
  group: 0 | 1 | null
  left: boolean
  /** when the person's group or zone last changed (their dating is then checked loosely for two days) */
  changedAt: number
  clocked: Clocked[]
  records: ListedRecord[]
}

interface LiveGroup {
  id: number
  zone: string
  createdAt: number
  rules: RuleSpec[]
}

let t: { app: ReturnType<typeof createApp>; clock: ReturnType<typeof fixedClock>; close(): void }
let dir: string
/** what the service logged as errors: a 5xx names its cause */
const logged: string[] = []
const capturingLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error(message, fields) {
    logged.push(`${message} ${JSON.stringify(fields ?? {})}`.slice(0, 2000))
  },
}
let admin: string
const pool: { userId: number; token: string; employeeId: number | null }[] = []
const rulesById = new Map<number, RuleSpec>()
let schedules = 0
const survey = new Map<string, { count: number; example: string }>()

/** A day rule's shift closes at the end of its work date; an overnight one at its end. */
function closeOf(rule: RuleSpec, zone: string, workDate: string): number {
  return isOvernight(rule) ? shiftOf(rule, zone, workDate).end.getTime() : instantAt(addDays(workDate, 1), '00:00', zone).getTime()
}

async function runSchedule(schedule: Schedule): Promise<void> {
  schedules++
  const log: string[] = []
  const fail = (kind: string, message: string) => {
    const error = new Violation(kind, `${message}\n  schedule ${JSON.stringify(schedule)}\n  ${log.join('\n  ')}`)
    if (SURVEY) {
      const seen = survey.get(kind)
      if (!seen || seen.example.length > error.message.length) survey.set(kind, { count: (seen?.count ?? 0) + 1, example: error.message })
      else seen.count++
      return
    }
    if (ONLY && !ONLY.has(kind)) return
    throw error
  }
  let now = instantAt(addDays(schedule.base, -3), '00:00', 'UTC').getTime()
  t.clock.set(new Date(now))
  const at = () => new Date(now).toISOString()
  const send = async (method: string, path: string, token: string, body?: unknown) => {
    const reply = await call(t.app, method, path, token, body).catch((error: Error) => {
      throw new Error(`${error.message}\n  logged: ${logged.slice(-2).join('\n')}\n  ${log.join('\n  ')}`)
    })
    log.push(`${at()} ${method} ${path} ${body === undefined ? '' : JSON.stringify(body)} → ${reply.status} ${reply.status === 200 || reply.status === 201 ? JSON.stringify(brief(reply.body.data)) : reply.body.message}`)
    return reply
  }

  // two groups with their rules, created three days before the schedule starts
  const groups: LiveGroup[] = []
  for (const [index, plan] of schedule.groups.entries()) {
    const created = await send('POST', '/api/v1/admin/attendance/groups', admin, { name: `p${schedules}-${index}`, company_id: 1, timezone: plan.zone })
    expect(created.status).toBe(201)
    const group: LiveGroup = { id: created.body.data.id, zone: plan.zone, createdAt: now, rules: [] }
    for (const [i, rule] of plan.rules.entries()) {
      const reply = await send('POST', '/api/v1/admin/attendance/rules', admin, ruleBody(group.id, `r${i}`, rule.shape, rule.workDays))
      expect(reply.status).toBe(201)
      const spec: RuleSpec = { ...rule.shape, id: reply.body.data.id, workDays: [...rule.workDays].sort(), enabled: true }
      group.rules.push(spec)
      rulesById.set(spec.id, spec)
    }
    groups.push(group)
  }
  // fresh employees, linked to the pooled accounts (whose tokens stay valid), all in the first group
  const people: Person[] = []
  for (let i = 0; i < schedule.people; i++) {
    const account = pool[i]
    if (account.employeeId !== null) await send('PUT', `/api/v1/admin/employees/${account.employeeId}`, admin, { user_id: null })
    const created = await send('POST', '/api/v1/admin/employees', admin, { name: `p${schedules}e${i}`, user_id: account.userId, hire_date: '2023-01-01' })
    expect(created.status).toBe(201)
    account.employeeId = created.body.data.id
    people.push({ employeeId: created.body.data.id, token: account.token, group: 0, left: false, changedAt: 0, clocked: [], records: [] })
  }
  expect((await send('POST', `/api/v1/admin/attendance/groups/${groups[0].id}/employees`, admin, { employee_ids: people.map((p) => p.employeeId) })).status).toBe(200)

  const refresh = async () => {
    for (const person of people) person.records = await recordsOf(t.app, admin, person.employeeId)
  }
  const openOf = (person: Person) => person.clocked.filter((c) => c.clockOut === null && !c.closed)

  now = instantAt(schedule.base, '00:00', groups[0].zone).getTime()
  for (const step of schedule.steps) {
    const person = 'who' in step ? people[Math.min(step.who, people.length - 1)] : people[0]
    const home = groups[person.group ?? 0]
    // the clock only moves forward
    if (step.kind === 'in-at-start') {
      const rule = home.rules[step.rule % home.rules.length]
      const today = localDateOf(now, home.zone)
      for (let k = -1; k <= 2; k++) {
        const target = instantAt(addDays(today, k), rule.start, home.zone).getTime() + step.offset * MINUTE
        if (target > now) {
          now = target
          break
        }
      }
    } else if (step.kind === 'out-at-end') {
      const open = openOf(person).at(-1)
      const target = open ? shiftOf(open.rule, open.zone, open.workDate).end.getTime() + step.offset * MINUTE : now
      now = Math.max(now + MINUTE, target)
    } else if (step.kind === 'out-worked') {
      const open = openOf(person).at(-1)
      let target = now + MINUTE
      if (open) {
        const wanted = Math.round(open.rule.required * 60) + step.delta
        target = open.clockIn + wanted * MINUTE
        while (workedMinutes(open.rule, open.zone, open.workDate, open.clockIn, target) < wanted && target < open.clockIn + 26 * 3_600_000)
          target += MINUTE
      }
      now = Math.max(now + MINUTE, target)
    } else now += step.gap * MINUTE
    if (step.kind !== 'out-worked') now += (now % 7) * 1000 // a few seconds, which must not count
    t.clock.set(new Date(now))

    switch (step.kind) {
      case 'in':
      case 'in-at-start': {
        const running = openOf(person).filter((c) => now < closeOf(c.rule, c.zone, c.workDate))
        const known = [...person.clocked]
        const reply = await send('POST', '/api/v1/attendance/clock-in', person.token, {})
        if (reply.status === 200) {
          const data = reply.body.data
          person.clocked.push({
            id: data.attendance_id,
            workDate: data.work_date,
            rule: ruleOn(home.rules, data.work_date)!,
            zone: home.zone,
            clockIn: now,
            clockOut: null,
            closed: false,
          })
        }
        if (person.left) {
          if (reply.status !== 400) fail('left-clock-in', `a left employee clocked in: ${reply.status}`)
          break
        }
        if (person.group === null) {
          if (reply.status !== 400) fail('no-group-clock-in', `clock-in outside every group: ${reply.status}`)
          break
        }
        const group = groups[person.group]
        const settled = now - person.changedAt > 2 * 86_400_000
        const date = expectedWorkDate(group.rules, group.zone, new Date(now))
        const taken = person.records.find((r) => r.work_date === date) ?? known.find((c) => c.workDate === date)
        if (reply.status === 200) {
          const data = reply.body.data
          if (running.length)
            fail('overlapping-records', `clock-in ${data.work_date} accepted while record ${running[0].id} (${running[0].workDate}) is open until ${new Date(closeOf(running[0].rule, running[0].zone, running[0].workDate)).toISOString()}`)
          if (settled && data.work_date !== date) fail('work-date', `clock-in dated ${data.work_date}, expected ${date} (${group.zone})`)
          const same = person.records.find((r) => r.work_date === data.work_date) ?? known.find((c) => c.workDate === data.work_date)
          if (same) fail('duplicate-date', `clock-in accepted for ${data.work_date} which already has a record`)
        } else if (reply.status === 409) {
          if (settled && !taken && !running.length) fail('refused-clock-in', `409 with no record on ${date}: ${reply.body.message}`)
          const absent = person.records.find((r) => r.work_date === date && r.status === 3)
          if (settled && absent) fail('absent-then-clock-in', `clock-in dated ${date} refused: day close already marked it absent (record ${absent.id})`)
        } else if (!(running.length && reply.status === 400)) fail('refused-clock-in', `clock-in ${reply.status}: ${reply.body.message}`)
        break
      }
      case 'out':
      case 'out-at-end':
      case 'out-worked': {
        const reply = await send('POST', '/api/v1/attendance/clock-out', person.token, {})
        const open = openOf(person)
        if (person.left) {
          const closed = reply.status === 200 ? open.find((c) => c.id === reply.body.data.attendance_id) : undefined
          if (closed) closed.clockOut = now
          if (reply.status !== 400) fail('left-clock-out', `a left employee clocked out: ${reply.status}`)
          break
        }
        const running = open.filter((c) => now < closeOf(c.rule, c.zone, c.workDate))
        if (reply.status === 200) {
          const closed = open.find((c) => c.id === reply.body.data.attendance_id)
          if (!closed) fail('clock-out-other', `clock-out closed record ${reply.body.data.attendance_id}, not an open one (${open.map((c) => c.id)})`)
          else closed.clockOut = now
        } else if (running.length) {
          const c = running.at(-1)!
          fail('stranded-clock-out', `record ${c.id} (${c.workDate}, ${c.zone}) open until ${new Date(closeOf(c.rule, c.zone, c.workDate)).toISOString()}, clock-out ${reply.status}: ${reply.body.message}`)
        }
        break
      }
      case 'move':
      case 'remove': {
        const target = step.kind === 'move' ? groups[step.to] : groups[person.group ?? 0]
        const reply =
          step.kind === 'move'
            ? await send('POST', `/api/v1/admin/attendance/groups/${target.id}/employees`, admin, { employee_ids: [person.employeeId] })
            : await send('DELETE', `/api/v1/admin/attendance/groups/${target.id}/employees`, admin, { employee_ids: [person.employeeId] })
        if (reply.status === 200) {
          if (step.kind === 'move' ? person.group !== step.to : person.group !== null) person.changedAt = now
          person.group = step.kind === 'move' ? step.to : null
        }
        break
      }
      case 'rezone': {
        const group = groups[step.group]
        const reply = await send('PUT', `/api/v1/admin/attendance/groups/${group.id}`, admin, { timezone: step.zone })
        expect(reply.status).toBe(200)
        if (group.zone !== step.zone) for (const p of people) if (p.group === step.group) p.changedAt = now
        group.zone = step.zone
        break
      }
      case 'leave': {
        const reply = await send('PUT', `/api/v1/admin/employees/${person.employeeId}`, admin, { status: 0 })
        expect(reply.status).toBe(200)
        person.left = true
        break
      }
      case 'close': {
        const group = groups[step.group]
        const date = addDays(localDateOf(now, group.zone), -step.back)
        const reply = await send('POST', '/api/v1/admin/attendance/close-day', admin, { date, group_id: group.id })
        const created = localDateOf(group.createdAt, group.zone)
        if (reply.status === 200 && date < addDays(created, -1)) fail('close-before-group', `close-day ${date} accepted for a group created ${created}`)
        if (reply.status !== 200 && date > addDays(created, 1)) fail('close-refused', `close-day ${date}: ${reply.status} ${reply.body.message}`)
        if (reply.status === 200) await checkClose(people, now, fail)
        break
      }
    }
  }

  // a late sweep: every shift has closed, day close runs on each date a record is still open on
  now += 4 * 86_400_000
  t.clock.set(new Date(now))
  const dates = new Set(people.flatMap((p) => openOf(p).filter(() => !p.left).map((c) => c.workDate)))
  for (const date of dates)
    for (const group of groups) await send('POST', '/api/v1/admin/attendance/close-day', admin, { date, group_id: group.id })
  await refresh()
  for (const person of people) checkRecords(person, fail)
  for (const person of people)
    for (const c of openOf(person)) {
      const record = person.records.find((r) => r.id === c.id)
      if (!person.left && dates.size && record && record.clock_out_time === null && record.status !== 4)
        fail('never-closed', `record ${c.id} (${c.workDate}) still open after day close ran for its date in both groups`)
    }
}

/** After a day close: exceptions and absences only for shifts that have closed under their own rule. */
async function checkClose(people: Person[], now: number, fail: (kind: string, message: string) => void) {
  for (const person of people) {
    const before = new Map(person.records.map((r) => [r.id, r]))
    person.records = await recordsOf(t.app, admin, person.employeeId)
    for (const record of person.records) {
      const rule = record.rule_id === null ? null : rulesById.get(record.rule_id)
      const zone = record.timezone ?? 'UTC'
      if (!rule) continue
      const shiftClose = closeOf(rule, zone, record.work_date)
      const clocked = person.clocked.find((c) => c.id === record.id)
      if (clocked && !clocked.closed && clocked.clockOut === null && record.status === 4 && record.clock_out_time === null) {
        clocked.closed = true
        const ownClose = closeOf(clocked.rule, clocked.zone, clocked.workDate)
        if (now < ownClose)
          fail('early-exception', `day close made record ${record.id} (${clocked.workDate}, ${clocked.zone}) an exception before its shift closed at ${new Date(ownClose).toISOString()}`)
      }
      if (record.status === 3 && !before.has(record.id) && now < shiftClose)
        fail('early-absence', `day close marked ${record.work_date} absent (${zone}) while a clock-in could still be dated on it (until ${new Date(shiftClose).toISOString()})`)
    }
  }
}

/** The records at the end: one per date, each as at its clock-in, judged by CONTRACT §4 under its own rule. */
function checkRecords(person: Person, fail: (kind: string, message: string) => void) {
  const dates = new Map<string, number>()
  for (const record of person.records) {
    if (dates.has(record.work_date)) fail('two-records-one-date', `records ${dates.get(record.work_date)} and ${record.id} both on ${record.work_date}`)
    dates.set(record.work_date, record.id)
    const clocked = person.clocked.find((c) => c.id === record.id)
    if (record.clock_in_time === null) continue
    if (!clocked) {
      fail('unknown-record', `record ${record.id} has a clock-in nobody made`)
      continue
    }
    if (record.rule_id !== clocked.rule.id || record.timezone !== clocked.zone || record.work_date !== clocked.workDate)
      fail('record-context', `record ${record.id}: rule ${record.rule_id} ${record.timezone} ${record.work_date}, clocked in under rule ${clocked.rule.id} ${clocked.zone} ${clocked.workDate}`)
    if (record.status === 4 && record.clock_out_time === null) continue
    // judged under the rule, zone and date the record shows (whether those are right is checked above)
    const own = record.rule_id === null ? undefined : rulesById.get(record.rule_id)
    if (!own || !record.timezone) {
      fail('record-context', `record ${record.id} shows no rule or zone`)
      continue
    }
    const expected = judge(own, record.timezone, record.work_date, record.clock_in_time, record.clock_out_time)
    const early = expected.early_alternatives.includes(record.early_minutes) ? record.early_minutes : expected.early_minutes
    const got = { status: record.status, late_minutes: record.late_minutes, early_minutes: record.early_minutes, work_hours: record.work_hours }
    const want = { status: expected.status, late_minutes: expected.late_minutes, early_minutes: early, work_hours: expected.work_hours }
    if (JSON.stringify(got) !== JSON.stringify(want))
      fail('status', `record ${record.id} ${record.work_date} ${record.clock_in_time}–${record.clock_out_time} under rule ${JSON.stringify(own)} in ${record.timezone}: ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`)
  }
  const intervals = person.records
    .filter((r) => r.clock_in_time && r.clock_out_time)
    .map((r) => [Date.parse(r.clock_in_time!), Date.parse(r.clock_out_time!), r.id] as const)
    .sort((a, b) => a[0] - b[0])
  for (let i = 1; i < intervals.length; i++)
    if (intervals[i][0] < intervals[i - 1][1]) fail('overlapping-records', `records ${intervals[i - 1][2]} and ${intervals[i][2]} overlap in time`)
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function brief(data: any) {
  if (!data || typeof data !== 'object') return data
  const keep = ['id', 'attendance_id', 'work_date', 'status', 'late_minutes', 'early_minutes', 'work_hours', 'groups', 'effective_timezone']
  return Object.fromEntries(Object.entries(data).filter(([key]) => keep.includes(key)))
}

beforeAll(async () => {
  dir = mkdtempSync(existsSync('/dev/shm') ? '/dev/shm/workforce-props-' : `${tmpdir()}/workforce-props-`)
  const clock = fixedClock(TOKEN_TIME)
  const deps = await prepare(testConfig(dir, { ACCESS_TOKEN_TTL: '2592000' }), { clock, logger: capturingLogger })
  t = { app: createApp(deps), clock, close: () => deps.database.close() }
  admin = await loginAdmin(t.app)
  await call(t.app, 'POST', '/api/v1/admin/companies', admin, { name: 'Props Co', timezone: 'UTC' })
  for (const name of ['prop_a', 'prop_b']) {
    const user = await makeUser(t.app, admin, name, ['employee'])
    pool.push({ userId: user.id, token: user.token, employeeId: null })
  }
})

afterAll(() => {
  t?.close()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

describe('attendance integrity over generated schedules', () => {
  test(`${RUNS} schedules, seed ${SEED}`, async () => {
    const started = performance.now()
    await fc.assert(fc.asyncProperty(scheduleArb, runSchedule), { seed: SEED, numRuns: RUNS })
    console.log(`attendance properties seed ${SEED}: ${schedules} schedules in ${Math.round(performance.now() - started)} ms`)
    if (SURVEY) for (const [kind, { count, example }] of survey) console.log(`\n== ${kind} × ${count}\n${example}`)
  }, 600_000)
})

/** Counterexamples found along the way (kind of violation → schedule), kept as fixed cases. */
const FIXED: Record<string, { note: string; schedule: Schedule }> = {
  'work-date': {
    note: "Wednesday 00:00 with an overnight Wednesday rule and a day-off Tuesday: dated Tuesday (issue: dating with today's rule)",
    schedule: {"base": "2024-01-24", "people": 1, "groups": [{"zone": "America/New_York", "rules": [{"shape": {"start": "08:00", "end": "12:00", "breakStart": "10:00", "breakEnd": "10:45", "lateGrace": 10, "earlyGrace": 0, "required": 3.34, "allowedLate": 2, "flexible": false}, "workDays": [7]}, {"shape": {"start": "20:00", "end": "04:00", "breakStart": "00:00", "breakEnd": "00:30", "lateGrace": 10, "earlyGrace": 5, "required": 7.34, "allowedLate": 1, "flexible": false}, "workDays": [3, 7]}]}, {"zone": "America/New_York", "rules": [{"shape": {"start": "08:00", "end": "12:00", "breakStart": "10:00", "breakEnd": "10:45", "lateGrace": 10, "earlyGrace": 0, "required": 3.34, "allowedLate": 2, "flexible": false}, "workDays": [7]}]}], "steps": [{"kind": "in", "who": 0, "gap": 0}, {"kind": "out-worked", "who": 0, "delta": 0}, {"kind": "out", "who": 0, "gap": 0}]},
  },
  'record-context': {
    note: "a clock-in after midnight is ruled by today's overnight rule, not by the rule of its work date (issue: workDateOf dates with today's rule)",
    schedule: {"base": "2024-06-28", "people": 1, "groups": [{"zone": "Asia/Shanghai", "rules": [{"shape": {"start": "21:00", "end": "04:00", "breakStart": "22:00", "breakEnd": "22:30", "lateGrace": 0, "earlyGrace": 5, "required": 6, "allowedLate": 1, "flexible": false}, "workDays": [4]}, {"shape": {"start": "22:00", "end": "05:00", "breakStart": null, "breakEnd": null, "lateGrace": 0, "earlyGrace": 0, "required": 7.5, "allowedLate": 3, "flexible": false}, "workDays": [2, 5, 7]}]}, {"zone": "UTC", "rules": [{"shape": {"start": "23:00", "end": "05:00", "breakStart": null, "breakEnd": null, "lateGrace": 15, "earlyGrace": 5, "required": 6.25, "allowedLate": 2, "flexible": false}, "workDays": [1, 2, 3, 5, 6, 7]}]}], "steps": [{"kind": "out", "who": 0, "gap": 5}, {"kind": "in", "who": 1, "gap": 161}]},
  },
  'refused-clock-in': {
    note: "Saturday 03:07 after a Friday day shift: dated Friday by Saturday's overnight rule and refused 409 (issue: dating with today's rule)",
    schedule: {"base": "2024-04-16", "people": 1, "groups": [{"zone": "America/New_York", "rules": [{"shape": {"start": "08:00", "end": "12:00", "breakStart": "10:00", "breakEnd": "10:45", "lateGrace": 10, "earlyGrace": 0, "required": 3.34, "allowedLate": 2, "flexible": false}, "workDays": [7]}, {"shape": {"start": "23:00", "end": "05:00", "breakStart": null, "breakEnd": null, "lateGrace": 15, "earlyGrace": 5, "required": 6, "allowedLate": 2, "flexible": false}, "workDays": [6]}, {"shape": {"start": "20:00", "end": "04:00", "breakStart": "00:00", "breakEnd": "00:30", "lateGrace": 10, "earlyGrace": 5, "required": 7.34, "allowedLate": 1, "flexible": false}, "workDays": [3, 7]}]}, {"zone": "America/New_York", "rules": [{"shape": {"start": "08:00", "end": "12:00", "breakStart": "10:00", "breakEnd": "10:45", "lateGrace": 10, "earlyGrace": 0, "required": 3.34, "allowedLate": 2, "flexible": false}, "workDays": [7]}]}], "steps": [{"kind": "in-at-start", "who": 0, "rule": 0, "offset": 0}, {"kind": "in-at-start", "who": 0, "rule": 1, "offset": 60}, {"kind": "move", "who": 0, "to": 0, "gap": 0}, {"kind": "leave", "who": 0, "gap": 0}]},
  },
  'overlapping-records': {
    note: "a clock-in at 01:14 after an overnight-rule day is dated the next day by that day's day rule while the overnight record is still open (issue: dating with today's rule)",
    schedule: {"base": "2024-10-07", "people": 1, "groups": [{"zone": "Europe/Berlin", "rules": [{"shape": {"start": "09:15", "end": "19:45", "breakStart": null, "breakEnd": null, "lateGrace": 0, "earlyGrace": 5, "required": 9.99, "allowedLate": 1, "flexible": false}, "workDays": [3, 4, 5, 7]}, {"shape": {"start": "21:00", "end": "07:00", "breakStart": null, "breakEnd": null, "lateGrace": 15, "earlyGrace": 10, "required": 9.99, "allowedLate": 1, "flexible": false}, "workDays": [1, 3, 4, 5, 6]}]}, {"zone": "America/New_York", "rules": [{"shape": {"start": "23:00", "end": "06:00", "breakStart": "00:00", "breakEnd": "00:45", "lateGrace": 0, "earlyGrace": 0, "required": 5.99, "allowedLate": 0, "flexible": false}, "workDays": [1, 3, 4, 7]}]}], "steps": [{"kind": "in-at-start", "who": 0, "rule": 0, "offset": -57}, {"kind": "in", "who": 0, "gap": 1016}, {"kind": "in-at-start", "who": 1, "rule": 1, "offset": -90}]},
  },
  'status': {
    note: "flexible rule, required 3.34 h, 3.33 h worked across the New York spring-forward: status 0, not 2 (issue: required hours compared in rounded minutes)",
    schedule: {"base": "2024-03-10", "people": 1, "groups": [{"zone": "America/New_York", "rules": [{"shape": {"start": "08:00", "end": "12:00", "breakStart": "10:00", "breakEnd": "10:45", "lateGrace": 10, "earlyGrace": 0, "required": 3.34, "allowedLate": 2, "flexible": true}, "workDays": [7]}, {"shape": {"start": "08:00", "end": "12:00", "breakStart": "10:00", "breakEnd": "10:45", "lateGrace": 10, "earlyGrace": 0, "required": 3.34, "allowedLate": 2, "flexible": false}, "workDays": [6]}]}, {"zone": "America/New_York", "rules": [{"shape": {"start": "08:00", "end": "12:00", "breakStart": "10:00", "breakEnd": "10:45", "lateGrace": 10, "earlyGrace": 0, "required": 3.34, "allowedLate": 2, "flexible": false}, "workDays": [7]}]}], "steps": [{"kind": "in", "who": 0, "gap": 0}, {"kind": "out-worked", "who": 0, "delta": 0}, {"kind": "in-at-start", "who": 0, "rule": 0, "offset": 0}, {"kind": "remove", "who": 0, "gap": 30}]},
  },
  'stranded-clock-out': {
    note: "removed from the group 0 minutes after clocking in: the clock-out is refused 400 \"not in an attendance group\" (issue: changes strand open records)",
    schedule: {"base": "2024-01-08", "people": 1, "groups": [{"zone": "America/New_York", "rules": [{"shape": {"start": "08:00", "end": "12:00", "breakStart": "10:00", "breakEnd": "10:45", "lateGrace": 10, "earlyGrace": 0, "required": 3.34, "allowedLate": 2, "flexible": false}, "workDays": [3]}]}, {"zone": "America/New_York", "rules": [{"shape": {"start": "08:00", "end": "12:00", "breakStart": "10:00", "breakEnd": "10:45", "lateGrace": 10, "earlyGrace": 0, "required": 3.34, "allowedLate": 2, "flexible": false}, "workDays": [7]}]}], "steps": [{"kind": "in-at-start", "who": 0, "rule": 0, "offset": 0}, {"kind": "remove", "who": 0, "gap": 0}, {"kind": "out-at-end", "who": 0, "offset": 0}, {"kind": "in-at-start", "who": 0, "rule": 0, "offset": 0}, {"kind": "rezone", "group": 0, "zone": "America/New_York", "gap": 0}]},
  },
  'early-exception': {
    note: "re-zoned while a record is open: the group's day close makes it an exception before its own day has ended (issue: changes strand open records)",
    schedule: {"base": "2024-01-16", "people": 1, "groups": [{"zone": "Asia/Shanghai", "rules": [{"shape": {"start": "06:00", "end": "13:30", "breakStart": "09:00", "breakEnd": "09:45", "lateGrace": 15, "earlyGrace": 5, "required": 6.34, "allowedLate": 3, "flexible": true}, "workDays": [2, 5, 7]}]}, {"zone": "America/New_York", "rules": [{"shape": {"start": "09:00", "end": "16:00", "breakStart": "11:00", "breakEnd": "12:00", "lateGrace": 10, "earlyGrace": 0, "required": 6.5, "allowedLate": 0, "flexible": true}, "workDays": [1, 2, 3, 4, 5, 6, 7]}]}], "steps": [{"kind": "rezone", "group": 0, "zone": "America/New_York", "gap": 571}, {"kind": "in-at-start", "who": 0, "rule": 2, "offset": -28}, {"kind": "rezone", "group": 0, "zone": "Europe/Berlin", "gap": 17}, {"kind": "out", "who": 1, "gap": 887}, {"kind": "close", "group": 0, "back": 1, "gap": 18}, {"kind": "out", "who": 0, "gap": 13}, {"kind": "in-at-start", "who": 1, "rule": 0, "offset": -12}]},
  },
  'never-closed': {
    note: "removed from the group with a record open: day close never closes it (issue: day close only looks at current members)",
    schedule: {"base": "2024-03-21", "people": 1, "groups": [{"zone": "Australia/Sydney", "rules": [{"shape": {"start": "14:00", "end": "19:15", "breakStart": null, "breakEnd": null, "lateGrace": 15, "earlyGrace": 0, "required": 5.34, "allowedLate": 1, "flexible": false}, "workDays": [1, 2, 3, 4, 5, 6]}]}, {"zone": "Australia/Sydney", "rules": [{"shape": {"start": "12:00", "end": "19:15", "breakStart": null, "breakEnd": null, "lateGrace": 10, "earlyGrace": 10, "required": 7.5, "allowedLate": 1, "flexible": true}, "workDays": [3]}]}], "steps": [{"kind": "in", "who": 0, "gap": 7}, {"kind": "rezone", "group": 1, "zone": "UTC", "gap": 12}, {"kind": "remove", "who": 0, "gap": 14}]},
  },
  'left-clock-in': {
    note: "an employee marked as left clocks in (issue: left employees)",
    schedule: {"base": "2024-03-11", "people": 1, "groups": [{"zone": "Asia/Shanghai", "rules": [{"shape": {"start": "10:00", "end": "14:50", "breakStart": "13:00", "breakEnd": "13:45", "lateGrace": 15, "earlyGrace": 0, "required": 3.5, "allowedLate": 3, "flexible": false}, "workDays": [1, 2, 3, 5, 6]}]}, {"zone": "UTC", "rules": [{"shape": {"start": "21:00", "end": "06:00", "breakStart": null, "breakEnd": null, "lateGrace": 0, "earlyGrace": 10, "required": 8.99, "allowedLate": 0, "flexible": false}, "workDays": [1, 4, 7]}]}], "steps": [{"kind": "leave", "who": 0, "gap": 404}, {"kind": "in-at-start", "who": 0, "rule": 1, "offset": 16}, {"kind": "close", "group": 1, "back": 5, "gap": 14}, {"kind": "remove", "who": 1, "gap": 1}, {"kind": "out-at-end", "who": 0, "offset": 31}]},
  },
  'left-clock-out': {
    note: "an employee marked as left clocks out (issue: left employees)",
    schedule: {"base": "2024-03-11", "people": 1, "groups": [{"zone": "America/New_York", "rules": [{"shape": {"start": "09:15", "end": "18:45", "breakStart": "11:15", "breakEnd": "12:15", "lateGrace": 0, "earlyGrace": 0, "required": 8.25, "allowedLate": 0, "flexible": false}, "workDays": [6]}]}, {"zone": "America/New_York", "rules": [{"shape": {"start": "21:00", "end": "07:00", "breakStart": "00:00", "breakEnd": "00:45", "lateGrace": 5, "earlyGrace": 0, "required": 9.1, "allowedLate": 1, "flexible": false}, "workDays": [2, 4]}]}], "steps": [{"kind": "in-at-start", "who": 0, "rule": 2, "offset": 131}, {"kind": "leave", "who": 0, "gap": 3}, {"kind": "out", "who": 1, "gap": 35}, {"kind": "close", "group": 0, "back": 2, "gap": 813}]},
  },
  'close-before-group': {
    note: "close-day for a date before the group existed is accepted (issue: manual close-day has no lower bound)",
    schedule: {"base": "2024-09-29", "people": 1, "groups": [{"zone": "UTC", "rules": [{"shape": {"start": "07:00", "end": "16:30", "breakStart": null, "breakEnd": null, "lateGrace": 0, "earlyGrace": 10, "required": 8.5, "allowedLate": 2, "flexible": false}, "workDays": [4, 6, 7]}]}, {"zone": "Asia/Shanghai", "rules": [{"shape": {"start": "08:30", "end": "19:00", "breakStart": "11:30", "breakEnd": "12:30", "lateGrace": 10, "earlyGrace": 5, "required": 9.25, "allowedLate": 2, "flexible": false}, "workDays": [4]}]}], "steps": [{"kind": "close", "group": 0, "back": 5, "gap": 1176}, {"kind": "in", "who": 0, "gap": 992}, {"kind": "in", "who": 1, "gap": 1112}, {"kind": "in-at-start", "who": 0, "rule": 1, "offset": -74}, {"kind": "out-at-end", "who": 0, "offset": -1}, {"kind": "close", "group": 0, "back": 2, "gap": 482}, {"kind": "close", "group": 0, "back": 0, "gap": 282}]},
  },
}

describe('fixed schedules (counterexamples the properties found)', () => {
  for (const [kind, { note, schedule }] of Object.entries(FIXED))
    test(`${kind}: ${note}`, async () => {
      if (SURVEY || ONLY) return
      await runSchedule(schedule)
    })
})
