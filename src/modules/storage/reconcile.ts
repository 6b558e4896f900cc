import { and, inArray, lt } from 'drizzle-orm'
import type { Database } from '../../db/client'
import { files } from '../../db/schema'
import type { Logger } from '../../lib/logger'
import * as repo from './repository'
import type { ObjectStore } from './store'

/** Objects this young may belong to an upload still in flight on another instance. */
const GRACE_MS = 15 * 60 * 1000

/**
 * Repair after a crash, at start and then every `intervalSeconds` (CONTRACT §25: an automatic
 * restart must not leave leftovers until some later restart): objects without metadata (an upload that died before
 * its row was written), metadata without an object (a delete that died between the
 * two) and unfinished writes (an upload that died mid-stream) are removed. Returns what
 * it removed of the first two.
 */
export async function reconcileStorage(database: Database, store: ObjectStore, now: Date, logger: Logger) {
  const cutoff = new Date(now.getTime() - GRACE_MS)
  const known = await repo.allStorageKeys(database.db)
  const present = new Set<string>()
  const orphanObjects: string[] = []
  for await (const object of store.list()) {
    present.add(object.key)
    if (!known.has(object.key) && object.lastModified < cutoff) orphanObjects.push(object.key)
  }
  for (const key of orphanObjects) await store.remove(key)
  const unfinishedRemoved = (await store.removeUnfinished?.(cutoff)) ?? 0
  const missing = [...known].filter(([key]) => !present.has(key)).map(([, id]) => id)
  let rowsRemoved = 0
  if (missing.length > 0)
    rowsRemoved = await database.write(async (tx) => {
      const rows = await tx
        .delete(files)
        .where(and(inArray(files.id, missing), lt(files.createdAt, cutoff)))
        .returning({ id: files.id })
      return rows.length
    })
  if (orphanObjects.length > 0 || rowsRemoved > 0 || unfinishedRemoved > 0)
    logger.warn('storage reconciled after an interrupted change', {
      objects_removed: orphanObjects.length,
      rows_removed: rowsRemoved,
      unfinished_removed: unfinishedRemoved,
    })
  return { objectsRemoved: orphanObjects.length, rowsRemoved }
}

/**
 * Runs the repair now and then every `intervalSeconds` (the timer does not keep the process alive);
 * a sweep that fails (the store or the database is away) is logged and the next one tries again.
 * Returns the function that stops it.
 */
export function scheduleStorageSweep(
  sweep: () => Promise<unknown>,
  intervalSeconds: number,
  logger: Logger,
): () => void {
  let running = false
  const run = () => {
    if (running) return
    running = true
    sweep()
      .catch((error) => logger.warn('storage sweep skipped: the store or the database did not answer', { error: String(error) }))
      .finally(() => (running = false))
  }
  run()
  const timer = setInterval(run, intervalSeconds * 1000)
  timer.unref?.()
  return () => clearInterval(timer)
}
