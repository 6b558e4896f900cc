import { max, parseDecimal, rational, roundToFen, whole, ZERO, type Rational } from '../../../lib/rational'
import { toYuan } from '../../../lib/money'
import { figure, join, maxOf, MINUS, money, part, parts, rate, TIMES } from './formula'
import type { PayLine, TaxDeclaration, TaxYearToDate } from './types'

/*
 * Individual income tax on wages, cumulative withholding (CONTRACT §17): the year's figures to date
 * against the annual bracket table, less what earlier payslips of the year withheld. The table is
 * data with the month it applies from, so a change of law is a new entry, not an edit.
 */

export interface TaxBracket {
  /** the bracket's upper bound of cumulative taxable income, fen; null: no bound (the last one) */
  upTo: number | null
  /** a decimal, as written in the formula ("0.10") */
  rate: string
  /** fen */
  quickDeduction: number
}

export interface TaxTable {
  /** 'YYYY-MM': applies to months from this one until the next table's */
  from: string
  /** fen per month of the year to date */
  basicDeductionPerMonth: number
  brackets: readonly TaxBracket[]
}

/** From 2019 (the individual income tax law as amended in 2018): 5,000 a month, the comprehensive income table. */
export const TAX_TABLES: readonly TaxTable[] = [
  {
    from: '2019-01',
    basicDeductionPerMonth: 5_000_00,
    brackets: [
      { upTo: 36_000_00, rate: '0.03', quickDeduction: 0 },
      { upTo: 144_000_00, rate: '0.10', quickDeduction: 2_520_00 },
      { upTo: 300_000_00, rate: '0.20', quickDeduction: 16_920_00 },
      { upTo: 420_000_00, rate: '0.25', quickDeduction: 31_920_00 },
      { upTo: 660_000_00, rate: '0.30', quickDeduction: 52_920_00 },
      { upTo: 960_000_00, rate: '0.35', quickDeduction: 85_920_00 },
      { upTo: null, rate: '0.45', quickDeduction: 181_920_00 },
    ],
  },
]

/** The first month cumulative withholding is computed for: the earliest table's. */
export const FIRST_TAX_MONTH = TAX_TABLES.map((table) => table.from).sort()[0]

/** The table a month uses: the latest whose `from` is not after it. */
export function taxTableFor(month: string, tables: readonly TaxTable[] = TAX_TABLES): TaxTable {
  const applicable = tables.filter((table) => table.from <= month).sort((a, b) => (a.from < b.from ? 1 : -1))
  if (applicable.length === 0) throw new RangeError(`no tax table for ${month}`)
  return applicable[0]
}

/** A bracket's rate as an exact ratio and as the formula writes it ("0.10"), read once per rate. */
function rateOf(text: string): { value: Rational; shown: string } {
  let found = rates.get(text)
  if (!found) {
    const value = parseDecimal(text)
    if (rates.size >= 1000) rates.clear()
    rates.set(text, (found = { value, shown: rate(value) }))
  }
  return found
}
const rates = new Map<string, { value: Rational; shown: string }>()

/** The bracket of a cumulative taxable income (fen). */
export function bracketOf(table: TaxTable, taxable: number): TaxBracket {
  const bracket = table.brackets.find((each) => each.upTo === null || taxable <= each.upTo)
  if (!bracket) throw new RangeError('the tax table has no open last bracket')
  return bracket
}

/** Months from `first` to `month`, both 'YYYY-MM', inclusive. */
export function monthsThrough(first: string, month: string): number {
  const index = (value: string) => Number(value.slice(0, 4)) * 12 + Number(value.slice(5, 7))
  const count = index(month) - index(first) + 1
  if (count < 1) throw new RangeError(`the tax year starts (${first}) after the month (${month})`)
  return count
}

export interface TaxLineInput {
  month: string
  /** this month's wage payable, fen */
  gross: number
  /** this month's personal_insurance + housing_fund, fen */
  contributions: number
  /** the year's special additional deductions (CONTRACT §17); null: none declared */
  declaration: TaxDeclaration | null
  tax: TaxYearToDate
}

/**
 * The months a declaration counts in the year to date: from its from_month (or the year's first
 * payslip here, if later) to this month. As declared now: a declaration made in March from January
 * counts January and February too, in March's cumulative figures.
 */
export function declaredMonths(declaration: TaxDeclaration | null, firstMonth: string, month: string): number {
  if (declaration === null || declaration.monthlyTotal === 0 || declaration.fromMonth > month) return 0
  return monthsThrough(declaration.fromMonth > firstMonth ? declaration.fromMonth : firstMonth, month)
}

/**
 * The personal_tax line: cumulative taxable = max(0, Σ gross − basic deduction × n − Σ contributions
 * − Σ special deductions); cumulative tax = taxable × rate − quick deduction (rounded half up to fen);
 * this month = max(0, cumulative tax − withheld). Always present, also at 0.00.
 */
export function taxLine({ month, gross, contributions, declaration, tax }: TaxLineInput, tables: readonly TaxTable[] = TAX_TABLES): PayLine {
  const table = taxTableFor(month, tables)
  const months = monthsThrough(tax.firstMonth, month)
  const cumulativeGross = tax.gross + gross
  const cumulativeContributions = tax.contributions + contributions
  const specialMonths = declaredMonths(declaration, tax.firstMonth, month)
  const counted = specialMonths === 0 ? null : declaration
  const perMonth = counted?.monthlyTotal ?? 0
  const cumulativeSpecial = perMonth * specialMonths

  // each part's arithmetic in whole fen (bigint, exact), made yuan once: the same values as
  // fromFen, mul and sub step by step, without reducing to lowest terms after every step
  const basic = whole(table.basicDeductionPerMonth) * whole(months)
  const beforeFloor = rational(whole(cumulativeGross) - basic - whole(cumulativeContributions) - whole(cumulativeSpecial), 100n)
  const taxable = roundToFen(max(ZERO, beforeFloor))

  const bracket = bracketOf(table, taxable)
  const bracketRate = rateOf(bracket.rate)
  const { num, den } = bracketRate.value
  // taxable × rate − quick deduction, over 100 × the rate's denominator
  const cumulativeTax = roundToFen(rational(whole(taxable) * num - whole(bracket.quickDeduction) * den, 100n * den))

  const amount = roundToFen(max(ZERO, rational(whole(cumulativeTax) - whole(tax.withheld), 100n)))

  const formula = parts(
    ...(counted === null ? [] : [part(join(TIMES, money(perMonth), figure(specialMonths)), cumulativeSpecial, 'special deductions')]),
    part(
      maxOf('0', join(MINUS, money(cumulativeGross), join(TIMES, money(table.basicDeductionPerMonth), figure(months)), money(cumulativeContributions), money(cumulativeSpecial))),
      taxable,
      'taxable',
    ),
    part(join(MINUS, join(TIMES, money(taxable), bracketRate.shown), money(bracket.quickDeduction)), cumulativeTax, 'tax'),
    part(maxOf('0', join(MINUS, money(cumulativeTax), money(tax.withheld))), amount, 'this month'),
  )
  return {
    code: 'personal_tax',
    kind: 'deduction',
    amount,
    formula,
    inputs: {
      cumulative_gross: toYuan(cumulativeGross),
      basic_deduction: toYuan(table.basicDeductionPerMonth),
      months,
      cumulative_contributions: toYuan(cumulativeContributions),
      ...(counted === null ? {} : { special_deductions_per_month: toYuan(perMonth), special_deduction_months: specialMonths }),
      cumulative_special_deductions: toYuan(cumulativeSpecial),
      cumulative_taxable: toYuan(taxable),
      // a ratio for display, not a money path: the formula holds its exact decimal
      rate: Number(bracket.rate),
      quick_deduction: toYuan(bracket.quickDeduction),
      cumulative_tax: toYuan(cumulativeTax),
      withheld: toYuan(tax.withheld),
    },
    sources: [
      ...(tax.payslipIds ?? []).map((id) => ({ kind: 'payslip' as const, id })),
      ...(counted === null ? [] : [{ kind: 'tax_deduction' as const, id: counted.id }]),
    ],
  }
}
