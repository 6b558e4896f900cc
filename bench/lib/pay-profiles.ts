import type { Client } from '@libsql/client'
import { BulkInsert } from './bulk'
import type { Organization } from './organization'
import { basicIn, contributionBaseOf, seniorityIn } from './salary-rows'

/**
 * The company's pay settings as the benchmark seeds them (CONTRACT §16; money in fen, ratios in
 * hundredths): lateness costs something, so S11's lateness lines are real arithmetic, not zeros;
 * absence at the daily wage and the default overtime multipliers.
 */
export const BENCH_PAY_SETTINGS = {
  proration: 'work_days',
  daysPerMonthHundredths: 2175,
  latePerOccurrence: 20_00,
  latePerMinute: 50,
  lateFreeOccurrences: null,
  absenceFixed: null,
  overtimeWorkDay: 150,
  overtimeRestDay: 200,
  overtimeStatutoryHoliday: 300,
} as const

/** The months a profile takes effect: the first seeded month, then each January after it up to `lastMonth` (a yearly raise). */
export function profileMonths(firstMonth: string, lastMonth: string): string[] {
  const months = [firstMonth]
  for (let year = Number(firstMonth.slice(0, 4)) + 1; `${year}-01` <= lastMonth; year++) months.push(`${year}-01`)
  return months
}

/** A bank account number of 19 digits, the same for an employee in every profile. */
const accountOf = (employeeId: number) => `6222${String(employeeId * 7_919).padStart(15, '0')}`

/**
 * Every employee's pay profiles (one per month of `profileMonths`, the amounts the seeded salaries
 * of that month have) and the company's pay settings, in one transaction, as PUT …/pay-profile and
 * PUT …/pay-settings would have written them.
 */
export async function seedPayProfiles(
  client: Client,
  input: { org: Organization; firstMonth: string; lastMonth: string; at: number; rowsPerStatement: number },
) {
  const started = performance.now()
  const months = profileMonths(input.firstMonth, input.lastMonth)
  const tx = await client.transaction('write')
  let count = 0
  try {
    const s = BENCH_PAY_SETTINGS
    await tx.execute({
      sql: `INSERT INTO pay_settings (company_id, proration, days_per_month_hundredths, late_per_occurrence, late_per_minute, late_free_occurrences,
              absence_fixed, overtime_work_day, overtime_rest_day, overtime_statutory_holiday, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      args: [
        input.org.companyId,
        s.proration,
        s.daysPerMonthHundredths,
        s.latePerOccurrence,
        s.latePerMinute,
        s.lateFreeOccurrences,
        s.absenceFixed,
        s.overtimeWorkDay,
        s.overtimeRestDay,
        s.overtimeStatutoryHoliday,
        input.at,
        input.at,
      ],
    })
    const bulk = new BulkInsert(
      tx,
      'pay_profiles',
      ['employee_id', 'effective_month', 'basic_salary', 'seniority_pay', 'allowance', 'contribution_base', 'housing_fund_base', 'scheme_id', 'bank_account', 'created_at', 'updated_at'],
      input.rowsPerStatement,
    )
    for (const month of months)
      for (const profile of input.org.pay) {
        const basic = basicIn(profile, month)
        const base = contributionBaseOf(basic)
        await bulk.add([profile.employeeId, month, basic, seniorityIn(profile, month), profile.allowance, base, base, null, accountOf(profile.employeeId), input.at, input.at])
      }
    count = await bulk.finish()
    await tx.commit()
  } finally {
    tx.close()
  }
  return { count, months, ms: Math.round(performance.now() - started) }
}
