/**
 * B8's reading: every row a payroll run of one company and month needs, read raw, one statement
 * per table (no Drizzle, no service code), for the loop in payroll-loop.ts. Read with the `libsql`
 * driver, rows as arrays: the engine and binding Workforce's own database client (src/db/embedded.ts)
 * runs on, without its row building. (`@libsql/client`, as B6 reads, builds an object per row and
 * took about 1.5× as long for the month's 120,000 records here: a baseline slowed by its client
 * would make S11's ratio look better than it is.)
 */
import type Database from 'libsql'

export interface RawSettings {
  proration: string
  daysPerMonthHundredths: number
  latePerOccurrence: number
  latePerMinute: number
  lateFreeOccurrences: number | null
  absenceFixed: number | null
  overtime: { workDay: number; restDay: number; statutoryHoliday: number }
}

export interface RawEmployee {
  id: number
  hireDate: string | null
  leftOn: string | null
  profileId: number
  basic: number
  seniority: number
  allowance: number
}

export interface RawRule {
  id: number
  workDays: number[]
  allowedLateDays: number
}

export interface RawRecord {
  id: number
  employeeId: number
  workDate: string
  status: number
  clockedIn: boolean
  lateMinutes: number
  overtimeMinutes: number
}

export interface RawLeave {
  id: number
  employeeId: number
  startDate: string
  endDate: string
  half: boolean
  paid: boolean
}

export interface RawYearToDate {
  firstMonth: string
  gross: number
  contributions: number
  specialDeductions: number
  withheld: number
}

export interface PayrollRows {
  attendanceStartsOn: string | null
  settings: RawSettings
  /** by employee id, ascending */
  employees: RawEmployee[]
  rules: Map<number, RawRule[]>
  calendar: Map<string, { id: number; kind: string; statutory: boolean }>
  /** by employee, then date */
  records: RawRecord[]
  /** approved corrections of the month: record id → correction ids (the sources of a record's line) */
  corrections: Map<number, number[]>
  leave: Map<number, RawLeave[]>
  yearToDate: Map<number, RawYearToDate>
  /** rows read, per table */
  counts: Record<string, number>
  /** ms per statement */
  ms: Record<string, number>
}

const DEFAULT_SETTINGS: RawSettings = {
  proration: 'work_days',
  daysPerMonthHundredths: 2175,
  latePerOccurrence: 0,
  latePerMinute: 0,
  lateFreeOccurrences: null,
  absenceFixed: null,
  overtime: { workDay: 150, restDay: 200, statutoryHoliday: 300 },
}

const num = (value: unknown) => Number(value)
const textOrNull = (value: unknown) => (value === null ? null : String(value))

type Row = unknown[]

/** The rows of company `companyId`'s payroll for `month` (YYYY-MM) over [first, last]. */
export function readPayrollRows(db: InstanceType<typeof Database>, companyId: number, month: string, first: string, last: string): PayrollRows {
  const ms: Record<string, number> = {}
  const counts: Record<string, number> = {}
  const read = (name: string, sql: string, args: (string | number)[]) => {
    const started = performance.now()
    const rows = db.prepare(sql).raw(true).all(args) as Row[]
    ms[name] = performance.now() - started
    counts[name] = rows.length
    return rows
  }

  const [company] = read('companies', 'SELECT attendance_starts_on FROM companies WHERE id = ?', [companyId])
  const [s] = read(
    'pay_settings',
    `SELECT proration, days_per_month_hundredths, late_per_occurrence, late_per_minute, late_free_occurrences, absence_fixed,
            overtime_work_day, overtime_rest_day, overtime_statutory_holiday
     FROM pay_settings WHERE company_id = ?`,
    [companyId],
  )
  const settings: RawSettings = s
    ? {
        proration: String(s[0]),
        daysPerMonthHundredths: num(s[1]),
        latePerOccurrence: num(s[2]),
        latePerMinute: num(s[3]),
        lateFreeOccurrences: s[4] === null ? null : num(s[4]),
        absenceFixed: s[5] === null ? null : num(s[5]),
        overtime: { workDay: num(s[6]), restDay: num(s[7]), statutoryHoliday: num(s[8]) },
      }
    : DEFAULT_SETTINGS

  // employed in the month, with the latest profile effective by it
  const employees = read(
    'employees + pay_profiles',
    `SELECT e.id, e.hire_date, e.left_on, p.id, p.basic_salary, p.seniority_pay, p.allowance
     FROM employees e
     JOIN pay_profiles p ON p.employee_id = e.id
      AND p.effective_month = (SELECT max(q.effective_month) FROM pay_profiles q WHERE q.employee_id = e.id AND q.effective_month <= ?)
     WHERE e.company_id = ? AND (e.hire_date IS NULL OR e.hire_date <= ?) AND (e.left_on IS NULL OR e.left_on >= ?)
     ORDER BY e.id`,
    [month, companyId, last, first],
  ).map(
    ([id, hireDate, leftOn, profileId, basic, seniority, allowance]): RawEmployee => ({
      id: num(id),
      hireDate: textOrNull(hireDate),
      leftOn: textOrNull(leftOn),
      profileId: num(profileId),
      basic: num(basic),
      seniority: num(seniority),
      allowance: num(allowance),
    }),
  )

  const rules = new Map<number, RawRule[]>()
  for (const [employeeId, id, workDays, allowedLateDays] of read(
    'attendance_rules',
    `SELECT m.employee_id, r.id, r.work_days, r.allowed_late_days
     FROM attendance_group_members m
     JOIN attendance_groups g ON g.id = m.group_id AND g.company_id = ?
     JOIN attendance_rules r ON r.group_id = m.group_id AND r.status = 1
     ORDER BY m.employee_id, r.id`,
    [companyId],
  )) {
    const list = rules.get(num(employeeId)) ?? []
    list.push({ id: num(id), workDays: String(workDays).split(',').map(Number), allowedLateDays: num(allowedLateDays) })
    rules.set(num(employeeId), list)
  }

  const calendar = new Map<string, { id: number; kind: string; statutory: boolean }>()
  for (const [id, date, kind, statutory] of read(
    'calendar_days',
    'SELECT id, date, kind, statutory FROM calendar_days WHERE company_id = ? AND date >= ? AND date <= ?',
    [companyId, first, last],
  ))
    calendar.set(String(date), { id: num(id), kind: String(kind), statutory: num(statutory) === 1 })

  const records = read(
    'attendance_records',
    `SELECT r.id, r.employee_id, r.work_date, r.status, r.clock_in_time IS NOT NULL, r.late_minutes, r.overtime_minutes
     FROM attendance_records r JOIN employees e ON e.id = r.employee_id
     WHERE r.work_date >= ? AND r.work_date <= ? AND e.company_id = ?
     ORDER BY r.employee_id, r.work_date`,
    [first, last, companyId],
  ).map(
    ([id, employeeId, workDate, status, clockedIn, lateMinutes, overtimeMinutes]): RawRecord => ({
      id: id as number,
      employeeId: employeeId as number,
      workDate: workDate as string,
      status: status as number,
      clockedIn: clockedIn === 1,
      lateMinutes: lateMinutes as number,
      overtimeMinutes: overtimeMinutes as number,
    }),
  )

  const corrections = new Map<number, number[]>()
  for (const [id, recordId] of read(
    'attendance_corrections',
    "SELECT id, record_id FROM attendance_corrections WHERE status = 'approved' AND record_id IS NOT NULL AND work_date >= ? AND work_date <= ?",
    [first, last],
  ))
    corrections.set(num(recordId), [...(corrections.get(num(recordId)) ?? []), num(id)])

  const leave = new Map<number, RawLeave[]>()
  for (const [id, employee, startDate, endDate, halfDay, paid] of read(
    'leave_requests',
    `SELECT l.id, l.employee_id, l.start_date, l.end_date, l.half_day, t.paid
     FROM leave_requests l JOIN leave_types t ON t.id = l.type_id
     WHERE l.status = 'approved' AND l.start_date <= ? AND l.end_date >= ?`,
    [last, first],
  )) {
    const employeeId = num(employee)
    const list = leave.get(employeeId) ?? []
    list.push({ id: num(id), employeeId, startDate: String(startDate), endDate: String(endDate), half: halfDay !== null, paid: num(paid) === 1 })
    leave.set(employeeId, list)
  }

  // the year so far at this company (CONTRACT §17): the approved payslips of the year's earlier months
  const yearToDate = new Map<number, RawYearToDate>()
  for (const [employeeId, firstMonth, gross, contributions, special, withheld] of read(
    'payslips (year to date)',
    `SELECT s.employee_id, min(s.month), sum(s.gross), sum(s.personal_insurance + s.housing_fund), sum(s.special_deductions), sum(s.personal_tax)
     FROM payslips s JOIN payroll_runs r ON r.id = s.run_id
     WHERE r.company_id = ? AND r.status = 'approved' AND s.month >= ? AND s.month < ?
     GROUP BY s.employee_id`,
    [companyId, `${month.slice(0, 4)}-01`, month],
  ))
    yearToDate.set(num(employeeId), {
      firstMonth: String(firstMonth),
      gross: num(gross),
      contributions: num(contributions),
      specialDeductions: num(special),
      withheld: num(withheld),
    })

  return { attendanceStartsOn: company ? textOrNull(company[0]) : null, settings, employees, rules, calendar, records, corrections, leave, yearToDate, counts, ms }
}
