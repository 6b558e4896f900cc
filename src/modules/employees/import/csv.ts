import type * as CsvParse from 'csv-parse/sync'
import { ValidationError, type FieldError } from '../../../http/errors'
import type { Message, MessageValue } from '../../../lib/messages'
import { say as imports } from '../../imports/messages'
import { say } from '../messages'

/*
 * The imported file as text and rows. Rows are numbered as a spreadsheet program shows them: the
 * first record of the file is row 1 (the header), a cell holding a line break does not start a new
 * row, and blank rows keep their numbers although they are skipped.
 */

export const MAX_ROWS = 5000

/**
 * What a kind of import reads: at most `maxRows` rows of `rows` ("employees", 员工), one per `row`
 * ("employee", 位员工: the Chinese keeps its measure word); `columns` for a message ("name, employee_no, ...").
 */
export interface CsvKind {
  maxRows: number
  rows: MessageValue
  row: MessageValue
  columns: string
}

const EMPLOYEES: CsvKind = { maxRows: MAX_ROWS, rows: say.employeesNoun(), row: say.employeeNoun(), columns: 'name, employee_no, ...' }

export interface CsvRow {
  /** as a spreadsheet numbers it */
  row: number
  cells: string[]
}

export interface CsvTable {
  header: CsvRow
  rows: CsvRow[]
}

/** A problem of the file as a whole: `field` "file". */
export const fileError = (message: Message, row?: number): FieldError => (row === undefined ? { field: 'file', message } : { row, field: 'file', message })

const refuse = (message: Message, row?: number) => new ValidationError(message, [fileError(message, row)])

const startsWith = (bytes: Uint8Array, ...prefix: number[]) => prefix.every((byte, i) => bytes[i] === byte)

/** The file's text: UTF-8, with or without a byte-order mark; anything else is a 400 that says what to do. */
export function decodeText(bytes: Uint8Array): string {
  if (bytes.length === 0) throw refuse(imports.empty())
  if (startsWith(bytes, 0xff, 0xfe) || startsWith(bytes, 0xfe, 0xff)) throw refuse(imports.utf16())
  if (startsWith(bytes, 0x50, 0x4b, 0x03, 0x04)) throw refuse(imports.workbook())
  if (startsWith(bytes, 0xd0, 0xcf, 0x11, 0xe0)) throw refuse(imports.oldWorkbook())
  let text: string
  try {
    // the decoder drops a leading byte-order mark, which spreadsheet programs write
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw refuse(imports.notUtf8())
  }
  // SQLite would keep a text only up to its first NUL
  if (text.includes('\u0000')) throw refuse(imports.nulCharacter())
  return text
}

const blank = (cells: string[]) => cells.every((cell) => cell.trim() === '')

class TooManyRows extends Error {}

/** What a CSV syntax error means for the person who wrote the file. */
function syntaxMessage(error: CsvParse.CsvError): Message {
  switch (error.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return imports.quoteNotClosed()
    case 'CSV_INVALID_CLOSING_QUOTE':
      return imports.textAfterQuote()
    case 'INVALID_OPENING_QUOTE':
      return imports.quoteInPlainCell()
    default:
      return imports.parserSaid({ detail: error.message })
  }
}

/**
 * RFC 4180 text to rows of cells, kept as written. The header is the first row that is not blank;
 * blank rows are left out. More than `kind.maxRows` rows (MAX_ROWS of employees), or text that is not CSV, is a 400.
 */
export function parseCsv(text: string, kind: CsvKind = EMPLOYEES): CsvTable {
  let header: CsvRow | null = null
  const rows: CsvRow[] = []
  // loaded on the first import, not at start: csv-parse is about 2 MB of every process
  const { CsvError, parse } = require('csv-parse/sync') as typeof CsvParse
  try {
    parse(text, {
      relax_column_count: true,
      on_record: (cells: string[], context: { records: number }) => {
        if (blank(cells)) return null
        const row = { row: context.records, cells }
        if (header === null) header = row
        else if (rows.push(row) > kind.maxRows) throw new TooManyRows()
        return null
      },
    })
  } catch (error) {
    if (error instanceof TooManyRows) throw refuse(imports.tooManyRows({ most: kind.maxRows.toLocaleString('en'), rows: kind.rows }))
    if (error instanceof CsvError) {
      // `records`: the records read before the one that failed
      const at = typeof error.records === 'number' ? error.records + 1 : undefined
      const problem = syntaxMessage(error)
      throw refuse(at === undefined ? imports.notCsv({ problem }) : imports.notCsvAt({ row: at, problem }), at)
    }
    throw error
  }
  if (header === null) throw refuse(imports.onlyBlankRows({ columns: kind.columns }))
  if (rows.length === 0) throw refuse(imports.headerOnly({ rows: kind.rows, row: kind.row }), (header as CsvRow).row)
  return { header, rows }
}
