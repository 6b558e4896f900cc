import type { Queryable } from '../../db/client'
import { inBatches } from '../../db/batches'
import { auditLogs } from '../../db/schema'

/** Who made a change: the signed-in user (null for none) and the client's address. */
export interface Actor {
  userId: number | null
  ip: string | null
}

export interface AuditEntry {
  /** `<resource>.<verb>`, e.g. `role.create`, `role.permission.add`. */
  action: string
  resource: string
  resourceId: number | string | null
  before?: unknown
  after?: unknown
}

const SECRET_KEY = /password|token|secret|hash/i

/** A copy with every key that could hold a secret left out, at any depth. */
export function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact)
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !SECRET_KEY.test(key))
      .map(([key, item]) => [key, redact(item)]),
  )
}

const rowOf = (actor: Actor, at: Date, entry: AuditEntry, ip: string | null): typeof auditLogs.$inferInsert => ({
  actorId: actor.userId,
  action: entry.action,
  resource: entry.resource,
  resourceId: entry.resourceId === null ? null : String(entry.resourceId),
  before: entry.before === undefined ? null : redact(entry.before),
  after: entry.after === undefined ? null : redact(entry.after),
  ip,
  createdAt: at,
})

/** Writes one audit entry; call it inside the transaction that makes the change. */
export async function recordAudit(tx: Queryable, actor: Actor, at: Date, entry: AuditEntry): Promise<void> {
  await tx.insert(auditLogs).values(rowOf(actor, at, entry, actor.ip))
}

/** Writes many entries, in order, with few statements: what recordAudit writes for each (an import's). */
export async function recordAudits(tx: Queryable, actor: Actor, at: Date, entries: AuditEntry[]): Promise<void> {
  const ip = actor.ip
  for (const batch of inBatches(entries, 8)) await tx.insert(auditLogs).values(batch.map((entry) => rowOf(actor, at, entry, ip)))
}
