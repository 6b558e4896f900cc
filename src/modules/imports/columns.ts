import { ValidationError, type FieldError } from '../../http/errors'
import type { Message } from '../../lib/messages'
import { fileError, type CsvRow, type CsvTable } from '../employees/import/csv'
import { rowsRefused } from '../employees/import/rows'
import { say } from './messages'

/*
 * The header and cells of a CSV import with a fixed set of columns (the attendance history and the
 * opening leave balances, CONTRACT §23), read as the employee import reads its own (employees/import):
 * names matched ignoring case, spaces and hyphens; every problem of the header at once; rows numbered
 * as a spreadsheet numbers them.
 */

export interface Columns<C extends string> {
  /** every column the import reads, in the order its documentation lists them */
  all: readonly C[]
  /** the ones the header must name */
  required: readonly C[]
}

export interface ColumnHeader<C extends string> {
  row: number
  /** how many cells the header has */
  width: number
  /** cell index of each column the file has */
  columns: Map<C, number>
}

/** Column letters as a spreadsheet shows them: A … Z, AA, AB … */
export function columnLetter(index: number): string {
  let letters = ''
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters
  return letters
}

/** "Employee No", "employee-no" and "EMPLOYEE_NO" all name employee_no. */
const normalise = (name: string) => name.trim().toLowerCase().replace(/[\s-]+/g, '_')

/** The header's columns: a 400 listing every unknown, repeated or missing one (and a file separated by something else than commas). */
export function readColumns<C extends string>({ header, rows }: CsvTable, spec: Columns<C>): ColumnHeader<C> {
  const problems: FieldError[] = []
  const columns = new Map<C, number>()
  const at = (message: Message, field = 'file') => problems.push({ row: header.row, field, message })
  separatedByCommas(header)
  header.cells.forEach((cell, index) => {
    const name = normalise(cell)
    if (name === '') {
      const used = rows.find((row) => (row.cells[index] ?? '').trim() !== '')
      if (used) at(say.unnamedColumn({ column: columnLetter(index), row: used.row }))
      return
    }
    if (!(spec.all as readonly string[]).includes(name))
      return void at(say.unknownColumn({ column: columnLetter(index), columns: spec.all.join(', ') }), cell.trim())
    const column = name as C
    const first = columns.get(column)
    if (first !== undefined) return void at(say.repeatedColumn({ first: columnLetter(first), second: columnLetter(index) }), column)
    columns.set(column, index)
  })
  for (const column of spec.required) if (!columns.has(column)) at(say.missingColumn({ column }), column)
  if (problems.length > 0) throw rowsRefused(problems)
  return { row: header.row, width: header.cells.length, columns }
}

/** A 400 for a header whose one cell holds semicolons, tabs or "|": a file separated by something else than commas. */
export function separatedByCommas(header: CsvRow): void {
  if (header.cells.length !== 1 || !/[;\t|]/.test(header.cells[0])) return
  const separator = header.cells[0].includes(';') ? say.semicolons() : header.cells[0].includes('\t') ? say.tabs() : '"|"'
  throw new ValidationError(say.separatedBy({ separator }), [fileError(say.separatesBy({ separator }), header.row)])
}

/** The problem of a row with fewer cells than the header, or with values beyond it; `example` is a quoted cell holding a comma. */
export function cellCountProblem(width: number, { row, cells }: CsvRow, example: string): FieldError | null {
  const extra = cells.slice(width).some((cell) => cell.trim() !== '')
  if (!extra && cells.length >= width) return null
  const counts = { cells: cells.length, width }
  return fileError(extra ? say.commaInCell({ ...counts, example }) : say.missingCommas(counts), row)
}

/** A row's cells by column, trimmed, empty ones left out; a row with fewer cells than the header, or values beyond it, is a problem of its own. */
export function cellsOf<C extends string>(header: ColumnHeader<C>, csvRow: CsvRow): { values: Partial<Record<C, string>> } | { problem: FieldError } {
  const problem = cellCountProblem(header.width, csvRow, '"late, traffic"')
  if (problem) return { problem }
  const values: Partial<Record<C, string>> = {}
  for (const [column, index] of header.columns) {
    const value = csvRow.cells[index].trim()
    if (value !== '') values[column] = value
  }
  return { values }
}

/** The order of a file's problems within a row: the file's first, then by the column's place in the header. */
export const byColumn =
  <C extends string>(header: ColumnHeader<C>) =>
  (field: string): number =>
    field === 'file' ? -1 : (header.columns.get(field as C) ?? header.columns.size)
