import { describe, expect, test } from 'bun:test'
import { weekday } from '../../src/lib/local-time'
import { parseDecimal, equals, rational, type Rational } from '../../src/lib/rational'
import type { RuleRow } from '../../src/modules/attendance/setup/repository'
import { datesOf } from '../../src/modules/leave/repository'
import {
  computePayslip,
  DEFAULT_PAY_SETTINGS,
  evaluateFormula,
  formulaGives,
  monthBounds,
  monthFacts,
  NO_ENTERED_INPUTS,
  taxLine,
  taxTableFor,
  type PayCalendar,
  type PayLeave,
  type LineCode,
  type PayLine,
  type PayRecord,
  type PayslipInput,
  type Source,
  type TaxLineInput,
  type TaxTable,
} from '../../src/modules/payroll/compute'

/*
 * The payroll computation's pure part (src/modules/payroll/compute): hand-built months through
 * computePayslip, the tax line through the State Taxation Administration's example, and every line
 * read back by its formula. July 2024: the 1st is a Monday; Monday–Friday gives 23 work days.
 * October 2024: the 1st is a Tuesday; 23 weekdays, the 1st–3rd statutory holidays, the 4th and 7th
 * holidays that are not, Saturday the 12th a make-up work day: 23 − 5 + 1 = 19 work days.
 */

const RULE = {
  id: 1,
  groupId: 1,
  name: 'Office hours',
  description: '',
  workStartTime: '09:00',
  workEndTime: '18:00',
  breakStartTime: '12:00',
  breakEndTime: '13:00',
  lateGracePeriod: 0,
  earlyGracePeriod: 0,
  requiredWorkHours: 8,
  allowedLateDays: 1,
  locationRequired: false,
  allowedLatitude: null,
  allowedLongitude: null,
  locationRadius: 0,
  workDays: '1,2,3,4,5',
  flexibleTime: false,
  overtimeThresholdMinutes: 30,
  status: 1,
  createdAt: new Date(0),
  updatedAt: new Date(0),
} satisfies RuleRow

/** A record's id from its date: 2024-07-09 → 240709. */
const idOf = (date: string) => Number(date.replaceAll('-', '').slice(2))
const record = (workDate: string, fields: Partial<PayRecord> = {}): PayRecord => ({
  id: idOf(workDate),
  correctionIds: [],
  workDate,
  status: 0,
  clockedIn: true,
  lateMinutes: 0,
  earlyMinutes: 0,
  workMinutes: 480,
  overtimeMinutes: 0,
  ...fields,
})

const OCTOBER_CALENDAR: PayCalendar = new Map([
  ['2024-10-01', { id: 101, kind: 'holiday', name: 'National Day', statutory: true }],
  ['2024-10-02', { id: 102, kind: 'holiday', name: 'National Day', statutory: true }],
  ['2024-10-03', { id: 103, kind: 'holiday', name: 'National Day', statutory: true }],
  ['2024-10-04', { id: 104, kind: 'holiday', name: 'National Day (moved)', statutory: false }],
  ['2024-10-07', { id: 107, kind: 'holiday', name: 'National Day (moved)', statutory: false }],
  ['2024-10-12', { id: 112, kind: 'workday', name: 'Make-up day', statutory: false }],
])

/** A normal record on every work day of the month (by the rule and the calendar) but `skip`; `changed` replaces or adds records. */
function worked(month: string, calendar: PayCalendar, skip: string[] = [], changed: PayRecord[] = []): PayRecord[] {
  const { first, last } = monthBounds(month)
  const workDays = datesOf(first, last).filter((date) => {
    const kind = calendar.get(date)?.kind
    return kind === 'workday' || (kind !== 'holiday' && weekday(date) <= 5)
  })
  const byDate = new Map(workDays.filter((date) => !skip.includes(date)).map((date) => [date, record(date)]))
  for (const each of changed) byDate.set(each.workDate, each)
  return [...byDate.values()].sort((a, b) => (a.workDate < b.workDate ? -1 : 1))
}

const PROFILE = { id: 3, effectiveMonth: '2024-01', basicSalary: 10_000_00, seniorityPay: 500_00, allowance: 0, contributionBase: 0, housingFundBase: 0 }

function input(month: string, over: Partial<PayslipInput> = {}): PayslipInput {
  const calendar = over.calendar ?? (month === '2024-10' ? OCTOBER_CALENDAR : new Map())
  return {
    month,
    today: month === '2024-10' ? '2024-11-01' : '2024-08-01',
    employee: { id: 7, hireDate: '2020-03-01', leftOn: null },
    attendanceFrom: '2020-03-01',
    rules: [RULE],
    calendar,
    records: worked(month, calendar),
    leave: [],
    profile: PROFILE,
    settings: DEFAULT_PAY_SETTINGS,
    entered: NO_ENTERED_INPUTS,
    adjustments: [],
    payouts: [],
    tax: { firstMonth: month, gross: 0, contributions: 0, withheld: 0 },
    scheme: null,
    declaration: null,
    ...over,
  }
}

const PROFILE_SOURCE = [{ kind: 'pay_profile', id: 3 }]
const profileLine = (code: string, yuan: number, formula: string, employed: number, total: number, basis = 'work_days'): PayLine =>
  ({
    code,
    kind: 'income',
    amount: Math.round(yuan * 100),
    formula,
    inputs: basis === 'work_days'
      ? { [code]: code === 'basic_salary' ? 10000 : 500, employed_work_days: employed, work_days_of_month: total }
      : { [code]: code === 'basic_salary' ? 10000 : 500, employed_calendar_days: employed, calendar_days_of_month: total },
    sources: PROFILE_SOURCE,
  }) as PayLine
const fullProfile = (days: number) => [
  profileLine('basic_salary', 10000, `10000.00 × ${days} ÷ ${days} = 10000.00`, days, days),
  profileLine('seniority_pay', 500, `500.00 × ${days} ÷ ${days} = 500.00`, days, days),
]
const WAGE_INPUTS = { monthly_wage: 10500, days_per_month: 21.75 }

/** The tax line of a month that is the first of its tax year with nothing withheld (3 %, quick deduction 0). */
function firstTax(gross: string, taxable: string, tax: string): PayLine {
  const fen = (text: string) => Math.round(Number(text) * 100)
  return {
    code: 'personal_tax',
    kind: 'deduction',
    amount: fen(tax),
    formula: `taxable: max(0, ${gross} − 5000.00 × 1 − 0.00 − 0.00) = ${taxable}; tax: ${taxable} × 0.03 − 0.00 = ${tax}; this month: max(0, ${tax} − 0.00) = ${tax}`,
    inputs: {
      cumulative_gross: Number(gross),
      basic_deduction: 5000,
      months: 1,
      cumulative_contributions: 0,
      cumulative_special_deductions: 0,
      cumulative_taxable: Number(taxable),
      rate: 0.03,
      quick_deduction: 0,
      cumulative_tax: Number(tax),
      withheld: 0,
    },
    sources: [],
  }
}

const JULY_FACTS = {
  from: '2024-07-01',
  to: '2024-07-31',
  workDaysOfMonth: 23,
  employedWorkDays: 23,
  calendarDaysOfMonth: 31,
  employedCalendarDays: 31,
  absentDays: 0,
  unpaidLeaveDays: 0,
  unpaidLeaveMinutes: 0,
  lateOccurrences: 0,
  freeLateOccurrences: 0,
  overtimeMinutes: { workDay: 0, restDay: 0, statutoryHoliday: 0 },
}
const OCTOBER_FACTS = { ...JULY_FACTS, from: '2024-10-01', to: '2024-10-31', workDaysOfMonth: 19, employedWorkDays: 19 }

/** Every payslip input below, for the formula property at the end. */
const computed: PayslipInput[] = []
const payslipOf = (payslipInput: PayslipInput) => {
  computed.push(payslipInput)
  return computePayslip(payslipInput)
}

describe('computePayslip: a full month', () => {
  test('July worked in full, with a performance payment and another deduction entered', () => {
    const entered = { ...NO_ENTERED_INPUTS, performancePay: 2000_00, otherDeductions: 300_00, note: 'Q2 target' }
    expect(payslipOf(input('2024-07', { entered }))).toEqual({
      lines: [
        ...fullProfile(23),
        { code: 'performance_pay', kind: 'income', amount: 2000_00, formula: '2000.00 = 2000.00', inputs: { performance_pay: 2000 }, sources: [] },
        firstTax('12500.00', '7500.00', '225.00'),
        { code: 'other_deductions', kind: 'deduction', amount: 300_00, formula: '300.00 = 300.00', inputs: { other_deductions: 300 }, sources: [] },
      ],
      gross: 12500_00,
      baseGross: 12500_00,
      deductions: 525_00,
      net: 11975_00,
      employerContributions: 0,
      specialDeductions: 0,
      facts: JULY_FACTS,
    })
  })

  test('a month under the threshold: the tax line still appears, at 0.00', () => {
    const profile = { ...PROFILE, basicSalary: 4000_00, seniorityPay: 0 }
    const payslip = payslipOf(input('2024-07', { profile }))
    expect(payslip.lines.map((line) => [line.code, line.amount, line.formula])).toEqual([
      ['basic_salary', 4000_00, '4000.00 × 23 ÷ 23 = 4000.00'],
      ['personal_tax', 0, 'taxable: max(0, 4000.00 − 5000.00 × 1 − 0.00 − 0.00) = 0.00; tax: 0.00 × 0.03 − 0.00 = 0.00; this month: max(0, 0.00 − 0.00) = 0.00'],
    ])
    expect([payslip.gross, payslip.deductions, payslip.net]).toEqual([4000_00, 0, 4000_00])
  })
})

describe('computePayslip: joining or leaving inside the month', () => {
  test.each([
    // hired Monday 15 July: work days 15–19, 22–26, 29–31 = 13 of 23; calendar days 17 of 31
    ['joiner, work days', { hireDate: '2024-07-15', leftOn: null }, 'work_days', '2024-07-15', '2024-07-31', 13, 17, ['10000.00 × 13 ÷ 23 = 5652.17', '500.00 × 13 ÷ 23 = 282.61'], [5652_17, 282_61]],
    ['joiner, calendar days', { hireDate: '2024-07-15', leftOn: null }, 'calendar_days', '2024-07-15', '2024-07-31', 13, 17, ['10000.00 × 17 ÷ 31 = 5483.87', '500.00 × 17 ÷ 31 = 274.19'], [5483_87, 274_19]],
    // left Wednesday 10 July: work days 1–5, 8–10 = 8 of 23
    ['leaver, work days', { hireDate: '2019-01-01', leftOn: '2024-07-10' }, 'work_days', '2024-07-01', '2024-07-10', 8, 10, ['10000.00 × 8 ÷ 23 = 3478.26', '500.00 × 8 ÷ 23 = 173.91'], [3478_26, 173_91]],
  ] as const)('%s', (_, employee, proration, from, to, employedWorkDays, employedCalendarDays, formulas, amounts) => {
    const hire = employee.hireDate
    const payslip = payslipOf(
      input('2024-07', {
        employee: { id: 7, ...employee },
        attendanceFrom: hire,
        // nothing recorded outside the employment
        records: worked('2024-07', new Map()).filter((each) => each.workDate >= from && each.workDate <= to),
        settings: { ...DEFAULT_PAY_SETTINGS, proration },
      }),
    )
    const [employed, total] = proration === 'work_days' ? [employedWorkDays, 23] : [employedCalendarDays, 31]
    expect(payslip.lines.slice(0, 2)).toEqual([
      profileLine('basic_salary', amounts[0] / 100, formulas[0], employed, total, proration),
      profileLine('seniority_pay', amounts[1] / 100, formulas[1], employed, total, proration),
    ])
    expect(payslip.facts).toEqual({ ...JULY_FACTS, from, to, employedWorkDays, employedCalendarDays })
    expect(payslip.gross).toBe(amounts[0] + amounts[1])
  })

  test('a joiner on the last Wednesday, 31 July, by work days: 1 of 23; one joining on Saturday 31 August: no work day, so only the basic salary line, at 0.00', () => {
    const onWednesday = payslipOf(
      input('2024-07', { employee: { id: 7, hireDate: '2024-07-31', leftOn: null }, attendanceFrom: '2024-07-31', records: worked('2024-07', new Map()).filter((r) => r.workDate === '2024-07-31') }),
    )
    expect(onWednesday.lines.slice(0, 2)).toEqual([
      profileLine('basic_salary', 434.78, '10000.00 × 1 ÷ 23 = 434.78', 1, 23),
      profileLine('seniority_pay', 21.74, '500.00 × 1 ÷ 23 = 21.74', 1, 23),
    ])
    const onSaturday = payslipOf(input('2024-08', { employee: { id: 7, hireDate: '2024-08-31', leftOn: null }, attendanceFrom: '2024-08-31', records: [] }))
    // 500.00 × 0 ÷ 22 = 0.00: a seniority line of nothing does not appear
    expect(onSaturday.lines.map((line) => [line.code, line.amount])).toEqual([
      ['basic_salary', 0],
      ['personal_tax', 0],
    ])
  })

  test('an employee with no rule has no work days: proration falls back to calendar days', () => {
    const payslip = payslipOf(input('2024-07', { employee: { id: 7, hireDate: '2024-07-15', leftOn: null }, rules: [], records: [] }))
    expect(payslip.facts).toEqual({ ...JULY_FACTS, from: '2024-07-15', workDaysOfMonth: 0, employedWorkDays: 0, employedCalendarDays: 17 })
    expect(payslip.lines[0]).toEqual(profileLine('basic_salary', 5483.87, '10000.00 × 17 ÷ 31 = 5483.87', 17, 31, 'calendar_days'))
  })
})

describe('computePayslip: attendance deductions', () => {
  test('unpaid leave 1–9 October over the holidays: only the 8th and 9th are deducted; paid leave is not', () => {
    const leave: PayLeave[] = [
      { id: 40, startDate: '2024-10-01', endDate: '2024-10-09', halfDay: null, paid: false },
      { id: 41, startDate: '2024-10-10', endDate: '2024-10-10', halfDay: null, paid: true },
    ]
    const records = worked('2024-10', OCTOBER_CALENDAR, ['2024-10-08', '2024-10-09', '2024-10-10'])
    expect(payslipOf(input('2024-10', { leave, records }))).toEqual({
      lines: [
        ...fullProfile(19),
        {
          code: 'unpaid_leave',
          kind: 'attendance',
          amount: 965_52,
          formula: '10500.00 ÷ 21.75 × 2 = 965.52',
          inputs: { ...WAGE_INPUTS, unpaid_leave_days: 2 },
          sources: [{ kind: 'leave_request', id: 40 }],
        },
        firstTax('9534.48', '4534.48', '136.03'),
      ],
      gross: 9534_48,
      baseGross: 9534_48,
      deductions: 136_03,
      net: 9398_45,
      employerContributions: 0,
      specialDeductions: 0,
      facts: { ...OCTOBER_FACTS, unpaidLeaveDays: 2 },
    })
  })

  test('half a day of unpaid leave (the afternoon worked): 0.5 day', () => {
    const leave: PayLeave[] = [{ id: 50, startDate: '2024-07-10', endDate: '2024-07-10', halfDay: 'am', paid: false }]
    const payslip = payslipOf(input('2024-07', { leave }))
    expect(payslip.lines[2]).toEqual({
      code: 'unpaid_leave',
      kind: 'attendance',
      amount: 241_38,
      formula: '10500.00 ÷ 21.75 × 0.5 = 241.38',
      inputs: { ...WAGE_INPUTS, unpaid_leave_days: 0.5 },
      sources: [{ kind: 'leave_request', id: 50 }],
    })
    expect(payslip.facts).toEqual({ ...JULY_FACTS, unpaidLeaveDays: 0.5 })
    expect(payslip.gross).toBe(10258_62)
  })

  const absentRecord = record('2024-07-23', { status: 3, clockedIn: false, workMinutes: 0, correctionIds: [] })
  test.each([
    ['at the daily wage', null, '10500.00 ÷ 21.75 × 2 = 965.52', 965_52, { ...WAGE_INPUTS, absent_days: 2 }],
    ['at a fixed amount a day', 200_00, '200.00 × 2 = 400.00', 400_00, { absence_per_day: 200, absent_days: 2 }],
  ])('absence %s: the 22nd missed, the 23rd an absent record', (_, absenceFixed, formula, amount, inputs) => {
    const records = worked('2024-07', new Map(), ['2024-07-22'], [absentRecord])
    const payslip = payslipOf(input('2024-07', { records, settings: { ...DEFAULT_PAY_SETTINGS, absenceFixed } }))
    expect(payslip.lines[2]).toEqual({ code: 'absence', kind: 'attendance', amount, formula, inputs, sources: [{ kind: 'attendance_record', id: 240723 }] })
    expect(payslip.facts).toEqual({ ...JULY_FACTS, absentDays: 2 })
  })

  test('work days after today are not missed', () => {
    const records = worked('2024-07', new Map()).filter((each) => each.workDate < '2024-07-20')
    const payslip = payslipOf(input('2024-07', { records, today: '2024-07-20' }))
    expect(payslip.facts).toEqual(JULY_FACTS)
    expect(payslip.lines.map((line) => line.code)).toEqual(['basic_salary', 'seniority_pay', 'personal_tax'])
  })

  // late 10 minutes on the 2nd, 25 on the 9th (a correction behind it), 5 on the 16th (also early: status 2)
  const late = [
    record('2024-07-02', { status: 1, lateMinutes: 10 }),
    record('2024-07-09', { status: 1, lateMinutes: 25, correctionIds: [900] }),
    record('2024-07-16', { status: 2, lateMinutes: 5, earlyMinutes: 10 }),
  ]
  const counted9and16: Source[] = [
    { kind: 'attendance_record', id: 240709 },
    { kind: 'correction', id: 900 },
    { kind: 'attendance_record', id: 240716 },
  ]
  test.each([
    ['the rule allows one: the first is free', null, 1, '50.00 × 2 + 1.00 × 30 = 130.00', 130_00, counted9and16],
    ['the settings allow none', 0, 0, '50.00 × 3 + 1.00 × 40 = 190.00', 190_00, [{ kind: 'attendance_record' as const, id: 240702 }, ...counted9and16]],
  ])('three late days, %s', (_, lateFreeOccurrences, free, formula, amount, sources) => {
    const settings = { ...DEFAULT_PAY_SETTINGS, latePerOccurrence: 50_00, latePerMinute: 1_00, lateFreeOccurrences }
    const payslip = payslipOf(input('2024-07', { records: worked('2024-07', new Map(), [], late), settings }))
    const counted = 3 - free
    const minutes = free === 1 ? 30 : 40
    expect(payslip.lines[2]).toEqual({
      code: 'lateness',
      kind: 'attendance',
      amount,
      formula,
      inputs: { per_occurrence: 50, counted_occurrences: counted, per_minute: 1, counted_minutes: minutes, late_occurrences: 3, free_occurrences: free },
      sources,
    })
    expect(payslip.facts).toEqual({ ...JULY_FACTS, lateOccurrences: 3, freeLateOccurrences: free })
  })

  test('three late days, all free: no lateness line', () => {
    const settings = { ...DEFAULT_PAY_SETTINGS, latePerOccurrence: 50_00, lateFreeOccurrences: 5 }
    const payslip = payslipOf(input('2024-07', { records: worked('2024-07', new Map(), [], late), settings }))
    expect(payslip.lines.map((line) => line.code)).toEqual(['basic_salary', 'seniority_pay', 'personal_tax'])
    expect(payslip.facts).toEqual({ ...JULY_FACTS, lateOccurrences: 3, freeLateOccurrences: 3 })
  })
})

describe('computePayslip: overtime by the kind of its day', () => {
  test('a work day and the make-up Saturday ×1.5, a Saturday and a holiday that is not statutory ×2, a statutory holiday ×3', () => {
    const records = worked('2024-10', OCTOBER_CALENDAR, [], [
      record('2024-10-08', { overtimeMinutes: 150 }),
      record('2024-10-12', { overtimeMinutes: 30 }),
      record('2024-10-05', { overtimeMinutes: 240 }),
      record('2024-10-04', { overtimeMinutes: 60, correctionIds: [901] }),
      record('2024-10-01', { overtimeMinutes: 480 }),
    ])
    const overtime = (code: LineCode, minutes: number, multiplier: number, formula: string, amount: number, sources: Source[]): PayLine => ({
      code,
      kind: 'income',
      amount,
      formula,
      inputs: { ...WAGE_INPUTS, hours_per_day: 8, overtime_minutes: minutes, minutes_per_hour: 60, multiplier },
      sources,
    })
    expect(payslipOf(input('2024-10', { records }))).toEqual({
      lines: [
        ...fullProfile(19),
        overtime('overtime_work_day', 180, 1.5, '10500.00 ÷ 21.75 ÷ 8 × 180 ÷ 60 × 1.5 = 271.55', 271_55, [
          { kind: 'attendance_record', id: 241008 },
          { kind: 'attendance_record', id: 241012 },
        ]),
        overtime('overtime_rest_day', 300, 2, '10500.00 ÷ 21.75 ÷ 8 × 300 ÷ 60 × 2 = 603.45', 603_45, [
          { kind: 'attendance_record', id: 241004 },
          { kind: 'correction', id: 901 },
          { kind: 'attendance_record', id: 241005 },
        ]),
        overtime('overtime_statutory_holiday', 480, 3, '10500.00 ÷ 21.75 ÷ 8 × 480 ÷ 60 × 3 = 1448.28', 1448_28, [
          { kind: 'attendance_record', id: 241001 },
          { kind: 'calendar_day', id: 101 },
        ]),
        firstTax('12823.28', '7823.28', '234.70'),
      ],
      gross: 12823_28,
      baseGross: 12823_28,
      deductions: 234_70,
      net: 12588_58,
      employerContributions: 0,
      specialDeductions: 0,
      facts: { ...OCTOBER_FACTS, overtimeMinutes: { workDay: 180, restDay: 300, statutoryHoliday: 480 } },
    })
  })
})

describe('computePayslip: adjustments of approved months', () => {
  test('a negative adjustment is part of gross, not of baseGross; one of 0.00 does not appear', () => {
    const adjustments = [
      { month: '2024-06', recomputedGross: 9080_46, approvedGross: 10000_00, carried: 0, sources: [{ kind: 'payslip' as const, id: 77 }] },
      { month: '2024-05', recomputedGross: 10500_00, approvedGross: 10482_76, carried: 17_24, sources: [{ kind: 'payslip' as const, id: 66 }] },
    ]
    const payslip = payslipOf(input('2024-07', { adjustments }))
    expect(payslip.lines[2]).toEqual({
      code: 'adjustment',
      kind: 'income',
      amount: -919_54,
      formula: '9080.46 − 10000.00 − 0.00 = -919.54',
      inputs: { month: '2024-06', recomputed_gross: 9080.46, approved_gross: 10000, carried: 0 },
      sources: [{ kind: 'payslip', id: 77 }],
      month: '2024-06',
    })
    expect(payslip.lines.filter((line) => line.code === 'adjustment')).toHaveLength(1)
    expect([payslip.gross, payslip.baseGross]).toEqual([9580_46, 10500_00])
  })
})

describe('computePayslip: hourly leave and the payout on leaving (CONTRACT §18)', () => {
  /** an hourly request on one date: `minutes` of work time its span covers (the 12:00–13:00 break excluded) */
  const hourly = (id: number, date: string, start: string, end: string, minutes: number, paid: boolean): PayLeave => ({
    id,
    startDate: date,
    endDate: date,
    halfDay: null,
    startTime: start,
    endTime: end,
    amount: minutes,
    paid,
  })

  test('unpaid hours: a line of their own at M ÷ D ÷ 8 × minutes ÷ 60, never an unpaid leave day; paid hours are not deducted', () => {
    const leave: PayLeave[] = [
      // 09:00–12:00 = 180 min and 11:00–14:30 = 60 + 90 = 150 min (the break excluded): 330 min unpaid
      hourly(60, '2024-07-10', '09:00', '12:00', 180, false),
      hourly(61, '2024-07-17', '11:00', '14:30', 150, false),
      // paid: no line
      hourly(62, '2024-07-18', '16:00', '18:00', 120, true),
    ]
    const payslip = payslipOf(input('2024-07', { leave }))
    // 10500.00 ÷ 21.75 ÷ 8 × 330 ÷ 60 = 10500 × 330 ÷ (21.75 × 480) = 3465000 ÷ 10440 = 331.8965… → 331.90
    expect(payslip.lines[2]).toEqual({
      code: 'unpaid_leave_hours',
      kind: 'attendance',
      amount: 331_90,
      formula: '10500.00 ÷ 21.75 ÷ 8 × 330 ÷ 60 = 331.90',
      inputs: { ...WAGE_INPUTS, hours_per_day: 8, unpaid_leave_minutes: 330, minutes_per_hour: 60 },
      sources: [
        { kind: 'leave_request', id: 60 },
        { kind: 'leave_request', id: 61 },
      ],
    })
    expect(payslip.lines.map((line) => line.code)).toEqual(['basic_salary', 'seniority_pay', 'unpaid_leave_hours', 'personal_tax'])
    expect(payslip.facts).toEqual({ ...JULY_FACTS, unpaidLeaveMinutes: 330 })
    // 10500.00 − 331.90
    expect(payslip.gross).toBe(10168_10)
  })

  test('a day and hours of unpaid leave: each its own line; hours outside the employed part or on a rest day are not counted', () => {
    const leave: PayLeave[] = [
      { id: 70, startDate: '2024-07-02', endDate: '2024-07-02', halfDay: null, amount: 2, paid: false },
      hourly(71, '2024-07-03', '14:00', '18:00', 240, false),
      // after left_on (Wednesday the 10th)
      hourly(72, '2024-07-11', '09:00', '10:00', 60, false),
      // on Saturday the 6th, no work day (as statistics count leave_hours: work days only)
      hourly(73, '2024-07-06', '09:00', '10:00', 60, false),
    ]
    const payslip = payslipOf(
      input('2024-07', { employee: { id: 7, hireDate: '2019-01-01', leftOn: '2024-07-10' }, leave, records: worked('2024-07', new Map(), ['2024-07-02']).filter((r) => r.workDate <= '2024-07-10') }),
    )
    expect(payslip.lines.filter((line) => line.kind === 'attendance')).toEqual([
      {
        code: 'unpaid_leave',
        kind: 'attendance',
        // 10500.00 ÷ 21.75 × 1 = 482.7586… → 482.76
        amount: 482_76,
        formula: '10500.00 ÷ 21.75 × 1 = 482.76',
        inputs: { ...WAGE_INPUTS, unpaid_leave_days: 1 },
        sources: [{ kind: 'leave_request', id: 70 }],
      },
      {
        code: 'unpaid_leave_hours',
        kind: 'attendance',
        // 10500.00 ÷ 21.75 ÷ 8 × 240 ÷ 60 = 10500 × 4 ÷ 174 = 241.3793… → 241.38
        amount: 241_38,
        formula: '10500.00 ÷ 21.75 ÷ 8 × 240 ÷ 60 = 241.38',
        inputs: { ...WAGE_INPUTS, hours_per_day: 8, unpaid_leave_minutes: 240, minutes_per_hour: 60 },
        sources: [{ kind: 'leave_request', id: 71 }],
      },
    ])
    expect(payslip.facts).toMatchObject({ unpaidLeaveDays: 1, unpaidLeaveMinutes: 240, absentDays: 0 })
  })

  test('hours of leave are not a leave day: a work day with no record is still absent', () => {
    const leave = [hourly(80, '2024-07-22', '09:00', '11:00', 120, true)]
    const payslip = payslipOf(input('2024-07', { leave, records: worked('2024-07', new Map(), ['2024-07-22']) }))
    expect(payslip.facts).toEqual({ ...JULY_FACTS, absentDays: 1 })
    expect(payslip.lines.map((line) => line.code)).toEqual(['basic_salary', 'seniority_pay', 'absence', 'personal_tax'])
  })

  test('a leaver on Wednesday 10 July with 4.5 days of annual leave left: M ÷ D × 2 × 4.5, with the type and its ledger rows as sources', () => {
    const payslip = payslipOf(
      input('2024-07', {
        employee: { id: 7, hireDate: '2019-01-01', leftOn: '2024-07-10' },
        records: worked('2024-07', new Map()).filter((r) => r.workDate <= '2024-07-10'),
        payouts: [{ typeId: 9, typeName: 'Annual leave', year: 2024, halfDays: 9, ledgerIds: [31, 35] }],
      }),
    )
    expect(payslip.lines).toEqual([
      // employed work days 1–5, 8–10 = 8 of 23
      profileLine('basic_salary', 3478.26, '10000.00 × 8 ÷ 23 = 3478.26', 8, 23),
      profileLine('seniority_pay', 173.91, '500.00 × 8 ÷ 23 = 173.91', 8, 23),
      {
        code: 'leave_payout',
        kind: 'income',
        // 10500 × 2 × 4.5 ÷ 21.75 = 94500 ÷ 21.75 = 4344.8275… → 4344.83
        amount: 4344_83,
        formula: '10500.00 ÷ 21.75 × 2 × 4.5 = 4344.83',
        inputs: { ...WAGE_INPUTS, multiplier: 2, remaining_leave_days: 4.5, leave_type: 'Annual leave' },
        sources: [
          { kind: 'leave_type', id: 9 },
          { kind: 'leave_ledger', id: 31 },
          { kind: 'leave_ledger', id: 35 },
        ],
      },
      // 3478.26 + 173.91 + 4344.83 = 7997.00; (7997.00 − 5000.00) × 0.03 = 89.91
      firstTax('7997.00', '2997.00', '89.91'),
    ])
    expect([payslip.gross, payslip.baseGross, payslip.net]).toEqual([7997_00, 7997_00, 7907_09])
  })
})

describe('taxLine: cumulative withholding', () => {
  // the State Taxation Administration's example: 30,000 a month, insurance and fund 4,500, special deductions 4,000
  const sta = (month: string, withheldBefore: number, months: number): TaxLineInput => ({
    month,
    gross: 30000_00,
    contributions: 4500_00,
    declaration: { id: 21, fromMonth: '2024-01', monthlyTotal: 4000_00 },
    tax: { firstMonth: '2024-01', gross: 30000_00 * (months - 1), contributions: 4500_00 * (months - 1), withheld: withheldBefore, payslipIds: [11, 12].slice(0, months - 1) },
  })
  test.each([
    ['2024-01', 0, 1, 495_00, 'special deductions: 4000.00 × 1 = 4000.00; taxable: max(0, 30000.00 − 5000.00 × 1 − 4500.00 − 4000.00) = 16500.00; tax: 16500.00 × 0.03 − 0.00 = 495.00; this month: max(0, 495.00 − 0.00) = 495.00'],
    ['2024-02', 495_00, 2, 495_00, 'special deductions: 4000.00 × 2 = 8000.00; taxable: max(0, 60000.00 − 5000.00 × 2 − 9000.00 − 8000.00) = 33000.00; tax: 33000.00 × 0.03 − 0.00 = 990.00; this month: max(0, 990.00 − 495.00) = 495.00'],
    ['2024-03', 990_00, 3, 1440_00, 'special deductions: 4000.00 × 3 = 12000.00; taxable: max(0, 90000.00 − 5000.00 × 3 − 13500.00 − 12000.00) = 49500.00; tax: 49500.00 × 0.10 − 2520.00 = 2430.00; this month: max(0, 2430.00 − 990.00) = 1440.00'],
  ])('%s: %p withheld before → %p', (month, withheld, months, amount, formula) => {
    const line = taxLine(sta(month, withheld, months))
    expect(line).toEqual({
      code: 'personal_tax',
      kind: 'deduction',
      amount,
      formula,
      inputs: expect.any(Object),
      sources: [...[11, 12].slice(0, months - 1).map((id) => ({ kind: 'payslip' as const, id })), { kind: 'tax_deduction' as const, id: 21 }],
    })
    expect(formulaGives(line.formula, line.amount)).toBe(true)
  })

  test('March in full: the inputs name each figure', () => {
    expect(taxLine(sta('2024-03', 990_00, 3)).inputs).toEqual({
      cumulative_gross: 90000,
      basic_deduction: 5000,
      months: 3,
      cumulative_contributions: 13500,
      special_deductions_per_month: 4000,
      special_deduction_months: 3,
      cumulative_special_deductions: 12000,
      cumulative_taxable: 49500,
      rate: 0.1,
      quick_deduction: 2520,
      cumulative_tax: 2430,
      withheld: 990,
    })
  })

  const one = (gross: number, withheld = 0): TaxLineInput => ({
    month: '2024-01',
    gross,
    contributions: 0,
    declaration: null,
    tax: { firstMonth: '2024-01', gross: 0, contributions: 0, withheld },
  })
  test.each([
    ['taxable exactly 36,000.00: 3 %', one(41000_00), 1080_00, 'tax: 36000.00 × 0.03 − 0.00 = 1080.00'],
    ['taxable 36,000.01: 10 %', one(41000_01), 1080_00, 'tax: 36000.01 × 0.10 − 2520.00 = 1080.00'],
    ['taxable 36,000.05: 10 %, rounded half up', one(41000_05), 1080_01, 'tax: 36000.05 × 0.10 − 2520.00 = 1080.01'],
    ['taxable 1,000,000.00: 45 %', one(1005000_00), 268080_00, 'tax: 1000000.00 × 0.45 − 181920.00 = 268080.00'],
    ['taxable 0.17: 3 % rounds 0.0051 up to 0.01', one(5000_17), 1, 'tax: 0.17 × 0.03 − 0.00 = 0.01'],
    ['a negative gross: taxable 0', one(-200_00), 0, 'tax: 0.00 × 0.03 − 0.00 = 0.00'],
    ['more withheld than owed: 0', one(6000_00, 50_00), 0, 'tax: 1000.00 × 0.03 − 0.00 = 30.00'],
  ])('%s', (_, figures, amount, taxPart) => {
    const line = taxLine(figures)
    expect([line.amount, line.formula.split('; ')[1]]).toEqual([amount, taxPart])
    expect(formulaGives(line.formula, line.amount)).toBe(true)
  })

  test('the table is effective-dated: a month uses the latest table from before it', () => {
    const later: TaxTable = { from: '2030-01', basicDeductionPerMonth: 6000_00, brackets: [{ upTo: null, rate: '0.05', quickDeduction: 0 }] }
    const tables = [taxTableFor('2024-01'), later]
    expect(taxTableFor('2029-12', tables)).toBe(tables[0])
    expect(taxTableFor('2030-01', tables)).toBe(later)
    expect(taxLine({ ...one(10000_00), month: '2030-02', tax: { ...one(0).tax, firstMonth: '2030-02' } }, tables).formula).toBe(
      'taxable: max(0, 10000.00 − 6000.00 × 1 − 0.00 − 0.00) = 4000.00; tax: 4000.00 × 0.05 − 0.00 = 200.00; this month: max(0, 200.00 − 0.00) = 200.00',
    )
    expect(() => taxTableFor('2018-12')).toThrow(RangeError)
    expect(() => taxLine({ ...one(0), tax: { ...one(0).tax, firstMonth: '2024-02' } })).toThrow(RangeError)
  })
})

describe('monthFacts and monthBounds', () => {
  test.each([
    ['2024-02', '2024-02-01', '2024-02-29'],
    ['2023-02', '2023-02-01', '2023-02-28'],
    ['2024-12', '2024-12-01', '2024-12-31'],
    ['2024-04', '2024-04-01', '2024-04-30'],
    ['1900-02', '1900-02-01', '1900-02-28'],
    ['2000-02', '2000-02-01', '2000-02-29'],
    // the last month there is: no next month to step back from
    ['9999-12', '9999-12-01', '9999-12-31'],
  ])('%s: %s to %s', (month, first, last) => {
    expect(monthBounds(month)).toEqual({ first, last })
  })

  test('not employed in the month: nothing counted', () => {
    const facts = monthFacts(input('2024-07', { employee: { id: 7, hireDate: '2024-08-05', leftOn: null } }))
    expect([facts.employedWorkDays, facts.employedCalendarDays, facts.absentDays, facts.workDaysOfMonth]).toEqual([0, 0, 0, 23])
  })
})

describe('evaluateFormula: the grammar, exactly', () => {
  test.each([
    ['1 + 2 × 3 = 7.00', [rational(7)], [true]],
    ['(1 + 2) × 3 = 9.00', [rational(9)], [true]],
    ['10 ÷ 4 − 1 = 1.50', [rational(3, 2)], [true]],
    ['2 − 3 − 4 = -5.00', [rational(-5)], [true]],
    ['8 ÷ 4 ÷ 2 = 1.00', [rational(1)], [true]],
    ['max(0, 1.00 − 2.00) = 0.00', [rational(0)], [true]],
    ['max(-1, -2) = -1.00', [rational(-1)], [true]],
    ['9080.46 − 10000.00 − -5.00 = -914.54', [parseDecimal('-914.54')], [true]],
    ['10500.00 ÷ 21.75 × 2 = 965.52', [rational(28000, 29)], [true]],
    ['0.005 = 0.01', [rational(1, 200)], [true]],
    ['-0.005 = -0.01', [rational(-1, 200)], [true]],
    ['0.005 = 0.00', [rational(1, 200)], [false]],
    ['a: 1 ÷ 3 = 0.33; b c: 2 ÷ 3 = 0.67', [rational(1, 3), rational(2, 3)], [true, true]],
  ] as [string, Rational[], boolean[]][])('%s', (text, values, holds) => {
    const parts = evaluateFormula(text)
    expect(parts.map((each, at) => equals(values[at], each.exact))).toEqual(values.map(() => true))
    expect(parts.map((each) => each.holds)).toEqual(holds)
  })

  test('labels and stated results', () => {
    expect(evaluateFormula('taxable: max(0, 3 − 1) = 2.00; tax: 2.00 × 0.10 − 0.00 = 0.20').map(({ label, expression }) => [label, expression])).toEqual([
      ['taxable', 'max(0, 3 − 1)'],
      ['tax', '2.00 × 0.10 − 0.00'],
    ])
  })

  test.each([['1 - 2 = -1.00'], ['1 + = 1.00'], ['1 + 2'], ['1 + 2 = 3'], ['max(1) = 1.00'], ['(1 + 2 = 3.00'], ['1 2 = 3.00'], ['2 ÷ 0 = 0.00'], ['1 * 2 = 2.00']])(
    '%p is refused',
    (text) => {
      expect(() => evaluateFormula(text)).toThrow()
    },
  )

  test('formulaGives: every part holds and the last states the amount', () => {
    expect(formulaGives('10500.00 ÷ 21.75 × 2 = 965.52', 965_52)).toBe(true)
    expect(formulaGives('10500.00 ÷ 21.75 × 2 = 965.52', 965_51)).toBe(false)
    expect(formulaGives('a: 1 = 2.00; b: 2 = 2.00', 200)).toBe(false)
  })
})

describe('every line of every payslip above is what its formula says, from its own inputs', () => {
  const numbersOf = (expression: string) => expression.match(/-?\d+(?:\.\d+)?/g) ?? []
  test('recomputed exactly, each number an input or an earlier result (or the 0 of max)', () => {
    expect(computed.length).toBeGreaterThan(10)
    for (const payslipInput of computed)
      for (const line of computePayslip(payslipInput).lines) {
        expect([line.code, formulaGives(line.formula, line.amount)]).toEqual([line.code, true])
        const known = Object.values(line.inputs)
          .filter((value): value is number => typeof value === 'number')
          .map((value) => parseDecimal(String(value)))
        for (const part of evaluateFormula(line.formula)) {
          for (const number of numbersOf(part.expression)) {
            const value = parseDecimal(number)
            expect([line.code, number, value.num === 0n || known.some((each) => equals(each, value))]).toEqual([line.code, number, true])
          }
          known.push(part.stated)
        }
      }
  })
})
