import { yuanText } from './money'

/*
 * Exact rational numbers on bigint, for money that is divided (a daily wage is a monthly wage ÷
 * 21.75) and rounded once, at the end of a line. No binary floating point anywhere: a Number goes
 * in or out only as an integer (fen, counts), and decimals are read from and written as text.
 */

/** num / den in lowest terms, den > 0. */
export interface Rational {
  readonly num: bigint
  readonly den: bigint
}

const abs = (value: bigint) => (value < 0n ? -value : value)

const SAFE = BigInt(Number.MAX_SAFE_INTEGER)

function gcd(a: bigint, b: bigint): bigint {
  let x = abs(a)
  let y = abs(b)
  // money-sized operands (the usual case) fit a double exactly, where % is exact and allocates no bigint per step
  if (x <= SAFE && y <= SAFE) {
    let p = Number(x)
    let q = Number(y)
    while (q !== 0) {
      const r = p % q
      p = q
      q = r
    }
    return BigInt(p)
  }
  while (y !== 0n) {
    const r = x % y
    x = y
    y = r
  }
  return x
}

function integerOf(value: bigint | number): bigint {
  if (typeof value === 'bigint') return value
  if (!Number.isSafeInteger(value)) throw new RangeError(`not a safe integer: ${value}`)
  return BigInt(value)
}

/** A whole number (fen, a count) as a bigint; a Number must be a safe integer, as `rational` requires. */
export const whole = (value: bigint | number): bigint => integerOf(value)

/** num / den, normalised; integers only (a Number must be a safe integer). */
export function rational(num: bigint | number, den: bigint | number = 1n): Rational {
  let n = integerOf(num)
  let d = integerOf(den)
  if (d === 0n) throw new RangeError('division by zero')
  if (d < 0n) {
    n = -n
    d = -d
  }
  // an integer is in lowest terms already
  if (d === 1n) return { num: n, den: d }
  const divisor = gcd(n, d) || 1n
  return divisor === 1n ? { num: n, den: d } : { num: n / divisor, den: d / divisor }
}

export const ZERO = rational(0)
export const ONE = rational(1)

/** Integer fen → that amount in yuan (1999 → 19.99). */
export const fromFen = (fen: number): Rational => rational(fen, 100n)

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/

/** A decimal written out ("21.75", "-0.5", "3") → exactly that number; anything else throws. */
export function parseDecimal(text: string): Rational {
  const match = DECIMAL.exec(text)
  if (!match) throw new SyntaxError(`not a decimal number: ${text}`)
  const [, sign, whole, fraction = ''] = match
  const digits = BigInt(whole + fraction) * (sign === '-' ? -1n : 1n)
  return rational(digits, 10n ** BigInt(fraction.length))
}

export const add = (a: Rational, b: Rational): Rational => rational(a.num * b.den + b.num * a.den, a.den * b.den)
export const sub = (a: Rational, b: Rational): Rational => rational(a.num * b.den - b.num * a.den, a.den * b.den)
export const mul = (a: Rational, b: Rational): Rational => rational(a.num * b.num, a.den * b.den)
export function div(a: Rational, b: Rational): Rational {
  if (b.num === 0n) throw new RangeError('division by zero')
  return rational(a.num * b.den, a.den * b.num)
}
export const neg = (a: Rational): Rational => rational(-a.num, a.den)

/**
 * Π factors ÷ Π divisors: the value of the chain of `mul` and `div` over them, reduced to lowest
 * terms once at the end rather than after each step (a line's arithmetic is one such chain).
 */
export function quotient(factors: readonly Rational[], divisors: readonly Rational[] = []): Rational {
  let num = 1n
  let den = 1n
  for (const factor of factors) {
    num *= factor.num
    den *= factor.den
  }
  for (const divisor of divisors) {
    if (divisor.num === 0n) throw new RangeError('division by zero')
    num *= divisor.den
    den *= divisor.num
  }
  return rational(num, den)
}

/** -1, 0 or 1 as a is less than, equal to or greater than b. */
export function compare(a: Rational, b: Rational): -1 | 0 | 1 {
  const difference = a.num * b.den - b.num * a.den
  return difference < 0n ? -1 : difference > 0n ? 1 : 0
}

export const equals = (a: Rational, b: Rational): boolean => compare(a, b) === 0
export const max = (a: Rational, b: Rational): Rational => (compare(a, b) >= 0 ? a : b)
export const min = (a: Rational, b: Rational): Rational => (compare(a, b) <= 0 ? a : b)

/** The nearest integer; exactly half way goes away from zero (2.5 → 3, -2.5 → -3). */
export function roundHalfUp(value: Rational): bigint {
  const size = abs(value.num)
  let whole = size / value.den
  if (2n * (size % value.den) >= value.den) whole += 1n
  return value.num < 0n ? -whole : whole
}

/** An amount in yuan rounded half up to whole fen, as a Number (safe integers only). */
export function roundToFen(yuan: Rational): number {
  // rounding reads the value only, so × 100 needs no reduction to lowest terms
  const fen = roundHalfUp({ num: yuan.num * 100n, den: yuan.den })
  const value = Number(fen)
  if (!Number.isSafeInteger(value)) throw new RangeError(`amount out of range: ${fen} fen`)
  return value
}

/** Integer fen as yuan text with 2 decimals (1999 → "19.99"). */
export const formatFen = (fen: number): string => yuanText(fen)

const MAX_DECIMALS = 40

/**
 * The number written as a decimal with as few decimals as it needs but at least `minDecimals`
 * (21.75, 1.5, 3; "0.10" with 2). Throws for a number with no finite decimal (1/3): such a number
 * is a result to round, never a figure to show.
 */
export function decimalText(value: Rational, minDecimals = 0): string {
  // num × 10^places, one × 10 at a time: the fewest places that make it a whole multiple of den
  let places = 0
  let scaled = value.num
  while (scaled % value.den !== 0n) {
    if (++places > MAX_DECIMALS) throw new RangeError(`no finite decimal for ${value.num}/${value.den}`)
    scaled *= 10n
  }
  for (; places < minDecimals; places++) scaled *= 10n
  const digits = abs(scaled / value.den)
    .toString()
    .padStart(places + 1, '0')
  const sign = value.num < 0n ? '-' : ''
  if (places === 0) return sign + digits
  return `${sign}${digits.slice(0, -places)}.${digits.slice(-places)}`
}
