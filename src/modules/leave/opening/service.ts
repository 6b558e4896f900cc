import type { Database, Queryable } from '../../../db/client'
import type { FieldError } from '../../../http/errors'
import { say as http } from '../../../http/messages'
import type { Clock } from '../../../lib/clock'
import type { Message } from '../../../lib/messages'
import { recordAudits, type Actor, type AuditEntry } from '../../audit/recorder'
import { decodeText, parseCsv, type CsvKind } from '../../employees/import/csv'
import { rowsRefused } from '../../employees/import/rows'
import { readUpload } from '../../employees/import/upload'
import { byColumn, cellsOf, readColumns, type ColumnHeader } from '../../imports/columns'
import { importWrite } from '../../imports/write'
import type { Principal } from '../../rbac/access'
import { ownEmployeesAmong, ownMatterRefused } from '../../rbac/own-matters'
import type { LedgerEntry, TypeRow } from '../repository'
import { listTypes } from '../repository'
import { say } from '../messages'
import { unitsPerHalfDay } from '../hours'
import { balanceOf, daysOf } from '../shapes'
import { MAX_OPENING_BYTES, MAX_OPENING_ROWS, OPENING_COLUMNS, OPENING_REASON, type OpeningColumn, type OpeningImportResponse } from './model'
import * as repo from './repository'

/*
 * Opening leave balances from a CSV file (CONTRACT §23): each row an adjustment of one balance
 * (employee, leave type, year) by `days`, written to the ledger with the reason "opening balance",
 * as POST /admin/leave/balances/adjust would write it: never leaving `remaining` below zero, never
 * one's own balance (CONTRACT §15), each audited. A balance gets one opening balance: a second row
 * for it, in the file or later in another file, is refused. All or none.
 */

const OPENING: CsvKind = { maxRows: MAX_OPENING_ROWS, rows: say.balancesNoun(), row: say.balanceNoun(), columns: OPENING_COLUMNS.join(', ') }

interface OpeningRow {
  row: number
  employeeNo: string
  typeName: string
  year: number
  halfDays: number
}

/** A row of the file, or its problems: what can be said of it without the database. */
function readOpeningRow(header: ColumnHeader<OpeningColumn>, csvRow: { row: number; cells: string[] }): OpeningRow | FieldError[] {
  const cells = cellsOf(header, csvRow)
  if ('problem' in cells) return [cells.problem]
  const { values } = cells
  const problems: FieldError[] = []
  const at = (field: OpeningColumn, message: Message) => problems.push({ row: csvRow.row, field, message })
  if (values.employee_no === undefined) at('employee_no', say.employeeNoRequired())
  if (values.leave_type === undefined) at('leave_type', say.leaveTypeRequired())
  const year = Number(values.year)
  if (values.year === undefined) at('year', http.required())
  else if (!/^\d{4}$/.test(values.year) || year < 1) at('year', say.notAYear({ value: values.year }))
  const days = Number(values.days)
  if (values.days === undefined) at('days', say.daysRequired())
  else if (!/^-?\d+(\.\d+)?$/.test(values.days) || !Number.isInteger(days * 2)) at('days', say.notDays({ value: values.days }))
  else if (days === 0) at('days', say.notZero())
  else if (Math.abs(days) > 366) at('days', say.daysFromTo())
  if (problems.length > 0) return problems
  return { row: csvRow.row, employeeNo: values.employee_no!, typeName: values.leave_type!, year, halfDays: days * 2 }
}

const typeKey = (name: string) => name.trim().toLowerCase()

export function createOpeningBalances({ database, clock }: { database: Database; clock: Clock }) {
  const { db } = database

  /** Every row checked against the database as `q` reads it: a 400 listing every problem, a 403 for a balance of one's own; else the ledger rows and audit entries. */
  async function planFile(q: Queryable, header: ColumnHeader<OpeningColumn>, rows: OpeningRow[], early: FieldError[], principal: Principal, actor: Actor, now: Date) {
    const problems = [...early]
    const at = (row: OpeningRow, field: OpeningColumn, message: Message) => problems.push({ row: row.row, field, message })
    const employees = await repo.employeesByNumber(q, [...new Set(rows.map((row) => row.employeeNo))])
    const own = await ownEmployeesAmong(q, principal, [...employees.values()].map((employee) => employee.id))
    const mine = rows.find((row) => own.has(employees.get(row.employeeNo)?.id ?? 0))
    if (mine) throw ownMatterRefused(say.ownRow({ row: mine.row, type: mine.typeName, year: mine.year, no: mine.employeeNo }), 'adjust')

    const types = new Map<string, TypeRow>((await listTypes(q, undefined, null)).rows.map((type) => [typeKey(type.name), type]))
    const sums = await repo.balanceSums(q, [...employees.values()].map((employee) => employee.id), [...new Set(rows.map((row) => row.year))])
    const seen = new Map<string, number>()
    const entries: LedgerEntry[] = []
    const audits: AuditEntry[] = []
    for (const row of rows) {
      const employee = employees.get(row.employeeNo)
      const type = types.get(typeKey(row.typeName))
      if (!employee) at(row, 'employee_no', say.noEmployeeNumbered({ no: row.employeeNo }))
      if (!type) at(row, 'leave_type', say.noTypeNamed({ name: row.typeName, types: [...types.values()].map((t) => t.name).join(', ') || say.noTypesYet() }))
      if (!employee || !type) continue
      const key = repo.balanceKey(employee.id, type.id, row.year)
      const balance = say.balanceOfRow({ type: type.name, year: row.year, no: row.employeeNo, name: employee.name })
      const earlier = seen.get(key)
      if (earlier !== undefined) {
        at(row, 'leave_type', say.openedInRow({ balance, row: earlier }))
        continue
      }
      seen.set(key, row.row)
      const sum = sums.get(key)
      if (sum?.opened) {
        at(row, 'leave_type', say.openedAlready({ balance }))
        continue
      }
      const before = balanceOf(type, row.year, sum)
      // the file counts days; an hourly type's day is 8 hours (CONTRACT §18)
      const amount = row.halfDays * unitsPerHalfDay(type.unit)
      const after = balanceOf(type, row.year, { credited: (sum?.credited ?? 0) + amount, pending: sum?.pending ?? 0, taken: sum?.taken ?? 0 })
      if (after.remaining < 0) {
        at(row, 'days', say.takesTooMuchOf({ days: daysOf(-row.halfDays), balance, left: after.remaining, remaining: before.remaining }))
        continue
      }
      entries.push({ employeeId: employee.id, typeId: type.id, year: row.year, kind: 'adjustment', amount, reason: OPENING_REASON, requestId: null, actorId: actor.userId, createdAt: now })
      audits.push({
        action: 'leave_balance.import',
        resource: 'leave_balance',
        resourceId: `${employee.id}/${type.id}/${row.year}`,
        before,
        after: { ...after, days: daysOf(row.halfDays), reason: OPENING_REASON, row: row.row },
      })
    }
    if (problems.length > 0) throw rowsRefused(problems, byColumn(header))
    return { entries, audits }
  }

  return {
    async import(request: Request, dryRun: boolean, actor: Actor, principal: Principal): Promise<OpeningImportResponse> {
      const table = parseCsv(decodeText(await readUpload(request, { bytes: MAX_OPENING_BYTES, rows: MAX_OPENING_ROWS })), OPENING)
      const header = readColumns(table, { all: OPENING_COLUMNS, required: OPENING_COLUMNS })
      const early: FieldError[] = []
      const rows: OpeningRow[] = []
      for (const csvRow of table.rows) {
        const read = readOpeningRow(header, csvRow)
        if (Array.isArray(read)) early.push(...read)
        else rows.push(read)
      }
      if (dryRun) return { created: (await planFile(db, header, rows, early, principal, actor, clock.now())).entries.length, errors: [] }
      const now = clock.now()
      return database.write(async (tx) => {
        // decided here, under the write lock, against the balances as they are
        const { entries, audits } = await planFile(tx, header, rows, early, principal, actor, now)
        await repo.appendAll(tx, entries)
        await recordAudits(tx, actor, now, audits)
        return { created: entries.length, errors: [] }
      }, importWrite(rows.length))
    },
  }
}

export type OpeningBalances = ReturnType<typeof createOpeningBalances>
