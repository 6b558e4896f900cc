import type { Queryable } from '../../db/client'
import { ServiceUnavailableError, TooManyRequestsError } from '../../http/errors'
import { GateRefusal, type HashGate } from '../../lib/hash-gate'
import * as repo from './repository'

/**
 * Sign-in throttling. Failures are counted per (username, client address), so a stranger
 * who guesses at a name locks only themselves out, never its owner signing in from
 * elsewhere; and per address over all names, so one address cannot spray guesses either.
 */
export const LOGIN_WINDOW_MS = 15 * 60 * 1000
/** failures of one username from one address within the window */
export const LOGIN_MAX_FAILURES = 10
/** failures from one address, whatever the usernames, within the window */
export const LOGIN_MAX_ADDRESS_FAILURES = 30

export const FAILURE_LIMITS: repo.FailureLimits = { perPair: LOGIN_MAX_FAILURES, perAddress: LOGIN_MAX_ADDRESS_FAILURES }

/** Runs password work through the gate; a refusal becomes a 429 (this address's share is taken) or a 503 (the service is busy). */
export async function throughGate<T>(gate: HashGate, address: string | null, task: () => Promise<T>): Promise<T> {
  try {
    return await gate.run(address, task)
  } catch (error) {
    if (!(error instanceof GateRefusal)) throw error
    if (error.reason === 'address')
      throw new TooManyRequestsError('Too many sign-ins from your address at once; wait for their answers first', error.retryAfterSeconds)
    throw new ServiceUnavailableError('The service is busy checking other passwords; try again in a moment', error.retryAfterSeconds)
  }
}

type Lock = { scope: 'pair' | 'address'; until: number }

/** The 429 for a lock that holds until `until` (epoch ms). */
function lockError(lock: Lock, username: string, now: Date): TooManyRequestsError {
  const seconds = Math.max(1, Math.ceil((lock.until - now.getTime()) / 1000))
  const wait = `try again in ${Math.ceil(seconds / 60)} minute(s)`
  const message =
    lock.scope === 'address'
      ? `Too many failed sign-ins from your address; ${wait}`
      : `Too many failed sign-ins for "${username}" from your address; ${wait}`
  return new TooManyRequestsError(message, seconds)
}

/** The locks that hold for an attempt, read from the database: each lifts when its limiting failure leaves the window. */
async function currentLocks(db: Queryable, key: repo.AttemptKey, now: Date): Promise<Lock[]> {
  const since = new Date(now.getTime() - LOGIN_WINDOW_MS)
  const [pair, address] = await Promise.all([
    repo.limitingFailure(db, key, since, LOGIN_MAX_FAILURES),
    repo.limitingFailure(db, { address: key.address }, since, LOGIN_MAX_ADDRESS_FAILURES),
  ])
  const locks: Lock[] = []
  if (pair) locks.push({ scope: 'pair', until: pair.getTime() + LOGIN_WINDOW_MS })
  if (address) locks.push({ scope: 'address', until: address.getTime() + LOGIN_WINDOW_MS })
  return locks
}

/** When both hold, the attempt waits for the later one; the address's lock names no username. */
const lastToLift = (locks: Lock[]) =>
  locks.reduce((later, lock) => (lock.until > later.until || (lock.until === later.until && lock.scope === 'address') ? lock : later))

/** Entries kept at most; a sweep drops lifted ones first. */
const MAX_KNOWN_LOCKS = 10_000

/**
 * The locks this instance has learnt from the database, kept until they lift, so that a
 * locked client's further attempts are refused without a query, a write or a place in the
 * hash gate: under a flood they are most of the traffic. A lock lifts only with time (no
 * attempt of a locked pair or address can succeed to clear it), so the copy stays exact;
 * a success that was already under way when the lock began forgets it.
 */
export function createLockBook() {
  const locks = new Map<string, Lock>()
  const addressKey = (address: string | null) => `a ${address ?? ''}`
  const pairKey = (key: repo.AttemptKey) => `p ${key.address ?? ''} ${key.usernameKey}`

  const remember = (name: string, lock: Lock, now: number) => {
    if (locks.size >= MAX_KNOWN_LOCKS) {
      for (const [known, { until }] of locks) if (until <= now) locks.delete(known)
      if (locks.size >= MAX_KNOWN_LOCKS) locks.delete(locks.keys().next().value!)
    }
    locks.set(name, lock)
  }

  return {
    /** The 429 for a known lock of this attempt's pair or address, or null. */
    refusal(key: repo.AttemptKey, username: string, now: Date): TooManyRequestsError | null {
      const holding: Lock[] = []
      for (const name of [pairKey(key), addressKey(key.address)]) {
        const lock = locks.get(name)
        if (lock && lock.until > now.getTime()) holding.push(lock)
        else if (lock) locks.delete(name)
      }
      return holding.length > 0 ? lockError(lastToLift(holding), username, now) : null
    },

    /** The 429 for an attempt the database refused; the lock is kept until it lifts. */
    async refused(db: Queryable, key: repo.AttemptKey, username: string, now: Date): Promise<TooManyRequestsError> {
      const holding = await currentLocks(db, key, now)
      for (const lock of holding) remember(lock.scope === 'address' ? addressKey(key.address) : pairKey(key), lock, now.getTime())
      // none: the lock lifted between the refusal and this read; trying again works
      return lockError(holding.length > 0 ? lastToLift(holding) : { scope: 'pair', until: now.getTime() }, username, now)
    },

    forget(key: repo.AttemptKey): void {
      locks.delete(addressKey(key.address))
      locks.delete(pairKey(key))
    },
  }
}

export type LockBook = ReturnType<typeof createLockBook>
