/**
 * S11 and B8 together, as bench/run.ts and bench/payroll.ts both run them: B8 (and the raw write
 * beside it) on the seeded file, S11 on a server process the caller provides, the run's payslips
 * compared with B8's figures, and optionally one more run under the CPU profiler.
 */
import { createClient } from '@libsql/client'
import { payrollLoop, type PayrollLoopFigures } from '../baselines/payroll-loop'
import type { ProfileResult } from '../lib/cpu-profile'
import { rawPayslipInserts } from './baselines'
import { lastFullMonth } from './exports'
import { comparePayslips, deleteRun, payrollScenario, type PayrollFigures, type PayslipAgreement } from './payroll'
import { profilePayrollRun } from './payroll-profile'

export interface PayrollBench {
  b8: PayrollLoopFigures
  write: { rows: number; seconds: number }
  s11: PayrollFigures
  agreement: PayslipAgreement
  profile: ProfileResult | null
  /** S11 ÷ B8: the median of the pairs' ratios (each measured run against the mean of the B8 runs on either side of it) */
  ratio: number
}

/** The median of the pairs' ratios: a machine that speeds up or slows down between pairs moves each pair's two sides alike. */
export function pairedRatio(pairs: readonly { baseline: number; run: number }[]): number {
  const ratios = pairs.map((pair) => pair.run / pair.baseline).sort((a, b) => a - b)
  return ratios[Math.floor(ratios.length / 2)]
}

/**
 * The month S11 pays: the last month that has ended when the seeded records cover all of it (the
 * full and medium sizes), else the month of the last seeded work date (a smoke run's ten days).
 */
export function payrollMonth(dates: readonly string[], now = new Date()): string {
  const ended = lastFullMonth(now)
  return dates[0] <= `${ended}-01` ? ended : dates[dates.length - 1].slice(0, 7)
}

/** The company's local date now: the `today` a run computes with (a work day not yet past is not missed). */
async function localToday(dbUrl: string, companyId: number): Promise<string> {
  const client = createClient({ url: dbUrl })
  try {
    const [row] = (await client.execute({ sql: 'SELECT timezone FROM companies WHERE id = ?', args: [companyId] })).rows
    const zone = row?.timezone ? String(row.timezone) : 'Asia/Shanghai'
    return new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date())
  } finally {
    client.close()
  }
}

export async function payrollBench(input: {
  /** the seeded database file */
  dbPath: string
  /** the service's environment, for the profiled server */
  env: Record<string, string>
  token: string
  companyId: number
  month: string
  /** runs `work` against a warmed-up server process: its URL and process id */
  server: <T>(work: (base: string, pid: number) => Promise<T>) => Promise<T>
  profile: boolean
  /** measured runs after the first */
  runs: number
  log?: (line: string) => void
}): Promise<PayrollBench> {
  const { dbPath, companyId, month, token } = input
  const dbUrl = `file:${dbPath}`
  const log = input.log ?? (() => {})
  const today = await localToday(dbUrl, companyId)
  const { b8, s11, agreement } = await input.server(async (base, pid) => {
    // B8 after the server's warm-up (whose clock-ins a smoke run's month holds), while the server idles
    const b8 = payrollLoop(dbPath, { companyId, month, today })
    log(`B8: ${b8.employees} employees in ${(b8.seconds * 1000).toFixed(1)} ms (read ${b8.readMs.toFixed(1)} ms, loop ${b8.computeMs.toFixed(1)} ms)`)
    // and once more on either side of each measured run: the pairs
    const baseline = () => payrollLoop(dbPath, { companyId, month, today, runs: 3 }).seconds
    const { lastRunId, ...s11 } = await payrollScenario(base, pid, token, { companyId, month, runs: input.runs, baseline })
    const client = createClient({ url: dbUrl })
    try {
      return { b8, s11, agreement: await comparePayslips(client, lastRunId, b8.payslips) }
    } finally {
      client.close()
      await deleteRun(base, token, lastRunId)
    }
  })
  // a scratch table: written with no server holding the file
  const write = await rawPayslipInserts(dbUrl, b8.payslips)
  log(`S11: ${s11.warm.headCount} payslips in ${s11.warm.seconds.toFixed(2)} s (first run ${s11.cold.seconds.toFixed(2)} s); ${agreement.same} of ${agreement.loop} the same as B8`)
  const profile = input.profile ? await profilePayrollRun({ env: input.env, token, companyId, month }) : null
  return { b8, write, s11, agreement, profile, ratio: pairedRatio(s11.pairs) }
}
