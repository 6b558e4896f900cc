import type { Clock } from '../lib/clock'
import { freeBytes } from '../lib/disk-space'
import type { Logger } from '../lib/logger'
import type { Message } from '../lib/messages'
import type { DiskFault } from '../lib/sqlite-errors'
import { say } from './messages'

/*
 * A database write refused for lack of space, a read-only or a failing disk (CONTRACT §25): a 503 with
 * Retry-After whose message names the cause, and one log line per episode with the free space, not
 * one per request (a full disk then also fills with its own log).
 */

/** Faults of one kind at most this far apart are one episode: one log line. */
export const FAULT_EPISODE_GAP_MS = 60_000

/** Seconds a client waits before trying again: freeing space or remounting a disk takes a person. */
export const DISK_FAULT_RETRY_AFTER_SECONDS = 30

const MESSAGES: Record<DiskFault, () => Message> = {
  full: say.diskFull,
  'read-only': say.diskReadOnly,
  io: say.diskFailing,
}

export interface DiskFaultLog {
  /** The message the client gets for the fault; the first fault of an episode is logged with the free space of `folders`. */
  report(fault: DiskFault, context: Record<string, unknown>): Message
}

export function createDiskFaultLog({ logger, clock, folders }: { logger: Logger; clock: Clock; folders: string[] }): DiskFaultLog {
  const lastSeen = new Map<DiskFault, number>()
  return {
    report(fault, context) {
      const now = clock.now().getTime()
      const last = lastSeen.get(fault)
      lastSeen.set(fault, now)
      if (last === undefined || now - last > FAULT_EPISODE_GAP_MS)
        logger.error(`database disk fault: ${fault}`, {
          ...context,
          free_bytes: Object.fromEntries(folders.map((folder) => [folder, freeBytes(folder)])),
          note: `logged once; further faults of this kind less than ${FAULT_EPISODE_GAP_MS / 1000} s apart are not`,
        })
      return MESSAGES[fault]()
    },
  }
}
