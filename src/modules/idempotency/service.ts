import type { Database } from '../../db/client'
import type { Clock } from '../../lib/clock'
import * as repo from './repository'

/** How long a key holds (CONTRACT §25): a key older than this is forgotten, and its row deleted. */
export const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000
/** Forgotten keys are deleted by the next claim at most this often. */
const PURGE_EVERY_MS = 60 * 60 * 1000

export interface KeptAnswer {
  status: number
  body: string
  contentType: string
}

/**
 * The Idempotency-Key store the HTTP layer (src/http/idempotency.ts) is handed: per account, each
 * key with its request's fingerprint and, once there is one, the first answer.
 */
export function createIdempotencyService({ database, clock }: { database: Database; clock: Clock }) {
  let purgedAt = Number.NEGATIVE_INFINITY

  return {
    /** The key taken for a new request (`reserved`: the row's id), or the live row already holding it. */
    claim(userId: number, key: string, fingerprint: string) {
      return database.write(async (tx) => {
        const now = clock.now()
        const staleBefore = new Date(now.getTime() - KEY_LIFETIME_MS)
        if (now.getTime() - purgedAt >= PURGE_EVERY_MS) {
          await repo.deleteOlderThan(tx, staleBefore)
          purgedAt = now.getTime()
        }
        const id = await repo.claimKey(tx, { userId, key, fingerprint, createdAt: now }, staleBefore)
        if (id !== null) return { reserved: id }
        // in the same transaction: the row that refused the claim is there
        const row = (await repo.findKey(tx, userId, key))!
        const answer: KeptAnswer | null =
          row.status === null ? null : { status: row.status, body: row.body ?? '', contentType: row.contentType ?? 'application/json' }
        return { taken: { fingerprint: row.fingerprint, answer } }
      })
    },

    /** The first answer, kept for the key's repeats; `fingerprint` is the request's (an upload's is known only once it was read). */
    keep(id: number, fingerprint: string, answer: KeptAnswer) {
      return database.write((tx) => repo.keepAnswer(tx, id, { fingerprint, ...answer }))
    },

    /** The key freed: its request changed nothing, so the client may send it again. */
    release(id: number) {
      return database.write((tx) => repo.deleteRunning(tx, id))
    },
  }
}

export type IdempotencyService = ReturnType<typeof createIdempotencyService>
