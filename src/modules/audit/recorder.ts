import type { Queryable } from '../../db/client'
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

/** Writes one audit entry; call it inside the transaction that makes the change. */
export async function recordAudit(tx: Queryable, actor: Actor, at: Date, entry: AuditEntry): Promise<void> {
  await tx.insert(auditLogs).values({
    actorId: actor.userId,
    action: entry.action,
    resource: entry.resource,
    resourceId: entry.resourceId === null ? null : String(entry.resourceId),
    before: entry.before === undefined ? null : redact(entry.before),
    after: entry.after === undefined ? null : redact(entry.after),
    ip: actor.ip,
    createdAt: at,
  })
}
