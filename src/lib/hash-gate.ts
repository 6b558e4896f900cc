/**
 * Admission for slow password work (argon2 hashes and checks), which takes a core for
 * a tenth of a second or more. Without a bound, a crowd of sign-ins runs them all at once
 * and every other request waits for the CPU. The gate runs at most `limit` tasks, lets a
 * few more wait briefly in order of arrival, and holds one client address to a small share,
 * so that one caller cannot fill the queue. Everything beyond is refused at once, before
 * any work is done.
 */
export interface HashGateOptions {
  /** tasks running at once */
  limit: number
  /** tasks waiting for a turn, at most */
  queue: number
  /** tasks of one client address running or waiting, at most */
  perAddress: number
  /** how long a task waits for its turn before it is refused */
  maxWaitMs: number
}

/** The shape used by the service: a queue of 8 turns per running task, 2 per address, 1.5 s of waiting. */
export function hashGateOptions(limit: number): HashGateOptions {
  return { limit, queue: 8 * limit, perAddress: 2, maxWaitMs: 1500 }
}

export type GateRefusalReason =
  /** the address already has its share running or waiting */
  | 'address'
  /** every running place and every waiting place is taken */
  | 'full'
  /** no turn came within `maxWaitMs` */
  | 'timeout'

export class GateRefusal extends Error {
  constructor(
    readonly reason: GateRefusalReason,
    /** when trying again makes sense, in whole seconds */
    readonly retryAfterSeconds: number,
  ) {
    super(`password work refused: ${reason}`)
    this.name = 'GateRefusal'
  }
}

interface Waiter {
  start(): void
  timer: ReturnType<typeof setTimeout>
}

export function createHashGate(options: HashGateOptions) {
  const { limit, queue, perAddress, maxWaitMs } = options
  let running = 0
  const waiting: Waiter[] = []
  /** running and waiting tasks per address; null (no address known) is one address */
  const held = new Map<string | null, number>()
  const busyRetry = Math.max(1, Math.ceil(maxWaitMs / 1000))

  // invariant: someone waits only while every running place is taken
  const handOver = () => {
    while (running < limit && waiting.length > 0) {
      const next = waiting.shift()!
      clearTimeout(next.timer)
      running++
      next.start()
    }
  }

  const turn = () =>
    new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        start: resolve,
        timer: setTimeout(() => {
          waiting.splice(waiting.indexOf(waiter), 1)
          reject(new GateRefusal('timeout', busyRetry))
        }, maxWaitMs),
      }
      waiting.push(waiter)
    })

  const leave = (address: string | null) => {
    const left = held.get(address)! - 1
    if (left === 0) held.delete(address)
    else held.set(address, left)
  }

  return {
    /**
     * Runs `task` when a place is free. Refuses with a GateRefusal, without running it, when
     * `address` already has its share, when the queue is full, or when no turn comes in time.
     * The admission is decided synchronously, at the call.
     */
    async run<T>(address: string | null, task: () => Promise<T>): Promise<T> {
      const mine = held.get(address) ?? 0
      if (mine >= perAddress) throw new GateRefusal('address', 1)
      if (running >= limit && waiting.length >= queue) throw new GateRefusal('full', busyRetry)
      held.set(address, mine + 1)
      try {
        if (running < limit) running++
        else await turn()
        try {
          return await task()
        } finally {
          running--
          handOver()
        }
      } finally {
        leave(address)
      }
    },

    /** What the gate holds now; for tests and diagnostics. */
    load() {
      return { running, waiting: waiting.length, addresses: held.size }
    },
  }
}

export type HashGate = ReturnType<typeof createHashGate>
