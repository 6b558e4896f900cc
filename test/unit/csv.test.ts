import { describe, expect, test } from 'bun:test'
import { parse } from 'csv-parse/sync'
import fc from 'fast-check'
import { CSV_BOM, csvField, csvNumber, csvRow, neutralise, type CsvCell } from '../../src/lib/csv'
import { yuanText } from '../../src/lib/money'

/** FUZZ_SEED=<n> varies the generated cases. */
const SEED = Number(process.env.FUZZ_SEED ?? 20241001)

describe('a field', () => {
  const cases: [CsvCell, string][] = [
    ['plain', 'plain'],
    ['', ''],
    [null, ''],
    [undefined, ''],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['"', '""""'],
    ['line\nbreak', '"line\nbreak"'],
    ['cr\rhere', '"cr\rhere"'],
    ['crlf\r\n', '"crlf\r\n"'],
    [' spaced ', ' spaced '],
    ['中文 ✓ ½V', '中文 ✓ ½V'],
    // formula injection (OWASP): = + - @ tab CR at the start get a quote in front
    ['=1+2', "'=1+2"],
    ['=HYPERLINK("http://x","y")', `"'=HYPERLINK(""http://x"",""y"")"`],
    ['+1', "'+1"],
    ['-2', "'-2"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tTab', "'\tTab"],
    ['\rCR', `"'\rCR"`],
    ['=a,b', `"'=a,b"`],
    ["'already", "'already"],
    ['a=b', 'a=b'],
    ['1-2', '1-2'],
    // numbers are numbers: negative ones stay numeric
    [0, '0'],
    [-0, '0'],
    [42, '42'],
    [-5, '-5'],
    [167.99, '167.99'],
    [0.1 + 0.2, '0.30000000000000004'],
    [csvNumber('12.50'), '12.50'],
    [csvNumber('-0.05'), '-0.05'],
    [csvNumber('100000000.00'), '100000000.00'],
  ]
  test.each(cases)('%j → %j', (cell, written) => {
    expect(csvField(cell)).toBe(written)
  })

  test('a number that is not finite, or a "number" that is not a plain decimal, is a bug: it throws', () => {
    expect(() => csvField(Number.NaN)).toThrow(RangeError)
    expect(() => csvField(Infinity)).toThrow(RangeError)
    for (const text of ['1e3', '+1', '1.', '.5', '=1', '1,5', '', ' 1']) expect(() => csvNumber(text)).toThrow(RangeError)
  })

  test('neutralise leaves other text alone', () => {
    expect(neutralise('ann')).toBe('ann')
    expect(neutralise('-')).toBe("'-")
    expect(neutralise(' =x')).toBe(' =x')
  })
})

describe('a row', () => {
  test('fields joined by commas, ended by CRLF', () => {
    expect(csvRow(['a', 1, null, 'b,c', csvNumber('-1.00')])).toBe('a,1,,"b,c",-1.00\r\n')
    expect(csvRow([])).toBe('\r\n')
  })

  test('the BOM is U+FEFF (EF BB BF in UTF-8)', () => {
    expect([...new TextEncoder().encode(CSV_BOM)]).toEqual([0xef, 0xbb, 0xbf])
  })

  test('any text reads back through an RFC 4180 parser as written (after the quote that neutralises a formula)', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.string({ unit: 'binary' }), { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 6 }), (rows) => {
        const width = rows[0].length
        const table = rows.map((row) => Array.from({ length: width }, (_, i) => row[i] ?? ''))
        const text = CSV_BOM + table.map((row) => csvRow(row)).join('')
        const parsed: string[][] = parse(text, { bom: true, relax_quotes: false, record_delimiter: '\r\n' })
        expect(parsed).toEqual(table.map((row) => row.map(neutralise)))
        for (const row of parsed) for (const field of row) expect(/^[=+\-@\t\r]/.test(field)).toBe(false)
      }),
      { numRuns: 300, seed: SEED },
    )
  })

  test('numbers read back as the same numbers', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -1e12, max: 1e12 }), { minLength: 1, maxLength: 8 }), (fen) => {
        const [parsed] = parse(csvRow(fen.map((value) => csvNumber(yuanText(value)))), {}) as string[][]
        expect(parsed.map((field) => Math.round(Number(field) * 100))).toEqual(fen)
      }),
      { seed: SEED },
    )
  })
})

describe('yuan from fen', () => {
  const cases: [number, string][] = [
    [0, '0.00'],
    [1, '0.01'],
    [10, '0.10'],
    [30, '0.30'],
    [1999, '19.99'],
    [1200000, '12000.00'],
    [10000000000, '100000000.00'],
    [-5, '-0.05'],
    [-1999, '-19.99'],
    [Number.MAX_SAFE_INTEGER, '90071992547409.91'],
  ]
  test.each(cases)('%p fen → %p', (fen, yuan) => {
    expect(yuanText(fen)).toBe(yuan)
  })
  test('a fraction of a fen, or an unsafe integer, throws', () => {
    expect(() => yuanText(1.5)).toThrow(RangeError)
    expect(() => yuanText(2 ** 53)).toThrow(RangeError)
  })
})
