import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { loginAdmin, login, req, startApp, type TestApp } from './helpers'
import { datesOfMonth, importHistory, line, must, shanghai, source, taxFormula, weekdayOf } from './payroll-fixtures'

/*
 * Payroll and leave of CONTRACT §16 and §18, worked out by hand: unpaid hourly leave as a line of its
 * own, and a leaver's remaining annual leave paid out on the payslip of the month of left_on, whose
 * approval writes the `payout` row into the leave ledger once.
 *
 * ─── Acme (company 1, Asia/Shanghai), set up on 20 February 2025 ───
 * Rule: 09:00–18:00, break 12:00–13:00, Monday to Friday, no late days allowed; default pay
 * settings (work-day proration, D = 21.75, no lateness deduction). March 2025 has no calendar
 * marks: weekdays 3–7, 10–14, 17–21, 24–28, 31 = 21 work days. A normal day: 08:55–18:05.
 * Leave types: "Personal hours" (paid = false, unit hour, no balance needed); "Annual leave"
 * (paid, 5 days a year, accrual none, payout_on_leaving). Both employees earn basic 10,000.00 a
 * month and nothing else: M = 10000.00.
 *
 * ─── Ivy (I01), the whole of March, 3 hours of unpaid leave ───
 *   Tuesday 11 March 15:00–18:00 off, unpaid: 180 minutes of work time (no break inside);
 *   she works 08:55–15:05 that day (early, which payroll does not deduct).
 *   basic_salary        10000.00 × 21 ÷ 21 = 10000.00
 *   unpaid_leave_hours  10000.00 ÷ 21.75 ÷ 8 × 180 ÷ 60 = 10000 × 180 ÷ 10440 = 172.4137… → 172.41
 *   no unpaid_leave line (an hourly request is never a leave day)
 *   gross 10000.00 − 172.41 = 9827.59; taxable 9827.59 − 5000.00 = 4827.59;
 *   tax 4827.59 × 0.03 = 144.8277 → 144.83; net 9827.59 − 144.83 = 9682.76
 *
 * ─── Leo (L01), left on Monday 10 March, 4.5 days of annual leave left ───
 *   Annual leave 2025: 5 days granted (the type's annual_days, no ledger row); he took the
 *   afternoon of Tuesday 4 March (0.5 day, approved): remaining 5 − 0.5 = 4.5.
 *   employed work days 3–7, 10 = 6 of 21
 *   basic_salary   10000.00 × 6 ÷ 21 = 60000 ÷ 21 = 2857.1428… → 2857.14
 *   leave_payout   10000.00 ÷ 21.75 × 2 × 4.5 = 90000 ÷ 21.75 = 4137.9310… → 4137.93
 *   gross 2857.14 + 4137.93 = 6995.07; taxable 1995.07; tax 1995.07 × 0.03 = 59.8521 → 59.85;
 *   net 6995.07 − 59.85 = 6935.22
 *   Approval writes the ledger row {kind payout, −4.5 days, reason 'paid out on leaving', event
 *   'payout 2025', actor admin}: granted 5 − 4.5 = 0.5, taken 0.5, remaining 0.
 *
 * ─── Afterwards: Leo stays on until 15 April after all ───
 *   HR moves left_on to 2025-04-15, his attendance of 11–31 March and 1–15 April comes in, and HR
 *   grants him 1 more day of 2025 (the balance: remaining 1). April (1–4, 7–11, 14–15 = 11 of 22
 *   work days), run on 6 May:
 *   basic_salary   10000.00 × 11 ÷ 22 = 5000.00
 *   no leave_payout: the year's payout is written (event 'payout 2025'); the 1 day stays in his
 *   balance (the unique event makes a payout happen once a year and type)
 *   adjustment (2025-03): March recomputed: basic 10000.00 × 21 ÷ 21 = 10000.00, and the payout as
 *   paid, 4137.93 (its ledger row took those days) = 14137.93; approved 6995.07; carried 0.00:
 *   14137.93 − 6995.07 − 0.00 = 7142.86 (sources: March's approved payslip)
 *   gross 5000.00 + 7142.86 = 12142.86; tax n = 2: Σ gross 6995.07 + 12142.86 = 19137.93;
 *   taxable 19137.93 − 5000.00 × 2 = 9137.93; 9137.93 × 0.03 = 274.1379 → 274.14;
 *   this month 274.14 − 59.85 = 214.29; net 12142.86 − 214.29 = 11928.57
 */

const MARCH = '2025-03'
const APRIL = '2025-04'
const SETUP = shanghai('2025-02-20T10:00')
const PAID = shanghai('2025-04-01T10:00')
const MAY = shanghai('2025-05-06T10:00')
const RUNS = '/api/v1/admin/payroll/runs'

const WORK_DAYS = (month: string) => datesOfMonth(month).filter((date) => weekdayOf(date) <= 5)

let t: TestApp
let admin: string
const ids = { ivy: 0, leo: 0 }
const profiles = { ivy: 0, leo: 0 }
const types = { hours: 0, annual: 0 }
const requests = { ivy: 0, leo: 0 }
let marchRun = 0

const adminDo = (method: string, path: string, body?: unknown, status = 200) => must(t, admin, method, path, body, status)
const payslipOf = async (runId: number, who: 'ivy' | 'leo', lang?: string) => {
  const reply = await req(t.app, 'GET', `${RUNS}/${runId}/payslips`, { token: admin, headers: lang ? { 'accept-language': lang } : {} })
  expect(reply.status).toBe(200)
  const found = (reply.body.data.payslips as { employee: { id: number } }[]).filter((payslip) => payslip.employee.id === ids[who])
  expect(found).toHaveLength(1)
  return found[0] as unknown as Record<string, unknown> & { id: number; lines: Record<string, unknown>[] }
}
const ledgerOf = async (who: 'ivy' | 'leo', year = 2025) =>
  (await adminDo('GET', `/api/v1/admin/leave/ledger?employee_id=${ids[who]}&year=${year}`)).entries as Record<string, unknown>[]
const annualBalance = async (who: 'ivy' | 'leo') =>
  ((await adminDo('GET', `/api/v1/admin/leave/balances?employee_id=${ids[who]}&year=2025`)).balances as Record<string, unknown>[]).find(
    (balance) => balance.type_id === types.annual,
  )
/** The annual leave ledger rows behind Leo's balance, oldest first: the payout line's sources after its leave_type. */
const leoLedgerSources = async () =>
  (await ledgerOf('leo')).filter((entry) => entry.type_id === types.annual).map((entry) => source('leave_ledger', entry.id as number))

const basic = (who: 'ivy' | 'leo', amount: number, formula: string) => line('basic_salary', 'income', amount, formula, [source('pay_profile', profiles[who])])
const marchTax = (gross: string, taxable: string, tax: string) =>
  line('personal_tax', 'deduction', Number(tax), taxFormula({ gross, months: 1, taxable, rate: '0.03', quick: '0.00', cumulativeTax: tax, withheld: '0.00', tax }), [])

beforeAll(async () => {
  t = await startApp({ now: SETUP, env: { ACCESS_TOKEN_TTL: '2592000' } })
  admin = await loginAdmin(t.app)
  await adminDo('POST', '/api/v1/admin/companies', { name: 'Acme', timezone: 'Asia/Shanghai' }, 201)
  await adminDo('POST', '/api/v1/admin/attendance/groups', { name: 'Acme office', company_id: 1 }, 201)
  await adminDo(
    'POST',
    '/api/v1/admin/attendance/rules',
    {
      name: 'Acme hours',
      group_id: 1,
      work_start_time: '09:00',
      work_end_time: '18:00',
      break_start_time: '12:00',
      break_end_time: '13:00',
      late_grace_period: 5,
      early_grace_period: 0,
      required_work_hours: 8,
      work_days: '1,2,3,4,5',
      allowed_late_days: 0,
    },
    201,
  )
  types.hours = (await adminDo('POST', '/api/v1/admin/leave/types', { name: 'Personal hours', paid: false, requires_balance: false, unit: 'hour' }, 201)).id
  types.annual = (await adminDo('POST', '/api/v1/admin/leave/types', { name: 'Annual leave', paid: true, annual_days: 5, payout_on_leaving: true }, 201)).id

  const hire = '2023-06-01'
  ids.ivy = (await adminDo('POST', '/api/v1/admin/employees', { name: 'Ivy Hours', employee_no: 'I01', company_id: 1, hire_date: hire, username: 'ivy', password: 'ivy-password-1' }, 201)).id
  ids.leo = (
    await adminDo('POST', '/api/v1/admin/employees', { name: 'Leo Leaver', employee_no: 'L01', company_id: 1, hire_date: hire, left_on: '2025-03-10', username: 'leo', password: 'leo-password-1' }, 201)
  ).id
  await adminDo('POST', '/api/v1/admin/attendance/groups/1/employees', { employee_ids: [ids.ivy, ids.leo] })
  const pay = { effective_month: '2025-01', basic_salary: 10000, seniority_pay: 0, allowance: 0, contribution_base: 10000, housing_fund_base: 10000 }
  profiles.ivy = (await adminDo('PUT', `/api/v1/admin/employees/${ids.ivy}/pay-profile`, pay)).id
  profiles.leo = (await adminDo('PUT', `/api/v1/admin/employees/${ids.leo}/pay-profile`, pay)).id

  const ask = async (who: 'ivy' | 'leo', body: Record<string, unknown>) => {
    const token = await login(t.app, who, `${who}-password-1`)
    const request = await must(t, token, 'POST', '/api/v1/leave/requests', { reason: 'Personal matters', ...body }, 201)
    await adminDo('POST', `/api/v1/approvals/leave/${request.id}/approve`, { note: 'Fine' })
    return request
  }
  const ivyLeave = await ask('ivy', { type_id: types.hours, start_date: '2025-03-11', end_date: '2025-03-11', start_time: '15:00', end_time: '18:00' })
  expect(ivyLeave).toMatchObject({ unit: 'hour', hours: 3, days: 0 })
  requests.ivy = ivyLeave.id
  const leoLeave = await ask('leo', { type_id: types.annual, start_date: '2025-03-04', end_date: '2025-03-04', half_day: 'pm' })
  expect(leoLeave).toMatchObject({ unit: 'day', days: 0.5 })
  requests.leo = leoLeave.id

  t.clock.set(PAID)
  admin = await loginAdmin(t.app)
  const rows: [string, string, string, string][] = []
  for (const date of WORK_DAYS(MARCH)) rows.push(['I01', date, '08:55', date === '2025-03-11' ? '15:05' : '18:05'])
  for (const date of WORK_DAYS(MARCH).filter((d) => d <= '2025-03-10')) rows.push(['L01', date, '08:55', date === '2025-03-04' ? '12:05' : '18:05'])
  await importHistory(t, admin, rows)
  marchRun = (await adminDo('POST', RUNS, { company_id: 1, month: MARCH }, 201)).id
}, 120_000)

afterAll(() => t?.close())

describe('March 2025, a draft', () => {
  test('Ivy: 3 hours of unpaid leave, a line of their own (formula, inputs, the request as source), no unpaid leave day', async () => {
    const payslip = await payslipOf(marchRun, 'ivy')
    expect(payslip.lines).toEqual([
      basic('ivy', 10000, '10000.00 × 21 ÷ 21 = 10000.00'),
      // 10000 × 180 ÷ (21.75 × 8 × 60) = 1800000 ÷ 10440 = 172.4137…
      {
        ...line('unpaid_leave_hours', 'attendance', 172.41, '10000.00 ÷ 21.75 ÷ 8 × 180 ÷ 60 = 172.41', [source('leave_request', requests.ivy)]),
        label: 'Unpaid leave deduction (hours)',
        inputs: { monthly_wage: 10000, days_per_month: 21.75, hours_per_day: 8, unpaid_leave_minutes: 180, minutes_per_hour: 60 },
      },
      // 10000.00 − 172.41 = 9827.59; 4827.59 × 0.03 = 144.8277
      marchTax('9827.59', '4827.59', '144.83'),
    ])
    expect(payslip).toMatchObject({ gross: 9827.59, deductions: 144.83, net: 9682.76, flags: ['unpaid_leave'] })
    const zh = await payslipOf(marchRun, 'ivy', 'zh-CN')
    expect(zh.lines[1].label).toBe('事假扣款（小时）')
  })

  test('statistics agree: her hourly leave is no leave day and she was never absent', async () => {
    const ivy = await login(t.app, 'ivy', 'ivy-password-1')
    const statistics = await must(t, ivy, 'GET', `/api/v1/attendance/statistics?start_date=${MARCH}-01&end_date=${MARCH}-31`)
    expect(statistics).toMatchObject({ work_days: 21, absent_days: 0, leave_days: 0 })
  })

  test('Leo: the remaining 4.5 days of annual leave paid at M ÷ D × 2 × 4.5, its sources the type and its ledger rows', async () => {
    const payslip = await payslipOf(marchRun, 'leo')
    const ledger = await leoLedgerSources()
    // his half day's rows (asked, approved): the balance before the payout
    expect(ledger.length).toBeGreaterThan(0)
    expect(payslip.lines).toEqual([
      // 60000 ÷ 21 = 2857.1428…
      basic('leo', 2857.14, '10000.00 × 6 ÷ 21 = 2857.14'),
      // 90000 ÷ 21.75 = 4137.9310…
      {
        ...line('leave_payout', 'income', 4137.93, '10000.00 ÷ 21.75 × 2 × 4.5 = 4137.93', [source('leave_type', types.annual), ...ledger]),
        label: 'Unused annual leave paid out',
        inputs: { monthly_wage: 10000, days_per_month: 21.75, multiplier: 2, remaining_leave_days: 4.5, leave_type: 'Annual leave' },
      },
      // 2857.14 + 4137.93 = 6995.07; 1995.07 × 0.03 = 59.8521
      marchTax('6995.07', '1995.07', '59.85'),
    ])
    expect(payslip).toMatchObject({ gross: 6995.07, deductions: 59.85, net: 6935.22, flags: ['prorated'] })
    const zh = await payslipOf(marchRun, 'leo', 'zh-CN')
    expect(zh.lines[1].label).toBe('未休年假折算工资')
  })

  test('computing and recomputing a draft writes nothing to the ledger: the balance still has 4.5 days', async () => {
    const before = await ledgerOf('leo')
    await adminDo('POST', `${RUNS}/${marchRun}/recompute`)
    expect(await ledgerOf('leo')).toEqual(before)
    expect(before.some((entry) => entry.kind === 'payout')).toBe(false)
    expect(await annualBalance('leo')).toEqual({ type_id: types.annual, type_name: 'Annual leave', year: 2025, unit: 'day', granted: 5, taken: 0.5, pending: 0, remaining: 4.5 })
    expect((await payslipOf(marchRun, 'leo')).lines[1]).toMatchObject({ code: 'leave_payout', amount: 4137.93 })
  })

  test('a balance changed since the run was computed refuses the approval (409, nothing written); recomputed, it pays the balance of now', async () => {
    await adminDo('POST', '/api/v1/admin/leave/balances/adjust', { employee_id: ids.leo, type_id: types.annual, year: 2025, days: 0.5, reason: 'Granted late' })
    const refused = await req(t.app, 'POST', `${RUNS}/${marchRun}/approve`, { token: admin })
    expect(refused.status).toBe(409)
    expect(refused.body).toMatchObject({
      code: 409,
      message:
        'The Annual leave balance of Leo Leaver (L01) for 2025 changed since the run was computed: the payslip pays out 4.5 days, the balance now has 5 days; recompute the run before approving',
    })
    expect((await adminDo('GET', `${RUNS}/${marchRun}`)).status).toBe('draft')
    expect((await ledgerOf('leo')).some((entry) => entry.kind === 'payout')).toBe(false)
    expect((await adminDo('GET', `/api/v1/admin/salaries?month=${MARCH}&employee_id=${ids.leo}`)).salaries).toEqual([])

    // withdrawn again and recomputed: 4.5 days, the two adjustments among the sources (they net to 0)
    await adminDo('POST', '/api/v1/admin/leave/balances/adjust', { employee_id: ids.leo, type_id: types.annual, year: 2025, days: -0.5, reason: 'Granted in error' })
    await adminDo('POST', `${RUNS}/${marchRun}/recompute`)
    const payout = (await payslipOf(marchRun, 'leo')).lines[1]
    expect(payout).toMatchObject({ code: 'leave_payout', amount: 4137.93, formula: '10000.00 ÷ 21.75 × 2 × 4.5 = 4137.93' })
    expect(payout.sources).toEqual([source('leave_type', types.annual), ...(await leoLedgerSources())])
  })
})

describe('March 2025, approved', () => {
  test('approval writes the payout row once, so the balance reads 0; the salary records carry the payout and the hourly deduction', async () => {
    const approved = await adminDo('POST', `${RUNS}/${marchRun}/approve`)
    expect(approved).toMatchObject({ id: marchRun, status: 'approved', totals: { gross: 9827.59 + 6995.07, net: 9682.76 + 6935.22, head_count: 2 } })

    const payouts = (await ledgerOf('leo')).filter((entry) => entry.kind === 'payout')
    expect(payouts).toEqual([
      {
        id: expect.any(Number),
        type_id: types.annual,
        type_name: 'Annual leave',
        year: 2025,
        kind: 'payout',
        unit: 'day',
        days: -4.5,
        hours: null,
        reason: 'paid out on leaving',
        event: 'payout 2025',
        request_id: null,
        actor: { id: expect.any(Number), name: expect.any(String) },
        created_at: PAID,
      },
    ])
    // 5 + (−0.5 + 0.5 − 4.5 of adjustments and the payout) = 0.5 granted, 0.5 taken
    expect(await annualBalance('leo')).toEqual({ type_id: types.annual, type_name: 'Annual leave', year: 2025, unit: 'day', granted: 0.5, taken: 0.5, pending: 0, remaining: 0 })
    // Ivy's annual leave is untouched: she has not left
    expect(await annualBalance('ivy')).toMatchObject({ granted: 5, remaining: 5 })

    const salary = async (who: 'ivy' | 'leo') => (await adminDo('GET', `/api/v1/admin/salaries?month=${MARCH}&employee_id=${ids[who]}`)).salaries[0]
    // the payout goes to the bonus column (§6 has none of its own); hourly unpaid leave to the attendance deduction
    expect(await salary('leo')).toMatchObject({
      income: { basic_salary: 2857.14, bonus: 4137.93, total: 6995.07 },
      deductions: { attendance_deduction: 0, personal_tax: 59.85, total: 59.85 },
      net_salary: 6935.22,
    })
    expect(await salary('ivy')).toMatchObject({
      income: { basic_salary: 10000, bonus: 0, total: 10000 },
      deductions: { attendance_deduction: 172.41, personal_tax: 144.83, total: 317.24 },
      net_salary: 9682.76,
    })
  })

  test('the payslip as approved keeps its payout; the register shows both lines in their columns', async () => {
    expect((await payslipOf(marchRun, 'leo')).status).toBe('approved')
    const file = await req(t.app, 'GET', `${RUNS}/${marchRun}/register?format=csv`, { token: admin })
    expect(file.status).toBe(200)
    const rows = String(file.body).replace(/^\uFEFF/, '').trim().split(/\r?\n/).map((row) => row.split(','))
    const column = (name: string) => rows[0].indexOf(name)
    const cell = (no: string, name: string) => rows.find((row) => row[0] === no)![column(name)]
    expect([cell('L01', 'leave_payout'), cell('I01', 'unpaid_leave_hours'), cell('I01', 'unpaid_leave')]).toEqual(['4137.93', '172.41', '0.00'])
  })
})

describe('April 2025: Leo stays on after all', () => {
  let aprilRun = 0
  beforeAll(async () => {
    await adminDo('PUT', `/api/v1/admin/employees/${ids.leo}`, { left_on: '2025-04-15' })
    await adminDo('POST', '/api/v1/admin/leave/balances/adjust', { employee_id: ids.leo, type_id: types.annual, year: 2025, days: 1, reason: 'Granted for April' })
    t.clock.set(MAY)
    admin = await loginAdmin(t.app)
    const rows: [string, string, string, string][] = []
    for (const date of WORK_DAYS(MARCH).filter((d) => d > '2025-03-10')) rows.push(['L01', date, '08:55', '18:05'])
    for (const date of WORK_DAYS(APRIL)) {
      rows.push(['I01', date, '08:55', '18:05'])
      if (date <= '2025-04-15') rows.push(['L01', date, '08:55', '18:05'])
    }
    await importHistory(t, admin, rows)
    aprilRun = (await adminDo('POST', RUNS, { company_id: 1, month: APRIL }, 201)).id
  }, 60_000)

  test('the month of his new left_on pays no second payout (one a year); March’s payout is neither taken back nor repeated by the adjustment', async () => {
    const payslip = await payslipOf(aprilRun, 'leo')
    const marchPayslip = await payslipOf(marchRun, 'leo')
    expect(payslip.lines).toEqual([
      // 110000 ÷ 22
      basic('leo', 5000, '10000.00 × 11 ÷ 22 = 5000.00'),
      // March now: 10000.00 (the whole month) + 4137.93 (the payout as paid) = 14137.93
      line('adjustment', 'income', 7142.86, '14137.93 − 6995.07 − 0.00 = 7142.86', [source('payslip', marchPayslip.id)], MARCH),
      line(
        'personal_tax',
        'deduction',
        214.29,
        taxFormula({ gross: '19137.93', months: 2, taxable: '9137.93', rate: '0.03', quick: '0.00', cumulativeTax: '274.14', withheld: '59.85', tax: '214.29' }),
        [source('payslip', marchPayslip.id)],
      ),
    ])
    expect(payslip).toMatchObject({ gross: 12142.86, deductions: 214.29, net: 11928.57 })
    // the day granted since stays in his balance: the year's payout is written, once
    expect(await annualBalance('leo')).toMatchObject({ granted: 1.5, taken: 0.5, remaining: 1 })
    expect((await ledgerOf('leo')).filter((entry) => entry.kind === 'payout')).toHaveLength(1)
  })

  test('approving April writes no second payout row', async () => {
    await adminDo('POST', `${RUNS}/${aprilRun}/approve`)
    expect((await ledgerOf('leo')).filter((entry) => entry.kind === 'payout')).toHaveLength(1)
    expect(await annualBalance('leo')).toMatchObject({ remaining: 1 })
  })
})

describe('one payout a year, whichever run is approved first', () => {
  let max = 0
  const runs = { may: 0, june: 0 }
  beforeAll(async () => {
    // Max leaves on 20 May; May's run (a draft) pays his 5 days. He then stays until 10 June, and June's run pays them too.
    max = (await adminDo('POST', '/api/v1/admin/employees', { name: 'Max Twice', employee_no: 'M01', company_id: 1, hire_date: '2023-06-01', left_on: '2025-05-20' }, 201)).id
    await adminDo('PUT', `/api/v1/admin/employees/${max}/pay-profile`, { effective_month: '2025-01', basic_salary: 10000, seniority_pay: 0, allowance: 0, contribution_base: 10000, housing_fund_base: 10000 })
    runs.may = (await adminDo('POST', RUNS, { company_id: 1, month: '2025-05' }, 201)).id
    await adminDo('PUT', `/api/v1/admin/employees/${max}`, { left_on: '2025-06-10' })
    runs.june = (await adminDo('POST', RUNS, { company_id: 1, month: '2025-06' }, 201)).id
  }, 60_000)

  const payoutOf = async (runId: number) => {
    const payslips = (await adminDo('GET', `${RUNS}/${runId}/payslips`)).payslips as { employee: { id: number }; lines: { code: string; amount: number }[] }[]
    return payslips.find((payslip) => payslip.employee.id === max)!.lines.filter((line) => line.code === 'leave_payout').map((line) => line.amount)
  }
  const maxPayouts = async () =>
    ((await adminDo('GET', `/api/v1/admin/leave/ledger?employee_id=${max}&year=2025`)).entries as { kind: string; days: number }[]).filter((entry) => entry.kind === 'payout')

  test('both drafts pay 5 days (10000.00 ÷ 21.75 × 2 × 5 = 4597.70); the first approved writes the payout, the other is refused until recomputed', async () => {
    // 100000 ÷ 21.75 = 4597.7011…
    expect(await payoutOf(runs.may)).toEqual([4597.7])
    expect(await payoutOf(runs.june)).toEqual([4597.7])
    await adminDo('POST', `${RUNS}/${runs.june}/approve`)
    expect(await maxPayouts()).toMatchObject([{ kind: 'payout', days: -5 }])

    const refused = await req(t.app, 'POST', `${RUNS}/${runs.may}/approve`, { token: admin })
    expect(refused.status).toBe(409)
    expect(refused.body).toMatchObject({
      code: 409,
      message: 'The remaining Annual leave of Max Twice (M01) for 2025 has already been paid out on leaving; recompute the run before approving',
    })
    expect((await adminDo('GET', `${RUNS}/${runs.may}`)).status).toBe('draft')

    // recomputed, May pays nothing more: his left_on is in June, and the year's payout is written
    await adminDo('POST', `${RUNS}/${runs.may}/recompute`)
    expect(await payoutOf(runs.may)).toEqual([])
    await adminDo('POST', `${RUNS}/${runs.may}/approve`)
    expect(await maxPayouts()).toHaveLength(1)
  })
})
