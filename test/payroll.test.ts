import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { asc, count, eq } from 'drizzle-orm'
import { auditLogs, payrollRuns, payslips as payslipRows, salaries } from '../src/db/schema'
import { errorBody, login, loginAdmin, req, startApp, tableRows, type TestApp } from './helpers'
import { datesOfMonth, importHistory, line, must, recordId, shanghai, source, taxFormula, weekdayOf } from './payroll-fixtures'

/*
 * The payroll routes over HTTP (CONTRACT §15, §16; issue 28): pay profiles and pay settings, runs
 * and their payslips, HR's inputs and recomputation, approval into §6 salary records (and what
 * blocks it), two approvals at once, the exports, the employee's own payslips and employees'
 * `left_on`. The golden months (test/payroll-golden.test.ts) hold the line arithmetic; here the
 * figures are small and worked out by hand below.
 *
 * ─── The clock: 10 May 2025, 10:00 in Shanghai, fixed for the whole file (March is long past) ───
 *
 * ─── Acme (company 1, Asia/Shanghai), March 2025 ───
 * The 1st is a Saturday; Monday to Friday: 3–7, 10–14, 17–21, 24–28, 31 = 21 days. Acme's rule
 * (group "Acme office": Ann, Bob, Carl) is 09:00–18:00, Monday to Friday. At first Thursday the
 * 20th is a company holiday (not statutory), so March has 20 work days; a normal day is
 * 08:55–18:05 (on time, no overtime). Hana (HR) and Olga (the owner) are in no attendance group:
 * no rule, no work days, so their pay is prorated by calendar days (31 of 31), never absent.
 * D = 21.75 (Acme keeps the default settings). Tax (March is everyone's first payslip of 2025):
 * taxable = gross − 5000.00, at 3 %.
 *
 *   Ann  9000 + 500 + 1000 = 10500, every work day: 9000.00 × 20 ÷ 20 …; gross 10500.00;
 *        tax (10500 − 5000) × 0.03 = 165.00; net 10335.00
 *   Bob  7000, every work day: gross 7000.00; tax 2000.00 × 0.03 = 60.00; net 6940.00
 *   Carl 6000, no record on Tuesday the 4th (day close: an absent record)
 *        absence 6000.00 ÷ 21.75 × 1 = 275.862… → 275.86; gross 5724.14;
 *        tax 724.14 × 0.03 = 21.7242 → 21.72; net 5702.42
 *   Hana 8000 (31 ÷ 31): tax 3000.00 × 0.03 = 90.00; net 7910.00
 *   Olga 20000 (31 ÷ 31): tax 15000.00 × 0.03 = 450.00; net 19550.00
 *   Not paid in March: Nick (hired 2 April), Lee (left_on 27 February), Pat (no pay profile),
 *   Zed and Yan (Beta).
 *   Run: gross 10500 + 7000 + 5724.14 + 8000 + 20000 = 51224.14; tax 165 + 60 + 21.72 + 90 + 450
 *   = 786.72; net 50437.42; 5 payslips.
 *
 * HR enters Ann's bonus 2000.00 and other deductions 100.00: gross 12500.00; tax 7500.00 × 0.03 =
 *   225.00; deductions 225.00 + 100.00 = 325.00; net 12175.00.
 *
 * Then the holiday of the 20th is taken off the calendar: the 20th is a work day (21 in March).
 *   Ann's and Carl's records of the 20th come in; Bob has none (day close: absent).
 *   Bob  absence 7000.00 ÷ 21.75 × 1 = 321.839… → 321.84; gross 6678.16;
 *        tax 1678.16 × 0.03 = 50.3448 → 50.34; net 6627.82
 *   Ann and Carl: the same amounts, now × 21 ÷ 21; Ann's inputs are kept.
 *   Run: gross 12500 + 6678.16 + 5724.14 + 8000 + 20000 = 52902.30; tax 225 + 50.34 + 21.72 + 90
 *   + 450 = 837.06; deductions 837.06 + 100 = 937.06; net 51965.24.
 *
 * ─── Beta (company 2), March 2025: the race ───
 *   Zed 5000 (31 ÷ 31): taxable max(0, 5000 − 5000) = 0.00, tax 0.00, net 5000.00
 *   Yan 12000: tax 7000.00 × 0.03 = 210.00; net 11790.00
 */

/** when Acme, its group and its people are set up */
const SETUP = shanghai('2025-02-20T10:00')
const NOW = shanghai('2025-05-10T10:00')
const LATER = shanghai('2025-05-10T10:01')
const MARCH = '2025-03'
const APRIL = '2025-04'
const OUTING = '2025-03-20'
const CARL_AWAY = '2025-03-04'
const RUNS = '/api/v1/admin/payroll/runs'

/** errorBody() stamps test/helpers.ts's NOW; this file's clock is another. */
const at = (code: number, message: string, extra: Record<string, unknown> = {}) => ({ ...errorBody(code, message, extra), timestamp: NOW })
const okAt = (data: unknown, message = 'success') => ({ code: 200, message, data, timestamp: NOW })

const RULE = {
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
  overtime_threshold_minutes: 30,
  allowed_late_days: 0,
}

const PEOPLE = {
  ann: { no: 'A01', name: 'Ann One', company: 1, hire: '2024-01-02', basic: 9000, seniority: 500, allowance: 1000, bank: '6222 0000 0001' },
  bob: { no: 'A02', name: 'Bob Two', company: 1, hire: '2024-01-02', basic: 7000, seniority: 0, allowance: 0, bank: '6222 0000 0002' },
  carl: { no: 'A03', name: 'Carl Three', company: 1, hire: '2024-01-02', basic: 6000, seniority: 0, allowance: 0, bank: '6222 0000 0003' },
  hana: { no: 'H01', name: 'Hana Hr', company: 1, hire: '2024-01-02', basic: 8000, seniority: 0, allowance: 0, bank: '6222 0000 0004' },
  olga: { no: 'O01', name: 'Olga Owner', company: 1, hire: '2024-01-02', basic: 20000, seniority: 0, allowance: 0, bank: '6222 0000 0005' },
  nick: { no: 'A09', name: 'Nick New', company: 1, hire: '2025-04-02', basic: 5000, seniority: 0, allowance: 0, bank: null },
  lee: { no: 'A08', name: 'Lee Left', company: 1, hire: '2024-01-02', basic: 5000, seniority: 0, allowance: 0, bank: null },
  pat: { no: 'A07', name: 'Pat Noprofile', company: 1, hire: '2024-01-02', basic: 0, seniority: 0, allowance: 0, bank: null },
  zed: { no: 'B01', name: 'Zed Beta', company: 2, hire: '2024-01-02', basic: 5000, seniority: 0, allowance: 0, bank: '6222 0000 0101' },
  yan: { no: 'B02', name: 'Yan Beta', company: 2, hire: '2024-01-02', basic: 12000, seniority: 0, allowance: 0, bank: '6222 0000 0102' },
} as const
type Who = keyof typeof PEOPLE

let t: TestApp
let admin: string
let annToken: string
let hr: { id: number; token: string }
let owner: { id: number; token: string }
const ids = {} as Record<Who, number>
const profiles = {} as Record<Who, number>
let leeCreated: Record<string, unknown>
let carlAbsent: number
let bobAbsent: number

const ok = (method: string, path: string, body?: unknown, status = 200) => must(t, admin, method, path, body, status)

const auditCount = async () => (await t.deps.database.db.select({ n: count() }).from(auditLogs))[0].n
/** The audit rows written after the first `since`, without their ids. */
const auditSince = async (since: number) =>
  (await t.deps.database.db.select().from(auditLogs).orderBy(asc(auditLogs.id))).slice(since).map(({ id: _id, ...entry }) => entry)
const audit = (action: string, resource: string, resourceId: number | string | null, before: unknown, after: unknown, actorId = 1) => ({
  actorId,
  action,
  resource,
  resourceId: resourceId === null ? null : String(resourceId),
  before,
  after,
  ip: null,
  createdAt: new Date(NOW),
})

const salaryRowsOf = (runId: number) => t.deps.database.db.select().from(salaries).where(eq(salaries.payrollRunId, runId)).orderBy(asc(salaries.employeeId))
const allSalaries = () => t.deps.database.db.select().from(salaries).orderBy(asc(salaries.id))
const runStatus = async (id: number) => (await t.deps.database.db.select({ status: payrollRuns.status }).from(payrollRuns).where(eq(payrollRuns.id, id)))[0]?.status

// ---------------------------------------------------------------------------------------------
// expected bodies

const NO_INPUTS = { performance_pay: 0, bonus: 0, other_income: 0, other_deductions: 0, note: '' }

/** The profile lines (basic, seniority, allowance where not 0) of a whole month: `days` of `days`. */
function profileLines(who: Who, days: number) {
  const p = PEOPLE[who]
  return (['basic_salary', 'seniority_pay', 'allowance'] as const)
    .map((code) => [code, code === 'basic_salary' ? p.basic : code === 'seniority_pay' ? p.seniority : p.allowance] as const)
    .filter(([code, amount]) => code === 'basic_salary' || amount !== 0)
    .map(([code, amount]) => line(code, 'income', amount, `${amount.toFixed(2)} × ${days} ÷ ${days} = ${amount.toFixed(2)}`, [source('pay_profile', profiles[who])]))
}
/** March's tax line: the first month of 2025, 3 %, nothing withheld before. */
const marchTax = (gross: string, taxable: string, tax: string) =>
  line('personal_tax', 'deduction', Number(tax), taxFormula({ gross, months: 1, taxable, rate: '0.03', quick: '0.00', cumulativeTax: tax, withheld: '0.00', tax }), [])

function payslip(
  who: Who,
  runId: number,
  p: { gross: number; deductions: number; net: number; lines: unknown[]; flags?: string[]; inputs?: Partial<typeof NO_INPUTS>; status?: 'draft' | 'approved'; month?: string },
) {
  return {
    id: expect.any(Number),
    run_id: runId,
    employee: { id: ids[who], name: PEOPLE[who].name, employee_no: PEOPLE[who].no },
    month: p.month ?? MARCH,
    status: p.status ?? 'draft',
    gross: p.gross,
    deductions: p.deductions,
    net: p.net,
    lines: p.lines,
    inputs: { ...NO_INPUTS, ...p.inputs },
    flags: p.flags ?? [],
  }
}

/** Acme's March payslips as first computed (20 work days). */
const firstMarch = (runId: number) => [
  payslip('ann', runId, { gross: 10500, deductions: 165, net: 10335, lines: [...profileLines('ann', 20), marchTax('10500.00', '5500.00', '165.00')] }),
  payslip('bob', runId, { gross: 7000, deductions: 60, net: 6940, lines: [...profileLines('bob', 20), marchTax('7000.00', '2000.00', '60.00')] }),
  payslip('carl', runId, {
    gross: 5724.14,
    deductions: 21.72,
    net: 5702.42,
    lines: [
      ...profileLines('carl', 20),
      // 6000 ÷ 21.75 = 275.862…
      line('absence', 'attendance', 275.86, '6000.00 ÷ 21.75 × 1 = 275.86', [source('attendance_record', carlAbsent)]),
      // 6000.00 − 275.86 = 5724.14; 724.14 × 0.03 = 21.7242
      marchTax('5724.14', '724.14', '21.72'),
    ],
    flags: ['absence'],
  }),
  payslip('hana', runId, { gross: 8000, deductions: 90, net: 7910, lines: [...profileLines('hana', 31), marchTax('8000.00', '3000.00', '90.00')] }),
  payslip('olga', runId, { gross: 20000, deductions: 450, net: 19550, lines: [...profileLines('olga', 31), marchTax('20000.00', '15000.00', '450.00')] }),
]

const ANN_INPUTS = { bonus: 2000, other_deductions: 100, note: 'Q1 bonus' }
/** Ann's payslip with the bonus and other deductions HR entered, over `days` work days. */
const annWithInputs = (runId: number, days: number, status: 'draft' | 'approved' = 'draft') =>
  payslip('ann', runId, {
    status,
    // 10500.00 + 2000.00
    gross: 12500,
    // 225.00 + 100.00
    deductions: 325,
    net: 12175,
    lines: [
      ...profileLines('ann', days),
      { ...line('bonus', 'income', 2000, '2000.00 = 2000.00', []), inputs: { bonus: 2000 } },
      // 12500.00 − 5000.00 = 7500.00; × 0.03
      marchTax('12500.00', '7500.00', '225.00'),
      { ...line('other_deductions', 'deduction', 100, '100.00 = 100.00', []), inputs: { other_deductions: 100 } },
    ],
    inputs: ANN_INPUTS,
    flags: ['entered'],
  })

/** Acme's March payslips after the holiday of the 20th was taken off (21 work days) and Ann's inputs. */
const finalMarch = (runId: number, status: 'draft' | 'approved' = 'draft') => [
  annWithInputs(runId, 21, status),
  payslip('bob', runId, {
    status,
    gross: 6678.16,
    deductions: 50.34,
    net: 6627.82,
    lines: [
      ...profileLines('bob', 21),
      // 7000 ÷ 21.75 = 321.839…
      line('absence', 'attendance', 321.84, '7000.00 ÷ 21.75 × 1 = 321.84', [source('attendance_record', bobAbsent)]),
      // 7000.00 − 321.84 = 6678.16; 1678.16 × 0.03 = 50.3448
      marchTax('6678.16', '1678.16', '50.34'),
    ],
    flags: ['absence'],
  }),
  { ...firstMarch(runId)[2], status, lines: [...profileLines('carl', 21), ...firstMarch(runId)[2].lines.slice(1)] },
  { ...firstMarch(runId)[3], status },
  { ...firstMarch(runId)[4], status },
]

const acmeRun = (id: number, totals: { gross: number; deductions: number; tax: number; net: number; head_count: number }, approved: { by: { id: number; username: string } } | null = null) => ({
  id,
  company: { id: 1, name: 'Acme' },
  month: MARCH,
  status: approved ? 'approved' : 'draft',
  totals: { gross: totals.gross, deductions: totals.deductions, employee_contributions: 0, employer_contributions: 0, tax: totals.tax, net: totals.net, head_count: totals.head_count },
  created_at: NOW,
  computed_at: NOW,
  approved_at: approved ? NOW : null,
  approved_by: approved ? approved.by : null,
})
const FIRST_TOTALS = { gross: 51224.14, deductions: 786.72, tax: 786.72, net: 50437.42, head_count: 5 }
// Ann's bonus: gross + 2000.00, tax + 60.00 (225.00 − 165.00), deductions + 60.00 + 100.00
const INPUT_TOTALS = { gross: 53224.14, deductions: 946.72, tax: 846.72, net: 52277.42, head_count: 5 }
const FINAL_TOTALS = { gross: 52902.3, deductions: 937.06, tax: 837.06, net: 51965.24, head_count: 5 }

const NOT_DRAFT = 'The payroll run of Acme for 2025-03 is approved and locked; changes to that month go into the next month’s run as adjustments'

// ---------------------------------------------------------------------------------------------
// setup

/** A user made through the API with `roles`, not signed in (sign-ins wait for the clock to reach NOW). */
async function makeAccount(username: string, roles: string[]): Promise<number> {
  return (await ok('POST', '/api/v1/admin/users', { username, password: `${username}-password-1`, name: username, roles }, 201)).id
}

beforeAll(async () => {
  // the company, its group and everyone are set up before March (day close refuses dates before a group existed)
  t = await startApp({ now: SETUP })
  admin = await loginAdmin(t.app)
  for (const name of ['Acme', 'Beta', 'Gamma']) await ok('POST', '/api/v1/admin/companies', { name, timezone: 'Asia/Shanghai' }, 201)
  await ok('POST', '/api/v1/admin/attendance/groups', { name: 'Acme office', company_id: 1 }, 201)
  await ok('POST', '/api/v1/admin/attendance/rules', RULE, 201)

  // HR: a role with the payroll permissions and no more; the owner: a second holder of role admin
  await ok('POST', '/api/v1/admin/roles', { name: 'payroll_hr' }, 201)
  for (const permission of ['payroll:read', 'payroll:manage', 'payroll:approve'])
    await ok('POST', '/api/v1/admin/roles/permissions/add', { role_name: 'payroll_hr', permission_name: permission })
  const hrId = await makeAccount('hana.hr', ['payroll_hr'])
  const ownerId = await makeAccount('owner', ['admin'])

  for (const who of Object.keys(PEOPLE) as Who[]) {
    const p = PEOPLE[who]
    const body: Record<string, unknown> = { name: p.name, employee_no: p.no, company_id: p.company, hire_date: p.hire }
    if (who === 'ann') Object.assign(body, { username: 'ann', password: 'ann-password-1' })
    if (who === 'hana') body.user_id = hrId
    if (who === 'olga') body.user_id = ownerId
    if (who === 'lee') Object.assign(body, { left_on: '2025-02-27', status: 0 })
    const created = await ok('POST', '/api/v1/admin/employees', body, 201)
    ids[who] = created.id
    if (who === 'lee') leeCreated = created
  }
  await ok('POST', '/api/v1/admin/attendance/groups/1/employees', { employee_ids: [ids.ann, ids.bob, ids.carl] })

  for (const who of Object.keys(PEOPLE) as Who[]) {
    const p = PEOPLE[who]
    if (who === 'pat') continue
    const profile = { effective_month: '2025-01', basic_salary: p.basic, seniority_pay: p.seniority, allowance: p.allowance, contribution_base: 0, housing_fund_base: 0, bank_account: p.bank }
    profiles[who] = (await ok('PUT', `/api/v1/admin/employees/${ids[who]}/pay-profile`, profile)).id
  }
  // the 20th: a company outing, not a work day (for now)
  await ok('PUT', `/api/v1/admin/companies/1/calendar/${OUTING}`, { kind: 'holiday', name: 'Spring outing' }, 201)

  // 10 May: March is long past
  t.clock.set(NOW)
  admin = await loginAdmin(t.app)
  annToken = await login(t.app, 'ann', 'ann-password-1')
  hr = { id: hrId, token: await login(t.app, 'hana.hr', 'hana.hr-password-1') }
  owner = { id: ownerId, token: await login(t.app, 'owner', 'owner-password-1') }

  const weekdays = datesOfMonth(MARCH).filter((date) => weekdayOf(date) <= 5 && date !== OUTING)
  const rows: [string, string, string, string][] = []
  for (const who of ['ann', 'bob', 'carl'] as const)
    for (const date of weekdays) if (!(who === 'carl' && date === CARL_AWAY)) rows.push([PEOPLE[who].no, date, '08:55', '18:05'])
  await importHistory(t, admin, rows)
  await ok('POST', '/api/v1/admin/attendance/close-day', { date: CARL_AWAY, group_id: 1 })
  carlAbsent = await recordId(t, ids.carl, CARL_AWAY)
}, 60_000)

afterAll(() => t?.close())

// ---------------------------------------------------------------------------------------------

describe('pay profiles', () => {
  let quinn: number
  const path = () => `/api/v1/admin/employees/${quinn}/pay-profile`
  const pay = { basic_salary: 6000, seniority_pay: 200, allowance: 300, contribution_base: 6500, housing_fund_base: 6500 }
  const profile = (id: number, month: string, values: Record<string, unknown>, updatedAt = NOW) => ({
    id,
    employee_id: quinn,
    effective_month: month,
    basic_salary: 6000,
    seniority_pay: 200,
    allowance: 300,
    contribution_base: 6500,
    housing_fund_base: 6500,
    scheme_id: null,
    bank_account: null,
    ...values,
    created_at: NOW,
    updated_at: updatedAt,
  })
  let older: ReturnType<typeof profile>
  let january: ReturnType<typeof profile>
  let schemeId: number

  beforeAll(async () => {
    quinn = (await ok('POST', '/api/v1/admin/employees', { name: 'Quinn Gamma', employee_no: 'G01', company_id: 3, hire_date: '2024-01-02' }, 201)).id
    const item = { code: 'pension', employee_rate: 0.08, employer_rate: 0.16, base_min: 5000, base_max: 30000 }
    schemeId = (await ok('POST', '/api/v1/admin/payroll/schemes', { name: 'Profile town', effective_from: '2024-01', items: [item] }, 201)).id
  })

  test('PUT → 200 the whole profile (bank account trimmed); one pay_profile.create entry', async () => {
    const since = await auditCount()
    const reply = await req(t.app, 'PUT', path(), { token: admin, body: { effective_month: '2024-07', ...pay, bank_account: '  6222 9999 0001  ' } })
    older = profile(reply.body.data?.id, '2024-07', { bank_account: '6222 9999 0001' })
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual(okAt(older, 'Pay profile saved'))
    expect(await auditSince(since)).toEqual([audit('pay_profile.create', 'pay_profile', older.id, null, older)])
  })

  test('the same effective_month again replaces that profile (same id, created_at kept); pay_profile.update with before and after', async () => {
    const first = await ok('PUT', path(), { effective_month: '2025-01', ...pay, basic_salary: 7000, scheme_id: schemeId })
    january = profile(first.id, '2025-01', { basic_salary: 7000, scheme_id: schemeId })
    expect(first).toEqual(january)
    expect(first.id).not.toBe(older.id)

    t.clock.set(LATER)
    try {
      const since = await auditCount()
      const reply = await req(t.app, 'PUT', path(), { token: admin, body: { effective_month: '2025-01', basic_salary: 7200.5 } })
      // fields left out are 0 / null again: the PUT replaces the whole profile of that month
      const replaced = profile(january.id, '2025-01', { basic_salary: 7200.5, seniority_pay: 0, allowance: 0, contribution_base: 0, housing_fund_base: 0 }, LATER)
      expect(reply.body).toEqual({ ...okAt(replaced, 'Pay profile saved'), timestamp: LATER })
      expect(await auditSince(since)).toEqual([{ ...audit('pay_profile.update', 'pay_profile', january.id, january, replaced), createdAt: new Date(LATER) }])
      january = replaced
    } finally {
      t.clock.set(NOW)
    }
  })

  test('GET lists the history, newest first', async () => {
    expect((await req(t.app, 'GET', path(), { token: admin })).body).toEqual(okAt({ profiles: [january, older] }))
  })

  test('amounts with 3 decimals or negative → 400 naming each field; nothing stored, no audit', async () => {
    const since = await auditCount()
    const reply = await req(t.app, 'PUT', path(), { token: admin, body: { effective_month: '2025-02', ...pay, basic_salary: 1000.005, allowance: -1 } })
    expect(reply.body).toEqual(
      at(400, 'The pay profile is not valid: basic_salary, allowance', {
        errors: [
          { field: 'basic_salary', message: 'must have at most 2 decimals (whole fen)' },
          { field: 'allowance', message: 'must not be negative' },
        ],
      }),
    )
    expect(reply.status).toBe(400)
    expect(await auditCount()).toBe(since)
    expect((await ok('GET', path())).profiles).toEqual([january, older])
  })

  test('a scheme_id naming no contribution scheme → 400; nothing stored, no audit', async () => {
    const since = await auditCount()
    const reply = await req(t.app, 'PUT', path(), { token: admin, body: { effective_month: '2025-02', ...pay, scheme_id: schemeId + 100 } })
    expect([reply.status, reply.body]).toEqual([400, at(400, 'The pay profile is not valid: scheme_id', { errors: [{ field: 'scheme_id', message: 'no contribution scheme has this id' }] })])
    expect(await auditCount()).toBe(since)
    expect((await ok('GET', path())).profiles).toEqual([january, older])
  })

  test('an unknown employee → 404 (PUT and GET)', async () => {
    const put = await req(t.app, 'PUT', '/api/v1/admin/employees/999/pay-profile', { token: admin, body: { effective_month: '2025-01', ...pay } })
    expect([put.status, put.body]).toEqual([404, at(404, 'Employee 999 does not exist')])
    const get = await req(t.app, 'GET', '/api/v1/admin/employees/999/pay-profile', { token: admin })
    expect([get.status, get.body]).toEqual([404, at(404, 'Employee 999 does not exist')])
  })
})

// ---------------------------------------------------------------------------------------------

describe('pay settings', () => {
  const GAMMA = '/api/v1/admin/companies/3/pay-settings'
  const DEFAULTS = {
    company_id: 3,
    proration: 'work_days',
    days_per_month: 21.75,
    late_deduction: { per_occurrence: 0, per_minute: 0, free_occurrences: null },
    absence_deduction: 'daily_wage',
    overtime_multipliers: { work_day: 1.5, rest_day: 2, statutory_holiday: 3 },
  }

  test('a company that never set them → the defaults', async () => {
    expect((await req(t.app, 'GET', GAMMA, { token: admin })).body).toEqual(okAt(DEFAULTS))
  })

  test('PUT partial: what is sent, the rest the defaults; one pay_settings.update entry', async () => {
    const since = await auditCount()
    const reply = await req(t.app, 'PUT', GAMMA, {
      token: admin,
      body: { proration: 'calendar_days', days_per_month: 22, late_deduction: { per_occurrence: 30 }, overtime_multipliers: { rest_day: 2.5 } },
    })
    const set = {
      ...DEFAULTS,
      proration: 'calendar_days',
      days_per_month: 22,
      late_deduction: { per_occurrence: 30, per_minute: 0, free_occurrences: null },
      overtime_multipliers: { work_day: 1.5, rest_day: 2.5, statutory_holiday: 3 },
    }
    expect(reply.body).toEqual(okAt(set, 'Pay settings saved'))
    expect(await auditSince(since)).toEqual([audit('pay_settings.update', 'company', 3, DEFAULTS, set)])
    expect((await ok('GET', GAMMA))).toEqual(set)
  })

  test('absence_deduction a fixed amount per day; fields left out go back to their defaults', async () => {
    const set = { ...DEFAULTS, absence_deduction: 200.5, late_deduction: { per_occurrence: 0, per_minute: 0.5, free_occurrences: 2 } }
    expect(await ok('PUT', GAMMA, { absence_deduction: 200.5, late_deduction: { per_minute: 0.5, free_occurrences: 2 } })).toEqual(set)
    expect(await ok('GET', GAMMA)).toEqual(set)
  })

  for (const days of [0, 31.5, 21.755])
    test(`days_per_month ${days} → 400 naming days_per_month; nothing changes`, async () => {
      const before = await ok('GET', GAMMA)
      const since = await auditCount()
      const reply = await req(t.app, 'PUT', GAMMA, { token: admin, body: { days_per_month: days } })
      expect([reply.status, reply.body]).toEqual([
        400,
        at(400, 'The pay settings are not valid: days_per_month', { errors: [{ field: 'days_per_month', message: 'above 0 and at most 31, at most 2 decimals' }] }),
      ])
      expect(await auditCount()).toBe(since)
      expect(await ok('GET', GAMMA)).toEqual(before)
    })

  test('an overtime multiplier of 10.5 → 400 naming it', async () => {
    const reply = await req(t.app, 'PUT', GAMMA, { token: admin, body: { overtime_multipliers: { work_day: 10.5, statutory_holiday: 3 } } })
    expect([reply.status, reply.body]).toEqual([
      400,
      at(400, 'The pay settings are not valid: overtime_multipliers.work_day', { errors: [{ field: 'overtime_multipliers.work_day', message: 'from 0 to 10, at most 2 decimals' }] }),
    ])
  })

  test('an unknown company → 404 (GET and PUT)', async () => {
    const get = await req(t.app, 'GET', '/api/v1/admin/companies/99/pay-settings', { token: admin })
    expect([get.status, get.body]).toEqual([404, at(404, 'Company 99 does not exist')])
    const put = await req(t.app, 'PUT', '/api/v1/admin/companies/99/pay-settings', { token: admin, body: { days_per_month: 22 } })
    expect([put.status, put.body]).toEqual([404, at(404, 'Company 99 does not exist')])
  })
})

// ---------------------------------------------------------------------------------------------

let marchRun: number
const payslipsOf = async (runId: number, query = '') => (await ok('GET', `${RUNS}/${runId}/payslips${query}`)).payslips as (Record<string, unknown> & { id: number; employee: { id: number } })[]
const payslipIdOf = async (runId: number, who: Who) => (await payslipsOf(runId)).find((p) => p.employee.id === ids[who])!.id

describe('runs: create, read, list', () => {
  test('create → 201 the whole run: totals and head count; one payroll_run.create entry', async () => {
    const since = await auditCount()
    const reply = await req(t.app, 'POST', RUNS, { token: admin, body: { company_id: 1, month: MARCH } })
    marchRun = reply.body.data?.id
    expect(reply.status).toBe(201)
    expect(reply.body).toEqual(okAt(acmeRun(marchRun, FIRST_TOTALS), 'Payroll run created'))
    expect(await auditSince(since)).toEqual([audit('payroll_run.create', 'payroll_run', marchRun, null, { company_id: 1, month: MARCH, head_count: 5 })])
    expect((await req(t.app, 'GET', `${RUNS}/${marchRun}`, { token: admin })).body).toEqual(okAt(acmeRun(marchRun, FIRST_TOTALS)))
  })

  test('the payslips: each whole; only those of the company with a profile who were employed in March', async () => {
    // not Nick (hired 2 April), Lee (left 27 February), Pat (no profile), Zed and Yan (Beta)
    expect((await req(t.app, 'GET', `${RUNS}/${marchRun}/payslips`, { token: admin })).body).toEqual(okAt({ payslips: firstMarch(marchRun) }))
  })

  test('the labels name each line in English by default, in Chinese for Accept-Language: zh', async () => {
    const labels = async (headers: Record<string, string>) =>
      ((await req(t.app, 'GET', `${RUNS}/${marchRun}/payslips`, { token: admin, headers })).body.data.payslips as { lines: { label: string }[] }[]).map((p) => p.lines.map((l) => l.label))
    expect((await labels({}))[0]).toEqual(['Basic salary', 'Seniority pay', 'Allowance', 'Individual income tax'])
    expect((await labels({ 'accept-language': 'zh' }))[2]).toEqual(['基本工资', '缺勤扣款', '个人所得税'])
  })

  test('?flag=absence keeps the payslips with an absence', async () => {
    expect((await payslipsOf(marchRun, '?flag=absence')).map((p) => p.employee.id)).toEqual([ids.carl])
    expect(await payslipsOf(marchRun, '?flag=lateness')).toEqual([])
  })

  test('a second run of the same company and month → 409 with its message; nothing written', async () => {
    const since = await auditCount()
    const reply = await req(t.app, 'POST', RUNS, { token: admin, body: { company_id: 1, month: MARCH } })
    expect([reply.status, reply.body]).toEqual([409, at(409, `Acme already has a payroll run for 2025-03 (run ${marchRun}); recompute that one instead`)])
    expect(await auditCount()).toBe(since)
    expect(await t.deps.database.db.select({ id: payrollRuns.id }).from(payrollRuns)).toEqual([{ id: marchRun }])
  })

  test('month 2024-13 → 400 naming month; an unknown company → 400 naming company_id', async () => {
    const month = await req(t.app, 'POST', RUNS, { token: admin, body: { company_id: 1, month: '2024-13' } })
    expect([month.status, month.body]).toEqual([400, at(400, 'Invalid request: month must be a month written YYYY-MM', { errors: [{ field: 'month', message: 'must be a month written YYYY-MM' }] })])
    const company = await req(t.app, 'POST', RUNS, { token: admin, body: { company_id: 99, month: MARCH } })
    expect([company.status, company.body]).toEqual([400, at(400, 'company_id Company 99 does not exist', { errors: [{ field: 'company_id', message: 'Company 99 does not exist' }] })])
  })

  test('GET of a run that does not exist → 404', async () => {
    const reply = await req(t.app, 'GET', `${RUNS}/9999`, { token: admin })
    expect([reply.status, reply.body]).toEqual([404, at(404, 'Payroll run 9999 does not exist')])
    const slips = await req(t.app, 'GET', `${RUNS}/9999/payslips`, { token: admin })
    expect([slips.status, slips.body]).toEqual([404, at(404, 'Payroll run 9999 does not exist')])
  })

  test('the list: ?company_id=, ?year=, ?status=; newest month first', async () => {
    const april = await ok('POST', RUNS, { company_id: 1, month: APRIL }, 201)
    // Beta's December 2024: its profiles begin in 2025, so nobody is paid
    const december = await ok('POST', RUNS, { company_id: 2, month: '2024-12' }, 201)
    expect(december.totals).toEqual({ gross: 0, deductions: 0, employee_contributions: 0, employer_contributions: 0, tax: 0, net: 0, head_count: 0 })
    const march = await ok('GET', `${RUNS}/${marchRun}`)
    const listed = async (query: string) => ((await req(t.app, 'GET', `${RUNS}${query}`, { token: admin })).body as { data: { runs: { id: number }[] } }).data.runs
    expect((await req(t.app, 'GET', `${RUNS}?company_id=1`, { token: admin })).body).toEqual(okAt({ runs: [april, march] }))
    expect((await listed('?year=2024')).map((r) => r.id)).toEqual([december.id])
    expect((await listed('?year=2025')).map((r) => r.id)).toEqual([april.id, marchRun])
    expect((await listed('?status=draft')).map((r) => r.id)).toEqual([april.id, marchRun, december.id])
    expect(await listed('?status=approved')).toEqual([])
    expect(await listed('?company_id=3')).toEqual([])
    // April's run stays a draft: the employees' own payslips must not show it
    expect((await payslipsOf(april.id)).map((p) => p.employee.id)).toEqual([ids.ann, ids.bob, ids.carl, ids.hana, ids.olga, ids.nick])
  })

  test('DELETE a draft → data null; its payslips are gone; one payroll_run.delete entry', async () => {
    const february = await ok('POST', RUNS, { company_id: 1, month: '2025-02' }, 201)
    const ofRun = () => t.deps.database.db.select({ id: payslipRows.id }).from(payslipRows).where(eq(payslipRows.runId, february.id))
    // Lee left on the 27th: paid for February
    expect((await payslipsOf(february.id)).map((p) => p.employee.id)).toEqual([ids.ann, ids.bob, ids.carl, ids.hana, ids.olga, ids.lee])
    const since = await auditCount()
    const reply = await req(t.app, 'DELETE', `${RUNS}/${february.id}`, { token: admin })
    expect(reply.body).toEqual(okAt(null, 'Payroll run deleted'))
    expect(await ofRun()).toEqual([])
    expect(await auditSince(since)).toEqual([audit('payroll_run.delete', 'payroll_run', february.id, { company_id: 1, month: '2025-02' }, null)])
    expect((await req(t.app, 'GET', `${RUNS}/${february.id}`, { token: admin })).status).toBe(404)
  })
})

// ---------------------------------------------------------------------------------------------

describe('inputs and recomputation of a draft', () => {
  test('PUT inputs (bonus 2000, other deductions 100) → the payslip recomputed: bonus and other_deductions lines, new gross and net', async () => {
    const id = await payslipIdOf(marchRun, 'ann')
    const since = await auditCount()
    const reply = await req(t.app, 'PUT', `${RUNS}/${marchRun}/payslips/${id}/inputs`, { token: admin, body: ANN_INPUTS })
    expect(reply.body).toEqual(okAt({ ...annWithInputs(marchRun, 20), id }, 'Payslip inputs saved and the payslip recomputed'))
    expect(await auditSince(since)).toEqual([audit('payslip.inputs', 'payslip', id, NO_INPUTS, ANN_INPUTS)])
    expect(await ok('GET', `${RUNS}/${marchRun}`)).toEqual(acmeRun(marchRun, INPUT_TOTALS))
    expect((await payslipsOf(marchRun, '?flag=entered')).map((p) => p.employee.id)).toEqual([ids.ann])
  })

  test('a payslip of another run → 404; an amount with 3 decimals → 400', async () => {
    const id = await payslipIdOf(marchRun, 'ann')
    const other = await req(t.app, 'PUT', `${RUNS}/9999/payslips/${id}/inputs`, { token: admin, body: { bonus: 1 } })
    expect([other.status, other.body]).toEqual([404, at(404, 'Payroll run 9999 does not exist')])
    const bad = await req(t.app, 'PUT', `${RUNS}/${marchRun}/payslips/${id}/inputs`, { token: admin, body: { bonus: 0.001 } })
    expect([bad.status, bad.body]).toEqual([400, at(400, 'The payslip inputs are not valid: bonus', { errors: [{ field: 'bonus', message: 'must have at most 2 decimals (whole fen)' }] })])
  })

  test('the holiday of the 20th is taken off: nothing changes until the run is recomputed', async () => {
    await ok('DELETE', `/api/v1/admin/companies/1/calendar/${OUTING}`)
    await importHistory(t, admin, [
      [PEOPLE.ann.no, OUTING, '08:55', '18:05'],
      [PEOPLE.carl.no, OUTING, '08:55', '18:05'],
    ])
    await ok('POST', '/api/v1/admin/attendance/close-day', { date: OUTING, group_id: 1 })
    bobAbsent = await recordId(t, ids.bob, OUTING)
    const [, ...rest] = firstMarch(marchRun)
    expect(await payslipsOf(marchRun)).toEqual([{ ...annWithInputs(marchRun, 20) }, ...rest])
  })

  test('recompute → the run with new totals: Bob’s new absence, 21 work days, Ann’s inputs kept, the payslips’ ids kept', async () => {
    const before = (await payslipsOf(marchRun)).map((p) => p.id)
    const since = await auditCount()
    const reply = await req(t.app, 'POST', `${RUNS}/${marchRun}/recompute`, { token: admin })
    expect(reply.body).toEqual(okAt(acmeRun(marchRun, FINAL_TOTALS), 'Payroll run recomputed'))
    expect(await auditSince(since)).toEqual([audit('payroll_run.recompute', 'payroll_run', marchRun, null, { company_id: 1, month: MARCH, head_count: 5 })])
    const after = await payslipsOf(marchRun)
    expect(after).toEqual(finalMarch(marchRun))
    expect(after.map((p) => p.id)).toEqual(before)
    expect((await payslipsOf(marchRun, '?flag=absence')).map((p) => p.employee.id)).toEqual([ids.bob, ids.carl])
  })
})

// ---------------------------------------------------------------------------------------------

describe('approval refused', () => {
  const approve = (token: string) => req(t.app, 'POST', `${RUNS}/${marchRun}/approve`, { token })

  test('a payslip with a negative net → 409 naming the employee; nothing written, the run stays a draft', async () => {
    const carl = await payslipIdOf(marchRun, 'carl')
    // 5724.14 − 21.72 − 6000.00 = −297.58
    const entered = await ok('PUT', `${RUNS}/${marchRun}/payslips/${carl}/inputs`, { other_deductions: 6000 })
    expect(entered).toMatchObject({ gross: 5724.14, deductions: 6021.72, net: -297.58, flags: ['absence', 'entered', 'negative_net'] })
    expect((await payslipsOf(marchRun, '?flag=negative_net')).map((p) => p.employee.id)).toEqual([ids.carl])

    const before = await tableRows(t)
    const reply = await approve(admin)
    expect([reply.status, reply.body]).toEqual([
      409,
      at(409, 'The net pay of Carl Three (A03) for 2025-03 would be below zero; enter other income or check their attendance before approving'),
    ])
    expect(await tableRows(t)).toEqual(before)

    // back as it was: no inputs, no flag
    expect(await ok('PUT', `${RUNS}/${marchRun}/payslips/${carl}/inputs`, {})).toEqual({ ...finalMarch(marchRun)[2], id: carl })
  })

  test('a salary record of the month that no run wrote → 409 naming the employee and the record; nothing written, the run stays a draft', async () => {
    const written = await ok('POST', '/api/v1/admin/salaries', { employee_id: ids.bob, month: MARCH, basic_salary: 7000 }, 201)
    const before = await tableRows(t)
    const reply = await approve(admin)
    expect([reply.status, reply.body]).toEqual([
      409,
      at(409, `Bob Two (A02) already has a salary record for 2025-03 (record ${written.id}) that no payroll run wrote; delete it or move it before approving`),
    ])
    expect(await tableRows(t)).toEqual(before)
    expect(await runStatus(marchRun)).toBe('draft')
    expect((await allSalaries()).map((row) => [row.id, row.payrollRunId])).toEqual([[written.id, null]])
    await ok('DELETE', `/api/v1/admin/salaries/${written.id}`)
  })

  test('§15: an HR account holding payroll:approve, linked to an employee with a payslip in the run → 403; nothing written', async () => {
    const before = await tableRows(t)
    const reply = await approve(hr.token)
    expect([reply.status, reply.body]).toEqual([
      403,
      at(403, 'The payroll run of Acme for 2025-03 is your own: nobody creates, changes or pays their own salary; ask another administrator'),
    ])
    expect(await tableRows(t)).toEqual(before)
    expect(await runStatus(marchRun)).toBe('draft')
    expect(await allSalaries()).toEqual([])
  })

  test('the same HR account reads and manages the run (it is not refused for anything else)', async () => {
    expect((await req(t.app, 'GET', `${RUNS}/${marchRun}`, { token: hr.token })).body).toEqual(okAt(acmeRun(marchRun, FINAL_TOTALS)))
  })
})

// ---------------------------------------------------------------------------------------------

describe('approval by the owner (role admin), whose own payslip is in the run', () => {
  test('→ 200 the run, approved and locked; one payroll_run.approve entry', async () => {
    const since = await auditCount()
    const reply = await req(t.app, 'POST', `${RUNS}/${marchRun}/approve`, { token: owner.token })
    expect(reply.body).toEqual(okAt(acmeRun(marchRun, FINAL_TOTALS, { by: { id: owner.id, username: 'owner' } }), 'Payroll run approved; its salary records are written'))
    expect(await auditSince(since)).toEqual([audit('payroll_run.approve', 'payroll_run', marchRun, null, { company_id: 1, month: MARCH, head_count: 5 }, owner.id)])
    expect(await payslipsOf(marchRun)).toEqual(finalMarch(marchRun, 'approved'))
    expect((await req(t.app, 'GET', `${RUNS}?status=approved`, { token: admin })).body.data.runs.map((r: { id: number }) => r.id)).toEqual([marchRun])
  })

  test('one §6 salary record per payslip, written by the run (payroll_run_id), status 0, amounts in fen', async () => {
    const row = (who: Who, fen: Record<string, number>, totals: [income: number, deductions: number, net: number]) => ({
      id: expect.any(Number),
      employeeId: ids[who],
      month: MARCH,
      status: 0,
      paymentDate: null,
      categoryId: null,
      basicSalary: 0,
      seniorityPay: 0,
      performancePay: 0,
      overtimePay: 0,
      bonus: 0,
      allowance: 0,
      attendanceDeduction: 0,
      personalInsurance: 0,
      personalTax: 0,
      housingFund: 0,
      otherDeductions: 0,
      ...fen,
      totalIncome: totals[0],
      totalDeductions: totals[1],
      netSalary: totals[2],
      remarks: '',
      payrollRunId: marchRun,
      createdAt: new Date(NOW),
      updatedAt: new Date(NOW),
    })
    expect(await salaryRowsOf(marchRun)).toEqual([
      // 9000 + 500 + 1000 + bonus 2000 = 12500.00; tax 225.00 + other 100.00 = 325.00
      row('ann', { basicSalary: 900000, seniorityPay: 50000, allowance: 100000, bonus: 200000, personalTax: 22500, otherDeductions: 10000 }, [1250000, 32500, 1217500]),
      // absence 321.84 + tax 50.34 = 372.18; 7000.00 − 372.18 = 6627.82
      row('bob', { basicSalary: 700000, attendanceDeduction: 32184, personalTax: 5034 }, [700000, 37218, 662782]),
      // absence 275.86 + tax 21.72 = 297.58; 6000.00 − 297.58 = 5702.42
      row('carl', { basicSalary: 600000, attendanceDeduction: 27586, personalTax: 2172 }, [600000, 29758, 570242]),
      row('hana', { basicSalary: 800000, personalTax: 9000 }, [800000, 9000, 791000]),
      row('olga', { basicSalary: 2000000, personalTax: 45000 }, [2000000, 45000, 1955000]),
    ])
    expect((await allSalaries()).length).toBe(5)
  })
})

// ---------------------------------------------------------------------------------------------

describe('after approval', () => {
  const WRITTEN = (id: number) =>
    `Salary record ${id} of 2025-03 was written by payroll run ${marchRun}: its amounts change only through the next runs’ adjustments, and it cannot be deleted`

  test('PUT /admin/salaries/{id} changing an amount → 409; DELETE → 409; the record stays', async () => {
    const [ann] = await salaryRowsOf(marchRun)
    const put = await req(t.app, 'PUT', `/api/v1/admin/salaries/${ann.id}`, { token: admin, body: { basic_salary: 9500 } })
    expect([put.status, put.body]).toEqual([409, at(409, WRITTEN(ann.id))])
    const removed = await req(t.app, 'DELETE', `/api/v1/admin/salaries/${ann.id}`, { token: admin })
    expect([removed.status, removed.body]).toEqual([409, at(409, WRITTEN(ann.id))])
    expect((await salaryRowsOf(marchRun))[0]).toEqual(ann)
  })

  test('PATCH batch-status to paid still works: the records are paid today', async () => {
    const before = await salaryRowsOf(marchRun)
    const reply = await req(t.app, 'PATCH', '/api/v1/admin/salaries/batch-status', { token: admin, body: { ids: before.map((row) => row.id), status: '1' } })
    expect(reply.body).toEqual(okAt(null, 'Statuses updated'))
    expect(await salaryRowsOf(marchRun)).toEqual(before.map((row) => ({ ...row, status: 1, paymentDate: '2025-05-10' })))
  })

  test('inputs, recompute, delete and a second approval → 409 (the run is locked); nothing changes', async () => {
    const id = await payslipIdOf(marchRun, 'ann')
    const before = await tableRows(t)
    for (const [method, path, body] of [
      ['PUT', `${RUNS}/${marchRun}/payslips/${id}/inputs`, { bonus: 1 }],
      ['POST', `${RUNS}/${marchRun}/recompute`, undefined],
      ['DELETE', `${RUNS}/${marchRun}`, undefined],
      ['POST', `${RUNS}/${marchRun}/approve`, undefined],
    ] as const) {
      const reply = await req(t.app, method, path, { token: admin, body })
      expect([method, path, reply.status, reply.body]).toEqual([method, path, 409, at(409, NOT_DRAFT)])
    }
    expect(await tableRows(t)).toEqual(before)
  })
})

// ---------------------------------------------------------------------------------------------

describe('exports', () => {
  interface Download {
    status: number
    headers: Headers
    bytes: Uint8Array
  }
  async function download(path: string): Promise<Download> {
    const response = await t.app.handle(new Request(`http://localhost${path}`, { headers: { authorization: `Bearer ${admin}` } }))
    return { status: response.status, headers: response.headers, bytes: new Uint8Array(await response.arrayBuffer()) }
  }
  /** The CSV after its byte-order mark. */
  function csvText(file: Download): string {
    expect([...file.bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    return new TextDecoder().decode(file.bytes.slice(3))
  }
  const records = (...rows: string[]) => rows.map((row) => `${row}\r\n`).join('')
  const exportAudit = (kind: string, runId: number, month: string, format: string) =>
    audit(`export.${kind}`, 'export', month, null, { run_id: runId, company_id: 1, month, format })

  test('the register as CSV: the header row, a row per payslip, a total row; one export.payroll_register entry', async () => {
    const since = await auditCount()
    const file = await download(`${RUNS}/${marchRun}/register?format=csv`)
    expect(file.status).toBe(200)
    expect(file.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(file.headers.get('content-disposition')).toBe(`attachment; filename="payroll-register-1-${MARCH}.csv"`)
    expect(csvText(file)).toBe(
      records(
        'employee_no,name,basic_salary,seniority_pay,allowance,overtime_pay,leave_payout,performance_pay,bonus,other_income,adjustment,absence,unpaid_leave,unpaid_leave_hours,lateness,gross,personal_insurance,housing_fund,personal_tax,other_deductions,deductions,net,employer_contributions',
        'A01,Ann One,9000.00,500.00,1000.00,0.00,0.00,0.00,2000.00,0.00,0.00,0.00,0.00,0.00,0.00,12500.00,0.00,0.00,225.00,100.00,325.00,12175.00,0.00',
        'A02,Bob Two,7000.00,0.00,0.00,0.00,0.00,0.00,0.00,0.00,0.00,321.84,0.00,0.00,0.00,6678.16,0.00,0.00,50.34,0.00,50.34,6627.82,0.00',
        'A03,Carl Three,6000.00,0.00,0.00,0.00,0.00,0.00,0.00,0.00,0.00,275.86,0.00,0.00,0.00,5724.14,0.00,0.00,21.72,0.00,21.72,5702.42,0.00',
        'H01,Hana Hr,8000.00,0.00,0.00,0.00,0.00,0.00,0.00,0.00,0.00,0.00,0.00,0.00,0.00,8000.00,0.00,0.00,90.00,0.00,90.00,7910.00,0.00',
        'O01,Olga Owner,20000.00,0.00,0.00,0.00,0.00,0.00,0.00,0.00,0.00,0.00,0.00,0.00,0.00,20000.00,0.00,0.00,450.00,0.00,450.00,19550.00,0.00',
        // 9000 + 7000 + 6000 + 8000 + 20000; absence 321.84 + 275.86; the totals of the run
        'total,,50000.00,500.00,1000.00,0.00,0.00,0.00,2000.00,0.00,0.00,597.70,0.00,0.00,0.00,52902.30,0.00,0.00,837.06,100.00,937.06,51965.24,0.00',
      ),
    )
    expect(await auditSince(since)).toEqual([exportAudit('payroll_register', marchRun, MARCH, 'csv')])
  })

  test('the bank transfer list of a draft run → 409; nothing audited', async () => {
    const april = (await ok('GET', `${RUNS}?company_id=1&status=draft`)).runs[0]
    expect(april.month).toBe(APRIL)
    const since = await auditCount()
    const reply = await req(t.app, 'GET', `${RUNS}/${april.id}/bank-transfers?format=csv`, { token: admin })
    expect([reply.status, reply.body]).toEqual([409, at(409, 'The payroll run of Acme for 2025-04 is a draft: its bank transfer list is made once it is approved')])
    expect(await auditCount()).toBe(since)
  })

  test('the bank transfer list of the approved run as CSV: employee_no, name, bank_account, net and the total; one export.bank_transfers entry', async () => {
    const since = await auditCount()
    const file = await download(`${RUNS}/${marchRun}/bank-transfers?format=csv`)
    expect(file.status).toBe(200)
    expect(file.headers.get('content-disposition')).toBe(`attachment; filename="bank-transfers-1-${MARCH}.csv"`)
    expect(csvText(file)).toBe(
      records(
        'employee_no,name,bank_account,net',
        'A01,Ann One,6222 0000 0001,12175.00',
        'A02,Bob Two,6222 0000 0002,6627.82',
        'A03,Carl Three,6222 0000 0003,5702.42',
        'H01,Hana Hr,6222 0000 0004,7910.00',
        'O01,Olga Owner,6222 0000 0005,19550.00',
        'total,,,51965.24',
      ),
    )
    expect(await auditSince(since)).toEqual([exportAudit('bank_transfers', marchRun, MARCH, 'csv')])
  })

  test('XLSX (also the default format) answers 200 with the XLSX content type; each download one entry', async () => {
    const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'
    const since = await auditCount()
    for (const path of [`${RUNS}/${marchRun}/register?format=xlsx`, `${RUNS}/${marchRun}/bank-transfers?format=xlsx`, `${RUNS}/${marchRun}/register`]) {
      const file = await download(path)
      expect([path, file.status, file.headers.get('content-type')]).toEqual([path, 200, XLSX])
      // a ZIP archive
      expect([...file.bytes.slice(0, 2)]).toEqual([0x50, 0x4b])
    }
    expect(await auditSince(since)).toEqual([
      exportAudit('payroll_register', marchRun, MARCH, 'xlsx'),
      exportAudit('bank_transfers', marchRun, MARCH, 'xlsx'),
      exportAudit('payroll_register', marchRun, MARCH, 'xlsx'),
    ])
  })
})

// ---------------------------------------------------------------------------------------------

describe('the employee’s own payslips', () => {
  const annMarch = () => annWithInputs(marchRun, 21, 'approved')

  test('GET /payslips?year= → only the caller’s approved payslips (not April’s draft)', async () => {
    const reply = await req(t.app, 'GET', '/api/v1/payslips?year=2025', { token: annToken })
    expect(reply.body).toEqual(okAt({ payslips: [annMarch()] }))
    expect((await req(t.app, 'GET', '/api/v1/payslips?year=2024', { token: annToken })).body).toEqual(okAt({ payslips: [] }))
    expect((await req(t.app, 'GET', '/api/v1/payslips', { token: annToken })).body).toEqual(okAt({ payslips: [annMarch()] }))
  })

  test('GET /payslips/{month} → the payslip; a month without an approved one → 404', async () => {
    expect((await req(t.app, 'GET', `/api/v1/payslips/${MARCH}`, { token: annToken })).body).toEqual(okAt(annMarch()))
    const april = await req(t.app, 'GET', `/api/v1/payslips/${APRIL}`, { token: annToken })
    expect([april.status, april.body]).toEqual([404, at(404, 'You have no approved payslip for 2025-04')])
  })

  test('Accept-Language: zh → the lines’ labels in Chinese', async () => {
    const reply = await req(t.app, 'GET', `/api/v1/payslips/${MARCH}`, { token: annToken, headers: { 'accept-language': 'zh' } })
    const labels = ['基本工资', '工龄工资', '津贴', '奖金', '个人所得税', '其他扣款']
    const expected = annMarch()
    expect(reply.body.data).toEqual({ ...expected, lines: (expected.lines as object[]).map((l, i) => ({ ...l, label: labels[i] })) })
  })

  test('an account not linked to an employee → 403 (list and month)', async () => {
    const NOT_LINKED = at(403, 'Your account is not linked to an employee, so it has no payslips; ask an administrator to link it')
    const list = await req(t.app, 'GET', '/api/v1/payslips?year=2025', { token: admin })
    expect([list.status, list.body]).toEqual([403, NOT_LINKED])
    const month = await req(t.app, 'GET', `/api/v1/payslips/${MARCH}`, { token: admin })
    expect([month.status, month.body]).toEqual([403, NOT_LINKED])
  })
})

// ---------------------------------------------------------------------------------------------

let betaRunId = 0
const betaRun = () => betaRunId

describe('two approvals at once, over two app instances on the same database', () => {
  let b: TestApp
  let betaRun: number

  beforeAll(async () => {
    b = await startApp({ dir: t.dir, now: NOW })
    betaRun = betaRunId = (await ok('POST', RUNS, { company_id: 2, month: MARCH }, 201)).id
  })
  afterAll(() => b?.close())

  test('Beta’s March: Zed and Yan (calendar days, no attendance group)', async () => {
    expect(await payslipsOf(betaRun)).toEqual([
      // 5000.00 − 5000.00 = 0: no tax
      payslip('zed', betaRun, { gross: 5000, deductions: 0, net: 5000, lines: [...profileLines('zed', 31), marchTax('5000.00', '0.00', '0.00')] }),
      // 7000.00 × 0.03
      payslip('yan', betaRun, { gross: 12000, deductions: 210, net: 11790, lines: [...profileLines('yan', 31), marchTax('12000.00', '7000.00', '210.00')] }),
    ])
  })

  test('exactly one 200 and one 409; exactly one salary record per payslip; one approve entry', async () => {
    const since = await auditCount()
    const replies = await Promise.all([t, b].map((app) => req(app.app, 'POST', `${RUNS}/${betaRun}/approve`, { token: admin })))
    const statuses = replies.map((reply) => reply.status).sort()
    expect(statuses).toEqual([200, 409])
    expect(replies.find((reply) => reply.status === 200)!.body.data).toMatchObject({ id: betaRun, status: 'approved', approved_by: { id: 1, username: 'admin' } })
    const refused = replies.find((reply) => reply.status === 409)!
    expect(refused.body).toEqual(at(409, 'The payroll run of Beta for 2025-03 is approved and locked; changes to that month go into the next month’s run as adjustments'))
    expect((await salaryRowsOf(betaRun)).map((row) => [row.employeeId, row.netSalary])).toEqual([
      [ids.zed, 500000],
      [ids.yan, 1179000],
    ])
    const entries = (await auditSince(since)).filter((entry) => entry.action === 'payroll_run.approve')
    expect(entries).toHaveLength(1)
    expect(await runStatus(betaRun)).toBe('approved')
  })
})

describe('an employee who moved to another company within a paid month', () => {
  let deltaRun: number
  let payslipId: number

  beforeAll(async () => {
    const delta = (await ok('POST', '/api/v1/admin/companies', { name: 'Delta' }, 201)).id
    await ok('PUT', `/api/v1/admin/employees/${ids.zed}`, { company_id: delta })
    deltaRun = (await ok('POST', RUNS, { company_id: delta, month: MARCH }, 201)).id
    payslipId = (await payslipsOf(deltaRun))[0].id
  })

  test('approving the new company’s run → 409 naming the record Beta’s run wrote; nothing written', async () => {
    const before = await tableRows(t)
    const reply = await req(t.app, 'POST', `${RUNS}/${deltaRun}/approve`, { token: admin })
    const record = (await salaryRowsOf(betaRun())).find((row) => row.employeeId === ids.zed)!.id
    expect(reply.body).toEqual(
      at(
        409,
        `Zed Beta (B01) already has a salary record for 2025-03 (record ${record}), written by payroll run ${betaRun()}; a month is paid once: leave them out of this run (correct their company or leaving date and recompute)`,
      ),
    )
    expect(await tableRows(t)).toEqual(before)
  })

  test('inputs for someone the run no longer pays → 409 asking for a recompute; nothing stored', async () => {
    await ok('PUT', `/api/v1/admin/employees/${ids.zed}`, { company_id: 2 })
    const before = await tableRows(t)
    const reply = await req(t.app, 'PUT', `${RUNS}/${deltaRun}/payslips/${payslipId}/inputs`, { token: admin, body: { bonus: 1000 } })
    expect(reply.body).toEqual(
      at(409, 'The payroll run of Delta for 2025-03 no longer pays Zed Beta (B01) (their hire or leaving date, company or pay profile changed): recompute the run'),
    )
    expect(await tableRows(t)).toEqual(before)
  })
})

// ---------------------------------------------------------------------------------------------

describe('employees’ left_on', () => {
  test('a real left_on shows in the employee body', () => {
    expect(leeCreated).toEqual({
      id: ids.lee,
      employee_no: 'A08',
      name: 'Lee Left',
      phone: null,
      email: null,
      department_id: null,
      department: null,
      company_id: 1,
      position: null,
      hire_date: '2024-01-02',
      left_on: '2025-02-27',
      work_start_date: null,
      status: 0,
      user_id: null,
      attendance_group_id: null,
      manager_id: null,
      created_at: SETUP,
      updated_at: SETUP,
    })
  })

  test('POST with left_on before hire_date → 400 naming left_on; nobody created', async () => {
    const before = await auditCount()
    const reply = await req(t.app, 'POST', '/api/v1/admin/employees', { token: admin, body: { name: 'Early Leaver', hire_date: '2025-02-01', left_on: '2025-01-31' } })
    expect([reply.status, reply.body]).toEqual([400, at(400, 'left_on 2025-01-31 is before the hire date 2025-02-01', { errors: [{ field: 'left_on', message: 'is before the hire date' }] })])
    expect(await auditCount()).toBe(before)
  })

  test('PUT with left_on before the hire date (kept or sent) → 400 naming left_on; a real one is set', async () => {
    const kept = await req(t.app, 'PUT', `/api/v1/admin/employees/${ids.pat}`, { token: admin, body: { left_on: '2023-12-31' } })
    expect([kept.status, kept.body]).toEqual([400, at(400, 'left_on 2023-12-31 is before the hire date 2024-01-02', { errors: [{ field: 'left_on', message: 'is before the hire date' }] })])
    const sent = await req(t.app, 'PUT', `/api/v1/admin/employees/${ids.pat}`, { token: admin, body: { hire_date: '2025-06-01', left_on: '2025-05-31' } })
    expect([sent.status, sent.body]).toEqual([400, at(400, 'left_on 2025-05-31 is before the hire date 2025-06-01', { errors: [{ field: 'left_on', message: 'is before the hire date' }] })])
    const set = await ok('PUT', `/api/v1/admin/employees/${ids.pat}`, { left_on: '2025-06-30' })
    expect(set).toMatchObject({ id: ids.pat, hire_date: '2024-01-02', left_on: '2025-06-30' })
    expect((await ok('GET', `/api/v1/admin/employees/${ids.pat}`)).left_on).toBe('2025-06-30')
  })

  test('PUT moving hire_date after the left_on kept → 400; nothing changes', async () => {
    const reply = await req(t.app, 'PUT', `/api/v1/admin/employees/${ids.lee}`, { token: admin, body: { hire_date: '2025-03-01' } })
    expect(reply.status).toBe(400)
    expect(reply.body.errors.map((e: { field: string }) => e.field)).toEqual(['left_on'])
    expect(await ok('GET', `/api/v1/admin/employees/${ids.lee}`)).toEqual(leeCreated)
  })
})
