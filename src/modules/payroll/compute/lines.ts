import { toYuan } from '../../../lib/money'
import { fromFen, mul, quotient, rational, roundToFen, sub, whole, type Rational } from '../../../lib/rational'
import { DIVIDED, figure, join, MINUS, money, part, PLUS, TIMES } from './formula'
import type { AdjustmentInput, InputValue, LeavePayout, LineCode, LineKind, MonthFacts, PayLine, PaySettings, Source } from './types'

/*
 * One pure function per payslip line (CONTRACT §16). Each computes its amount exactly from the
 * figures it names, rounds once (half up, to fen) and writes the same arithmetic as its formula;
 * a wage rate is never rounded on its own: every formula starts from the monthly wage. A function
 * returns null when its line does not appear (its amount and its count are zero).
 */

const HOURS_PER_DAY = 8
const MINUTES_PER_HOUR = 60
/**
 * A leaver's unused annual leave is paid at 300 % of the daily wage, of which the normal 100 % is
 * already in the month's pay: daily × 2 × days (CONTRACT §18, China's regulation on paid annual leave).
 */
const PAYOUT_MULTIPLIER = 2

function line(
  code: LineCode,
  kind: LineKind,
  exact: Rational,
  expression: string,
  inputs: Record<string, InputValue>,
  sources: Source[],
  month?: string,
): PayLine {
  return lineOfFen(code, kind, roundToFen(exact), expression, inputs, sources, month)
}

/** A line whose exact amount is a whole number of fen already: nothing to round. */
function lineOfFen(
  code: LineCode,
  kind: LineKind,
  amount: number,
  expression: string,
  inputs: Record<string, InputValue>,
  sources: Source[],
  month?: string,
): PayLine {
  const payLine: PayLine = { code, kind, amount, formula: part(expression, amount), inputs, sources }
  if (month !== undefined) payLine.month = month
  return payLine
}

/** Hundredths (2175, 150) as the exact ratio (21.75, 1.5). */
const hundredths = (value: number): Rational => hundredthsOf(value).value

/** The same with its text (21.75): a company's few settings, each read once for a run of payslips. */
function hundredthsOf(value: number): { value: Rational; text: string } {
  let found = ratios.get(value)
  if (!found) {
    const exact = rational(value, 100)
    if (ratios.size >= 1000) ratios.clear()
    ratios.set(value, (found = { value: exact, text: figure(exact) }))
  }
  return found
}
const ratios = new Map<number, { value: Rational; text: string }>()

/** Days counted in halves (1.5) as an exact ratio: a half day is 0.5, exactly representable. */
const halfDays = (days: number): Rational => rational(Math.round(days * 2), 2)

/** Whole or half days, as a formula shows them and inputs name them. */
const dayText = (days: number): string => figure(halfDays(days))

/** The monthly wage (basic + seniority + allowance, fen) and the daily wage's divisor. */
export interface Wage {
  monthly: number
  daysPerMonthHundredths: number
}

const wageInputs = (wage: Wage) => ({ monthly_wage: toYuan(wage.monthly), days_per_month: wage.daysPerMonthHundredths / 100 })
/** "M ÷ D": the daily wage, written, never rounded. */
const dailyText = (wage: Wage) => join(DIVIDED, money(wage.monthly), hundredthsOf(wage.daysPerMonthHundredths).text)
/** M × factors ÷ D ÷ divisors, exactly: a line's arithmetic from the monthly wage (the daily wage is never a value of its own). */
const fromMonthly = (wage: Wage, factors: readonly Rational[], divisors: readonly Rational[] = []) =>
  quotient([fromFen(wage.monthly), ...factors], [hundredths(wage.daysPerMonthHundredths), ...divisors])

export interface Proration {
  basis: 'work_days' | 'calendar_days'
  employed: number
  total: number
}

/** Work days of the month when the settings say so and the month has any (an employee with no rule has none); else calendar days. */
export function prorationOf(facts: MonthFacts, settings: PaySettings): Proration {
  return settings.proration === 'work_days' && facts.workDaysOfMonth > 0
    ? { basis: 'work_days', employed: facts.employedWorkDays, total: facts.workDaysOfMonth }
    : { basis: 'calendar_days', employed: facts.employedCalendarDays, total: facts.calendarDaysOfMonth }
}

/** basic_salary (always), seniority_pay, allowance: amount × employed ÷ total, a full month too. */
export function proratedLine(code: 'basic_salary' | 'seniority_pay' | 'allowance', amount: number, proration: Proration, profileId: number): PayLine | null {
  if (amount === 0 && code !== 'basic_salary') return null
  const { basis, employed, total } = proration
  const names = basis === 'work_days' ? ['employed_work_days', 'work_days_of_month'] : ['employed_calendar_days', 'calendar_days_of_month']
  const expression = join(TIMES, money(amount), join(DIVIDED, figure(employed), figure(total)))
  const inputs = { [code]: toYuan(amount), [names[0]]: employed, [names[1]]: total }
  const sources: Source[] = [{ kind: 'pay_profile', id: profileId }]
  // a month employed whole is the amount itself (amount × n ÷ n), the usual case
  const shown =
    employed === total && total > 0
      ? lineOfFen(code, 'income', amount, expression, inputs, sources)
      : line(code, 'income', quotient([fromFen(amount), rational(employed)], [rational(total)]), expression, inputs, sources)
  // a line appears when its amount is not zero; the basic salary always does (it says how much of the month was paid)
  return shown.amount === 0 && code !== 'basic_salary' ? null : shown
}

/** Overtime pay: M ÷ D ÷ 8 × minutes ÷ 60 × multiplier. */
export function overtimeLine(
  code: 'overtime_work_day' | 'overtime_rest_day' | 'overtime_statutory_holiday',
  wage: Wage,
  minutes: number,
  multiplierHundredths: number,
  sources: Source[],
): PayLine | null {
  if (minutes === 0) return null
  const multiplier = hundredthsOf(multiplierHundredths)
  return line(
    code,
    'income',
    // M ÷ D ÷ 8 × (minutes ÷ 60) × multiplier
    fromMonthly(wage, [rational(minutes), multiplier.value], [rational(HOURS_PER_DAY), rational(MINUTES_PER_HOUR)]),
    join(TIMES, join(DIVIDED, dailyText(wage), figure(HOURS_PER_DAY)), join(DIVIDED, figure(minutes), figure(MINUTES_PER_HOUR)), multiplier.text),
    { ...wageInputs(wage), hours_per_day: HOURS_PER_DAY, overtime_minutes: minutes, minutes_per_hour: MINUTES_PER_HOUR, multiplier: multiplierHundredths / 100 },
    sources,
  )
}

export type EnteredCode = 'performance_pay' | 'bonus' | 'other_income' | 'other_deductions' | 'personal_insurance' | 'housing_fund'
const ENTERED_KINDS: Record<EnteredCode, LineKind> = {
  performance_pay: 'income',
  bonus: 'income',
  other_income: 'income',
  other_deductions: 'deduction',
  personal_insurance: 'deduction',
  housing_fund: 'deduction',
}

/** A figure taken as given: "5000.00 = 5000.00". */
export function enteredLine(code: EnteredCode, amount: number): PayLine | null {
  if (amount === 0) return null
  return line(code, ENTERED_KINDS[code], fromFen(amount), money(amount), { [code]: toYuan(amount) }, [])
}

/** An earlier month's change since its approval: recomputed − approved − already carried. */
export function adjustmentLine(adjustment: AdjustmentInput): PayLine | null {
  const { month, recomputedGross, approvedGross, carried, sources } = adjustment
  const exact = sub(sub(fromFen(recomputedGross), fromFen(approvedGross)), fromFen(carried))
  if (exact.num === 0n) return null
  return line(
    'adjustment',
    'income',
    exact,
    join(MINUS, money(recomputedGross), money(approvedGross), money(carried)),
    { month, recomputed_gross: toYuan(recomputedGross), approved_gross: toYuan(approvedGross), carried: toYuan(carried) },
    sources,
    month,
  )
}

/** Absence: the daily wage per absent day (M ÷ D × days), or the settings' fixed amount per day. */
export function absenceLine(wage: Wage, fixedPerDay: number | null, days: number, sources: Source[]): PayLine | null {
  if (days === 0) return null
  if (fixedPerDay !== null)
    return line(
      'absence',
      'attendance',
      mul(fromFen(fixedPerDay), halfDays(days)),
      join(TIMES, money(fixedPerDay), dayText(days)),
      { absence_per_day: toYuan(fixedPerDay), absent_days: days },
      sources,
    )
  return line('absence', 'attendance', fromMonthly(wage, [halfDays(days)]), join(TIMES, dailyText(wage), dayText(days)), { ...wageInputs(wage), absent_days: days }, sources)
}

/** Unpaid leave: M ÷ D × days (halves 0.5). */
export function unpaidLeaveLine(wage: Wage, days: number, sources: Source[]): PayLine | null {
  if (days === 0) return null
  return line('unpaid_leave', 'attendance', fromMonthly(wage, [halfDays(days)]), join(TIMES, dailyText(wage), dayText(days)), { ...wageInputs(wage), unpaid_leave_days: days }, sources)
}

/** Unpaid hourly leave: M ÷ D ÷ 8 × minutes ÷ 60 (CONTRACT §16, §18). */
export function unpaidLeaveHoursLine(wage: Wage, minutes: number, sources: Source[]): PayLine | null {
  if (minutes === 0) return null
  return line(
    'unpaid_leave_hours',
    'attendance',
    fromMonthly(wage, [rational(minutes)], [rational(HOURS_PER_DAY), rational(MINUTES_PER_HOUR)]),
    join(TIMES, join(DIVIDED, dailyText(wage), figure(HOURS_PER_DAY)), join(DIVIDED, figure(minutes), figure(MINUTES_PER_HOUR))),
    { ...wageInputs(wage), hours_per_day: HOURS_PER_DAY, unpaid_leave_minutes: minutes, minutes_per_hour: MINUTES_PER_HOUR },
    sources,
  )
}

/** A leaver's remaining leave of a type paid out: M ÷ D × 2 × days (halves 0.5; CONTRACT §18). */
export function leavePayoutLine(wage: Wage, payout: LeavePayout): PayLine | null {
  if (payout.halfDays <= 0) return null
  const days = rational(payout.halfDays, 2)
  return line(
    'leave_payout',
    'income',
    fromMonthly(wage, [rational(PAYOUT_MULTIPLIER), days]),
    join(TIMES, dailyText(wage), figure(PAYOUT_MULTIPLIER), figure(days)),
    { ...wageInputs(wage), multiplier: PAYOUT_MULTIPLIER, remaining_leave_days: payout.halfDays / 2, leave_type: payout.typeName },
    [{ kind: 'leave_type', id: payout.typeId }, ...payout.ledgerIds.map((id): Source => ({ kind: 'leave_ledger', id }))],
  )
}

export interface Lateness {
  perOccurrence: number
  perMinute: number
  lateOccurrences: number
  freeOccurrences: number
  /** minutes of the counted occurrences */
  countedMinutes: number
}

/** Lateness: per occurrence × counted + per minute × minutes of the counted; appears when any occurrence is counted. */
export function latenessLine({ perOccurrence, perMinute, lateOccurrences, freeOccurrences, countedMinutes }: Lateness, sources: Source[]): PayLine | null {
  const counted = lateOccurrences - freeOccurrences
  if (counted === 0) return null
  return line(
    'lateness',
    'attendance',
    // in fen, exactly, then yuan: one reduction for the whole sum
    rational(whole(perOccurrence) * whole(counted) + whole(perMinute) * whole(countedMinutes), 100n),
    join(PLUS, join(TIMES, money(perOccurrence), figure(counted)), join(TIMES, money(perMinute), figure(countedMinutes))),
    {
      per_occurrence: toYuan(perOccurrence),
      counted_occurrences: counted,
      per_minute: toYuan(perMinute),
      counted_minutes: countedMinutes,
      late_occurrences: lateOccurrences,
      free_occurrences: freeOccurrences,
    },
    sources,
  )
}
