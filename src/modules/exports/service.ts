import type { Locale } from '../../config'
import type { Database } from '../../db/client'
import { ValidationError } from '../../http/errors'
import type { Clock } from '../../lib/clock'
import { isCalendarDate } from '../../lib/dates'
import type { Logger } from '../../lib/logger'
import { contextFrom, todayWorkDate } from '../attendance/caller'
import * as setup from '../attendance/setup-repository'
import { recordAudit, type Actor } from '../audit/recorder'
import { calendarBetween } from '../calendar/repository'
import { NO_CALENDAR, type CompanyCalendar } from '../calendar/work-days'
import { datesOf } from '../leave/repository'
import { judgeMonth } from './attendance-sheet'
import type { AttendanceExportQuery, SalaryExportQuery } from './model'
import * as repo from './repository'
import { salaryRegister, SALARY_COLUMNS } from './salary-sheet'
import { CONTENT_TYPES, sheetStream, type Column, type Format, type Row, type Sheet } from './sheet'

/** Employees (or salary records) per page: each page is a few queries and about this many rows in memory. */
export const PAGE_SIZE = 200

export interface ExportsDeps {
  database: Database
  clock: Clock
  defaultZone: string
  ruleCache: setup.RuleCache
  logger: Logger
}

/** A download: its name, type and bytes, produced as they are read (none for HEAD). */
export interface ExportFile {
  filename: string
  contentType: string
  body: ReadableStream<Uint8Array> | null
}

/** The first and last dates of a `YYYY-MM` month; 400 for a month with no real first day (year 0000). */
function monthDates(month: string): string[] {
  const first = `${month}-01`
  if (!isCalendarDate(first))
    throw new ValidationError(`month "${month}" is not a real month`, [{ field: 'month', message: `"${month}" is not a real month` }])
  // a real first day has a year of at least 100, which Date.UTC takes as it is
  const [year, number] = month.split('-').map(Number)
  const days = new Date(Date.UTC(year, number, 0)).getUTCDate()
  return datesOf(first, `${month}-${String(days).padStart(2, '0')}`)
}

const ATTENDANCE_TOTALS: Column[] = [
  'work_days',
  'attendance_days',
  'late_days',
  'late_minutes',
  'early_days',
  'absent_days',
].map((header): Column => ({ header, kind: 'integer', width: header.length + 2 }))

export function createExportsService({ database, clock, defaultZone, ruleCache, logger }: ExportsDeps) {
  const { db } = database

  const failed = (what: string) => (error: unknown) =>
    logger.error(`the ${what} export failed while streaming; the download was cut off`, { error: error instanceof Error ? error.message : String(error) })

  /** The audit entry of an export, written before its first byte: a download cut off half-way was still an export. */
  const audit = (actor: Actor, now: Date, kind: 'attendance' | 'salaries', month: string, after: Record<string, unknown>) =>
    database.write((tx) => recordAudit(tx, actor, now, { action: `export.${kind}`, resource: 'export', resourceId: month, after: { month, ...after } }))

  const file = (kind: string, month: string, format: Format, sheet: Sheet | null): ExportFile => ({
    filename: `${kind}-${month}.${format}`,
    contentType: CONTENT_TYPES[format],
    body: sheet && sheetStream(sheet, format, failed(kind)),
  })

  /** The attendance sheet's rows, a page of employees at a time: each page in three queries, plus one per company and group not seen before. */
  async function* attendancePages(scope: repo.AttendanceScope, dates: string[], now: Date): AsyncGenerator<Row[]> {
    const calendars = new Map<number, CompanyCalendar>()
    const rulesOf = new Map<number, setup.RuleRow[]>()
    let after = 0
    for (;;) {
      const employees = await repo.attendanceEmployees(db, scope, after, PAGE_SIZE)
      if (employees.length === 0) return
      after = employees[employees.length - 1].id
      const ids = employees.map((employee) => employee.id)
      const [records, leave] = await Promise.all([
        repo.recordsOf(db, ids, scope.first, scope.last),
        repo.approvedLeaveOf(db, ids, scope.first, scope.last),
      ])
      for (const { group } of employees) {
        if (!group) continue
        if (!calendars.has(group.companyId)) calendars.set(group.companyId, await calendarBetween(db, group.companyId, scope.first, scope.last))
        // the rules as the clocking and statistics code sees them (the shared cache), kept for the whole export
        if (group.status === 1 && !rulesOf.has(group.id))
          rulesOf.set(group.id, await ruleCache.get(group.id, () => setup.enabledRulesOfGroup(db, group.id)))
      }
      const leaveBy = groupBy(leave)
      yield employees.map((employee) => {
        // the context the statistics endpoint builds for the employee (attendance/caller.ts)
        const context = contextFrom(employee.id, employee, employee.group ? (rulesOf.get(employee.group.id) ?? []) : [], defaultZone)
        const { codes, statistics } = judgeMonth({
          dates,
          today: todayWorkDate(context, now),
          attendanceFrom: context.attendanceFrom,
          rules: context.rules,
          calendar: context.group ? calendars.get(context.group.group.companyId)! : NO_CALENDAR,
          records: records.get(employee.id) ?? [],
          leave: leaveBy.get(employee.id) ?? [],
        })
        return [
          employee.employeeNo,
          employee.name,
          employee.department,
          ...codes,
          statistics.work_days,
          statistics.attendance_days,
          statistics.late_days,
          statistics.total_late_minutes,
          statistics.early_days,
          statistics.absent_days,
          statistics.leave_days,
          statistics.overtime_hours,
          statistics.total_work_hours,
        ]
      })
      if (employees.length < PAGE_SIZE) return
    }
  }

  async function* salaryPages(month: string, register: ReturnType<typeof salaryRegister>): AsyncGenerator<Row[]> {
    let after = 0
    for (;;) {
      const rows = await repo.salaryPage(db, month, after, PAGE_SIZE)
      if (rows.length === 0) return
      after = rows[rows.length - 1].salary.employeeId
      yield rows.map(register.row)
      if (rows.length < PAGE_SIZE) return
    }
  }

  return {
    /**
     * The month's attendance sheet (CONTRACT §12): checked and audited before the first byte, then
     * streamed. Every row is judged at one moment, the request's: the same "today" for all.
     */
    async attendance(query: AttendanceExportQuery, actor: Actor, headOnly = false): Promise<ExportFile> {
      const dates = monthDates(query.month)
      const problems: { field: string; message: string }[] = []
      if (query.department_id !== undefined && !(await repo.departmentExists(db, query.department_id)))
        problems.push({ field: 'department_id', message: `department ${query.department_id} does not exist` })
      if (query.group_id !== undefined && !(await repo.groupExists(db, query.group_id)))
        problems.push({ field: 'group_id', message: `attendance group ${query.group_id} does not exist` })
      if (problems.length > 0) throw new ValidationError(problems.map((p) => `${p.field}: ${p.message}`).join('; '), problems)
      // HEAD: the answer's headers, checked as for GET; nothing exported, so nothing audited
      if (headOnly) return file('attendance', query.month, query.format, null)

      const now = clock.now()
      const scope: repo.AttendanceScope = { first: dates[0], last: dates[dates.length - 1], departmentId: query.department_id, groupId: query.group_id }
      const rows = await repo.countAttendanceRows(db, scope)
      await audit(actor, now, 'attendance', query.month, {
        format: query.format,
        department_id: query.department_id ?? null,
        group_id: query.group_id ?? null,
        rows,
      })
      return file('attendance', query.month, query.format, {
        name: `Attendance ${query.month}`,
        columns: [
          { header: 'employee_no', kind: 'text', width: 14 },
          { header: 'name', kind: 'text', width: 18 },
          { header: 'department', kind: 'text', width: 16 },
          ...dates.map((date): Column => ({ header: date, kind: 'text', width: 11 })),
          ...ATTENDANCE_TOTALS,
          { header: 'leave_days', kind: 'number', width: 12 },
          { header: 'overtime_hours', kind: 'number', width: 16 },
          { header: 'work_hours', kind: 'number', width: 12 },
        ],
        frozenColumns: 2,
        pages: attendancePages(scope, dates, now),
        created: now,
      })
    },

    /** The month's salary register (CONTRACT §12), with a last row of sums; audited before the first byte. */
    async salaries(query: SalaryExportQuery, actor: Actor, locale: Locale, headOnly = false): Promise<ExportFile> {
      monthDates(query.month)
      if (headOnly) return file('salaries', query.month, query.format, null)
      const now = clock.now()
      const rows = await repo.countSalaryRows(db, query.month)
      await audit(actor, now, 'salaries', query.month, { format: query.format, rows })
      const register = salaryRegister(locale)
      return file('salaries', query.month, query.format, {
        name: `Salaries ${query.month}`,
        columns: SALARY_COLUMNS,
        frozenColumns: 2,
        pages: salaryPages(query.month, register),
        footer: register.footer,
        created: now,
      })
    },
  }
}

function groupBy<T extends { employeeId: number }>(rows: T[]): Map<number, T[]> {
  const groups = new Map<number, T[]>()
  for (const row of rows) {
    const list = groups.get(row.employeeId)
    if (list) list.push(row)
    else groups.set(row.employeeId, [row])
  }
  return groups
}

export type ExportsService = ReturnType<typeof createExportsService>
