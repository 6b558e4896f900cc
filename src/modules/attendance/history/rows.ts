import type { FieldError } from '../../../http/errors'
import { isCalendarDate } from '../../../lib/dates'
import { addDays, instantAt } from '../../../lib/local-time'
import type { Message } from '../../../lib/messages'
import type { CsvRow } from '../../employees/import/csv'
import { cellsOf, type ColumnHeader } from '../../imports/columns'
import { say } from './messages'
import type { HistoryColumn } from './model'

/*
 * A history file's rows as records to import (CONTRACT §23): what can be said of a row without the
 * database. Times are a local wall time (H:MM or HH:MM, seconds allowed) in the zone of the record's
 * group, or an ISO 8601 instant with its offset; a local clock-out before the clock-in is the next day.
 */

/** A clock time as written: a wall time of the work date (read later in the record's zone), or an instant. */
export type TimeCell = { local: string; seconds: number } | { instant: Date }

export interface HistoryRow {
  row: number
  employeeNo: string
  workDate: string
  clockIn: TimeCell
  clockOut: TimeCell | null
  note: string
}

export const MAX_NOTE = 500

const LOCAL_TIME = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/i

/** A time cell, or what is wrong with it. */
export function timeCell(value: string): TimeCell | { problem: Message } {
  const local = LOCAL_TIME.exec(value)
  if (local) {
    const [hours, minutes, seconds] = [Number(local[1]), Number(local[2]), Number(local[3] ?? 0)]
    if (hours > 23 || minutes > 59 || seconds > 59) return { problem: say.notTimeOfDay({ value }) }
    return { local: `${String(hours).padStart(2, '0')}:${local[2]}`, seconds }
  }
  if (INSTANT.test(value)) {
    const instant = new Date(value)
    if (!Number.isNaN(instant.getTime())) return { instant }
  }
  return { problem: say.notTime({ value }) }
}

/** A row of the file as a record to import, or its problems. */
export function readHistoryRow(header: ColumnHeader<HistoryColumn>, csvRow: CsvRow): HistoryRow | FieldError[] {
  const cells = cellsOf(header, csvRow)
  if ('problem' in cells) return [cells.problem]
  const { values } = cells
  const problems: FieldError[] = []
  const at = (field: HistoryColumn, message: Message) => problems.push({ row: csvRow.row, field, message })
  const employeeNo = values.employee_no
  if (employeeNo === undefined) at('employee_no', say.employeeNoRequired())
  const workDate = values.work_date
  if (workDate === undefined) at('work_date', say.workDateRequired())
  else if (!/^\d{4}-\d{2}-\d{2}$/.test(workDate) || !isCalendarDate(workDate)) at('work_date', say.notRealDate({ value: workDate }))
  let clockIn: TimeCell | null = null
  if (values.clock_in === undefined)
    at('clock_in', say.clockInRequired())
  else {
    const cell = timeCell(values.clock_in)
    if ('problem' in cell) at('clock_in', cell.problem)
    else clockIn = cell
  }
  let clockOut: TimeCell | null = null
  if (values.clock_out !== undefined) {
    const cell = timeCell(values.clock_out)
    if ('problem' in cell) at('clock_out', cell.problem)
    else clockOut = cell
  }
  const note = values.note ?? ''
  if (note.length > MAX_NOTE) at('note', say.noteTooLong({ max: MAX_NOTE, length: note.length }))
  if (problems.length > 0) return problems
  return { row: csvRow.row, employeeNo: employeeNo!, workDate: workDate!, clockIn: clockIn!, clockOut, note }
}

const instantOf = (cell: TimeCell, date: string, zone: string): Date =>
  'instant' in cell ? cell.instant : new Date(instantAt(date, cell.local, zone).getTime() + cell.seconds * 1000)

/** The row's clock instants in `zone` (its record's): a local clock-out before the clock-in falls on the next day. */
export function instantsOf(row: HistoryRow, zone: string): { clockIn: Date; clockOut?: Date } {
  const clockIn = instantOf(row.clockIn, row.workDate, zone)
  if (row.clockOut === null) return { clockIn }
  let clockOut = instantOf(row.clockOut, row.workDate, zone)
  if ('local' in row.clockOut && clockOut < clockIn) clockOut = instantOf(row.clockOut, addDays(row.workDate, 1), zone)
  return { clockIn, clockOut }
}
