import type { Queryable } from '../../db/client'
import { ServiceUnavailableError, TooManyRequestsError } from '../../http/errors'
import { GateRefusal, type HashGate } from '../../lib/hash-gate'
import { say } from './messages'
import * as repo from './repository'

/**
 * Sign-in throttling. Failures are counted per (username, client address), so a stranger
 * who guesses at a name locks only themselves out, never its owner signing in from
 * elsewhere. Per address, many distinct usernames failing (unknown ones above all) mark
 * password spraying; the address is then refused for every username that has not signed
 * in from it lately, without a password check, so a right password is not told from a
 * wrong one, while colleagues behind the same address (an office NAT) who signed in from
 * it before are checked as usual. A right password clears its own username's failures, so
 * colleagues who mistype once and then get it right leave nothing that counts.
 */
export const LOGIN_WINDOW_MS = 15 * 60 * 1000
/** failures of one username from one address within the window (CONTRACT §2) */
export const LOGIN_MAX_FAILURES = 10
/**
 * Distinct usernames that name no account, failing from one address within the window: a
 * person who mistypes their username fixes it at the next try, so ten different unknown
 * names in 15 minutes is a list being worked through, not an office's typos.
 */
export const LOGIN_MAX_ADDRESS_UNKNOWN_USERNAMES = 10
/**
 * Distinct usernames, existing or not, failing from one address within the window and not
 * since cleared by their right password: above a floor of 50 colleagues who each mistype at
 * once, low enough that a list of real names is not worked through at 9 guesses each.
 */
export const LOGIN_MAX_ADDRESS_USERNAMES = 60
/** Failures from one address within the window, whatever the usernames: two each for the colleagues above. */
export const LOGIN_MAX_ADDRESS_FAILURES = 120
/** A successful sign-in from an address within this time exempts that username there from the spraying limits. */
export const LOGIN_KNOWN_ADDRESS_MS = 90 * 24 * 60 * 60 * 1000

export const FAILURE_LIMITS: repo.FailureLimits = {
  perPair: LOGIN_MAX_FAILURES,
  spraying: {
    failures: LOGIN_MAX_ADDRESS_FAILURES,
    usernames: LOGIN_MAX_ADDRESS_USERNAMES,
    unknownUsernames: LOGIN_MAX_ADDRESS_UNKNOWN_USERNAMES,
  },
}

/** The time frames an attempt at `now` is judged in. */
export const attemptWindows = (now: Date): repo.AttemptWindows => ({
  windowStart: new Date(now.getTime() - LOGIN_WINDOW_MS),
  knownSince: new Date(now.getTime() - LOGIN_KNOWN_ADDRESS_MS),
})

/** Runs password work through the gate; a refusal becomes a 429 (this address's share is taken) or a 503 (the service is busy). */
export async function throughGate<T>(gate: HashGate, address: string | null, task: () => Promise<T>): Promise<T> {
  try {
    return await gate.run(address, task)
  } catch (error) {
    if (!(error instanceof GateRefusal)) throw error
    if (error.reason === 'address')
      throw new TooManyRequestsError(say.tooManyAtOnce(), error.retryAfterSeconds)
    throw new ServiceUnavailableError(say.busyHashing(), error.retryAfterSeconds)
  }
}

type Lock = { scope: 'pair' | 'address'; until: number }

/** The 429 for a lock that holds until `until` (epoch ms). */
function lockError(lock: Lock, username: string, now: Date): TooManyRequestsError {
  const seconds = Math.max(1, Math.ceil((lock.until - now.getTime()) / 1000))
  const minutes = Math.ceil(seconds / 60)
  const message = lock.scope === 'address' ? say.addressLocked({ minutes }) : say.pairLocked({ username, minutes })
  return new TooManyRequestsError(message, seconds)
}

/** The locks that hold for an attempt, read from the database: each lifts when its limiting failure leaves the window. */
async function currentLocks(db: Queryable, key: repo.AttemptKey, now: Date): Promise<Lock[]> {
  const windows = attemptWindows(now)
  const [pair, address] = await Promise.all([
    repo.limitingPairFailure(db, key, windows.windowStart, LOGIN_MAX_FAILURES),
    repo.limitingSprayFailures(db, key, windows, FAILURE_LIMITS.spraying),
  ])
  const locks: Lock[] = []
  if (pair) locks.push({ scope: 'pair', until: pair.getTime() + LOGIN_WINDOW_MS })
  // the address is under its limits again only when every limit reached is
  if (address.length > 0) locks.push({ scope: 'address', until: Math.max(...address.map((at) => at.getTime())) + LOGIN_WINDOW_MS })
  return locks
}

/** When both hold, the attempt waits for the later one; the address's lock names no username. */
const lastToLift = (locks: Lock[]) =>
  locks.reduce((later, lock) => (lock.until > later.until || (lock.until === later.until && lock.scope === 'address') ? lock : later))

/** Pair locks, and addresses with a spraying lock, kept at most; a sweep drops lifted ones first. */
const MAX_KNOWN_LOCKS = 10_000

/** Adds to a map that keeps at most MAX_KNOWN_LOCKS entries, dropping lifted ones, then the oldest. */
function keep<V extends { until: number }>(map: Map<string, V>, name: string, value: V, now: number): void {
  if (!map.has(name) && map.size >= MAX_KNOWN_LOCKS) {
    for (const [known, { until }] of map) if (until <= now) map.delete(known)
    if (map.size >= MAX_KNOWN_LOCKS) map.delete(map.keys().next().value!)
  }
  map.set(name, value)
}

/**
 * The locks this instance has learnt from the database, kept until they lift, so that a
 * locked client's further attempts are refused without a query, a write or a place in the
 * hash gate: under a flood they are most of the traffic. A pair's lock lifts only with time
 * (no attempt of a locked pair can succeed to clear it), so its copy stays exact. An
 * address's spraying lock is kept with the usernames that signed in from the address, which
 * it lets through to the database; while it holds no other username can sign in from there,
 * so that list stays exact too. Only a success can bring an address under its limits before
 * its time (by clearing that username's failures), so a success forgets the address's lock
 * (the next refusal learns it again); and a success that was already under way when a pair's
 * lock began forgets that lock.
 */
export function createLockBook() {
  const pairs = new Map<string, { until: number }>()
  const sprays = new Map<string, { until: number; signedInBefore: Set<string> }>()
  const pairKey = (key: repo.AttemptKey) => `${key.address ?? ''} ${key.usernameKey}`
  const addressKey = (key: repo.AttemptKey) => key.address ?? ''

  /** the entry for `name` while it holds; a lifted one is dropped */
  const holding = <V extends { until: number }>(map: Map<string, V>, name: string, now: Date): V | null => {
    const entry = map.get(name)
    if (entry && entry.until > now.getTime()) return entry
    if (entry) map.delete(name)
    return null
  }

  return {
    /** The 429 for a known lock of this attempt's pair, or of its address for a username that has not signed in from there, or null. */
    refusal(key: repo.AttemptKey, username: string, now: Date): TooManyRequestsError | null {
      const locks: Lock[] = []
      const pair = holding(pairs, pairKey(key), now)
      if (pair) locks.push({ scope: 'pair', until: pair.until })
      const spray = holding(sprays, addressKey(key), now)
      if (spray && !spray.signedInBefore.has(key.usernameKey)) locks.push({ scope: 'address', until: spray.until })
      return locks.length > 0 ? lockError(lastToLift(locks), username, now) : null
    },

    /** The 429 for an attempt the database refused; the lock is kept until it lifts. */
    async refused(db: Queryable, key: repo.AttemptKey, username: string, now: Date): Promise<TooManyRequestsError> {
      const locks = await currentLocks(db, key, now)
      for (const lock of locks) {
        if (lock.scope === 'pair') keep(pairs, pairKey(key), { until: lock.until }, now.getTime())
        else {
          const signedInBefore = new Set(await repo.usernamesSignedInFrom(db, key.address, attemptWindows(now).knownSince))
          keep(sprays, addressKey(key), { until: lock.until, signedInBefore }, now.getTime())
        }
      }
      // none: the lock lifted between the refusal and this read; trying again works
      return lockError(locks.length > 0 ? lastToLift(locks) : { scope: 'pair', until: now.getTime() }, username, now)
    },

    /** After a success: its pair has no failures left, and its address may be under its spraying limits again. */
    forget(key: repo.AttemptKey): void {
      pairs.delete(pairKey(key))
      sprays.delete(addressKey(key))
    },
  }
}

export type LockBook = ReturnType<typeof createLockBook>
