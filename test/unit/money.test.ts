import { describe, expect, test } from 'bun:test'
import { ValidationError } from '../../src/http/errors'
import { render } from '../../src/lib/messages'
import { MAX_YUAN, toFen, toYuan, yuanText } from '../../src/lib/money'

describe('yuan to fen', () => {
  const exact: [number, number][] = [
    [0, 0],
    [0.01, 1],
    [0.1, 10],
    [0.2, 20],
    [0.29, 29],
    [0.57, 57],
    [1.1, 110],
    [1.005e2, 10050],
    [19.99, 1999],
    [8000, 800000],
    [8000.5, 800050],
    [12345.67, 1234567],
    [99999999.99, 9999999999],
    [1e8, 10000000000],
    [MAX_YUAN, MAX_YUAN * 100],
  ]
  test.each(exact)('%p yuan → %p fen', (yuan, fen) => {
    expect(toFen(yuan, 'bonus')).toBe(fen)
  })

  test('0.1 + 0.2 as two items is exactly 30 fen, though 0.1 + 0.2 in floating point is not 0.3', () => {
    expect(0.1 + 0.2).not.toBe(0.3)
    expect(toFen(0.1, 'a') + toFen(0.2, 'b')).toBe(30)
  })

  test('19.99 × 1000 items sums to exactly 19990 yuan', () => {
    let fen = 0
    let float = 0
    for (let i = 0; i < 1000; i++) {
      fen += toFen(19.99, 'item')
      float += 19.99
    }
    expect(fen).toBe(1_999_000)
    expect(toYuan(fen)).toBe(19990)
    expect(float).not.toBe(19990)
  })

  const refused: [unknown, string][] = [
    [0.005, 'must have at most 2 decimals (whole fen)'],
    [0.1 + 0.2, 'must have at most 2 decimals (whole fen)'],
    [1.234, 'must have at most 2 decimals (whole fen)'],
    [1e-7, 'must have at most 2 decimals (whole fen)'],
    [-0.01, 'must not be negative'],
    [-1, 'must not be negative'],
    [1e8 + 0.01, `must be at most ${MAX_YUAN} yuan`],
    [1e21, `must be at most ${MAX_YUAN} yuan`],
    [Number.POSITIVE_INFINITY, 'must be a finite number of yuan'],
    [Number.NaN, 'must be a finite number of yuan'],
    ['19.99', 'must be a number of yuan'],
    ['', 'must be a number of yuan'],
    [null, 'must be a number of yuan'],
    [undefined, 'must be a number of yuan'],
    [true, 'must be a number of yuan'],
    [{}, 'must be a number of yuan'],
  ]
  test.each(refused)('%p → 400: %s', (value, problem) => {
    expect(() => toFen(value, 'bonus')).toThrow(`bonus ${problem}`)
  })

  test('the refusals in Chinese', () => {
    const chinese = (value: unknown) => {
      try {
        toFen(value, 'bonus')
      } catch (error) {
        return render((error as ValidationError).text, 'zh')
      }
    }
    expect(chinese(1.234)).toBe('bonus：最多保留 2 位小数（精确到分）')
    expect(chinese(-1)).toBe('bonus：不能为负数')
    expect(chinese(1e21)).toBe(`bonus：不能超过 ${MAX_YUAN} 元`)
    expect(chinese('19.99')).toBe('bonus：必须是以元为单位的数字')
  })
})

describe('fen to yuan', () => {
  const cases: [number, number][] = [
    [0, 0],
    [1, 0.01],
    [30, 0.3],
    [1999, 19.99],
    [800050, 8000.5],
    [10000000000, 1e8],
    [123456789, 1234567.89],
  ]
  test.each(cases)('%p fen → %p yuan, printed exactly', (fen, yuan) => {
    expect(toYuan(fen)).toBe(yuan)
    expect(JSON.stringify(toYuan(fen))).toBe(String(yuan))
  })

  test('every fen amount up to 1,000,000 yuan round-trips exactly', () => {
    for (let fen = 0; fen <= 100_000_000; fen += 9973) expect(toFen(toYuan(fen), 'x')).toBe(fen)
  })
})

describe('fen written as yuan text (formulas)', () => {
  const cases: [number, string][] = [
    [0, '0.00'],
    [-0, '0.00'],
    [5, '0.05'],
    [-5, '-0.05'],
    [10, '0.10'],
    [99, '0.99'],
    [100, '1.00'],
    [1999, '19.99'],
    [-1999, '-19.99'],
    [1050000, '10500.00'],
    [Number.MAX_SAFE_INTEGER, '90071992547409.91'],
    [-Number.MAX_SAFE_INTEGER, '-90071992547409.91'],
  ]
  test.each(cases)('%p fen → %p', (fen, text) => {
    expect(yuanText(fen)).toBe(text)
  })

  test('every cent of every sign: the text read back as a decimal is the amount', () => {
    for (let fen = -2000; fen <= 2000; fen++) {
      const [whole, cents] = yuanText(fen).replace('-', '').split('.')
      expect(cents).toHaveLength(2)
      expect((fen < 0 ? -1 : 1) * (Number(whole) * 100 + Number(cents))).toBe(fen === 0 ? 0 : fen)
    }
  })

  test('not a whole number of fen → RangeError', () => {
    expect(() => yuanText(0.5)).toThrow(RangeError)
    expect(() => yuanText(Number.NaN)).toThrow(RangeError)
    expect(() => yuanText(2 ** 53)).toThrow(RangeError)
  })
})
