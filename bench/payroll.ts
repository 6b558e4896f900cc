/**
 * S11 and B8 alone, without the rest of the suite: seeds the benchmark database (the suite's
 * sizes: 5,500 employees × 182 work days, 20 months of salaries; no files, which payroll does not
 * read) unless --data names one already seeded, then measures B8, S11 (two runs) and one more
 * run under the CPU profiler, times the run's phases in this process (bench/lib/payroll-phases.ts), and prints the "Payroll run (S11) against B8" section of RESULTS.md
 * with the S11 ÷ B8 ratio and the memory growth against their targets.
 *
 *   bun bench/payroll.ts                              seed bench/.data/payroll, then measure (a few minutes)
 *   bun bench/payroll.ts --data bench/.data/payroll   measure again on the database seeded before
 *   bun bench/payroll.ts --smoke                      tiny data: checks S11 and B8 work
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { createClient } from '@libsql/client'
import { ArgsError, parseFlags, text, usage, wholeNumber, type FlagSpec } from './lib/args'
import { adminToken, signedInEmployees } from './lib/people'
import { ROOT, startServer } from './lib/server'
import { payrollBench, payrollMonth } from './scenarios/payroll-bench'
import { payrollSection } from './scenarios/payroll-profile'
import * as scenario from './scenarios/service'
import { seedDatabase } from './seed'
import { payrollPhases } from './lib/payroll-phases'

const FLAGS: Record<string, FlagSpec> = {
  data: { help: 'folder of a database seeded before (by this script or `bun run bench -- --medium`): measured as it is' },
  employees: { help: 'employees to seed (default 5500, as the suite)' },
  days: { help: 'work days of attendance to seed (default 182, as the suite)' },
  month: { help: 'the month to pay, YYYY-MM (default: the last one the records cover whole)' },
  smoke: { switch: true, help: '60 employees × 10 days' },
  'no-profile': { switch: true, help: 'skip the run under the CPU profiler' },
  'no-phases': { switch: true, help: "skip timing the run's phases in this process" },
  help: { switch: true, help: 'this text' },
}
const SECRET = 'bench-jwt-secret-that-is-at-least-32-bytes'
const ADMIN_PASSWORD = 'bench-password-1'

const flags = (() => {
  try {
    return parseFlags(process.argv.slice(2), FLAGS)
  } catch (error) {
    if (!(error instanceof ArgsError)) throw error
    console.error(`${error.message}\n${usage('bun bench/payroll.ts', FLAGS)}`)
    process.exit(2)
  }
})()
if (flags.has('help')) {
  console.log(usage('bun bench/payroll.ts', FLAGS))
  process.exit(0)
}
const smoke = flags.has('smoke')
const given = text(flags, 'data')
const dataDir = given ?? join(ROOT, 'bench', '.data', smoke ? 'payroll-smoke' : 'payroll')
const dbPath = join(dataDir, 'workforce.db')
const dbUrl = `file:${dbPath}`
const env = { DATABASE_URL: dbUrl, STORAGE_URL: `file:${join(dataDir, 'files')}`, JWT_SECRET: SECRET, ADMIN_PASSWORD }
const started = Date.now()
const log = (line: string) => console.error(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`)

if (given === undefined) {
  const employees = wholeNumber(flags, 'employees', 1, 1_000_000) ?? (smoke ? 60 : 5500)
  const days = wholeNumber(flags, 'days', 1, 5000) ?? (smoke ? 10 : 182)
  log(`seeding ${employees} employees × ${days} days into ${dataDir}`)
  await seedDatabase({ db: dbPath, storage: join(dataDir, 'files'), employees, days, salaryMonths: smoke ? 2 : 20, files: 0, jwtSecret: SECRET, adminPassword: ADMIN_PASSWORD })
} else if (!existsSync(dbPath)) {
  console.error(`no seeded database in ${dataDir}`)
  process.exit(2)
}

const client = createClient({ url: dbUrl })
const dates = (await client.execute('SELECT DISTINCT work_date FROM attendance_records ORDER BY work_date')).rows.map((row) => String(row.work_date))
const months = (await client.execute('SELECT DISTINCT month FROM salaries ORDER BY month')).rows.map((row) => String(row.month))
// the company holding the employees (the seeded database has one)
const companyId = Number((await client.execute('SELECT company_id FROM employees GROUP BY company_id ORDER BY count(*) DESC LIMIT 1')).rows[0].company_id)
client.close()
const month = text(flags, 'month') ?? payrollMonth(dates)
const token = await adminToken(dbUrl, SECRET)
const people = await signedInEmployees(dbUrl, SECRET, 1000)

log(`B8 and S11: company ${companyId}, ${month}`)
const result = await payrollBench({
  dbPath,
  env,
  token,
  companyId,
  month,
  profile: !flags.has('no-profile'),
  runs: smoke ? 1 : 9,
  log,
  // warmed up as the suite warms its servers up, without the clock-ins: 2 s of employee reads
  server: async (work) => {
    const server = await startServer({ env })
    try {
      await scenario.employeeReads({ base: server.base, people, adminToken: token, dates, months }, 8, 2000)
      return await work(server.base, server.pids[0])
    } finally {
      await server.stop()
    }
  },
})

const phases = flags.has('no-phases') ? null : await payrollPhases({ dbPath, jwtSecret: SECRET, adminPassword: ADMIN_PASSWORD, companyId, month })
if (phases) log('phases timed')

const { ratio } = result
// as S9 and the suite judge it: the run after an unmeasured one; the first beside it
const growth = result.s11.warmGrowth
console.log(`S11 ÷ B8: ${ratio.toFixed(1)}× (target ≤ 3×: ${ratio <= 3 ? 'holds' : 'misses'})`)
const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`
console.log(
  `S11 memory growth: ${megabytes(growth)} (target ≤ 64 MB: ${growth <= 64 * 1024 * 1024 ? 'holds' : 'misses'}); the first run on the server ${megabytes(result.s11.cold.rssGrowth)}`,
)
console.log(`B8 and S11 agree on ${result.agreement.same} of ${result.agreement.loop} payslips\n`)
console.log(payrollSection({ ...result, phases }))
