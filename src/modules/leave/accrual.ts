import { isLeapYear } from '../../lib/dates'
import { daysBetween } from '../../lib/local-time'

/*
 * Leave that accrues (CONTRACT §18), as pure functions of dates and half-days: what a type grants
 * an employee in a year or a month, and what a year's close and a carry's expiry move. The job
 * (./accrual-job.ts) writes each as a ledger row named by its `event`, once per employee and type.
 *
 * Decided where the contract is silent:
 * - Years of work are whole years from `work_start_date` (else the hire date) to the date; with
 *   neither there are none, so a seniority tier gives nothing.
 * - A year in which the employee's tier changes (their first year of work ends, or they pass 10 or
 *   20 years) is prorated by the days under each tier, rounded down to a whole day, as the hire
 *   year is: China's regulation counts leave by the days worked under each entitlement.
 * - A monthly grant is due on the 1st of a month the employee is employed on (hired on or before
 *   it, not left before it); the tier is the one on that 1st.
 */

export type Accrual = 'none' | 'yearly' | 'monthly'

export interface Tier {
  fromYears: number
  halfDays: number
}

export interface AccrualType {
  accrual: Accrual
  annualHalfDays: number
  /** ascending by fromYears; null: annualHalfDays for everyone */
  tiers: readonly Tier[] | null
  carryOverMaxHalfDays: number
  /** MM-DD */
  carryOverExpires: string | null
}

export interface AccrualEmployee {
  hireDate: string | null
  workStartDate: string | null
  leftOn: string | null
}

/** Whole years from `start` to `date` (a 29 February start has its anniversary on 1 March). */
export function yearsOfWork(start: string | null, date: string): number {
  if (start === null || date < start) return 0
  const years = Number(date.slice(0, 4)) - Number(start.slice(0, 4))
  return date.slice(5) < start.slice(5) ? years - 1 : years
}

/** The half-days a year of the type is worth to someone with `years` of work. */
export function annualHalfDaysAt(type: Pick<AccrualType, 'annualHalfDays' | 'tiers'>, years: number): number {
  if (type.tiers === null) return type.annualHalfDays
  let found = 0
  for (const tier of type.tiers) if (tier.fromYears <= years) found = tier.halfDays
  return found
}

const workStart = (employee: AccrualEmployee) => employee.workStartDate ?? employee.hireDate

/** The anniversary of `start` in `year` (29 February: 1 March in a common year). */
function anniversary(start: string, year: number): string {
  const date = `${String(year).padStart(4, '0')}${start.slice(4)}`
  return start.slice(5) === '02-29' && !isLeapYear(year) ? `${date.slice(0, 5)}03-01` : date
}

/**
 * The yearly grant of `year` (granted on 1 January): the year's half-days by the tier of each day
 * from the later of 1 January and the hire date to 31 December. A whole year under one figure is
 * that figure; any other year is prorated by its days and rounded down to a whole day.
 */
export function yearlyGrant(type: Pick<AccrualType, 'annualHalfDays' | 'tiers'>, employee: AccrualEmployee, year: number): number {
  const yearText = String(year).padStart(4, '0')
  const first = `${yearText}-01-01`
  const last = `${yearText}-12-31`
  if (employee.leftOn !== null && employee.leftOn < first) return 0
  const from = employee.hireDate !== null && employee.hireDate > first ? employee.hireDate : first
  if (from > last) return 0
  // the figure changes at most once in a year, on an anniversary of the work start
  const start = workStart(employee)
  const turn = type.tiers !== null && start !== null ? anniversary(start, year) : null
  const segments: [string, string | null][] = turn !== null && turn > from && turn <= last ? [[from, turn], [turn, null]] : [[from, null]]
  const weighted = segments.map(([at, next]) => {
    const halfDays = annualHalfDaysAt(type, yearsOfWork(start, at))
    return { halfDays, days: next === null ? daysBetween(at, last) + 1 : daysBetween(at, next) }
  })
  if (from === first && weighted.length === 1) return weighted[0].halfDays
  // Σ half-days × days ÷ days of the year, in whole days (2 half-days), rounded down
  const sum = weighted.reduce((total, s) => total + s.halfDays * s.days, 0)
  return Math.floor(sum / (2 * (isLeapYear(year) ? 366 : 365))) * 2
}

/** The 1sts of `year` up to `through` (a date) on which the employee is employed. */
function monthsEmployed(employee: AccrualEmployee, year: number, through: string): string[] {
  const firsts: string[] = []
  for (let month = 1; month <= 12; month++) {
    const first = `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-01`
    if (first > through) break
    if (employee.hireDate !== null && employee.hireDate > first) continue
    if (employee.leftOn !== null && employee.leftOn < first) continue
    firsts.push(first)
  }
  return firsts
}

/**
 * The monthly grants of `year` due by `through`: on each 1st employed, annual ÷ 12 (the tier of
 * that 1st) in whole half-days, the remainder carried to the next month (the cumulative figure
 * rounded down, less what the months before granted). Months whose grant rounds to 0 are left out.
 */
export function monthlyGrants(type: Pick<AccrualType, 'annualHalfDays' | 'tiers'>, employee: AccrualEmployee, year: number, through: string): { month: string; halfDays: number }[] {
  const start = workStart(employee)
  const grants: { month: string; halfDays: number }[] = []
  let twelfths = 0
  let granted = 0
  for (const first of monthsEmployed(employee, year, through)) {
    twelfths += annualHalfDaysAt(type, yearsOfWork(start, first))
    const due = Math.floor(twelfths / 12) - granted
    granted += due
    if (due !== 0) grants.push({ month: first.slice(0, 7), halfDays: due })
  }
  return grants
}

/** A year's close: of what remains, up to `carryOverMaxHalfDays` moves to the next year and the rest lapses. */
export function closeYear(remainingHalfDays: number, carryOverMaxHalfDays: number): { carried: number; lapsed: number } {
  if (remainingHalfDays <= 0) return { carried: 0, lapsed: 0 }
  const carried = Math.min(remainingHalfDays, carryOverMaxHalfDays)
  return { carried, lapsed: remainingHalfDays - carried }
}

/**
 * Carried days not used by their expiry lapse: days used in the new year by leave starting on or
 * before the expiry date are taken from the carried days first. Never more than what remains.
 */
export function expireCarry(carriedHalfDays: number, usedHalfDays: number, remainingHalfDays: number): number {
  return Math.max(0, Math.min(carriedHalfDays - usedHalfDays, remainingHalfDays))
}

/** The date in `year` after which carried days lapse (MM-DD; 29 February in a common year is the 28th). */
export function expiryDate(expires: string, year: number): string {
  const date = `${String(year).padStart(4, '0')}-${expires}`
  return expires === '02-29' && !isLeapYear(year) ? `${date.slice(0, 5)}02-28` : date
}

/** The events and their ledger rows (CONTRACT §18), named once per employee and type. */
export const EVENTS = {
  grant: (period: string) => `grant ${period}`,
  carryOut: (year: number) => `carry out ${year}`,
  carryIn: (year: number) => `carry in ${year}`,
  lapse: (year: number) => `lapse ${year}`,
  expire: (year: number) => `expire ${year}`,
}
