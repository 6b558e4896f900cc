import { AsyncLocalStorage } from 'node:async_hooks'
import type { Client, InArgs, InStatement, Replicated, ResultSet, Transaction, TransactionMode } from '@libsql/client'
import { isBusy, isUnreachable } from '../lib/sqlite-errors'
import { busyError, DatabaseUnavailableError, timeoutError, unavailableIn, unreachableError } from './unavailable'

/*
 * Every call to the database has a time limit, and a busy database is tried again. A libSQL server
 * can be slow or stall, and a busy one refuses work; a request must then get a clear 503 soon, never
 * hang, and never leave half a change behind.
 *
 * - A call outside a write has `timeoutMs`. A write (and every call inside it) shares one deadline,
 *   `timeoutMs` after it was asked for, waiting for its turn included (`withinScope`).
 * - A transaction whose call runs out of time is abandoned: its connection is closed, so the server
 *   rolls it back, and nothing more is sent on it, COMMIT least of all. Only a COMMIT (or a single
 *   statement on its own) that ran out of time, or lost its connection once sent, leaves the outcome
 *   unknown, and the answer says so.
 * - Busy (the database refused to start the work, so none of it happened) is retried after a pause
 *   that grows and is jittered, while the deadline allows: a statement on its own here, a whole
 *   transaction by `Database.write`. A call that timed out is never tried again.
 */

/** A connection that was never made: nothing of the call reached the server. */
function neverSent(error: unknown): boolean {
  for (let link: unknown = error, depth = 0; link && typeof link === 'object' && depth < 8; depth++) {
    const { code, cause } = link as { code?: unknown; cause?: unknown }
    if (code === 'ECONNREFUSED' || code === 'ConnectionRefused') return true
    link = cause
  }
  return false
}

/**
 * A server that cannot be reached is named as such here, where it is known to be the database's.
 * `sent` is a change (a COMMIT, a write on its own): a connection lost once it went out leaves its
 * outcome unknown, unless the connection was never made.
 */
async function reaching<T>(work: () => Promise<T>, sent: boolean, onUnreachable?: () => void): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (unavailableIn(error) || !isUnreachable(error)) throw error
    onUnreachable?.()
    throw unreachableError(sent && !neverSent(error), error)
  }
}

export interface RetryPolicy {
  /** the first pause's ceiling; each further one doubles, up to `maxPauseMs` */
  firstPauseMs: number
  maxPauseMs: number
  /** [0, 1): the pause is a random share of its ceiling ("full jitter"), so writers that collided do not collide again */
  random: () => number
  sleep: (ms: number) => Promise<void>
}

export const DEFAULT_RETRY: RetryPolicy = { firstPauseMs: 10, maxPauseMs: 500, random: Math.random, sleep: (ms) => Bun.sleep(ms) }

export interface Limits {
  /** a call outside a write, and a write as a whole */
  timeoutMs: number
  retry: RetryPolicy
  /**
   * The client finishes each call before it returns (an embedded file: the driver is synchronous),
   * so no timer could cut one short: a call only checks the deadline before it starts, and no
   * timer is set for it.
   */
  synchronous?: boolean
}

/** Calls that share one deadline (performance.now() time). */
export interface Scope {
  deadline: number
  /** what the deadline was set to, for the message */
  timeoutMs: number
  /** inside a write: a lone statement that runs out of time may have changed something */
  writing: boolean
}

const scopes = new AsyncLocalStorage<Scope>()

export const now = () => performance.now()

/** A write's scope: every call inside it ends by `timeoutMs` from now. */
export const writeScope = (timeoutMs: number): Scope => ({ deadline: now() + timeoutMs, timeoutMs, writing: true })

/** Runs `work` with every database call inside it in `scope`. */
export function withinScope<T>(scope: Scope, work: () => Promise<T>): Promise<T> {
  return scopes.run(scope, work)
}

/** The current scope, or a new one for a single call. */
function scopeOf(limits: Limits): Scope {
  return scopes.getStore() ?? { deadline: now() + limits.timeoutMs, timeoutMs: limits.timeoutMs, writing: false }
}

/** `work`'s answer, or a timeout error at `deadline` (the work goes on, unobserved: callers make sure it cannot harm). */
function beforeDeadline<T>(work: () => Promise<T>, deadline: number, onTimeout: () => Error, synchronous = false): Promise<T> {
  const left = deadline - now()
  if (left <= 0) return Promise.reject(onTimeout())
  if (synchronous) return work()
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(onTimeout()), left)
    work().then(
      (value) => {
        clearTimeout(timer)
        resolve(value)
      },
      (error) => {
        clearTimeout(timer)
        reject(error)
      },
    )
  })
}

/**
 * `attempt` again while the database says busy, after jittered pauses that double, as long as the
 * next try would start before `deadline`; then a busy DatabaseUnavailableError. Nothing else is
 * retried: not a timeout, not an error of this service's own.
 */
export async function retryWhileBusy<T>(attempt: () => Promise<T>, deadline: number, policy: RetryPolicy): Promise<T> {
  for (let tries = 0; ; tries++) {
    try {
      return await attempt()
    } catch (error) {
      if (unavailableIn(error) || !isBusy(error)) throw error
      const pause = policy.random() * Math.min(policy.maxPauseMs, policy.firstPauseMs * 2 ** tries)
      if (now() + pause >= deadline) throw busyError(error)
      await policy.sleep(pause)
    }
  }
}

/**
 * The client with every call timed (see the top of this file). A class, not an object literal:
 * Drizzle takes a plain object for its own configuration.
 */
export class GuardedClient implements Client {
  constructor(
    private readonly client: Client,
    private readonly limits: Limits,
  ) {}

  get closed(): boolean {
    return this.client.closed
  }

  get protocol(): string {
    return this.client.protocol
  }

  /** A statement, batch or migration on its own connection is atomic: busy means none of it ran, so it is tried again. */
  private atomic<T>(work: () => Promise<T>): Promise<T> {
    const scope = scopeOf(this.limits)
    const attempt = () => beforeDeadline(work, scope.deadline, () => timeoutError(scope.timeoutMs, scope.writing), this.limits.synchronous)
    return reaching(() => retryWhileBusy(attempt, scope.deadline, this.limits.retry), scope.writing)
  }

  execute(stmt: InStatement): Promise<ResultSet>
  execute(sql: string, args?: InArgs): Promise<ResultSet>
  execute(stmt: InStatement | string, args?: InArgs): Promise<ResultSet> {
    return this.atomic(() => (typeof stmt === 'string' ? this.client.execute(stmt, args) : this.client.execute(stmt)))
  }

  batch(stmts: Array<InStatement | [string, InArgs?]>, mode?: TransactionMode): Promise<ResultSet[]> {
    return this.atomic(() => this.client.batch(stmts, mode))
  }

  migrate(stmts: InStatement[]): Promise<ResultSet[]> {
    return this.atomic(() => this.client.migrate(stmts))
  }

  /** Several statements, each committed as it runs: not atomic, so not retried. */
  executeMultiple(sql: string): Promise<void> {
    const scope = scopeOf(this.limits)
    return reaching(
      () => beforeDeadline(() => this.client.executeMultiple(sql), scope.deadline, () => timeoutError(scope.timeoutMs, true), this.limits.synchronous),
      true,
    )
  }

  async transaction(mode?: TransactionMode): Promise<Transaction> {
    const scope = scopeOf(this.limits)
    const opening = this.client.transaction(mode)
    try {
      const tx = await reaching(() => beforeDeadline(() => opening, scope.deadline, () => timeoutError(scope.timeoutMs, false)), false)
      return new GuardedTransaction(tx, scope, this.limits.synchronous)
    } catch (error) {
      // opened after all, too late: closed at once, so it holds nothing on the server
      void opening.then((late) => late.close(), () => undefined)
      throw error
    }
  }

  sync(): Promise<Replicated> {
    return this.client.sync()
  }

  close(): void {
    this.client.close()
  }

  reconnect(): void {
    this.client.reconnect()
  }
}

/** A transaction whose calls share its deadline; once one runs out of time it is closed and sends nothing more. */
class GuardedTransaction implements Transaction {
  private abandoned: DatabaseUnavailableError | null = null

  constructor(
    private readonly tx: Transaction,
    private readonly scope: Scope,
    private readonly synchronous = false,
  ) {}

  get closed(): boolean {
    return this.abandoned !== null || this.tx.closed
  }

  /** Closing the connection makes the server roll the transaction back; nothing more is sent on it, no COMMIT least of all. */
  private abandon(error: DatabaseUnavailableError): DatabaseUnavailableError {
    this.abandoned ??= error
    this.tx.close()
    return error
  }

  private call<T>(work: () => Promise<T>, outcomeUnknown = false): Promise<T> {
    if (this.abandoned) return Promise.reject(this.abandoned)
    const timed = () =>
      beforeDeadline(work, this.scope.deadline, () => this.abandon(timeoutError(this.scope.timeoutMs, outcomeUnknown)), this.synchronous)
    return reaching(timed, outcomeUnknown, () => {
      this.abandoned ??= unreachableError(outcomeUnknown)
      this.tx.close()
    })
  }

  execute(stmt: InStatement): Promise<ResultSet> {
    return this.call(() => this.tx.execute(stmt))
  }

  batch(stmts: InStatement[]): Promise<ResultSet[]> {
    return this.call(() => this.tx.batch(stmts))
  }

  executeMultiple(sql: string): Promise<void> {
    return this.call(() => this.tx.executeMultiple(sql))
  }

  commit(): Promise<void> {
    return this.call(() => this.tx.commit(), true)
  }

  /** Never throws, so the error that led here is the one reported; a rollback that fails or stalls closes the connection instead. */
  async rollback(): Promise<void> {
    if (this.abandoned) return
    try {
      await beforeDeadline(() => this.tx.rollback(), Math.max(this.scope.deadline, now() + 1000), () => new Error('rollback timed out'))
    } catch {
      this.tx.close()
    }
  }

  close(): void {
    this.tx.close()
  }
}
