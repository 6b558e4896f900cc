/**
 * Where S11's time goes: one more payroll run on a server process under `bun --cpu-prof` (after an
 * unmeasured run, deleted), its samples summed by layer (the payroll module's pure computation,
 * its service and repository, the exact arithmetic, the statistics and sheet counting it reuses,
 * Drizzle, the libsql driver with SQLite, …) and by function. Profiling slows the server, so
 * this gives shares of the run's time, not the time itself.
 */
import { mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { PayrollLoopFigures } from '../baselines/payroll-loop'
import { INTERVAL_US, LAYERS, summarizeProfile, type ProfileResult } from '../lib/cpu-profile'
import { ROOT, startServer } from '../lib/server'
import type { PayrollPhases } from '../lib/payroll-phases'
import { deleteRun, type PayrollFigures, type PayslipAgreement } from './payroll'

/** The payroll module's parts first, then the layers every profile of the suite uses. */
export const PAYROLL_LAYERS: [string, string][] = [
  ['/src/modules/payroll/compute/', 'payroll compute (the pure line functions)'],
  ['/src/modules/payroll/', 'payroll service and repository'],
  ['/src/lib/rational', 'src/lib/rational (exact arithmetic)'],
  ['/src/lib/memory', 'collections between pages (src/lib/memory, the run’s memory budget: young ones, and a full one after twice the budget)'],
  ['/src/modules/attendance/statistics', 'computeStatistics'],
  ['/src/modules/exports/attendance-sheet', 'sheet counting (dayTotalsOf, leaveDatesOf)'],
  ['/src/modules/leave/', 'leave (datesOf)'],
  ['/src/modules/calendar/', 'calendar (work days)'],
  ['/src/lib/local-time', 'src/lib/local-time'],
  ['/src/lib/messages', 'src/lib/messages (labels)'],
  ...LAYERS,
]

async function post(base: string, token: string, companyId: number, month: string): Promise<number> {
  const response = await fetch(`${base}/api/v1/admin/payroll/runs`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ company_id: companyId, month }),
  })
  const body = (await response.json()) as { message: string; data: { id: number } | null }
  if (response.status !== 201) throw new Error(`POST /api/v1/admin/payroll/runs answered ${response.status}: ${body.message}`)
  return body.data!.id
}

export async function profilePayrollRun(options: {
  env: Record<string, string>
  token: string
  companyId: number
  month: string
  top?: number
}): Promise<ProfileResult> {
  const dir = join(ROOT, 'bench', '.data', 'profiles')
  mkdirSync(dir, { recursive: true })
  const name = 'service-s11'
  const command = ['bun', '--cpu-prof', `--cpu-prof-dir=${dir}`, `--cpu-prof-name=${name}.cpuprofile`, `--cpu-prof-interval=${INTERVAL_US}`, 'src/index.ts']
  // the file was just written by the raw insert's client: a server opening it at that moment may find it busy, so a few tries
  let server: Awaited<ReturnType<typeof startServer>> | null = null
  for (let attempt = 1; !server; attempt++)
    server = await startServer({ env: options.env, command }).catch(async (error) => {
      if (attempt === 3) throw error
      await Bun.sleep(2000)
      return null
    })
  let window = { from: 0, to: 0, requests: 1 }
  try {
    await deleteRun(server.base, options.token, await post(server.base, options.token, options.companyId, options.month))
    await Bun.sleep(500)
    const from = Date.now()
    const runId = await post(server.base, options.token, options.companyId, options.month)
    window = { from, to: Date.now(), requests: 1 }
    await deleteRun(server.base, options.token, runId)
  } finally {
    await server.stop()
  }
  const file = join(dir, `${name}.cpuprofile`)
  return { name, file, ...summarizeProfile(JSON.parse(readFileSync(file, 'utf8')), [window], options.top ?? 25, PAYROLL_LAYERS, INTERVAL_US, true) }
}

const ms = (us: number) => `${(us / 1000).toFixed(us < 10_000 ? 1 : 0)} ms`
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`

/** The "Payroll run (S11) against B8" section of RESULTS.md. */
export function payrollSection(input: {
  s11: PayrollFigures
  b8: PayrollLoopFigures
  /** B8's payslip rows written raw (not part of B8) */
  write: { rows: number; seconds: number }
  agreement: PayslipAgreement
  profile: ProfileResult | null
  /** S11 ÷ B8, the median of the pairs' ratios */
  ratio: number
  /** bun bench/payroll.ts only */
  phases?: PayrollPhases | null
}): string {
  const { s11, b8, write, agreement, profile, phases, ratio } = input
  const statements = Object.entries(b8.statementMs)
    .map(([table, time]) => `${table} ${b8.counts[table].toLocaleString('en')} rows ${time.toFixed(1)} ms`)
    .join('; ')
  const perEmployee = (seconds: number) => `${((seconds * 1e6) / Math.max(1, b8.employees)).toFixed(0)} µs an employee`
  const profileText = profile
    ? `Under the CPU profiler (the server's JS thread sampled every ${INTERVAL_US} µs, each sample counting the time to the next, as the sampler cannot stop a long native call; on a server of its own, the run after an unmeasured one) the run took ${profile.seconds.toFixed(2)} s, ${ms(profile.busyUs)} of it accounted for by samples (${Math.round(100 * profile.busyShare)}%).

| layer (self time, builtins counted to their caller) | time | share |
|---|---|---|
${profile.layers
  .filter((layer) => layer.share >= 0.005)
  .map((layer) => `| ${layer.layer} | ${ms(layer.us)} | ${Math.round(100 * layer.share)}% |`)
  .join('\n')}

Busiest functions (inclusive): ${profile.functions
        .slice(0, 12)
        .map((fn) => `\`${fn.name.trim()}\` ${ms(fn.us)}`)
        .join(', ')}. The profile is kept in \`${profile.file.replace(`${ROOT}/`, '')}\` for Chrome DevTools.`
    : 'No profile in this run.'
  const phaseText = phases
    ? `

The run's phases, timed in the benchmark's own process on the same file with the payroll module's functions (\`bench/lib/payroll-phases.ts\`): loading the rows alone (the repository calls of \`computeRun\`, ${phases.employees.toLocaleString('en')} employees in pages of 500) ${ms(phases.loadMs * 1000)} (${Object.entries(phases.loadByCall)
        .map(([call, time]) => `${call} ${ms(time * 1000)}`)
        .join(', ')}); \`computeRun\` whole (the same loading and every payslip computed) ${ms(phases.loadAndComputeMs * 1000)}, so computing ${ms((phases.loadAndComputeMs - phases.loadMs) * 1000)}, of which shaping each page into the values its write binds as it comes (JSON.stringify of the lines and facts, mostly) ${ms(phases.shapingMs * 1000)} (${mb(phases.jsonBytes)} of JSON, ${(phases.jsonBytes / Math.max(1, phases.employees) / 1024).toFixed(1)} KB a payslip: ${phases.linesPerPayslip.toFixed(1)} lines and ${phases.sourcesPerPayslip.toFixed(1)} sources on average); writing the run and its payslip rows in one transaction (rolled back) ${ms(phases.writeMs * 1000)}. The computed payslips, all kept as that text until the write (\`computeAll\`), hold ${mb(phases.heapGrowth)} of JS heap (${phases.objects.toLocaleString('en')} live objects then).`
    : ''
  return `## Payroll run (S11) against B8

S11 is \`POST /api/v1/admin/payroll/runs {company_id: ${s11.companyId}, month: "${s11.month}"}\` on a fresh server process (after the suite's warm-up): the one company of the seeded database, holding every employee, so one run covers all ${s11.warm.headCount.toLocaleString('en')} payslips. Each employee has a pay profile (seeded as PUT …/pay-profile writes them, a raise each January), the company pay settings charge lateness (20.00 an occurrence beyond the free ones, 0.50 a minute), 1 in 4 of the spread leave requests is of an unpaid type, and records carry the overtime the policy gives their clock-out; there are no rest-day or statutory-holiday records, no entered inputs, no adjustments (no approved runs) and no contributions (Payroll 2).

- S11, the first run on the server: ${s11.cold.seconds.toFixed(2)} s (${perEmployee(s11.cold.seconds)}), memory ${mb(s11.cold.rssBefore)} → peak ${mb(s11.cold.rssPeak)}; deleted, then ${s11.warmSeconds.length === 1 ? 'one measured run' : `${s11.warmSeconds.length} measured runs (each deleted before the next)`}: ${s11.warmSeconds.map((t) => t.toFixed(2)).join(', ')} s, the median ${s11.warm.seconds.toFixed(2)} s (${perEmployee(s11.warm.seconds)}), memory ${mb(s11.warm.rssBefore)} → peak ${mb(s11.warm.rssPeak)}; the largest growth of them ${mb(s11.warmGrowth)}.
- S11 ÷ B8, run by run (each measured run against the mean of the B8 runs right before and right after it, the server idle meanwhile, so that the machine's speed, which drifts on a shared host within seconds, is the same for both sides): ${s11.pairs.map((pair) => `${pair.run.toFixed(2)} s ÷ ${(pair.baseline * 1000).toFixed(0)} ms = ${(pair.run / pair.baseline).toFixed(1)}×`).join('; ')}; the median ${ratio.toFixed(1)}×, the figure judged against the target.
- B8 (\`bench/baselines/payroll-loop.ts\`), the median of ${b8.runs} after one unmeasured: ${(b8.seconds * 1000).toFixed(1)} ms = reading ${b8.readMs.toFixed(1)} ms (${statements}) + the loop ${b8.computeMs.toFixed(1)} ms. Writing its ${write.rows.toLocaleString('en')} payslip rows raw (one transaction, lines and facts as JSON, into a scratch copy of \`payslips\`) takes another ${(write.seconds * 1000).toFixed(1)} ms, not counted in B8: S11 ÷ (B8 + that write) = ${(s11.warm.seconds / (b8.seconds + write.seconds)).toFixed(1)}×.
- The same figures: ${agreement.same.toLocaleString('en')} of ${agreement.loop.toLocaleString('en')} employees have the same gross, tax and net in the run's payslips as in B8 (the run has ${agreement.run.toLocaleString('en')} payslips)${agreement.differences.length ? `; differences:\n${agreement.differences.map((line) => `  - ${line}`).join('\n')}` : '.'}

${profileText}${phaseText}
`
}
