/**
 * The benchmark suite: seeds a database, measures the baselines and every scenario in
 * one run, and writes bench/RESULTS.md.
 *
 *   bun run bench               the full suite (5,000 employees, 1,000,000 attendance records)
 *   bun run bench -- --smoke    a tiny run that checks the suite works (CI)
 *   bun run bench -- --medium   2,000 in the burst, 400,000 records, shorter runs: for trying a change
 *                               (writes bench/.data/MEDIUM.md and keeps bench/.data/medium/)
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, totalmem, release } from 'node:os'
import { join } from 'node:path'
import { createClient } from '@libsql/client'
import { seedDatabase } from './seed'
import type { LoadRequest, LoadResult } from './lib/load'
import { queryPlans } from './lib/plans'
import { adminToken, signedInEmployees } from './lib/people'
import { median, startUps } from './lib/footprint'
import { ROOT, rssOf, startServer } from './lib/server'
import { bareElysia, rawEmployeeInserts, rawInserts, rawMonthRead, rawPointSelects } from './scenarios/baselines'
import { HOT_STATEMENTS } from './baselines/same-work-db'
import { SAME_WORK_COMMAND, sameAnswers, sameStatements, sameWorkEnv, startSameWork } from './scenarios/same-work'
import { exportsScenario, lastFullMonth } from './scenarios/exports'
import { importScenario } from './scenarios/import'
import * as scenario from './scenarios/service'
import { uploadScenario } from './scenarios/upload'
import { closeDayRequest, dayCloseScenario, reopenDay } from './scenarios/day-close'
import { beyondBaseline, layerProfiles, layerSection } from './scenarios/profiles'
import { sqldScenario, sqldSection } from './scenarios/sqld'
import { payrollBench, payrollMonth } from './scenarios/payroll-bench'
import { payrollSection } from './scenarios/payroll-profile'
import { zoneArithmetic } from './zone-arithmetic'
import { sectionOf, withSection } from './lib/sections'

const smoke = process.argv.includes('--smoke')
/** between the two: a few hundred thousand records, about a minute and a half; for trying a change, not for RESULTS.md */
const medium = process.argv.includes('--medium')
const outArg = process.argv.indexOf('--out')
const resultsPath = outArg > 0 ? process.argv[outArg + 1] : join(ROOT, 'bench', ...(medium ? ['.data', 'MEDIUM.md'] : ['RESULTS.md']))
const size = smoke
  ? { employees: 60, burst: 50, days: 10, salaryMonths: 2, files: 20, durationMs: 500, uploadMb: 5 }
  : medium
    ? { employees: 2200, burst: 2000, days: 182, salaryMonths: 20, files: 2000, durationMs: 3000, uploadMb: 20 }
    : // 5,000 employees clock in in the burst; the other 500 clock in first, while the server warms up
      { employees: 5500, burst: 5000, days: 182, salaryMonths: 20, files: 10_000, durationMs: 5000, uploadMb: 100 }
const CONNECTIONS = 64
/** fresh starts of each server for the footprint (its figures are medians) */
const STARTS = smoke ? 2 : 5
/** how long a server is left alone before its idle memory is read */
const IDLE_MS = 1000
const WARM_MS = Math.min(2000, size.durationMs)
const SECRET = 'bench-jwt-secret-that-is-at-least-32-bytes'
const dataDir = join(ROOT, 'bench', '.data', smoke ? 'smoke' : medium ? 'medium' : 'full')
const dbPath = join(dataDir, 'workforce.db')
const dbUrl = `file:${dbPath}`
const serverEnv = {
  DATABASE_URL: dbUrl,
  STORAGE_URL: `file:${join(dataDir, 'files')}`,
  JWT_SECRET: SECRET,
  ADMIN_PASSWORD: 'bench-password-1',
}

const started = Date.now()
const log = (line: string) => console.log(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`)

rmSync(dataDir, { recursive: true, force: true })
mkdirSync(dataDir, { recursive: true })
log(`seeding ${size.employees} employees × ${size.days} days`)
const seed = await seedDatabase({
  db: dbPath,
  storage: join(dataDir, 'files'),
  employees: size.employees,
  days: size.days,
  salaryMonths: size.salaryMonths,
  files: size.files,
  jwtSecret: SECRET,
  adminPassword: serverEnv.ADMIN_PASSWORD,
})

async function seededShape() {
  const client = createClient({ url: dbUrl })
  try {
    const dates = (await client.execute('SELECT DISTINCT work_date FROM attendance_records ORDER BY work_date')).rows.map((row) =>
      String(row.work_date),
    )
    const months = (await client.execute('SELECT DISTINCT month FROM salaries ORDER BY month')).rows.map((row) => String(row.month))
    const lastRecord = Number((await client.execute('SELECT coalesce(max(id), 0) AS id FROM attendance_records')).rows[0].id)
    return { dates, months, lastRecord }
  } finally {
    client.close()
  }
}
const shape = await seededShape()
const people = await signedInEmployees(dbUrl, SECRET, size.employees)
const employeeIds = people.map((person) => person.employeeId)

log('baselines')
const b1 = await bareElysia(CONNECTIONS, size.durationMs)
const b2 = await rawInserts(size.burst)
const b3 = await rawPointSelects(dbUrl, smoke ? 2000 : 50_000, employeeIds, shape.dates)

/** Removes the clock-ins a burst wrote, so the next burst starts from the seeded state. */
async function undoBurst() {
  const client = createClient({ url: dbUrl })
  await client.execute({ sql: 'DELETE FROM attendance_records WHERE id > ?', args: [shape.lastRecord] })
  client.close()
}

/** Workforce (`service`) or the same-work baseline B4/B5 (`baseline`), on the seeded database. */
type Which = 'service' | 'baseline'

async function withServer<T>(
  processes: number,
  work: (seeded: scenario.Seeded & { pids: number[] }) => Promise<T>,
  which: Which = 'service',
  env: typeof serverEnv = serverEnv,
): Promise<T> {
  const server =
    which === 'service'
      ? await startServer({ env, processes })
      : await startServer({ env: sameWorkEnv(env), processes, command: SAME_WORK_COMMAND })
  try {
    const seeded = { base: server.base, pids: server.pids, people, adminToken: await adminToken(dbUrl, SECRET), dates: shape.dates, months: shape.months }
    // warm-up: the code paths of the routes, and the clock-ins of the employees outside the burst
    await scenario.employeeReads(seeded, 8, WARM_MS)
    await scenario.morningBurst({ ...seeded, people: people.slice(size.burst) }, 8)
    return await work(seeded)
  } finally {
    await server.stop()
  }
}

/** Resident memory of a server process once it has been left alone for IDLE_MS. */
const idleRss = async (pid: number) => {
  await Bun.sleep(IDLE_MS)
  return rssOf(pid)
}

log(`footprint: ${STARTS} fresh starts of the service, then of the same-work baseline`)
const startUp = await startUps({ env: serverEnv, starts: STARTS, idleMs: IDLE_MS })
const baselineStartUp = await startUps({ env: sameWorkEnv(serverEnv), command: SAME_WORK_COMMAND, starts: STARTS, idleMs: IDLE_MS })

log('B4/B5 answer what S1/S2 get')
const sameAnswered = await (async () => {
  const [service, baseline] = [await startServer({ env: serverEnv }), await startSameWork(serverEnv)]
  try {
    const seeded = { base: service.base, people: people.slice(size.burst), adminToken: '', dates: shape.dates, months: shape.months }
    return await sameAnswers(seeded, baseline.base, dbUrl, 3)
  } finally {
    await Promise.all([service.stop(), baseline.stop()])
    await undoBurst()
  }
})()

/** B4 and B5: the burst and the reads of S1 and S2 on the same-work baseline, after the same warm-up. */
const sameWork = async () => {
  const result = await withServer(
    1,
    async (seeded) => {
      const b4 = await burst(seeded)
      const b5 = await scenario.employeeReads(seeded, CONNECTIONS, size.durationMs)
      return { b4, b5, rssAfterReads: await idleRss(seeded.pids[0]) }
    },
    'baseline',
  )
  await undoBurst()
  return result
}

const burst = (seeded: scenario.Seeded) => scenario.morningBurst({ ...seeded, people: people.slice(0, size.burst) }, CONNECTIONS)
/** S1, then S2 */
const burstAndReads = async (seeded: scenario.Seeded) => ({
  s1: await burst(seeded),
  s2: await scenario.employeeReads(seeded, CONNECTIONS, size.durationMs),
})
// the baseline runs before and after the service: the machine is shared, and its load drifts
log('B4/B5: the same-work baseline, before S1–S5')
const sameWorkBefore = await sameWork()

log('S1–S5 on one server process')
const one = await withServer(1, async (seeded) => {
  const s1 = await burst(seeded)
  const s2 = await scenario.employeeReads(seeded, CONNECTIONS, size.durationMs)
  const rssAfterS2 = await idleRss(seeded.pids[0])
  // latency targets are measured one request at a time (a saturated server's latency is its
  // queue), each after WARM_MS of the same requests unmeasured (a fresh server's page cache is cold)
  const latency = async (run: (seeded: scenario.Seeded, connections: number, durationMs: number) => Promise<LoadResult>) => {
    await run(seeded, 1, WARM_MS)
    return run(seeded, 1, size.durationMs)
  }
  const s3a = await latency(scenario.adminListByEmployee)
  const s3b = await latency(scenario.adminListByStatus)
  const s4 = await latency(scenario.monthlyStatistics)
  const s5 = await scenario.salaryStatistics(seeded, smoke ? 10 : 60)
  return { s1, s2, rssAfterS2, s3a, s3b, s4, s5 }
})
await undoBurst()

log('B4/B5: the same-work baseline, after S1–S5')
const sameWorkAfter = await sameWork()

log('S7: S1 and S2 on two server processes sharing the port and the database file')
const two = await withServer(2, burstAndReads)
await undoBurst()

log(`S8: day close of every group on ${seed.day_close.work_day} (${seed.day_close.on_leave} on leave) and on the holiday ${seed.day_close.holiday}`)
const s8 = await dayCloseScenario(serverEnv, await adminToken(dbUrl, SECRET), { workDay: seed.day_close.work_day, holiday: seed.day_close.holiday }, smoke ? 1 : 3)

log('query plans of the scenarios')
const plans = await (async () => {
  // the S8 request closes the work day again, as S8 found it
  await reopenDay(dbUrl, seed.day_close.work_day)
  const seeded = { base: 'http://localhost', people, adminToken: await adminToken(dbUrl, SECRET), dates: shape.dates, months: shape.months }
  const request = ({ url, init }: LoadRequest) => new Request(url, init)
  const { requests } = scenario
  const found = await queryPlans(serverEnv, {
    'S1 clock-in': request(requests.clockIn(seeded, 0)),
    'S2 today': request(requests.employeeRead(seeded, 0)),
    'S2 salary of a month': request(requests.employeeRead(seeded, 1)),
    'S3 records by employee and month': request(requests.recordsByEmployee(seeded, 0)),
    'S3 records by status': request(requests.recordsByStatus(seeded, 0)),
    'S4 monthly statistics': request(requests.monthlyStatistics(seeded, 0)),
    'S5 salary statistics of a month': request(requests.salaryStatistics(seeded, 0)),
    'S5 salary statistics of all months': request(requests.salaryStatistics(seeded, 1)),
    'S8 day close of every group, a work day with leave': closeDayRequest(seeded.base, seeded.adminToken, seed.day_close.work_day),
  })
  await undoBurst()
  return found
})()

// exports before the import: the sheet is of the seeded employees
const month = lastFullMonth()
log(`S9: the attendance sheet of ${month} for every employee, as CSV and as XLSX`)
const b6 = await rawMonthRead(dbUrl, month)
const s9 = await withServer(1, (seeded) => exportsScenario(seeded.base, seeded.pids[0], seeded.adminToken, month))
await undoBurst()
// the payroll before the import: the run pays the seeded employees, each with a pay profile
const payMonth = payrollMonth(shape.dates)
log(`S11: a payroll run of ${payMonth} for every employee, B8 the same figures by hand`)
const payroll = await payrollBench({
  dbPath,
  env: serverEnv,
  token: await adminToken(dbUrl, SECRET),
  companyId: seed.company.id,
  month: payMonth,
  // the profile is the report's "where the time goes"; a smoke run's would mean nothing and costs a server start
  profile: !smoke,
  runs: smoke ? 1 : 5,
  server: (work) => withServer(1, (seeded) => work(seeded.base, seeded.pids[0])),
})
await undoBurst()
const importRows = smoke ? 200 : 5000
log(`S10: an import of ${importRows.toLocaleString('en')} employees without passwords`)
const b7 = await rawEmployeeInserts(dbUrl, importRows)
const s10 = await withServer(1, (seeded) => importScenario(seeded.base, seeded.adminToken, importRows))
await undoBurst()

log(`S6: a ${size.uploadMb} MB upload`)
const s6 = await uploadScenario(size.uploadMb)

log('zone arithmetic: Intl against Temporal')
const zones = zoneArithmetic(smoke ? 2000 : 20_000)

log('S1 and S2 on a libSQL server (sqld), one and two processes; B3 on an embedded replica of it')
const onSqld = await sqldScenario({
  dbPath,
  dir: join(dataDir, 'sqld'),
  lastRecord: shape.lastRecord,
  run: (databaseUrl, processes) => withServer(processes, burstAndReads, 'service', { ...serverEnv, DATABASE_URL: databaseUrl }),
  reads: smoke ? 500 : 5000,
  employees: employeeIds,
  dates: shape.dates,
  // a full try takes about 90 s here; sqld sometimes stalls (the section says so)
  deadlineMs: smoke ? 120_000 : medium ? 180_000 : 240_000,
  tries: 2,
})

log('where the time goes: S1 and S2 on Workforce and on B4/B5 under the CPU profiler')
const layers = await layerProfiles({
  env: serverEnv,
  people,
  adminToken: await adminToken(dbUrl, SECRET),
  months: shape.months,
  burst: size.burst,
  s1Rounds: smoke ? 1 : 2,
  s2Seconds: Math.max(1, size.durationMs / 1000),
})

// the web console's section is bun bench/console.ts's: kept as it was
const consoleSection = existsSync(resultsPath) ? sectionOf(readFileSync(resultsPath, 'utf8'), '## Web console') : null
writeFileSync(resultsPath, consoleSection ? withSection(report(), '## Web console', consoleSection) : report())
log(`wrote ${resultsPath}`)
if (!smoke && !medium) rmSync(dataDir, { recursive: true, force: true })

/** A statement for the report: its column lists elided. */
function brief(sql: string): string {
  return sql
    .replace(/\s+/g, ' ')
    .replace(/^select (?!count).*? from /i, 'select … from ')
    .replace(/ returning .*$/i, ' returning …')
    .replace(/^insert into ("\w+") \(.*?\) values \(.*?\)(, \(.*?\))*/i, 'insert into $1 (…) values (…)')
    .replace(/ in \((\?, )*\?\)/gi, ' in (…)')
}

/** A scenario's statements, one of each shape: the same statement with more rows or listed ids is shown once. */
function distinct(statements: { sql: string; plan: string[] }[]) {
  const seen = new Set<string>()
  return statements.filter(({ sql }) => !seen.has(brief(sql)) && seen.add(brief(sql)))
}

/** S11's rows of the targets table: time against B8, memory growth, and whether B8 computes the same payslips. */
function payrollRows(): [string, string, string, string][] {
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`
  const holdsText = (ok: boolean) => (ok ? 'holds' : '**misses**')
  const { s11, b8, agreement, ratio } = payroll
  // as S9: the run after an unmeasured one (the first also fills SQLite's page cache and the heap's first size); the first shown beside it
  const growth = s11.warmGrowth
  const same = agreement.same === agreement.loop && agreement.run === agreement.loop
  return [
    [
      `S11 payroll run of ${s11.month}: time`,
      `${s11.warm.seconds.toFixed(2)} s for ${s11.warm.headCount.toLocaleString('en')} payslips (median of ${s11.warmSeconds.length}: ${s11.warmSeconds.map((t) => t.toFixed(2)).join(', ')} s; the first run on the server ${s11.cold.seconds.toFixed(2)} s) = ${ratio.toFixed(1)}× B8 (the median of the runs' ratios, each to the mean of the B8 runs timed right before and right after it; B8 alone ${(b8.seconds * 1000).toFixed(1)} ms)`,
      '≤ 3× B8',
      holdsText(ratio <= 3),
    ],
    [
      'S11 payroll run: memory growth',
      `${mb(growth)} (the largest of the runs after the first; the median run ${mb(s11.warm.rssBefore)} → peak ${mb(s11.warm.rssPeak)}); the first run on the server ${mb(s11.cold.rssGrowth)} (${mb(s11.cold.rssBefore)} → peak ${mb(s11.cold.rssPeak)})`,
      '≤ 64 MB',
      holdsText(growth <= 64 * 1024 * 1024),
    ],
    [
      'B8 computes what S11 computes',
      same
        ? `the same gross, tax and net for all ${agreement.loop.toLocaleString('en')} employees`
        : `${(agreement.loop - agreement.same).toLocaleString('en')} of ${agreement.loop.toLocaleString('en')} employees differ, ${agreement.run.toLocaleString('en')} payslips in the run (see "Payroll run (S11) against B8")`,
      'the same',
      same ? 'holds' : '**misses**',
    ],
  ]
}

function report(): string {
  const ms = (value: number) => `${value.toFixed(value < 10 ? 2 : 1)} ms`
  const rps = (result: LoadResult) => `${Math.round(result.throughput).toLocaleString('en')}/s`
  const pct = (value: number) => `${Math.round(value * 100)}%`
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`
  const holds = (ok: boolean) => (ok ? 'holds' : '**misses**')
  const clean = (result: LoadResult) => (result.failures === 0 ? '' : ` (${result.failures} failed: ${JSON.stringify(result.statuses)})`)
  const writeBase = Math.min(b1.throughput, b2.throughput)
  // S8's baseline: B2's cost of one row in its own transaction, times the rows the close wrote
  const b2PerRowMs = (b2.seconds * 1000) / b2.requests
  const dayClose = (run: typeof s8.workDay) => {
    const rowsWritten = run.absences + run.exceptions + run.closedDays
    const perEmployee = (run.ms * 1000) / Math.max(1, run.employees)
    return `${ms(run.ms)} for ${run.groups} groups, ${run.employees.toLocaleString('en')} employees (${perEmployee.toFixed(1)} µs each); wrote ${run.absences.toLocaleString('en')} absences, ${run.exceptions} exceptions, ${run.closedDays} closed days; ${run.onLeave.toLocaleString('en')} on approved leave, ${run.leaveRecords} records for them; ${(run.ms / (b2PerRowMs * Math.max(1, rowsWritten))).toFixed(1)}× B2 per row × ${rowsWritten.toLocaleString('en')} rows (runs: ${run.runs.map((value) => value.toFixed(0)).join(', ')} ms)`
  }
  const readBase = Math.min(b1.throughput, b3.throughput)
  // B4 and B5: the mean of the runs before and after the service's
  const b4 = (sameWorkBefore.b4.throughput + sameWorkAfter.b4.throughput) / 2
  const b5 = (sameWorkBefore.b5.throughput + sameWorkAfter.b5.throughput) / 2
  const perSecond = (value: number) => `${Math.round(value).toLocaleString('en')}/s`
  const sameWorkRuns = (key: 'b4' | 'b5') =>
    `${perSecond(key === 'b4' ? b4 : b5)}: ${rps(sameWorkBefore[key])} before, ${rps(sameWorkAfter[key])} after${clean(sameWorkBefore[key])}${clean(sameWorkAfter[key])}`
  /** 'holds', or by how much it misses */
  const verdict = (ok: boolean, short: string) => (ok ? 'holds' : `**misses** by ${short}`)
  const seconds = (value: number) => `${(value / 1000).toFixed(2)} s`
  const points = (fraction: number) => `${Math.round(fraction * 100)} points`
  const statements = sameStatements(plans, ['S1 clock-in', 'S2 today', 'S2 salary of a month'])
  const sameWorkSame = sameAnswered.length === 0 && statements.missing.length === 0 && statements.extra.length === 0
  const sameWorkRows: [string, string, string, string][] = [
    [
      'S1 against B4 (the same work by hand): throughput',
      `${rps(one.s1)} = ${pct(one.s1.throughput / b4)} of B4 (${sameWorkRuns('b4')})${clean(one.s1)}`,
      '≥ 80%',
      verdict(one.s1.throughput >= 0.8 * b4 && one.s1.failures === 0, `${points(0.8 - one.s1.throughput / b4)} (${perSecond(0.8 * b4 - one.s1.throughput)}); ${beyondBaseline(layers.s1)}`),
    ],
    [
      'S1 morning burst: p99 at 64 connections',
      `${ms(one.s1.p99)} (p50 ${ms(one.s1.p50)}); B4 ${ms(sameWorkBefore.b4.p99)}, ${ms(sameWorkAfter.b4.p99)}`,
      '≤ 25 ms',
      verdict(one.s1.p99 <= 25, ms(one.s1.p99 - 25)),
    ],
    [
      'S2 against B5 (the same work by hand): throughput',
      `${rps(one.s2)} = ${pct(one.s2.throughput / b5)} of B5 (${sameWorkRuns('b5')})${clean(one.s2)}`,
      '≥ 60%',
      verdict(one.s2.throughput >= 0.6 * b5 && one.s2.failures === 0, `${points(0.6 - one.s2.throughput / b5)} (${perSecond(0.6 * b5 - one.s2.throughput)}); ${beyondBaseline(layers.s2)}`),
    ],
    [
      'B4/B5 do what S1/S2 do',
      sameWorkSame
        ? `the same answers (status, headers, body but its times and ids, the row a clock-in writes) for 3 employees; the same ${HOT_STATEMENTS.length} statements`
        : `${sameAnswered.length} answers differ, ${statements.missing.length} statements only Workforce runs, ${statements.extra.length} only the baseline (see "Same-work baselines")`,
      'the same',
      sameWorkSame ? 'holds' : '**misses**',
    ],
    [
      'Footprint: resident memory idle after start',
      `${mb(median(startUp.idleRss))} (median of ${STARTS} starts, ${IDLE_MS / 1000} s after the first 200; B4/B5's server ${mb(median(baselineStartUp.idleRss))})`,
      '≤ 64 MB',
      verdict(median(startUp.idleRss) <= 64 * 1024 * 1024, mb(median(startUp.idleRss) - 64 * 1024 * 1024)),
    ],
    [
      'Footprint: resident memory idle after S2',
      `${mb(one.rssAfterS2)} (${IDLE_MS / 1000} s after S2; B4/B5's server after B5 ${mb(sameWorkBefore.rssAfterReads)}, ${mb(sameWorkAfter.rssAfterReads)})`,
      '≤ 64 MB',
      verdict(one.rssAfterS2 <= 64 * 1024 * 1024, mb(one.rssAfterS2 - 64 * 1024 * 1024)),
    ],
    [
      'Footprint: start to the first 200 on /health',
      `${seconds(median(startUp.firstOkMs))} (median of ${STARTS} starts on the seeded database: ${startUp.firstOkMs.map((value) => seconds(value)).join(', ')}; B4/B5's server ${seconds(median(baselineStartUp.firstOkMs))})`,
      '≤ 0.5 s',
      verdict(median(startUp.firstOkMs) <= 500, seconds(median(startUp.firstOkMs) - 500)),
    ],
    [
      'Zone arithmetic of a clock-in (no I/O)',
      `local date + minute of an instant: Temporal ${(zones.wallClock.temporal / 1000).toFixed(2)} µs, Intl ${(zones.wallClock.intl / 1000).toFixed(2)} µs; instant of a wall time, uncached: Temporal ${(zones.instantOf.temporal / 1000).toFixed(2)} µs, Intl ${(zones.instantOf.intl / 1000).toFixed(2)} µs; a clock-in's whole date and time work (work date, rule, shift, verdict) ${(zones.clockIn / 1000).toFixed(2)} µs (\`bench/zone-arithmetic.ts\`)`,
      'reported',
      '—',
    ],
  ]
  const rows: [string, string, string, string][] = [
    ...sameWorkRows,
    [
      'S1 morning burst: throughput',
      `${rps(one.s1)} = ${pct(one.s1.throughput / writeBase)} of min(B1, B2)${clean(one.s1)}`,
      '≥ 50%',
      holds(one.s1.throughput >= 0.5 * writeBase && one.s1.failures === 0),
    ],
    [
      'S2 employee reads: throughput',
      `${rps(one.s2)} = ${pct(one.s2.throughput / readBase)} of min(B1, B3)${clean(one.s2)}`,
      '≥ 50%',
      holds(one.s2.throughput >= 0.5 * readBase && one.s2.failures === 0),
    ],
    [
      'S3 records by employee and month: p99',
      `${ms(one.s3a.p99)} (p50 ${ms(one.s3a.p50)})${clean(one.s3a)}`,
      '≤ 20 ms',
      holds(one.s3a.p99 <= 20 && one.s3a.failures === 0),
    ],
    [
      'S3 records by status, with total: p99',
      `${ms(one.s3b.p99)} (p50 ${ms(one.s3b.p50)})${clean(one.s3b)}`,
      '≤ 200 ms',
      holds(one.s3b.p99 <= 200 && one.s3b.failures === 0),
    ],
    [
      'S4 monthly statistics: p99',
      `${ms(one.s4.p99)} (p50 ${ms(one.s4.p50)})${clean(one.s4)}`,
      '≤ 10 ms',
      holds(one.s4.p99 <= 10 && one.s4.failures === 0),
    ],
    [
      'S5 salary statistics: slowest',
      `${ms(one.s5.max)} (p50 ${ms(one.s5.p50)})${clean(one.s5)}`,
      '≤ 100 ms',
      holds(one.s5.max <= 100 && one.s5.failures === 0),
    ],
    [
      'S6 upload: memory growth',
      `${mb(s6.rssGrowth)} (${mb(s6.rssBefore)} → peak ${mb(s6.rssPeak)}), HTTP ${s6.status}`,
      '≤ 64 MB',
      holds(s6.rssGrowth <= 64 * 1024 * 1024 && s6.status === 201),
    ],
    [
      'S6 upload: throughput',
      `${pct(s6.ratio)} of Bun writing and flushing the same bytes (${s6.seconds.toFixed(2)} s vs ${s6.diskSeconds.toFixed(2)} s); ${pct(s6.cacheSeconds / s6.seconds)} of an unflushed write (${s6.cacheSeconds.toFixed(2)} s)`,
      '≥ 50%',
      holds(s6.ratio >= 0.5),
    ],
    [
      'S6 over the limit',
      `HTTP ${s6.overLimitStatus}, ${s6.objectsLeftByRefusal} objects left, ${s6.rows} rows (2 expected)`,
      '413, nothing left',
      holds(s6.overLimitStatus === 413 && s6.objectsLeftByRefusal === 0 && s6.rows === 2),
    ],
    [
      'S7 two processes: S1 throughput',
      `${rps(two.s1)} = ${pct(two.s1.throughput / one.s1.throughput)} of one process; p99 ${ms(two.s1.p99)}${clean(two.s1)}`,
      'reported',
      '—',
    ],
    [
      'S7 two processes: S2 throughput',
      `${rps(two.s2)} = ${pct(two.s2.throughput / one.s2.throughput)} of one process; p99 ${ms(two.s2.p99)}${clean(two.s2)}`,
      'reported',
      '—',
    ],
    ...(['one', 'two'] as const).flatMap((processes): [string, string, string, string][] =>
      (['s1', 's2'] as const).map((key) => {
        const run = onSqld.found?.[processes][key]
        if (!run) return [`${key.toUpperCase()} on a libSQL server (sqld), ${processes} process${processes === 'one' ? '' : 'es'}: throughput`, 'no figure: sqld stalled (see "On a libSQL server")', 'reported', '**stalled**']
        return [
          `${key.toUpperCase()} on a libSQL server (sqld), ${processes} process${processes === 'one' ? '' : 'es'}: throughput`,
          `${rps(run)} = ${pct(run.throughput / one[key].throughput)} of the embedded file's one process; p99 ${ms(run.p99)}${clean(run)}`,
          'reported',
          '—',
        ]
      }),
    ),
    [`S8 day close: a work day with leave (${s8.workDay.date})`, dayClose(s8.workDay), 'reported', s8.workDay.leaveRecords === 0 ? '—' : '**leave got records**'],
    [`S8 day close: a holiday (${s8.holiday.date})`, dayClose(s8.holiday), 'reported', s8.holiday.absences === 0 ? '—' : '**holiday got absences**'],
    ...(['csv', 'xlsx'] as const).flatMap((format): [string, string, string, string][] => {
      const run = s9[format]
      return [
        [
          `S9 attendance sheet ${s9.month}, ${format.toUpperCase()}: time`,
          `${run.seconds.toFixed(2)} s for ${(run.rows ?? seed.counts.employees).toLocaleString('en')} employees, ${mb(run.bytes)} (first byte ${ms(run.firstByteSeconds * 1000)}, HTTP ${run.status}); ${(run.seconds / b6.seconds).toFixed(1)}× B6`,
          'reported',
          run.status === 200 ? '—' : '**failed**',
        ],
        [`S9 attendance sheet, ${format.toUpperCase()}: memory growth`, `${mb(run.rssGrowth)} (${mb(run.rssBefore)} → peak ${mb(run.rssPeak)})`, '≤ 64 MB', holds(run.rssGrowth <= 64 * 1024 * 1024 && run.status === 200)],
      ]
    }),
    [
      `S10 import of ${s10.rows.toLocaleString('en')} employees, no passwords`,
      `${(s10.importMs / 1000).toFixed(2)} s (dry run ${(s10.dryRunMs / 1000).toFixed(2)} s), ${mb(s10.bytes)}, ${s10.created.toLocaleString('en')} created; ${(s10.importMs / 1000 / b7.seconds).toFixed(1)}× B7`,
      'reported',
      s10.created === s10.rows ? '—' : '**rows missing**',
    ],
    ...payrollRows(),
  ]
  const load = (name: string, result: LoadResult, connections: string) =>
    `| ${name} | ${connections} | ${result.requests.toLocaleString('en')} | ${result.seconds.toFixed(2)} s | ${rps(result)} | ${ms(result.p50)} | ${ms(result.p99)} | ${ms(result.max)} |`
  const cpu = cpus()
  const recordSeconds = seed.timings.attendance_records
  return `# Benchmark results

${smoke ? '**Smoke run** (tiny data; figures mean nothing, it only shows the suite works).\n\n' : medium ? '**Medium run** (less data and shorter runs than the suite: for trying a change).\n\n' : ''}- Date: ${new Date().toISOString()}
- Machine: ${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${mb(totalmem())} memory, Linux ${release()}, Bun ${Bun.version}
- Data: ${seed.counts.employees.toLocaleString('en')} employees in ${seed.counts.attendance_groups} groups, ${seed.counts.attendance_records.toLocaleString('en')} attendance records, ${seed.counts.salaries.toLocaleString('en')} salaries, ${seed.counts.pay_profiles.toLocaleString('en')} pay profiles (${seed.pay_profile_months.join(', ')}), ${seed.counts.files.toLocaleString('en')} files, ${seed.counts.calendar_days} calendar days (${Object.entries(seed.work_dates.calendar).map(([date, kind]) => `${date} ${kind}`).join(', ')}), ${seed.counts.leave_requests.toLocaleString('en')} approved leave requests (1 in 4 of those away from S8's date of an unpaid type; ${seed.counts.leave_ledger.toLocaleString('en')} ledger rows; ${seed.day_close.on_leave} employees on leave on ${seed.day_close.work_day}); no records on holidays or on approved leave
- Seeding: ${seed.counts.attendance_records.toLocaleString('en')} attendance records in ${recordSeconds.toFixed(1)} s with their indexes, ${seed.attendance_rows_per_second.toLocaleString('en')} rows/s (target: 1,000,000 in under 120 s: ${holds((recordSeconds * 1_000_000) / Math.max(1, seed.counts.attendance_records) < 120)}); the whole seed ${seed.timings.total.toFixed(1)} s
- Warm-up: before the scenarios, ${WARM_MS / 1000} s of employee reads and the clock-ins of the ${(size.employees - size.burst).toLocaleString('en')} employees outside the S1 burst; before each latency scenario (S3, S4), ${WARM_MS / 1000} s of its own requests, unmeasured.
- Load driver: Bun's fetch in this process, a fixed number of keep-alive connections, against server processes on 127.0.0.1; the machine is shared, so compare ratios, not absolute figures. Throughput scenarios use 64 connections; latency targets (S3–S5) are measured one request at a time, because a saturated server's latency is the length of its queue.
- S8 (day close): the close-day request handled in this process (the app as the server builds it, no network) against the seeded database after S1–S7, every group at once; before each run the date is put back unclosed (its absences deleted, its closed-day rows removed). Median of ${smoke ? 1 : 3} runs after one unmeasured; its baseline is B2's cost per row (one insert, its own transaction) times the rows the close wrote.
- Whole run: ${((Date.now() - started) / 1000).toFixed(0)} s

## Targets

| scenario | measured | target | |
|---|---|---|---|
${rows.map((row) => `| ${row.join(' | ')} |`).join('\n')}

## Every figure

| run | connections | requests | time | throughput | p50 | p99 | max |
|---|---|---|---|---|---|---|---|
${[
  load('B1 bare Elysia JSON route', b1, String(CONNECTIONS)),
  load('B2 raw libSQL insert, one row per transaction', b2, '1 loop'),
  load('B3 raw libSQL point select by (employee, date)', b3, '1 loop'),
  load('B4 same-work clock-in by hand, before S1', sameWorkBefore.b4, String(CONNECTIONS)),
  load('B5 same-work employee reads by hand, before S1', sameWorkBefore.b5, String(CONNECTIONS)),
  load('S1 clock-in, distinct employees', one.s1, String(CONNECTIONS)),
  load('S2 /attendance/today + /employees/salaries/{month}', one.s2, String(CONNECTIONS)),
  load('S3 admin records by employee and month', one.s3a, '1'),
  load('S3 admin records by status, with total', one.s3b, '1'),
  load('S4 employee monthly statistics', one.s4, '1'),
  load('S5 salary statistics (month, all months)', one.s5, '1'),
  load('B4 same-work clock-in by hand, after S1–S5', sameWorkAfter.b4, String(CONNECTIONS)),
  load('B5 same-work employee reads by hand, after S1–S5', sameWorkAfter.b5, String(CONNECTIONS)),
  load('S7 clock-in on two processes', two.s1, String(CONNECTIONS)),
  load('S7 employee reads on two processes', two.s2, String(CONNECTIONS)),
  ...(onSqld.found
    ? [
        load('S1 clock-in on sqld, one process', onSqld.found.one.s1, String(CONNECTIONS)),
        load('S2 employee reads on sqld, one process', onSqld.found.one.s2, String(CONNECTIONS)),
        load('S1 clock-in on sqld, two processes', onSqld.found.two.s1, String(CONNECTIONS)),
        load('S2 employee reads on sqld, two processes', onSqld.found.two.s2, String(CONNECTIONS)),
        load("B3's point select through sqld's HTTP API", onSqld.found.replica.http, '1 loop'),
        load("B3's point select on an embedded replica of sqld", onSqld.found.replica.local, '1 loop'),
      ]
    : []),
].join('\n')}

- B6 raw read of ${month}'s attendance records (${b6.rows.toLocaleString('en')} rows, one query through the libSQL client): ${(b6.seconds * 1000).toFixed(1)} ms — the reading S9's sheet must do.
- B7 raw insert of ${b7.rows.toLocaleString('en')} employee rows in one transaction through the libSQL client: ${(b7.seconds * 1000).toFixed(1)} ms — the writing S10's import must do.
- B8 ${payroll.s11.month}'s payroll of ${payroll.b8.employees.toLocaleString('en')} employees by hand (the rows read raw with the \`libsql\` driver, then a plain loop: absence, unpaid leave, lateness, overtime, gross, tax, net): ${(payroll.b8.seconds * 1000).toFixed(1)} ms — the reading and computing S11's run must do (see "Payroll run (S11) against B8").
- S9 and S10 each on a fresh server process (after the same warm-up); the import's file has departments by name, quoted cells and a byte-order mark, and no accounts, so no password is hashed. An import with passwords hashes each at LOGIN_CONCURRENCY (about 0.1 s a password on this machine).

${payrollSection(payroll)}
${sqldSection(onSqld, { one, two, b3, connections: CONNECTIONS })}

## Same-work baselines

B4 and B5 (\`bench/baselines/same-work-server.ts\`) do S1's clock-in and S2's two reads by hand: \`Bun.serve\`, \`jose\` with Workforce's token and caller caches, the \`libsql\` driver with Workforce's pragmas and its SQL (each statement prepared once, rows read as arrays), Workforce's own pure policy, position and shaping functions, the same envelope, headers and gzip; no Elysia, Drizzle, TypeBox, CASL or Workforce's database client (\`src/db/\`). Each runs as its own server process on the seeded database after the same warm-up as the service, with the same requests over the same ${CONNECTIONS} connections, once before the service's S1–S5 and once after; B4 and B5 are the mean of the two. What stands between S1/S2 and them is the cost of Workforce's layers.

${
  sameWorkSame
    ? '- Answers: the same as Workforce\'s for 3 employees (today before and after a clock-in, a month\'s salary, the clock-in and the row it writes), for a month with no salary and for no token.\n- Statements: the same as Workforce\'s (the query plans below).'
    : [...sameAnswered.map((difference) => `- ${difference}`), ...statements.missing.map((sql) => `- only Workforce runs \`${sql}\``), ...statements.extra.map((sql) => `- only the baseline runs \`${sql}\``)].join('\n')
}

${layerSection(layers)}
## Query plans

Every statement each scenario's request runs (caught in this process against the seeded database), with SQLite's \`EXPLAIN QUERY PLAN\`.

${Object.entries(plans)
  .map(
    ([name, statements]) =>
      `### ${name}\n\n${distinct(statements).map(({ sql, plan }) => `- \`${brief(sql)}\`\n${(plan.length ? plan : ['(a write: no plan)']).map((line) => `  - ${line}`).join('\n')}`).join('\n')}`,
  )
  .join('\n\n')}

S6: ${s6.megabytes} MB uploaded in ${s6.seconds.toFixed(2)} s; Bun wrote and flushed the same bytes in ${s6.diskSeconds.toFixed(2)} s (${s6.cacheSeconds.toFixed(2)} s without the flush); the server's resident memory went from ${mb(s6.rssBefore)} to a peak of ${mb(s6.rssPeak)}.
`
}
