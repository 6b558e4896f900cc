import type * as CsvParse from 'csv-parse/sync'
import { ValidationError, type FieldError } from '../../../http/errors'

/*
 * The imported file as text and rows. Rows are numbered as a spreadsheet program shows them: the
 * first record of the file is row 1 (the header), a cell holding a line break does not start a new
 * row, and blank rows keep their numbers although they are skipped.
 */

export const MAX_ROWS = 5000

/** What a kind of import reads: at most `maxRows` rows of `rows` ("employees"), one per `row`; `columns` for a message ("name, employee_no, ..."). */
export interface CsvKind {
  maxRows: number
  rows: string
  row: string
  columns: string
}

const EMPLOYEES: CsvKind = { maxRows: MAX_ROWS, rows: 'employees', row: 'employee', columns: 'name, employee_no, ...' }

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
export const fileError = (message: string, row?: number): FieldError => (row === undefined ? { field: 'file', message } : { row, field: 'file', message })

const refuse = (message: string, row?: number) => new ValidationError(message, [fileError(message, row)])

const SAVE_AS = 'save it from your spreadsheet program as "CSV UTF-8 (comma delimited)"'

const startsWith = (bytes: Uint8Array, ...prefix: number[]) => prefix.every((byte, i) => bytes[i] === byte)

/** The file's text: UTF-8, with or without a byte-order mark; anything else is a 400 that says what to do. */
export function decodeText(bytes: Uint8Array): string {
  if (bytes.length === 0) throw refuse('The file is empty; send a CSV file whose first row names the columns')
  if (startsWith(bytes, 0xff, 0xfe) || startsWith(bytes, 0xfe, 0xff)) throw refuse(`The file is UTF-16 text, not UTF-8; ${SAVE_AS}`)
  if (startsWith(bytes, 0x50, 0x4b, 0x03, 0x04)) throw refuse(`The file is a workbook (.xlsx or .ods), not CSV; ${SAVE_AS}`)
  if (startsWith(bytes, 0xd0, 0xcf, 0x11, 0xe0)) throw refuse(`The file is an old Excel workbook (.xls), not CSV; ${SAVE_AS}`)
  let text: string
  try {
    // the decoder drops a leading byte-order mark, which spreadsheet programs write
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw refuse(`The file is not UTF-8 text (it may be in a regional encoding such as GBK or Windows-1252); ${SAVE_AS}`)
  }
  // SQLite would keep a text only up to its first NUL
  if (text.includes('\u0000')) throw refuse('The file contains the NUL character, so it is not a text file; send a CSV file')
  return text
}

const blank = (cells: string[]) => cells.every((cell) => cell.trim() === '')

class TooManyRows extends Error {}

/** What a CSV syntax error means for the person who wrote the file. */
function syntaxMessage(error: CsvParse.CsvError): string {
  switch (error.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return 'a cell opens a double quote that is never closed; close it, or double a quote that is part of the text ("")'
    case 'CSV_INVALID_CLOSING_QUOTE':
      return 'a quoted cell has text after its closing quote; a quote inside a quoted cell is written twice ("")'
    case 'INVALID_OPENING_QUOTE':
      return 'a cell that is not quoted contains a double quote; quote the whole cell and write the quote twice ("say ""hi""")'
    default:
      return error.message
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
    if (error instanceof TooManyRows) {
      const most = kind.maxRows.toLocaleString('en')
      throw refuse(`The file has more than ${most} rows of ${kind.rows}; import at most ${most} at a time (split the file)`)
    }
    if (error instanceof CsvError) {
      // `records`: the records read before the one that failed
      const at = typeof error.records === 'number' ? error.records + 1 : undefined
      throw refuse(`The file is not valid CSV${at === undefined ? '' : ` at row ${at}`}: ${syntaxMessage(error)}`, at)
    }
    throw error
  }
  if (header === null) throw refuse(`The file has no rows, only blank ones; its first row must name the columns (${kind.columns})`)
  if (rows.length === 0) throw refuse(`The file has a header but no ${kind.rows}; add one row per ${kind.row} below it`, (header as CsvRow).row)
  return { header, rows }
}
