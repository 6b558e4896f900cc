import type { Client } from '@libsql/client'
import { BulkInsert } from './bulk'
import type { Organization } from './organization'
import type { Random } from './random'
import { SALARY_COLUMNS, makeSalary } from './salary-rows'

/** One salary per employee per month, a month at a time as payroll would add them, in one transaction. */
export async function seedSalaries(
  client: Client,
  random: Random,
  input: { org: Organization; months: string[]; rowsPerStatement: number },
) {
  const started = performance.now()
  const tx = await client.transaction('write')
  let count = 0
  try {
    const bulk = new BulkInsert(tx, 'salaries', SALARY_COLUMNS, input.rowsPerStatement)
    for (const [index, month] of input.months.entries()) {
      const newest = index === input.months.length - 1
      for (const profile of input.org.pay) await bulk.add(makeSalary(random, profile, month, newest))
    }
    count = await bulk.finish()
    await tx.commit()
  } finally {
    tx.close()
  }
  return { count, ms: Math.round(performance.now() - started) }
}
