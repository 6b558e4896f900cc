import type { Queryable } from '../../../db/client'
import { ValidationError, type FieldError } from '../../../http/errors'
import type { Message } from '../../../lib/messages'
import { localDate } from '../../../lib/local-time'
import { recordAudits, type Actor, type AuditEntry } from '../../audit/recorder'
import { calendarBetween } from '../../calendar/repository'
import type { CompanyCalendar } from '../../calendar/work-days'
import { planRecord, zoneOfPlan, type Plan } from '../../corrections/plan'
import { snapshotOf } from '../../corrections/service'
import { decodeText, parseCsv, type CsvKind } from '../../employees/import/csv'
import { rowsRefused } from '../../employees/import/rows'
import { readUpload } from '../../employees/import/upload'
import { byColumn, readColumns, type ColumnHeader } from '../../imports/columns'
import { importWrite } from '../../imports/write'
import type { Principal } from '../../rbac/access'
import { ownEmployeesAmong, ownMatterRefused } from '../../rbac/own-matters'
import { contextFrom, ruleOfRecord, type CallerContext } from '../caller'
import type { NewRecord } from '../repository'
import type { AttendanceDeps } from '../service'
import { enabledRulesOfGroup } from '../setup/repository'
import { HISTORY_COLUMNS, MAX_HISTORY_BYTES, MAX_HISTORY_ROWS, type HistoryColumn, type HistoryImportResponse } from './model'
import { say } from './messages'
import * as repo from './repository'
import { instantsOf, readHistoryRow, type HistoryRow } from './rows'

/*
 * Past attendance from a CSV file (CONTRACT §23): each row a record of an employee's work date, judged
 * by the rule of its date exactly as an approved correction judges one (corrections/plan.ts), marked
 * `imported`; every problem of every row at once, and all or nothing in one transaction, each record
 * audited. A date that already has a record with clock times keeps it unless replace=true; an absent
 * record (no clock times) is always replaced.
 */

const HISTORY: CsvKind = { maxRows: MAX_HISTORY_ROWS, rows: 'records', row: 'record', columns: HISTORY_COLUMNS.join(', ') }

/** One record to write: the row of the file, whose employee and date it is, and what it makes of the date. */
interface Planned {
  source: HistoryRow
  context: CallerContext
  plan: Plan
}

/** What a correction's refusal says of a time, said of the file's column. */
const COLUMN_OF: Record<string, HistoryColumn> = { clock_in_time: 'clock_in', clock_out_time: 'clock_out' }

export function createHistoryImport({ database, clock, defaultZone, ruleCache }: AttendanceDeps) {
  const { db } = database

  /** The employees' contexts as their own requests would see them (attendance/caller.ts), by employee number. */
  const contextsOf = async (employees: repo.NumberedEmployee[]) => {
    const contexts = new Map<string, { employee: repo.NumberedEmployee; context: CallerContext }>()
    for (const employee of employees) {
      const group = employee.group
      const rules = group && group.status === 1 ? await ruleCache.get(group.id, () => enabledRulesOfGroup(db, group.id)) : []
      contexts.set(employee.employeeNo!, { employee, context: contextFrom(employee.id, employee, rules, defaultZone) })
    }
    return contexts
  }

  /**
   * Every row judged against the database as `q` reads it (the write transaction, for a real
   * import): a 400 listing every problem, a 403 when a row is the caller's own record; else the
   * records to write and how many rows keep the record their date has.
   */
  async function planFile(
    q: Queryable,
    header: ColumnHeader<HistoryColumn>,
    rows: HistoryRow[],
    early: FieldError[],
    principal: Principal,
    replace: boolean,
    now: Date,
  ): Promise<{ planned: Planned[]; kept: number }> {
    const problems = [...early]
    const at = (row: HistoryRow, field: HistoryColumn, message: Message) => problems.push({ row: row.row, field, message })
    const contexts = await contextsOf(await repo.employeesByNumber(q, [...new Set(rows.map((row) => row.employeeNo))]))

    const own = await ownEmployeesAmong(q, principal, [...contexts.values()].map(({ employee }) => employee.id))
    const mine = rows.find((row) => own.has(contexts.get(row.employeeNo)?.employee.id ?? 0))
    if (mine) throw ownMatterRefused(say.ownRow({ row: mine.row, no: mine.employeeNo, date: mine.workDate }), 'edit')

    const known = rows.filter((row) => contexts.has(row.employeeNo))
    const dates = known.map((row) => row.workDate).sort()
    const span = { employeeIds: [...new Set(known.map((row) => contexts.get(row.employeeNo)!.employee.id))], first: dates[0], last: dates[dates.length - 1] }
    const [records, pending, timeOff] =
      known.length === 0
        ? [new Map(), new Set<string>(), new Map()]
        : await Promise.all([repo.recordsBetween(q, span), repo.pendingCorrectionsBetween(q, span), repo.timeOffBetween(q, span)])
    const calendars = new Map<number, CompanyCalendar>()
    for (const { context } of contexts.values()) {
      const company = context.group?.group.companyId
      if (company !== undefined && !calendars.has(company)) calendars.set(company, await calendarBetween(q, company, span.first, span.last))
    }

    const planned: Planned[] = []
    const seen = new Map<string, number>()
    const todays = new Map<string, string>()
    const todayIn = (zone: string) => todays.get(zone) ?? todays.set(zone, localDate(now, zone)).get(zone)!
    let kept = 0
    for (const row of rows) {
      const found = contexts.get(row.employeeNo)
      if (!found) {
        at(row, 'employee_no', say.noSuchEmployeeNo({ no: row.employeeNo }))
        continue
      }
      const { employee, context } = found
      const who = say.who({ no: row.employeeNo, name: employee.name })
      if (!context.group) {
        at(row, 'employee_no', say.notInGroup({ who, date: row.workDate }))
        continue
      }
      const key = repo.dayKey(employee.id, row.workDate)
      const earlier = seen.get(key)
      if (earlier !== undefined) {
        at(row, 'work_date', say.repeatedDate({ date: row.workDate, who, row: earlier }))
        continue
      }
      seen.set(key, row.row)
      const today = todayIn(context.zone)
      if (row.workDate > today) {
        at(row, 'work_date', say.inFuture({ date: row.workDate, today, zone: context.zone }))
        continue
      }
      const from = context.attendanceFrom
      if (from !== null && row.workDate < from) {
        const bound = from === context.hireDate ? say.hireDateBound({ date: from }) : say.companyStartBound({ date: from })
        at(row, 'work_date', say.beforeStart({ date: row.workDate, bound, who }))
        continue
      }
      if (pending.has(key)) {
        at(row, 'work_date', say.pendingCorrection({ who, date: row.workDate }))
        continue
      }
      const record = records.get(key) ?? null
      if (record && (record.clockInTime || record.clockOutTime) && !replace) {
        kept++
        continue
      }
      const clocked = record?.clockInTime ? record : null
      try {
        const plan = planRecord(context, row.workDate, instantsOf(row, zoneOfPlan(context, record)), now, {
          row: record,
          rowRule: clocked && (await ruleOfRecord(q, context, clocked.ruleId)),
          kind: clocked ? null : (calendars.get(context.group.group.companyId)?.get(row.workDate)?.kind ?? null),
          off: clocked ? null : (timeOff.get(key) ?? null),
        })
        planned.push({ source: row, context, plan })
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error
        if (!error.errors?.length) at(row, 'work_date', error.text)
        for (const problem of error.errors ?? []) at(row, COLUMN_OF[problem.field] ?? 'work_date', problem.message)
      }
    }
    if (problems.length > 0) throw rowsRefused(problems, byColumn(header))
    return { planned, kept }
  }

  /** The planned records as stored: every column of the date's record, the imported ones over it; no positions (none was taken). */
  const recordsOf = (planned: Planned[], now: Date): NewRecord[] =>
    planned.map(({ source, context, plan }) => ({
      ...(plan.row ?? {}),
      id: undefined,
      ...plan.values,
      employeeId: context.employeeId,
      workDate: source.workDate,
      clockInLat: null,
      clockInLng: null,
      clockOutLat: null,
      clockOutLng: null,
      corrected: false,
      imported: true,
      note: source.note,
      createdAt: plan.row?.createdAt ?? now,
      updatedAt: now,
    }))

  return {
    async import(request: Request, options: { dryRun: boolean; replace: boolean }, actor: Actor, principal: Principal): Promise<HistoryImportResponse> {
      const table = parseCsv(decodeText(await readUpload(request, { bytes: MAX_HISTORY_BYTES, rows: MAX_HISTORY_ROWS })), HISTORY)
      const header = readColumns(table, { all: HISTORY_COLUMNS, required: ['employee_no', 'work_date', 'clock_in'] })
      const early: FieldError[] = []
      const rows: HistoryRow[] = []
      for (const csvRow of table.rows) {
        const read = readHistoryRow(header, csvRow)
        if (Array.isArray(read)) early.push(...read)
        else rows.push(read)
      }
      const count = ({ planned, kept }: { planned: Planned[]; kept: number }) => ({
        created: planned.filter(({ plan }) => plan.row === null).length,
        replaced: planned.filter(({ plan }) => plan.row !== null).length,
        kept,
        errors: [],
      })
      if (options.dryRun) return count(await planFile(db, header, rows, early, principal, options.replace, clock.now()))
      const now = clock.now()
      return database.write(async (tx) => {
        // decided here, under the write lock, against the records as they are
        const result = await planFile(tx, header, rows, early, principal, options.replace, now)
        const written = new Map((await repo.upsertRecords(tx, recordsOf(result.planned, now))).map((row) => [repo.dayKey(row.employeeId, row.workDate), row]))
        const entries: AuditEntry[] = result.planned.map(({ source, context, plan }) => {
          const record = written.get(repo.dayKey(context.employeeId, source.workDate))!
          return {
            action: 'attendance_record.import',
            resource: 'attendance_record',
            resourceId: record.id,
            before: snapshotOf(plan.row) ?? undefined,
            after: { ...snapshotOf(record), employee_id: record.employeeId, work_date: record.workDate, note: record.note, imported: true, row: source.row },
          }
        })
        await recordAudits(tx, actor, now, entries)
        return count(result)
      }, importWrite(rows.length))
    },
  }
}

export type HistoryImport = ReturnType<typeof createHistoryImport>
