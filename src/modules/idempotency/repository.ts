import { and, eq, isNull, lt } from 'drizzle-orm'
import type { Queryable } from '../../db/client'
import { idempotencyKeys } from '../../db/schema'

export type KeyRow = typeof idempotencyKeys.$inferSelect

/**
 * Takes the key for a new request (status null: running): a new row, or one older than `staleBefore`
 * made over. The unique index on (user, key) decides between two requests that race for it. The id,
 * or null when a live row holds the key.
 */
export async function claimKey(
  db: Queryable,
  values: { userId: number; key: string; fingerprint: string; createdAt: Date },
  staleBefore: Date,
): Promise<number | null> {
  const [row] = await db
    .insert(idempotencyKeys)
    .values(values)
    .onConflictDoUpdate({
      target: [idempotencyKeys.userId, idempotencyKeys.key],
      set: { fingerprint: values.fingerprint, status: null, body: null, contentType: null, createdAt: values.createdAt },
      setWhere: lt(idempotencyKeys.createdAt, staleBefore),
    })
    .returning({ id: idempotencyKeys.id })
  return row?.id ?? null
}

export async function findKey(db: Queryable, userId: number, key: string): Promise<KeyRow | null> {
  const [row] = await db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)))
    .limit(1)
  return row ?? null
}

export async function keepAnswer(db: Queryable, id: number, values: { fingerprint: string; status: number; body: string; contentType: string }) {
  await db.update(idempotencyKeys).set(values).where(eq(idempotencyKeys.id, id))
}

/** Frees a key whose request is still marked running; a kept answer stays. */
export async function deleteRunning(db: Queryable, id: number) {
  await db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.id, id), isNull(idempotencyKeys.status)))
}

export async function deleteOlderThan(db: Queryable, before: Date) {
  await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, before))
}
