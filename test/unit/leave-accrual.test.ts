import { describe, expect, test } from 'bun:test'
import { closeYear, expireCarry, expiryDate, monthlyGrants, yearlyGrant, yearsOfWork, type AccrualEmployee } from '../../src/modules/leave/accrual'

/*
 * The accrual rules of CONTRACT §18, each case worked by hand. Amounts are half-days (10 = 5 days).
 * China's statutory annual leave: 5 days from 1 year of work, 10 from 10, 15 from 20, nothing below 1.
 */

const STATUTORY = {
  annualHalfDays: 0,
  tiers: [
    { fromYears: 1, halfDays: 10 },
    { fromYears: 10, halfDays: 20 },
    { fromYears: 20, halfDays: 30 },
  ],
}
const flat = (days: number) => ({ annualHalfDays: days * 2, tiers: null })
const person = (hireDate: string | null, workStartDate: string | null = null, leftOn: string | null = null): AccrualEmployee => ({ hireDate, workStartDate, leftOn })

describe('years of work', () => {
  test.each([
    ['2014-07-01', '2026-07-01', 12],
    ['2014-07-01', '2026-06-30', 11],
    ['2026-03-01', '2026-12-31', 0],
    ['2026-03-01', '2026-02-01', 0],
    // a 29 February start: the anniversary of a common year is 1 March
    ['2020-02-29', '2021-02-28', 0],
    ['2020-02-29', '2021-03-01', 1],
    ['2020-02-29', '2024-02-29', 4],
  ] as const)('from %s to %s: %d', (start, date, years) => expect(yearsOfWork(start, date)).toBe(years))

  test('no start: none', () => expect(yearsOfWork(null, '2026-01-01')).toBe(0))
})

describe('yearly grants (on 1 January; prorated in the hire year, rounded down to a whole day)', () => {
  test.each([
    // a joiner on 1 July 2026 with 12 years of work: 10 days × 184 ÷ 365 = 5.04 → 5 days
    ['statutory: joiner on 1 July with 12 years of work', STATUTORY, person('2026-07-01', '2014-07-01'), 2026, 10],
    // the same joiner the next year: 12 years all year → 10 days, no proration
    ['statutory: their next year, whole', STATUTORY, person('2026-07-01', '2014-07-01'), 2027, 20],
    // first job, hired 1 March 2026: below one year all of 2026 → nothing
    ['statutory: first year of work → nothing', STATUTORY, person('2026-03-01'), 2026, 0],
    // 2027: one year on 1 March; 5 days × 306 ÷ 365 (1 March to 31 December) = 4.19 → 4 days
    ['statutory: reaching one year on 1 March', STATUTORY, person('2026-03-01'), 2027, 8],
    // crossing 10 years on 1 July 2026: 5 days × 181 ÷ 365 + 10 days × 184 ÷ 365 = (905 + 1840) ÷ 365 = 7.52 → 7 days
    ['statutory: crossing 10 years on 1 July', STATUTORY, person('2020-01-01', '2016-07-01'), 2026, 14],
    // crossing 20 years on 2 January: 10 × 1 ÷ 365 + 15 × 364 ÷ 365 = 5470 ÷ 365 = 14.99 → 14 days
    ['statutory: crossing 20 years on 2 January', STATUTORY, person('2010-01-01', '2006-01-02'), 2026, 28],
    // the anniversary on 1 January is a whole year under the new tier
    ['statutory: crossing on 1 January is a whole year', STATUTORY, person('2010-01-01', '2006-01-01'), 2026, 30],
    // a flat 12.5 days for a whole year: the figure itself, not rounded
    ['flat 12.5 days, a whole year', flat(12.5), person('2020-05-05'), 2026, 25],
    // a flat 10 days, hired 1 October 2026: 10 × 92 ÷ 365 = 2.52 → 2 days (not the whole year: counted from the hire date)
    ['flat 10 days, hired 1 October (regression: a joiner’s accrual counted from 1 January)', flat(10), person('2026-10-01'), 2026, 4],
    // a leap year: 10 × 184 ÷ 366 = 5.03 → 5 days
    ['flat 10 days, hired 1 July of a leap year', flat(10), person('2028-07-01'), 2028, 10],
    // hired 31 December: 10 × 1 ÷ 365 = 0.03 → 0
    ['flat 10 days, hired on 31 December', flat(10), person('2026-12-31'), 2026, 0],
    ['hired after the year', flat(10), person('2027-01-05'), 2026, 0],
    ['left before the year', flat(10), person('2020-01-01', null, '2025-12-31'), 2026, 0],
    // no hire date: employed all year
    ['no hire date', flat(10), person(null), 2026, 20],
    // tiers with no date to count years from: below every tier
    ['statutory without any date', STATUTORY, person(null), 2026, 0],
  ] as const)('%s', (_, type, employee, year, halfDays) => expect(yearlyGrant(type, employee, year)).toBe(halfDays))
})

describe('monthly grants (annual ÷ 12 on each 1st employed, in half-days, the remainder carried)', () => {
  test('5 days a year: 10 half-days by twelfths, floor(10k ÷ 12) cumulative', () => {
    // cumulative 0, 1, 2, 3, 4, 5, 5, 6, 7, 8, 9, 10: January and July grant nothing
    expect(monthlyGrants(flat(5), person('2020-01-01'), 2026, '2026-12-31')).toEqual(
      ['02', '03', '04', '05', '06', '08', '09', '10', '11', '12'].map((month) => ({ month: `2026-${month}`, halfDays: 1 })),
    )
  })

  test('up to a date: the 1sts on or before it', () => {
    expect(monthlyGrants(flat(12), person('2020-01-01'), 2026, '2026-03-31')).toEqual([
      { month: '2026-01', halfDays: 2 },
      { month: '2026-02', halfDays: 2 },
      { month: '2026-03', halfDays: 2 },
    ])
    expect(monthlyGrants(flat(12), person('2020-01-01'), 2026, '2026-02-28')).toHaveLength(2)
  })

  test('a joiner on 17 March: from 1 April; a leaver on 10 October: not on 1 November', () => {
    // April–December, 9 months of 10 ÷ 12: cumulative 0, 1, 2, 3, 4, 5, 5, 6, 7 → 7 half-days
    const joiner = monthlyGrants(flat(5), person('2026-03-17'), 2026, '2026-12-31')
    expect(joiner.map((grant) => grant.month)).toEqual(['2026-05', '2026-06', '2026-07', '2026-08', '2026-09', '2026-11', '2026-12'])
    expect(joiner.reduce((sum, grant) => sum + grant.halfDays, 0)).toBe(7)
    // January–October, 10 months of 24 ÷ 12 = 2 each
    const leaver = monthlyGrants(flat(12), person('2020-01-01', null, '2026-10-10'), 2026, '2026-12-31')
    expect(leaver.map((grant) => grant.month).at(-1)).toBe('2026-10')
    expect(leaver.reduce((sum, grant) => sum + grant.halfDays, 0)).toBe(20)
  })

  test('a tier crossed in the year counts from the 1st after it', () => {
    // 10 years on 15 June: January–June 1sts at 10 half-days a year, July–December at 20
    // cumulative twelfths: 10, 20, …, 60 (June), then 80, 100, …, 180 → floor ÷ 12: 0,1,2,3,4,5,6,8,10,11,13,15
    const grants = monthlyGrants(STATUTORY, person('2020-01-01', '2016-06-15'), 2026, '2026-12-31')
    expect(grants.reduce((sum, grant) => sum + grant.halfDays, 0)).toBe(15)
    expect(grants.find((grant) => grant.month === '2026-08')).toEqual({ month: '2026-08', halfDays: 2 })
  })
})

describe('the close of a year and the expiry of carried days', () => {
  test.each([
    [7, 10, { carried: 7, lapsed: 0 }],
    [15, 10, { carried: 10, lapsed: 5 }],
    [15, 0, { carried: 0, lapsed: 15 }],
    [0, 10, { carried: 0, lapsed: 0 }],
    [-3, 10, { carried: 0, lapsed: 0 }],
  ] as const)('remaining %d, at most %d carried → %o', (remaining, max, result) => expect(closeYear(remaining, max)).toEqual(result))

  test.each([
    // carried 6: 2 used before the expiry → 4 lapse; 8 used → none; what lapses never exceeds what remains
    [6, 2, 20, 4],
    [6, 8, 20, 0],
    [6, 0, 3, 3],
    [6, 0, -2, 0],
  ] as const)('carried %d, used %d, remaining %d → %d lapse', (carried, used, remaining, lapsed) =>
    expect(expireCarry(carried, used, remaining)).toBe(lapsed),
  )

  test('the expiry date of a year; 29 February in a common year is the 28th', () => {
    expect(expiryDate('03-31', 2027)).toBe('2027-03-31')
    expect(expiryDate('02-29', 2027)).toBe('2027-02-28')
    expect(expiryDate('02-29', 2028)).toBe('2028-02-29')
  })
})
