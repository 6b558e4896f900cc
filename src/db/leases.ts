import { eq } from 'drizzle-orm'
import type { Database } from './client'
import { jobLeases } from './schema'

/**
 * A named lease in `job_leases`: among the instances sharing one database, the one holding an
 * unexpired lease runs the job (the day close's mechanism, src/modules/attendance/day-close.ts).
 * The holder renews it while it works; one that dies lets it lapse after `ms`.
 */
export function createLease(database: Database, name: string, holder: string, ms: number) {
  return {
    /** Takes or renews the lease; false while another holder has an unexpired one. */
    take: (now: Date): Promise<boolean> =>
      database.write(async (tx) => {
        const [lease] = await tx.select().from(jobLeases).where(eq(jobLeases.name, name))
        if (lease && lease.holder !== holder && lease.expiresAt > now) return false
        const expiresAt = new Date(now.getTime() + ms)
        await tx
          .insert(jobLeases)
          .values({ name, holder, expiresAt })
          .onConflictDoUpdate({ target: jobLeases.name, set: { holder, expiresAt } })
        return true
      }),
  }
}

export type Lease = ReturnType<typeof createLease>
