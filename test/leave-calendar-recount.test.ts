import { afterAll, beforeAll, expect, test } from 'bun:test'
import { and, asc, eq } from 'drizzle-orm'
import { auditLogs, leaveLedger } from '../src/db/schema'
import { errorBody as errorAt, login, loginAdmin, req, startApp, type TestApp } from './helpers'
import { must, shanghaiOffice } from './payroll-fixtures'

/*
 * A calendar change inside pending or approved leave recounts it (CONTRACT §18): the request's
 * days, the ledger (a row with reason "calendar") and so the balance follow the calendar, as
 * statistics always did. Mon–Fri rule, Shanghai, September 2026 (the 7th is a Monday):
 *
 *   A  annual  Mon 7 – Fri 11     approved, 5 days → a holiday on Wed 9: 4 (and back to 5 without it)
 *   B  annual  Mon 14 – Tue 15    pending, 2 days  → both made holidays: no work day left, cancelled
 *   C  annual  Fri 18 – Mon 21    approved, 2 days → Sat 19 a make-up work day: 3
 *   D  small   Fri 25 – Mon 28    approved, 2 days of 2 → Sat 26 a work day would overdraw: 409, nothing changes
 */

let t: TestApp
let admin: string
let token: string
let employee = 0
const types = { annual: 0, small: 0 }
const requests = { A: 0, B: 0, C: 0, D: 0 }
const errorBody = (code: number, message: string) => ({ ...errorAt(code, message), timestamp: t.clock.now().toISOString() })

const ask = async (type: keyof typeof types, start: string, end: string, approve: boolean) => {
  const created = await req(t.app, 'POST', '/api/v1/leave/requests', { token, body: { type_id: types[type], start_date: start, end_date: end } })
  expect(created.status).toBe(201)
  if (approve) await must(t, admin, 'POST', `/api/v1/approvals/leave/${created.body.data.id}/approve`, {})
  return created.body.data.id as number
}
const days = async (id: number) => (await must(t, admin, 'GET', `/api/v1/admin/leave/requests?employee_id=${employee}`)).requests.find((r: { id: number }) => r.id === id)
const balance = async (type: keyof typeof types) =>
  (await must(t, admin, 'GET', `/api/v1/admin/leave/balances?employee_id=${employee}&year=2026`)).balances.find((b: { type_id: number }) => b.type_id === types[type])
const calendarRows = (id: number) =>
  t.deps.database.db
    .select({ kind: leaveLedger.kind, halfDays: leaveLedger.amount })
    .from(leaveLedger)
    .where(and(eq(leaveLedger.requestId, id), eq(leaveLedger.reason, 'calendar')))
    .orderBy(asc(leaveLedger.id))

beforeAll(async () => {
  t = await startApp({ now: '2026-09-01T02:00:00.000Z' })
  admin = await loginAdmin(t.app)
  await shanghaiOffice(t, admin)
  employee = (await must(t, admin, 'POST', '/api/v1/admin/employees', { name: 'Lin', company_id: 1, hire_date: '2020-01-01', username: 'lin', password: 'lin-password' }, 201)).id
  await must(t, admin, 'POST', '/api/v1/admin/attendance/groups/1/employees', { employee_ids: [employee] })
  types.annual = (await must(t, admin, 'POST', '/api/v1/admin/leave/types', { name: 'Annual', annual_days: 15 }, 201)).id
  types.small = (await must(t, admin, 'POST', '/api/v1/admin/leave/types', { name: 'Small', annual_days: 2 }, 201)).id
  token = await login(t.app, 'lin', 'lin-password')
  requests.A = await ask('annual', '2026-09-07', '2026-09-11', true)
  requests.B = await ask('annual', '2026-09-14', '2026-09-15', false)
  requests.C = await ask('annual', '2026-09-18', '2026-09-21', true)
  requests.D = await ask('small', '2026-09-25', '2026-09-28', true)
}, 30_000)
afterAll(() => t.close())

test('before any change: 5 + 2 (C) taken, 2 pending', async () => {
  expect(await balance('annual')).toMatchObject({ granted: 15, taken: 7, pending: 2, remaining: 6 })
  expect(await balance('small')).toMatchObject({ granted: 2, taken: 2, remaining: 0 })
})

test('a holiday declared inside an approved week: the request, the balance and statistics all say 4', async () => {
  await must(t, admin, 'PUT', '/api/v1/admin/companies/1/calendar/2026-09-09', { kind: 'holiday', name: 'Founding day' }, 201)
  expect(await days(requests.A)).toMatchObject({ days: 4, status: 'approved' })
  expect(await balance('annual')).toMatchObject({ taken: 6, pending: 2, remaining: 7 })
  expect(await calendarRows(requests.A)).toEqual([{ kind: 'taken', halfDays: -2 }])
  const statistics = await must(t, token, 'GET', '/api/v1/attendance/statistics?start_date=2026-09-07&end_date=2026-09-11')
  expect(statistics.leave_days).toBe(4)
  const [audit] = await t.deps.database.db.select().from(auditLogs).where(eq(auditLogs.action, 'leave_request.recount'))
  expect(audit).toMatchObject({ resource: 'leave_request', resourceId: String(requests.A), actorId: 1 })
  expect([(audit.before as { days: number }).days, (audit.after as { days: number }).days]).toEqual([5, 4])
})

test('a request left with no work day is cancelled, its pending days given back', async () => {
  await must(t, admin, 'POST', '/api/v1/admin/companies/1/calendar/import', {
    days: [
      { date: '2026-09-14', kind: 'holiday', name: 'Autumn break' },
      { date: '2026-09-15', kind: 'holiday', name: 'Autumn break' },
    ],
  })
  expect(await days(requests.B)).toMatchObject({ days: 2, status: 'cancelled' })
  expect(await calendarRows(requests.B)).toEqual([{ kind: 'release', halfDays: -4 }])
  expect(await balance('annual')).toMatchObject({ taken: 6, pending: 0, remaining: 9 })
})

test('a make-up work day inside approved leave adds a day', async () => {
  await must(t, admin, 'PUT', '/api/v1/admin/companies/1/calendar/2026-09-19', { kind: 'workday', name: 'Make-up day' }, 201)
  expect(await days(requests.C)).toMatchObject({ days: 3 })
  expect(await calendarRows(requests.C)).toEqual([{ kind: 'taken', halfDays: 2 }])
  expect(await balance('annual')).toMatchObject({ taken: 7, remaining: 8 })
})

test('a change that would overdraw a balance the type requires is refused, naming it; nothing changes', async () => {
  const refused = await req(t.app, 'PUT', '/api/v1/admin/companies/1/calendar/2026-09-26', { token: admin, body: { kind: 'workday', name: 'Make-up day' } })
  expect(refused.body).toEqual(
    errorBody(409, "The calendar change adds 1 work day to Lin's Small in 2026, which has 0 days left: adjust that balance or cancel the request first"),
  )
  expect((await must(t, admin, 'GET', '/api/v1/admin/companies/1/calendar?year=2026')).days.map((d: { date: string }) => d.date)).not.toContain('2026-09-26')
  expect(await days(requests.D)).toMatchObject({ days: 2 })
  expect(await balance('small')).toMatchObject({ taken: 2, remaining: 0 })
})

test('the holiday removed: back to 5', async () => {
  await must(t, admin, 'DELETE', '/api/v1/admin/companies/1/calendar/2026-09-09')
  expect(await days(requests.A)).toMatchObject({ days: 5 })
  expect(await calendarRows(requests.A)).toEqual([
    { kind: 'taken', halfDays: -2 },
    { kind: 'taken', halfDays: 2 },
  ])
  expect(await balance('annual')).toMatchObject({ granted: 15, taken: 8, pending: 0, remaining: 7 })
})
