import { describe, expect, test } from 'bun:test'
import {
  add,
  compare,
  decimalText,
  div,
  equals,
  formatFen,
  fromFen,
  max,
  min,
  mul,
  neg,
  parseDecimal,
  rational,
  roundHalfUp,
  roundToFen,
  sub,
  type Rational,
} from '../../src/lib/rational'

/* Exact rational arithmetic on bigint (src/lib/rational.ts): the money path of payroll. */

const r = (num: number, den = 1) => rational(num, den)
const plain = (value: Rational) => ({ num: value.num, den: value.den })

describe('rational: normalised num/den', () => {
  test.each([
    [2, 4, 1n, 2n],
    [1, -2, -1n, 2n],
    [-3, -9, 1n, 3n],
    [0, 5, 0n, 1n],
    [0, -5, 0n, 1n],
    [10, 1, 10n, 1n],
  ])('%p / %p → %p / %p', (num, den, n, d) => {
    expect(plain(rational(num, den))).toEqual({ num: n, den: d })
  })

  test('bigint parts are kept exactly, far beyond 2^53', () => {
    expect(plain(rational(2n ** 70n, 2n ** 68n))).toEqual({ num: 4n, den: 1n })
  })

  test.each([[1.5], [Number.MAX_SAFE_INTEGER + 1], [Number.NaN]])('a non-integer Number (%p) is refused', (value) => {
    expect(() => rational(value)).toThrow(RangeError)
  })

  test('a zero denominator is refused', () => {
    expect(() => rational(1, 0)).toThrow(RangeError)
  })

  test('from integer fen: yuan', () => {
    expect(plain(fromFen(1999))).toEqual({ num: 1999n, den: 100n })
    expect(plain(fromFen(1050000))).toEqual({ num: 10500n, den: 1n })
    expect(plain(fromFen(-5))).toEqual({ num: -1n, den: 20n })
  })
})

describe('parseDecimal: a decimal string, exactly', () => {
  test.each([
    ['21.75', 87n, 4n],
    ['1.5', 3n, 2n],
    ['0.10', 1n, 10n],
    ['3', 3n, 1n],
    ['-0.5', -1n, 2n],
    ['1.005', 201n, 200n],
    ['0.1', 1n, 10n],
    ['-919.54', -45977n, 50n],
    ['000.000', 0n, 1n],
  ])('%p → %p / %p', (text, num, den) => {
    expect(plain(parseDecimal(text))).toEqual({ num, den })
  })

  test.each([[''], ['.5'], ['1.'], ['1e3'], ['--1'], ['+1'], ['1,5'], [' 1'], ['1 '], ['−1'], ['0x10'], ['Infinity']])('%p is no decimal', (text) => {
    expect(() => parseDecimal(text)).toThrow(SyntaxError)
  })
})

describe('add, sub, mul, div, neg', () => {
  test.each([
    ['1/2 + 1/3', add(r(1, 2), r(1, 3)), 5n, 6n],
    ['1/2 − 1/3', sub(r(1, 2), r(1, 3)), 1n, 6n],
    ['1/3 − 1/2', sub(r(1, 3), r(1, 2)), -1n, 6n],
    ['2/3 × 3/4', mul(r(2, 3), r(3, 4)), 1n, 2n],
    ['1/2 ÷ -1/4', div(r(1, 2), r(-1, 4)), -2n, 1n],
    ['10500 ÷ 21.75', div(r(10500), parseDecimal('21.75')), 14000n, 29n],
    ['0.1 + 0.2 (exactly 0.3)', add(parseDecimal('0.1'), parseDecimal('0.2')), 3n, 10n],
    ['−(−3/7)', neg(r(-3, 7)), 3n, 7n],
  ])('%s', (_, value, num, den) => {
    expect(plain(value)).toEqual({ num, den })
  })

  test('division by zero throws', () => {
    expect(() => div(r(1), r(0))).toThrow(RangeError)
  })
})

describe('compare, equals, max, min', () => {
  test.each([
    ['1/3 vs 1/2', r(1, 3), r(1, 2), -1],
    ['1/2 vs 2/4', r(1, 2), r(2, 4), 0],
    ['-1/2 vs -2/3', r(-1, 2), r(-2, 3), 1],
    ['0 vs -1/1000000', r(0), r(-1, 1000000), 1],
  ])('compare %s = %p', (_, a, b, expected) => {
    expect(compare(a, b)).toBe(expected as -1 | 0 | 1)
  })

  test('equals, max and min', () => {
    expect(equals(parseDecimal('0.50'), r(1, 2))).toBe(true)
    expect(equals(r(1, 3), parseDecimal('0.33'))).toBe(false)
    expect(plain(max(r(0), r(-5)))).toEqual({ num: 0n, den: 1n })
    expect(plain(max(r(7, 2), r(3)))).toEqual({ num: 7n, den: 2n })
    expect(plain(min(r(7, 2), r(3)))).toEqual({ num: 3n, den: 1n })
  })
})

describe('roundHalfUp: to the nearest integer, half away from zero', () => {
  test.each([
    ['5/2', r(5, 2), 3n],
    ['-5/2', r(-5, 2), -3n],
    ['7/2', r(7, 2), 4n],
    ['-7/2', r(-7, 2), -4n],
    ['1/2', r(1, 2), 1n],
    ['-1/2', r(-1, 2), -1n],
    ['2.4999', parseDecimal('2.4999'), 2n],
    ['-2.4999', parseDecimal('-2.4999'), -2n],
    ['2.5001', parseDecimal('2.5001'), 3n],
    ['1/3', r(1, 3), 0n],
    ['-1/3', r(-1, 3), 0n],
    ['2/3', r(2, 3), 1n],
    ['-2/3', r(-2, 3), -1n],
    ['0', r(0), 0n],
    ['42', r(42), 42n],
  ])('%s → %p', (_, value, expected) => {
    expect(roundHalfUp(value)).toBe(expected)
  })
})

describe('roundToFen: yuan rounded half up to whole fen', () => {
  test.each([
    ['10500 ÷ 21.75 × 2 (965.517…)', mul(div(r(10500), parseDecimal('21.75')), r(2)), 96552],
    ['0.005', parseDecimal('0.005'), 1],
    ['-0.005', parseDecimal('-0.005'), -1],
    ['0.0049999', parseDecimal('0.0049999'), 0],
    ['-0.0049999', parseDecimal('-0.0049999'), 0],
    ['1.005 (a binary float would give 1.00)', parseDecimal('1.005'), 101],
    ['1.015', parseDecimal('1.015'), 102],
    ['2.675', parseDecimal('2.675'), 268],
    ['-919.545', parseDecimal('-919.545'), -91955],
    ['1/3 yuan', r(1, 3), 33],
    ['2/3 yuan', r(2, 3), 67],
    ['19.99', parseDecimal('19.99'), 1999],
  ])('%s → %p fen', (_, value, fen) => {
    expect(roundToFen(value)).toBe(fen)
  })

  test('beyond a safe integer of fen it throws', () => {
    expect(() => roundToFen(rational(2n ** 60n))).toThrow(RangeError)
  })
})

describe('decimalText: as few decimals as needed, at least minDecimals', () => {
  test.each([
    ['87/4', parseDecimal('21.75'), 0, '21.75'],
    ['3/2', r(3, 2), 0, '1.5'],
    ['22', r(22), 0, '22'],
    ['1/10', r(1, 10), 2, '0.10'],
    ['9/20', r(9, 20), 2, '0.45'],
    ['-1/2', r(-1, 2), 0, '-0.5'],
    ['-5/100', r(-5, 100), 0, '-0.05'],
    ['0', r(0), 0, '0'],
    ['12', r(12), 2, '12.00'],
    ['1/8', r(1, 8), 2, '0.125'],
    ['-45977/50', parseDecimal('-919.54'), 2, '-919.54'],
  ])('%s with at least %p decimals → %p', (_, value, places, text) => {
    expect(decimalText(value, places)).toBe(text)
  })

  test('a number with no finite decimal is refused', () => {
    expect(() => decimalText(r(1, 3))).toThrow(RangeError)
  })

  test('formatFen: yuan text with 2 decimals', () => {
    expect([1999, -5, 0, 1050000, -91954].map(formatFen)).toEqual(['19.99', '-0.05', '0.00', '10500.00', '-919.54'])
  })
})
