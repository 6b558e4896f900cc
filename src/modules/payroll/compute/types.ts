import type { RuleRow } from '../../attendance/setup/repository'
import type { DayKind } from '../../calendar/work-days'
import type { ApprovedLeave, MonthRecord } from '../../exports/attendance-sheet'

/*
 * What the payroll computation reads and returns (CONTRACT §16, §17). Every amount is integer fen;
 * every ratio (days per month, multipliers, tax rates) is an integer count of hundredths or a
 * decimal string, never a binary float. The functions that take these are pure: the service loads
 * the rows, these decide the figures, and the run stores what they returned.
 */

/**
 * What a line's figures came from. `leave_type` and `leave_ledger` are a leave payout's (CONTRACT
 * §18): the type (its payout_on_leaving, and the annual days it grants without a ledger row) and the
 * ledger rows its balance sums.
 */
export type SourceKind =
  | 'attendance_record'
  | 'leave_request'
  | 'correction'
  | 'calendar_day'
  | 'pay_profile'
  | 'payslip'
  | 'leave_type'
  | 'leave_ledger'
  | 'contribution_scheme'
  | 'tax_deduction'
export interface Source {
  kind: SourceKind
  id: number
}

/**
 * income: part of the wage; attendance: an attendance deduction (less from the wage payable);
 * deduction: taken from the wage payable; employer: the employer's cost beside the wage (its
 * contributions), in none of gross, deductions and net
 */
export type LineKind = 'income' | 'attendance' | 'deduction' | 'employer'

export type LineCode =
  | 'basic_salary'
  | 'seniority_pay'
  | 'allowance'
  | 'overtime_work_day'
  | 'overtime_rest_day'
  | 'overtime_statutory_holiday'
  | 'leave_payout'
  | 'performance_pay'
  | 'bonus'
  | 'other_income'
  | 'adjustment'
  | 'absence'
  | 'unpaid_leave'
  | 'unpaid_leave_hours'
  | 'lateness'
  | 'personal_insurance'
  | 'housing_fund'
  | 'personal_tax'
  | 'other_deductions'
  | 'employer_contributions'

/** A figure a line used: money in yuan (a number whose decimal spelling is exact, e.g. 919.54), days, minutes, ratios, months as 'YYYY-MM'. */
export type InputValue = number | string

export interface PayLine {
  code: LineCode
  kind: LineKind
  /** integer fen; positive except an `adjustment`, which may be negative */
  amount: number
  /** the arithmetic with its numbers, one or more `[name: ]expression = result` parts joined by '; ' (see formula.ts) */
  formula: string
  inputs: Record<string, InputValue>
  sources: Source[]
  /** for an `adjustment`: the month it corrects (shown in its label) */
  month?: string
}

/** A company's pay settings (CONTRACT §16), money in fen, ratios in hundredths. */
export interface PaySettings {
  proration: 'work_days' | 'calendar_days'
  /** 2175 = 21.75 */
  daysPerMonthHundredths: number
  latePerOccurrence: number
  latePerMinute: number
  /** null: the rule's allowed_late_days (as statistics count `late_days_allowed`) */
  lateFreeOccurrences: number | null
  /** null: the daily wage; else fen per absent day */
  absenceFixed: number | null
  /** 150 = 1.5 */
  overtimeWorkDay: number
  overtimeRestDay: number
  overtimeStatutoryHoliday: number
}

export const DEFAULT_PAY_SETTINGS: PaySettings = {
  proration: 'work_days',
  daysPerMonthHundredths: 2175,
  latePerOccurrence: 0,
  latePerMinute: 0,
  lateFreeOccurrences: null,
  absenceFixed: null,
  overtimeWorkDay: 150,
  overtimeRestDay: 200,
  overtimeStatutoryHoliday: 300,
}

export interface PayProfile {
  id: number
  effectiveMonth: string
  basicSalary: number
  seniorityPay: number
  allowance: number
  contributionBase: number
  housingFundBase: number
}

/** A date the company's calendar marks, with its row id (a `calendar_day` source) and whether it is a statutory holiday. */
export interface PayCalendarDay {
  id: number
  kind: DayKind
  name: string
  statutory: boolean
}
export type PayCalendar = ReadonlyMap<string, PayCalendarDay>

/** An attendance record of the month, with its id and the approved corrections behind it. */
export interface PayRecord extends MonthRecord {
  id: number
  correctionIds: readonly number[]
}

/** An approved leave request touching the month. */
export interface PayLeave extends ApprovedLeave {
  id: number
  /** the type's `paid`; false: unpaid leave, deducted */
  paid: boolean
  /** an hourly request's span (HH:MM) on startDate; null or absent: a request of days (CONTRACT §18) */
  startTime?: string | null
  endTime?: string | null
  /** half-days, or for an hourly request the minutes of work time it covers */
  amount?: number
}

/**
 * A leaver's remaining balance of a type with payout_on_leaving, paid on the payslip of the month of
 * their left_on (CONTRACT §18): the service reads it from the ledger; an approved month recomputed
 * reads it back from its payslip's line, as it was paid.
 */
export interface LeavePayout {
  typeId: number
  typeName: string
  /** the year of left_on, whose balance is paid */
  year: number
  /** the remaining balance paid, in half-days (> 0) */
  halfDays: number
  /** the ledger rows the balance sums, oldest first */
  ledgerIds: readonly number[]
}

/** What HR entered on the payslip (CONTRACT §16 inputs), fen. */
export interface EnteredInputs {
  performancePay: number
  bonus: number
  otherIncome: number
  otherDeductions: number
  note: string
}

export const NO_ENTERED_INPUTS: EnteredInputs = { performancePay: 0, bonus: 0, otherIncome: 0, otherDeductions: 0, note: '' }

/** An approved earlier month whose wage payable changed since its approval (CONTRACT §16 "after approval"). */
export interface AdjustmentInput {
  month: string
  /** that month's base gross computed now */
  recomputedGross: number
  /** the base gross its approved payslip holds */
  approvedGross: number
  /** adjustments for that month already carried by approved payslips since */
  carried: number
  /** the approved payslip, and what changed: the sources in one computation and not the other */
  sources: Source[]
}

/** The employee's year at this company before this month (CONTRACT §17 cumulative withholding), from their approved payslips of the year. */
export interface TaxYearToDate {
  /** the first month of the year with a payslip at this company; this month when none */
  firstMonth: string
  /** Σ gross of the earlier approved payslips of the year */
  gross: number
  /** Σ personal_insurance + housing_fund of them */
  contributions: number
  /** Σ personal_tax withheld by them */
  withheld: number
  /** those payslips' ids (the personal_tax line's sources) */
  payslipIds?: readonly number[]
}

/** Everything one employee's payslip for one month is computed from. */
export interface PayslipInput {
  /** 'YYYY-MM' */
  month: string
  /** the employee's work date now: a work day of the month not yet past is not missed */
  today: string
  employee: { id: number; hireDate: string | null; leftOn: string | null }
  /** the first date their attendance counts (company go-live and hire date, attendance/caller.ts `attendanceFrom`) */
  attendanceFrom: string | null
  /** the enabled rules of their attendance group (none: no work days) */
  rules: readonly RuleRow[]
  calendar: PayCalendar
  records: readonly PayRecord[]
  leave: readonly PayLeave[]
  profile: PayProfile
  settings: PaySettings
  entered: EnteredInputs
  adjustments: readonly AdjustmentInput[]
  /** remaining leave paid out on leaving (none but in the month of left_on) */
  payouts: readonly LeavePayout[]
  tax: TaxYearToDate
  /** the contribution scheme in effect for the month (CONTRACT §17); null: none, no contributions */
  scheme: ContributionScheme | null
  /** the employee's declaration of special additional deductions for the month's year; null: none */
  declaration: TaxDeclaration | null
}

export type ItemCode = 'pension' | 'medical' | 'unemployment' | 'work_injury' | 'maternity' | 'housing_fund'
/** The order items are kept, shown and summed in. */
export const ITEM_CODES: readonly ItemCode[] = ['pension', 'medical', 'unemployment', 'work_injury', 'maternity', 'housing_fund']

/** One insurance (or the housing fund) of a scheme: rates in ten-thousandths (800 = 0.08); bases and the fixed amount in fen. */
export interface SchemeItem {
  code: ItemCode
  employeeRate: number
  employerRate: number
  baseMin: number
  baseMax: number
  employeeFixed: number
}

export interface ContributionScheme {
  id: number
  name: string
  /** 'YYYY-MM' */
  effectiveFrom: string
  /** in ITEM_CODES order */
  items: readonly SchemeItem[]
}

/** A year's special additional deductions (CONTRACT §17): the monthly total, counted for months from `fromMonth` on. */
export interface TaxDeclaration {
  id: number
  /** 'YYYY-MM' */
  fromMonth: string
  /** fen a month, within the caps */
  monthlyTotal: number
}

/** The attendance figures a payslip used: the same numbers statistics and the monthly sheet give over the employed part of the month. */
export interface MonthFacts {
  /** the employed part of the month: [from, to] */
  from: string
  to: string
  workDaysOfMonth: number
  employedWorkDays: number
  calendarDaysOfMonth: number
  employedCalendarDays: number
  absentDays: number
  unpaidLeaveDays: number
  /** minutes of approved hourly leave of unpaid types on work days of the employed part from the attendance start (never in unpaidLeaveDays) */
  unpaidLeaveMinutes: number
  lateOccurrences: number
  freeLateOccurrences: number
  /** minutes of overtime by the kind of its record's day */
  overtimeMinutes: { workDay: number; restDay: number; statutoryHoliday: number }
}

export interface Payslip {
  lines: PayLine[]
  /** the wage payable: income lines less the attendance lines */
  gross: number
  /** the gross without adjustment lines: what a later adjustment compares against */
  baseGross: number
  deductions: number
  net: number
  /** the employer's contributions (the employer line), fen */
  employerContributions: number
  /** this month's special additional deductions counted, fen */
  specialDeductions: number
  facts: MonthFacts
}
