import type { Locale } from '../../config'
import type { Database } from '../../db/client'
import { ValidationError, type FieldError } from '../../http/errors'
import type { Clock } from '../../lib/clock'
import { isCalendarDate } from '../../lib/dates'
import type { Logger } from '../../lib/logger'
import { messageList } from '../../lib/messages'
import { contextFrom, todayWorkDate } from '../attendance/caller'
import * as setup from '../attendance/setup/repository'
import { recordAudit, type Actor } from '../audit/recorder'
import { calendarBetween } from '../calendar/repository'
import { NO_CALENDAR, type CompanyCalendar } from '../calendar/work-days'
import { datesOf } from '../leave/repository'
import { judgeMonth } from './attendance-sheet'
import { say } from './messages'
import type { AttendanceExportQuery, Layout, SalaryExportQuery } from './model'
import * as repo from './repository'
import { salaryRow, SALARY_COLUMNS } from './salary-sheet'
import { CONTENT_TYPES, sheetStream, type Format, type Row, type Sheet } from './sheet'
import { attendanceColumns, attendanceSheetLayout, dayLooks, layoutOf, salarySheetLayout, type Layouted, type SheetCompany } from './sheet-layout'

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
  if (!isCalendarDate(first)) throw ValidationError.of([{ field: 'month', message: say.notRealMonth({ month }) }])
  // a real first day has a year of at least 100, which Date.UTC takes as it is
  const [year, number] = month.split('-').map(Number)
  const days = new Date(Date.UTC(year, number, 0)).getUTCDate()
  return datesOf(first, `${month}-${String(days).padStart(2, '0')}`)
}

/** The one company of a sheet's people, or none (all companies) when they are of several or of none. */
function companyOf(rows: readonly { companyId: number; company: string; timezone: string | null }[], defaultZone: string): SheetCompany {
  const ids = new Set(rows.map((row) => row.companyId))
  return ids.size === 1 ? { name: rows[0].company, zone: rows[0].timezone ?? defaultZone } : { name: null, zone: defaultZone }
}

/** What an export reads once and keeps for all its pages: company calendars and groups' enabled rules, by id. */
interface Loaded {
  calendars: Map<number, CompanyCalendar>
  rules: Map<number, setup.RuleRow[]>
}

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

  const calendarOf = async (loaded: Loaded, companyId: number, scope: repo.AttendanceScope) => {
    let calendar = loaded.calendars.get(companyId)
    if (!calendar) loaded.calendars.set(companyId, (calendar = await calendarBetween(db, companyId, scope.first, scope.last)))
    return calendar
  }
  // the rules as the clocking and statistics code sees them (the shared cache), kept for the whole export
  const rulesOfGroup = async (loaded: Loaded, groupId: number) => {
    let rules = loaded.rules.get(groupId)
    if (!rules) loaded.rules.set(groupId, (rules = await ruleCache.get(groupId, () => setup.enabledRulesOfGroup(db, groupId))))
    return rules
  }

  /** The attendance sheet's rows in a layout, a page of employees at a time: each page in three queries, plus one per company and group not seen before. */
  async function* attendancePages(scope: repo.AttendanceScope, dates: string[], now: Date, loaded: Loaded, layout: Layout): AsyncGenerator<Row[]> {
    const { calendars, rules: rulesOf } = loaded
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
        await calendarOf(loaded, group.companyId, scope)
        if (group.status === 1) await rulesOfGroup(loaded, group.id)
      }
      const leaveBy = groupBy(leave)
      yield employees.map((employee) => {
        // the context the statistics endpoint builds for the employee (attendance/caller.ts)
        const context = contextFrom(employee.id, employee, employee.group ? (rulesOf.get(employee.group.id) ?? []) : [], defaultZone)
        const { codes, statistics } = judgeMonth({
          dates,
          today: todayWorkDate(context, now),
          attendanceFrom: context.attendanceFrom,
          attendanceUntil: context.attendanceUntil,
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
          // the sheet layout's own total (sheet-layout.ts `attendanceTotals`)
          ...(layout === 'sheet' ? [statistics.leave_hours] : []),
        ]
      })
      if (employees.length < PAGE_SIZE) return
    }
  }

  async function* salaryPages(month: string, row: ReturnType<typeof salaryRow>): AsyncGenerator<Row[]> {
    let after = 0
    for (;;) {
      const rows = await repo.salaryPage(db, month, after, PAGE_SIZE)
      if (rows.length === 0) return
      after = rows[rows.length - 1].salary.employeeId
      yield rows.map(row)
      if (rows.length < PAGE_SIZE) return
    }
  }

  /** The attendance sheet's layout: the data's columns, or the sheet's words, title and shading from its people's companies and rules. */
  async function attendanceLayout(
    layout: Layout,
    { month, locale, now }: { month: string; locale: Locale; now: Date },
    scope: repo.AttendanceScope,
    dates: string[],
    loaded: Loaded,
  ): Promise<Layouted> {
    if (layout === 'data') return { name: `Attendance ${month}`, columns: attendanceColumns(dates), frozenColumns: 2 }
    const groups = await repo.groupsOfSheet(db, scope)
    const calendars = await Promise.all([...new Set(groups.map((group) => group.companyId))].map((id) => calendarOf(loaded, id, scope)))
    const rules = await Promise.all(groups.filter((group) => group.status === 1).map((group) => rulesOfGroup(loaded, group.id)))
    const facts = { locale, month, company: companyOf(groups, defaultZone), now }
    return attendanceSheetLayout(facts, dates, dayLooks(dates, calendars, rules))
  }

  return {
    /**
     * The month's attendance sheet (CONTRACT §12, §24): checked and audited before the first byte,
     * then streamed. Every row is judged at one moment, the request's: the same "today" for all.
     */
    async attendance(query: AttendanceExportQuery, actor: Actor, locale: Locale, headOnly = false): Promise<ExportFile> {
      const dates = monthDates(query.month)
      const problems: FieldError[] = []
      if (query.department_id !== undefined && !(await repo.departmentExists(db, query.department_id)))
        problems.push({ field: 'department_id', message: say.noDepartment({ id: query.department_id }) })
      if (query.group_id !== undefined && !(await repo.groupExists(db, query.group_id)))
        problems.push({ field: 'group_id', message: say.noGroup({ id: query.group_id }) })
      if (problems.length > 0)
        throw new ValidationError(messageList(problems.map((p) => say.filterProblem({ field: p.field, problem: p.message }))), problems)
      // HEAD: the answer's headers, checked as for GET; nothing exported, so nothing audited
      if (headOnly) return file('attendance', query.month, query.format, null)

      const now = clock.now()
      const layout = layoutOf(query.format, query.layout)
      const scope: repo.AttendanceScope = { first: dates[0], last: dates[dates.length - 1], departmentId: query.department_id, groupId: query.group_id }
      const rows = await repo.countAttendanceRows(db, scope)
      await audit(actor, now, 'attendance', query.month, {
        format: query.format,
        layout,
        department_id: query.department_id ?? null,
        group_id: query.group_id ?? null,
        rows,
      })
      const loaded: Loaded = { calendars: new Map(), rules: new Map() }
      const layouted = await attendanceLayout(layout, { month: query.month, locale, now }, scope, dates, loaded)
      return file('attendance', query.month, query.format, { ...layouted, pages: attendancePages(scope, dates, now, loaded, layout), created: now })
    },

    /** The month's salary register (CONTRACT §12, §24), with a last row of sums; audited before the first byte. */
    async salaries(query: SalaryExportQuery, actor: Actor, locale: Locale, headOnly = false): Promise<ExportFile> {
      monthDates(query.month)
      if (headOnly) return file('salaries', query.month, query.format, null)
      const now = clock.now()
      const layout = layoutOf(query.format, query.layout)
      const rows = await repo.countSalaryRows(db, query.month)
      await audit(actor, now, 'salaries', query.month, { format: query.format, layout, rows })
      const layouted: Layouted =
        layout === 'data'
          ? { name: `Salaries ${query.month}`, columns: SALARY_COLUMNS, frozenColumns: 2, totals: 'total' }
          : salarySheetLayout(
              { locale, month: query.month, company: companyOf(await repo.companiesOfSalaries(db, query.month), defaultZone), now },
              SALARY_COLUMNS,
            )
      return file('salaries', query.month, query.format, { ...layouted, pages: salaryPages(query.month, salaryRow(locale)), created: now })
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
