import type { InValue } from '@libsql/client'
import { computeTotals } from '../../src/modules/salaries/service'
import type { Random } from './random'

export const SALARY_COLUMNS = [
  'employee_id',
  'month',
  'status',
  'payment_date',
  'category_id',
  'basic_salary',
  'seniority_pay',
  'performance_pay',
  'overtime_pay',
  'bonus',
  'allowance',
  'attendance_deduction',
  'personal_insurance',
  'personal_tax',
  'housing_fund',
  'other_deductions',
  'total_income',
  'total_deductions',
  'net_salary',
  'remarks',
  'created_at',
  'updated_at',
] as const

/** What stays the same for an employee from month to month; amounts in fen. */
export interface PayProfile {
  employeeId: number
  hireDate: string
  basic: number
  allowance: number
  housingRate: number
}

const YUAN = 100
/** contribution base cap (yuan), as in Shanghai's social insurance rules */
const BASE_CAP = 36_549 * YUAN
const TAX_FREE = 5_000 * YUAN
/** monthly individual income tax brackets: upper bound of taxable income (yuan), rate %, quick deduction (yuan) */
const BRACKETS: [number, number, number][] = [
  [3_000, 3, 0],
  [12_000, 10, 210],
  [25_000, 20, 1_410],
  [35_000, 25, 2_660],
  [55_000, 30, 4_410],
  [80_000, 35, 7_160],
  [Infinity, 45, 15_160],
]

export function payProfile(random: Random, employeeId: number, hireDate: string): PayProfile {
  // 4,500 to about 45,000 yuan a month, most near the lower end
  const basic = Math.round(4_500 * 10 ** (random.next() ** 1.4)) * YUAN
  return { employeeId, hireDate, basic, allowance: random.int(3, 15) * 100 * YUAN, housingRate: random.chance(0.3) ? 12 : 7 }
}

/** Tax in fen on the month's income after insurance, housing fund and the 5,000 yuan allowance. */
export function monthlyTax(taxableFen: number): number {
  if (taxableFen <= 0) return 0
  const [, rate, quick] = BRACKETS.find(([upTo]) => taxableFen <= upTo * YUAN)!
  return Math.max(0, Math.round((taxableFen * rate) / 100) - quick * YUAN)
}

/** The months `count` back from the one before `month` (YYYY-MM), oldest first. */
export function monthsBefore(month: string, count: number): string[] {
  const months: string[] = []
  let year = Number(month.slice(0, 4))
  let m = Number(month.slice(5, 7))
  for (let i = 0; i < count; i++) {
    m -= 1
    if (m === 0) {
      m = 12
      year -= 1
    }
    months.push(`${year}-${String(m).padStart(2, '0')}`)
  }
  return months.reverse()
}

export function nextMonth(month: string): string {
  const [year, m] = [Number(month.slice(0, 4)), Number(month.slice(5, 7))]
  return m === 12 ? `${year + 1}-01` : `${year}-${String(m + 1).padStart(2, '0')}`
}

/**
 * One month's salary as the salary service stores it: amounts in fen, totals and net
 * computed by the service's own computeTotals. The newest month is still unconfirmed;
 * older ones are paid on the 10th of the next month, a few left unconfirmed.
 */
const yearsIn = (profile: PayProfile, month: string) => Math.max(0, Number(month.slice(0, 4)) - Number(profile.hireDate.slice(0, 4)))

/** The basic salary of `month` (fen): a 5% raise a year since hiring, in whole yuan. */
export function basicIn(profile: PayProfile, month: string): number {
  return Math.round((profile.basic * 1.05 ** Math.min(yearsIn(profile, month), 10)) / YUAN) * YUAN
}

/** The seniority pay of `month` (fen): 50 yuan a year since hiring, at most 1,500. */
export function seniorityIn(profile: PayProfile, month: string): number {
  return Math.min(yearsIn(profile, month) * 50, 1_500) * YUAN
}

/** The base of the social insurance contributions (fen): the basic salary, capped. */
export const contributionBaseOf = (basic: number) => Math.min(basic, BASE_CAP)

export function makeSalary(random: Random, profile: PayProfile, month: string, newest: boolean): InValue[] {
  const basic = basicIn(profile, month)
  const base = contributionBaseOf(basic)
  const hourly = basic / 21.75 / 8
  const dayRate = basic / 21.75
  const overtime = random.chance(0.3) ? Math.round(random.int(2, 30) * hourly * 1.5) : 0
  const halfYear = month.endsWith('-06') || month.endsWith('-12')
  const bonus = halfYear ? Math.round(basic / 2 / YUAN) * YUAN : random.chance(0.1) ? random.int(5, 30) * 100 * YUAN : 0
  const amounts = {
    basic_salary: basic,
    seniority_pay: seniorityIn(profile, month),
    performance_pay: Math.round((basic * random.int(0, 30)) / 100 / YUAN) * YUAN,
    overtime_pay: overtime,
    bonus,
    allowance: profile.allowance,
    attendance_deduction: random.chance(0.15) ? Math.round(random.int(1, 3) * dayRate * 0.5) : 0,
    personal_insurance: Math.round(base * 0.105),
    personal_tax: 0,
    housing_fund: Math.round((base * profile.housingRate) / 100 / YUAN) * YUAN,
    other_deductions: random.chance(0.05) ? random.int(50, 500) * YUAN : 0,
  }
  const income = amounts.basic_salary + amounts.seniority_pay + amounts.performance_pay + overtime + bonus + amounts.allowance
  amounts.personal_tax = monthlyTax(income - amounts.attendance_deduction - amounts.personal_insurance - amounts.housing_fund - TAX_FREE)
  const totals = computeTotals(amounts)
  if (totals.netSalary < 0) throw new Error(`negative net for employee ${profile.employeeId} in ${month}`)

  const paidMonth = nextMonth(month)
  const createdAt = Date.parse(`${paidMonth}-0${random.int(1, 3)}T02:00:00Z`) + random.int(0, 3_600_000)
  const paid = !newest && random.chance(0.98)
  const paymentDate = paid ? `${paidMonth}-10` : null
  const updatedAt = paid ? Date.parse(`${paymentDate}T03:00:00Z`) + random.int(0, 3_600_000) : createdAt
  const remarks = halfYear ? (month.endsWith('-12') ? 'Includes the year-end bonus' : 'Includes the mid-year bonus') : ''
  return [
    profile.employeeId,
    month,
    paid ? 1 : 0,
    paymentDate,
    null,
    amounts.basic_salary,
    amounts.seniority_pay,
    amounts.performance_pay,
    amounts.overtime_pay,
    amounts.bonus,
    amounts.allowance,
    amounts.attendance_deduction,
    amounts.personal_insurance,
    amounts.personal_tax,
    amounts.housing_fund,
    amounts.other_deductions,
    totals.totalIncome,
    totals.totalDeductions,
    totals.netSalary,
    remarks,
    createdAt,
    updatedAt,
  ]
}
