/**
 * S11: a payroll run (CONTRACT §16) of every employee of the benchmark database for one month:
 * `POST /api/v1/admin/payroll/runs {company_id, month}` against a real server process, which
 * computes and stores every payslip before it answers 201. Measured: the request's time, and the
 * server's resident memory growth meanwhile (VmRSS sampled every 20 ms: the peak minus the value
 * before), as S9 measures an export. The seeded database has one company holding every employee
 * (bench/lib/organization.ts), so one run covers them all.
 *
 * The first run on a server that has never computed a payroll (cold: code paths, the month's
 * pages, the heap's first growth) is deleted again; then `runs` more, each deleted before the next
 * but the last, which is kept for the comparison with B8 (`comparePayslips`) and then deleted, so
 * the database is left as seeded. The machine is shared: the median of those runs is the time, the
 * largest of their memory growths the growth.
 */
import type { Client } from '@libsql/client'
import { rssOf } from '../lib/server'
import type { LoopPayslip } from '../baselines/payroll-loop'

export interface PayrollRunFigures {
  status: number
  /** the server's message when the run was refused */
  message: string
  seconds: number
  rssBefore: number
  rssPeak: number
  rssGrowth: number
  runId: number | null
  headCount: number
  totals: { gross: number; tax: number; net: number } | null
}

export interface PayrollFigures {
  companyId: number
  month: string
  cold: PayrollRunFigures
  /** the median of the runs after the first, by time */
  warm: PayrollRunFigures
  /** the largest memory growth of the runs after the first */
  warmGrowth: number
  /** their times, s */
  warmSeconds: number[]
  /** each measured run with the mean of the baselines timed right before and right after it (`baseline`), s: a drift of the machine's speed moves both */
  pairs: { baseline: number; run: number }[]
}

const PATH = '/api/v1/admin/payroll/runs'

interface RunBody {
  message: string
  data: { id: number; totals: { gross: number; tax: number; net: number; head_count: number } } | null
}

async function createRun(base: string, pid: number, token: string, companyId: number, month: string): Promise<PayrollRunFigures> {
  const rssBefore = rssOf(pid)
  let peak = rssBefore
  const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 20)
  try {
    const started = performance.now()
    const response = await fetch(`${base}${PATH}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ company_id: companyId, month }),
    })
    const body = (await response.json()) as RunBody
    const seconds = (performance.now() - started) / 1000
    peak = Math.max(peak, rssOf(pid))
    const run = response.status === 201 ? body.data : null
    return {
      status: response.status,
      message: body.message,
      seconds,
      rssBefore,
      rssPeak: peak,
      rssGrowth: Math.max(0, peak - rssBefore),
      runId: run?.id ?? null,
      headCount: run?.totals.head_count ?? 0,
      // yuan in the API; fen here, as B8 and the payslips table hold them
      totals: run ? { gross: Math.round(run.totals.gross * 100), tax: Math.round(run.totals.tax * 100), net: Math.round(run.totals.net * 100) } : null,
    }
  } finally {
    clearInterval(sampler)
  }
}

export async function deleteRun(base: string, token: string, runId: number): Promise<void> {
  const response = await fetch(`${base}${PATH}/${runId}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } })
  if (response.status !== 200) throw new Error(`DELETE ${PATH}/${runId} answered ${response.status}: ${await response.text()}`)
}

/**
 * Creates the month's run 1 + `runs` times, deleting each but the last: that one is left for
 * `comparePayslips` (its id is `lastRunId`), then `deleteRun`. `baseline` (timed) runs right
 * before each measured run and once after the last, with the server idle: each run is paired with
 * the mean of the baselines on either side of it, as this machine's speed changes within seconds
 * (B8 alone on a quiet machine: mostly 500–550 ms, now and then 360 ms for a few runs).
 */
export async function payrollScenario(
  base: string,
  pid: number,
  token: string,
  input: { companyId: number; month: string; runs: number; baseline?: () => number },
): Promise<PayrollFigures & { lastRunId: number }> {
  const { companyId, month } = input
  const measured: PayrollRunFigures[] = []
  const baselines: number[] = []
  for (let i = 0; i <= input.runs; i++) {
    if (i > 0 && input.baseline) baselines.push(input.baseline())
    await Bun.sleep(500)
    const run = await createRun(base, pid, token, companyId, month)
    if (run.runId === null) throw new Error(`POST ${PATH} (run ${i + 1}) answered ${run.status}: ${run.message}`)
    measured.push(run)
    if (i < input.runs) await deleteRun(base, token, run.runId)
  }
  if (input.baseline) baselines.push(input.baseline())
  const [cold, ...warm] = measured
  const byTime = [...warm].sort((a, b) => a.seconds - b.seconds)
  return {
    companyId,
    month,
    cold,
    warm: byTime[Math.floor(byTime.length / 2)],
    warmGrowth: Math.max(...warm.map((run) => run.rssGrowth)),
    warmSeconds: warm.map((run) => run.seconds),
    pairs: input.baseline ? warm.map((run, i) => ({ baseline: (baselines[i] + baselines[i + 1]) / 2, run: run.seconds })) : [],
    lastRunId: measured[measured.length - 1].runId!,
  }
}

export interface PayslipAgreement {
  /** payslips in the run, and in B8 */
  run: number
  loop: number
  /** employees whose gross, tax and net are the same in both */
  same: number
  /** the first few that differ, with the facts behind them, for finding which side is wrong */
  differences: string[]
}

const FACTS = ['workDaysOfMonth', 'employedWorkDays', 'absentDays', 'unpaidLeaveDays', 'lateOccurrences', 'freeLateOccurrences'] as const

/** The run's stored payslips against B8's figures, employee by employee (fen). */
export async function comparePayslips(client: Client, runId: number, loop: readonly LoopPayslip[], show = 5): Promise<PayslipAgreement> {
  const { rows } = await client.execute({ sql: 'SELECT employee_id, gross, personal_tax, net, lines, facts FROM payslips WHERE run_id = ?', args: [runId] })
  const stored = new Map(rows.map((row) => [Number(row.employee_id), row]))
  const differences: string[] = []
  let same = 0
  for (const mine of loop) {
    const row = stored.get(mine.employeeId)
    if (!row) {
      if (differences.length < show) differences.push(`employee ${mine.employeeId}: no payslip in the run`)
      continue
    }
    const theirs = { gross: Number(row.gross), tax: Number(row.personal_tax), net: Number(row.net) }
    if (theirs.gross === mine.gross && theirs.tax === mine.tax && theirs.net === mine.net) {
      same++
      continue
    }
    if (differences.length >= show) continue
    const facts = JSON.parse(String(row.facts)) as Record<string, unknown>
    const lines = JSON.parse(String(row.lines)) as { code: string; amount: number }[]
    const factDiff = FACTS.filter((key) => facts[key] !== mine.facts[key]).map((key) => `${key} ${facts[key]} vs ${mine.facts[key]}`)
    const codes = new Set([...lines.map((line) => line.code), ...Object.keys(mine.lines)])
    const lineDiff = [...codes]
      .map((code) => [code, lines.filter((line) => line.code === code).reduce((acc, line) => acc + line.amount, 0), mine.lines[code] ?? 0] as const)
      .filter(([, a, b]) => a !== b)
      .map(([code, a, b]) => `${code} ${a} vs ${b}`)
    differences.push(
      `employee ${mine.employeeId}: run gross ${theirs.gross} tax ${theirs.tax} net ${theirs.net}, B8 ${mine.gross} ${mine.tax} ${mine.net} (fen); lines: ${lineDiff.join(', ') || 'the same'}; facts: ${factDiff.join(', ') || 'the same'}`,
    )
  }
  const computed = new Set(loop.map((payslip) => payslip.employeeId))
  const extra = [...stored.keys()].filter((id) => !computed.has(id))
  if (extra.length > 0 && differences.length < show) differences.push(`${extra.length} payslips in the run B8 has no employee for (first ${extra.slice(0, 5).join(', ')})`)
  return { run: rows.length, loop: loop.length, same, differences }
}
