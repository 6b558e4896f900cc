import { randomBytes } from 'node:crypto'
import { hostname } from 'node:os'
import { lt } from 'drizzle-orm'
import type { Database } from '../../db/client'
import { healthProbes } from '../../db/schema'
import { unavailableIn } from '../../db/unavailable'
import type { Clock } from '../../lib/clock'
import { freeBytes } from '../../lib/disk-space'
import type { Logger } from '../../lib/logger'
import { render, type Message } from '../../lib/messages'
import { databaseError, isBusy } from '../../lib/sqlite-errors'
import { say } from './messages'

export type Probe = () => Promise<boolean>

/** `up`: the probe's write committed in time; `down`: it failed; `timeout`: it was not done by its deadline. */
export type WriteState = 'up' | 'down' | 'timeout'

export interface WriteVerdict {
  state: WriteState
  /** how long the probe took, ms (at most about its deadline) */
  ms: number
  /** why it failed, for administrators (a database's own error text as it is); null when it did not */
  problem: Message | string | null
}

export interface Probes {
  /** the database answers a read */
  database: Probe
  /** the last write probe's verdict (a real write at most once per interval) */
  databaseWrite: () => Promise<WriteVerdict>
  storage: Probe
  /** the least free space among the folders of this machine where the service keeps data; null when there are none */
  diskFree: () => DiskFree | null
  /** seconds since the newest backup was taken (null: none yet); only when the service makes backups */
  backupAge?: () => Promise<number | null>
}

export interface DiskFree {
  bytes: number
  /** the folder with that little space */
  folder: string
}

export const databaseProbe =
  (database: Database): Probe =>
  async () => {
    try {
      await database.client.execute('SELECT 1')
      return true
    } catch {
      return false
    }
  }

/** Rows of instances that have not probed for this long are removed by the next probe (a restart is a new instance). */
const FORGET_AFTER_MS = 86_400_000

export interface WriteProbeOptions {
  database: Database
  clock: Clock
  logger?: Logger
  /** a real write at most once in this long (by `clock`); calls in between get the last verdict */
  intervalMs: number
  /** a write not done by then is a `timeout` */
  timeoutMs: number
  /** this process's row in `health_probes`; made up when left out */
  instance?: string
}

/** Host, process and a random part: two instances, even on one host, never write the same row. */
export const instanceId = () => `${hostname()}/${process.pid}/${randomBytes(4).toString('hex')}`

/**
 * The write probe of /health (CONTRACT §25): upserts this instance's row of `health_probes` in a
 * transaction of its own, so a database that takes reads but not writes (a full or read-only disk,
 * a held write lock, a libSQL server that hangs on writes) shows. At most one write per interval;
 * callers meanwhile share the last verdict, or the probe in flight. The deadline is the write's own
 * (src/db/guard.ts) and a timer besides: a hung write never holds /health past it. On an embedded
 * file a lock another process holds is waited for synchronously, up to SQLite's busy timeout.
 */
export function writeProbe({ database, clock, logger, intervalMs, timeoutMs, instance = instanceId() }: WriteProbeOptions): () => Promise<WriteVerdict> {
  let last: { verdict: WriteVerdict; at: number } | null = null
  let inFlight: Promise<WriteVerdict> | null = null

  const write = (now: Date) =>
    database.write(
      async (tx) => {
        await tx.insert(healthProbes).values({ instance, probedAt: now }).onConflictDoUpdate({ target: healthProbes.instance, set: { probedAt: now } })
        await tx.delete(healthProbes).where(lt(healthProbes.probedAt, new Date(now.getTime() - FORGET_AFTER_MS)))
      },
      { timeoutMs },
    )

  const probe = async (): Promise<WriteVerdict> => {
    const started = performance.now()
    const ms = () => Math.round(performance.now() - started)
    let timer: ReturnType<typeof setTimeout> | undefined
    const deadline = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)))
    try {
      const outcome = await Promise.race([write(clock.now()).then(() => 'up' as const), deadline])
      return outcome === 'up' ? { state: 'up', ms: ms(), problem: null } : timedOut(ms())
    } catch (error) {
      const unavailable = unavailableIn(error)
      // a lock held past the deadline, or the database not answering in time: it did not fail, it did not finish
      if (unavailable ? unavailable.reason !== 'unreachable' : isBusy(error)) return timedOut(ms())
      const cause = databaseError(error)
      return { state: 'down', ms: ms(), problem: unavailable?.text ?? (cause ? `${cause.code}: ${cause.message}` : String(error)) }
    } finally {
      clearTimeout(timer)
    }
  }

  const timedOut = (ms: number): WriteVerdict => ({
    state: 'timeout',
    ms,
    problem: say.writeTimedOut({ ms: timeoutMs }),
  })

  const heard = (verdict: WriteVerdict) => {
    const before = last?.verdict.state
    if (verdict.state !== 'up' && before !== verdict.state)
      logger?.warn('the database write probe of /health failed: changes may not be saved', {
        state: verdict.state,
        problem: typeof verdict.problem === 'object' && verdict.problem !== null ? render(verdict.problem, 'en') : verdict.problem,
      })
    else if (verdict.state === 'up' && before !== undefined && before !== 'up') logger?.info('the database write probe of /health succeeds again')
  }

  return () => {
    if (inFlight) return inFlight
    const now = clock.now().getTime()
    // a clock set back counts as due, so the verdict never sticks
    if (last && now - last.at >= 0 && now - last.at < intervalMs) return Promise.resolve(last.verdict)
    inFlight = probe().then((verdict) => {
      heard(verdict)
      last = { verdict, at: now }
      inFlight = null
      return verdict
    })
    return inFlight
  }
}

/** The least free space among `folders` (each measured on its filesystem, or its nearest existing parent's); null when none can be measured. */
export function diskFreeProbe(folders: readonly string[]): () => DiskFree | null {
  return () => {
    let least: DiskFree | null = null
    for (const folder of folders) {
      const bytes = freeBytes(folder)
      if (bytes !== null && (least === null || bytes < least.bytes)) least = { bytes, folder }
    }
    return least
  }
}
