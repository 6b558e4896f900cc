import { describe, expect, test } from 'bun:test'
import { renderFieldErrors, ValidationError } from '../../src/http/errors'
import { decodeText, MAX_ROWS, parseCsv } from '../../src/modules/employees/import/csv'

/** The rows of a file as [row number, cells]: the numbers a spreadsheet shows. */
const rowsOf = (text: string): [number, string[]][] => {
  const { header, rows } = parseCsv(text)
  return [header, ...rows].map((row) => [row.row, row.cells])
}

const refusal = (work: () => unknown) => {
  try {
    work()
  } catch (error) {
    if (error instanceof ValidationError) return { message: error.message, errors: renderFieldErrors(error.errors ?? [], 'en'), zh: renderFieldErrors(error.errors ?? [], 'zh') }
    throw error
  }
  throw new Error('not refused')
}

describe('rows are numbered as a spreadsheet shows them', () => {
  const cases: [string, string, [number, string[]][]][] = [
    ['LF', 'name\nAnn\nBen\n', [[1, ['name']], [2, ['Ann']], [3, ['Ben']]]],
    ['CRLF, no final line end', 'name\r\nAnn\r\nBen', [[1, ['name']], [2, ['Ann']], [3, ['Ben']]]],
    ['CR alone', 'name\rAnn\r', [[1, ['name']], [2, ['Ann']]]],
    ['a blank row keeps its number', 'name\n\nAnn\n', [[1, ['name']], [3, ['Ann']]]],
    ['a row of empty cells is blank', 'name,no\n,\nAnn,1\n', [[1, ['name', 'no']], [3, ['Ann', '1']]]],
    ['blank rows before the header', '\n\nname\nAnn\n', [[3, ['name']], [4, ['Ann']]]],
    ['a line break inside quotes stays in its row', 'name,note\n"Ann","a\nb"\nBen,c\n', [[1, ['name', 'note']], [2, ['Ann', 'a\nb']], [3, ['Ben', 'c']]]],
    ['quotes, commas and doubled quotes', 'name\n"Lee, ""Bo"""\n', [[1, ['name']], [2, ['Lee, "Bo"']]]],
    ['cells kept as written', 'name, no \n Ann , 1\n', [[1, ['name', ' no ']], [2, [' Ann ', ' 1']]]],
  ]
  test.each(cases)('%s', (_, text, expected) => expect(rowsOf(text)).toEqual(expected))
})

describe('what is not CSV text', () => {
  const utf8 = (text: string) => new TextEncoder().encode(text)
  test('a byte-order mark is dropped; the text is otherwise as sent', () => {
    expect(decodeText(utf8('\uFEFFname\nAnn'))).toBe('name\nAnn')
    expect(decodeText(utf8('名前\n张三'))).toBe('名前\n张三')
  })

  test.each([
    ['empty', new Uint8Array(), 'The file is empty'],
    ['UTF-16 LE', new Uint8Array([0xff, 0xfe, 0x41, 0x00]), 'The file is UTF-16 text'],
    ['UTF-16 BE', new Uint8Array([0xfe, 0xff, 0x00, 0x41]), 'The file is UTF-16 text'],
    ['a zip workbook', new Uint8Array([0x50, 0x4b, 0x03, 0x04]), 'The file is a workbook'],
    ['an old workbook', new Uint8Array([0xd0, 0xcf, 0x11, 0xe0]), 'The file is an old Excel workbook'],
    ['Windows-1252', new Uint8Array([0x6e, 0x61, 0x6d, 0x65, 0x0a, 0x4a, 0xfc, 0x72, 0x67]), 'The file is not UTF-8 text'],
    ['a cut UTF-8 sequence', new Uint8Array([0x6e, 0xe5, 0xbc]), 'The file is not UTF-8 text'],
    ['NUL', utf8('name\n\u0000'), 'The file contains the NUL character'],
  ])('%s → 400', (_, bytes, start) => {
    expect(refusal(() => decodeText(bytes)).message.startsWith(start)).toBe(true)
  })

  test(`${MAX_ROWS} rows are fine, one more is not; blank rows do not count`, () => {
    const rows = (n: number) => Array.from({ length: n }, (_, i) => `P${i}`)
    expect(parseCsv(['name', ...rows(MAX_ROWS), '', ''].join('\n')).rows.length).toBe(MAX_ROWS)
    expect(refusal(() => parseCsv(['name', ...rows(MAX_ROWS + 1)].join('\n'))).errors).toEqual([
      { field: 'file', message: 'The file has more than 5,000 rows of employees; import at most 5,000 at a time (split the file)' },
    ])
    expect(refusal(() => parseCsv(['name', ...rows(MAX_ROWS + 1)].join('\n'))).zh).toEqual([
      { field: 'file', message: '文件中的员工超过 5,000 行；每次最多导入 5,000 行（请拆分文件）' },
    ])
  })

  test('a syntax error names its row, counted as above', () => {
    expect(refusal(() => parseCsv('name\n\n"Ann\n')).errors).toEqual([
      {
        row: 3,
        field: 'file',
        message: 'The file is not valid CSV at row 3: a cell opens a double quote that is never closed; close it, or double a quote that is part of the text ("")',
      },
    ])
    expect(refusal(() => parseCsv('name\n\n"Ann\n')).zh).toEqual([
      { row: 3, field: 'file', message: '文件在第 3 行不是有效的 CSV：某个单元格的双引号没有闭合；请补上闭合的引号，或把文本中的引号写成两个（""）' },
    ])
  })
})
