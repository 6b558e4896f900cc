import { toYuan } from '../../../lib/money'
import { rational, roundToFen, whole, type Rational } from '../../../lib/rational'
import { join, maxOf, minOf, money, part, parts, PLUS, rate, TIMES } from './formula'
import type { ContributionScheme, InputValue, ItemCode, PayLine, PayProfile, SchemeItem, Source } from './types'

/*
 * Social insurance and the housing fund (CONTRACT §17), from the scheme in effect and the pay
 * profile's bases. Per item: base = clamp(profile base, base_min, base_max); employee share =
 * round(base × employee rate) + employee fixed; employer share = round(base × employer rate): one
 * rounding (half up) per item, and each line the sum of its items' rounded shares, every item a
 * part of its formula.
 */

/** Rates are kept in ten-thousandths: 800 is 0.08. */
export const RATE_SCALE = 10_000

/** A rate in ten-thousandths as the exact ratio and as written ("0.08", "0.005"). */
const rateOf = (tenThousandths: number): { value: Rational; shown: string } => {
  const value = rational(tenThousandths, RATE_SCALE)
  return { value, shown: rate(value) }
}

interface ItemBase {
  /** the clamped base, fen */
  base: number
  /** the base as the formula writes it: the profile's figure, or its clamp to the floor or the ceiling */
  shown: string
}

/** clamp(profile base, base_min, base_max), written as the clamp that applied. */
export function itemBase(item: SchemeItem, profileBase: number): ItemBase {
  if (profileBase < item.baseMin) return { base: item.baseMin, shown: maxOf(money(profileBase), money(item.baseMin)) }
  if (profileBase > item.baseMax) return { base: item.baseMax, shown: minOf(money(profileBase), money(item.baseMax)) }
  return { base: profileBase, shown: money(profileBase) }
}

/** round(base × rate), fen. */
const share = (base: number, tenThousandths: number): number => roundToFen(rational(whole(base) * whole(tenThousandths), whole(RATE_SCALE) * 100n))

interface ItemShare {
  item: SchemeItem
  /** the clamped base, fen (computed once, for the amount and the inputs) */
  base: number
  amount: number
  expression: string
}

/** The profile's base an item is computed on: the housing fund's own, the contribution base for the rest. */
const profileBaseOf = (profile: PayProfile, code: ItemCode) => (code === 'housing_fund' ? profile.housingFundBase : profile.contributionBase)

function employeeShare(item: SchemeItem, profile: PayProfile): ItemShare | null {
  if (item.employeeRate === 0 && item.employeeFixed === 0) return null
  const { base, shown } = itemBase(item, profileBaseOf(profile, item.code))
  const fixed = item.employeeFixed === 0 ? [] : [money(item.employeeFixed)]
  if (item.employeeRate === 0) return { item, base, amount: item.employeeFixed, expression: money(item.employeeFixed) }
  return { item, base, amount: share(base, item.employeeRate) + item.employeeFixed, expression: join(PLUS, join(TIMES, shown, rateOf(item.employeeRate).shown), ...fixed) }
}

function employerShare(item: SchemeItem, profile: PayProfile): ItemShare | null {
  if (item.employerRate === 0) return null
  const { base, shown } = itemBase(item, profileBaseOf(profile, item.code))
  return { item, base, amount: share(base, item.employerRate), expression: join(TIMES, shown, rateOf(item.employerRate).shown) }
}

/** The inputs an item's share used: its clamped base, the bounds, the rate and the fixed amount. */
function itemInputs({ item, base }: ItemShare, rateKey: 'employee_rate' | 'employer_rate'): Record<string, InputValue> {
  const inputs: Record<string, InputValue> = {
    [`${item.code}_base`]: toYuan(base),
    [`${item.code}_base_min`]: toYuan(item.baseMin),
    [`${item.code}_base_max`]: toYuan(item.baseMax),
    // a ratio for display, not a money path: the formula holds its exact decimal
    [`${item.code}_${rateKey}`]: (rateKey === 'employee_rate' ? item.employeeRate : item.employerRate) / RATE_SCALE,
  }
  if (rateKey === 'employee_rate' && item.employeeFixed !== 0) inputs[`${item.code}_employee_fixed`] = toYuan(item.employeeFixed)
  return inputs
}

/**
 * A line summing its items' shares: a labelled part per item, then their sum (one item: its part
 * alone). Its inputs: the profile's bases the items start from (named `profile_…`, as
 * `housing_fund_base` is the housing fund item's clamped base), then each item's figures. Null
 * when nothing is due.
 */
function sumLine(code: 'personal_insurance' | 'housing_fund' | 'employer_contributions', shares: readonly (ItemShare | null)[], profile: PayProfile, sources: Source[]): PayLine | null {
  const due = shares.filter((each): each is ItemShare => each !== null && each.amount !== 0)
  if (due.length === 0) return null
  const amount = due.reduce((sum, each) => sum + each.amount, 0)
  const each = due.map(({ item, expression, amount }) => part(expression, amount, item.code))
  const formula = due.length === 1 ? each[0] : parts(...each, part(join(PLUS, ...due.map((share) => money(share.amount))), amount))
  const inputs: Record<string, InputValue> = {}
  if (due.some(({ item }) => item.code !== 'housing_fund')) inputs.profile_contribution_base = toYuan(profile.contributionBase)
  if (due.some(({ item }) => item.code === 'housing_fund')) inputs.profile_housing_fund_base = toYuan(profile.housingFundBase)
  const rateKey = code === 'employer_contributions' ? 'employer_rate' : 'employee_rate'
  for (const each of due) Object.assign(inputs, itemInputs(each, rateKey))
  return { code, kind: code === 'employer_contributions' ? 'employer' : 'deduction', amount, formula, inputs, sources }
}

export interface Contributions {
  /** the employee's social insurance (all items but the housing fund) */
  personalInsurance: PayLine | null
  /** the employee's housing fund */
  housingFund: PayLine | null
  /** the employer's shares of every item: the employer's cost, in none of the payslip's totals */
  employer: PayLine | null
}

const NONE: Contributions = { personalInsurance: null, housingFund: null, employer: null }

/** The month's contribution lines from the scheme in effect (none without one). */
export function contributionLines(scheme: ContributionScheme | null, profile: PayProfile): Contributions {
  if (scheme === null) return NONE
  const sources: Source[] = [
    { kind: 'pay_profile', id: profile.id },
    { kind: 'contribution_scheme', id: scheme.id },
  ]
  const insurance = scheme.items.filter((item) => item.code !== 'housing_fund')
  const fund = scheme.items.filter((item) => item.code === 'housing_fund')
  return {
    personalInsurance: sumLine('personal_insurance', insurance.map((item) => employeeShare(item, profile)), profile, sources),
    housingFund: sumLine('housing_fund', fund.map((item) => employeeShare(item, profile)), profile, sources),
    employer: sumLine('employer_contributions', scheme.items.map((item) => employerShare(item, profile)), profile, sources),
  }
}

/** The scheme a month uses: of the schemes with the name of the profile's, the latest whose effective_from is not after it. */
export function schemeInEffect(schemes: readonly ContributionScheme[], named: ContributionScheme | undefined, month: string): ContributionScheme | null {
  if (named === undefined) return null
  let found: ContributionScheme | null = null
  for (const scheme of schemes)
    if (scheme.name === named.name && scheme.effectiveFrom <= month && (found === null || scheme.effectiveFrom > found.effectiveFrom)) found = scheme
  return found
}
