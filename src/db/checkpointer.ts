import { existsSync, statSync } from 'node:fs'
import { Worker } from 'node:worker_threads'
import Database from 'libsql'

/*
 * WAL checkpoints off the request path. SQLite checkpoints the WAL on the commit that takes it past
 * 1,000 pages: that commit copies the pages into the database file and waits for the disk, on the
 * thread that answers requests (a plain insert loop spent about 40% of its time there). With
 * background checkpoints the connections of ./embedded.ts never checkpoint; a worker thread with a
 * connection of its own does, PASSIVE (it never waits for, nor blocks, a reader or a writer), a few
 * times a second while the WAL keeps changing. The WAL of an idle database stays as it is, so the
 * thread ends after `idleMs` without a change, and the writes after it start it again once
 * `commits` of them have come (a few stray writes, a lease renewed or a sign-in, leave a few pages in
 * the WAL, which cost nothing): an idle service holds no thread and none of its memory (5–14 MB).
 *
 * Durability is unchanged: a commit is in the WAL before it is acknowledged (synchronous = NORMAL),
 * whoever copies it into the database file later, and a crash mid-checkpoint leaves the WAL to
 * recover from.
 */

export interface CheckpointSettings {
  /** commits since the thread last ran that start it again */
  commits: number
  /** how often the thread looks at the WAL, ms */
  intervalMs: number
  /** the thread ends after this long without a change to the WAL, ms */
  idleMs: number
  /** the thread's connection waits this long for another checkpointer, ms */
  busyTimeoutMs: number
}

/** 32 commits: SQLite's own checkpoint comes at 1,000 pages, about 125 clock-ins */
export const DEFAULT_CHECKPOINTS: CheckpointSettings = { commits: 32, intervalMs: 200, idleMs: 5000, busyTimeoutMs: 1000 }

export interface Checkpointer {
  /** a write was committed: starts the thread when it is not running and enough commits have come */
  nudge(): void
  /** whether the thread is running */
  readonly running: boolean
  /** checkpoints run by this process's threads so far */
  readonly checkpoints: number
  /** asks the thread to end after the checkpoint it may be running, and waits for it */
  stop(): Promise<void>
}

export function createCheckpointer(path: string, settings: CheckpointSettings = DEFAULT_CHECKPOINTS): Checkpointer {
  let worker: Worker | null = null
  let exited: Promise<void> = Promise.resolve()
  let checkpoints = 0
  let stopped = false
  let pending = 0
  return {
    nudge() {
      if (worker || stopped || ++pending < settings.commits) return
      pending = 0
      const thread = new Worker(new URL('./checkpoint-worker.ts', import.meta.url), { workerData: { path, settings } })
      worker = thread
      thread.unref()
      thread.on('message', (count: number) => (checkpoints += count))
      // a thread that fails (its file gone with a database closed meanwhile) has ended: the next commits start another
      thread.on('error', () => {})
      exited = new Promise((resolve) =>
        thread.once('exit', () => {
          if (worker === thread) worker = null
          resolve()
        }),
      )
    },
    get running() {
      return worker !== null
    },
    get checkpoints() {
      return checkpoints
    },
    async stop() {
      stopped = true
      // never Worker.terminate(): ending the thread inside a call of the libsql driver aborts the process
      worker?.postMessage('stop')
      await exited
    },
  }
}

/**
 * What the thread keeps doing: a PASSIVE checkpoint whenever the WAL has changed since it last
 * looked, until it has not changed for `idleMs` or `stop` is called; `done` resolves then, with the
 * connection closed.
 */
export function checkpointWhileWritten(
  path: string,
  settings: CheckpointSettings,
  ran: (count: number) => void,
): { done: Promise<void>; stop: () => void } {
  // a file removed meanwhile (its database closed) is not made anew, empty
  let db: InstanceType<typeof Database>
  try {
    if (!existsSync(path)) throw new Error(`${path} is gone`)
    db = new Database(path, { timeout: settings.busyTimeoutMs })
  } catch {
    return { done: Promise.resolve(), stop: () => {} }
  }
  const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)')
  const walOf = () => {
    try {
      const { size, mtimeMs } = statSync(`${path}-wal`)
      return `${size}:${mtimeMs}`
    } catch {
      return ''
    }
  }
  let seen = ''
  let quietSince = performance.now()
  let stop = () => {}
  const done = new Promise<void>((resolve) => {
    const finish = () => {
      clearInterval(timer)
      db.close()
      stop = () => {}
      resolve()
    }
    stop = finish
    const tick = () => {
      const now = walOf()
      if (now !== seen) {
        seen = now
        quietSince = performance.now()
        try {
          checkpoint.all()
          ran(1)
        } catch {
          // another process's checkpoint holds the lock: the next change tries again
        }
        // the checkpoint itself may touch the WAL's header; what counts is a change after it
        seen = walOf()
      }
      if (performance.now() - quietSince >= settings.idleMs) finish()
    }
    const timer = setInterval(tick, settings.intervalMs)
    tick()
  })
  return { done, stop: () => stop() }
}
