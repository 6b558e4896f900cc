/*
 * The tax oracle (issue 29): social insurance, the housing fund and individual income tax of a
 * payslip, written from CONTRACT §17 and the API notes (the scheme chain by name, the
 * formula shapes, the declaration's catch-up) alone. Nothing here comes from src/. Money is integer
 * fen; rates are kept as the decimals they are written with; every product is an exact fraction
 * (bigint) and each figure is rounded once, half up (all figures here are ≥ 0, so half up and half
 * away from zero agree).
 */
import { Frac, yuanText } from './payroll-oracle'

// ---------------------------------------------------------------- months

export const monthNumber = (month: string) => Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1
/** The months from `from` to `to`, both counted; 0 when `from` is after `to`. */
export const monthsFromTo = (from: string, to: string) => Math.max(0, monthNumber(to) - monthNumber(from) + 1)
const laterMonth = (a: string, b: string) => (a > b ? a : b)

// ---------------------------------------------------------------- schemes

export const ITEM_CODES = ['pension', 'medical', 'unemployment', 'work_injury', 'maternity', 'housing_fund'] as const
export type ItemCode = (typeof ITEM_CODES)[number]

export interface TaxItem {
  code: ItemCode
  /** as written, at most 4 decimals ("0.08", "0.0045") */
  employeeRate: string
  employerRate: string
  /** fen */
  baseMin: number
  baseMax: number
  employeeFixed: number
}

export interface TaxScheme {
  id: number
  name: string
  effectiveFrom: string
  items: TaxItem[]
}

/**
 * The scheme a month uses for a profile naming `schemeId`: a city's chain is its name, and the
 * month uses the latest scheme of that name whose effective_from ≤ the month; null when the profile
 * names none, or no scheme of the name is in effect yet.
 */
export function schemeInEffect(schemes: readonly TaxScheme[], schemeId: number | null, month: string): TaxScheme | null {
  if (schemeId === null) return null
  const named = schemes.find((s) => s.id === schemeId)
  if (!named) throw new Error(`no scheme ${schemeId}`)
  let best: TaxScheme | null = null
  for (const s of schemes) if (s.name === named.name && s.effectiveFrom <= month && (best === null || s.effectiveFrom > best.effectiveFrom)) best = s
  return best
}

// ---------------------------------------------------------------- a payslip's contributions

export type Clamp = 'inside' | 'floor' | 'ceiling'

export interface ItemShare {
  code: ItemCode
  /** the profile's base (fen): housing_fund_base for the housing fund, contribution_base for the rest */
  profileBase: number
  /** the base used: clamp(profile base, base_min, base_max) */
  base: number
  clamp: Clamp
  /** the bound the base was clamped to (floor or ceiling), or null inside */
  bound: number | null
  employeeRate: string
  employerRate: string
  employeeFixed: number
  /** round(base × employee_rate) + employee_fixed */
  employee: number
  /** round(base × employer_rate) */
  employer: number
  /** whether a product landed exactly on half a fen (rounded up) */
  tie: boolean
}

const roundHalfUp = (value: Frac): { fen: number; tie: boolean } => {
  if (value.n < 0n) throw new RangeError(`a negative share: ${value}`)
  const twice = value.mul(Frac.of(2))
  const tie = twice.d === 1n && twice.n % 2n === 1n
  return { fen: Number(value.round()), tie }
}

export function itemShare(item: TaxItem, profileBase: number): ItemShare {
  if (item.baseMin > item.baseMax) throw new RangeError(`${item.code}: base_min above base_max`)
  const clamp: Clamp = profileBase < item.baseMin ? 'floor' : profileBase > item.baseMax ? 'ceiling' : 'inside'
  const base = clamp === 'floor' ? item.baseMin : clamp === 'ceiling' ? item.baseMax : profileBase
  const employeeProduct = roundHalfUp(Frac.of(base).mul(Frac.parse(item.employeeRate)))
  const employerProduct = roundHalfUp(Frac.of(base).mul(Frac.parse(item.employerRate)))
  return {
    code: item.code,
    profileBase,
    base,
    clamp,
    bound: clamp === 'inside' ? null : base,
    employeeRate: item.employeeRate,
    employerRate: item.employerRate,
    employeeFixed: item.employeeFixed,
    employee: employeeProduct.fen + item.employeeFixed,
    employer: employerProduct.fen,
    tie: employeeProduct.tie || employerProduct.tie,
  }
}

export interface ProfileBases {
  /** fen */
  contributionBase: number
  housingFundBase: number
}

export interface Contributions {
  scheme: TaxScheme | null
  /** in the scheme's item order (the code order) */
  items: ItemShare[]
  /** Σ employee shares of all items but the housing fund */
  personalInsurance: number
  /** the housing fund's employee share */
  housingFund: number
  /** Σ employer shares of all items */
  employer: number
}

export function contributionsOf(scheme: TaxScheme | null, bases: ProfileBases): Contributions {
  const items = (scheme?.items ?? [])
    .slice()
    .sort((a, b) => ITEM_CODES.indexOf(a.code) - ITEM_CODES.indexOf(b.code))
    .map((item) => itemShare(item, item.code === 'housing_fund' ? bases.housingFundBase : bases.contributionBase))
  const sum = (list: ItemShare[], pick: (s: ItemShare) => number) => list.reduce((a, s) => a + pick(s), 0)
  return {
    scheme,
    items,
    personalInsurance: sum(
      items.filter((s) => s.code !== 'housing_fund'),
      (s) => s.employee,
    ),
    housingFund: sum(
      items.filter((s) => s.code === 'housing_fund'),
      (s) => s.employee,
    ),
    employer: sum(items, (s) => s.employer),
  }
}

// ---------------------------------------------------------------- special additional deductions

export interface Declaration {
  year: number
  /** YYYY-MM in `year` */
  fromMonth: string
  /** fen a month */
  childrenEducation: number
  infantCare: number
  continuingEducation: number
  housingLoanInterest: number
  housingRent: number
  elderlySupport: number
  children: number
}

export const monthlyTotal = (d: Declaration) =>
  d.childrenEducation + d.infantCare + d.continuingEducation + d.housingLoanInterest + d.housingRent + d.elderlySupport

/** The caps of §17 (2023 standard) the declaration breaks, none when it is valid. */
export function capProblems(d: Declaration): string[] {
  const problems: string[] = []
  if (d.childrenEducation + d.infantCare > 200_000 * d.children) problems.push('children_education + infant_care')
  if (d.continuingEducation > 40_000) problems.push('continuing_education')
  if (d.housingLoanInterest > 100_000) problems.push('housing_loan_interest')
  if (d.housingRent > 150_000) problems.push('housing_rent')
  if (d.elderlySupport > 300_000) problems.push('elderly_support')
  if (d.housingLoanInterest > 0 && d.housingRent > 0) problems.push('housing_loan_interest and housing_rent')
  return problems
}

/**
 * The months a declaration counts for month m whose year's first payslip (here) is `firstMonth`:
 * [max(first, from_month), m]; 0 when from_month is after m, or the declaration is of another year.
 */
export function countedMonths(d: Declaration | null, firstMonth: string, month: string): number {
  if (d === null || d.year !== Number(month.slice(0, 4)) || d.fromMonth > month) return 0
  return monthsFromTo(laterMonth(firstMonth, d.fromMonth), month)
}

// ---------------------------------------------------------------- cumulative withholding

/** The annual table of §17: the upper bound of cumulative taxable (yuan), the rate (%), the quick deduction (yuan). */
export const ANNUAL_TABLE: readonly [number, number, number][] = [
  [36_000, 3, 0],
  [144_000, 10, 2_520],
  [300_000, 20, 16_920],
  [420_000, 25, 31_920],
  [660_000, 30, 52_920],
  [960_000, 35, 85_920],
  [Infinity, 45, 181_920],
]

/** An earlier approved payslip of the year at this company, as the month's withholding reads it. */
export interface EarlierMonth {
  month: string
  gross: number
  /** personal_insurance + housing_fund */
  contributions: number
  /** its personal_tax */
  tax: number
}

export interface Withholding {
  month: string
  firstMonth: string
  /** n: the months from the first payslip of the year here to this month */
  months: number
  cumulativeGross: number
  /** 5,000 × n, fen */
  cumulativeBasic: number
  cumulativeContributions: number
  /** the declaration's monthly total, or 0 without one */
  specialPerMonth: number
  /** k: the months the declaration counts */
  specialMonths: number
  cumulativeSpecial: number
  /** before the floor at 0 */
  rawTaxable: number
  cumulativeTaxable: number
  /** percent */
  rate: number
  /** fen */
  quickDeduction: number
  cumulativeTax: number
  /** Σ personal_tax of the earlier approved payslips */
  withheld: number
  /** this month's personal_tax */
  tax: number
  /** cumulative tax below what was withheld: this month withholds 0 (never a refund) */
  clamped: boolean
}

/** The bracket of a cumulative taxable (fen) and round(taxable × rate − quick deduction), fen. */
export function annualTax(taxable: number): { rate: number; quick: number; tax: number } {
  const [, rate, quick] = ANNUAL_TABLE.find(([upTo]) => taxable <= upTo * 100)!
  const tax = new Frac(BigInt(taxable) * BigInt(rate), 100n).sub(Frac.of(quick * 100))
  return { rate, quick: quick * 100, tax: Number(tax.round()) }
}

/**
 * Month m's withholding given the earlier approved payslips of the year at this company, this
 * month's gross and contributions and the year's declaration as it is now.
 */
export function withholding(p: { month: string; earlier: readonly EarlierMonth[]; gross: number; contributions: number; declaration: Declaration | null }): Withholding {
  const year = p.month.slice(0, 4)
  const earlier = p.earlier.filter((e) => e.month.slice(0, 4) === year && e.month < p.month)
  const firstMonth = earlier.reduce((first, e) => (e.month < first ? e.month : first), p.month)
  const months = monthsFromTo(firstMonth, p.month)
  const cumulativeGross = earlier.reduce((a, e) => a + e.gross, 0) + p.gross
  const cumulativeContributions = earlier.reduce((a, e) => a + e.contributions, 0) + p.contributions
  const specialMonths = countedMonths(p.declaration, firstMonth, p.month)
  const specialPerMonth = p.declaration === null ? 0 : monthlyTotal(p.declaration)
  const cumulativeSpecial = specialPerMonth * specialMonths
  const cumulativeBasic = 500_000 * months
  const rawTaxable = cumulativeGross - cumulativeBasic - cumulativeContributions - cumulativeSpecial
  const cumulativeTaxable = Math.max(0, rawTaxable)
  const { rate, quick, tax: cumulativeTax } = annualTax(cumulativeTaxable)
  const withheld = earlier.reduce((a, e) => a + e.tax, 0)
  return {
    month: p.month,
    firstMonth,
    months,
    cumulativeGross,
    cumulativeBasic,
    cumulativeContributions,
    specialPerMonth,
    specialMonths,
    cumulativeSpecial,
    rawTaxable,
    cumulativeTaxable,
    rate,
    quickDeduction: quick,
    cumulativeTax,
    withheld,
    tax: Math.max(0, cumulativeTax - withheld),
    clamped: cumulativeTax < withheld,
  }
}

// ---------------------------------------------------------------- a payslip's deductions and net

export interface TaxPayslip {
  gross: number
  contributions: Contributions
  withholding: Withholding
  otherDeductions: number
  /** personal_insurance + housing_fund + personal_tax + other_deductions */
  deductions: number
  net: number
}

/** net = gross − (personal_insurance + housing_fund + personal_tax + other_deductions) */
export function netPay(gross: number, personalInsurance: number, housingFund: number, personalTax: number, otherDeductions: number): number {
  return gross - (personalInsurance + housingFund + personalTax + otherDeductions)
}

export function taxPayslip(p: {
  month: string
  gross: number
  scheme: TaxScheme | null
  bases: ProfileBases
  otherDeductions: number
  earlier: readonly EarlierMonth[]
  declaration: Declaration | null
}): TaxPayslip {
  const contributions = contributionsOf(p.scheme, p.bases)
  const w = withholding({ month: p.month, earlier: p.earlier, gross: p.gross, contributions: contributions.personalInsurance + contributions.housingFund, declaration: p.declaration })
  const deductions = contributions.personalInsurance + contributions.housingFund + w.tax + p.otherDeductions
  return {
    gross: p.gross,
    contributions,
    withholding: w,
    otherDeductions: p.otherDeductions,
    deductions,
    net: netPay(p.gross, contributions.personalInsurance, contributions.housingFund, w.tax, p.otherDeductions),
  }
}

// ---------------------------------------------------------------- the formulas the lines should show

/** A rate as a decimal without trailing zeros ("0.08", "0"). */
const rateText = (rate: string) => {
  const value = Frac.parse(rate)
  if (value.d === 1n) return value.n.toString()
  return rate.replace(/0+$/, '').replace(/\.$/, '')
}

/** The base as a part writes it: `10000.00` inside, `max(5000.00, 7310.00)` below the floor, `min(40000.00, 36549.00)` above the ceiling. */
export function baseText(s: ItemShare): string {
  if (s.clamp === 'inside') return yuanText(s.base)
  return `${s.clamp === 'floor' ? 'max' : 'min'}(${yuanText(s.profileBase)}, ${yuanText(s.base)})`
}

/** One item's part of the employee (with the fixed amount) or the employer line. */
export function itemPart(s: ItemShare, side: 'employee' | 'employer'): { label: string; text: string; amount: number } {
  const rate = side === 'employee' ? s.employeeRate : s.employerRate
  const fixed = side === 'employee' && s.employeeFixed !== 0 ? ` + ${yuanText(s.employeeFixed)}` : ''
  const amount = side === 'employee' ? s.employee : s.employer
  return { label: s.code, text: `${s.code}: ${baseText(s)} × ${rateText(rate)}${fixed} = ${yuanText(amount)}`, amount }
}

/** A contribution line's formula from its items' parts: each part, then their sum (a single item: its part alone). */
export function contributionFormula(shares: readonly ItemShare[], side: 'employee' | 'employer'): string {
  const parts = shares.map((s) => itemPart(s, side))
  if (parts.length === 1) return parts[0].text
  const total = parts.reduce((a, p) => a + p.amount, 0)
  return [...parts.map((p) => p.text), `${parts.map((p) => yuanText(p.amount)).join(' + ')} = ${yuanText(total)}`].join('; ')
}

export const rateDecimal = (percent: number) => `0.${String(percent).padStart(2, '0')}`

/** The personal_tax line's formula: [special deductions; ]taxable; tax; this month. */
export function taxFormula(w: Withholding): string {
  const special = w.specialMonths > 0 ? `special deductions: ${yuanText(w.specialPerMonth)} × ${w.specialMonths} = ${yuanText(w.cumulativeSpecial)}; ` : ''
  return (
    special +
    `taxable: max(0, ${yuanText(w.cumulativeGross)} − 5000.00 × ${w.months} − ${yuanText(w.cumulativeContributions)} − ${yuanText(w.cumulativeSpecial)}) = ${yuanText(w.cumulativeTaxable)}; ` +
    `tax: ${yuanText(w.cumulativeTaxable)} × ${rateDecimal(w.rate)} − ${yuanText(w.quickDeduction)} = ${yuanText(w.cumulativeTax)}; ` +
    `this month: max(0, ${yuanText(w.cumulativeTax)} − ${yuanText(w.withheld)}) = ${yuanText(w.tax)}`
  )
}

/**
 * Two formulas say the same when they have the same words and symbols and numbers of the same
 * value (0.08 and 0.0800 are one rate); the first difference, or null.
 */
export function formulaDifference(got: string, want: string): string | null {
  if (got === want) return null
  const tokens = (text: string) => text.match(/\d+(?:\.\d+)?|[a-z_]+|\S/gi) ?? []
  const a = tokens(got)
  const b = tokens(want)
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i]
    const y = b[i]
    if (x === undefined || y === undefined) return `token ${i}: ${x ?? '(end)'} vs ${y ?? '(end)'}`
    const numeric = /^\d/.test(x) && /^\d/.test(y)
    if (numeric ? decimalKey(x) !== decimalKey(y) : x !== y) return `token ${i}: "${x}" vs "${y}"`
  }
  return null
}

/** A decimal's spelling without leading or trailing zeros that change nothing ("0.10" and "0.1", "5000.00" and "5000"): equal keys, equal values. */
export function decimalKey(text: string): string {
  const match = /^(-?)0*(\d*?)(?:\.(\d*?)0*)?$/.exec(text)
  if (!match) throw new RangeError(`not a decimal: ${text}`)
  const whole = match[2] || '0'
  const key = match[3] ? `${whole}.${match[3]}` : whole
  return key === '0' ? '0' : `${match[1]}${key}`
}
