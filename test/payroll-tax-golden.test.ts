import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { login, loginAdmin, req, startApp, type TestApp } from './helpers'
import { must, shanghai } from './payroll-fixtures'

/*
 * Golden years of payroll tax (CONTRACT §17, issue 29): contribution schemes, special additional
 * deductions and cumulative withholding, worked out BY HAND below, then computed month by month by
 * POST /admin/payroll/runs + approve, and compared as literal tables (gross, personal_insurance,
 * housing_fund, personal_tax, net, and the tax line's cumulative taxable, cumulative tax and
 * cumulative special deductions), then with GET /admin/payroll/tax-summary (and, for the STA's
 * example, the employee's own GET /payslips/tax-summary).
 *
 * Every employee is in no attendance group: the month has no work days for them, so the profile
 * lines are prorated by calendar days over a whole month (n ÷ n) and nothing is deducted for
 * attendance: gross = basic + seniority + allowance (+ a bonus entered on the payslip).
 * Each case has a company of its own (one payslip per run); the year is 2025; the clock stands at
 * 10 January 2026 throughout (every month of 2025 is past).
 *
 * Per item of the scheme in effect: base = clamp(profile base, min, max); employee =
 * round_half_up(base × employee_rate) + employee_fixed; employer = round_half_up(base × employer_rate).
 * personal_insurance = Σ employee shares but the housing fund; housing_fund its employee share.
 * Tax, month m, n = months from the first payslip of the year here to m:
 *   taxable = max(0, Σ gross − 5000 × n − Σ (insurance + fund) − monthly special × k)
 *   cumulative tax = round(taxable × rate − quick deduction); this month = max(0, that − withheld before)
 *   annual table: ≤ 36,000 3 % (0); ≤ 144,000 10 % (2,520); ≤ 300,000 20 % (16,920); …
 * net = gross − insurance − fund − tax.
 *
 * ─── The schemes ───
 * Beijing (2025-01): pension 0.08 / 0.16, medical 0.02 / 0.098, unemployment 0.005 / 0.005, work
 *   injury 0 / 0.004, all on 6,821–35,283; housing fund 0.045 / 0.045 on 2,540–35,283.
 * Shanghai (2025-01): pension 0.08 / 0.16, medical 0.02 / 0.09 + 3.00 fixed, unemployment
 *   0.005 / 0.005, all on 7,310–36,549; housing fund 0.07 / 0.07 on 2,690–36,549.
 * Shenzhen (2025-01): pension 0.08 / 0.14 on 4,492–27,501, medical 0.02 / 0.05 on 6,733–33,666,
 *   unemployment 0.003 / 0.007 on 2,360–33,666, housing fund 0.05 / 0.05 on 2,360–41,190.
 * Shenzhen (2025-07), made in July: the same bounds; pension 0.08 / 0.15, medical 0.02 / 0.06,
 *   unemployment 0.005 / 0.008, housing fund 0.10 / 0.10.
 *
 * ─── STA. The State Taxation Administration's example (Tang, Beijing, 30,000 a month) ───
 *   insurance: 30000 × 0.08 = 2400.00; × 0.02 = 600.00; × 0.005 = 150.00 → 3150.00
 *   fund: 30000 × 0.045 = 1350.00; insurance + fund = 4500.00
 *   employer: 30000 × 0.16 = 4800.00; × 0.098 = 2940.00; × 0.005 = 150.00; × 0.004 = 120.00;
 *     fund 1350.00 → 9360.00
 *   declaration: housing_rent 1500 (cap 1,500) + elderly_support 2500 (cap 3,000) = 4000 a month from January
 *   a month adds 30000 − 5000 − 4500 − 4000 = 16500 to the taxable
 *   Jan 16500 × 0.03 = 495.00 → 495.00           Feb 33000 × 0.03 = 990.00 → 990 − 495 = 495.00
 *   Mar 49500 × 0.10 − 2520 = 2430.00 → 2430 − 990 = 1440.00
 *   Apr 66000 → 6600 − 2520 = 4080.00 → 1650.00  May 82500 → 5730.00 → 1650.00
 *   Jun 99000 → 7380.00 → 1650.00                Jul 115500 → 9030.00 → 1650.00
 *   Aug 132000 → 10680.00 → 1650.00
 *   Sep 148500 × 0.20 − 16920 = 12780.00 → 12780 − 10680 = 2100.00
 *   Oct 165000 → 33000 − 16920 = 16080.00 → 3300.00   Nov 181500 → 19380.00 → 3300.00
 *   Dec 198000 → 22680.00 → 3300.00
 *   net = 30000 − 4500 − tax: 25005.00, 25005.00, 24060.00, 23850.00 (Apr–Aug), 23400.00, 22200.00 (Oct–Dec)
 *
 * ─── 1. A bracket crossed mid-year (Chen, Shanghai, 11000 + 500 + 1000 = 12500) ───
 *   insurance: 12500 × 0.08 = 1000.00; 12500 × 0.02 + 3.00 = 253.00; 12500 × 0.005 = 62.50 → 1315.50
 *   fund: 12500 × 0.07 = 875.00; together 2190.50; a month adds 12500 − 5000 − 2190.50 = 5309.50
 *   1  5309.50 × 0.03 = 159.285 → 159.29; this month 159.29
 *   2 10619.00 × 0.03 = 318.57; − 159.29 = 159.28
 *   3 15928.50 × 0.03 = 477.855 → 477.86; − 318.57 = 159.29
 *   4 21238.00 × 0.03 = 637.14; − 477.86 = 159.28
 *   5 26547.50 × 0.03 = 796.425 → 796.43; − 637.14 = 159.29
 *   6 31857.00 × 0.03 = 955.71; − 796.43 = 159.28
 *   7 37166.50 > 36000: × 0.10 − 2520 = 1196.65; − 955.71 = 240.94
 *   8 42476.00 → 1727.60; − 1196.65 = 530.95     9 47785.50 → 2258.55 → 530.95
 *   10 53095.00 → 2789.50 → 530.95   11 58404.50 → 3320.45 → 530.95   12 63714.00 → 3851.40 → 530.95
 *   net = 12500 − 2190.50 − tax = 10309.50 − tax: 10150.21 / 10150.22 alternately, 10068.56 in July, 9778.55 after
 *
 * ─── 2. A joiner in July (Jiang, Beijing, 14000 + 1000 = 15000, hired 1 July) ───
 *   no payslip January to June (the runs of those months have none); n counts from July
 *   insurance: 15000 × 0.08 = 1200.00; × 0.02 = 300.00; × 0.005 = 75.00 → 1575.00
 *   fund: 15000 × 0.045 = 675.00; together 2250.00; a month adds 15000 − 5000 − 2250 = 7750.00
 *   Jul (n 1) 7750 × 0.03 = 232.50 → 232.50      Aug (n 2) 15500 → 465.00 → 232.50
 *   Sep 23250 → 697.50 → 232.50                  Oct 31000 → 930.00 → 232.50
 *   Nov 38750 × 0.10 − 2520 = 1355.00 → 425.00   Dec 46500 → 2130.00 → 775.00
 *   net = 15000 − 2250 − tax: 12517.50 (Jul–Oct), 12325.00, 11975.00
 *
 * ─── 3. A bonus month (Bai, Beijing, 9000 + 1000 = 10000; June bonus 50,000 entered on the payslip) ───
 *   insurance: 10000 × 0.08 = 800.00; × 0.02 = 200.00; × 0.005 = 50.00 → 1050.00
 *   fund: 10000 × 0.045 = 450.00; together 1500.00; a month adds 3500.00 (June 53500.00)
 *   Jan–May 3500, 7000, 10500, 14000, 17500 × 0.03 = 105.00 … 525.00 → 105.00 each
 *   Jun 17500 + 60000 − 5000 − 1500 = 71000 × 0.10 − 2520 = 4580.00 → 4580 − 525 = 4055.00
 *   Jul 74500 → 4930.00 → 350.00 (and 350.00 a month to December: 78000 → 5280, 81500 → 5630,
 *   85000 → 5980, 88500 → 6330, 92000 → 6680)
 *   net: 10000 − 1500 − 105 = 8395.00; June 60000 − 1500 − 4055 = 54445.00; then 8150.00
 *
 * ─── 4. Cumulative tax below what was withheld (Ren, Beijing, 20000) ───
 *   insurance: 20000 × 0.08 = 1600.00; × 0.02 = 400.00; × 0.005 = 100.00 → 2100.00
 *   fund: 20000 × 0.045 = 900.00; together 3000.00; a month adds 12000.00
 *   Jan 12000 → 360.00; Feb 24000 → 720.00 → 360.00; Mar 36000 (≤ 36,000: still 3 %) → 1080.00 → 360.00
 *   Apr 48000 × 0.10 − 2520 = 2280.00 → 1200.00; May 60000 → 3480.00 → 1200.00; Jun 72000 → 4680.00 → 1200.00
 *   After June's approval a declaration from January: children_education 4000 with 2 children (cap
 *   2,000 each), housing_loan_interest 1000 (cap 1,000), elderly_support 3000 (cap 3,000) = 8000 a month
 *   Jul: special 8000 × 7 = 56000; taxable 140000 − 35000 − 21000 − 56000 = 28000 × 0.03 = 840.00;
 *     withheld 360 × 3 + 1200 × 3 = 4680.00 → max(0, 840 − 4680) = 0.00 (not negative)
 *   Aug 32000 → 960.00 → 0; Sep 36000 → 1080.00 → 0; Oct 40000 → 1480.00 → 0; Nov 44000 → 1880.00 → 0
 *   Dec, a 30,000 bonus: 44000 + 50000 − 5000 − 3000 − 8000 = 78000 × 0.10 − 2520 = 5280.00 → 5280 − 4680 = 600.00
 *   net: 16640.00 (Jan–Mar), 15800.00 (Apr–Jun), 17000.00 (Jul–Nov), Dec 50000 − 3000 − 600 = 46400.00
 *
 * ─── 5. Bases below the floor, then above the ceiling (Bao, Shanghai) ───
 *   Jan–Jun profile: 5000, contribution base 5000 (< 7310), fund base 2000 (< 2690)
 *     pension max(5000, 7310) × 0.08 = 584.80; medical 7310 × 0.02 + 3.00 = 149.20;
 *     unemployment 7310 × 0.005 = 36.55 → 770.55; fund max(2000, 2690) × 0.07 = 188.30; together 958.85
 *     employer 7310 × 0.16 = 1169.60; × 0.09 = 657.90; × 0.005 = 36.55; fund 188.30 → 2052.35
 *     taxable max(0, 5000 × m − 5000 × m − 958.85 × m) = 0.00 → tax 0.00; net 5000 − 958.85 = 4041.15
 *   Jul–Dec profile: 45000, both bases 45000 (> 36549)
 *     pension min(45000, 36549) × 0.08 = 2923.92; medical 36549 × 0.02 + 3.00 = 730.98 + 3 = 733.98;
 *     unemployment 36549 × 0.005 = 182.745 → 182.75 → 3840.65; fund 36549 × 0.07 = 2558.43; together 6399.08
 *     employer 36549 × 0.16 = 5847.84; × 0.09 = 3289.41; × 0.005 = 182.75; fund 2558.43 → 11878.43
 *   Σ contributions to June 958.85 × 6 = 5753.10; from July + 6399.08 a month
 *   Jul 75000 − 35000 − 12152.18 = 27847.82 × 0.03 = 835.4346 → 835.43; this month 835.43
 *   Aug 120000 − 40000 − 18551.26 = 61448.74 × 0.10 − 2520 = 3624.874 → 3624.87; − 835.43 = 2789.44
 *   Sep 165000 − 45000 − 24950.34 = 95049.66 → 6984.966 → 6984.97; − 3624.87 = 3360.10
 *   Oct 210000 − 50000 − 31349.42 = 128650.58 → 10345.058 → 10345.06; − 6984.97 = 3360.09
 *   Nov 255000 − 55000 − 37748.50 = 162251.50 × 0.20 − 16920 = 15530.30; − 10345.06 = 5185.24
 *   Dec 300000 − 60000 − 44147.58 = 195852.42 → 22250.484 → 22250.48; − 15530.30 = 6720.18
 *   net = 45000 − 6399.08 − tax: 37765.49, 35811.48, 35240.82, 35240.83, 33415.68, 31880.74
 *
 * ─── 6. The city's scheme changes in July (Zhang, Shenzhen, 11000 + 1000 = 12000, bases 12000) ───
 *   Jan–Jun (Shenzhen 2025-01): 960.00 + 240.00 + 12000 × 0.003 = 36.00 → 1236.00; fund 12000 × 0.05 = 600.00;
 *     together 1836.00; employer 1680.00 + 600.00 + 84.00 + 600.00 = 2964.00; a month adds 5164.00
 *   Jul–Dec (Shenzhen 2025-07): 960.00 + 240.00 + 12000 × 0.005 = 60.00 → 1260.00; fund 12000 × 0.10 = 1200.00;
 *     together 2460.00; employer 1800.00 + 720.00 + 96.00 + 1200.00 = 3816.00; a month adds 4540.00
 *   1–6: 5164, 10328, 15492, 20656, 25820, 30984 × 0.03 = 154.92 … 929.52 → 154.92 each
 *   7: 35524 × 0.03 = 1065.72 → 136.20   8: 40064 × 0.10 − 2520 = 1486.40 → 420.68
 *   9: 44604 → 1940.40 → 454.00; 10: 49144 → 2394.40; 11: 53684 → 2848.40; 12: 58224 → 3302.40 → 454.00 each
 *   net: 12000 − 1836 − 154.92 = 10009.08 (Jan–Jun); 12000 − 2460 − 136.20 = 9403.80; − 420.68 = 9119.32; then 9086.00
 */

const YEAR = 2025
const MONTHS = Array.from({ length: 12 }, (_, i) => `${YEAR}-${String(i + 1).padStart(2, '0')}`)
const NOW = shanghai('2026-01-10T10:00')
const SCHEMES = '/api/v1/admin/payroll/schemes'
const RUNS = '/api/v1/admin/payroll/runs'

type Item = { code: string; employee_rate: number; employer_rate: number; base_min: number; base_max: number; employee_fixed?: number }
const BJ = { base_min: 6821, base_max: 35283 }
const SH = { base_min: 7310, base_max: 36549 }
const BEIJING: Item[] = [
  { code: 'pension', employee_rate: 0.08, employer_rate: 0.16, ...BJ },
  { code: 'medical', employee_rate: 0.02, employer_rate: 0.098, ...BJ },
  { code: 'unemployment', employee_rate: 0.005, employer_rate: 0.005, ...BJ },
  { code: 'work_injury', employee_rate: 0, employer_rate: 0.004, ...BJ },
  { code: 'housing_fund', employee_rate: 0.045, employer_rate: 0.045, base_min: 2540, base_max: 35283 },
]
const SHANGHAI: Item[] = [
  { code: 'pension', employee_rate: 0.08, employer_rate: 0.16, ...SH },
  { code: 'medical', employee_rate: 0.02, employer_rate: 0.09, ...SH, employee_fixed: 3 },
  { code: 'unemployment', employee_rate: 0.005, employer_rate: 0.005, ...SH },
  { code: 'housing_fund', employee_rate: 0.07, employer_rate: 0.07, base_min: 2690, base_max: 36549 },
]
const shenzhen = (rates: Record<string, [number, number]>): Item[] => [
  { code: 'pension', employee_rate: rates.pension[0], employer_rate: rates.pension[1], base_min: 4492, base_max: 27501 },
  { code: 'medical', employee_rate: rates.medical[0], employer_rate: rates.medical[1], base_min: 6733, base_max: 33666 },
  { code: 'unemployment', employee_rate: rates.unemployment[0], employer_rate: rates.unemployment[1], base_min: 2360, base_max: 33666 },
  { code: 'housing_fund', employee_rate: rates.housing_fund[0], employer_rate: rates.housing_fund[1], base_min: 2360, base_max: 41190 },
]
const SHENZHEN = shenzhen({ pension: [0.08, 0.14], medical: [0.02, 0.05], unemployment: [0.003, 0.007], housing_fund: [0.05, 0.05] })
const SHENZHEN_JULY = shenzhen({ pension: [0.08, 0.15], medical: [0.02, 0.06], unemployment: [0.005, 0.008], housing_fund: [0.1, 0.1] })

type Who = 'sta' | 'crossing' | 'joiner' | 'bonus' | 'refund' | 'bounds' | 'change'
type Profile = { effective_month: string; basic_salary: number; seniority_pay?: number; allowance?: number; contribution_base: number; housing_fund_base: number }
const PEOPLE: Record<Who, { company: string; no: string; name: string; hire: string; scheme: 'Beijing' | 'Shanghai' | 'Shenzhen'; profiles: Profile[] }> = {
  sta: {
    company: 'Example Co',
    no: 'T01',
    name: 'Tang Example',
    hire: '2024-01-02',
    scheme: 'Beijing',
    profiles: [{ effective_month: '2025-01', basic_salary: 30000, contribution_base: 30000, housing_fund_base: 30000 }],
  },
  crossing: {
    company: 'Crossing Co',
    no: 'T02',
    name: 'Chen Crossing',
    hire: '2024-01-02',
    scheme: 'Shanghai',
    profiles: [{ effective_month: '2025-01', basic_salary: 11000, seniority_pay: 500, allowance: 1000, contribution_base: 12500, housing_fund_base: 12500 }],
  },
  joiner: {
    company: 'Joiner Co',
    no: 'T03',
    name: 'Jiang Joiner',
    hire: '2025-07-01',
    scheme: 'Beijing',
    profiles: [{ effective_month: '2025-07', basic_salary: 14000, allowance: 1000, contribution_base: 15000, housing_fund_base: 15000 }],
  },
  bonus: {
    company: 'Bonus Co',
    no: 'T04',
    name: 'Bai Bonus',
    hire: '2024-01-02',
    scheme: 'Beijing',
    profiles: [{ effective_month: '2025-01', basic_salary: 9000, allowance: 1000, contribution_base: 10000, housing_fund_base: 10000 }],
  },
  refund: {
    company: 'Refund Co',
    no: 'T05',
    name: 'Ren Refund',
    hire: '2024-01-02',
    scheme: 'Beijing',
    profiles: [{ effective_month: '2025-01', basic_salary: 20000, contribution_base: 20000, housing_fund_base: 20000 }],
  },
  bounds: {
    company: 'Bounds Co',
    no: 'T06',
    name: 'Bao Bounds',
    hire: '2024-01-02',
    scheme: 'Shanghai',
    profiles: [
      { effective_month: '2025-01', basic_salary: 5000, contribution_base: 5000, housing_fund_base: 2000 },
      { effective_month: '2025-07', basic_salary: 45000, contribution_base: 45000, housing_fund_base: 45000 },
    ],
  },
  change: {
    company: 'Change Co',
    no: 'T07',
    name: 'Zhang Change',
    hire: '2024-01-02',
    scheme: 'Shenzhen',
    profiles: [{ effective_month: '2025-01', basic_salary: 11000, allowance: 1000, contribution_base: 12000, housing_fund_base: 12000 }],
  },
}
const EVERYONE = Object.keys(PEOPLE) as Who[]

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any
type Line = { code: string; label: string; kind: string; amount: number; formula: string; inputs: Record<string, Json>; sources: { kind: string; id: number }[] }
type Payslip = { id: number; run_id: number; month: string; status: string; gross: number; deductions: number; net: number; lines: Line[] } & Record<string, Json>

let t: TestApp
let admin: string
const ids = {} as Record<Who, number>
const companyOf = {} as Record<Who, number>
const schemeIds = { beijing: 0, shanghai: 0, shenzhen: 0, shenzhenJuly: 0 }
let staDeclaration: Json
let refundDeclaration: Json
/** each case's approved payslips by month (absent: no payslip that month) */
const paid = {} as Record<Who, Map<string, Payslip>>
/** each case's runs by month */
const runsOf = {} as Record<Who, Map<string, Json>>

const adminDo = (method: string, path: string, body?: unknown, status = 200) => must(t, admin, method, path, body, status)
const lineOf = (payslip: Payslip, code: string): Line | undefined => {
  const found = payslip.lines.filter((line) => line.code === code)
  expect(found.length).toBeLessThanOrEqual(1)
  return found[0]
}
const amountOf = (payslip: Payslip, code: string) => lineOf(payslip, code)?.amount ?? 0
const taxOf = (payslip: Payslip) => lineOf(payslip, 'personal_tax')!
const payslipsOfRun = async (runId: number) => (await adminDo('GET', `${RUNS}/${runId}/payslips`)).payslips as Payslip[]

/**
 * Pays one month of a case: the run is created (draft), `inputs` (if any) are entered on its payslip,
 * then it is approved; the approved payslip is kept.
 */
async function payMonth(who: Who, month: string, inputs?: Record<string, unknown>): Promise<Payslip | undefined> {
  const run = await adminDo('POST', RUNS, { company_id: companyOf[who], month }, 201)
  const drafts = await payslipsOfRun(run.id)
  expect(drafts.length).toBeLessThanOrEqual(1)
  if (inputs) {
    expect(drafts).toHaveLength(1)
    const entered = await adminDo('PUT', `${RUNS}/${run.id}/payslips/${drafts[0].id}/inputs`, inputs)
    expect(entered.inputs).toEqual({ performance_pay: 0, bonus: 0, other_income: 0, other_deductions: 0, note: '', ...inputs })
  }
  const approved = await adminDo('POST', `${RUNS}/${run.id}/approve`)
  expect(approved.status).toBe('approved')
  ;(runsOf[who] ??= new Map()).set(month, approved)
  const [payslip] = await payslipsOfRun(run.id)
  if (payslip) {
    expect(payslip).toMatchObject({ month, status: 'approved', employee: { id: ids[who] } })
    ;(paid[who] ??= new Map()).set(month, payslip)
  }
  return payslip
}

/** Pays `months` of a case in order; `before` runs before a month's run is made. */
async function payMonths(who: Who, months: string[], options: { inputs?: Record<string, Record<string, unknown>>; before?: Record<string, () => Promise<void>> } = {}) {
  paid[who] ??= new Map()
  for (const month of months) {
    await options.before?.[month]?.()
    await payMonth(who, month, options.inputs?.[month])
  }
}

/** A row of a case's year: the month, then its payslip's figures (yuan), or 'no payslip'. */
type Row =
  | [month: string, gross: number, insurance: number, fund: number, tax: number, net: number, cumulativeTaxable: number, cumulativeTax: number, cumulativeSpecial: number]
  | [month: string, none: 'no payslip']

/** The year as the service paid it, in the rows' shape. */
function yearOf(who: Who, months = MONTHS): Row[] {
  return months.map((month): Row => {
    const payslip = paid[who].get(month)
    if (!payslip) return [month, 'no payslip']
    const tax = taxOf(payslip).inputs
    return [
      month,
      payslip.gross,
      amountOf(payslip, 'personal_insurance'),
      amountOf(payslip, 'housing_fund'),
      amountOf(payslip, 'personal_tax'),
      payslip.net,
      tax.cumulative_taxable,
      tax.cumulative_tax,
      tax.cumulative_special_deductions,
    ]
  })
}

const fen = (yuan: number) => Math.round(yuan * 100)
const yuan = (fen: number) => fen / 100
type PaidRow = Extract<Row, { length: 9 }>
const paidRows = (rows: Row[]) => rows.filter((row): row is PaidRow => row.length === 9)

/**
 * The rest of each tax line's figures follow from the rows (sums of the literal figures, in fen):
 * Σ gross, the months counted since the first payslip, Σ contributions, the tax withheld before;
 * and each payslip's deductions are its insurance, fund and tax.
 */
function expectRunningFigures(who: Who, rows: Row[]) {
  let gross = 0
  let contributions = 0
  let withheld = 0
  let n = 0
  for (const row of paidRows(rows)) {
    const [month, g, insurance, fund, tax] = row
    const payslip = paid[who].get(month)!
    n++
    gross += fen(g)
    contributions += fen(insurance) + fen(fund)
    expect({ month, deductions: payslip.deductions }).toEqual({ month, deductions: yuan(fen(insurance) + fen(fund) + fen(tax)) })
    expect({ month, ...taxOf(payslip).inputs }).toMatchObject({
      month,
      cumulative_gross: yuan(gross),
      basic_deduction: 5000,
      months: n,
      cumulative_contributions: yuan(contributions),
      withheld: yuan(withheld),
    })
    withheld += fen(tax)
  }
}

/**
 * The tax summary the rows make: per month its payslip's income (gross), contributions (insurance +
 * fund), special deductions (what the month added to the cumulative figure), the tax line's
 * cumulative figures and the tax withheld; the totals the sums.
 */
function summaryOf(who: Who, rows: Row[]) {
  let income = 0
  let contributions = 0
  let special = 0
  let withheld = 0
  let n = 0
  const months = paidRows(rows).map(([month, gross, insurance, fund, tax, , taxable, cumulativeTax, cumulativeSpecial]) => {
    n++
    // what the month added to the cumulative special deductions
    const thisSpecial = fen(cumulativeSpecial) - special
    income += fen(gross)
    contributions += fen(insurance) + fen(fund)
    special += thisSpecial
    withheld += fen(tax)
    return {
      month,
      company: { id: companyOf[who], name: PEOPLE[who].company },
      payslip_id: paid[who].get(month)!.id,
      income: gross,
      contributions: yuan(fen(insurance) + fen(fund)),
      special_deductions: yuan(thisSpecial),
      cumulative_income: yuan(income),
      cumulative_basic_deduction: 5000 * n,
      cumulative_contributions: yuan(contributions),
      cumulative_special_deductions: cumulativeSpecial,
      cumulative_taxable: taxable,
      cumulative_tax: cumulativeTax,
      tax_withheld: tax,
      cumulative_withheld: yuan(withheld),
    }
  })
  return {
    year: YEAR,
    employee: { id: ids[who], name: PEOPLE[who].name, employee_no: PEOPLE[who].no },
    months,
    totals: { income: yuan(income), contributions: yuan(contributions), special_deductions: yuan(special), tax_withheld: yuan(withheld) },
  }
}

const adminSummary = (who: Who) => adminDo('GET', `/api/v1/admin/payroll/tax-summary?year=${YEAR}&employee_id=${ids[who]}`)

/** The scheme as the service answers it: items as given, employee_fixed 0 unless given. */
const schemeBody = (id: number, name: string, effectiveFrom: string, items: Item[]) => ({
  id,
  name,
  effective_from: effectiveFrom,
  items: items.map((item) => ({ employee_fixed: 0, ...item })),
  created_at: NOW,
  updated_at: NOW,
})

beforeAll(async () => {
  t = await startApp({ now: NOW, env: { ACCESS_TOKEN_TTL: '2592000' } })
  admin = await loginAdmin(t.app)

  schemeIds.beijing = (await adminDo('POST', SCHEMES, { name: 'Beijing', effective_from: '2025-01', items: BEIJING }, 201)).id
  schemeIds.shanghai = (await adminDo('POST', SCHEMES, { name: 'Shanghai', effective_from: '2025-01', items: SHANGHAI }, 201)).id
  schemeIds.shenzhen = (await adminDo('POST', SCHEMES, { name: 'Shenzhen', effective_from: '2025-01', items: SHENZHEN }, 201)).id
  const schemeOf = { Beijing: schemeIds.beijing, Shanghai: schemeIds.shanghai, Shenzhen: schemeIds.shenzhen }

  for (const who of EVERYONE) {
    const p = PEOPLE[who]
    companyOf[who] = (await adminDo('POST', '/api/v1/admin/companies', { name: p.company, timezone: 'Asia/Shanghai' }, 201)).id
    // Tang has an account (her own tax summary); the others need none
    const account = who === 'sta' ? { username: 'tang', password: 'tang-password-1' } : {}
    ids[who] = (await adminDo('POST', '/api/v1/admin/employees', { name: p.name, employee_no: p.no, company_id: companyOf[who], hire_date: p.hire, ...account }, 201)).id
    for (const profile of p.profiles) await adminDo('PUT', `/api/v1/admin/employees/${ids[who]}/pay-profile`, { ...profile, scheme_id: schemeOf[p.scheme] })
  }
}, 30_000)

afterAll(() => t?.close())

describe('the schemes and the declaration as given', () => {
  test('the schemes read back as created, employee_fixed 0 unless given', async () => {
    expect(await adminDo('GET', `${SCHEMES}/${schemeIds.beijing}`)).toEqual(schemeBody(schemeIds.beijing, 'Beijing', '2025-01', BEIJING))
    expect(await adminDo('GET', `${SCHEMES}/${schemeIds.shanghai}`)).toEqual(schemeBody(schemeIds.shanghai, 'Shanghai', '2025-01', SHANGHAI))
    expect(await adminDo('GET', `${SCHEMES}/${schemeIds.shenzhen}`)).toEqual(schemeBody(schemeIds.shenzhen, 'Shenzhen', '2025-01', SHENZHEN))
  })

  test('Tang declares housing rent 1,500 and elderly support 2,500: 4,000 a month from January', async () => {
    staDeclaration = await adminDo('PUT', `/api/v1/admin/employees/${ids.sta}/tax-deductions/${YEAR}`, { housing_rent: 1500, elderly_support: 2500 })
    expect(staDeclaration).toEqual({
      id: expect.any(Number),
      employee_id: ids.sta,
      year: YEAR,
      from_month: '2025-01',
      children_education: 0,
      infant_care: 0,
      continuing_education: 0,
      housing_loan_interest: 0,
      housing_rent: 1500,
      elderly_support: 2500,
      children: 0,
      // 1500 + 2500
      monthly_total: 4000,
      created_at: NOW,
      updated_at: NOW,
    })
    expect(await adminDo('GET', `/api/v1/admin/employees/${ids.sta}/tax-deductions/${YEAR}`)).toEqual(staDeclaration)
  })
})

describe("the State Taxation Administration's example: 30,000 a month, 4,500 insurance and fund, 4,000 special deductions", () => {
  test('January 495.00, February 495.00, March 1,440.00', async () => {
    await payMonths('sta', ['2025-01', '2025-02', '2025-03'])
    expect(yearOf('sta', ['2025-01', '2025-02', '2025-03'])).toEqual([
      // 30000 − 5000 − 4500 − 4000 = 16500 × 0.03 = 495.00; net 30000 − 4500 − 495 = 25005.00
      ['2025-01', 30000, 3150, 1350, 495, 25005, 16500, 495, 4000],
      // 33000 × 0.03 = 990.00 − 495.00 withheld
      ['2025-02', 30000, 3150, 1350, 495, 25005, 33000, 990, 8000],
      // 49500 × 0.10 − 2520 = 2430.00 − 990.00 withheld = 1440.00; net 30000 − 4500 − 1440 = 24060.00
      ['2025-03', 30000, 3150, 1350, 1440, 24060, 49500, 2430, 12000],
    ])
  })

  test("March's tax line: its whole formula, its inputs and its sources (January's and February's payslips, the declaration)", async () => {
    const [january, february, march] = ['2025-01', '2025-02', '2025-03'].map((month) => paid.sta.get(month)!)
    expect(taxOf(january).formula).toBe(
      'special deductions: 4000.00 × 1 = 4000.00; taxable: max(0, 30000.00 − 5000.00 × 1 − 4500.00 − 4000.00) = 16500.00; tax: 16500.00 × 0.03 − 0.00 = 495.00; this month: max(0, 495.00 − 0.00) = 495.00',
    )
    expect(taxOf(march)).toEqual({
      code: 'personal_tax',
      label: expect.any(String),
      kind: 'deduction',
      amount: 1440,
      formula:
        'special deductions: 4000.00 × 3 = 12000.00; taxable: max(0, 90000.00 − 5000.00 × 3 − 13500.00 − 12000.00) = 49500.00; tax: 49500.00 × 0.10 − 2520.00 = 2430.00; this month: max(0, 2430.00 − 990.00) = 1440.00',
      inputs: {
        cumulative_gross: 90000,
        basic_deduction: 5000,
        months: 3,
        cumulative_contributions: 13500,
        special_deductions_per_month: 4000,
        special_deduction_months: 3,
        cumulative_special_deductions: 12000,
        cumulative_taxable: 49500,
        rate: 0.1,
        quick_deduction: 2520,
        cumulative_tax: 2430,
        withheld: 990,
      },
      sources: [
        { kind: 'payslip', id: january.id },
        { kind: 'payslip', id: february.id },
        { kind: 'tax_deduction', id: staDeclaration.id },
      ],
    })
    // the wage is the whole profile: no attendance group, no work days, nothing deducted
    expect(march.lines.filter((line) => line.kind === 'income').map((line) => [line.code, line.amount])).toEqual([['basic_salary', 30000]])
    expect(march.lines.filter((line) => line.kind === 'attendance')).toEqual([])
    // employer: 4800.00 + 2940.00 + 150.00 + 120.00 + 1350.00
    expect(lineOf(march, 'employer_contributions')).toMatchObject({ kind: 'employer', amount: 9360 })
    expect(march).toMatchObject({ gross: 30000, deductions: 5940, net: 24060 })
  })

  test("March's run totals and salary record", async () => {
    expect(runsOf.sta.get('2025-03').totals).toEqual({
      gross: 30000,
      // 3150 + 1350 + 1440
      deductions: 5940,
      employee_contributions: 4500,
      employer_contributions: 9360,
      tax: 1440,
      net: 24060,
      head_count: 1,
    })
    const records = (await adminDo('GET', `/api/v1/admin/salaries?month=2025-03&employee_id=${ids.sta}&page_size=100`)).salaries
    expect(records).toHaveLength(1)
    expect(records[0]).toMatchObject({
      net_salary: 24060,
      income: { basic_salary: 30000, total: 30000 },
      deductions: { personal_insurance: 3150, housing_fund: 1350, personal_tax: 1440, attendance_deduction: 0, other_deductions: 0, total: 5940 },
    })
  })

  test('the whole year: 10 % from March, 20 % from September', async () => {
    await payMonths('sta', MONTHS.slice(3))
    const rows: Row[] = [
      //  month      gross  insur.  fund  tax     net     cum.taxable cum.tax cum.special
      ['2025-01', 30000, 3150, 1350, 495, 25005, 16500, 495, 4000],
      ['2025-02', 30000, 3150, 1350, 495, 25005, 33000, 990, 8000],
      ['2025-03', 30000, 3150, 1350, 1440, 24060, 49500, 2430, 12000],
      // 66000 × 0.10 − 2520 = 4080 − 2430
      ['2025-04', 30000, 3150, 1350, 1650, 23850, 66000, 4080, 16000],
      ['2025-05', 30000, 3150, 1350, 1650, 23850, 82500, 5730, 20000],
      ['2025-06', 30000, 3150, 1350, 1650, 23850, 99000, 7380, 24000],
      ['2025-07', 30000, 3150, 1350, 1650, 23850, 115500, 9030, 28000],
      ['2025-08', 30000, 3150, 1350, 1650, 23850, 132000, 10680, 32000],
      // 148500 × 0.20 − 16920 = 12780 − 10680
      ['2025-09', 30000, 3150, 1350, 2100, 23400, 148500, 12780, 36000],
      // 165000 × 0.20 − 16920 = 16080 − 12780
      ['2025-10', 30000, 3150, 1350, 3300, 22200, 165000, 16080, 40000],
      ['2025-11', 30000, 3150, 1350, 3300, 22200, 181500, 19380, 44000],
      ['2025-12', 30000, 3150, 1350, 3300, 22200, 198000, 22680, 48000],
    ]
    expect(yearOf('sta')).toEqual(rows)
    expectRunningFigures('sta', rows)
    const summary = summaryOf('sta', rows)
    // Σ gross 360000; Σ 4500 × 12 = 54000; Σ 4000 × 12 = 48000; Σ tax = the cumulative tax 22680
    expect(summary.totals).toEqual({ income: 360000, contributions: 54000, special_deductions: 48000, tax_withheld: 22680 })
    expect(await adminSummary('sta')).toEqual(summary)
  })

  test("Tang's own tax summary (GET /payslips/tax-summary, her linked account) is the admin's", async () => {
    const tang = await login(t.app, 'tang', 'tang-password-1')
    const own = await must(t, tang, 'GET', `/api/v1/payslips/tax-summary?year=${YEAR}`)
    expect(own).toEqual(await adminSummary('sta'))
    expect(own.months.map((month: Json) => month.tax_withheld)).toEqual([495, 495, 1440, 1650, 1650, 1650, 1650, 1650, 2100, 3300, 3300, 3300])
    // an account linked to no employee has no tax summary of its own
    expect((await req(t.app, 'GET', `/api/v1/payslips/tax-summary?year=${YEAR}`, { token: admin })).status).toBe(403)
  }, 30_000)
})

describe('1. a bracket crossed mid-year (3 % → 10 % in July), half-fen roundings alternating', () => {
  test('the year', async () => {
    await payMonths('crossing', MONTHS)
    const rows: Row[] = [
      //  month      gross  insur.   fund tax     net       cum.taxable cum.tax cum.special
      // 5309.50 × 0.03 = 159.285 → 159.29; net 12500 − 2190.50 − 159.29
      ['2025-01', 12500, 1315.5, 875, 159.29, 10150.21, 5309.5, 159.29, 0],
      // 318.57 − 159.29
      ['2025-02', 12500, 1315.5, 875, 159.28, 10150.22, 10619, 318.57, 0],
      // 477.855 → 477.86 − 318.57
      ['2025-03', 12500, 1315.5, 875, 159.29, 10150.21, 15928.5, 477.86, 0],
      ['2025-04', 12500, 1315.5, 875, 159.28, 10150.22, 21238, 637.14, 0],
      // 796.425 → 796.43
      ['2025-05', 12500, 1315.5, 875, 159.29, 10150.21, 26547.5, 796.43, 0],
      ['2025-06', 12500, 1315.5, 875, 159.28, 10150.22, 31857, 955.71, 0],
      // 37166.50 × 0.10 − 2520 = 1196.65 − 955.71 = 240.94
      ['2025-07', 12500, 1315.5, 875, 240.94, 10068.56, 37166.5, 1196.65, 0],
      // 4247.60 − 2520 = 1727.60 − 1196.65
      ['2025-08', 12500, 1315.5, 875, 530.95, 9778.55, 42476, 1727.6, 0],
      ['2025-09', 12500, 1315.5, 875, 530.95, 9778.55, 47785.5, 2258.55, 0],
      ['2025-10', 12500, 1315.5, 875, 530.95, 9778.55, 53095, 2789.5, 0],
      ['2025-11', 12500, 1315.5, 875, 530.95, 9778.55, 58404.5, 3320.45, 0],
      ['2025-12', 12500, 1315.5, 875, 530.95, 9778.55, 63714, 3851.4, 0],
    ]
    expect(yearOf('crossing')).toEqual(rows)
    expectRunningFigures('crossing', rows)
    const july = taxOf(paid.crossing.get('2025-07')!)
    expect(july.formula).toBe(
      // 12500 × 7 = 87500; 2190.50 × 7 = 15333.50
      'taxable: max(0, 87500.00 − 5000.00 × 7 − 15333.50 − 0.00) = 37166.50; tax: 37166.50 × 0.10 − 2520.00 = 1196.65; this month: max(0, 1196.65 − 955.71) = 240.94',
    )
    // the medical item's fixed 3.00 after its rate
    expect(lineOf(paid.crossing.get('2025-01')!, 'personal_insurance')!.formula).toBe(
      'pension: 12500.00 × 0.08 = 1000.00; medical: 12500.00 × 0.02 + 3.00 = 253.00; unemployment: 12500.00 × 0.005 = 62.50; 1000.00 + 253.00 + 62.50 = 1315.50',
    )
    const summary = summaryOf('crossing', rows)
    // 12500 × 12; 2190.50 × 12 = 26286.00; Σ tax = 3851.40
    expect(summary.totals).toEqual({ income: 150000, contributions: 26286, special_deductions: 0, tax_withheld: 3851.4 })
    expect(await adminSummary('crossing')).toEqual(summary)
  })
})

describe('2. a joiner in July: the basic deduction counts from July', () => {
  test('the year: no payslip before July; July is month 1', async () => {
    await payMonths('joiner', MONTHS)
    // the runs of January to June pay nobody
    for (const month of MONTHS.slice(0, 6)) expect(runsOf.joiner.get(month).totals.head_count).toBe(0)
    const rows: Row[] = [
      ['2025-01', 'no payslip'],
      ['2025-02', 'no payslip'],
      ['2025-03', 'no payslip'],
      ['2025-04', 'no payslip'],
      ['2025-05', 'no payslip'],
      ['2025-06', 'no payslip'],
      //  month      gross  insur. fund  tax    net       cum.taxable cum.tax cum.special
      // 15000 − 5000 × 1 − 2250 = 7750 × 0.03 = 232.50; net 15000 − 2250 − 232.50
      ['2025-07', 15000, 1575, 675, 232.5, 12517.5, 7750, 232.5, 0],
      ['2025-08', 15000, 1575, 675, 232.5, 12517.5, 15500, 465, 0],
      ['2025-09', 15000, 1575, 675, 232.5, 12517.5, 23250, 697.5, 0],
      ['2025-10', 15000, 1575, 675, 232.5, 12517.5, 31000, 930, 0],
      // 38750 × 0.10 − 2520 = 1355 − 930
      ['2025-11', 15000, 1575, 675, 425, 12325, 38750, 1355, 0],
      // 46500 × 0.10 − 2520 = 2130 − 1355
      ['2025-12', 15000, 1575, 675, 775, 11975, 46500, 2130, 0],
    ]
    expect(yearOf('joiner')).toEqual(rows)
    expectRunningFigures('joiner', rows)
    expect(taxOf(paid.joiner.get('2025-07')!).formula).toBe(
      'taxable: max(0, 15000.00 − 5000.00 × 1 − 2250.00 − 0.00) = 7750.00; tax: 7750.00 × 0.03 − 0.00 = 232.50; this month: max(0, 232.50 − 0.00) = 232.50',
    )
    expect(taxOf(paid.joiner.get('2025-12')!).formula).toBe(
      'taxable: max(0, 90000.00 − 5000.00 × 6 − 13500.00 − 0.00) = 46500.00; tax: 46500.00 × 0.10 − 2520.00 = 2130.00; this month: max(0, 2130.00 − 1355.00) = 775.00',
    )
    const summary = summaryOf('joiner', rows)
    expect(summary.months.map((month) => [month.month, month.cumulative_basic_deduction])).toEqual([
      ['2025-07', 5000],
      ['2025-08', 10000],
      ['2025-09', 15000],
      ['2025-10', 20000],
      ['2025-11', 25000],
      ['2025-12', 30000],
    ])
    expect(summary.totals).toEqual({ income: 90000, contributions: 13500, special_deductions: 0, tax_withheld: 2130 })
    expect(await adminSummary('joiner')).toEqual(summary)
  })
})

describe('3. a bonus month: 50,000 entered on June’s payslip', () => {
  test('the year', async () => {
    await payMonths('bonus', MONTHS, { inputs: { '2025-06': { bonus: 50000, note: 'Half-year bonus' } } })
    const june = paid.bonus.get('2025-06')!
    expect(lineOf(june, 'bonus')).toMatchObject({ kind: 'income', amount: 50000 })
    const rows: Row[] = [
      //  month      gross  insur. fund tax    net     cum.taxable cum.tax cum.special
      // 10000 − 5000 − 1500 = 3500 × 0.03 = 105.00; net 10000 − 1500 − 105
      ['2025-01', 10000, 1050, 450, 105, 8395, 3500, 105, 0],
      ['2025-02', 10000, 1050, 450, 105, 8395, 7000, 210, 0],
      ['2025-03', 10000, 1050, 450, 105, 8395, 10500, 315, 0],
      ['2025-04', 10000, 1050, 450, 105, 8395, 14000, 420, 0],
      ['2025-05', 10000, 1050, 450, 105, 8395, 17500, 525, 0],
      // 17500 + 60000 − 5000 − 1500 = 71000 × 0.10 − 2520 = 4580 − 525 = 4055; net 60000 − 1500 − 4055
      ['2025-06', 60000, 1050, 450, 4055, 54445, 71000, 4580, 0],
      // 74500 × 0.10 − 2520 = 4930 − 4580
      ['2025-07', 10000, 1050, 450, 350, 8150, 74500, 4930, 0],
      ['2025-08', 10000, 1050, 450, 350, 8150, 78000, 5280, 0],
      ['2025-09', 10000, 1050, 450, 350, 8150, 81500, 5630, 0],
      ['2025-10', 10000, 1050, 450, 350, 8150, 85000, 5980, 0],
      ['2025-11', 10000, 1050, 450, 350, 8150, 88500, 6330, 0],
      ['2025-12', 10000, 1050, 450, 350, 8150, 92000, 6680, 0],
    ]
    expect(yearOf('bonus')).toEqual(rows)
    expectRunningFigures('bonus', rows)
    expect(taxOf(june).formula).toBe(
      'taxable: max(0, 110000.00 − 5000.00 × 6 − 9000.00 − 0.00) = 71000.00; tax: 71000.00 × 0.10 − 2520.00 = 4580.00; this month: max(0, 4580.00 − 525.00) = 4055.00',
    )
    // June's salary record: the bonus as bonus, the tax as withheld
    const [record] = (await adminDo('GET', `/api/v1/admin/salaries?month=2025-06&employee_id=${ids.bonus}&page_size=100`)).salaries
    expect(record).toMatchObject({ net_salary: 54445, income: { basic_salary: 9000, allowance: 1000, bonus: 50000, total: 60000 }, deductions: { personal_tax: 4055 } })
    const summary = summaryOf('bonus', rows)
    expect(summary.totals).toEqual({ income: 170000, contributions: 18000, special_deductions: 0, tax_withheld: 6680 })
    expect(await adminSummary('bonus')).toEqual(summary)
  })
})

describe('4. cumulative tax below what was withheld: a declaration from January made in July', () => {
  test('the year: 0.00 (never negative) from July until the December bonus passes what was withheld', async () => {
    await payMonths('refund', MONTHS, {
      inputs: { '2025-12': { bonus: 30000 } },
      before: {
        '2025-07': async () => {
          refundDeclaration = await adminDo('PUT', `/api/v1/admin/employees/${ids.refund}/tax-deductions/${YEAR}`, {
            from_month: '2025-01',
            children: 2,
            children_education: 4000,
            housing_loan_interest: 1000,
            elderly_support: 3000,
          })
          // 4000 + 1000 + 3000
          expect(refundDeclaration).toMatchObject({ from_month: '2025-01', children: 2, monthly_total: 8000 })
        },
      },
    })
    const rows: Row[] = [
      //  month      gross  insur. fund tax   net     cum.taxable cum.tax cum.special
      // 20000 − 5000 − 3000 = 12000 × 0.03 = 360.00; net 20000 − 3000 − 360
      ['2025-01', 20000, 2100, 900, 360, 16640, 12000, 360, 0],
      ['2025-02', 20000, 2100, 900, 360, 16640, 24000, 720, 0],
      // 36000 is still the 3 % bracket (≤ 36,000)
      ['2025-03', 20000, 2100, 900, 360, 16640, 36000, 1080, 0],
      // 48000 × 0.10 − 2520 = 2280 − 1080
      ['2025-04', 20000, 2100, 900, 1200, 15800, 48000, 2280, 0],
      ['2025-05', 20000, 2100, 900, 1200, 15800, 60000, 3480, 0],
      ['2025-06', 20000, 2100, 900, 1200, 15800, 72000, 4680, 0],
      // 140000 − 35000 − 21000 − 8000 × 7 = 28000 × 0.03 = 840 < 4680 withheld → 0.00
      ['2025-07', 20000, 2100, 900, 0, 17000, 28000, 840, 56000],
      ['2025-08', 20000, 2100, 900, 0, 17000, 32000, 960, 64000],
      ['2025-09', 20000, 2100, 900, 0, 17000, 36000, 1080, 72000],
      // 40000 × 0.10 − 2520 = 1480 < 4680
      ['2025-10', 20000, 2100, 900, 0, 17000, 40000, 1480, 80000],
      ['2025-11', 20000, 2100, 900, 0, 17000, 44000, 1880, 88000],
      // + 30000 bonus: 78000 × 0.10 − 2520 = 5280 − 4680 = 600; net 50000 − 3000 − 600
      ['2025-12', 50000, 2100, 900, 600, 46400, 78000, 5280, 96000],
    ]
    expect(yearOf('refund')).toEqual(rows)
    expectRunningFigures('refund', rows)
    const july = taxOf(paid.refund.get('2025-07')!)
    expect(july.formula).toBe(
      'special deductions: 8000.00 × 7 = 56000.00; taxable: max(0, 140000.00 − 5000.00 × 7 − 21000.00 − 56000.00) = 28000.00; tax: 28000.00 × 0.03 − 0.00 = 840.00; this month: max(0, 840.00 − 4680.00) = 0.00',
    )
    expect(july.inputs).toMatchObject({ special_deductions_per_month: 8000, special_deduction_months: 7, withheld: 4680 })
    expect(july.sources.at(-1)).toEqual({ kind: 'tax_deduction', id: refundDeclaration.id })
    // June, computed before the declaration, stays as approved: no special deductions in it
    expect(taxOf(paid.refund.get('2025-06')!).formula).toBe(
      'taxable: max(0, 120000.00 − 5000.00 × 6 − 18000.00 − 0.00) = 72000.00; tax: 72000.00 × 0.10 − 2520.00 = 4680.00; this month: max(0, 4680.00 − 3480.00) = 1200.00',
    )
    expect(taxOf(paid.refund.get('2025-12')!).formula).toBe(
      'special deductions: 8000.00 × 12 = 96000.00; taxable: max(0, 270000.00 − 5000.00 × 12 − 36000.00 − 96000.00) = 78000.00; tax: 78000.00 × 0.10 − 2520.00 = 5280.00; this month: max(0, 5280.00 − 4680.00) = 600.00',
    )
    const summary = summaryOf('refund', rows)
    // a month's special_deductions is what it added to the cumulative figure: July takes in January to
    // July at once (8000 × 7 = 56000), then 8000 a month; the total is December's cumulative 96000
    expect(summary.months.map((month) => [month.month, month.special_deductions, month.cumulative_special_deductions]).slice(5, 8)).toEqual([
      ['2025-06', 0, 0],
      ['2025-07', 56000, 56000],
      ['2025-08', 8000, 64000],
    ])
    // 20000 × 11 + 50000; 3000 × 12; 8000 × 12; 360 × 3 + 1200 × 3 + 600
    expect(summary.totals).toEqual({ income: 270000, contributions: 36000, special_deductions: 96000, tax_withheld: 5280 })
    expect(await adminSummary('refund')).toEqual(summary)
  })
})

describe('5. contribution bases below the floor (January–June) and above the ceiling (July–December)', () => {
  test('the year', async () => {
    await payMonths('bounds', MONTHS)
    const rows: Row[] = [
      //  month      gross  insur.   fund     tax      net       cum.taxable cum.tax   cum.special
      // 5000 − 5000 − 958.85 < 0 → 0; net 5000 − 770.55 − 188.30
      ['2025-01', 5000, 770.55, 188.3, 0, 4041.15, 0, 0, 0],
      ['2025-02', 5000, 770.55, 188.3, 0, 4041.15, 0, 0, 0],
      ['2025-03', 5000, 770.55, 188.3, 0, 4041.15, 0, 0, 0],
      ['2025-04', 5000, 770.55, 188.3, 0, 4041.15, 0, 0, 0],
      ['2025-05', 5000, 770.55, 188.3, 0, 4041.15, 0, 0, 0],
      ['2025-06', 5000, 770.55, 188.3, 0, 4041.15, 0, 0, 0],
      // 75000 − 35000 − (5753.10 + 6399.08) = 27847.82 × 0.03 = 835.4346; net 45000 − 6399.08 − 835.43
      ['2025-07', 45000, 3840.65, 2558.43, 835.43, 37765.49, 27847.82, 835.43, 0],
      // 120000 − 40000 − 18551.26 = 61448.74 × 0.10 − 2520 = 3624.874 → 3624.87 − 835.43
      ['2025-08', 45000, 3840.65, 2558.43, 2789.44, 35811.48, 61448.74, 3624.87, 0],
      // 165000 − 45000 − 24950.34 = 95049.66 → 6984.966 → 6984.97 − 3624.87
      ['2025-09', 45000, 3840.65, 2558.43, 3360.1, 35240.82, 95049.66, 6984.97, 0],
      // 210000 − 50000 − 31349.42 = 128650.58 → 10345.058 → 10345.06 − 6984.97
      ['2025-10', 45000, 3840.65, 2558.43, 3360.09, 35240.83, 128650.58, 10345.06, 0],
      // 255000 − 55000 − 37748.50 = 162251.50 × 0.20 − 16920 = 15530.30 − 10345.06
      ['2025-11', 45000, 3840.65, 2558.43, 5185.24, 33415.68, 162251.5, 15530.3, 0],
      // 300000 − 60000 − 44147.58 = 195852.42 → 22250.484 → 22250.48 − 15530.30
      ['2025-12', 45000, 3840.65, 2558.43, 6720.18, 31880.74, 195852.42, 22250.48, 0],
    ]
    expect(yearOf('bounds')).toEqual(rows)
    expectRunningFigures('bounds', rows)
    const summary = summaryOf('bounds', rows)
    // 958.85 × 6 + 6399.08 × 6 = 5753.10 + 38394.48
    expect(summary.totals).toEqual({ income: 300000, contributions: 44147.58, special_deductions: 0, tax_withheld: 22250.48 })
    expect(await adminSummary('bounds')).toEqual(summary)
  })

  test('below the floor: the bases written max(profile, floor)', () => {
    for (const month of MONTHS.slice(0, 6)) {
      const payslip = paid.bounds.get(month)!
      expect(lineOf(payslip, 'personal_insurance')).toMatchObject({
        kind: 'deduction',
        amount: 770.55,
        formula:
          'pension: max(5000.00, 7310.00) × 0.08 = 584.80; medical: max(5000.00, 7310.00) × 0.02 + 3.00 = 149.20; unemployment: max(5000.00, 7310.00) × 0.005 = 36.55; 584.80 + 149.20 + 36.55 = 770.55',
      })
      expect(lineOf(payslip, 'housing_fund')).toMatchObject({ kind: 'deduction', amount: 188.3, formula: 'housing_fund: max(2000.00, 2690.00) × 0.07 = 188.30' })
      expect(lineOf(payslip, 'employer_contributions')).toMatchObject({
        kind: 'employer',
        amount: 2052.35,
        formula:
          'pension: max(5000.00, 7310.00) × 0.16 = 1169.60; medical: max(5000.00, 7310.00) × 0.09 = 657.90; unemployment: max(5000.00, 7310.00) × 0.005 = 36.55; housing_fund: max(2000.00, 2690.00) × 0.07 = 188.30; 1169.60 + 657.90 + 36.55 + 188.30 = 2052.35',
      })
      // the employer's share is in none of the payslip's totals: 958.85 of deductions, net 4041.15
      expect(payslip).toMatchObject({ gross: 5000, deductions: 958.85, net: 4041.15 })
    }
  })

  test('above the ceiling: the bases written min(profile, ceiling); a half fen rounded up', () => {
    for (const month of MONTHS.slice(6)) {
      const payslip = paid.bounds.get(month)!
      expect(lineOf(payslip, 'personal_insurance')).toMatchObject({
        kind: 'deduction',
        amount: 3840.65,
        // 36549 × 0.005 = 182.745 → 182.75
        formula:
          'pension: min(45000.00, 36549.00) × 0.08 = 2923.92; medical: min(45000.00, 36549.00) × 0.02 + 3.00 = 733.98; unemployment: min(45000.00, 36549.00) × 0.005 = 182.75; 2923.92 + 733.98 + 182.75 = 3840.65',
      })
      expect(lineOf(payslip, 'housing_fund')).toMatchObject({ kind: 'deduction', amount: 2558.43, formula: 'housing_fund: min(45000.00, 36549.00) × 0.07 = 2558.43' })
      expect(lineOf(payslip, 'employer_contributions')).toMatchObject({
        kind: 'employer',
        amount: 11878.43,
        formula:
          'pension: min(45000.00, 36549.00) × 0.16 = 5847.84; medical: min(45000.00, 36549.00) × 0.09 = 3289.41; unemployment: min(45000.00, 36549.00) × 0.005 = 182.75; housing_fund: min(45000.00, 36549.00) × 0.07 = 2558.43; 5847.84 + 3289.41 + 182.75 + 2558.43 = 11878.43',
      })
    }
    expect(runsOf.bounds.get('2025-07').totals).toEqual({
      gross: 45000,
      // 3840.65 + 2558.43 + 835.43
      deductions: 7234.51,
      employee_contributions: 6399.08,
      employer_contributions: 11878.43,
      tax: 835.43,
      net: 37765.49,
      head_count: 1,
    })
  })
})

describe('6. the city changes its scheme in July: a scheme of the same name from 2025-07', () => {
  test('the year: the profile names the first scheme; July on uses the newer one of its name', async () => {
    await payMonths('change', MONTHS, {
      before: {
        '2025-07': async () => {
          schemeIds.shenzhenJuly = (await adminDo('POST', SCHEMES, { name: 'Shenzhen', effective_from: '2025-07', items: SHENZHEN_JULY }, 201)).id
        },
      },
    })
    const rows: Row[] = [
      //  month      gross  insur. fund  tax     net      cum.taxable cum.tax cum.special
      // 12000 − 5000 − 1836 = 5164 × 0.03 = 154.92; net 12000 − 1836 − 154.92
      ['2025-01', 12000, 1236, 600, 154.92, 10009.08, 5164, 154.92, 0],
      ['2025-02', 12000, 1236, 600, 154.92, 10009.08, 10328, 309.84, 0],
      ['2025-03', 12000, 1236, 600, 154.92, 10009.08, 15492, 464.76, 0],
      ['2025-04', 12000, 1236, 600, 154.92, 10009.08, 20656, 619.68, 0],
      ['2025-05', 12000, 1236, 600, 154.92, 10009.08, 25820, 774.6, 0],
      ['2025-06', 12000, 1236, 600, 154.92, 10009.08, 30984, 929.52, 0],
      // + 12000 − 5000 − 2460 = 35524 × 0.03 = 1065.72 − 929.52; net 12000 − 2460 − 136.20
      ['2025-07', 12000, 1260, 1200, 136.2, 9403.8, 35524, 1065.72, 0],
      // 40064 × 0.10 − 2520 = 1486.40 − 1065.72
      ['2025-08', 12000, 1260, 1200, 420.68, 9119.32, 40064, 1486.4, 0],
      ['2025-09', 12000, 1260, 1200, 454, 9086, 44604, 1940.4, 0],
      ['2025-10', 12000, 1260, 1200, 454, 9086, 49144, 2394.4, 0],
      ['2025-11', 12000, 1260, 1200, 454, 9086, 53684, 2848.4, 0],
      ['2025-12', 12000, 1260, 1200, 454, 9086, 58224, 3302.4, 0],
    ]
    expect(yearOf('change')).toEqual(rows)
    expectRunningFigures('change', rows)
    const summary = summaryOf('change', rows)
    // 1836 × 6 + 2460 × 6 = 11016 + 14760
    expect(summary.totals).toEqual({ income: 144000, contributions: 25776, special_deductions: 0, tax_withheld: 3302.4 })
    expect(await adminSummary('change')).toEqual(summary)
  })

  test("each month's contribution lines name the scheme in effect and use its rates", () => {
    for (const month of MONTHS) {
      const payslip = paid.change.get(month)!
      const july = month >= '2025-07'
      const scheme = july ? schemeIds.shenzhenJuly : schemeIds.shenzhen
      for (const code of ['personal_insurance', 'housing_fund', 'employer_contributions']) {
        const sources = lineOf(payslip, code)!.sources
        expect({ month, code, named: sources.some((source) => source.kind === 'contribution_scheme' && source.id === scheme) }).toEqual({ month, code, named: true })
        expect(sources.filter((source) => source.kind === 'contribution_scheme')).toHaveLength(1)
      }
      expect(lineOf(payslip, 'personal_insurance')!.formula).toBe(
        july
          ? 'pension: 12000.00 × 0.08 = 960.00; medical: 12000.00 × 0.02 = 240.00; unemployment: 12000.00 × 0.005 = 60.00; 960.00 + 240.00 + 60.00 = 1260.00'
          : 'pension: 12000.00 × 0.08 = 960.00; medical: 12000.00 × 0.02 = 240.00; unemployment: 12000.00 × 0.003 = 36.00; 960.00 + 240.00 + 36.00 = 1236.00',
      )
      expect(lineOf(payslip, 'housing_fund')!.formula).toBe(july ? 'housing_fund: 12000.00 × 0.10 = 1200.00' : 'housing_fund: 12000.00 × 0.05 = 600.00')
      // 1680 + 600 + 84 + 600; 1800 + 720 + 96 + 1200
      expect(lineOf(payslip, 'employer_contributions')!.amount).toBe(july ? 3816 : 2964)
    }
  })

  test('the chain: both schemes listed by name, the newer first; the one in use cannot be deleted', async () => {
    const { schemes } = await adminDo('GET', SCHEMES)
    expect(schemes.map((scheme: Json) => [scheme.name, scheme.effective_from])).toEqual([
      ['Beijing', '2025-01'],
      ['Shanghai', '2025-01'],
      ['Shenzhen', '2025-07'],
      ['Shenzhen', '2025-01'],
    ])
    expect((await req(t.app, 'DELETE', `${SCHEMES}/${schemeIds.shenzhenJuly}`, { token: admin })).status).toBe(409)
    expect((await req(t.app, 'DELETE', `${SCHEMES}/${schemeIds.shenzhen}`, { token: admin })).status).toBe(409)
  })
})
