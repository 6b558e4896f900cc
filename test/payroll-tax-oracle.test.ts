import { afterAll, expect, test } from 'bun:test'
import { login, loginAdmin, makeUser, startApp, type TestApp } from './helpers'
import { call, prng, type Prng } from './payroll-generate'
import { employees } from '../src/db/schema'
import {
  addDays,
  datesBetween,
  employedRange,
  evaluateFormula,
  Frac,
  money2,
  nextMonth,
  numberText,
  oraclePayslip,
  yuanText,
  type OracleEntered,
  type OracleSettings,
} from './payroll-oracle'
import {
  capProblems,
  contributionFormula,
  decimalKey,
  formulaDifference,
  ITEM_CODES,
  monthlyTotal,
  rateDecimal,
  schemeInEffect,
  taxFormula,
  taxPayslip,
  type Declaration,
  type EarlierMonth,
  type ItemShare,
  type TaxItem,
  type TaxPayslip,
  type TaxScheme,
  type Withholding,
} from './payroll-tax-oracle'

/*
 * The tax oracle test (issue 29): a year of monthly payroll runs at a few seeded companies, every
 * approved payslip's personal_insurance, housing_fund, employer_contributions and personal_tax
 * compared with test/payroll-tax-oracle.ts (written from CONTRACT §17 and the API notes,
 * not from src/), with its formula evaluated exactly and its named inputs and sources; deductions,
 * net and the run's totals; and at the end the tax summary of a sample of employees.
 *
 * What is generated: contribution schemes in chains by name (a city changing mid-year, one whose
 * first version starts in March, single-item schemes, an employee_fixed, a floor equal to the
 * ceiling, rates with 4 decimals), profiles with bases below the floor, above the ceiling and on
 * the bounds, naming a chain's later version, with no scheme, changed mid-year (raises, cuts, a
 * new scheme or none); joiners and leavers (prorated months); bonuses and other income and
 * deductions entered on payslips; declarations of special additional deductions from January or
 * later, declared, changed and withdrawn mid-year (catching up the months before), and one of the
 * year before. Employees are in no attendance group: their gross is the §16 oracle's (the prorated
 * monthly wage and what was entered), which is checked too. Each month's withholding reads the
 * earlier months as the service approved them (each compared when it was approved).
 *
 * What the notes leave open is allowed either way, and counted: a contribution formula leaving out
 * items whose share is 0 or writing a 0-rate item as its fixed amount alone; a declaration of 0 a
 * month shown as none (no part, inputs or source). A declaration
 * that an approved payslip counted is not deleted (409) but set to 0.
 *
 * Another year: PAYROLL_TAX_SEED=<n> bun test test/payroll-tax-oracle.test.ts
 * Every employee's tax summary (not a sample): PAYROLL_TAX_ALL_SUMMARIES=1
 */

const SEED = Number(process.env.PAYROLL_TAX_SEED ?? 290029)
const YEAR = 2025
const MONTHS = Array.from({ length: 12 }, (_, i) => `${YEAR}-${String(i + 1).padStart(2, '0')}`)
const COMPANIES: { name: string; size: [number, number] }[] = [
  { name: 'Tax North', size: [108, 116] },
  { name: 'Tax South', size: [112, 120] },
  { name: 'Tax East', size: [116, 124] },
]

const NO_GROUP_SETTINGS: OracleSettings = {
  proration: 'work_days',
  daysPerMonth100: 2175,
  latePerOccurrence: 0,
  latePerMinute: 0,
  lateFree: null,
  absenceFixed: null,
  otWorkDay: 150,
  otRestDay: 200,
  otStatutory: 300,
}
const NO_ENTRY: OracleEntered = { performancePay: 0, bonus: 0, otherIncome: 0, otherDeductions: 0 }

// ---------------------------------------------------------------- plans

interface SchemePlan {
  key: string
  name: string
  effectiveFrom: string
  items: TaxItem[]
  /** null: made before the year; else made just before that month's runs */
  madeBefore: string | null
  id: number
}

const item = (code: TaxItem['code'], employeeRate: string, employerRate: string, min: number, max: number, fixed = 0): TaxItem => ({
  code,
  employeeRate,
  employerRate,
  baseMin: Math.round(min * 100),
  baseMax: Math.round(max * 100),
  employeeFixed: Math.round(fixed * 100),
})

function planSchemes(): SchemePlan[] {
  const s = (key: string, name: string, effectiveFrom: string, madeBefore: string | null, items: TaxItem[]): SchemePlan => ({ key, name, effectiveFrom, items, madeBefore, id: 0 })
  return [
    s('bj24', 'Beijing', '2024-07', null, [
      item('pension', '0.08', '0.16', 6821, 35283),
      item('medical', '0.02', '0.098', 6821, 35283, 3),
      item('unemployment', '0.005', '0.005', 6821, 35283),
      item('work_injury', '0', '0.004', 6821, 35283),
      item('housing_fund', '0.12', '0.12', 2420, 35283),
    ]),
    // the city's July change, made before the year: earlier months still use the 2024 one
    s('bj25', 'Beijing', '2025-07', null, [
      item('pension', '0.08', '0.16', 7162, 35811),
      item('medical', '0.02', '0.098', 7162, 35811, 3),
      item('unemployment', '0.005', '0.005', 7162, 35811),
      item('work_injury', '0', '0.0045', 7162, 35811),
      item('housing_fund', '0.12', '0.12', 2540, 35811),
    ]),
    s('sh24', 'Shanghai', '2024-07', null, [
      item('pension', '0.08', '0.16', 7310, 36549),
      item('medical', '0.02', '0.1', 7310, 36549),
      item('unemployment', '0.005', '0.005', 7310, 36549),
      item('work_injury', '0', '0.0026', 7310, 36549),
      item('maternity', '0', '0.01', 7310, 36549),
      item('housing_fund', '0.07', '0.07', 2690, 36549),
    ]),
    // made mid-year, before April's runs
    s('sh25', 'Shanghai', '2025-04', '2025-04', [
      item('pension', '0.08', '0.16', 7384, 36921),
      item('medical', '0.02', '0.0975', 7384, 36921),
      item('unemployment', '0.005', '0.005', 7384, 36921),
      item('work_injury', '0', '0.0016', 7384, 36921),
      item('maternity', '0', '0.0085', 7384, 36921),
      item('housing_fund', '0.0725', '0.0725', 2690, 36921),
    ]),
    // no version before March: January and February have no contribution lines
    s('sz25', 'Shenzhen', '2025-03', null, [
      item('pension', '0.08', '0.15', 2360, 27501),
      item('medical', '0.02', '0.052', 6727, 33635),
      item('unemployment', '0.003', '0.007', 2360, 33635),
      item('work_injury', '0', '0.0014', 2360, 33635),
      item('housing_fund', '0.05', '0.05', 2360, 44265),
    ]),
    s('cd24', 'Chengdu', '2024-01', null, [
      item('pension', '0.08', '0.16', 4246, 21228),
      item('medical', '0.02', '0.075', 4246, 21228),
      item('unemployment', '0.004', '0.006', 4246, 21228),
      item('work_injury', '0.0001', '0.0023', 4246, 21228),
      item('housing_fund', '0.1055', '0.1055', 2100, 27558),
    ]),
    // made mid-year, before October's runs
    s('cd25', 'Chengdu', '2025-10', '2025-10', [
      item('pension', '0.08', '0.16', 4500.5, 22500.5),
      item('medical', '0.0225', '0.0725', 4500.5, 22500.5),
      item('unemployment', '0.004', '0.006', 4500.5, 22500.5),
      item('work_injury', '0', '0.0019', 4500.5, 22500.5),
      item('housing_fund', '0.0999', '0.0999', 2200, 28000),
    ]),
    // a single item (its part alone, labelled), with odd bounds
    s('po25', 'Pension only', '2025-01', null, [item('pension', '0.0875', '0.1725', 3000.01, 30000.99)]),
    // the housing fund alone: no personal_insurance line
    s('hf24', 'Housing only', '2024-12', null, [item('housing_fund', '0.1234', '0.0999', 1000, 50000)]),
    // a fixed base (floor = ceiling) and a fixed employee amount with an employee rate of 0; an item with both rates 0
    s('fx25', 'Fixed', '2025-01', null, [item('medical', '0', '0.0333', 5000, 5000, 3), item('maternity', '0', '0', 5000, 5000)]),
    // a chain changing twice in the year, the second made mid-year; half-fen ties at 0.005 and 0.0025
    s('ti25', 'Ties', '2025-01', null, [item('pension', '0.0625', '0.1375', 0, 99999.99), item('unemployment', '0.005', '0.0025', 0, 99999.99)]),
    s('ti25b', 'Ties', '2025-06', '2025-06', [item('pension', '0.0725', '0.1275', 1000, 12345.67), item('unemployment', '0.0025', '0.005', 1000, 12345.67, 0.01)]),
  ]
}

interface ProfilePlan {
  month: string
  basic: number
  seniority: number
  allowance: number
  contributionBase: number
  housingFundBase: number
  schemeKey: string | null
  /** null: before the year; else just before that month's runs */
  putBefore: string | null
}

interface DeclarationEvent {
  /** null: before the year */
  before: string | null
  action: 'put' | 'delete'
  year: number
  declaration: Declaration | null
  /** send from_month (else the default, January) and the zero amounts (else left out) */
  sendFrom: boolean
  sendZeros: boolean
}

interface EmployeePlan {
  key: string
  no: string
  hireDate: string
  leftOn: string | null
  status: 0 | 1
  profiles: ProfilePlan[]
  declarations: DeclarationEvent[]
  tags: Set<string>
  id: number
}

interface CompanyPlan {
  name: string
  employees: EmployeePlan[]
  id: number
}

const monthOf = (date: string) => date.slice(0, 7)
const monthAdd = (month: string, k: number) => {
  let m = month
  for (let i = 0; i < k; i++) m = nextMonth(m)
  return m
}

function salary(r: Prng): number {
  const band = r.pick(['low', 'mid', 'mid', 'mid', 'mid', 'high', 'high', 'top'] as const)
  const fen = band === 'low' ? r.fen(2500, 5500) : band === 'mid' ? r.fen(5500, 25000) : band === 'high' ? r.fen(25000, 60000) : r.fen(60000, 160000)
  return r.chance(0.4) ? Math.round(fen / 10000) * 10000 : fen
}

/** Bases relative to the scheme's first item: as the wage, below the floor (0 too), above the ceiling, on a bound, or any. */
function bases(r: Prng, wage: number, scheme: SchemePlan | null, tags: Set<string>): { contributionBase: number; housingFundBase: number } {
  const first = scheme?.items[0]
  const pick = (): number => {
    const roll = r.next()
    if (roll < 0.5 || !first) return wage
    if (roll < 0.62) {
      tags.add('below floor')
      return r.chance(0.15) ? 0 : r.int(0, Math.max(0, first.baseMin - 1))
    }
    if (roll < 0.74) {
      tags.add('above ceiling')
      return first.baseMax + r.int(1, 10_000_000)
    }
    if (roll < 0.8) {
      tags.add('on a bound')
      return r.chance(0.5) ? first.baseMin : first.baseMax
    }
    return r.fen(2000, 60000)
  }
  const contributionBase = pick()
  return { contributionBase, housingFundBase: r.chance(0.7) ? contributionBase : pick() }
}

function profile(r: Prng, month: string, putBefore: string | null, schemes: SchemePlan[], tags: Set<string>, wage = salary(r), keep?: ProfilePlan): ProfilePlan {
  const usable = schemes.filter((s) => s.madeBefore === null || (putBefore !== null && s.madeBefore <= putBefore))
  let schemeKey: string | null
  if (keep && r.chance(0.6)) schemeKey = keep.schemeKey
  else schemeKey = r.chance(0.15) ? null : r.pick(usable).key
  const scheme = schemes.find((s) => s.key === schemeKey) ?? null
  if (schemeKey === null) tags.add('no scheme')
  return {
    month,
    basic: wage,
    seniority: r.chance(0.5) ? 0 : r.fen(50, 2000),
    allowance: r.chance(0.4) ? 0 : r.fen(10, 3000),
    ...bases(r, wage, scheme, tags),
    schemeKey,
    putBefore,
  }
}

function randomDeclaration(r: Prng, year: number, fromMonth: string): Declaration {
  const children = r.pick([0, 0, 1, 1, 2, 3])
  let childrenEducation = 0
  let infantCare = 0
  if (children > 0) {
    const cap = 200_000 * children
    const kind = r.pick(['education', 'infant', 'both'] as const)
    if (kind === 'education') childrenEducation = r.pick([cap, 100_000, r.int(1, cap)])
    else if (kind === 'infant') infantCare = r.pick([cap, 200_000, r.int(1, cap)])
    else {
      childrenEducation = r.int(0, cap)
      infantCare = r.int(0, cap - childrenEducation)
    }
  }
  const housing = r.pick(['none', 'loan', 'rent', 'rent'] as const)
  const d: Declaration = {
    year,
    fromMonth,
    childrenEducation,
    infantCare,
    continuingEducation: r.chance(0.2) ? r.pick([40_000, 30_000]) : 0,
    housingLoanInterest: housing === 'loan' ? 100_000 : 0,
    housingRent: housing === 'rent' ? r.pick([150_000, 110_000, 80_000]) : 0,
    elderlySupport: r.chance(0.5) ? r.pick([300_000, 150_000, 100_000, 133_333]) : 0,
    children,
  }
  if (monthlyTotal(d) === 0) d.elderlySupport = 300_000
  if (capProblems(d).length) throw new Error(`generated an invalid declaration: ${capProblems(d)}`)
  return d
}

function planEmployee(r: Prng, c: CompanyPlan, index: number, companyIndex: number, schemes: SchemePlan[]): EmployeePlan {
  const tags = new Set<string>()
  const roll = r.next()
  let hireDate: string
  if (roll < 0.78) hireDate = addDays('2024-12-31', -r.int(0, 3000))
  else if (roll < 0.93) {
    hireDate = r.pick(datesBetween('2025-01-02', '2025-12-20'))
    tags.add('joiner')
  } else if (roll < 0.96) hireDate = '2025-01-01'
  else if (roll < 0.98) {
    hireDate = addDays('2026-01-01', r.int(0, 60))
    tags.add('hired after the year')
  } else hireDate = addDays('2024-12-31', -r.int(0, 3000))
  let leftOn: string | null = null
  if (r.chance(0.12)) {
    const after = datesBetween(hireDate > '2025-01-01' ? hireDate : '2025-01-01', '2025-12-30')
    if (after.length) {
      leftOn = r.pick(after)
      tags.add('leaver')
    }
  } else if (r.chance(0.02) && hireDate < '2024-06-01') {
    leftOn = r.pick(datesBetween('2024-06-01', '2024-12-31'))
    tags.add('left before the year')
  }
  const profiles: ProfilePlan[] = []
  const profileRoll = r.next()
  if (profileRoll < 0.03) tags.add('no profile')
  else if (profileRoll < 0.08) {
    // a profile only from a later month: the year's first payslip is then
    profiles.push(profile(r, r.pick(MONTHS.slice(2, 9)), null, schemes, tags))
    tags.add('profile from a later month')
  } else profiles.push(profile(r, hireDate > '2025-01-01' ? r.pick([monthOf(hireDate), '2025-01']) : r.pick(['2024-07', '2025-01', '2023-03']), null, schemes, tags))
  for (let k = 0; profiles.length && k < 2 && r.chance(k === 0 ? 0.3 : 0.15); k++) {
    const last = profiles[profiles.length - 1]
    const after = MONTHS.filter((m) => m > last.month && m > '2025-01')
    if (!after.length) break
    const month = r.pick(after)
    const putBefore = r.chance(0.6) ? month : null
    const kind = r.pick(['raise', 'cut', 'scheme', 'bases'] as const)
    const wage = kind === 'raise' ? Math.round((last.basic * r.int(105, 160)) / 100) : kind === 'cut' ? r.fen(2500, 4200) : last.basic
    const next = profile(r, month, putBefore, schemes, tags, wage, kind === 'scheme' ? undefined : last)
    if (kind === 'scheme' && next.schemeKey === last.schemeKey) next.schemeKey = last.schemeKey === null ? 'bj24' : null
    if (kind === 'scheme' && next.schemeKey !== null) {
      const scheme = schemes.find((s) => s.key === next.schemeKey)!
      if (scheme.madeBefore !== null && (putBefore === null || scheme.madeBefore > putBefore)) next.schemeKey = 'sh24'
    }
    profiles.push(next)
    tags.add(`profile ${kind} mid-year`)
  }

  const declarations: DeclarationEvent[] = []
  const dRoll = r.next()
  const put = (before: string | null, fromMonth: string, year = YEAR) =>
    declarations.push({ before, action: 'put', year, declaration: randomDeclaration(r, year, fromMonth), sendFrom: fromMonth !== `${year}-01` || r.chance(0.5), sendZeros: r.chance(0.5) })
  if (dRoll < 0.22) {
    // before the year, from January or a later month
    put(null, r.chance(0.7) ? '2025-01' : r.pick(MONTHS.slice(1)))
    tags.add('declared before the year')
  } else if (dRoll < 0.36) {
    // mid-year, mostly from January: the months before are caught up
    const before = r.pick(MONTHS.slice(1))
    const from = r.chance(0.6) ? '2025-01' : r.pick(MONTHS.filter((m) => m <= monthAdd(before, 2)))
    put(before, from)
    tags.add(from < before ? 'declared mid-year, catching up' : 'declared mid-year')
  }
  if (declarations.length && r.chance(0.35)) {
    const after = MONTHS.filter((m) => m > (declarations[0].before ?? '2025-01'))
    if (after.length) {
      const before = r.pick(after)
      if (r.chance(0.3)) {
        declarations.push({ before, action: 'delete', year: YEAR, declaration: null, sendFrom: false, sendZeros: false })
        tags.add('declaration withdrawn mid-year')
      } else {
        put(before, r.chance(0.5) ? declarations[0].declaration!.fromMonth : r.pick(MONTHS))
        tags.add('declaration changed mid-year')
      }
    }
  }
  if (r.chance(0.04)) {
    // a declaration of the year before: it counts for none of this year's months
    declarations.unshift({ before: null, action: 'put', year: YEAR - 1, declaration: randomDeclaration(r, YEAR - 1, '2024-03'), sendFrom: true, sendZeros: false })
    tags.add('declared for the year before')
  }
  return {
    key: `c${companyIndex}e${index}`,
    no: `T${companyIndex}-${String(index).padStart(3, '0')}`,
    hireDate,
    leftOn,
    status: leftOn !== null && leftOn < '2025-01-01' ? 0 : 1,
    profiles,
    declarations,
    tags,
    id: 0,
  }
}

// ---------------------------------------------------------------- the world as the oracle knows it

interface ApiLine {
  code: string
  label: string
  kind: string
  amount: number
  formula: string
  inputs: Record<string, unknown>
  sources: { kind: string; id: number }[]
}

interface ApiPayslip {
  id: number
  run_id: number
  employee: { id: number; name: string; employee_no: string | null }
  month: string
  status: string
  gross: number
  deductions: number
  net: number
  lines: ApiLine[]
}

interface Approved extends EarlierMonth {
  payslipId: number
  companyId: number
  companyName: string
  withholding: Withholding
}

interface Mismatch {
  what: string
  where: string
  service: unknown
  oracle: unknown
}

const mismatches: Mismatch[] = []
const formulaProblems: Mismatch[] = []
const mismatch = (what: string, where: string, service: unknown, oracle: unknown) => mismatches.push({ what, where, service, oracle })
const counts: Record<string, number> = {}
const count = (what: string, by = 1) => (counts[what] = (counts[what] ?? 0) + by)

const apps: TestApp[] = []
afterAll(() => {
  for (const t of apps) t.close()
})

class World {
  admin = ''
  schemes: SchemePlan[] = planSchemes()
  /** the schemes made so far, as the oracle reads them */
  made: TaxScheme[] = []
  companies: CompanyPlan[] = []
  /** the profiles put so far */
  profiles = new Map<number, ProfilePlan[]>()
  /** the declarations as they are now, by employee and year, with their ids */
  declarations = new Map<number, Map<number, { declaration: Declaration; id: number }>>()
  approved = new Map<number, Approved[]>()
  /** the §16 oracle's gross of the payslips of the month being run, with what is entered on them */
  grossCache = new Map<string, number>()
  /** the scheme in effect last month, by employee (to count chain changes) */
  lastScheme = new Map<number, number | null>()
  constructor(
    public t: TestApp,
    public r: Prng,
  ) {}

  profileOf(e: EmployeePlan, month: string): ProfilePlan | null {
    return (this.profiles.get(e.id) ?? []).filter((p) => p.month <= month).sort((a, b) => (a.month < b.month ? 1 : -1))[0] ?? null
  }
  schemeIdOf(key: string | null): number | null {
    return key === null ? null : this.schemes.find((s) => s.key === key)!.id
  }
  declarationOf(e: EmployeePlan, year: number) {
    return this.declarations.get(e.id)?.get(year) ?? null
  }
  earlierOf(e: EmployeePlan): Approved[] {
    return this.approved.get(e.id) ?? []
  }

  /** §16's gross of a month (no attendance group: the prorated monthly wage and what was entered), by the §16 oracle. */
  gross(e: EmployeePlan, month: string, entry: OracleEntered): number {
    const p = this.profileOf(e, month)!
    return oraclePayslip({
      month,
      today: `${nextMonth(month)}-03`,
      hireDate: e.hireDate,
      leftOn: e.leftOn,
      companyStartsOn: null,
      rules: [],
      calendar: new Map(),
      records: [],
      leave: [],
      workTimes: { start: '09:00', end: '18:00', breakStart: '12:00', breakEnd: '13:00' },
      payouts: [],
      profile: { basic: p.basic, seniority: p.seniority, allowance: p.allowance },
      settings: NO_GROUP_SETTINGS,
      entered: entry,
      adjustments: [],
      tax: { firstMonth: month, gross: 0, withheld: 0 },
    }).gross
  }

  /** The tax oracle's payslip of `e` for `month` with this gross and these other deductions, as things are now. */
  oracle(e: EmployeePlan, month: string, gross: number, otherDeductions: number): TaxPayslip {
    const p = this.profileOf(e, month)!
    return taxPayslip({
      month,
      gross,
      scheme: schemeInEffect(this.made, this.schemeIdOf(p.schemeKey), month),
      bases: { contributionBase: p.contributionBase, housingFundBase: p.housingFundBase },
      otherDeductions,
      earlier: this.earlierOf(e),
      declaration: this.declarationOf(e, Number(month.slice(0, 4)))?.declaration ?? null,
    })
  }
}

// ---------------------------------------------------------------- HTTP

const yuan = (fen: number) => fen / 100

/** A yuan amount of the API in fen, exactly (a JSON number with at most 2 decimals is the double nearest fen ÷ 100); throws on anything else. */
function fenOf(value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new TypeError(`not an amount: ${JSON.stringify(value)}`)
  const fen = Math.round(value * 100)
  if (fen / 100 !== value) throw new RangeError(`more than 2 decimals: ${value}`)
  return fen
}

const itemBody = (i: TaxItem, withFixed: boolean) => ({
  code: i.code,
  employee_rate: Number(i.employeeRate),
  employer_rate: Number(i.employerRate),
  base_min: yuan(i.baseMin),
  base_max: yuan(i.baseMax),
  ...(withFixed || i.employeeFixed !== 0 ? { employee_fixed: yuan(i.employeeFixed) } : {}),
})

async function makeScheme(w: World, s: SchemePlan) {
  const body = { name: s.name, effective_from: s.effectiveFrom, items: s.items.map((i) => itemBody(i, w.r.chance(0.5))) }
  const made = (await call(w.t, w.admin, 'POST', '/api/v1/admin/payroll/schemes', body, 201)).body.data
  expect(made).toMatchObject({ name: s.name, effective_from: s.effectiveFrom, items: s.items.map((i) => itemBody(i, true)) })
  s.id = made.id
  w.made.push({ id: s.id, name: s.name, effectiveFrom: s.effectiveFrom, items: s.items })
  count('schemes made')
}

async function putProfile(w: World, e: EmployeePlan, p: ProfilePlan) {
  const scheme_id = w.schemeIdOf(p.schemeKey)
  const body = {
    effective_month: p.month,
    basic_salary: yuan(p.basic),
    seniority_pay: yuan(p.seniority),
    allowance: yuan(p.allowance),
    contribution_base: yuan(p.contributionBase),
    housing_fund_base: yuan(p.housingFundBase),
    ...(scheme_id === null && w.r.chance(0.5) ? {} : { scheme_id }),
    bank_account: `6222${String(e.id).padStart(12, '0')}`,
  }
  const put = (await call(w.t, w.admin, 'PUT', `/api/v1/admin/employees/${e.id}/pay-profile`, body, 200)).body.data
  expect(put).toMatchObject({ effective_month: p.month, contribution_base: yuan(p.contributionBase), housing_fund_base: yuan(p.housingFundBase), scheme_id })
  w.profiles.set(e.id, [...(w.profiles.get(e.id) ?? []).filter((q) => q.month !== p.month), p])
  count('profiles put')
}

async function applyDeclaration(w: World, e: EmployeePlan, event: DeclarationEvent) {
  const path = `/api/v1/admin/employees/${e.id}/tax-deductions/${event.year}`
  const mine = w.declarations.get(e.id) ?? new Map()
  w.declarations.set(e.id, mine)
  if (event.action === 'delete') {
    // the service keeps a declaration some approved payslip counted (409: set the amounts to 0 instead)
    const counted = w.earlierOf(e).some((a) => a.month.startsWith(`${event.year}-`) && a.withholding.specialMonths > 0)
    const deleted = await call(w.t, w.admin, 'DELETE', path)
    if (deleted.status !== (counted ? 409 : 200)) mismatch('declaration DELETE', `${e.key} ${event.year}`, deleted.status, counted ? 409 : 200)
    if (deleted.status === 200) {
      mine.delete(event.year)
      expect((await call(w.t, w.admin, 'GET', path)).status).toBe(404)
      count('declarations deleted')
      return
    }
    const kept = mine.get(event.year)!.declaration
    event = {
      ...event,
      action: 'put',
      declaration: { ...kept, childrenEducation: 0, infantCare: 0, continuingEducation: 0, housingLoanInterest: 0, housingRent: 0, elderlySupport: 0 },
      sendFrom: true,
    }
    count('declarations set to 0 (counted already: not deleted)')
  }
  const d = event.declaration!
  const amounts: Record<string, number> = {
    children_education: yuan(d.childrenEducation),
    infant_care: yuan(d.infantCare),
    continuing_education: yuan(d.continuingEducation),
    housing_loan_interest: yuan(d.housingLoanInterest),
    housing_rent: yuan(d.housingRent),
    elderly_support: yuan(d.elderlySupport),
  }
  const body: Record<string, unknown> = {}
  if (event.sendFrom) body.from_month = d.fromMonth
  for (const [k, v] of Object.entries(amounts)) if (v !== 0 || event.sendZeros) body[k] = v
  if (d.children !== 0 || event.sendZeros) body.children = d.children
  const shown = (await call(w.t, w.admin, 'PUT', path, body, 200)).body.data
  expect(shown).toMatchObject({ employee_id: e.id, year: event.year, from_month: d.fromMonth, ...amounts, children: d.children })
  if (fenOf(shown.monthly_total) !== monthlyTotal(d)) mismatch('declaration monthly_total', `${e.key} ${event.year}`, shown.monthly_total, yuanText(monthlyTotal(d)))
  mine.set(event.year, { declaration: d, id: shown.id })
  count('declarations put')
}

/** What is due before `month`'s runs (null: before the year): schemes, then profiles, then declarations. */
async function applyBefore(w: World, month: string | null) {
  for (const s of w.schemes) if (s.madeBefore === month) await makeScheme(w, s)
  for (const c of w.companies)
    for (const e of c.employees) {
      for (const p of e.profiles) if (p.putBefore === month) await putProfile(w, e, p)
      for (const d of e.declarations) if (d.before === month) await applyDeclaration(w, e, d)
    }
}

async function payslipsOf(w: World, runId: number): Promise<ApiPayslip[]> {
  return (await call(w.t, w.admin, 'GET', `/api/v1/admin/payroll/runs/${runId}/payslips`, undefined, 200)).body.data.payslips
}

// ---------------------------------------------------------------- checks of one payslip

/** The numbers an input value stands for (a number, or a string that is one), as decimal keys; 0 is the grammar's own (`max(0, …)`). */
function inputNumbers(inputs: Record<string, unknown>): Set<string> {
  const out = new Set<string>(['0'])
  const visit = (value: unknown) => {
    if (typeof value === 'number') out.add(decimalKey(numberText(value)))
    else if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value)) out.add(decimalKey(value))
    else if (value && typeof value === 'object') for (const v of Object.values(value)) visit(v)
  }
  visit(inputs)
  return out
}

/** Each part evaluates exactly (rounded half up) to its result, the last to the amount; with `numbers`, every number is an input or an earlier result. */
function checkFormula(where: string, line: ApiLine, numbers: boolean) {
  count('formulas evaluated')
  const problem = (what: string, detail: unknown) => formulaProblems.push({ what, where: `${where} ${line.code}`, service: line.formula, oracle: detail })
  let parts
  try {
    parts = evaluateFormula(line.formula)
  } catch (error) {
    return problem('unparsable formula', String(error))
  }
  const known = numbers ? inputNumbers(line.inputs ?? {}) : new Set<string>()
  for (const part of parts) {
    const rounded = money2(part.value)
    if (rounded !== part.result) problem('part does not evaluate to its result', { part: part.expr, exact: part.value.toString(), rounded, result: part.result })
    if (numbers) {
      for (const number of part.numbers) if (!known.has(decimalKey(number))) problem('number not in inputs', { number, inputs: line.inputs })
      known.add(decimalKey(part.result))
    }
  }
  if (fenOf(Number(parts[parts.length - 1].result)) !== fenOf(line.amount)) problem('last result is not the amount', { result: parts[parts.length - 1].result, amount: line.amount })
}

/**
 * A contribution line's formula: its items' parts, then the sum. What the notes leave open is
 * allowed: items whose share is 0 left out, and the part of an item whose employee rate is 0
 * written as its fixed amount alone (`medical: 3.00 = 3.00`).
 */
function checkContributionFormula(where: string, line: ApiLine, shares: ItemShare[], side: 'employee' | 'employer') {
  const full = contributionFormula(shares, side)
  if (formulaDifference(line.formula, full) === null) return
  const share = (s: ItemShare) => (side === 'employee' ? s.employee : s.employer)
  const nonZero = shares.filter((s) => share(s) !== 0)
  const fixedOnly = (list: ItemShare[]) => {
    const parts = list.map((s) => (side === 'employee' && Frac.parse(s.employeeRate).n === 0n ? `${s.code}: ${yuanText(s.employeeFixed)} = ${yuanText(s.employee)}` : null))
    if (parts.every((p) => p === null)) return null
    const texts = list.map((s, i) => parts[i] ?? contributionFormula([s], side))
    return texts.length === 1 ? texts[0] : [...texts, `${list.map((s) => yuanText(share(s))).join(' + ')} = ${yuanText(list.reduce((a, s) => a + share(s), 0))}`].join('; ')
  }
  const variants: [string, string | null][] = [
    ['contribution formulas leaving out items of 0', nonZero.length ? contributionFormula(nonZero, side) : null],
    ['contribution formulas writing a 0-rate item as its fixed amount', fixedOnly(shares)],
    ['contribution formulas leaving out items of 0 and writing a 0-rate item as its fixed amount', nonZero.length ? fixedOnly(nonZero) : null],
  ]
  for (const [what, text] of variants)
    if (text !== null && formulaDifference(line.formula, text) === null) {
      count(what)
      return
    }
  formulaProblems.push({ what: `${line.code} formula`, where, service: line.formula, oracle: full })
}

const sourceKeys = (line: ApiLine | undefined) => new Set((line?.sources ?? []).map((s) => `${s.kind} ${s.id}`))

function compareLine(where: string, api: ApiPayslip, code: string, kind: string, amount: number): ApiLine | undefined {
  const line = api.lines.find((l) => l.code === code)
  const several = api.lines.filter((l) => l.code === code).length
  if (several > 1) mismatch(`${code} lines`, where, several, 1)
  if (amount === 0 && code !== 'personal_tax') {
    if (line) mismatch(`${code} (a line of 0 is left out)`, where, line.amount, null)
    return undefined
  }
  if (!line) {
    mismatch(`${code} line`, where, null, yuanText(amount))
    return undefined
  }
  if (fenOf(line.amount) !== amount) mismatch(code, where, line.amount, yuanText(amount))
  if (line.kind !== kind) mismatch(`${code} kind`, where, line.kind, kind)
  return line
}

/** The tax line's named inputs against the oracle's cumulative figures. */
function compareTaxInputs(where: string, line: ApiLine, t: Withholding) {
  const want: Record<string, number> = {
    cumulative_gross: t.cumulativeGross,
    basic_deduction: 500_000,
    cumulative_contributions: t.cumulativeContributions,
    cumulative_special_deductions: t.cumulativeSpecial,
    cumulative_taxable: t.cumulativeTaxable,
    quick_deduction: t.quickDeduction,
    cumulative_tax: t.cumulativeTax,
    withheld: t.withheld,
  }
  if (t.specialMonths > 0) want.special_deductions_per_month = t.specialPerMonth
  const inputs = line.inputs ?? {}
  for (const [name, fen] of Object.entries(want)) {
    const got = inputs[name]
    if (typeof got !== 'number' || fenOf(got) !== fen) mismatch(`personal_tax input ${name}`, where, got, yuanText(fen))
  }
  if (inputs.months !== t.months) mismatch('personal_tax input months', where, inputs.months, t.months)
  if (typeof inputs.rate !== 'number' || !Frac.parse(numberText(inputs.rate)).eq(Frac.parse(rateDecimal(t.rate)))) mismatch('personal_tax input rate', where, inputs.rate, rateDecimal(t.rate))
  if (t.specialMonths > 0 && inputs.special_deduction_months !== t.specialMonths) mismatch('personal_tax input special_deduction_months', where, inputs.special_deduction_months, t.specialMonths)
}

function comparePayslip(w: World, c: CompanyPlan, e: EmployeePlan, month: string, api: ApiPayslip, entry: OracleEntered): { o: TaxPayslip; gross: number } {
  const where = `${c.name} ${e.key} (employee ${e.id}) ${month}`
  const gross = fenOf(api.gross)
  const sixteen = w.grossCache.get(`${e.id} ${month}`) ?? w.gross(e, month, entry)
  if (gross !== sixteen) mismatch('gross (the §16 oracle)', where, api.gross, yuanText(sixteen))
  const o = w.oracle(e, month, gross, entry.otherDeductions)
  const { contributions: k, withholding: t } = o
  if (api.status !== 'approved') mismatch('status', where, api.status, 'approved')

  const employeeItems = k.items.filter((s) => s.code !== 'housing_fund')
  const fundItems = k.items.filter((s) => s.code === 'housing_fund')
  const pi = compareLine(where, api, 'personal_insurance', 'deduction', k.personalInsurance)
  const hf = compareLine(where, api, 'housing_fund', 'deduction', k.housingFund)
  const er = compareLine(where, api, 'employer_contributions', 'employer', k.employer)
  const tax = compareLine(where, api, 'personal_tax', 'deduction', t.tax)
  compareLine(where, api, 'other_deductions', 'deduction', entry.otherDeductions)
  for (const field of ['deductions', 'net'] as const) {
    const want = field === 'deductions' ? o.deductions : o.net
    if (fenOf(api[field]) !== want) mismatch(field, where, api[field], yuanText(want))
  }
  // the §17 lines' formulas evaluate to their amounts, with their numbers among the inputs, and are those of the notes (the §16 oracle test evaluates the others)
  for (const line of api.lines) if (['personal_insurance', 'housing_fund', 'employer_contributions', 'personal_tax'].includes(line.code)) checkFormula(where, line, true)
  if (pi && fenOf(pi.amount) === k.personalInsurance) checkContributionFormula(where, pi, employeeItems, 'employee')
  if (hf && fenOf(hf.amount) === k.housingFund) checkContributionFormula(where, hf, fundItems, 'employee')
  if (er && fenOf(er.amount) === k.employer) checkContributionFormula(where, er, k.items, 'employer')
  if (tax) {
    // a declaration of 0 a month (one counted already is set to 0, not deleted) may show as none: no part, inputs or source of its own
    const zero = t.specialMonths > 0 && t.specialPerMonth === 0
    const asNone: Withholding = { ...t, specialMonths: 0 }
    const shownAsNone = zero && formulaDifference(tax.formula, taxFormula(asNone)) === null
    if (shownAsNone) count('payslips showing a declaration of 0 as none')
    const shown = shownAsNone ? asNone : t
    const difference = formulaDifference(tax.formula, taxFormula(shown))
    if (difference) formulaProblems.push({ what: 'personal_tax formula', where, service: tax.formula, oracle: { want: taxFormula(shown), difference } })
    compareTaxInputs(where, tax, shown)
    const declaration = w.declarationOf(e, YEAR)
    if (shown.specialMonths > 0 && !sourceKeys(tax).has(`tax_deduction ${declaration!.id}`)) mismatch('personal_tax sources (the declaration)', where, tax.sources, `tax_deduction ${declaration!.id}`)
  }
  if (k.scheme)
    for (const line of [pi, hf, er])
      if (line && !sourceKeys(line).has(`contribution_scheme ${k.scheme.id}`)) mismatch(`${line.code} sources (the scheme)`, where, line.sources, `contribution_scheme ${k.scheme.id}`)
  // the employer's line is in neither gross nor deductions: the sums of the other lines give them
  const sum = (kinds: string[]) => api.lines.filter((l) => kinds.includes(l.kind)).reduce((a, l) => a + fenOf(l.amount), 0)
  if (sum(['income']) - sum(['attendance']) !== gross) mismatch('gross = income lines − attendance lines', where, api.gross, yuanText(sum(['income']) - sum(['attendance'])))
  if (sum(['deduction']) !== fenOf(api.deductions)) mismatch('deductions = deduction lines', where, api.deductions, yuanText(sum(['deduction'])))
  const unknown = api.lines.filter((l) => !['income', 'attendance', 'deduction', 'employer'].includes(l.kind))
  if (unknown.length) mismatch('line kinds', where, unknown.map((l) => `${l.code} ${l.kind}`), [])
  return { o, gross }
}

// ---------------------------------------------------------------- a month's run

function randomEntry(r: Prng, month: string): OracleEntered {
  const bigBonus = month <= '2025-03' && r.chance(0.25)
  return {
    performancePay: r.chance(0.5) ? r.fen(100, 8000) : 0,
    bonus: bigBonus ? r.fen(30000, 400000) : r.chance(0.3) ? r.fen(100, 20000) : 0,
    otherIncome: r.chance(0.2) ? r.fen(1, 3000) : 0,
    otherDeductions: r.chance(0.3) ? r.fen(1, 2000) : 0,
  }
}

const entryBody = (e: OracleEntered) => ({
  performance_pay: yuan(e.performancePay),
  bonus: yuan(e.bonus),
  other_income: yuan(e.otherIncome),
  other_deductions: yuan(e.otherDeductions),
  note: 'entered by the tax oracle test',
})

async function runMonth(w: World, c: CompanyPlan, month: string) {
  const { t, r } = w
  let clock = performance.now()
  const lap = (what: string) => {
    const now = performance.now()
    count(`ms ${what}`, Math.round(now - clock))
    clock = now
  }
  const created = (await call(t, w.admin, 'POST', '/api/v1/admin/payroll/runs', { company_id: c.id, month }, 201)).body.data
  lap('creating runs')
  count('runs')
  const runId: number = created.id
  const expected = c.employees.filter((e) => w.profileOf(e, month) !== null && employedRange(month, e.hireDate, e.leftOn) !== null)
  const drafts = await payslipsOf(w, runId)
  lap('reading drafts')
  const got = drafts.map((p) => p.employee.id).sort((a, b) => a - b)
  const want = expected.map((e) => e.id).sort((a, b) => a - b)
  if (JSON.stringify(got) !== JSON.stringify(want)) mismatch('who has a payslip', `${c.name} ${month}`, got, want)

  // HR's entries: at random, and a bonus wherever the net would be below 0 (so that the run can be approved)
  const entries = new Map<number, OracleEntered>()
  w.grossCache.clear()
  for (const e of expected) {
    const draft = drafts.find((p) => p.employee.id === e.id)
    if (!draft) continue
    let entry = r.chance(month <= '2025-03' ? 0.08 : 0.04) ? randomEntry(r, month) : NO_ENTRY
    for (;;) {
      const gross = w.gross(e, month, entry)
      w.grossCache.set(`${e.id} ${month}`, gross)
      const trial = w.oracle(e, month, gross, entry.otherDeductions)
      if (trial.net >= 0) break
      entry = { ...entry, bonus: entry.bonus + 2 * -trial.net + r.fen(0, 50) }
      count('bonuses so that the net is not below 0')
    }
    if (entry === NO_ENTRY) continue
    lap('trying entries')
    const put = (await call(t, w.admin, 'PUT', `/api/v1/admin/payroll/runs/${runId}/payslips/${draft.id}/inputs`, entryBody(entry), 200)).body.data
    expect(put.id).toBe(draft.id)
    entries.set(e.id, entry)
    lap('putting entries')
    count('payslips with entries')
    if (entry.bonus >= 3_000_000) count('big bonuses')
  }

  lap('entering inputs')
  const approved = await call(t, w.admin, 'POST', `/api/v1/admin/payroll/runs/${runId}/approve`)
  lap('approving')
  if (approved.status !== 200) {
    mismatch('approval', `${c.name} ${month}`, approved.body, 'approved')
    return
  }
  const payslips = await payslipsOf(w, runId)
  lap('reading approved payslips')
  const totals = { gross: 0, deductions: 0, employee_contributions: 0, employer_contributions: 0, tax: 0, net: 0 }
  const results: [EmployeePlan, ApiPayslip, TaxPayslip, number][] = []
  for (const e of expected) {
    const api = payslips.find((p) => p.employee.id === e.id)
    if (!api) continue
    if (process.env.PAYROLL_TAX_SAMPLE === `${e.key} ${month}`) console.log(JSON.stringify(api, null, 1))
    const { o, gross } = comparePayslip(w, c, e, month, api, entries.get(e.id) ?? NO_ENTRY)
    results.push([e, api, o, gross])
    totals.gross += gross
    totals.deductions += o.deductions
    totals.employee_contributions += o.contributions.personalInsurance + o.contributions.housingFund
    totals.employer_contributions += o.contributions.employer
    totals.tax += o.withholding.tax
    totals.net += o.net
    tally(w, e, o, month)
  }
  lap('comparing payslips')
  const shown = (await call(t, w.admin, 'GET', `/api/v1/admin/payroll/runs/${runId}`, undefined, 200)).body.data
  lap('reading runs')
  if (shown.status !== 'approved') mismatch('run status', `${c.name} ${month}`, shown.status, 'approved')
  for (const [field, fen] of Object.entries(totals))
    if (typeof shown.totals?.[field] !== 'number' || fenOf(shown.totals[field]) !== fen) mismatch(`run totals.${field}`, `${c.name} ${month}`, shown.totals?.[field], yuanText(fen))
  if (shown.totals?.head_count !== expected.length) mismatch('run totals.head_count', `${c.name} ${month}`, shown.totals?.head_count, expected.length)

  // what was approved: what later months withhold against (the service's own figures, each compared above)
  for (const [e, api, o] of results) {
    const list = w.approved.get(e.id) ?? []
    list.push({
      month,
      gross: fenOf(api.gross),
      contributions: lineFen(api, 'personal_insurance') + lineFen(api, 'housing_fund'),
      tax: lineFen(api, 'personal_tax'),
      payslipId: api.id,
      companyId: c.id,
      companyName: c.name,
      withholding: o.withholding,
    })
    w.approved.set(e.id, list)
  }
}

const lineFen = (api: ApiPayslip, code: string) => api.lines.filter((l) => l.code === code).reduce((a, l) => a + fenOf(l.amount), 0)

/** What the compared payslips covered. */
function tally(w: World, e: EmployeePlan, o: TaxPayslip, month: string) {
  const { contributions: k, withholding: t } = o
  count('payslips compared')
  const scheme = k.scheme?.id ?? null
  const profile = w.profileOf(e, month)!
  if (profile.schemeKey === null) count('payslips without a scheme')
  else if (scheme === null) count('payslips of a scheme not yet in effect')
  else if (scheme !== w.schemeIdOf(profile.schemeKey)) count('payslips using another version of the named chain')
  if (w.lastScheme.has(e.id) && w.lastScheme.get(e.id) !== scheme) count('scheme in effect changed from the month before')
  w.lastScheme.set(e.id, scheme)
  for (const s of k.items) {
    if (s.clamp === 'floor') count('items at the floor')
    if (s.clamp === 'ceiling') count('items at the ceiling')
    if (s.tie) count('items with a half-fen tie')
    if (s.employeeFixed) count('items with employee_fixed')
  }
  if (k.personalInsurance === 0 && k.scheme) count('payslips with a scheme but no personal_insurance')
  if (t.specialMonths > 0) count('payslips with special deductions')
  const declared = w.declarationOf(e, YEAR)
  if (t.specialMonths > 0 && declared) {
    const from = declared.declaration.fromMonth > t.firstMonth ? declared.declaration.fromMonth : t.firstMonth
    if (from < month && !(w.approved.get(e.id) ?? []).some((a) => a.withholding.specialMonths > 0 && a.withholding.specialPerMonth === t.specialPerMonth))
      count('payslips catching up earlier months of a declaration')
  }
  if (t.rawTaxable < 0) count('payslips with cumulative taxable below 0')
  if (t.clamped) count('payslips with cumulative tax below the withheld (tax 0)')
  if (t.tax > 0) count('payslips with tax')
  count(`payslips at ${t.rate}%`)
  if (t.firstMonth !== month && t.firstMonth !== '2025-01') count('payslips counting from a later first month')
}

// ---------------------------------------------------------------- the tax summary

async function checkSummary(w: World, c: CompanyPlan, e: EmployeePlan, token: string, path: string) {
  const where = `${c.name} ${e.key} (employee ${e.id}) tax summary`
  const reply = await call(w.t, token, 'GET', path, undefined, 200)
  const got = reply.body.data
  const approved = [...w.earlierOf(e)].sort((a, b) => (a.month < b.month ? -1 : 1))
  if (got.year !== YEAR) mismatch('summary year', where, got.year, YEAR)
  if (got.employee?.id !== e.id || got.employee?.employee_no !== e.no || got.employee?.name !== e.key) mismatch('summary employee', where, got.employee, { id: e.id, name: e.key, employee_no: e.no })
  const months = got.months ?? []
  if (months.length !== approved.length) mismatch('summary months', where, months.map((m: { month: string }) => m.month), approved.map((a) => a.month))
  let previousSpecial = 0
  const totals = { income: 0, contributions: 0, special_deductions: 0, tax_withheld: 0 }
  for (const [i, a] of approved.entries()) {
    const m = months[i]
    if (!m) break
    const t = a.withholding
    const want: Record<string, number> = {
      income: a.gross,
      contributions: a.contributions,
      cumulative_income: t.cumulativeGross,
      cumulative_basic_deduction: t.cumulativeBasic,
      cumulative_contributions: t.cumulativeContributions,
      cumulative_special_deductions: t.cumulativeSpecial,
      cumulative_taxable: t.cumulativeTaxable,
      cumulative_tax: t.cumulativeTax,
      tax_withheld: t.tax,
      cumulative_withheld: t.withheld + t.tax,
    }
    const at = `${where} ${a.month}`
    if (m.month !== a.month) mismatch('summary month', at, m.month, a.month)
    if (m.payslip_id !== a.payslipId) mismatch('summary payslip_id', at, m.payslip_id, a.payslipId)
    if (m.company?.id !== a.companyId || m.company?.name !== a.companyName) mismatch('summary company', at, m.company, { id: a.companyId, name: a.companyName })
    for (const [field, fen] of Object.entries(want)) if (typeof m[field] !== 'number' || fenOf(m[field]) !== fen) mismatch(`summary ${field}`, at, m[field], yuanText(fen))
    // a month's special deductions: what its cumulative figure added to the previous month's (docs/api.md), so the months add up to it
    const added = t.cumulativeSpecial - previousSpecial
    const shown = typeof m.special_deductions === 'number' ? fenOf(m.special_deductions) : NaN
    if (shown !== added) mismatch('summary special_deductions', at, m.special_deductions, yuanText(added))
    previousSpecial = t.cumulativeSpecial
    totals.income += a.gross
    totals.contributions += a.contributions
    totals.special_deductions += Number.isNaN(shown) ? 0 : shown
    totals.tax_withheld += t.tax
  }
  for (const [field, fen] of Object.entries(totals))
    if (typeof got.totals?.[field] !== 'number' || fenOf(got.totals[field]) !== fen) mismatch(`summary totals.${field}`, where, got.totals?.[field], yuanText(fen))
  const last = approved[approved.length - 1]?.withholding.cumulativeSpecial ?? 0
  if (totals.special_deductions !== last) mismatch('summary totals.special_deductions against the last cumulative figure', where, got.totals?.special_deductions, yuanText(last))
  count('tax summaries compared')
  return got
}

// ---------------------------------------------------------------- the year

function report(): string {
  const sample = (list: Mismatch[]) =>
    list
      .slice(0, 30)
      .map((m) => `  ${m.what} @ ${m.where}\n    service: ${JSON.stringify(m.service)}\n    oracle:  ${JSON.stringify(m.oracle)}`)
      .join('\n')
  const byKind = (list: Mismatch[]) => {
    const kinds = new Map<string, number>()
    for (const m of list) kinds.set(m.what, (kinds.get(m.what) ?? 0) + 1)
    return [...kinds].map(([k, v]) => `${k}: ${v}`)
  }
  return [
    `seed ${SEED}`,
    ...Object.entries(counts)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([k, v]) => `  ${k}: ${v}`),
    `mismatches ${mismatches.length} ${JSON.stringify(byKind(mismatches))}`,
    sample(mismatches),
    `formula problems ${formulaProblems.length} ${JSON.stringify(byKind(formulaProblems))}`,
    sample(formulaProblems),
  ].join('\n')
}

test(
  'a year of payslips at three companies agrees with the tax oracle (contributions, cumulative withholding, net, run totals, tax summaries)',
  async () => {
    const started = Date.now()
    const t = await startApp({ now: '2024-12-20T02:00:00.000Z', env: { ACCESS_TOKEN_TTL: String(30 * 86_400) } })
    apps.push(t)
    const w = new World(t, prng(SEED))
    w.admin = await loginAdmin(t.app)
    for (const [index, plan] of COMPANIES.entries()) {
      const c: CompanyPlan = { name: plan.name, employees: [], id: 0 }
      c.id = (await call(t, w.admin, 'POST', '/api/v1/admin/companies', { name: c.name, timezone: 'Asia/Shanghai' }, 201)).body.data.id
      const size = w.r.int(plan.size[0], plan.size[1])
      for (let i = 0; i < size; i++) c.employees.push(planEmployee(w.r, c, i, index, w.schemes))
      // the employees as rows (quicker than the API; the profiles, schemes and declarations go through it)
      const rows = await t.deps.database.write((tx) =>
        tx
          .insert(employees)
          .values(c.employees.map((e) => ({ name: e.key, employeeNo: e.no, companyId: c.id, hireDate: e.hireDate, leftOn: e.leftOn, status: e.status })))
          .returning({ id: employees.id, employeeNo: employees.employeeNo }),
      )
      for (const e of c.employees) {
        e.id = rows.find((row) => row.employeeNo === e.no)!.id
        for (const tag of e.tags) count(`employees: ${tag}`)
      }
      w.companies.push(c)
    }
    count('employees', w.companies.reduce((a, c) => a + c.employees.length, 0))
    await applyBefore(w, null)
    const setUp = Date.now()

    for (const month of MONTHS) {
      t.clock.set(`${nextMonth(month)}-03T02:00:00.000Z`)
      w.admin = await loginAdmin(t.app)
      await applyBefore(w, month)
      for (const c of w.companies) await runMonth(w, c, month)
    }
    const ran = Date.now()

    // the tax summary: every employee of a case worth seeing, and others at random (at least 20 in all)
    const withSlips = w.companies.flatMap((c) => c.employees.filter((e) => w.earlierOf(e).length > 0).map((e) => [c, e] as const))
    const interesting = withSlips.filter(([, e]) =>
      [...e.tags].some((tag) => tag.startsWith('declar') || tag === 'leaver' || tag === 'joiner' || tag.startsWith('profile')) ||
      w.earlierOf(e).some((a) => a.withholding.clamped || a.withholding.rate >= 35),
    )
    const all = Boolean(process.env.PAYROLL_TAX_ALL_SUMMARIES)
    const sampled = all ? withSlips : [...interesting.filter(() => w.r.chance(0.15)), ...withSlips.filter(() => w.r.chance(0.03))]
    const chosen = [...new Map(sampled.map(([c, e]) => [e.id, [c, e] as const])).values()]
    for (const [c, e] of chosen) await checkSummary(w, c, e, w.admin, `/api/v1/admin/payroll/tax-summary?year=${YEAR}&employee_id=${e.id}`)
    // the employee's own summary is the same; an account linked to no employee has none
    const viewer = await makeUser(t.app, w.admin, 'tax-viewer', ['employee'])
    expect((await call(t, viewer.token, 'GET', `/api/v1/payslips/tax-summary?year=${YEAR}`)).status).toBe(403)
    for (const [c, e] of chosen.slice(0, 3)) {
      await call(t, w.admin, 'PUT', `/api/v1/admin/employees/${e.id}`, { user_id: viewer.id }, 200)
      const token = await login(t.app, 'tax-viewer', 'tax-viewer-password-1')
      const own = await checkSummary(w, c, e, token, `/api/v1/payslips/tax-summary?year=${YEAR}`)
      const admin = (await call(t, w.admin, 'GET', `/api/v1/admin/payroll/tax-summary?year=${YEAR}&employee_id=${e.id}`, undefined, 200)).body.data
      expect(own).toEqual(admin)
      await call(t, w.admin, 'PUT', `/api/v1/admin/employees/${e.id}`, { user_id: null }, 200)
    }

    const employeeYears = withSlips.length
    count('employee-years with a payslip', employeeYears)
    count('ms setting up', setUp - started)
    count('ms running the year', ran - setUp)
    count('ms of tax summaries', Date.now() - ran)
    const text = report()
    if (process.env.PAYROLL_TAX_DUMP) await Bun.write(process.env.PAYROLL_TAX_DUMP, JSON.stringify({ counts, mismatches, formulaProblems }, null, 1))
    if (process.env.PAYROLL_TAX_VERBOSE || mismatches.length || formulaProblems.length) console.log(text)
    expect(employeeYears).toBeGreaterThanOrEqual(300)
    expect(counts['tax summaries compared']).toBeGreaterThanOrEqual(20)
    expect(mismatches).toEqual([])
    expect(formulaProblems).toEqual([])
  },
  180_000,
)

// the oracle's own arithmetic on the contract's example and the notes' formulas
test('the oracle works §17’s example: 30,000 a month, 4,500 of insurance and fund, 4,000 of deductions → 495.00, 495.00, 1,440.00', () => {
  const declaration: Declaration = { year: 2025, fromMonth: '2025-01', childrenEducation: 200_000, infantCare: 0, continuingEducation: 0, housingLoanInterest: 100_000, housingRent: 0, elderlySupport: 100_000, children: 1 }
  const scheme: TaxScheme = { id: 1, name: 'Flat', effectiveFrom: '2025-01', items: [{ code: 'pension', employeeRate: '0.15', employerRate: '0', baseMin: 0, baseMax: 10_000_000, employeeFixed: 0 }] }
  const earlier: EarlierMonth[] = []
  const taxes: number[] = []
  for (const month of ['2025-01', '2025-02', '2025-03']) {
    const slip = taxPayslip({ month, gross: 3_000_000, scheme, bases: { contributionBase: 3_000_000, housingFundBase: 0 }, otherDeductions: 0, earlier, declaration })
    taxes.push(slip.withholding.tax)
    earlier.push({ month, gross: 3_000_000, contributions: slip.contributions.personalInsurance, tax: slip.withholding.tax })
    if (month === '2025-03')
      expect(taxFormula(slip.withholding)).toBe(
        'special deductions: 4000.00 × 3 = 12000.00; taxable: max(0, 90000.00 − 5000.00 × 3 − 13500.00 − 12000.00) = 49500.00; tax: 49500.00 × 0.10 − 2520.00 = 2430.00; this month: max(0, 2430.00 − 990.00) = 1440.00',
      )
  }
  expect(taxes).toEqual([49_500, 49_500, 144_000])
  // the notes' example: above the ceiling, with Beijing medical's 3.00
  const beijing: TaxScheme = {
    id: 2,
    name: 'B',
    effectiveFrom: '2025-01',
    items: [
      { code: 'pension', employeeRate: '0.08', employerRate: '0.16', baseMin: 731_000, baseMax: 3_654_900, employeeFixed: 0 },
      { code: 'medical', employeeRate: '0.02', employerRate: '0.098', baseMin: 731_000, baseMax: 3_654_900, employeeFixed: 300 },
    ],
  }
  const slip = taxPayslip({ month: '2025-01', gross: 4_000_000, scheme: beijing, bases: { contributionBase: 4_000_000, housingFundBase: 0 }, otherDeductions: 0, earlier: [], declaration: null })
  expect(contributionFormula(slip.contributions.items, 'employee')).toBe(
    'pension: min(40000.00, 36549.00) × 0.08 = 2923.92; medical: min(40000.00, 36549.00) × 0.02 + 3.00 = 733.98; 2923.92 + 733.98 = 3657.90',
  )
  const low = taxPayslip({ month: '2025-01', gross: 500_000, scheme: beijing, bases: { contributionBase: 500_000, housingFundBase: 0 }, otherDeductions: 0, earlier: [], declaration: null })
  expect(contributionFormula(low.contributions.items.slice(0, 1), 'employee')).toBe('pension: max(5000.00, 7310.00) × 0.08 = 584.80')
  for (const formula of [contributionFormula(slip.contributions.items, 'employee'), contributionFormula(low.contributions.items, 'employer'), taxFormula(slip.withholding)])
    for (const part of evaluateFormula(formula)) expect(money2(part.value)).toBe(part.result)
  // a half fen rounds up; a tax of a cumulative figure below what was withheld is 0
  expect(taxPayslip({ month: '2025-01', gross: 0, scheme: { ...beijing, items: [{ ...beijing.items[0], employeeRate: '0.005', baseMin: 0 }] }, bases: { contributionBase: 1_000_100, housingFundBase: 0 }, otherDeductions: 0, earlier: [], declaration: null }).contributions.personalInsurance).toBe(5001)
  const after = taxPayslip({ month: '2025-02', gross: 100_000, scheme: null, bases: { contributionBase: 0, housingFundBase: 0 }, otherDeductions: 0, earlier: [{ month: '2025-01', gross: 5_000_000, contributions: 0, tax: 290_000 }], declaration })
  expect(after.withholding).toMatchObject({ months: 2, cumulativeTaxable: 5_100_000 - 1_000_000 - 800_000, clamped: true, tax: 0 })
  expect(ITEM_CODES.length).toBe(6)
})
