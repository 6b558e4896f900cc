import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { and, asc, eq, sql } from 'drizzle-orm'
import { leaveLedger } from '../src/db/schema'
import { createDayClose } from '../src/modules/attendance/day-close'
import { accrueLeave } from '../src/modules/leave/accrual-job'
import { errorBody as errorAt, login, loginAdmin, req, startApp, type TestApp } from './helpers'
import { must, shanghaiOffice } from './payroll-fixtures'

/*
 * Leave that accrues (CONTRACT §18) through the service: China's statutory annual leave as a
 * yearly type with carry-over, a veteran and a joiner, a year's leave, the close of the year on
 * 1 January and the lapse of carried days after 31 March, in Shanghai (UTC+8). Half-days in the
 * ledger, days in the API.
 *
 *   Veteran: hired 2020-01-01, working since 2006-01-01: 20 years all of 2026 → 15 days.
 *   Joiner:  hired 2026-07-01 with 12 years of work: 10 days × 184 ÷ 365 = 5.04 → 5 days.
 *   2026: the veteran takes 3 days (6–8 July) and 2 more over a weekend (Fri 10 – Mon 13 July:
 *         2 work days); a third request (20–21 July) is approved, then cancelled: returned.
 *   Close of 2026 (carry at most 5): veteran 15 − 5 = 10 → 5 carried, 5 lapse; joiner 5 → 5 carried.
 *   2027: grants 15 and 10 (the joiner has 12 years all year). The joiner takes 2 days (1–2 Feb)
 *         before the expiry: of the 5 carried, 3 lapse after 31 March; the veteran's 5 all lapse.
 */

const STATUTORY = {
  name: 'Statutory annual leave',
  accrual: 'yearly',
  seniority_tiers: [
    { from_years: 1, days: 5 },
    { from_years: 10, days: 10 },
    { from_years: 20, days: 15 },
  ],
  carry_over_max: 5,
  carry_over_expires: '03-31',
}

let t: TestApp
const errorBody = (code: number, message: string, extra: Record<string, unknown>) => ({ ...errorAt(code, message, extra), timestamp: t.clock.now().toISOString() })
let admin: string
const ids = { veteran: 0, joiner: 0, type: 0 }
const tokens = { veteran: '', joiner: '' }

/** Shanghai wall time → the clock. */
const at = async (local: string) => {
  t.clock.set(new Date(`${local}+08:00`).toISOString())
  admin = await loginAdmin(t.app)
  tokens.veteran = await login(t.app, 'veteran', 'veteran-password')
  tokens.joiner = await login(t.app, 'joiner', 'joiner-password')
}

const balance = async (who: keyof typeof ids, year: number) => {
  const reply = await must(t, admin, 'GET', `/api/v1/admin/leave/balances?employee_id=${ids[who]}&year=${year}`)
  return reply.balances.find((b: { type_id: number }) => b.type_id === ids.type)
}

const rowsOf = (who: keyof typeof ids) =>
  t.deps.database.db
    .select({ year: leaveLedger.year, kind: leaveLedger.kind, halfDays: leaveLedger.amount, event: leaveLedger.event, reason: leaveLedger.reason })
    .from(leaveLedger)
    .where(and(eq(leaveLedger.employeeId, ids[who]), eq(leaveLedger.typeId, ids.type), sql`${leaveLedger.event} IS NOT NULL`))
    .orderBy(asc(leaveLedger.id))

const ledgerCount = async () => (await t.deps.database.db.select({ n: sql<number>`count(*)` }).from(leaveLedger))[0].n

/** One tick of a day-close job of its own (a fresh instance: a lease free and the hourly accrual due). */
const tick = () => createDayClose({ database: t.deps.database, clock: t.clock, defaultZone: 'UTC', logger: t.deps.logger }).tick()

const requestLeave = async (who: keyof typeof tokens, start: string, end: string) => {
  const created = await req(t.app, 'POST', '/api/v1/leave/requests', { token: tokens[who], body: { type_id: ids.type, start_date: start, end_date: end, reason: 'rest' } })
  expect(created.status).toBe(201)
  await must(t, admin, 'POST', `/api/v1/approvals/leave/${created.body.data.id}/approve`, { note: 'fine' })
  return created.body.data.id as number
}

beforeAll(async () => {
  t = await startApp({ now: '2026-06-30T02:00:00.000Z' })
  admin = await loginAdmin(t.app)
  await shanghaiOffice(t, admin)
  ids.veteran = (await must(t, admin, 'POST', '/api/v1/admin/employees', {
    name: 'Veteran',
    company_id: 1,
    hire_date: '2020-01-01',
    work_start_date: '2006-01-01',
    username: 'veteran',
    password: 'veteran-password',
  }, 201)).id
  await must(t, admin, 'POST', '/api/v1/admin/attendance/groups/1/employees', { employee_ids: [ids.veteran] })
}, 30_000)
afterAll(() => t.close())

describe('a yearly type with seniority tiers and carry-over', () => {
  test('tiers and carry-over need a type that accrues; a tier named twice and an unreal expiry are refused; nothing is stored', async () => {
    const accruing = 'applies to a type that accrues: set accrual to "yearly" or "monthly" (it is "none")'
    const refused = [
      [{ name: 'A', seniority_tiers: [{ from_years: 1, days: 5 }] }, 'seniority_tiers', accruing],
      [{ name: 'A', carry_over_max: 3 }, 'carry_over_max', accruing],
      [{ ...STATUTORY, name: 'A', seniority_tiers: [{ from_years: 1, days: 5 }, { from_years: 1, days: 6 }] }, 'seniority_tiers', 'names from_years 1 twice: each tier needs years of its own'],
    ] as const
    for (const [body, field, message] of refused) {
      const reply = await req(t.app, 'POST', '/api/v1/admin/leave/types', { token: admin, body })
      expect(reply.body).toEqual(errorBody(400, `${field} ${message}`, { errors: [{ field, message }] }))
    }
    // an update is judged with the settings it keeps: tiers on a yearly type, then accrual none
    const kept = await must(t, admin, 'POST', '/api/v1/admin/leave/types', { ...STATUTORY, name: 'Kept' }, 201)
    const none = await req(t.app, 'PUT', `/api/v1/admin/leave/types/${kept.id}`, { token: admin, body: { accrual: 'none' } })
    expect(none.body).toEqual(errorBody(400, `seniority_tiers ${accruing}`, { errors: [{ field: 'seniority_tiers', message: accruing }] }))
    await must(t, admin, 'DELETE', `/api/v1/admin/leave/types/${kept.id}`)
    const unreal = await req(t.app, 'POST', '/api/v1/admin/leave/types', { token: admin, body: { ...STATUTORY, carry_over_expires: '02-30' } })
    expect(unreal.body).toEqual(
      errorBody(400, 'carry_over_expires "02-30" is not a date of the year written MM-DD', { errors: [{ field: 'carry_over_expires', message: 'must be a date of the year written MM-DD (03-31)' }] }),
    )
    expect((await must(t, admin, 'GET', '/api/v1/admin/leave/types')).types).toEqual([])
  })

  test('the database refuses an accrual it does not know and a negative carry-over (triggers of migration 0020)', async () => {
    const { db } = t.deps.database
    /** SQLite's message (Drizzle wraps it as the cause of its own), or null when the statement ran */
    const refusal = async (statement: ReturnType<typeof sql>) => {
      try {
        await db.run(statement)
        return null
      } catch (error) {
        return String((error as { cause?: Error }).cause?.message ?? error)
      }
    }
    const insert = (accrual: string, carry: number) => sql`INSERT INTO leave_types (name, accrual, carry_over_max_half_days) VALUES ('Bad', ${accrual}, ${carry})`
    // the embedded driver and a libSQL server word the code around it differently
    const refused = 'CHECK constraint failed: leave_types_accrual_check'
    expect(await refusal(insert('weekly', 0))).toContain(refused)
    expect(await refusal(insert('yearly', -2))).toContain(refused)
    expect(await refusal(insert('monthly', 0))).toBeNull()
    expect(await refusal(sql`UPDATE leave_types SET accrual = 'daily' WHERE name = 'Bad'`)).toContain(refused)
    await db.run(sql`DELETE FROM leave_types WHERE name = 'Bad'`)
  })

  test('created: its settings read back, and the grants due now are written at once', async () => {
    const type = await must(t, admin, 'POST', '/api/v1/admin/leave/types', STATUTORY, 201)
    ids.type = type.id
    expect(type).toMatchObject({ ...STATUTORY, annual_days: 0 })
    // 20 years of work on 1 January 2026: the 15-day tier, a whole year
    expect(await balance('veteran', 2026)).toEqual({ type_id: ids.type, type_name: STATUTORY.name, year: 2026, unit: 'day', granted: 15, taken: 0, pending: 0, remaining: 15 })
    expect(await rowsOf('veteran')).toEqual([{ year: 2026, kind: 'grant', halfDays: 30, event: 'grant 2026', reason: 'accrued: 2026' }])
  })

  test('a new hire is granted at once: a joiner on 1 July with 12 years of work gets 5 days (10 × 184 ÷ 365, rounded down); regression: a joiner’s accrual counted from 1 January', async () => {
    t.clock.set('2026-07-01T01:00:00.000Z')
    admin = await loginAdmin(t.app)
    ids.joiner = (await must(t, admin, 'POST', '/api/v1/admin/employees', {
      name: 'Joiner',
      company_id: 1,
      hire_date: '2026-07-01',
      work_start_date: '2014-07-01',
      username: 'joiner',
      password: 'joiner-password',
    }, 201)).id
    await must(t, admin, 'POST', '/api/v1/admin/attendance/groups/1/employees', { employee_ids: [ids.joiner] })
    expect(await balance('joiner', 2026)).toMatchObject({ granted: 5, remaining: 5 })
    expect(await rowsOf('joiner')).toEqual([{ year: 2026, kind: 'grant', halfDays: 10, event: 'grant 2026', reason: 'accrued: 2026' }])
  })

  test('hires imported from a CSV file are granted at once too', async () => {
    const form = new FormData()
    form.append('file', new File(['name,employee_no,company_id,hire_date\nImported,I1,1,2026-04-01\n'], 'employees.csv', { type: 'text/csv' }))
    const reply = await t.app.handle(
      new Request('http://localhost/api/v1/admin/employees/import?dry_run=false', { method: 'POST', body: form, headers: { authorization: `Bearer ${admin}` } }),
    )
    expect(reply.status).toBe(200)
    const [imported] = (await must(t, admin, 'GET', '/api/v1/admin/employees?search=Imported')).list
    // no work_start_date: years of work from the hire date, below one year: the statutory tiers give nothing; the grant row is not written
    const balances = (await must(t, admin, 'GET', `/api/v1/admin/leave/balances?employee_id=${imported.id}&year=2026`)).balances
    expect(balances.find((b: { type_id: number }) => b.type_id === ids.type)).toMatchObject({ granted: 0 })
    // with a flat yearly type they get their prorated days: 10 × 275 ÷ 365 (1 April to 31 December) = 7.53 → 7
    const flat = await must(t, admin, 'POST', '/api/v1/admin/leave/types', { name: 'Flat yearly', accrual: 'yearly', annual_days: 10 }, 201)
    const flatBalance = (await must(t, admin, 'GET', `/api/v1/admin/leave/balances?employee_id=${imported.id}&year=2026`)).balances.find((b: { type_id: number }) => b.type_id === flat.id)
    expect(flatBalance).toMatchObject({ granted: 7, remaining: 7 })
    const form2 = new FormData()
    // a work_start_date column: 12 years of work, so the statutory tier of 10 days too (10 × 275 ÷ 365 = 7.53 → 7)
    form2.append('file', new File(['name,employee_no,company_id,hire_date,work_start_date\nImported Two,I2,1,2026-04-01,2014-04-01\n'], 'employees.csv', { type: 'text/csv' }))
    expect((await t.app.handle(new Request('http://localhost/api/v1/admin/employees/import?dry_run=false', { method: 'POST', body: form2, headers: { authorization: `Bearer ${admin}` } }))).status).toBe(200)
    const [second] = (await must(t, admin, 'GET', '/api/v1/admin/employees?search=Imported%20Two')).list
    const secondBalance = (await must(t, admin, 'GET', `/api/v1/admin/leave/balances?employee_id=${second.id}&year=2026`)).balances.find((b: { type_id: number }) => b.type_id === flat.id)
    expect(secondBalance).toMatchObject({ granted: 7, remaining: 7 })
    expect(second.work_start_date).toBe('2014-04-01')
    const statutory = (await must(t, admin, 'GET', `/api/v1/admin/leave/balances?employee_id=${second.id}&year=2026`)).balances.find((b: { type_id: number }) => b.type_id === ids.type)
    expect(statutory).toMatchObject({ granted: 7 })
    await must(t, admin, 'PUT', `/api/v1/admin/leave/types/${flat.id}`, { status: 0 })
  })

  test('the job again, and two at once, write nothing twice', async () => {
    const before = await ledgerCount()
    await tick()
    const { database } = t.deps
    await Promise.all([1, 2].map(() => database.write((tx) => accrueLeave(tx, t.clock.now(), 'UTC'))))
    expect(await ledgerCount()).toBe(before)
  })

  test('a work_start_date after the hire date is refused', async () => {
    const reply = await req(t.app, 'PUT', `/api/v1/admin/employees/${ids.joiner}`, { token: admin, body: { work_start_date: '2026-07-02' } })
    const message = 'work_start_date 2026-07-02 is after the hire date 2026-07-01: years of work begin by the hire date'
    expect(reply.body).toEqual(errorBody(400, message, { errors: [{ field: 'work_start_date', message: 'is after the hire date' }] }))
  })

  test('regressions: leave over a weekend counted (it counts its work days); a cancelled approved leave not returned (it is)', async () => {
    await at('2026-07-01T10:00:00')
    await requestLeave('veteran', '2026-07-06', '2026-07-08')
    await requestLeave('veteran', '2026-07-10', '2026-07-13')
    const cancelled = await requestLeave('veteran', '2026-07-20', '2026-07-21')
    expect(await balance('veteran', 2026)).toMatchObject({ granted: 15, taken: 7, remaining: 8 })
    await must(t, admin, 'POST', `/api/v1/admin/leave/requests/${cancelled}/cancel`)
    expect(await balance('veteran', 2026)).toMatchObject({ granted: 15, taken: 5, pending: 0, remaining: 10 })
  })
})

describe('the close of a year and the expiry of carried days', () => {
  test('on 1 January: at most 5 days carried, the rest lapses, the new year granted; regression: a carry-over cap applied twice (the job again, on another instance an hour later, changes nothing)', async () => {
    await at('2026-12-31T23:30:00')
    await tick()
    expect(await balance('veteran', 2026)).toMatchObject({ granted: 15, remaining: 10 })
    await at('2027-01-01T00:30:00')
    await tick()
    expect(await balance('veteran', 2026)).toEqual({ type_id: ids.type, type_name: STATUTORY.name, year: 2026, unit: 'day', granted: 5, taken: 5, pending: 0, remaining: 0 })
    expect(await balance('veteran', 2027)).toEqual({ type_id: ids.type, type_name: STATUTORY.name, year: 2027, unit: 'day', granted: 20, taken: 0, pending: 0, remaining: 20 })
    expect(await balance('joiner', 2026)).toMatchObject({ granted: 0, remaining: 0 })
    expect(await balance('joiner', 2027)).toMatchObject({ granted: 15, remaining: 15 })
    expect((await rowsOf('veteran')).slice(1)).toEqual([
      { year: 2027, kind: 'grant', halfDays: 30, event: 'grant 2027', reason: 'accrued: 2027' },
      { year: 2026, kind: 'carry', halfDays: -10, event: 'carry out 2026', reason: 'carried over to 2027' },
      { year: 2027, kind: 'carry', halfDays: 10, event: 'carry in 2026', reason: 'carried over from 2026' },
      { year: 2026, kind: 'lapse', halfDays: -10, event: 'lapse 2026', reason: 'lapsed at the close of 2026' },
    ])
    const before = await ledgerCount()
    await at('2027-01-01T01:40:00')
    await tick()
    expect(await ledgerCount()).toBe(before)
    expect(await balance('veteran', 2027)).toMatchObject({ granted: 20 })
  })

  test('carried days lapse after 31 March, days taken before then coming from them first; regression: expiry before the stated date (nothing lapses on 31 March)', async () => {
    await requestLeave('joiner', '2027-02-01', '2027-02-02')
    await at('2027-03-31T23:30:00')
    await tick()
    expect(await balance('joiner', 2027)).toMatchObject({ granted: 15, taken: 2, remaining: 13 })
    expect(await balance('veteran', 2027)).toMatchObject({ granted: 20, remaining: 20 })
    await at('2027-04-01T00:30:00')
    await tick()
    // the joiner used 2 of the 5 carried: 3 lapse; the veteran used none: all 5
    expect(await balance('joiner', 2027)).toEqual({ type_id: ids.type, type_name: STATUTORY.name, year: 2027, unit: 'day', granted: 12, taken: 2, pending: 0, remaining: 10 })
    expect(await balance('veteran', 2027)).toMatchObject({ granted: 15, remaining: 15 })
    expect((await rowsOf('joiner')).at(-1)).toEqual({ year: 2027, kind: 'lapse', halfDays: -6, event: 'expire 2026', reason: 'days carried over from 2026 lapsed after 2027-03-31' })
  })

  test('the ledger explains each balance, to HR and to the employee: the same rows, oldest first', async () => {
    const entries = (await must(t, admin, 'GET', `/api/v1/admin/leave/ledger?employee_id=${ids.joiner}&year=2027`)).entries
    const stampOf = (local: string) => new Date(`${local}+08:00`).toISOString()
    const row = (kind: string, days: number, reason: string, event: string | null, created: string, extra: Record<string, unknown> = {}) => ({
      type_id: ids.type,
      type_name: STATUTORY.name,
      year: 2027,
      kind,
      unit: 'day',
      days,
      hours: null,
      reason,
      event,
      request_id: null,
      actor: null,
      created_at: stampOf(created),
      ...extra,
    })
    const request = entries.find((entry: { kind: string }) => entry.kind === 'pending').request_id
    const joinerUser = (await must(t, admin, 'GET', `/api/v1/admin/employees/${ids.joiner}`)).user_id
    expect(entries.map(({ id: _, ...entry }: { id: number }) => entry)).toEqual([
      row('grant', 10, 'accrued: 2027', 'grant 2027', '2027-01-01T00:30:00'),
      row('carry', 5, 'carried over from 2026', 'carry in 2026', '2027-01-01T00:30:00'),
      row('pending', 2, 'requested', null, '2027-01-01T01:40:00', { request_id: request, actor: { id: joinerUser, name: 'Joiner' } }),
      row('release', -2, 'approved', null, '2027-01-01T01:40:00', { request_id: request, actor: { id: 1, name: 'Administrator' } }),
      row('taken', 2, 'approved', null, '2027-01-01T01:40:00', { request_id: request, actor: { id: 1, name: 'Administrator' } }),
      row('lapse', -3, 'days carried over from 2026 lapsed after 2027-03-31', 'expire 2026', '2027-04-01T00:30:00'),
    ])
    expect((await must(t, tokens.joiner, 'GET', '/api/v1/leave/ledger?year=2027')).entries).toEqual(entries)
    const missing = await req(t.app, 'GET', '/api/v1/admin/leave/ledger?employee_id=999', { token: admin })
    expect(missing.status).toBe(404)
  })

  test('every balance is the sum of its ledger rows', async () => {
    for (const who of ['veteran', 'joiner'] as const)
      for (const year of [2026, 2027]) {
        const rows = await t.deps.database.db
          .select({ kind: leaveLedger.kind, halfDays: leaveLedger.amount })
          .from(leaveLedger)
          .where(and(eq(leaveLedger.employeeId, ids[who]), eq(leaveLedger.typeId, ids.type), eq(leaveLedger.year, year)))
        const sum = (kinds: string[]) => rows.filter((row) => kinds.includes(row.kind)).reduce((total, row) => total + row.halfDays, 0) / 2
        const granted = sum(['adjustment', 'grant', 'carry', 'lapse'])
        const taken = sum(['taken', 'reversal'])
        const pending = sum(['pending', 'release'])
        expect(await balance(who, year)).toMatchObject({ granted, taken, pending, remaining: granted - taken - pending })
      }
  })
})
