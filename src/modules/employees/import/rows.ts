import { Value } from '@sinclair/typebox/value'
import { ValidationError, type FieldError } from '../../../http/errors'
import { issueErrors, type Issue } from '../../../http/issues'
import type { Message, MessageValue } from '../../../lib/messages'
import { cellCountProblem, columnLetter, separatedByCommas } from '../../imports/columns'
import { say as imports } from '../../imports/messages'
import { say } from '../messages'
import { CreateEmployeeBody, type CreateEmployeeInput } from '../model'
import { NEW_EMPLOYEE_RULES } from '../service'
import type { CsvRow, CsvTable } from './csv'
import { IMPORT_COLUMNS, INTEGER_COLUMNS, NOT_IMPORTED, type ImportColumn } from './model'

/*
 * The file's header and rows read as create inputs, and what the create model and rules say of
 * each row: everything about a row that needs no database.
 */

/** One employee row of the file: the create input it stands for, and the department as named. */
export interface ImportRow {
  row: number
  input: CreateEmployeeInput
  department?: string
  /** the department's name as the database has it, once found */
  departmentName?: string
  /** the manager's employee number as written (column manager_employee_no) */
  managerEmployeeNo?: string
  /** the row of the file whose employee is this one's manager, once found */
  managerRow?: number
  /** columns whose value the create rules refused: not looked up or compared further */
  refused: Set<string>
}

export interface Header {
  row: number
  /** how many cells the header has */
  width: number
  /** cell index of each column the file has */
  columns: Map<ImportColumn, number>
}

/** "Employee No", "employee-no" and "EMPLOYEE_NO" all name employee_no. */
const normalise = (name: string) => name.trim().toLowerCase().replace(/[\s-]+/g, '_')

const COLUMN_LIST = IMPORT_COLUMNS.join(', ')

export function readHeader({ header, rows }: CsvTable): Header {
  const problems: FieldError[] = []
  const columns = new Map<ImportColumn, number>()
  const unnamed: number[] = []
  const at = (message: Message, field = 'file') => problems.push({ row: header.row, field, message })
  separatedByCommas(header)
  header.cells.forEach((cell, index) => {
    const name = normalise(cell)
    if (name === '') return void unnamed.push(index)
    if (!(IMPORT_COLUMNS as readonly string[]).includes(name)) {
      const hint = NOT_IMPORTED[name]
      const column = columnLetter(index)
      return void at(hint ? imports.notImportedColumn({ column, hint }) : imports.unknownColumn({ column, columns: COLUMN_LIST }), cell.trim())
    }
    const column = name as ImportColumn
    const first = columns.get(column)
    if (first !== undefined) return void at(imports.repeatedColumn({ first: columnLetter(first), second: columnLetter(index) }), column)
    columns.set(column, index)
  })
  if (!columns.has('name')) at(say.noNameColumn(), 'name')
  for (const index of unnamed) {
    const used = rows.find((row) => (row.cells[index] ?? '').trim() !== '')
    if (used) at(imports.unnamedColumn({ column: columnLetter(index), row: used.row }))
  }
  if (problems.length > 0) throw rowsRefused(problems)
  return { row: header.row, width: header.cells.length, columns }
}

/**
 * The create input a row stands for: trimmed cells (the password as written), empty ones left out.
 * A row with fewer cells than the header, or with values beyond it, is a problem of its own.
 */
export function readRow(header: Header, csvRow: CsvRow): ImportRow | FieldError {
  const problem = cellCountProblem(header.width, csvRow, '"Sales, North"')
  if (problem) return problem
  const { row, cells } = csvRow
  const input: Record<string, unknown> = {}
  let department: string | undefined
  let managerEmployeeNo: string | undefined
  for (const [column, index] of header.columns) {
    const value = column === 'password' ? cells[index] : cells[index].trim()
    if (value === '') continue
    if (column === 'department') department = value
    else if (column === 'manager_employee_no') managerEmployeeNo = value
    // digits are a number, as in JSON; anything else stays text, for the model to refuse in its words
    else input[column] = INTEGER_COLUMNS.has(column) && /^\d{1,16}$/.test(value) ? Number(value) : value
  }
  return { row, input: input as CreateEmployeeInput, department, managerEmployeeNo, refused: new Set() }
}

/** What the create model and rules say of one row; the fields they refuse are kept in `refused`. */
export function ruleProblems(item: ImportRow): FieldError[] {
  const problems = issueErrors(Value.Errors(CreateEmployeeBody, item.input) as Iterable<Issue>)
  for (const problem of problems) item.refused.add(problem.field)
  for (const rule of NEW_EMPLOYEE_RULES)
    try {
      rule(item.input)
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error
      // one problem of a field is enough: a date the model refuses is not also "not a real date"
      for (const problem of error.errors ?? [])
        if (!item.refused.has(problem.field)) {
          problems.push(problem)
          item.refused.add(problem.field)
        }
    }
  return problems.map((problem) => ({ row: item.row, ...problem }))
}

/** Rows after the first that repeat a value of `field` (by `key`): each names the row it repeats, in the words of `repeated`. */
export function repeats(
  items: ImportRow[],
  field: ImportColumn,
  key: (item: ImportRow) => string | undefined,
  repeated: (values: { value: MessageValue; row: number }) => Message = imports.repeatedValue,
): FieldError[] {
  const first = new Map<string, number>()
  const problems: FieldError[] = []
  for (const item of items) {
    const value = item.refused.has(field) ? undefined : key(item)
    if (value === undefined) continue
    const earlier = first.get(value)
    if (earlier === undefined) first.set(value, item.row)
    else problems.push({ row: item.row, field, message: repeated({ value: String(item.input[field as keyof CreateEmployeeInput]), row: earlier }) })
  }
  return problems
}

export const employeeNoOf = (item: ImportRow) => item.input.employee_no?.trim() || undefined
export const usernameOf = (item: ImportRow) => item.input.username?.toLowerCase()

/** The 400 of a file with problems: every one, by row and then by column. */
export function rowsRefused(problems: FieldError[], order: (field: string) => number = () => 0): ValidationError {
  const sorted = problems
    .map((problem, i) => ({ problem, i }))
    .sort((a, b) => (a.problem.row ?? 0) - (b.problem.row ?? 0) || order(a.problem.field) - order(b.problem.field) || a.i - b.i)
    .map(({ problem }) => problem)
  const rows = new Set(sorted.map((problem) => problem.row)).size
  const [first] = sorted
  const n = sorted.length
  const count = rows > 1 ? imports.problemCountInRows({ n, rows }) : imports.problemCount({ n })
  return new ValidationError(imports.fileRefused({ count, row: String(first.row), field: first.field, problem: first.message }), sorted)
}

