/**
 * S11's phases timed in this process: the payroll module's own functions (src/modules/payroll) on
 * the seeded file, opened as the server opens it, with timers around what `POST …/payroll/runs`
 * does one after another. Loading the rows (the repository calls `computeRun` makes, page by page)
 * and loading with computing (`computeRun` itself, all pages kept as the service keeps them), each
 * the median of three; then once the payslip rows written (`insertRun` + `writePayslips` in one
 * write transaction, rolled back), and the heap the computed payslips hold. Nothing in src/ is
 * changed; what the service does between these calls (its row shaping) is repeated here.
 */
import { heapStats } from 'bun:jsc'
import { loadConfig } from '../../src/config'
import { prepare } from '../../src/bootstrap'
import { silentLogger } from '../../src/lib/logger'
import { createRuleCache, enabledRulesOfGroup } from '../../src/modules/attendance/setup/repository'
import { findSettings, profilesInEffect } from '../../src/modules/payroll/profiles/repository'
import { settingsOf } from '../../src/modules/payroll/profiles/service'
import { computeRun, RUN_PAGE } from '../../src/modules/payroll/runs/compute'
import * as repo from '../../src/modules/payroll/runs/repository'
import { payslipValues } from '../../src/modules/payroll/runs/service'

export interface PayrollPhases {
  employees: number
  /** the repository reads alone, every page */
  loadMs: number
  /** of those, ms per repository function (its calls summed over the pages) */
  loadByCall: Record<string, number>
  /** computeRun: the same reads and every payslip computed */
  loadAndComputeMs: number
  /** the payslip rows inserted with the run, in one transaction (rolled back) */
  writeMs: number
  /** of computing: shaping the payslips into the values their write binds (JSON.stringify of lines and facts, mostly) */
  shapingMs: number
  /** bytes of the lines and facts JSON, all payslips */
  jsonBytes: number
  /** the JS heap after computing every payslip (kept as the service keeps them: values with JSON text), less after letting them go; after a full collection each */
  heapGrowth: number
  /** live JS objects then */
  objects: number
  linesPerPayslip: number
  sourcesPerPayslip: number
}

class RolledBack extends Error {}

export async function payrollPhases(input: { dbPath: string; jwtSecret: string; adminPassword: string; companyId: number; month: string }): Promise<PayrollPhases> {
  const config = loadConfig({ DATABASE_URL: `file:${input.dbPath}`, JWT_SECRET: input.jwtSecret, ADMIN_PASSWORD: input.adminPassword, LOG_LEVEL: 'warn' })
  const deps = await prepare(config, { logger: silentLogger })
  const { database } = deps
  const { db } = database
  try {
    const { companyId, month } = input
    const settings = settingsOf(await findSettings(db, companyId))
    const [year, m] = month.split('-').map(Number)
    const first = `${month}-01`
    const last = `${month}-${String(new Date(Date.UTC(year, m, 0)).getUTCDate()).padStart(2, '0')}`
    const scope = { companyId, month, settings, entered: new Map() }
    const now = new Date()

    // the reads computeRun makes, page by page (calendar and rules once: they are cached there)
    // one after another (computeRun runs some two at a time: on one thread, the same work), each timed
    const load = async () => {
      const byCall: Record<string, number> = {}
      const timed = async <T>(name: string, call: () => Promise<T>): Promise<T> => {
        const started = performance.now()
        const result = await call()
        byCall[name] = (byCall[name] ?? 0) + performance.now() - started
        return result
      }
      const started = performance.now()
      const groups = new Set<number>()
      let employees = 0
      for (let after = 0; ; ) {
        const page = await timed('runEmployees', () => repo.runEmployees(db, companyId, first, last, after, RUN_PAGE))
        if (page.length === 0) break
        employees += page.length
        after = page[page.length - 1].id
        const ids = page.map((employee) => employee.id)
        await timed('profilesInEffect', () => profilesInEffect(db, ids, month))
        await timed('approvedPayslipsBetween', () => repo.approvedPayslipsBetween(db, companyId, ids, `${month.slice(0, 4)}-01`, month))
        await timed('payRecordsOf', () => repo.payRecordsOf(db, ids, first, last))
        await timed('payLeaveOf', () => repo.payLeaveOf(db, ids, first, last))
        for (const employee of page) if (employee.group && !groups.has(employee.group.id)) groups.add(employee.group.id)
        if (page.length < RUN_PAGE) break
      }
      await timed('payCalendarOf', () => repo.payCalendarOf(db, companyId, first, last))
      for (const group of groups) await timed('enabledRulesOfGroup', () => enabledRulesOfGroup(db, group))
      return { employees, ms: performance.now() - started, byCall }
    }
    // the machine is shared: each phase's median of three, after one unmeasured
    const median = <T extends { ms: number }>(runs: T[]) => [...runs].sort((a, b) => a.ms - b.ms)[Math.floor(runs.length / 2)]
    await load()
    const loaded = median([await load(), await load(), await load()])

    // as the service's computeAll: each page shaped into the values its write binds (lines and facts as JSON text) as it comes
    const compute = async () => {
      const rows: repo.PayslipValues[] = []
      let lines = 0
      let sources = 0
      let shapingMs = 0
      const started = performance.now()
      for await (const page of computeRun({ db, defaultZone: config.defaultTimezone, ruleCache: createRuleCache(), now }, scope)) {
        for (const { payslip } of page) {
          lines += payslip.lines.length
          sources += payslip.lines.reduce((sum, line) => sum + line.sources.length, 0)
        }
        const shaping = performance.now()
        for (const c of page) rows.push(payslipValues(month, c))
        shapingMs += performance.now() - shaping
      }
      return { rows, lines, sources, shapingMs, ms: performance.now() - started }
    }
    await compute()
    const times: number[] = []
    for (let i = 0; i < 2; i++) times.push((await compute()).ms)
    const computed = await compute()
    const loadAndComputeMs = median([...times, computed.ms].map((ms) => ({ ms }))).ms
    let rows = computed.rows
    Bun.gc(true)
    const { heapSize: heapWith, objectCount: objects } = heapStats()
    const count = rows.length
    const jsonBytes = rows.reduce((bytes, values) => bytes + values.lines.length + values.facts.length, 0)

    // as the service's `create` writes them (repository writePayslips), then undone
    const writeStarted = performance.now()
    await database
      .write(async (tx) => {
        const run = await repo.insertRun(tx, { companyId, month, settings, createdBy: null, computedAt: now, createdAt: now, updatedAt: now })
        await repo.writePayslips(tx, run.id, rows, now)
        throw new RolledBack()
      })
      .catch((error) => {
        if (!(error instanceof RolledBack)) throw error
      })
    const writeMs = performance.now() - writeStarted

    // what they hold: the heap with them less the heap once they are let go (JSC's collector scans the stack
    // conservatively, so a heap measured before computing would still hold an earlier run's garbage)
    computed.rows = rows = []
    Bun.gc(true)
    const heapGrowth = heapWith - heapStats().heapSize
    return {
      employees: loaded.employees,
      loadMs: loaded.ms,
      loadByCall: loaded.byCall,
      loadAndComputeMs,
      writeMs,
      shapingMs: computed.shapingMs,
      jsonBytes,
      heapGrowth,
      objects,
      linesPerPayslip: computed.lines / Math.max(1, count),
      sourcesPerPayslip: computed.sources / Math.max(1, count),
    }
  } finally {
    database.close()
  }
}
