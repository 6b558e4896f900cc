import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { and, eq, inArray } from 'drizzle-orm'
import { parse } from 'csv-parse/sync'
import { leaveLedger, leaveRequests } from '../src/db/schema'
import { createDayClose } from '../src/modules/attendance/day-close'
import { accrueLeave } from '../src/modules/leave/accrual-job'
import { addDays, daysBetween } from '../src/lib/local-time'
import { prng, type Prng } from './attendance-fixtures'
import { ADMIN_PASSWORD, req, startApp, type TestApp } from './helpers'
import { must, shanghaiOffice } from './payroll-fixtures'
import { onSqld } from './sqld'

/*
 * Generated years of a company (CONTRACT §18): people hired before and during the years, five
 * types (yearly by statutory tiers with carry-over and expiry, monthly, plain, unpaid days that need
 * no balance, and unpaid hours), requests of days, half days and hours, approvals, rejections,
 * cancellations and calendar changes over sixteen months, the accrual job run from the day-close
 * tick, again, and twice at once. After every step:
 *   - every balance the API shows is the sum of its ledger rows (with a plain type's annual days);
 *   - no balance of a type that requires one is below zero;
 *   - no accrual event is written twice;
 *   - every pending or approved request's ledger holds its days, which are its work days under
 *     the calendar as it is now (the recount);
 *   - each person's approved leave days and hours of a year (the ledger's `taken`) equal their
 *     statistics' `leave_days` and `leave_hours` over that year.
 * And at the end of each month, for every person: the monthly sheet's leave days and hours are
 * their statistics' for the month, and a payroll run's unpaid leave days and minutes are what
 * their approved unpaid requests of the month hold in the ledger.
 */

/** On a libSQL server, one seed: the properties are the same on either store, and each seed takes a minute there (bun run test:sqld). */
const SEEDS = onSqld ? [7] : [7, 1234, 90210]
const YEARS = [2025, 2026, 2027]

interface World {
  t: TestApp
  admin: string
  r: Prng
  people: { id: number; username: string; hire: string; token: string }[]
  types: { id: number; name: string; requiresBalance: boolean; accrual: string; annualHalfDays: number; unit: 'day' | 'hour'; paid: boolean }[]
  /** the date everyone's tokens were last refreshed */
  signedIn: string | null
  sessions: Map<string, Session>
}

const local = (date: string, time = '10:00:00') => new Date(`${date}T${time}+08:00`).toISOString()

/** Access tokens live 30 days here (ACCESS_TOKEN_TTL), refresh tokens a year: each is refreshed when 25 days have passed (a sign-in hashes a password: slow). */
const TOKEN_DAYS = 30
const TOKEN_ENV = { ACCESS_TOKEN_TTL: String(TOKEN_DAYS * 86_400), REFRESH_TOKEN_TTL: String(365 * 86_400) }

interface Session {
  access: string
  refresh: string
}
async function signInAs(w: World, username: string, password: string): Promise<Session> {
  const reply = await req(w.t.app, 'POST', '/api/v1/auth/login', { body: { username, password } })
  return { access: reply.body.data.access_token, refresh: reply.body.data.refresh_token }
}
async function refreshed(w: World, session: Session): Promise<Session> {
  const reply = await req(w.t.app, 'POST', '/api/v1/auth/refresh', { body: { refresh_token: session.refresh } })
  expect(reply.status).toBe(200)
  return { access: reply.body.data.access_token, refresh: reply.body.data.refresh_token }
}
async function signIn(w: World, today: string) {
  if (w.signedIn !== null && addDays(w.signedIn, 25) > today) return
  w.signedIn = today
  for (const [who, session] of w.sessions) w.sessions.set(who, await refreshed(w, session))
  w.admin = w.sessions.get('admin')!.access
  for (const person of w.people) if (person.id !== 0) person.token = w.sessions.get(person.username)!.access
}
async function startSession(w: World, username: string, password: string): Promise<string> {
  const session = await signInAs(w, username, password)
  w.sessions.set(username, session)
  return session.access
}

async function setUp(seed: number): Promise<World> {
  const t = await startApp({ now: local('2025-12-20'), env: TOKEN_ENV })
  const w: World = { t, admin: '', r: prng(seed), people: [], types: [], signedIn: '2025-12-20', sessions: new Map() }
  w.admin = await startSession(w, 'admin', ADMIN_PASSWORD)
  const { r } = w
  await shanghaiOffice(t, w.admin)
  const specs = [
    { name: 'Statutory', accrual: 'yearly', seniority_tiers: [{ from_years: 1, days: 5 }, { from_years: 10, days: 10 }, { from_years: 20, days: 15 }], carry_over_max: r.int(0, 5), carry_over_expires: r.pick([null, '03-31']) },
    { name: 'Monthly', accrual: 'monthly', annual_days: r.int(5, 15), carry_over_max: r.int(0, 3) },
    { name: 'Plain', annual_days: 5 },
    { name: 'Unpaid', paid: false, requires_balance: false },
    { name: 'Hours', unit: 'hour', paid: false, annual_days: r.int(1, 3) },
  ]
  for (const spec of specs) {
    const type = await must(t, w.admin, 'POST', '/api/v1/admin/leave/types', spec, 201)
    w.types.push({ id: type.id, name: type.name, requiresBalance: type.requires_balance, accrual: type.accrual, annualHalfDays: type.annual_days * 2, unit: type.unit, paid: type.paid })
  }
  for (let i = 0; i < 5; i++) {
    // hired between 2015 and the second year's spring (some after the start: the new hires)
    const hire = r.chance(0.3) ? `2026-0${r.int(1, 5)}-${String(r.int(1, 28)).padStart(2, '0')}` : `20${r.int(15, 25)}-${String(r.int(1, 12)).padStart(2, '0')}-${String(r.int(1, 28)).padStart(2, '0')}`
    const workStart = r.chance(0.5) ? `${Number(hire.slice(0, 4)) - r.int(0, 25)}${hire.slice(4)}` : null
    const username = `person${i}`
    const person = { username, hire, token: '', id: 0 }
    w.people.push(person)
    if (hire > '2025-12-20') continue
    person.id = (await must(t, w.admin, 'POST', '/api/v1/admin/employees', { name: `P${i}`, company_id: 1, hire_date: hire, work_start_date: workStart, username, password: `${username}-password` }, 201)).id
    await joined(w, person)
    person.token = await startSession(w, username, `${username}-password`)
  }
  return w
}

/** A new employee's attendance group and pay profile (payroll runs pay them from their hire month). */
async function joined(w: World, person: { id: number; hire: string }) {
  await must(w.t, w.admin, 'POST', '/api/v1/admin/attendance/groups/1/employees', { employee_ids: [person.id] })
  const pay = { basic_salary: 8700, seniority_pay: 0, allowance: 0, contribution_base: 8700, housing_fund_base: 8700 }
  await must(w.t, w.admin, 'PUT', `/api/v1/admin/employees/${person.id}/pay-profile`, { effective_month: person.hire.slice(0, 7), ...pay })
}

/** Hourly leave's spans: starts on the quarter hour around the 09:00–18:00 day and its 12:00–13:00 break, 30 minutes to 4 hours long. */
const STARTS = ['08:30', '09:00', '09:15', '10:00', '11:00', '11:45', '12:30', '13:00', '14:30', '16:00', '17:30']
const timeAfter = (start: string, minutes: number) => {
  const end = Math.min(23 * 60 + 59, Number(start.slice(0, 2)) * 60 + Number(start.slice(3)) + minutes)
  return `${String(Math.floor(end / 60)).padStart(2, '0')}:${String(end % 60).padStart(2, '0')}`
}

/** The people hired by `today`, created on their hire date (a new hire's grants come at once). */
async function hire(w: World, today: string) {
  for (const person of w.people) {
    if (person.id !== 0 || person.hire > today) continue
    person.id = (await must(w.t, w.admin, 'POST', '/api/v1/admin/employees', { name: person.username.toUpperCase(), company_id: 1, hire_date: person.hire, username: person.username, password: `${person.username}-password` }, 201)).id
    await joined(w, person)
    person.token = await startSession(w, person.username, `${person.username}-password`)
  }
}

async function act(w: World, today: string) {
  const { r, t } = w
  const hired = w.people.filter((person) => person.id !== 0)
  for (let n = r.int(1, 4); n > 0; n--) {
    const what = r.int(0, 9)
    if (what <= 4 && hired.length > 0) {
      const person = r.pick(hired)
      const start = addDays(today, r.int(-5, 40))
      if (start < person.hire) continue
      const type = r.pick(w.types)
      let body: Record<string, unknown>
      if (type.unit === 'hour') {
        const from = r.pick(STARTS)
        body = { start_date: start, end_date: start, start_time: from, end_time: timeAfter(from, r.pick([30, 60, 90, 120, 180, 240])) }
      } else if (r.chance(0.2)) body = { start_date: start, end_date: start, half_day: r.pick(['am', 'pm']) }
      else {
        const end = addDays(start, r.int(0, 6))
        // unpaid days stay inside their month, so each month's payroll holds whole requests
        body = { start_date: start, end_date: !type.paid && end.slice(0, 7) !== start.slice(0, 7) ? `${start.slice(0, 7)}-${lastDayOf(start)}` : end }
      }
      await req(t.app, 'POST', '/api/v1/leave/requests', { token: person.token, body: { type_id: type.id, ...body } })
    } else if (what <= 7) {
      const pending = await w.t.deps.database.db.select({ id: leaveRequests.id }).from(leaveRequests).where(eq(leaveRequests.status, 'pending'))
      if (pending.length === 0) continue
      const id = r.pick(pending).id
      await req(t.app, 'POST', `/api/v1/approvals/leave/${id}/${r.chance(0.8) ? 'approve' : 'reject'}`, { token: w.admin, body: { note: 'decided' } })
    } else if (what === 8) {
      const open = await w.t.deps.database.db.select({ id: leaveRequests.id }).from(leaveRequests).where(eq(leaveRequests.status, 'approved'))
      if (open.length > 0) await req(t.app, 'POST', `/api/v1/admin/leave/requests/${r.pick(open).id}/cancel`, { token: w.admin })
    } else {
      // half the changes fall inside open leave, which they recount
      const open = await w.t.deps.database.db.select().from(leaveRequests).where(inArray(leaveRequests.status, ['pending', 'approved']))
      const inside = open.length > 0 && r.chance(0.5) ? r.pick(open) : null
      const date = inside ? addDays(inside.startDate, r.int(0, Math.max(0, daysBetween(inside.startDate, inside.endDate)))) : addDays(today, r.int(-10, 50))
      if (r.chance(0.25)) await req(t.app, 'DELETE', `/api/v1/admin/companies/1/calendar/${date}`, { token: w.admin })
      else await req(t.app, 'PUT', `/api/v1/admin/companies/1/calendar/${date}`, { token: w.admin, body: { kind: r.pick(['holiday', 'holiday', 'workday']), name: 'Changed' } })
    }
  }
}

async function runJob(w: World) {
  const { t, r } = w
  await createDayClose({ database: t.deps.database, clock: t.clock, defaultZone: 'UTC', logger: t.deps.logger }).tick()
  if (r.chance(0.3)) await Promise.all([1, 2].map(() => t.deps.database.write((tx) => accrueLeave(tx, t.clock.now(), 'UTC'))))
}

async function check(w: World, when: string) {
  const { t } = w
  const db = t.deps.database.db
  const ledger = await db.select().from(leaveLedger)
  const events = ledger.filter((row) => row.event !== null).map((row) => `${row.employeeId} ${row.typeId} ${row.event}`)
  expect(new Set(events).size, `${when}: an accrual event written twice`).toBe(events.length)
  for (const person of w.people.filter((p) => p.id !== 0))
    for (const year of YEARS) {
      const balances = (await must(t, w.admin, 'GET', `/api/v1/admin/leave/balances?employee_id=${person.id}&year=${year}`)).balances
      const taken = { day: 0, hour: 0 }
      for (const type of w.types) {
        const rows = ledger.filter((row) => row.employeeId === person.id && row.typeId === type.id && row.year === year)
        const sum = (kinds: string[]) => rows.filter((row) => kinds.includes(row.kind)).reduce((total, row) => total + row.amount, 0)
        // amounts in the type's unit: half-days, or minutes (a day of allowance is 8 hours)
        const granted = (type.accrual === 'none' ? type.annualHalfDays * (type.unit === 'hour' ? 240 : 1) : 0) + sum(['adjustment', 'grant', 'carry', 'lapse', 'payout'])
        const [takenHere, pending] = [sum(['taken', 'reversal']), sum(['pending', 'release'])]
        const figure = (amount: number) => (type.unit === 'hour' ? hours(amount) : amount / 2)
        const expected = { unit: type.unit, granted: figure(granted), taken: figure(takenHere), pending: figure(pending), remaining: figure(granted - takenHere - pending) }
        const shown = balances.find((b: { type_id: number }) => b.type_id === type.id)
        const label = `${when}: employee ${person.id}, type ${type.id}, ${year}`
        expect(shown, label).toMatchObject(expected)
        if (type.requiresBalance) expect(shown.remaining, `${label}: below zero`).toBeGreaterThanOrEqual(0)
        taken[type.unit] += takenHere
      }
      const statistics = await must(t, person.token, 'GET', `/api/v1/attendance/statistics?start_date=${year}-01-01&end_date=${year}-12-31`)
      expect(statistics.leave_days, `${when}: employee ${person.id}'s leave days of ${year}`).toBe(taken.day / 2)
      expect(statistics.leave_hours, `${when}: employee ${person.id}'s leave hours of ${year}`).toBe(hours(taken.hour))
    }
  // each open request's ledger holds its days, and its days are its work days now
  const open = await db.select().from(leaveRequests).where(and(eq(leaveRequests.status, 'approved')))
  for (const request of open) {
    const held = ledger.filter((row) => row.requestId === request.id && ['taken', 'reversal'].includes(row.kind)).reduce((total, row) => total + row.amount, 0)
    expect(held, `${when}: request ${request.id}`).toBe(request.amount)
  }
}

/** Minutes as the API shows hours: to the hundredth. */
const hours = (minutes: number) => Math.round((minutes * 5) / 3) / 100
const lastDayOf = (date: string) => String(new Date(Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)), 0)).getUTCDate()).padStart(2, '0')

async function download(w: World, path: string): Promise<string[][]> {
  const reply = await w.t.app.handle(new Request(`http://localhost${path}`, { headers: { authorization: `Bearer ${w.admin}` } }))
  expect(reply.status, path).toBe(200)
  return parse((await reply.text()).replace(/^\uFEFF/, ''), { relax_column_count: true }) as string[][]
}

/**
 * A month just over: each person's leave days and hours in the monthly sheet are their statistics'
 * for the month, and a payroll run's unpaid leave days and minutes are what their approved unpaid
 * requests of the month hold (the ledger's `taken` rows of those requests).
 */
async function checkMonth(w: World, month: string, when: string) {
  const { t } = w
  const db = t.deps.database.db
  const [first, last] = [`${month}-01`, `${month}-${lastDayOf(`${month}-01`)}`]
  const data = await download(w, `/api/v1/admin/exports/attendance?month=${month}&format=csv`)
  const sheet = await download(w, `/api/v1/admin/exports/attendance?month=${month}&format=csv&layout=sheet`)
  const leaveDaysAt = data[0].indexOf('leave_days')
  const run = await must(t, w.admin, 'POST', '/api/v1/admin/payroll/runs', { company_id: 1, month }, 201)
  const payslips = (await must(t, w.admin, 'GET', `/api/v1/admin/payroll/runs/${run.id}/payslips?page_size=100`)).payslips
  const approved = await db.select().from(leaveRequests).where(eq(leaveRequests.status, 'approved'))
  const ledger = await db.select().from(leaveLedger).where(eq(leaveLedger.kind, 'taken'))
  for (const person of w.people.filter((p) => p.id !== 0 && p.hire <= last)) {
    const label = `${when}: employee ${person.id}, ${month}`
    const statistics = await must(t, person.token, 'GET', `/api/v1/attendance/statistics?start_date=${first}&end_date=${last}`)
    const name = (await must(t, w.admin, 'GET', `/api/v1/admin/employees/${person.id}`)).name
    const row = data.find((cells) => cells[1] === name)!
    const sheetRow = sheet.find((cells) => cells[1] === name)!
    expect({ leave_days: Number(row[leaveDaysAt]), leave_hours: Number(sheetRow[sheetRow.length - 1]) }, `${label}: the sheet`).toEqual({
      leave_days: statistics.leave_days,
      leave_hours: statistics.leave_hours,
    })
    // the unpaid requests of the month and what the ledger took for them (an hourly type's in minutes)
    const unpaid = { day: 0, hour: 0 }
    for (const request of approved) {
      const type = w.types.find((each) => each.id === request.typeId)!
      if (request.employeeId !== person.id || type.paid || request.startDate < first || request.startDate > last) continue
      unpaid[type.unit] += ledger.filter((entry) => entry.requestId === request.id).reduce((sum, entry) => sum + entry.amount, 0)
    }
    const payslip = payslips.find((each: { employee: { id: number } }) => each.employee.id === person.id)
    const input = (code: string, name: string) => payslip.lines.find((line: { code: string }) => line.code === code)?.inputs[name] ?? 0
    expect({ days: input('unpaid_leave', 'unpaid_leave_days'), minutes: input('unpaid_leave_hours', 'unpaid_leave_minutes') }, `${label}: payroll`).toEqual({
      days: unpaid.day / 2,
      minutes: unpaid.hour,
    })
  }
  await must(t, w.admin, 'DELETE', `/api/v1/admin/payroll/runs/${run.id}`)
}

describe.each(SEEDS)('seed %d', (seed) => {
  let w: World
  // a dozen password hashes: slow on a busy machine
  beforeAll(async () => {
    w = await setUp(seed)
  }, 30_000)
  afterAll(() => w.t.close())

  test('sixteen months of requests, decisions, calendar changes and the accrual job keep every balance explained and agreeing', async () => {
    let today = '2025-12-20'
    while (today < '2027-04-20') {
      const before = today
      today = addDays(today, w.r.int(3, 12))
      if (today.slice(0, 7) !== before.slice(0, 7)) {
        // the month just over, at 10:00 on the 1st of the next, before anything else happens that day
        w.t.clock.set(local(`${today.slice(0, 7)}-01`))
        await signIn(w, `${today.slice(0, 7)}-01`)
        await checkMonth(w, before.slice(0, 7), `${before.slice(0, 7)} (seed ${seed})`)
      }
      w.t.clock.set(local(today, w.r.pick(['00:30:00', '10:00:00', '23:30:00'])))
      await signIn(w, today)
      await hire(w, today)
      await runJob(w)
      await act(w, today)
      if (w.r.chance(0.3)) await runJob(w)
      await check(w, `${today} (seed ${seed})`)
    }
  }, 120_000)
})
