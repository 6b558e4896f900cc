/*
 * A small CSV writer: RFC 4180 (fields with a comma, quote, CR or LF quoted, quotes doubled,
 * CRLF line ends), UTF-8 with a byte-order mark (so spreadsheet programs read it as UTF-8), and
 * no text cell that a spreadsheet would take for a formula (OWASP, "CSV Injection").
 */

/** The byte-order mark a file starts with. */
export const CSV_BOM = '\uFEFF'

/** A number written in a spelling of its own (yuan as "12.50"): numeric, so never neutralised. */
export interface CsvNumber {
  readonly numeric: string
}

/**
 * One cell. Text is neutralised against formulas; numbers (a JS number, or a `CsvNumber`) are
 * written as numbers, a negative one too; null and undefined are empty.
 */
export type CsvCell = string | number | CsvNumber | null | undefined

const PLAIN_NUMBER = /^-?\d+(?:\.\d+)?$/

/** A number with the given spelling, e.g. `csvNumber('-12.50')`; anything but a plain decimal throws (a bug, not input). */
export function csvNumber(text: string): CsvNumber {
  if (!PLAIN_NUMBER.test(text)) throw new RangeError(`not a plain decimal number: ${JSON.stringify(text)}`)
  return { numeric: text }
}

/** What a spreadsheet reads as the start of a formula: = + - @, and tab and CR (OWASP). */
const FORMULA_START = /^[=+\-@\t\r]/

/**
 * Text that cannot start a formula: text beginning with =, +, -, @, a tab or a CR gets a
 * single quote in front, which spreadsheet programs show and never evaluate.
 */
export function neutralise(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text
}

function numberText(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`)
  // the shortest spelling that reads back as the same number (what JSON shows), never an exponent for the magnitudes written here
  return Object.is(value, -0) ? '0' : String(value)
}

const NEEDS_QUOTES = /[",\r\n]/

/** One field as it goes in the file: neutralised when it is text, quoted when it must be. */
export function csvField(cell: CsvCell): string {
  if (cell === null || cell === undefined) return ''
  if (typeof cell === 'number') return numberText(cell)
  if (typeof cell === 'object') return csvNumber(cell.numeric).numeric
  const text = neutralise(cell)
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

/** One record, with its CRLF. */
export function csvRow(cells: readonly CsvCell[]): string {
  return `${cells.map(csvField).join(',')}\r\n`
}
