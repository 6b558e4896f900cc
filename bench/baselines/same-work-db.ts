/**
 * The database side of B4/B5 (same-work-server.ts): the seeded file opened through the `libsql`
 * driver as Workforce opens it (WAL, synchronous NORMAL, a 64 MiB page cache, a 5 s busy
 * timeout, no checkpoint on commit but Workforce's checkpointer thread nudged by every clock-in:
 * src/db/client.ts, src/db/embedded.ts, src/db/checkpointer.ts), and the statements S1 and S2 run, with
 * the SQL text Drizzle builds for them, prepared once and read as arrays of numbers (no BigInts,
 * no row objects). run.ts checks that these are exactly the statements Workforce ran.
 */
import Database from 'libsql'
import { createCheckpointer } from '../../src/db/checkpointer'
import type { RuleRow } from '../../src/modules/attendance/setup/repository'
import { timeOffOf } from '../../src/modules/leave/repository'

function indexOf<C extends string>(columns: readonly C[]): Record<C, number> {
  return Object.fromEntries(columns.map((column, i) => [column, i])) as Record<C, number>
}

/** The caller: account, linked employee, enabled roles and their permissions (src/modules/rbac/repository.ts `findPrincipal`). */
export const PRINCIPAL_SQL = `select "users"."id", "users"."status", "users"."token_version", "employees"."id", "roles"."name", "permissions"."name" from "users" left join "employees" on "employees"."user_id" = "users"."id" left join "user_roles" on "user_roles"."user_id" = "users"."id" left join "roles" on ("roles"."id" = "user_roles"."role_id" and "roles"."status" = ?) left join "role_permissions" on "role_permissions"."role_id" = "roles"."id" left join "permissions" on "permissions"."id" = "role_permissions"."permission_id" where "users"."id" = ?`

/** The caller's employee, group, company zone and attendance start (attendance/setup/repository.ts `membershipOf`). */
export const MEMBERSHIP_SQL = `select "employees"."hire_date", "employees"."status", "attendance_groups"."id", "attendance_groups"."name", "attendance_groups"."description", "attendance_groups"."company_id", "attendance_groups"."manager_id", "attendance_groups"."timezone", "attendance_groups"."status", "attendance_groups"."created_at", "attendance_groups"."updated_at", "companies"."timezone", "companies"."attendance_starts_on" from "employees" left join "attendance_group_members" on "attendance_group_members"."employee_id" = "employees"."id" left join "attendance_groups" on "attendance_groups"."id" = "attendance_group_members"."group_id" left join "companies" on "companies"."id" = "attendance_groups"."company_id" where "employees"."id" = ? limit ?`

const RULE_COLUMNS = [
  'id', 'group_id', 'name', 'description', 'work_start_time', 'work_end_time', 'break_start_time', 'break_end_time', 'late_grace_period',
  'early_grace_period', 'required_work_hours', 'allowed_late_days', 'location_required', 'allowed_latitude', 'allowed_longitude',
  'location_radius', 'work_days', 'flexible_time', 'overtime_threshold_minutes', 'status', 'created_at', 'updated_at',
] as const
/** Where each column is in a rule row. */
const RULE = indexOf(RULE_COLUMNS)

/** A group's enabled rules, lowest id first (`enabledRulesOfGroup`). */
export const RULES_SQL = `select ${RULE_COLUMNS.map((column) => `"${column}"`).join(', ')} from "attendance_rules" where ("attendance_rules"."group_id" = ? and "attendance_rules"."status" = ?) order by "attendance_rules"."id" asc`

/** How the company calendar marks a date (calendar/repository.ts `kindOn`). */
export const KIND_SQL = `select "kind" from "calendar_days" where ("calendar_days"."company_id" = ? and "calendar_days"."date" = ?) limit ?`

/** Half a day and hours of approved leave on a date (leave/repository.ts `timeOffNow`). */
export const TIME_OFF_SQL = `select "half_day", "start_time", "end_time" from "leave_requests" where ("leave_requests"."employee_id" = ? and "leave_requests"."start_date" = ? and "leave_requests"."status" = ? and ("leave_requests"."half_day" is not null or "leave_requests"."start_time" is not null))`

const RECORD_COLUMNS = [
  'id', 'employee_id', 'rule_id', 'group_id', 'work_date', 'timezone', 'shift_start', 'shift_end', 'work_date_end', 'break_start',
  'break_end', 'late_grace_period', 'early_grace_period', 'required_work_hours', 'flexible_time', 'is_work_day', 'overtime_from',
  'overtime_threshold', 'clock_in_time', 'clock_out_time', 'clock_in_lat', 'clock_in_lng', 'clock_out_lat', 'clock_out_lng', 'status',
  'work_minutes', 'late_minutes', 'early_minutes', 'overtime_minutes', 'corrected', 'imported', 'note', 'created_at', 'updated_at',
] as const
/** Where each column is in a record row. */
export const RECORD = indexOf(RECORD_COLUMNS)
const recordList = RECORD_COLUMNS.map((column) => `"${column}"`).join(', ')

/**
 * The clock-in (attendance/repository.ts `clockInInsert`): INSERT … SELECT that inserts nothing
 * while the employee has a clock-in on a later date or an open record of an earlier one not over
 * yet, RETURNING the whole row. Parameters: the 30 values, then the employee, work date, employee,
 * clock-in time, work date of the two NOT EXISTS. It returns what the clock-in answers with (CLOCKED_IN).
 */
export const CLOCK_IN_SQL = `insert into "attendance_records" (${recordList}) select null, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, null, ?, ?, null, null, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? where not exists (select 1 from "attendance_records" where "attendance_records"."employee_id" = ? and "attendance_records"."work_date" > ? and "attendance_records"."clock_in_time" is not null) and not exists (select 1 from "attendance_records" where "attendance_records"."employee_id" = ? and clock_in_time IS NOT NULL AND clock_out_time IS NULL AND status <> 4 and "attendance_records"."work_date_end" > ? and "attendance_records"."work_date" < ?) returning "id", "work_date", "status", "late_minutes"`

/** Where each column is in the row a clock-in returns. */
export const CLOCKED_IN = indexOf(['id', 'work_date', 'status', 'late_minutes'] as const)

/** Why a clock-in inserted nothing (`refusingRecord`); only on a refusal. */
const REFUSING_SQL = `select "work_date" from "attendance_records" where ("attendance_records"."employee_id" = ? and "attendance_records"."clock_in_time" is not null and ("attendance_records"."work_date" > ? or (clock_in_time IS NOT NULL AND clock_out_time IS NULL AND status <> 4 and "attendance_records"."work_date_end" > ? and "attendance_records"."work_date" < ?))) order by "attendance_records"."work_date" desc limit ?`

/** The caller's record of a work date, with the employee's name and phone (`findRecordOn`). */
export const RECORD_ON_SQL = `select ${RECORD_COLUMNS.map((column) => `"attendance_records"."${column}"`).join(', ')}, "employees"."name", "employees"."phone" from "attendance_records" left join "employees" on "employees"."id" = "attendance_records"."employee_id" where ("attendance_records"."employee_id" = ? and "attendance_records"."work_date" = ?) limit ?`

/** A rule with its group's name, for a record whose rule is not among the caller's (`findRule`); only then. */
const RULE_BY_ID_SQL = `select ${RULE_COLUMNS.map((column) => `"attendance_rules"."${column}"`).join(', ')}, "attendance_groups"."name" from "attendance_rules" left join "attendance_groups" on "attendance_groups"."id" = "attendance_rules"."group_id" where "attendance_rules"."id" = ? limit ?`

const SALARY_COLUMNS = [
  'id', 'employee_id', 'month', 'status', 'payment_date', 'category_id', 'basic_salary', 'seniority_pay', 'performance_pay', 'overtime_pay',
  'bonus', 'allowance', 'attendance_deduction', 'personal_insurance', 'personal_tax', 'housing_fund', 'other_deductions', 'total_income',
  'total_deductions', 'net_salary', 'remarks', 'created_at', 'updated_at',
] as const
/** Where each column is in a salary row (the employee's name follows the last). */
export const SALARY = indexOf(SALARY_COLUMNS)

/** A month's salary of the caller, with the employee's name (salaries/repository.ts `findSalaryOf`). */
export const SALARY_SQL = `select ${SALARY_COLUMNS.map((column) => `"salaries"."${column}"`).join(', ')}, "employees"."name" from "salaries" left join "employees" on "employees"."id" = "salaries"."employee_id" where ("salaries"."employee_id" = ? and "salaries"."month" = ?) limit ?`

/** The statements a request of S1 or S2 can run, for run.ts to compare with what Workforce ran. */
export const HOT_STATEMENTS = [PRINCIPAL_SQL, MEMBERSHIP_SQL, RULES_SQL, KIND_SQL, TIME_OFF_SQL, CLOCK_IN_SQL, RECORD_ON_SQL, SALARY_SQL]

type Row = unknown[]

export interface Membership {
  hireDate: string | null
  status: number
  /** null outside a group */
  group: { id: number; name: string; companyId: number; timezone: string | null; status: number } | null
  companyTimezone: string | null
  companyStartsOn: string | null
}

/** A rule row as Workforce's policy code takes it (the shape Drizzle gives), built once per load of the group's rules. */
function ruleRow(row: Row): RuleRow {
  const at = <T>(column: keyof typeof RULE) => row[RULE[column]] as T
  return {
    id: at('id'),
    groupId: at('group_id'),
    name: at('name'),
    description: at('description'),
    workStartTime: at('work_start_time'),
    workEndTime: at('work_end_time'),
    breakStartTime: at('break_start_time'),
    breakEndTime: at('break_end_time'),
    lateGracePeriod: at('late_grace_period'),
    earlyGracePeriod: at('early_grace_period'),
    requiredWorkHours: at('required_work_hours'),
    allowedLateDays: at('allowed_late_days'),
    locationRequired: at('location_required') === 1,
    allowedLatitude: at('allowed_latitude'),
    allowedLongitude: at('allowed_longitude'),
    locationRadius: at('location_radius'),
    workDays: at('work_days'),
    flexibleTime: at('flexible_time') === 1,
    overtimeThresholdMinutes: at('overtime_threshold_minutes'),
    status: at('status'),
    createdAt: new Date(at<number>('created_at')),
    updatedAt: new Date(at<number>('updated_at')),
  }
}

export function openSameWork(path: string) {
  const db = new Database(path, { timeout: 5000 })
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA cache_size = -65536; PRAGMA wal_autocheckpoint = 0')
  const checkpointer = createCheckpointer(path)
  const prepare = (sql: string) => db.prepare(sql).raw(true)
  const principal = prepare(PRINCIPAL_SQL)
  const membership = prepare(MEMBERSHIP_SQL)
  const rules = prepare(RULES_SQL)
  const kind = prepare(KIND_SQL)
  const timeOff = prepare(TIME_OFF_SQL)
  const clockIn = prepare(CLOCK_IN_SQL)
  const refusing = prepare(REFUSING_SQL)
  const recordOn = prepare(RECORD_ON_SQL)
  const ruleById = prepare(RULE_BY_ID_SQL)
  const salary = prepare(SALARY_SQL)
  const health = prepare('SELECT 1')

  return {
    /** one row per (role, permission) of the user's enabled roles; none when the user is gone */
    principalRows: (userId: number) => principal.all([1, userId]) as Row[],
    membership(employeeId: number): Membership | null {
      const row = membership.get([employeeId, 1]) as Row | undefined
      if (!row) return null
      const [hireDate, status, groupId, groupName, , companyId, , timezone, groupStatus, , , companyTimezone, companyStartsOn] = row
      return {
        hireDate: hireDate as string | null,
        status: status as number,
        group: groupId === null ? null : { id: groupId as number, name: groupName as string, companyId: companyId as number, timezone: timezone as string | null, status: groupStatus as number },
        companyTimezone: companyTimezone as string | null,
        companyStartsOn: companyStartsOn as string | null,
      }
    },
    enabledRules: (groupId: number): RuleRow[] => (rules.all([groupId, 1]) as Row[]).map(ruleRow),
    kindOn: (companyId: number, date: string) => ((kind.get([companyId, date, 1]) as Row | undefined)?.[0] ?? null) as 'workday' | 'holiday' | null,
    timeOff: (employeeId: number, date: string) =>
      timeOffOf(
        (timeOff.all([employeeId, date, 'approved']) as Row[]).map(([halfDay, startTime, endTime]) => ({
          halfDay: halfDay as 'am' | 'pm' | null,
          startTime: startTime as string | null,
          endTime: endTime as string | null,
        })),
      ),
    /** the inserted row, or undefined when the employee's other records refuse it; throws on the unique (employee, date) index */
    insertClockIn(values: unknown[]) {
      const row = clockIn.get(values) as Row | undefined
      checkpointer.nudge()
      return row
    },
    refusingDate: (employeeId: number, workDate: string, at: number) =>
      ((refusing.get([employeeId, workDate, at, workDate, 1]) as Row | undefined)?.[0] ?? null) as string | null,
    /** the record columns (RECORD), then the employee's name and phone */
    recordOn: (employeeId: number, workDate: string) => recordOn.get([employeeId, workDate, 1]) as Row | undefined,
    ruleById(id: number): { rule: RuleRow; groupName: string | null } | null {
      const row = ruleById.get([id, 1]) as Row | undefined
      return row ? { rule: ruleRow(row), groupName: row[RULE_COLUMNS.length] as string | null } : null
    },
    /** the salary columns (SALARY), then the employee's name */
    salaryOf: (employeeId: number, month: string) => salary.get([employeeId, month, 1]) as Row | undefined,
    healthy: () => health.get([]) !== undefined,
    close() {
      void checkpointer.stop()
      db.close()
    },
  }
}

export type SameWorkDb = ReturnType<typeof openSameWork>
