import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { login, loginAdmin, req, startApp, type TestApp } from './helpers'
import {
  calendarDayId,
  closeMonth,
  datesOfMonth,
  importHistory,
  line,
  must,
  recordId,
  shanghai,
  source,
  taxFormula,
  weekdayOf,
} from './payroll-fixtures'

/*
 * Golden months of payroll (CONTRACT §16, §17 tax; issue 28): months worked out by hand below, then
 * computed by POST /admin/payroll/runs and compared line by line (code, kind, amount, formula,
 * sources), with each payslip's gross, deductions (tax) and net, the salary records approval
 * writes (§6) and, for a correction after approval, the next month's adjustment.
 *
 * Hand rules (the brief's): M = basic + seniority + allowance; D = 21.75. Every line's formula
 * starts from its own figures and is evaluated exactly (rationals), then rounded half up to the fen
 * once. gross = Σ income − Σ attendance; deductions = Σ deduction lines (only personal_tax here:
 * contributions are 0 in Payroll 1); net = gross − deductions.
 *
 * ─── The companies (both Asia/Shanghai), set up on 20 February 2025 ───
 * Rule of both groups: 09:00–18:00, break 12:00–13:00, 5 minutes' late grace, 8 h required,
 * Monday to Friday, overtime from 30 minutes past 18:00. Acme's rule allows 2 late days a month,
 * Beta's none.
 * Acme's calendar: Wednesday 5 March a statutory holiday (statutory: true); Saturday 15 March a
 * make-up workday. Acme's pay settings: late deduction 30.00 per occurrence + 0.50 per minute with
 * 1 free occurrence (the settings' 1, not the rule's 2); the rest defaults (work-day proration,
 * 21.75, absence at the daily wage, overtime 1.5 / 2 / 3). Beta: no calendar, default settings.
 *
 * March 2025: the 1st is a Saturday. Weekdays: 3–7, 10–14, 17–21, 24–28, 31 = 21.
 *   Acme work days = 21 − the 5th (holiday) + the 15th (make-up) = 21:
 *     3 4 6 7 10 11 12 13 14 15 17 18 19 20 21 24 25 26 27 28 31
 *   Beta work days = the 21 weekdays (the 5th is a work day there).
 * April 2025: the 1st is a Tuesday. Weekdays: 1–4, 7–11, 14–18, 21–25, 28–30 = 4+5+5+5+3 = 22.
 *
 * Every employee's pay profile: basic 9,000.00 + seniority 500.00 + allowance 1,000.00, so
 *   M = 10,500.00; daily = 10500 ÷ 21.75 = 482.758620689655…; hourly = 60.344827586206…
 * A normal day: 08:55–18:05 (on time; 5 minutes past the end is under the 30 minutes' threshold:
 * no overtime). The month's attendance comes in as a history import (§23); every date of the
 * month is then closed (day close: missed work days get absent records).
 * Tax (March is everyone's first payslip of 2025, n = 1): taxable = gross − 5000.00 × 1 − 0 − 0,
 * at 3 % (quick deduction 0) while ≤ 36,000.
 *
 * ─── 1. Amy (A01), the full month (Acme) ───
 *   basic_salary    9000.00 × 21 ÷ 21 = 9000.00   (also her April profile of 12,000 is not yet in force,
 *   seniority_pay    500.00 × 21 ÷ 21 =  500.00    and her 2024-07 one of 8,000 is replaced by 2025-01's)
 *   allowance       1000.00 × 21 ÷ 21 = 1000.00
 *   gross 10500.00; taxable max(0, 10500.00 − 5000.00 × 1 − 0.00 − 0.00) = 5500.00;
 *   tax 5500.00 × 0.03 − 0.00 = 165.00; this month max(0, 165.00 − 0.00) = 165.00; net 10335.00
 *
 * ─── 2. Ben (A02), hired Monday 17 March ───
 *   employed work days 17–21, 24–28, 31 = 11 of 21
 *   basic_salary    9000.00 × 11 ÷ 21 = 99000 / 21 = 4714.2857… → 4714.29
 *   seniority_pay    500.00 × 11 ÷ 21 =  5500 / 21 =  261.9047… →  261.90
 *   allowance       1000.00 × 11 ÷ 21 = 11000 / 21 =  523.8095… →  523.81
 *   gross 4714.29 + 261.90 + 523.81 = 5500.00; taxable 5500.00 − 5000.00 = 500.00;
 *   tax 500.00 × 0.03 = 15.00; net 5485.00
 *
 * ─── 3. Cai (A03), left Monday 10 March (left_on; status 0 since) ───
 *   employed work days 3, 4, 6, 7, 10 = 5 of 21 (the 5th a holiday)
 *   basic_salary    9000.00 × 5 ÷ 21 = 45000 / 21 = 2142.857… → 2142.86
 *   seniority_pay    500.00 × 5 ÷ 21 =  2500 / 21 =  119.047… →  119.05
 *   allowance       1000.00 × 5 ÷ 21 =  5000 / 21 =  238.095… →  238.10
 *   gross 2142.86 + 119.05 + 238.10 = 2500.01 (a fen more than 10500 × 5 ÷ 21 = 2500: rounded per line)
 *   taxable max(0, 2500.01 − 5000.00 × 1 − 0.00 − 0.00) = 0.00; tax 0.00; net 2500.01
 *   (day close marks her absent from the 11th on, as it knows nothing of left_on: outside her
 *   employed part of the month, so no absence)
 *
 * ─── 4. Dan (A04), unpaid leave Tuesday 4 – Thursday 6 March over the holiday of the 5th ───
 *   leave days = the work days of the range = 4th and 6th = 2 (the holiday is not deducted)
 *   unpaid_leave    10500.00 ÷ 21.75 × 2 = 965.517… → 965.52
 *   gross 10500.00 − 965.52 = 9534.48; taxable 4534.48; tax 4534.48 × 0.03 = 136.0344 → 136.03;
 *   net 9534.48 − 136.03 = 9398.45
 *
 * ─── 5. Eve (A05), three late days, one free ───
 *   4th 09:20–18:10 (20 min late), 12th 09:12–18:05 (12), 20th 09:47–18:05 (47); free = min(3, 1) = 1:
 *   the first in date order (the 4th); counted the 12th and the 20th, 12 + 47 = 59 minutes
 *   lateness        30.00 × 2 + 0.50 × 59 = 60.00 + 29.50 = 89.50
 *   gross 10500.00 − 89.50 = 10410.50; taxable 5410.50; tax 5410.50 × 0.03 = 162.315 → 162.32
 *   (exactly half a fen: half up); net 10410.50 − 162.32 = 10248.18
 *
 * ─── 6. Fay (A06), overtime on a work day, a rest day and the statutory holiday ───
 *   Tue 11th 08:55–20:30: 150 min past 18:00 (≥ 30)            ×1.5
 *     10500.00 ÷ 21.75 ÷ 8 × 150 ÷ 60 × 1.5 = 2362500 / 10440 = 226.2931… → 226.29
 *   Sat 22nd 09:00–15:00: all the work time less the break = 360 − 60 = 300 min   ×2
 *     10500.00 ÷ 21.75 ÷ 8 × 300 ÷ 60 × 2 = 6300000 / 10440 = 603.4482… → 603.45
 *   Wed 5th (statutory holiday) 10:00–14:00: 240 − 60 = 180 min   ×3
 *     10500.00 ÷ 21.75 ÷ 8 × 180 ÷ 60 × 3 = 5670000 / 10440 = 543.1034… → 543.10
 *   gross 10500.00 + 226.29 + 603.45 + 543.10 = 11872.84; taxable 6872.84;
 *   tax 6872.84 × 0.03 = 206.1852 → 206.19; net 11872.84 − 206.19 = 11666.65
 *
 * ─── 7. Gus (A07), the morning of Thursday 13 March off, unpaid (half_day am) ───
 *   13th 13:00–18:05 (judged from the break's end: on time; 5.08 h ≥ 4 required)
 *   unpaid_leave    10500.00 ÷ 21.75 × 0.5 = 241.379… → 241.38
 *   gross 10500.00 − 241.38 = 10258.62; taxable 5258.62; tax 5258.62 × 0.03 = 157.7586 → 157.76;
 *   net 10258.62 − 157.76 = 10100.86
 *
 * Acme's run of March: gross 10500.00 + 5500.00 + 2500.01 + 9534.48 + 10410.50 + 11872.84 + 10258.62
 *   = 60576.45; tax 165.00 + 15.00 + 0.00 + 136.03 + 162.32 + 206.19 + 157.76 = 842.30;
 *   net 60576.45 − 842.30 = 59734.15; 7 payslips.
 *
 * ─── 8. Hal (B01, Beta), an absence corrected after approval ───
 *   March: no record on Thursday 20 March; day close writes an absent record (R).
 *     absence         10500.00 ÷ 21.75 × 1 = 482.758… → 482.76
 *     gross 10500.00 − 482.76 = 10017.24; taxable 5017.24; tax 5017.24 × 0.03 = 150.5172 → 150.52;
 *     net 10017.24 − 150.52 = 9866.72. Approved on 1 April (payslip P).
 *   2 April: Hal asks to correct the 20th to 08:55–18:05; HR approves (correction C, record R now a
 *   normal day). March's payslip P and salary record stay as approved.
 *   April (22 work days, all normal), run on 6 May:
 *     basic/seniority/allowance × 22 ÷ 22 = 9000.00 / 500.00 / 1000.00
 *     adjustment (month 2025-03) recomputed − approved − carried = 10500.00 − 10017.24 − 0.00 = 482.76,
 *       sources: the approved payslip P and what changed (R, the absence's record, now behind no line)
 *     gross 10500.00 + 482.76 = 10982.76
 *     tax, n = 2 (March, April): Σ gross 10017.24 + 10982.76 = 21000.00;
 *       taxable max(0, 21000.00 − 5000.00 × 2 − 0.00 − 0.00) = 11000.00; 11000.00 × 0.03 − 0.00 = 330.00;
 *       this month max(0, 330.00 − 150.52) = 179.48 (sources: P, March's approved payslip)
 *     net 10982.76 − 179.48 = 10803.28
 */

const MARCH = '2025-03'
const APRIL = '2025-04'
const SETUP = shanghai('2025-02-20T10:00')
/** March's runs are made and approved: every date of March is past */
const PAID = shanghai('2025-04-01T10:00')
/** Hal's correction of 20 March, asked and approved */
const CORRECTED = shanghai('2025-04-02T10:00')
/** April's run */
const MAY = shanghai('2025-05-06T10:00')

const HOLIDAY = '2025-03-05'
const MAKE_UP = '2025-03-15'
const ACME_MARCH = datesOfMonth(MARCH).filter((date) => date === MAKE_UP || (date !== HOLIDAY && weekdayOf(date) <= 5))
const BETA_MARCH = datesOfMonth(MARCH).filter((date) => weekdayOf(date) <= 5)
const BETA_APRIL = datesOfMonth(APRIL).filter((date) => weekdayOf(date) <= 5)

const RULE = {
  work_start_time: '09:00',
  work_end_time: '18:00',
  break_start_time: '12:00',
  break_end_time: '13:00',
  late_grace_period: 5,
  early_grace_period: 0,
  required_work_hours: 8,
  work_days: '1,2,3,4,5',
  overtime_threshold_minutes: 30,
}

const PEOPLE = {
  amy: { no: 'A01', name: 'Amy Full', company: 1, hire: '2024-01-02' },
  ben: { no: 'A02', name: 'Ben Joiner', company: 1, hire: '2025-03-17' },
  cai: { no: 'A03', name: 'Cai Leaver', company: 1, hire: '2024-01-02' },
  dan: { no: 'A04', name: 'Dan Unpaid', company: 1, hire: '2024-01-02' },
  eve: { no: 'A05', name: 'Eve Late', company: 1, hire: '2024-01-02' },
  fay: { no: 'A06', name: 'Fay Overtime', company: 1, hire: '2024-01-02' },
  gus: { no: 'A07', name: 'Gus Halfday', company: 1, hire: '2024-01-02' },
  hal: { no: 'B01', name: 'Hal Corrected', company: 2, hire: '2024-01-02' },
} as const
type Who = keyof typeof PEOPLE
const ACME: Who[] = ['amy', 'ben', 'cai', 'dan', 'eve', 'fay', 'gus']

type Day = [clockIn: string, clockOut: string]
const NORMAL: Day = ['08:55', '18:05']
/** Eve's late days: 20, 12 and 47 minutes past 09:00 (grace 5). */
const EVE_LATE: Record<string, Day> = { '2025-03-04': ['09:20', '18:10'], '2025-03-12': ['09:12', '18:05'], '2025-03-20': ['09:47', '18:05'] }
/** Each one's March: the day they had on each date, null for none. */
const MARCH_DAYS: Record<Who, (date: string) => Day | null> = {
  amy: () => NORMAL,
  ben: (date) => (date >= '2025-03-17' ? NORMAL : null),
  cai: (date) => (date <= '2025-03-10' ? NORMAL : null),
  dan: (date) => (date === '2025-03-04' || date === '2025-03-06' ? null : NORMAL),
  eve: (date) => EVE_LATE[date] ?? NORMAL,
  fay: (date) => (date === '2025-03-11' ? ['08:55', '20:30'] : NORMAL),
  gus: (date) => (date === '2025-03-13' ? ['13:00', '18:05'] : NORMAL),
  hal: (date) => (date === '2025-03-20' ? null : NORMAL),
}
/** Fay's days off she worked: the statutory holiday and a Saturday. */
const FAY_OFF_DAYS: [string, Day][] = [
  [HOLIDAY, ['10:00', '14:00']],
  ['2025-03-22', ['09:00', '15:00']],
]

let t: TestApp
let admin: string
const tokens = {} as Record<Who, string>
const ids = {} as Record<Who, number>
/** the profile each one's March uses */
const profiles = {} as Record<Who, number>
const leave = { dan: 0, gus: 0 }
let holidayId: number
let acmeRun: { id: number } & Record<string, unknown>
let betaMarchRun: { id: number } & Record<string, unknown>

const adminDo = (method: string, path: string, body?: unknown, status = 200) => must(t, admin, method, path, body, status)
/** Fresh tokens after the clock moved (a sign-in hashes a password: only those who act next). */
async function signIn(...people: Who[]) {
  admin = await loginAdmin(t.app)
  for (const who of people) tokens[who] = await login(t.app, who, `${who}-password-1`)
}
const payslipsOf = async (runId: number, query = '') =>
  (await adminDo('GET', `/api/v1/admin/payroll/runs/${runId}/payslips${query}`)).payslips as { employee: { id: number } }[]
async function payslipOf(runId: number, who: Who) {
  const found = (await payslipsOf(runId)).filter((payslip) => payslip.employee.id === ids[who])
  expect(found).toHaveLength(1)
  return found[0] as unknown as Record<string, unknown> & { id: number; lines: unknown[] }
}
async function salaryOf(who: Who, month: string) {
  const list = (await adminDo('GET', `/api/v1/admin/salaries?month=${month}&employee_id=${ids[who]}&page_size=100`)).salaries
  expect(list).toHaveLength(1)
  return list[0]
}

/** The profile line (basic_salary, seniority_pay, allowance) of a full or prorated month. */
const paid = (who: Who, code: string, amount: number, formula: string) => line(code, 'income', amount, formula, [source('pay_profile', profiles[who])])
const fullMonth = (who: Who, days = 21) => [
  paid(who, 'basic_salary', 9000, `9000.00 × ${days} ÷ ${days} = 9000.00`),
  paid(who, 'seniority_pay', 500, `500.00 × ${days} ÷ ${days} = 500.00`),
  paid(who, 'allowance', 1000, `1000.00 × ${days} ÷ ${days} = 1000.00`),
]
/** March's tax line: the first month of the year, 3 %, nothing withheld before. */
const marchTax = (gross: string, taxable: string, tax: string) =>
  line('personal_tax', 'deduction', Number(tax), taxFormula({ gross, months: 1, taxable, rate: '0.03', quick: '0.00', cumulativeTax: tax, withheld: '0.00', tax }), [])

/** The §6 salary record approval writes from a payslip (CONTRACT §16 "Approve"). */
function salaryRecord(
  who: Who,
  month: string,
  income: Record<string, number>,
  deductions: Record<string, number>,
  totals: [income: number, deductions: number, net: number],
  /** when the run was approved */
  at = PAID,
) {
  return {
    id: expect.any(Number),
    employee_id: ids[who],
    employee_name: PEOPLE[who].name,
    month: `${month.slice(0, 4)}年${month.slice(5)}月`,
    net_salary: totals[2],
    status: 'unconfirmed',
    status_code: '0',
    payment_date: null,
    category_id: null,
    income: { basic_salary: 0, seniority_pay: 0, performance_pay: 0, overtime_pay: 0, bonus: 0, allowance: 0, ...income, total: totals[0] },
    deductions: { attendance_deduction: 0, personal_insurance: 0, personal_tax: 0, housing_fund: 0, other_deductions: 0, ...deductions, total: totals[1] },
    summary: { total_income: totals[0], total_deductions: totals[1], net_salary: totals[2] },
    remarks: '',
    created_at: at,
    updated_at: at,
  }
}
const NO_INPUTS = { performance_pay: 0, bonus: 0, other_income: 0, other_deductions: 0, note: '' }

beforeAll(async () => {
  t = await startApp({ now: SETUP, env: { ACCESS_TOKEN_TTL: '2592000' } })
  admin = await loginAdmin(t.app)
  for (const name of ['Acme', 'Beta']) await adminDo('POST', '/api/v1/admin/companies', { name, timezone: 'Asia/Shanghai' }, 201)
  await adminDo('POST', '/api/v1/admin/attendance/groups', { name: 'Acme office', company_id: 1 }, 201)
  await adminDo('POST', '/api/v1/admin/attendance/groups', { name: 'Beta office', company_id: 2 }, 201)
  await adminDo('POST', '/api/v1/admin/attendance/rules', { name: 'Acme hours', group_id: 1, allowed_late_days: 2, ...RULE }, 201)
  await adminDo('POST', '/api/v1/admin/attendance/rules', { name: 'Beta hours', group_id: 2, allowed_late_days: 0, ...RULE }, 201)

  for (const who of Object.keys(PEOPLE) as Who[]) {
    const p = PEOPLE[who]
    const body = { name: p.name, employee_no: p.no, company_id: p.company, hire_date: p.hire, username: who, password: `${who}-password-1` }
    ids[who] = (await adminDo('POST', '/api/v1/admin/employees', who === 'cai' ? { ...body, left_on: '2025-03-10' } : body, 201)).id
  }
  await adminDo('POST', '/api/v1/admin/attendance/groups/1/employees', { employee_ids: ACME.map((who) => ids[who]) })
  await adminDo('POST', '/api/v1/admin/attendance/groups/2/employees', { employee_ids: [ids.hal] })

  await adminDo('PUT', `/api/v1/admin/companies/1/calendar/${HOLIDAY}`, { kind: 'holiday', name: 'Founders’ Day', statutory: true }, 201)
  await adminDo('PUT', `/api/v1/admin/companies/1/calendar/${MAKE_UP}`, { kind: 'workday', name: 'Founders’ Day make-up day' }, 201)
  holidayId = await calendarDayId(t, 1, HOLIDAY)
  const unpaid = await adminDo('POST', '/api/v1/admin/leave/types', { name: 'Unpaid leave', paid: false, requires_balance: false }, 201)

  const pay = { basic_salary: 9000, seniority_pay: 500, allowance: 1000, contribution_base: 10500, housing_fund_base: 10500 }
  for (const who of Object.keys(PEOPLE) as Who[])
    profiles[who] = (await adminDo('PUT', `/api/v1/admin/employees/${ids[who]}/pay-profile`, { effective_month: who === 'ben' ? MARCH : '2025-01', ...pay })).id
  // Amy's history: an older and a later profile, neither March's
  await adminDo('PUT', `/api/v1/admin/employees/${ids.amy}/pay-profile`, { ...pay, effective_month: '2024-07', basic_salary: 8000 })
  await adminDo('PUT', `/api/v1/admin/employees/${ids.amy}/pay-profile`, { ...pay, effective_month: APRIL, basic_salary: 12000 })
  await adminDo('PUT', '/api/v1/admin/companies/1/pay-settings', { late_deduction: { per_occurrence: 30, per_minute: 0.5, free_occurrences: 1 } })

  // 1 April: March is over
  t.clock.set(PAID)
  await signIn('dan', 'gus')
  const asked = async (who: 'dan' | 'gus', body: Record<string, unknown>) => {
    const request = await must(t, tokens[who], 'POST', '/api/v1/leave/requests', { type_id: unpaid.id, reason: 'Family matters', ...body }, 201)
    await adminDo('POST', `/api/v1/approvals/leave/${request.id}/approve`, { note: 'Fine' })
    return request
  }
  const danLeave = await asked('dan', { start_date: '2025-03-04', end_date: '2025-03-06' })
  expect(danLeave.days).toBe(2)
  leave.dan = danLeave.id
  const gusLeave = await asked('gus', { start_date: '2025-03-13', end_date: '2025-03-13', half_day: 'am' })
  expect(gusLeave.days).toBe(0.5)
  leave.gus = gusLeave.id

  const rows: [string, string, string, string][] = []
  for (const who of Object.keys(PEOPLE) as Who[])
    for (const date of who === 'hal' ? BETA_MARCH : ACME_MARCH) {
      const day = MARCH_DAYS[who](date)
      if (day) rows.push([PEOPLE[who].no, date, ...day])
    }
  for (const [date, day] of FAY_OFF_DAYS) rows.push([PEOPLE.fay.no, date, ...day])
  await importHistory(t, admin, rows)
  await closeMonth(t, admin, MARCH, 1)
  await closeMonth(t, admin, MARCH, 2)
  // HR records that Cai has left
  await adminDo('PUT', `/api/v1/admin/employees/${ids.cai}`, { status: 0 })

  acmeRun = await adminDo('POST', '/api/v1/admin/payroll/runs', { company_id: 1, month: MARCH }, 201)
  betaMarchRun = await adminDo('POST', '/api/v1/admin/payroll/runs', { company_id: 2, month: MARCH }, 201)
}, 120_000)

afterAll(() => t?.close())

describe('the hand count behind the golden months', () => {
  test('March has 21 work days at Acme (holiday 5th, make-up 15th) and 21 at Beta; April 22 at Beta', () => {
    expect(ACME_MARCH).toEqual(
      [3, 4, 6, 7, 10, 11, 12, 13, 14, 15, 17, 18, 19, 20, 21, 24, 25, 26, 27, 28, 31].map((d) => `2025-03-${String(d).padStart(2, '0')}`),
    )
    expect(BETA_MARCH).toHaveLength(21)
    expect(BETA_APRIL).toHaveLength(22)
  })

  test('the pay settings: what Acme set, the rest defaults; Beta all defaults', async () => {
    const defaults = {
      proration: 'work_days',
      days_per_month: 21.75,
      late_deduction: { per_occurrence: 0, per_minute: 0, free_occurrences: null },
      absence_deduction: 'daily_wage',
      overtime_multipliers: { work_day: 1.5, rest_day: 2, statutory_holiday: 3 },
    }
    expect(await adminDo('GET', '/api/v1/admin/companies/1/pay-settings')).toEqual({
      company_id: 1,
      ...defaults,
      late_deduction: { per_occurrence: 30, per_minute: 0.5, free_occurrences: 1 },
    })
    expect(await adminDo('GET', '/api/v1/admin/companies/2/pay-settings')).toEqual({ company_id: 2, ...defaults })
  })
})

describe('Acme, March 2025 (draft)', () => {
  test('the run: a payslip for each of the 7 employed in March, the leaver and the joiner included, and the totals', async () => {
    const run = await adminDo('GET', `/api/v1/admin/payroll/runs/${acmeRun.id}`)
    expect(run).toEqual({
      id: acmeRun.id,
      company: { id: 1, name: 'Acme' },
      month: MARCH,
      status: 'draft',
      // gross 60576.45, tax 842.30, net 59734.15 (see the head of the file)
      totals: { gross: 60576.45, deductions: 842.3, employee_contributions: 0, employer_contributions: 0, tax: 842.3, net: 59734.15, head_count: 7 },
      created_at: PAID,
      computed_at: PAID,
      approved_at: null,
      approved_by: null,
    })
    expect(acmeRun).toEqual(run)
    expect((await payslipsOf(acmeRun.id)).map((payslip) => payslip.employee.id).sort((a, b) => a - b)).toEqual(ACME.map((who) => ids[who]))
  })

  test('a second run of the same company and month → 409', async () => {
    expect((await req(t.app, 'POST', '/api/v1/admin/payroll/runs', { token: admin, body: { company_id: 1, month: MARCH } })).status).toBe(409)
  })

  test('1. the full month: the whole payslip', async () => {
    expect(await payslipOf(acmeRun.id, 'amy')).toEqual({
      id: expect.any(Number),
      run_id: acmeRun.id,
      employee: { id: ids.amy, name: 'Amy Full', employee_no: 'A01' },
      month: MARCH,
      status: 'draft',
      // 9000.00 + 500.00 + 1000.00
      gross: 10500,
      // tax (5500.00 × 0.03)
      deductions: 165,
      // 10500.00 − 165.00
      net: 10335,
      // the whole body: here also each line's label (English by default) and the figures it names
      lines: [
        { ...fullMonth('amy')[0], label: 'Basic salary', inputs: { basic_salary: 9000, employed_work_days: 21, work_days_of_month: 21 } },
        { ...fullMonth('amy')[1], label: 'Seniority pay', inputs: { seniority_pay: 500, employed_work_days: 21, work_days_of_month: 21 } },
        { ...fullMonth('amy')[2], label: 'Allowance', inputs: { allowance: 1000, employed_work_days: 21, work_days_of_month: 21 } },
        {
          ...marchTax('10500.00', '5500.00', '165.00'),
          label: 'Individual income tax',
          inputs: {
            cumulative_gross: 10500,
            basic_deduction: 5000,
            months: 1,
            cumulative_contributions: 0,
            cumulative_special_deductions: 0,
            cumulative_taxable: 5500,
            rate: 0.03,
            quick_deduction: 0,
            cumulative_tax: 165,
            withheld: 0,
          },
        },
      ],
      inputs: NO_INPUTS,
      flags: [],
    })
  })

  test('2. hired on the 17th: 11 of 21 work days', async () => {
    const payslip = await payslipOf(acmeRun.id, 'ben')
    expect(payslip.lines).toEqual([
      // 99000 / 21 = 4714.2857…
      paid('ben', 'basic_salary', 4714.29, '9000.00 × 11 ÷ 21 = 4714.29'),
      // 5500 / 21 = 261.9047…
      paid('ben', 'seniority_pay', 261.9, '500.00 × 11 ÷ 21 = 261.90'),
      // 11000 / 21 = 523.8095…
      paid('ben', 'allowance', 523.81, '1000.00 × 11 ÷ 21 = 523.81'),
      // 5500.00 − 5000.00 = 500.00 × 0.03
      marchTax('5500.00', '500.00', '15.00'),
    ])
    expect(payslip).toMatchObject({ gross: 5500, deductions: 15, net: 5485, flags: ['prorated'] })
  })

  test('3. left on the 10th: 5 of 21 work days', async () => {
    const payslip = await payslipOf(acmeRun.id, 'cai')
    expect(payslip.lines).toEqual([
      // 45000 / 21 = 2142.857…
      paid('cai', 'basic_salary', 2142.86, '9000.00 × 5 ÷ 21 = 2142.86'),
      // 2500 / 21 = 119.047…
      paid('cai', 'seniority_pay', 119.05, '500.00 × 5 ÷ 21 = 119.05'),
      // 5000 / 21 = 238.095…
      paid('cai', 'allowance', 238.1, '1000.00 × 5 ÷ 21 = 238.10'),
      // 2500.01 − 5000.00 < 0
      marchTax('2500.01', '0.00', '0.00'),
    ])
    // 2142.86 + 119.05 + 238.10
    expect(payslip).toMatchObject({ gross: 2500.01, deductions: 0, net: 2500.01, flags: ['prorated'] })
  })

  test('4. unpaid leave over a holiday: 2 days deducted, not the holiday', async () => {
    const payslip = await payslipOf(acmeRun.id, 'dan')
    expect(payslip.lines).toEqual([
      ...fullMonth('dan'),
      // 482.7586… × 2 = 965.517…
      line('unpaid_leave', 'attendance', 965.52, '10500.00 ÷ 21.75 × 2 = 965.52', [source('leave_request', leave.dan)]),
      // 10500.00 − 965.52 = 9534.48; 4534.48 × 0.03 = 136.0344
      marchTax('9534.48', '4534.48', '136.03'),
    ])
    expect(payslip).toMatchObject({ gross: 9534.48, deductions: 136.03, net: 9398.45, flags: ['unpaid_leave'] })
  })

  test('5. three late days, the first free: 30.00 a time and 0.50 a minute for the other two', async () => {
    const payslip = await payslipOf(acmeRun.id, 'eve')
    const counted = [await recordId(t, ids.eve, '2025-03-12'), await recordId(t, ids.eve, '2025-03-20')]
    expect(payslip.lines).toEqual([
      ...fullMonth('eve'),
      // 60.00 + 0.50 × (12 + 47)
      line('lateness', 'attendance', 89.5, '30.00 × 2 + 0.50 × 59 = 89.50', counted.map((id) => source('attendance_record', id))),
      // 10500.00 − 89.50 = 10410.50; 5410.50 × 0.03 = 162.315 → half up
      marchTax('10410.50', '5410.50', '162.32'),
    ])
    expect(payslip).toMatchObject({ gross: 10410.5, deductions: 162.32, net: 10248.18, flags: ['lateness'] })
  })

  test('6. overtime on a work day (×1.5), a Saturday (×2) and the statutory holiday (×3)', async () => {
    const payslip = await payslipOf(acmeRun.id, 'fay')
    const record = (date: string) => recordId(t, ids.fay, date)
    expect(payslip.lines).toEqual([
      ...fullMonth('fay'),
      // 2362500 / 10440 = 226.2931…
      line('overtime_work_day', 'income', 226.29, '10500.00 ÷ 21.75 ÷ 8 × 150 ÷ 60 × 1.5 = 226.29', [source('attendance_record', await record('2025-03-11'))]),
      // 6300000 / 10440 = 603.4482…
      line('overtime_rest_day', 'income', 603.45, '10500.00 ÷ 21.75 ÷ 8 × 300 ÷ 60 × 2 = 603.45', [source('attendance_record', await record('2025-03-22'))]),
      // 5670000 / 10440 = 543.1034…
      line('overtime_statutory_holiday', 'income', 543.1, '10500.00 ÷ 21.75 ÷ 8 × 180 ÷ 60 × 3 = 543.10', [
        source('attendance_record', await record(HOLIDAY)),
        source('calendar_day', holidayId),
      ]),
      // 10500.00 + 226.29 + 603.45 + 543.10 = 11872.84; 6872.84 × 0.03 = 206.1852
      marchTax('11872.84', '6872.84', '206.19'),
    ])
    expect(payslip).toMatchObject({ gross: 11872.84, deductions: 206.19, net: 11666.65, flags: ['overtime'] })
  })

  test('7. half a day of unpaid leave', async () => {
    const payslip = await payslipOf(acmeRun.id, 'gus')
    expect(payslip.lines).toEqual([
      ...fullMonth('gus'),
      // 482.7586… × 0.5 = 241.379…
      line('unpaid_leave', 'attendance', 241.38, '10500.00 ÷ 21.75 × 0.5 = 241.38', [source('leave_request', leave.gus)]),
      // 10500.00 − 241.38 = 10258.62; 5258.62 × 0.03 = 157.7586
      marchTax('10258.62', '5258.62', '157.76'),
    ])
    expect(payslip).toMatchObject({ gross: 10258.62, deductions: 157.76, net: 10100.86, flags: ['unpaid_leave'] })
  })

  test('?flag= lists the unusual payslips only', async () => {
    const employeesOf = async (flag: string) => (await payslipsOf(acmeRun.id, `?flag=${flag}`)).map((p) => p.employee.id).sort((a, b) => a - b)
    expect(await employeesOf('prorated')).toEqual([ids.ben, ids.cai])
    expect(await employeesOf('unpaid_leave')).toEqual([ids.dan, ids.gus])
    expect(await employeesOf('overtime')).toEqual([ids.fay])
  })
})

describe('Acme, March 2025: approval', () => {
  test('approve: the run is locked and each payslip is written into the §6 salary record of the month', async () => {
    const approved = await adminDo('POST', `/api/v1/admin/payroll/runs/${acmeRun.id}/approve`)
    expect(approved).toEqual({ ...acmeRun, status: 'approved', approved_at: PAID, approved_by: { id: expect.any(Number), username: 'admin' } })
    expect((await payslipOf(acmeRun.id, 'amy')).status).toBe('approved')

    // basic_salary = the prorated basic line; overtime_pay = the overtime lines; attendance_deduction = absence + unpaid leave + lateness
    expect(await salaryOf('amy', MARCH)).toEqual(salaryRecord('amy', MARCH, { basic_salary: 9000, seniority_pay: 500, allowance: 1000 }, { personal_tax: 165 }, [10500, 165, 10335]))
    expect(await salaryOf('ben', MARCH)).toEqual(
      // 4714.29 + 261.90 + 523.81 = 5500.00
      salaryRecord('ben', MARCH, { basic_salary: 4714.29, seniority_pay: 261.9, allowance: 523.81 }, { personal_tax: 15 }, [5500, 15, 5485]),
    )
    expect(await salaryOf('cai', MARCH)).toEqual(
      salaryRecord('cai', MARCH, { basic_salary: 2142.86, seniority_pay: 119.05, allowance: 238.1 }, {}, [2500.01, 0, 2500.01]),
    )
    expect(await salaryOf('dan', MARCH)).toEqual(
      // deductions 965.52 + 136.03 = 1101.55; 10500.00 − 1101.55 = 9398.45
      salaryRecord('dan', MARCH, { basic_salary: 9000, seniority_pay: 500, allowance: 1000 }, { attendance_deduction: 965.52, personal_tax: 136.03 }, [10500, 1101.55, 9398.45]),
    )
    expect(await salaryOf('eve', MARCH)).toEqual(
      // 89.50 + 162.32 = 251.82; 10500.00 − 251.82 = 10248.18
      salaryRecord('eve', MARCH, { basic_salary: 9000, seniority_pay: 500, allowance: 1000 }, { attendance_deduction: 89.5, personal_tax: 162.32 }, [10500, 251.82, 10248.18]),
    )
    expect(await salaryOf('fay', MARCH)).toEqual(
      // overtime 226.29 + 603.45 + 543.10 = 1372.84; income 11872.84
      salaryRecord('fay', MARCH, { basic_salary: 9000, seniority_pay: 500, allowance: 1000, overtime_pay: 1372.84 }, { personal_tax: 206.19 }, [11872.84, 206.19, 11666.65]),
    )
    expect(await salaryOf('gus', MARCH)).toEqual(
      // 241.38 + 157.76 = 399.14; 10500.00 − 399.14 = 10100.86
      salaryRecord('gus', MARCH, { basic_salary: 9000, seniority_pay: 500, allowance: 1000 }, { attendance_deduction: 241.38, personal_tax: 157.76 }, [10500, 399.14, 10100.86]),
    )
  })

  test('a second approval → 409; recompute after approval → 409; the run stays as approved', async () => {
    const before = await adminDo('GET', `/api/v1/admin/payroll/runs/${acmeRun.id}`)
    const slips = await payslipsOf(acmeRun.id)
    expect((await req(t.app, 'POST', `/api/v1/admin/payroll/runs/${acmeRun.id}/approve`, { token: admin })).status).toBe(409)
    expect((await req(t.app, 'POST', `/api/v1/admin/payroll/runs/${acmeRun.id}/recompute`, { token: admin })).status).toBe(409)
    expect(await adminDo('GET', `/api/v1/admin/payroll/runs/${acmeRun.id}`)).toEqual(before)
    expect(await payslipsOf(acmeRun.id)).toEqual(slips)
  })
})

describe('8. Beta: an absence corrected after March was approved, carried by April', () => {
  let march: Awaited<ReturnType<typeof payslipOf>>
  let marchSalary: unknown
  let absentRecord: number
  let correctionId: number

  test('March: one day absent (day close’s record), at the daily wage', async () => {
    absentRecord = await recordId(t, ids.hal, '2025-03-20')
    march = await payslipOf(betaMarchRun.id, 'hal')
    expect(march.lines).toEqual([
      ...fullMonth('hal'),
      // 482.7586… × 1
      line('absence', 'attendance', 482.76, '10500.00 ÷ 21.75 × 1 = 482.76', [source('attendance_record', absentRecord)]),
      // 10500.00 − 482.76 = 10017.24; 5017.24 × 0.03 = 150.5172
      marchTax('10017.24', '5017.24', '150.52'),
    ])
    expect(march).toMatchObject({ gross: 10017.24, deductions: 150.52, net: 9866.72, flags: ['absence'] })
  })

  test('March approved: the salary record holds the absence as attendance_deduction', async () => {
    await adminDo('POST', `/api/v1/admin/payroll/runs/${betaMarchRun.id}/approve`)
    march = await payslipOf(betaMarchRun.id, 'hal')
    expect(march.status).toBe('approved')
    marchSalary = await salaryOf('hal', MARCH)
    // deductions 482.76 + 150.52 = 633.28; 10500.00 − 633.28 = 9866.72
    expect(marchSalary).toEqual(
      salaryRecord('hal', MARCH, { basic_salary: 9000, seniority_pay: 500, allowance: 1000 }, { attendance_deduction: 482.76, personal_tax: 150.52 }, [10500, 633.28, 9866.72]),
    )
  })

  test('2 April: the correction is approved; March’s payslip and salary record do not change', async () => {
    t.clock.set(CORRECTED)
    await signIn('hal')
    const asked = await must(
      t,
      tokens.hal,
      'POST',
      '/api/v1/attendance/corrections',
      { work_date: '2025-03-20', clock_in_time: shanghai('2025-03-20T08:55'), clock_out_time: shanghai('2025-03-20T18:05'), reason: 'At a client all day; the reader missed me' },
      201,
    )
    correctionId = asked.id
    const decided = await adminDo('POST', `/api/v1/approvals/correction/${correctionId}/approve`, { note: 'Confirmed by the client' })
    expect(decided).toMatchObject({ status: 'approved', record_id: absentRecord })

    expect(await payslipOf(betaMarchRun.id, 'hal')).toEqual(march)
    expect(await salaryOf('hal', MARCH)).toEqual(marchSalary)
    expect((await req(t.app, 'POST', `/api/v1/admin/payroll/runs/${betaMarchRun.id}/recompute`, { token: admin })).status).toBe(409)
  }, 30_000)

  test('April: a full month plus an adjustment of March’s difference, taxed cumulatively', async () => {
    t.clock.set(MAY)
    await signIn()
    await importHistory(
      t,
      admin,
      BETA_APRIL.map((date) => [PEOPLE.hal.no, date, ...NORMAL]),
    )
    await closeMonth(t, admin, APRIL, 2)
    const run = await adminDo('POST', '/api/v1/admin/payroll/runs', { company_id: 2, month: APRIL }, 201)
    const april = await payslipOf(run.id, 'hal')
    expect(april.lines).toEqual([
      ...fullMonth('hal', 22),
      // recomputed March 10500.00 (no absence now) − approved 10017.24 − carried 0.00; the sources: March's payslip, the record that changed and the correction that changed it
      line(
        'adjustment',
        'income',
        482.76,
        '10500.00 − 10017.24 − 0.00 = 482.76',
        [source('payslip', march.id), source('attendance_record', absentRecord), source('correction', correctionId)],
        MARCH,
      ),
      // Σ gross 10017.24 + 10982.76 = 21000.00, n = 2; 11000.00 × 0.03 = 330.00; less March's 150.52
      line(
        'personal_tax',
        'deduction',
        179.48,
        taxFormula({ gross: '21000.00', months: 2, taxable: '11000.00', rate: '0.03', quick: '0.00', cumulativeTax: '330.00', withheld: '150.52', tax: '179.48' }),
        [source('payslip', march.id)],
      ),
    ])
    // 10500.00 + 482.76 = 10982.76; − 179.48 = 10803.28
    expect(april).toMatchObject({ month: APRIL, status: 'draft', gross: 10982.76, deductions: 179.48, net: 10803.28, flags: ['adjustment'] })
    expect(await adminDo('GET', `/api/v1/admin/payroll/runs/${run.id}`)).toMatchObject({
      totals: { gross: 10982.76, deductions: 179.48, employee_contributions: 0, employer_contributions: 0, tax: 179.48, net: 10803.28, head_count: 1 },
    })

    // approved: April's salary record pays the April net; March's still as approved
    await adminDo('POST', `/api/v1/admin/payroll/runs/${run.id}/approve`)
    const aprilSalary = await salaryOf('hal', APRIL)
    // CONTRACT §16 names no item for an adjustment; the run puts one that adds into `bonus` (one that
    // takes away into attendance_deduction), so that the record's net is the payslip's:
    // income 9000.00 + 500.00 + 1000.00 + 482.76 = 10982.76; − 179.48 = 10803.28
    expect(aprilSalary).toEqual(
      salaryRecord('hal', APRIL, { basic_salary: 9000, seniority_pay: 500, allowance: 1000, bonus: 482.76 }, { personal_tax: 179.48 }, [10982.76, 179.48, 10803.28], MAY),
    )
    expect(await salaryOf('hal', MARCH)).toEqual(marchSalary)
    expect(await payslipOf(betaMarchRun.id, 'hal')).toEqual(march)
  }, 60_000)
})
