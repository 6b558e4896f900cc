import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { asc, count, eq, sql } from 'drizzle-orm'
import { auditLogs, contributionSchemeItems, contributionSchemes, taxDeductions } from '../src/db/schema'
import { errorBody, login, loginAdmin, makeUser, req, startApp, tableRows, type TestApp } from './helpers'
import { must, shanghai, source, taxFormula } from './payroll-fixtures'

/*
 * Contribution schemes, declarations of special additional deductions and the tax summary over
 * HTTP (CONTRACT §17, issue 29; /tmp/wf29/api.md): whole bodies, what is stored, the audit
 * entries, and what a refusal leaves alone. The figures are small and worked out by hand below.
 *
 * ─── The clock: 10 December 2024, 10:00 in Shanghai, fixed (March and September are past; "this year" is 2024) ───
 *
 * Acme (company 1) pays Ann (A01), Bob (A02) and Dee (A03); Beta (company 2) pays Cal (B01). Nobody
 * is in an attendance group: the profile lines are prorated by calendar days over the whole month
 * (n ÷ n) and nothing is deducted for attendance, so gross = basic salary.
 *
 * ─── The schemes of the chain (a city's chain is its name) ───
 *   Town 2024-01:    pension 0.08 / 0.16 on 5000–20000; housing_fund 0.05 / 0.05 on 3000–20000
 *   Town 2024-07:    pension 0.08 / 0.16 on 12000–30000; medical 0.02 / 0.10 + 3.00 fixed on 5000–9000;
 *                    housing_fund 0.07 / 0.07 on 3000–30000
 *   Village 2024-09: pension 0.5 / 0.5 on 0–100000 (another name, the run's very month: never Town's)
 *   Harbor 2024-07:  pension 0.08 / 0.16 on 5000–20000 (nothing of the name before July)
 *   Coast 2024-01:   pension 0.08 / 0.16 on 5000–20000
 *
 * ─── Profiles (from 2024-01) ───
 *   Ann 10000, both bases 10000, scheme_id Town 2024-01
 *   Bob  8000, both bases 8000,  scheme_id Harbor 2024-07
 *   Dee  9000, no scheme; declared for 2024 from 2024-06: children_education 1000 (1 child) +
 *        housing_rent 1500 = 2500 a month
 *   Cal  7000, both bases 7000,  scheme_id Coast 2024-01
 *
 * ─── Acme, September 2024 (run created first: no approved payslip of 2024 yet, so n = 1) ───
 *   Ann, Town 2024-07 (the latest Town ≤ 2024-09; Village is never looked at):
 *     pension max(10000.00, 12000.00) × 0.08 = 960.00; medical min(10000.00, 9000.00) × 0.02 + 3.00 = 183.00
 *     → personal_insurance 1143.00; housing_fund 10000.00 × 0.07 = 700.00
 *     employer 12000 × 0.16 = 1920.00; 9000 × 0.10 = 900.00; 10000 × 0.07 = 700.00 → 3520.00
 *     tax (10000 − 5000 − 1843) = 3157.00 × 0.03 = 94.71; net 10000 − 1843 − 94.71 = 8062.29
 *   Bob, Harbor 2024-07: pension 8000.00 × 0.08 = 640.00; employer 8000.00 × 0.16 = 1280.00
 *     tax 2360.00 × 0.03 = 70.80; net 7289.20
 *   Dee, no scheme; special 2500.00 × 1 (from_month June ≤ September, first month September)
 *     tax (9000 − 5000 − 2500) = 1500.00 × 0.03 = 45.00; net 8955.00
 *   Run: gross 27000; employee contributions 1843 + 640 = 2483; employer 3520 + 1280 = 4800;
 *     tax 94.71 + 70.80 + 45.00 = 210.51; deductions 2693.51; net 24306.49
 *
 * ─── Acme, March 2024 ───
 *   Ann, Town 2024-01: pension 10000.00 × 0.08 = 800.00; housing_fund 10000.00 × 0.05 = 500.00;
 *     employer 1600.00 + 500.00 = 2100.00; tax 3700.00 × 0.03 = 111.00; net 8589.00
 *   Bob: Harbor starts in July: no contribution lines at all; tax 3000.00 × 0.03 = 90.00; net 7910.00
 *   Dee: her declaration starts in June: not counted; tax 4000.00 × 0.03 = 120.00; net 8880.00
 *   Run: gross 27000; employee contributions 1300; employer 2100; tax 321.00; deductions 1621.00; net 25379.00
 *
 * ─── Beta, May 2024 (approved) ───
 *   Cal, Coast 2024-01: pension 7000.00 × 0.08 = 560.00; employer 1120.00; tax 1440.00 × 0.03 = 43.20; net 6396.80
 */

const NOW = shanghai('2024-12-10T10:00')
const LATER = shanghai('2024-12-10T10:01')
const SCHEMES = '/api/v1/admin/payroll/schemes'
const RUNS = '/api/v1/admin/payroll/runs'
const SUMMARY = '/api/v1/admin/payroll/tax-summary'
const OWN_SUMMARY = '/api/v1/payslips/tax-summary'
const ZH = { 'accept-language': 'zh' }

/** errorBody() stamps test/helpers.ts's NOW; this file's clock is another. */
const at = (code: number, message: string, extra: Record<string, unknown> = {}) => ({ ...errorBody(code, message, extra), timestamp: NOW })
const okAt = (data: unknown, message = 'success') => ({ code: 200, message, data, timestamp: NOW })

let t: TestApp
let admin: string
let annToken: string
let reader: { id: number; token: string }
let nobody: { id: number; token: string }
const ids = { ann: 0, bob: 0, dee: 0, cal: 0 }

const ok = (method: string, path: string, body?: unknown, status = 200) => must(t, admin, method, path, body, status)
const declarations = (employeeId: number, year?: number) => `/api/v1/admin/employees/${employeeId}/tax-deductions${year === undefined ? '' : `/${year}`}`

const auditCount = async () => (await t.deps.database.db.select({ n: count() }).from(auditLogs))[0].n
/** The audit rows written after the first `since`, without their ids. */
const auditSince = async (since: number) =>
  (await t.deps.database.db.select().from(auditLogs).orderBy(asc(auditLogs.id))).slice(since).map(({ id: _id, ...entry }) => entry)
const audit = (action: string, resource: string, resourceId: number, before: unknown, after: unknown, when = NOW) => ({
  actorId: 1,
  action,
  resource,
  resourceId: String(resourceId),
  before,
  after,
  ip: null,
  createdAt: new Date(when),
})

/** SQLite's message for a refused statement (Drizzle wraps it as the cause of its own), or null when the statement ran. */
async function refusal(statement: ReturnType<typeof sql>): Promise<string | null> {
  try {
    await t.deps.database.db.run(statement)
    return null
  } catch (error) {
    return String((error as { cause?: Error }).cause?.message ?? error)
  }
}

// ---------------------------------------------------------------------------------------------
// expected bodies

type ItemIn = { code: string; employee_rate: number; employer_rate: number; base_min: number; base_max: number; employee_fixed?: number }
const item = (code: string, employee_rate: number, employer_rate: number, base_min: number, base_max: number, employee_fixed?: number): ItemIn => ({
  code,
  employee_rate,
  employer_rate,
  base_min,
  base_max,
  ...(employee_fixed === undefined ? {} : { employee_fixed }),
})
/** An item as the API answers it: employee_fixed 0 when it was left out. */
const itemOut = (i: ItemIn) => ({ employee_fixed: 0, ...i })
const scheme = (id: number, name: string, effectiveFrom: string, items: ItemIn[], updatedAt = NOW) => ({
  id,
  name,
  effective_from: effectiveFrom,
  items: items.map(itemOut),
  created_at: NOW,
  updated_at: updatedAt,
})

const declaration = (id: number, employeeId: number, year: number, values: Record<string, number | string>, updatedAt = NOW) => {
  const amounts = { children_education: 0, infant_care: 0, continuing_education: 0, housing_loan_interest: 0, housing_rent: 0, elderly_support: 0 }
  const filled = { from_month: `${year}-01`, ...amounts, children: 0, ...values }
  const total = (Object.keys(amounts) as (keyof typeof amounts)[]).reduce((sum, key) => sum + Math.round(Number(filled[key]) * 100), 0) / 100
  return { id, employee_id: employeeId, year, ...filled, monthly_total: total, created_at: NOW, updated_at: updatedAt }
}

const NO_INPUTS = { performance_pay: 0, bonus: 0, other_income: 0, other_deductions: 0, note: '' }

type Source = { kind: string; id: number }
/** A payslip line as the API shows it, all of it but `inputs` when left out. */
const line = (code: string, label: string, kind: string, amount: number, formula: string, sources: Source[], inputs: unknown = expect.any(Object)) => ({
  code,
  label,
  kind,
  amount,
  formula,
  inputs,
  sources,
})
const basic = (who: keyof typeof ids, amount: number, days: number, profileId: number) =>
  line('basic_salary', 'Basic salary', 'income', amount, `${amount.toFixed(2)} × ${days} ÷ ${days} = ${amount.toFixed(2)}`, [source('pay_profile', profileId)])
const tax = (amount: number, formula: string, sources: Source[] = [], inputs: unknown = expect.any(Object)) =>
  line('personal_tax', 'Individual income tax', 'deduction', amount, formula, sources, inputs)
const firstMonthTax = (gross: string, contributions: string, taxable: string, amount: string) =>
  taxFormula({ gross, months: 1, contributions, taxable, rate: '0.03', quick: '0.00', cumulativeTax: amount, withheld: '0.00', tax: amount })

const PEOPLE = {
  ann: { name: 'Ann One', no: 'A01' },
  bob: { name: 'Bob Two', no: 'A02' },
  dee: { name: 'Dee Three', no: 'A03' },
  cal: { name: 'Cal Beta', no: 'B01' },
}
const payslip = (who: keyof typeof ids, runId: number, month: string, p: { gross: number; deductions: number; net: number; lines: ReturnType<typeof line>[]; status?: string }) => ({
  id: expect.any(Number),
  run_id: runId,
  employee: { id: ids[who], name: PEOPLE[who].name, employee_no: PEOPLE[who].no },
  month,
  status: p.status ?? 'draft',
  gross: p.gross,
  deductions: p.deductions,
  net: p.net,
  lines: p.lines,
  inputs: NO_INPUTS,
  flags: [],
})

// ---------------------------------------------------------------------------------------------
// setup

beforeAll(async () => {
  t = await startApp({ now: NOW })
  admin = await loginAdmin(t.app)
  for (const name of ['Acme', 'Beta']) await ok('POST', '/api/v1/admin/companies', { name, timezone: 'Asia/Shanghai' }, 201)
  // a role that reads payroll and no more
  await ok('POST', '/api/v1/admin/roles', { name: 'payroll_reader' }, 201)
  await ok('POST', '/api/v1/admin/roles/permissions/add', { role_name: 'payroll_reader', permission_name: 'payroll:read' })
  reader = await makeUser(t.app, admin, 'reader', ['payroll_reader'])
  nobody = await makeUser(t.app, admin, 'nobody', [])

  const employee = (who: keyof typeof ids, company: number, extra: Record<string, unknown> = {}) =>
    ok('POST', '/api/v1/admin/employees', { name: PEOPLE[who].name, employee_no: PEOPLE[who].no, company_id: company, hire_date: '2023-01-02', ...extra }, 201)
  ids.ann = (await employee('ann', 1, { username: 'ann', password: 'ann-password-1' })).id
  ids.bob = (await employee('bob', 1)).id
  ids.dee = (await employee('dee', 1)).id
  // the reader's account is Cal's
  ids.cal = (await employee('cal', 2, { user_id: reader.id })).id
  annToken = await login(t.app, 'ann', 'ann-password-1')
}, 30_000)

afterAll(() => t?.close())

// ---------------------------------------------------------------------------------------------

describe('contribution schemes: create, read, replace', () => {
  // the items sent in no particular order; answered in code order
  const METRO_ITEMS = [
    item('housing_fund', 0.07, 0.07, 2690, 36921),
    item('work_injury', 0, 0.0016, 7384, 36921),
    item('pension', 0.08, 0.16, 7384, 36921),
    item('maternity', 0, 0.01, 7384, 36921),
    item('medical', 0.02, 0.1, 7384, 36921, 3),
    item('unemployment', 0.005, 0.005, 7384.5, 36921.25),
  ]
  const IN_CODE_ORDER = [2, 4, 5, 1, 3, 0].map((i) => METRO_ITEMS[i])
  const METRO_2025 = [item('pension', 0.08, 0.16, 7460, 37302), item('medical', 0.02, 0.09, 7460, 37302), item('housing_fund', 0.07, 0.07, 2690, 37302)]
  let metro: ReturnType<typeof scheme>
  let metro2025: ReturnType<typeof scheme>
  let alpha: ReturnType<typeof scheme>
  let zeta: ReturnType<typeof scheme>

  test('POST → 201 the whole scheme: items in code order, employee_fixed 0 when left out, rates as numbers; one contribution_scheme.create entry', async () => {
    const since = await auditCount()
    const reply = await req(t.app, 'POST', SCHEMES, { token: admin, body: { name: 'Metro', effective_from: '2024-01', items: METRO_ITEMS } })
    metro = scheme(reply.body.data?.id, 'Metro', '2024-01', IN_CODE_ORDER)
    expect(reply.status).toBe(201)
    expect(reply.body).toEqual(okAt(metro, 'Contribution scheme created'))
    expect(reply.body.data.items.map((i: { code: string }) => i.code)).toEqual(['pension', 'medical', 'unemployment', 'work_injury', 'maternity', 'housing_fund'])
    expect(await auditSince(since)).toEqual([audit('contribution_scheme.create', 'contribution_scheme', metro.id, null, metro)])
    // stored as ten-thousandths and fen
    const stored = await t.deps.database.db
      .select({ code: contributionSchemeItems.code, employeeRate: contributionSchemeItems.employeeRate, employerRate: contributionSchemeItems.employerRate, baseMin: contributionSchemeItems.baseMin, baseMax: contributionSchemeItems.baseMax, employeeFixed: contributionSchemeItems.employeeFixed })
      .from(contributionSchemeItems)
      .where(eq(contributionSchemeItems.schemeId, metro.id))
      .orderBy(asc(contributionSchemeItems.code))
    expect(stored).toEqual([
      { code: 'housing_fund', employeeRate: 700, employerRate: 700, baseMin: 269000, baseMax: 3692100, employeeFixed: 0 },
      { code: 'maternity', employeeRate: 0, employerRate: 100, baseMin: 738400, baseMax: 3692100, employeeFixed: 0 },
      { code: 'medical', employeeRate: 200, employerRate: 1000, baseMin: 738400, baseMax: 3692100, employeeFixed: 300 },
      { code: 'pension', employeeRate: 800, employerRate: 1600, baseMin: 738400, baseMax: 3692100, employeeFixed: 0 },
      { code: 'unemployment', employeeRate: 50, employerRate: 50, baseMin: 738450, baseMax: 3692125, employeeFixed: 0 },
      { code: 'work_injury', employeeRate: 0, employerRate: 16, baseMin: 738400, baseMax: 3692100, employeeFixed: 0 },
    ])
  })

  test('GET list: by name, then the newest effective_from first', async () => {
    metro2025 = scheme((await ok('POST', SCHEMES, { name: 'Metro', effective_from: '2025-01', items: METRO_2025 }, 201)).id, 'Metro', '2025-01', METRO_2025)
    zeta = scheme((await ok('POST', SCHEMES, { name: 'Zeta', effective_from: '2023-01', items: [item('pension', 0.08, 0.16, 1, 2)] }, 201)).id, 'Zeta', '2023-01', [item('pension', 0.08, 0.16, 1, 2)])
    // a rate of 1 and a rate of 0 are rates
    const alphaItems = [item('pension', 1, 0, 0, 0)]
    alpha = scheme((await ok('POST', SCHEMES, { name: 'Alpha', effective_from: '2024-07', items: alphaItems }, 201)).id, 'Alpha', '2024-07', alphaItems)
    expect((await req(t.app, 'GET', SCHEMES, { token: admin })).body).toEqual(okAt({ schemes: [alpha, metro2025, metro, zeta] }))
  })

  test('GET one → the scheme', async () => {
    expect((await req(t.app, 'GET', `${SCHEMES}/${metro.id}`, { token: admin })).body).toEqual(okAt(metro))
  })

  test('PUT replaces the whole scheme: items left out disappear (also from the database), created_at kept; contribution_scheme.update with before and after', async () => {
    t.clock.set(LATER)
    try {
      const since = await auditCount()
      const items = [item('pension', 0.085, 0.15, 7460, 37302)]
      const reply = await req(t.app, 'PUT', `${SCHEMES}/${metro2025.id}`, { token: admin, body: { name: 'Metro', effective_from: '2025-01', items } })
      const replaced = scheme(metro2025.id, 'Metro', '2025-01', items, LATER)
      expect(reply.status).toBe(200)
      expect(reply.body).toEqual({ ...okAt(replaced, 'Contribution scheme saved'), timestamp: LATER })
      expect(await auditSince(since)).toEqual([audit('contribution_scheme.update', 'contribution_scheme', metro2025.id, metro2025, replaced, LATER)])
      const rows = await t.deps.database.db.select({ code: contributionSchemeItems.code }).from(contributionSchemeItems).where(eq(contributionSchemeItems.schemeId, metro2025.id))
      expect(rows).toEqual([{ code: 'pension' }])
      metro2025 = replaced
      expect((await req(t.app, 'GET', `${SCHEMES}/${metro2025.id}`, { token: admin })).body).toEqual({ ...okAt(metro2025), timestamp: LATER })
    } finally {
      t.clock.set(NOW)
    }
  })

  test('GET, PUT and DELETE of a scheme that does not exist → 404; nothing written', async () => {
    const before = await tableRows(t)
    const body = { name: 'Nowhere', effective_from: '2024-01', items: [item('pension', 0.08, 0.16, 0, 1)] }
    for (const [method, payload] of [['GET', undefined], ['PUT', body], ['DELETE', undefined]] as const) {
      const reply = await req(t.app, method, `${SCHEMES}/9999`, { token: admin, body: payload })
      expect([method, reply.status, reply.body]).toEqual([method, 404, at(404, 'Contribution scheme 9999 does not exist')])
    }
    expect(await tableRows(t)).toEqual(before)
  })

  test('a second scheme of the same name and effective_from → 409 naming the existing one (POST and PUT); nothing written', async () => {
    const before = await tableRows(t)
    const taken = `A contribution scheme named Metro from 2024-01 already exists (scheme ${metro.id}); edit that one, or give the new one another month`
    const post = await req(t.app, 'POST', SCHEMES, { token: admin, body: { name: 'Metro', effective_from: '2024-01', items: [item('pension', 0.08, 0.16, 1, 2)] } })
    expect([post.status, post.body]).toEqual([409, at(409, taken)])
    const put = await req(t.app, 'PUT', `${SCHEMES}/${metro2025.id}`, { token: admin, body: { name: 'Metro', effective_from: '2024-01', items: [item('pension', 0.08, 0.16, 1, 2)] } })
    expect([put.status, put.body]).toEqual([409, at(409, taken)])
    expect(await tableRows(t)).toEqual(before)
  })

  test('PUT keeping its own name and month is no conflict', async () => {
    const items = [item('pension', 0.085, 0.15, 7460, 37302)]
    expect(await ok('PUT', `${SCHEMES}/${metro2025.id}`, { name: 'Metro', effective_from: '2025-01', items })).toEqual({ ...metro2025, updated_at: NOW })
    metro2025 = { ...metro2025, updated_at: NOW }
  })

  // ---- 400: every field at fault named in one reply; nothing stored, no audit ----
  const VALID = item('pension', 0.08, 0.16, 5000, 20000)
  const invalid = (problems: [field: string, message: string][]) =>
    at(400, `The contribution scheme is not valid: ${problems.map(([field]) => field).join(', ')}`, { errors: problems.map(([field, message]) => ({ field, message })) })
  const RATE = 'a decimal from 0 to 1 with at most 4 places (8 % is 0.08)'
  const CASES: [string, unknown, unknown][] = [
    ['a rate with 5 decimals (0.08001)', { name: 'Bad', effective_from: '2024-01', items: [{ ...VALID, employee_rate: 0.08001 }] }, invalid([['items[0].employee_rate', RATE]])],
    ['a rate above 1', { name: 'Bad', effective_from: '2024-01', items: [{ ...VALID, employer_rate: 1.5 }] }, invalid([['items[0].employer_rate', RATE]])],
    ['a negative rate', { name: 'Bad', effective_from: '2024-01', items: [{ ...VALID, employee_rate: -0.08 }] }, invalid([['items[0].employee_rate', RATE]])],
    ['base_max below base_min', { name: 'Bad', effective_from: '2024-01', items: [{ ...VALID, base_min: 5000, base_max: 4999.99 }] }, invalid([['items[0].base_max', 'must not be below base_min']])],
    ['a code twice', { name: 'Bad', effective_from: '2024-01', items: [VALID, item('medical', 0.02, 0.1, 1, 2), VALID] }, invalid([['items[2].code', 'appears more than once in the scheme']])],
    ['a negative amount', { name: 'Bad', effective_from: '2024-01', items: [{ ...VALID, base_min: -1 }] }, invalid([['items[0].base_min', 'must not be negative']])],
    ['an amount with 3 decimals', { name: 'Bad', effective_from: '2024-01', items: [{ ...VALID, employee_fixed: 3.005 }] }, invalid([['items[0].employee_fixed', 'must have at most 2 decimals (whole fen)']])],
    ['an empty name', { name: '', effective_from: '2024-01', items: [VALID] }, invalid([['name', 'must not be empty']])],
    ['a blank name', { name: '   ', effective_from: '2024-01', items: [VALID] }, invalid([['name', 'must not be empty']])],
    // the field's rule without its name said twice (as for effective_from: "must be a month written YYYY-MM");
    // the rule sits at a nested path, so it does not name its field: the path is said once
    [
      'an unknown code',
      { name: 'Bad', effective_from: '2024-01', items: [{ ...VALID, code: 'dental' }] },
      at(400, 'Invalid request: items.0.code must be one of pension, medical, unemployment, work_injury, maternity, housing_fund', {
        errors: [{ field: 'items.0.code', message: 'must be one of pension, medical, unemployment, work_injury, maternity, housing_fund' }],
      }),
    ],
    ['no items', { name: 'Bad', effective_from: '2024-01', items: [] }, at(400, 'Invalid request: items must have at least 1 item', { errors: [{ field: 'items', message: 'must have at least 1 item' }] })],
    [
      'everything at once',
      {
        name: '  ',
        effective_from: '2024-01',
        items: [
          { ...VALID, employee_rate: 0.08001, employer_rate: 1.5, base_min: 5000, base_max: 4000 },
          { ...VALID, code: 'medical', base_min: -1, base_max: 100.005 },
          { ...VALID, employee_fixed: 3.005 },
        ],
      },
      invalid([
        ['name', 'must not be empty'],
        ['items[0].employee_rate', RATE],
        ['items[0].employer_rate', RATE],
        ['items[0].base_max', 'must not be below base_min'],
        ['items[1].base_min', 'must not be negative'],
        ['items[1].base_max', 'must have at most 2 decimals (whole fen)'],
        ['items[2].code', 'appears more than once in the scheme'],
        ['items[2].employee_fixed', 'must have at most 2 decimals (whole fen)'],
      ]),
    ],
  ]
  for (const [what, body, expected] of CASES)
    test(`POST with ${what} → 400 naming each field at fault; nothing stored, no audit`, async () => {
      const before = await tableRows(t)
      const reply = await req(t.app, 'POST', SCHEMES, { token: admin, body })
      expect(await tableRows(t)).toEqual(before)
      expect([reply.status, reply.body]).toEqual([400, expected])
    })

  test('PUT with faults → 400 naming them; the scheme is unchanged, no audit', async () => {
    const before = await tableRows(t)
    const reply = await req(t.app, 'PUT', `${SCHEMES}/${metro.id}`, {
      token: admin,
      body: { name: 'Metro', effective_from: '2024-01', items: [{ ...VALID, employee_rate: 0.08001 }, { ...VALID, code: 'medical', base_max: 1 }] },
    })
    expect([reply.status, reply.body]).toEqual([
      400,
      invalid([
        ['items[0].employee_rate', RATE],
        ['items[1].base_max', 'must not be below base_min'],
      ]),
    ])
    expect(await tableRows(t)).toEqual(before)
    expect(await ok('GET', `${SCHEMES}/${metro.id}`)).toEqual(metro)
  })

  test('DELETE a scheme nothing uses → data null; it and its items are gone; one contribution_scheme.delete entry', async () => {
    const since = await auditCount()
    const reply = await req(t.app, 'DELETE', `${SCHEMES}/${alpha.id}`, { token: admin })
    expect([reply.status, reply.body]).toEqual([200, okAt(null, 'Contribution scheme deleted')])
    expect(await auditSince(since)).toEqual([audit('contribution_scheme.delete', 'contribution_scheme', alpha.id, alpha, null)])
    expect((await req(t.app, 'GET', `${SCHEMES}/${alpha.id}`, { token: admin })).status).toBe(404)
    expect(await t.deps.database.db.select().from(contributionSchemeItems).where(eq(contributionSchemeItems.schemeId, alpha.id))).toEqual([])
    expect((await ok('GET', SCHEMES)).schemes).toEqual([metro2025, metro, zeta])
  })

  test('Accept-Language: zh → the 409 and a 400 in Chinese', async () => {
    const conflict = await req(t.app, 'POST', SCHEMES, { token: admin, headers: ZH, body: { name: 'Metro', effective_from: '2024-01', items: [VALID] } })
    expect([conflict.status, conflict.body]).toEqual([409, at(409, `已存在名为 Metro、自 2024-01 起的社保公积金方案（方案 ${metro.id}）；请编辑该方案，或为新方案选择其他月份`)])
    const bad = await req(t.app, 'POST', SCHEMES, { token: admin, headers: ZH, body: { name: ' ', effective_from: '2024-01', items: [{ ...VALID, employee_rate: 0.08001 }] } })
    expect([bad.status, bad.body]).toEqual([
      400,
      at(400, '社保公积金方案无效：name, items[0].employee_rate', {
        errors: [
          { field: 'name', message: '不能为空' },
          { field: 'items[0].employee_rate', message: '必须是 0 到 1 之间、最多四位小数的数（8% 写作 0.08）' },
        ],
      }),
    ])
  })
})

// ---------------------------------------------------------------------------------------------

describe('declarations of special additional deductions', () => {
  let y2025: ReturnType<typeof declaration>
  let y2024: ReturnType<typeof declaration>
  let y2023: ReturnType<typeof declaration>

  test('PUT with nothing → 200 the defaults: from_month January, amounts 0, children 0, monthly_total 0; one tax_deduction.create entry', async () => {
    const since = await auditCount()
    const reply = await req(t.app, 'PUT', declarations(ids.dee, 2025), { token: admin, body: {} })
    y2025 = declaration(reply.body.data?.id, ids.dee, 2025, {})
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual(okAt(y2025, 'Special additional deductions saved'))
    expect(y2025).toMatchObject({ from_month: '2025-01', children_education: 0, housing_rent: 0, children: 0, monthly_total: 0 })
    expect(await auditSince(since)).toEqual([audit('tax_deduction.create', 'tax_deduction', y2025.id, null, y2025)])
  })

  test('PUT → 200 the whole declaration with its monthly_total', async () => {
    const body = { from_month: '2024-06', children_education: 1000, children: 1, housing_rent: 1500 }
    const reply = await req(t.app, 'PUT', declarations(ids.dee, 2024), { token: admin, body })
    y2024 = declaration(reply.body.data?.id, ids.dee, 2024, body)
    expect(y2024.monthly_total).toBe(2500)
    expect(reply.body).toEqual(okAt(y2024, 'Special additional deductions saved'))
  })

  test('every amount at its cap is accepted (children_education + infant_care = 2000 × 2 children)', async () => {
    const body = { children_education: 2000, infant_care: 2000, children: 2, continuing_education: 400, housing_loan_interest: 1000, elderly_support: 3000 }
    const saved = await ok('PUT', declarations(ids.dee, 2023), body)
    y2023 = declaration(saved.id, ids.dee, 2023, body)
    expect(saved).toEqual(y2023)
    expect(saved.monthly_total).toBe(8400)
  })

  test('GET one; GET the list, newest year first', async () => {
    expect((await req(t.app, 'GET', declarations(ids.dee, 2024), { token: admin })).body).toEqual(okAt(y2024))
    expect((await req(t.app, 'GET', declarations(ids.dee), { token: admin })).body).toEqual(okAt({ tax_deductions: [y2025, y2024, y2023] }))
    expect((await req(t.app, 'GET', declarations(ids.ann), { token: admin })).body).toEqual(okAt({ tax_deductions: [] }))
  })

  test('a PUT again replaces the year’s declaration (fields left out are 0 again) and keeps its id and created_at; tax_deduction.update with before and after', async () => {
    t.clock.set(LATER)
    try {
      const since = await auditCount()
      const reply = await req(t.app, 'PUT', declarations(ids.dee, 2023), { token: admin, body: { from_month: '2023-04', elderly_support: 1000.5 } })
      const replaced = declaration(y2023.id, ids.dee, 2023, { from_month: '2023-04', elderly_support: 1000.5 }, LATER)
      expect(reply.body).toEqual({ ...okAt(replaced, 'Special additional deductions saved'), timestamp: LATER })
      expect(await auditSince(since)).toEqual([audit('tax_deduction.update', 'tax_deduction', y2023.id, y2023, replaced, LATER)])
      expect(await t.deps.database.db.select({ id: taxDeductions.id }).from(taxDeductions).where(eq(taxDeductions.employeeId, ids.dee)).orderBy(asc(taxDeductions.id))).toEqual([
        { id: y2025.id },
        { id: y2024.id },
        { id: y2023.id },
      ])
      y2023 = replaced
    } finally {
      t.clock.set(NOW)
    }
  })

  test('an unknown employee → 404 (list, GET, PUT, DELETE); a year without a declaration → 404 (GET, DELETE); nothing written', async () => {
    const before = await tableRows(t)
    for (const [method, path, body] of [
      ['GET', declarations(9999), undefined],
      ['GET', declarations(9999, 2024), undefined],
      ['PUT', declarations(9999, 2024), {}],
      ['DELETE', declarations(9999, 2024), undefined],
    ] as const) {
      const reply = await req(t.app, method, path, { token: admin, body })
      expect([method, path, reply.status, reply.body]).toEqual([method, path, 404, at(404, 'Employee 9999 does not exist')])
    }
    for (const method of ['GET', 'DELETE'] as const) {
      const reply = await req(t.app, method, declarations(ids.dee, 2022), { token: admin })
      expect([method, reply.status, reply.body]).toEqual([method, 404, at(404, `Employee ${ids.dee} has no special additional deductions declared for 2022`)])
    }
    expect(await tableRows(t)).toEqual(before)
  })

  // ---- 400s: nothing stored, no audit ----
  const invalid = (problems: [field: string, message: string][]) =>
    at(400, `The special additional deductions are not valid: ${[...new Set(problems.map(([field]) => field))].join(', ')}`, {
      errors: problems.map(([field, message]) => ({ field, message })),
    })
  const cap = (n: number) => `at most ${n} yuan a month (the 2023 standard)`
  const children = (total: string, n: number) => `children’s education and infant care together at most 2000 yuan a month per child: with ${n} declared, at most ${total} yuan`
  const CASES: [string, number, Record<string, unknown>, unknown][] = [
    ['continuing_education 400.01', 2024, { continuing_education: 400.01 }, invalid([['continuing_education', cap(400)]])],
    ['housing_loan_interest 1000.01', 2024, { housing_loan_interest: 1000.01 }, invalid([['housing_loan_interest', cap(1000)]])],
    ['housing_rent 1500.01', 2024, { housing_rent: 1500.01 }, invalid([['housing_rent', cap(1500)]])],
    ['elderly_support 3000.01', 2024, { elderly_support: 3000.01 }, invalid([['elderly_support', cap(3000)]])],
    [
      'children_education + infant_care above 2,000 × children',
      2024,
      { children_education: 2000, infant_care: 0.01, children: 1 },
      invalid([
        ['children_education', children('2000', 1)],
        ['infant_care', children('2000', 1)],
      ]),
    ],
    ['children_education with children 0', 2024, { children_education: 100 }, invalid([['children_education', children('0', 0)]])],
    ['infant_care 4000.01 for 2 children', 2024, { infant_care: 4000.01, children: 2 }, invalid([['infant_care', children('4000', 2)]])],
    ['housing loan interest and housing rent both above 0', 2024, { housing_loan_interest: 1, housing_rent: 1 }, invalid([['housing_rent', 'housing loan interest and housing rent cannot both be declared; keep one']])],
    ['from_month of another year', 2024, { from_month: '2025-01' }, invalid([['from_month', 'must be a month of 2024']])],
    ['an amount with 3 decimals and a negative one', 2024, { housing_rent: 10.005, elderly_support: -1 }, invalid([['housing_rent', 'must have at most 2 decimals (whole fen)'], ['elderly_support', 'must not be negative']])],
    [
      'several faults at once',
      2024,
      { from_month: '2023-12', continuing_education: 500, housing_loan_interest: 1000, housing_rent: 1600, elderly_support: 3000.01 },
      invalid([
        ['from_month', 'must be a month of 2024'],
        ['continuing_education', cap(400)],
        ['housing_rent', cap(1500)],
        ['elderly_support', cap(3000)],
        ['housing_rent', 'housing loan interest and housing rent cannot both be declared; keep one'],
      ]),
    ],
  ]
  for (const [what, year, body, expected] of CASES)
    test(`PUT with ${what} → 400 naming the field and the cap; nothing stored, no audit`, async () => {
      const before = await tableRows(t)
      const reply = await req(t.app, 'PUT', declarations(ids.dee, year), { token: admin, body })
      expect([reply.status, reply.body]).toEqual([400, expected])
      expect(await tableRows(t)).toEqual(before)
    })

  test('PUT for a year before 2019 → 400 naming year (its message not saying "year year"); nothing stored, no audit', async () => {
    const before = await tableRows(t)
    const reply = await req(t.app, 'PUT', declarations(ids.dee, 2018), { token: admin, body: {} })
    expect(reply.status).toBe(400)
    expect(reply.body.errors.map((e: { field: string }) => e.field)).toEqual(['year'])
    expect(reply.body.message).toContain('2018 is before 2019, the first year of cumulative income tax withholding this service computes')
    expect(await tableRows(t)).toEqual(before)
    // the field is named once
    expect(reply.body.message).not.toContain('year year')
  })

  test('DELETE a declaration no payslip counted → data null; gone; one tax_deduction.delete entry', async () => {
    const since = await auditCount()
    const reply = await req(t.app, 'DELETE', declarations(ids.dee, 2023), { token: admin })
    expect([reply.status, reply.body]).toEqual([200, okAt(null, 'Special additional deductions deleted')])
    expect(await auditSince(since)).toEqual([audit('tax_deduction.delete', 'tax_deduction', y2023.id, y2023, null)])
    expect((await req(t.app, 'GET', declarations(ids.dee, 2023), { token: admin })).status).toBe(404)
    expect((await ok('GET', declarations(ids.dee))).tax_deductions).toEqual([y2025, y2024])
  })

  test('Accept-Language: zh → the 400 in Chinese', async () => {
    const reply = await req(t.app, 'PUT', declarations(ids.dee, 2024), { token: admin, headers: ZH, body: { housing_loan_interest: 1000, housing_rent: 1500, continuing_education: 400.01 } })
    expect([reply.status, reply.body]).toEqual([
      400,
      at(400, '专项附加扣除无效：continuing_education, housing_rent', {
        errors: [
          { field: 'continuing_education', message: '每月最多 400 元（2023 年标准）' },
          { field: 'housing_rent', message: '住房贷款利息与住房租金不能同时申报，请只保留一项' },
        ],
      }),
    ])
  })
})

// ---------------------------------------------------------------------------------------------

const schemeIds = { town: 0, town2: 0, village: 0, harbor: 0, coast: 0 }
const profileIds = { ann: 0, bob: 0, dee: 0, cal: 0 }
const runIds = { september: 0, march: 0, betaMay: 0 }
let deeDeclaration = 0

describe('the scheme chain: a month uses the latest scheme of the profile scheme’s name', () => {
  beforeAll(async () => {
    const create = async (name: string, from: string, items: ItemIn[]) => (await ok('POST', SCHEMES, { name, effective_from: from, items }, 201)).id as number
    schemeIds.town = await create('Town', '2024-01', [item('pension', 0.08, 0.16, 5000, 20000), item('housing_fund', 0.05, 0.05, 3000, 20000)])
    schemeIds.town2 = await create('Town', '2024-07', [item('pension', 0.08, 0.16, 12000, 30000), item('medical', 0.02, 0.1, 5000, 9000, 3), item('housing_fund', 0.07, 0.07, 3000, 30000)])
    schemeIds.village = await create('Village', '2024-09', [item('pension', 0.5, 0.5, 0, 100000)])
    schemeIds.harbor = await create('Harbor', '2024-07', [item('pension', 0.08, 0.16, 5000, 20000)])
    schemeIds.coast = await create('Coast', '2024-01', [item('pension', 0.08, 0.16, 5000, 20000)])
    const profile = async (who: keyof typeof ids, pay: number, schemeId: number | null, bases = pay) =>
      (await ok('PUT', `/api/v1/admin/employees/${ids[who]}/pay-profile`, { effective_month: '2024-01', basic_salary: pay, contribution_base: bases, housing_fund_base: bases, scheme_id: schemeId })).id as number
    profileIds.ann = await profile('ann', 10000, schemeIds.town)
    profileIds.bob = await profile('bob', 8000, schemeIds.harbor)
    profileIds.dee = await profile('dee', 9000, null, 0)
    profileIds.cal = await profile('cal', 7000, schemeIds.coast)
    deeDeclaration = (await ok('GET', declarations(ids.dee, 2024))).id
    // September first: no approved payslip of 2024 exists when it is computed
    runIds.september = (await ok('POST', RUNS, { company_id: 1, month: '2024-09' }, 201)).id
    runIds.march = (await ok('POST', RUNS, { company_id: 1, month: '2024-03' }, 201)).id
    runIds.betaMay = (await ok('POST', RUNS, { company_id: 2, month: '2024-05' }, 201)).id
  })

  const payslipsOf = async (runId: number) => (await ok('GET', `${RUNS}/${runId}/payslips`)).payslips as { employee: { id: number }; lines: { code: string; sources: Source[] }[] }[]

  test('September: Ann’s profile names Town 2024-01, the month uses Town 2024-07 (bases clamped to its floor and ceiling, a fixed amount); Village, of the very month, is not used', async () => {
    const [ann] = await payslipsOf(runIds.september)
    const schemeSources = [source('pay_profile', profileIds.ann), { kind: 'contribution_scheme', id: schemeIds.town2 }]
    expect(ann).toEqual(
      payslip('ann', runIds.september, '2024-09', {
        gross: 10000,
        // 1143.00 + 700.00 + 94.71
        deductions: 1937.71,
        net: 8062.29,
        lines: [
          basic('ann', 10000, 30, profileIds.ann),
          line(
            'personal_insurance',
            'Social insurance (employee)',
            'deduction',
            1143,
            'pension: max(10000.00, 12000.00) × 0.08 = 960.00; medical: min(10000.00, 9000.00) × 0.02 + 3.00 = 183.00; 960.00 + 183.00 = 1143.00',
            schemeSources,
            {
              profile_contribution_base: 10000,
              pension_base: 12000,
              pension_base_min: 12000,
              pension_base_max: 30000,
              pension_employee_rate: 0.08,
              medical_base: 9000,
              medical_base_min: 5000,
              medical_base_max: 9000,
              medical_employee_rate: 0.02,
              medical_employee_fixed: 3,
            },
          ),
          line('housing_fund', 'Housing fund (employee)', 'deduction', 700, 'housing_fund: 10000.00 × 0.07 = 700.00', schemeSources, {
            profile_housing_fund_base: 10000,
            housing_fund_base: 10000,
            housing_fund_base_min: 3000,
            housing_fund_base_max: 30000,
            housing_fund_employee_rate: 0.07,
          }),
          // 10000.00 − 5000.00 − 1843.00 = 3157.00; × 0.03 = 94.71
          tax(94.71, firstMonthTax('10000.00', '1843.00', '3157.00', '94.71'), [], {
            cumulative_gross: 10000,
            basic_deduction: 5000,
            months: 1,
            cumulative_contributions: 1843,
            cumulative_special_deductions: 0,
            cumulative_taxable: 3157,
            rate: 0.03,
            quick_deduction: 0,
            cumulative_tax: 94.71,
            withheld: 0,
          }),
          line(
            'employer_contributions',
            'Employer’s social insurance and housing fund',
            'employer',
            3520,
            'pension: max(10000.00, 12000.00) × 0.16 = 1920.00; medical: min(10000.00, 9000.00) × 0.10 = 900.00; housing_fund: 10000.00 × 0.07 = 700.00; 1920.00 + 900.00 + 700.00 = 3520.00',
            schemeSources,
            {
              profile_contribution_base: 10000,
              profile_housing_fund_base: 10000,
              pension_base: 12000,
              pension_base_min: 12000,
              pension_base_max: 30000,
              pension_employer_rate: 0.16,
              medical_base: 9000,
              medical_base_min: 5000,
              medical_base_max: 9000,
              medical_employer_rate: 0.1,
              housing_fund_base: 10000,
              housing_fund_base_min: 3000,
              housing_fund_base_max: 30000,
              housing_fund_employer_rate: 0.07,
            },
          ),
        ],
      }),
    )
    for (const each of ann.lines) expect(each.sources).not.toContainEqual({ kind: 'contribution_scheme', id: schemeIds.village })
  })

  test('March: Ann gets Town 2024-01, the scheme her profile names', async () => {
    const [ann] = await payslipsOf(runIds.march)
    const schemeSources = [source('pay_profile', profileIds.ann), { kind: 'contribution_scheme', id: schemeIds.town }]
    expect(ann).toEqual(
      payslip('ann', runIds.march, '2024-03', {
        gross: 10000,
        deductions: 1411,
        net: 8589,
        lines: [
          basic('ann', 10000, 31, profileIds.ann),
          line('personal_insurance', 'Social insurance (employee)', 'deduction', 800, 'pension: 10000.00 × 0.08 = 800.00', schemeSources),
          line('housing_fund', 'Housing fund (employee)', 'deduction', 500, 'housing_fund: 10000.00 × 0.05 = 500.00', schemeSources),
          tax(111, firstMonthTax('10000.00', '1300.00', '3700.00', '111.00')),
          line('employer_contributions', 'Employer’s social insurance and housing fund', 'employer', 2100, 'pension: 10000.00 × 0.16 = 1600.00; housing_fund: 10000.00 × 0.05 = 500.00; 1600.00 + 500.00 = 2100.00', schemeSources),
        ],
      }),
    )
  })

  test('Bob’s profile names Harbor 2024-07: March, before any Harbor is in effect, has no personal_insurance, housing_fund or employer lines; September has Harbor’s', async () => {
    const bobOf = async (runId: number) => (await payslipsOf(runId)).find((p) => p.employee.id === ids.bob)
    expect(await bobOf(runIds.march)).toEqual(
      payslip('bob', runIds.march, '2024-03', {
        gross: 8000,
        deductions: 90,
        net: 7910,
        lines: [basic('bob', 8000, 31, profileIds.bob), tax(90, firstMonthTax('8000.00', '0.00', '3000.00', '90.00'))],
      }),
    )
    const schemeSources = [source('pay_profile', profileIds.bob), { kind: 'contribution_scheme', id: schemeIds.harbor }]
    expect(await bobOf(runIds.september)).toEqual(
      payslip('bob', runIds.september, '2024-09', {
        gross: 8000,
        // 640.00 + 70.80
        deductions: 710.8,
        net: 7289.2,
        lines: [
          basic('bob', 8000, 30, profileIds.bob),
          line('personal_insurance', 'Social insurance (employee)', 'deduction', 640, 'pension: 8000.00 × 0.08 = 640.00', schemeSources),
          tax(70.8, firstMonthTax('8000.00', '640.00', '2360.00', '70.80')),
          line('employer_contributions', 'Employer’s social insurance and housing fund', 'employer', 1280, 'pension: 8000.00 × 0.16 = 1280.00', schemeSources),
        ],
      }),
    )
  })

  test('Dee’s declaration (from June) counts in September, with its source, and not in March', async () => {
    const deeOf = async (runId: number) => (await payslipsOf(runId)).find((p) => p.employee.id === ids.dee)
    expect(await deeOf(runIds.september)).toEqual(
      payslip('dee', runIds.september, '2024-09', {
        gross: 9000,
        deductions: 45,
        net: 8955,
        lines: [
          basic('dee', 9000, 30, profileIds.dee),
          tax(
            45,
            'special deductions: 2500.00 × 1 = 2500.00; taxable: max(0, 9000.00 − 5000.00 × 1 − 0.00 − 2500.00) = 1500.00; tax: 1500.00 × 0.03 − 0.00 = 45.00; this month: max(0, 45.00 − 0.00) = 45.00',
            [{ kind: 'tax_deduction', id: deeDeclaration }],
            {
              cumulative_gross: 9000,
              basic_deduction: 5000,
              months: 1,
              cumulative_contributions: 0,
              special_deductions_per_month: 2500,
              special_deduction_months: 1,
              cumulative_special_deductions: 2500,
              cumulative_taxable: 1500,
              rate: 0.03,
              quick_deduction: 0,
              cumulative_tax: 45,
              withheld: 0,
            },
          ),
        ],
      }),
    )
    expect(await deeOf(runIds.march)).toEqual(
      payslip('dee', runIds.march, '2024-03', {
        gross: 9000,
        deductions: 120,
        net: 8880,
        lines: [basic('dee', 9000, 31, profileIds.dee), tax(120, firstMonthTax('9000.00', '0.00', '4000.00', '120.00'))],
      }),
    )
  })

  test('the runs’ totals: employee and employer contributions', async () => {
    expect((await ok('GET', `${RUNS}/${runIds.september}`)).totals).toEqual({
      gross: 27000,
      deductions: 2693.51,
      employee_contributions: 2483,
      employer_contributions: 4800,
      tax: 210.51,
      net: 24306.49,
      head_count: 3,
    })
    expect((await ok('GET', `${RUNS}/${runIds.march}`)).totals).toEqual({
      gross: 27000,
      deductions: 1621,
      employee_contributions: 1300,
      employer_contributions: 2100,
      tax: 321,
      net: 25379,
      head_count: 3,
    })
  })

  test('Beta’s May: Cal gets Coast 2024-01; the run is approved', async () => {
    const [cal] = await payslipsOf(runIds.betaMay)
    const schemeSources = [source('pay_profile', profileIds.cal), { kind: 'contribution_scheme', id: schemeIds.coast }]
    expect(cal).toEqual(
      payslip('cal', runIds.betaMay, '2024-05', {
        gross: 7000,
        deductions: 603.2,
        net: 6396.8,
        lines: [
          basic('cal', 7000, 31, profileIds.cal),
          line('personal_insurance', 'Social insurance (employee)', 'deduction', 560, 'pension: 7000.00 × 0.08 = 560.00', schemeSources),
          tax(43.2, firstMonthTax('7000.00', '560.00', '1440.00', '43.20')),
          line('employer_contributions', 'Employer’s social insurance and housing fund', 'employer', 1120, 'pension: 7000.00 × 0.16 = 1120.00', schemeSources),
        ],
      }),
    )
    expect((await ok('POST', `${RUNS}/${runIds.betaMay}/approve`)).status).toBe('approved')
  })

  test('editing a scheme an approved payslip used leaves that payslip (and its run) as approved', async () => {
    const before = await payslipsOf(runIds.betaMay)
    const run = await ok('GET', `${RUNS}/${runIds.betaMay}`)
    await ok('PUT', `${SCHEMES}/${schemeIds.coast}`, { name: 'Coast', effective_from: '2024-01', items: [item('pension', 0.1, 0.2, 5000, 20000)] })
    expect(await payslipsOf(runIds.betaMay)).toEqual(before)
    expect(await ok('GET', `${RUNS}/${runIds.betaMay}`)).toEqual(run)
  })

  test('a pay profile naming a scheme that does not exist → 400 naming scheme_id; nothing stored', async () => {
    const before = await tableRows(t)
    const reply = await req(t.app, 'PUT', `/api/v1/admin/employees/${ids.dee}/pay-profile`, { token: admin, body: { effective_month: '2024-02', basic_salary: 9000, scheme_id: 9999 } })
    expect([reply.status, reply.body]).toEqual([400, at(400, 'The pay profile is not valid: scheme_id', { errors: [{ field: 'scheme_id', message: 'no contribution scheme has this id' }] })])
    expect(await tableRows(t)).toEqual(before)
  })
})

// ---------------------------------------------------------------------------------------------

describe('what keeps a scheme or a declaration', () => {
  test('DELETE of a scheme a pay profile names → 409 naming the employee and the month; nothing written', async () => {
    const before = await tableRows(t)
    const reply = await req(t.app, 'DELETE', `${SCHEMES}/${schemeIds.town}`, { token: admin })
    expect([reply.status, reply.body]).toEqual([
      409,
      at(409, 'The contribution scheme Town from 2024-01 is named by the pay profile of Ann One (A01) from 2024-01; give that profile another scheme first'),
    ])
    expect(await tableRows(t)).toEqual(before)
  })

  test('… in Chinese with Accept-Language: zh', async () => {
    const reply = await req(t.app, 'DELETE', `${SCHEMES}/${schemeIds.town}`, { token: admin, headers: ZH })
    expect([reply.status, reply.body]).toEqual([409, at(409, '社保公积金方案Town（自 2024-01 起）正被Ann One（工号 A01）自 2024-01 起的薪资档案使用；请先为该档案改选其他方案')])
  })

  test('DELETE of a scheme a draft payslip was computed with (no profile names it) → 409 naming company, month and run; nothing written', async () => {
    const before = await tableRows(t)
    const reply = await req(t.app, 'DELETE', `${SCHEMES}/${schemeIds.town2}`, { token: admin })
    expect([reply.status, reply.body]).toEqual([
      409,
      at(
        409,
        `The contribution scheme Town from 2024-07 computed payslips of Acme for 2024-09 (payroll run ${runIds.september}); a scheme that computed a month is kept (a draft run lets go of it once recomputed or deleted)`,
      ),
    ])
    expect(await tableRows(t)).toEqual(before)
  })

  test('DELETE of a scheme an approved payslip was computed with, once no profile names it → 409 naming company, month and run', async () => {
    await ok('PUT', `/api/v1/admin/employees/${ids.cal}/pay-profile`, { effective_month: '2024-01', basic_salary: 7000, contribution_base: 7000, housing_fund_base: 7000 })
    const before = await tableRows(t)
    const reply = await req(t.app, 'DELETE', `${SCHEMES}/${schemeIds.coast}`, { token: admin })
    expect([reply.status, reply.body]).toEqual([
      409,
      at(
        409,
        `The contribution scheme Coast from 2024-01 computed payslips of Beta for 2024-05 (payroll run ${runIds.betaMay}); a scheme that computed a month is kept (a draft run lets go of it once recomputed or deleted)`,
      ),
    ])
    expect(await tableRows(t)).toEqual(before)
  })

  test('DELETE of a declaration a payslip counted → 409 naming company, month and run; nothing written', async () => {
    const before = await tableRows(t)
    const reply = await req(t.app, 'DELETE', declarations(ids.dee, 2024), { token: admin })
    expect([reply.status, reply.body]).toEqual([
      409,
      at(
        409,
        `The special additional deductions of 2024 were counted by the payslips of Acme for 2024-09 (payroll run ${runIds.september}); set the amounts to 0 instead, and the next month’s cumulative figures take them back`,
      ),
    ])
    expect(await tableRows(t)).toEqual(before)
  })

  test('the database keeps them too: a profile naming no scheme, deleting a named or used scheme, deleting a counted declaration, an over-cap or out-of-year declaration, a rate above 1 are refused', async () => {
    const before = await tableRows(t)
    const FK = 'FOREIGN KEY constraint failed'
    expect(
      await refusal(
        sql`INSERT INTO pay_profiles (employee_id, effective_month, basic_salary, seniority_pay, allowance, contribution_base, housing_fund_base, scheme_id) VALUES (${ids.dee}, '2024-11', 0, 0, 0, 0, 0, 9999)`,
      ),
    ).toContain(FK)
    expect(await refusal(sql`UPDATE pay_profiles SET scheme_id = 9999 WHERE id = ${profileIds.ann}`)).toContain(FK)
    // named by Ann's profile (a trigger), used by the approved May payslip, by the draft September payslip (foreign keys)
    expect(await refusal(sql`DELETE FROM contribution_schemes WHERE id = ${schemeIds.town}`)).toContain(FK)
    expect(await refusal(sql`DELETE FROM contribution_schemes WHERE id = ${schemeIds.coast}`)).toContain(FK)
    expect(await refusal(sql`DELETE FROM contribution_schemes WHERE id = ${schemeIds.town2}`)).toContain(FK)
    expect(await refusal(sql`DELETE FROM tax_deductions WHERE id = ${deeDeclaration}`)).toContain(FK)
    const CAPS = 'CHECK constraint failed: tax_deductions_caps_check'
    const declare = (column: string, value: number, children = 0) =>
      sql`INSERT INTO tax_deductions (employee_id, year, from_month, ${sql.identifier(column)}, children) VALUES (${ids.bob}, 2024, '2024-01', ${value}, ${children})`
    expect(await refusal(declare('continuing_education', 40001))).toContain(CAPS)
    expect(await refusal(declare('housing_loan_interest', 100001))).toContain(CAPS)
    expect(await refusal(declare('housing_rent', 150001))).toContain(CAPS)
    expect(await refusal(declare('elderly_support', 300001))).toContain(CAPS)
    expect(await refusal(declare('children_education', 200001, 1))).toContain(CAPS)
    expect(await refusal(declare('infant_care', 1, 0))).toContain(CAPS)
    expect(await refusal(sql`INSERT INTO tax_deductions (employee_id, year, from_month, housing_loan_interest, housing_rent) VALUES (${ids.bob}, 2024, '2024-01', 1, 1)`)).toContain(CAPS)
    expect(await refusal(sql`INSERT INTO tax_deductions (employee_id, year, from_month) VALUES (${ids.bob}, 2024, '2025-01')`)).toContain('CHECK constraint failed: tax_deductions_month_check')
    expect(
      await refusal(
        sql`INSERT INTO contribution_scheme_items (scheme_id, code, employee_rate, employer_rate, base_min, base_max) VALUES (${schemeIds.village}, 'medical', 10001, 0, 0, 1)`,
      ),
    ).toContain('CHECK constraint failed: contribution_scheme_items_figures_check')
    expect(await tableRows(t)).toEqual(before)
  })

  test('once the draft run that used it is deleted, the scheme can be deleted; one contribution_scheme.delete entry', async () => {
    await ok('DELETE', `${RUNS}/${runIds.september}`)
    const town2 = await ok('GET', `${SCHEMES}/${schemeIds.town2}`)
    const since = await auditCount()
    const reply = await req(t.app, 'DELETE', `${SCHEMES}/${schemeIds.town2}`, { token: admin })
    expect([reply.status, reply.body]).toEqual([200, okAt(null, 'Contribution scheme deleted')])
    expect(await auditSince(since)).toEqual([audit('contribution_scheme.delete', 'contribution_scheme', schemeIds.town2, town2, null)])
    expect(await t.deps.database.db.select().from(contributionSchemes).where(eq(contributionSchemes.id, schemeIds.town2))).toEqual([])
  })

  test('… and so can the declaration it counted (March, approved, came before its from_month)', async () => {
    const reply = await req(t.app, 'DELETE', declarations(ids.dee, 2024), { token: admin })
    expect([reply.status, reply.body]).toEqual([200, okAt(null, 'Special additional deductions deleted')])
    expect(await t.deps.database.db.select().from(taxDeductions).where(eq(taxDeductions.id, deeDeclaration))).toEqual([])
  })
})

// ---------------------------------------------------------------------------------------------

describe('the tax summary and who may read and write', () => {
  const NOT_LINKED = 'Your account is not linked to an employee, so it has no payslips; ask an administrator to link it'
  const missing = (permission: string) => at(403, `Your roles do not grant the permission ${permission}; ask an administrator for it`)
  let annSummary: unknown
  let calSummary: unknown

  beforeAll(async () => {
    // March approved: Ann's first (and only) approved payslip of 2024
    await ok('POST', `${RUNS}/${runIds.march}/approve`)
    const payslipId = async (runId: number, employeeId: number) =>
      ((await ok('GET', `${RUNS}/${runId}/payslips`)).payslips as { id: number; employee: { id: number } }[]).find((p) => p.employee.id === employeeId)!.id
    annSummary = {
      year: 2024,
      employee: { id: ids.ann, name: 'Ann One', employee_no: 'A01' },
      months: [
        {
          month: '2024-03',
          company: { id: 1, name: 'Acme' },
          payslip_id: await payslipId(runIds.march, ids.ann),
          income: 10000,
          contributions: 1300,
          special_deductions: 0,
          cumulative_income: 10000,
          cumulative_basic_deduction: 5000,
          cumulative_contributions: 1300,
          cumulative_special_deductions: 0,
          cumulative_taxable: 3700,
          cumulative_tax: 111,
          tax_withheld: 111,
          cumulative_withheld: 111,
        },
      ],
      totals: { income: 10000, contributions: 1300, special_deductions: 0, tax_withheld: 111 },
    }
    calSummary = {
      year: 2024,
      employee: { id: ids.cal, name: 'Cal Beta', employee_no: 'B01' },
      months: [
        {
          month: '2024-05',
          company: { id: 2, name: 'Beta' },
          payslip_id: await payslipId(runIds.betaMay, ids.cal),
          income: 7000,
          contributions: 560,
          special_deductions: 0,
          cumulative_income: 7000,
          cumulative_basic_deduction: 5000,
          cumulative_contributions: 560,
          cumulative_special_deductions: 0,
          cumulative_taxable: 1440,
          cumulative_tax: 43.2,
          tax_withheld: 43.2,
          cumulative_withheld: 43.2,
        },
      ],
      totals: { income: 7000, contributions: 560, special_deductions: 0, tax_withheld: 43.2 },
    }
  })

  test('admin: ?employee_id= → that employee’s approved months (year defaults to this year, 2024); another year → no months', async () => {
    expect((await req(t.app, 'GET', `${SUMMARY}?year=2024&employee_id=${ids.ann}`, { token: admin })).body).toEqual(okAt(annSummary))
    expect((await req(t.app, 'GET', `${SUMMARY}?employee_id=${ids.ann}`, { token: admin })).body).toEqual(okAt(annSummary))
    expect((await req(t.app, 'GET', `${SUMMARY}?year=2023&employee_id=${ids.ann}`, { token: admin })).body).toEqual(
      okAt({ year: 2023, employee: { id: ids.ann, name: 'Ann One', employee_no: 'A01' }, months: [], totals: { income: 0, contributions: 0, special_deductions: 0, tax_withheld: 0 } }),
    )
    const unknown = await req(t.app, 'GET', `${SUMMARY}?year=2024&employee_id=9999`, { token: admin })
    expect([unknown.status, unknown.body]).toEqual([404, at(404, 'Employee 9999 does not exist')])
  })

  test('admin route without employee_id: the caller’s linked employee; 400 naming employee_id when the caller is linked to none', async () => {
    expect((await req(t.app, 'GET', `${SUMMARY}?year=2024`, { token: reader.token })).body).toEqual(okAt(calSummary))
    const unlinked = await req(t.app, 'GET', `${SUMMARY}?year=2024`, { token: admin })
    expect([unlinked.status, unlinked.body]).toEqual([
      400,
      at(400, 'employee_id is required: your account is linked to no employee', { errors: [{ field: 'employee_id', message: 'is required: your account is linked to no employee' }] }),
    ])
  })

  test('the employee’s own GET /payslips/tax-summary: only their own (approved) months; 403 for an account linked to no employee', async () => {
    expect((await req(t.app, 'GET', `${OWN_SUMMARY}?year=2024`, { token: annToken })).body).toEqual(okAt(annSummary))
    expect((await req(t.app, 'GET', OWN_SUMMARY, { token: annToken })).body).toEqual(okAt(annSummary))
    // an employee_id sent to the own route changes nothing: still the caller's own
    expect((await req(t.app, 'GET', `${OWN_SUMMARY}?year=2024&employee_id=${ids.cal}`, { token: annToken })).body).toEqual(okAt(annSummary))
    const unlinked = await req(t.app, 'GET', `${OWN_SUMMARY}?year=2024`, { token: admin })
    expect([unlinked.status, unlinked.body]).toEqual([403, at(403, NOT_LINKED)])
    // the employee cannot reach anyone else's through the admin route
    const other = await req(t.app, 'GET', `${SUMMARY}?year=2024&employee_id=${ids.cal}`, { token: annToken })
    expect([other.status, other.body]).toEqual([403, missing('payroll:read')])
  })

  test('payroll:read only: every GET answers; every POST, PUT and DELETE → 403 naming payroll:manage, nothing written', async () => {
    const metro = ((await ok('GET', SCHEMES)).schemes as { id: number; name: string }[]).find((s) => s.name === 'Metro')!
    for (const path of [SCHEMES, `${SCHEMES}/${metro.id}`, declarations(ids.dee), declarations(ids.dee, 2025), `${SUMMARY}?employee_id=${ids.ann}&year=2024`]) {
      const reply = await req(t.app, 'GET', path, { token: reader.token })
      expect([path, reply.status]).toEqual([path, 200])
      expect([path, reply.body]).toEqual([path, (await req(t.app, 'GET', path, { token: admin })).body])
    }
    const before = await tableRows(t)
    const body = { name: 'Reader town', effective_from: '2024-01', items: [item('pension', 0.08, 0.16, 1, 2)] }
    for (const [method, path, payload] of [
      ['POST', SCHEMES, body],
      ['PUT', `${SCHEMES}/${metro.id}`, body],
      ['DELETE', `${SCHEMES}/${schemeIds.village}`, undefined],
      ['PUT', declarations(ids.dee, 2025), {}],
      ['DELETE', declarations(ids.dee, 2025), undefined],
    ] as const) {
      const reply = await req(t.app, method, path, { token: reader.token, body: payload })
      expect([method, path, reply.status, reply.body]).toEqual([method, path, 403, missing('payroll:manage')])
    }
    expect(await tableRows(t)).toEqual(before)
  })

  test('no payroll permission: every GET → 403 naming payroll:read', async () => {
    for (const path of [SCHEMES, `${SCHEMES}/${schemeIds.village}`, declarations(ids.dee), declarations(ids.dee, 2025), `${SUMMARY}?employee_id=${ids.ann}&year=2024`]) {
      const reply = await req(t.app, 'GET', path, { token: nobody.token })
      expect([path, reply.status, reply.body]).toEqual([path, 403, missing('payroll:read')])
    }
  })
})
