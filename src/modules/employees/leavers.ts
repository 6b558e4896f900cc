import { and, eq, isNotNull, lt } from 'drizzle-orm'
import { inIds } from '../../db/batches'
import type { Queryable } from '../../db/client'
import { companies, employees } from '../../db/schema'
import { addDays, localDate } from '../../lib/local-time'
import { recordAudits } from '../audit/recorder'

/*
 * `left_on` is the last day employed (CONTRACT §18): from the day after it the employee is
 * inactive (status 0), the day counted in their company's zone (the service's default outside a
 * company). A left_on already past when it is set takes effect at once, in the same change
 * (employees/service.ts `hasLeft`); one still to come, on the first day-close tick after it
 * (attendance/day-close.ts `markLeavers`).
 */

/** Whether a last day employed is over: before today in the zone of the employee's company (`zone`; null: the default). */
const isOver = (leftOn: string, zone: string | null, now: Date, defaultZone: string): boolean => leftOn < localDate(now, zone ?? defaultZone)

/** Whether an employee of the company (null: none) with this last day employed has left by `now`. */
export async function hasLeft(db: Queryable, companyId: number | null, leftOn: string | null, now: Date, defaultZone: string): Promise<boolean> {
  if (leftOn === null) return false
  const [company] = companyId === null ? [] : await db.select({ zone: companies.timezone }).from(companies).where(eq(companies.id, companyId)).limit(1)
  return isOver(leftOn, company?.zone ?? null, now, defaultZone)
}

/**
 * Marks as inactive the active employees whose last day employed is over by their company's date
 * `now`, with an audit entry each by the service (no user). Returns their ids.
 */
export async function markLeavers(db: Queryable, now: Date, defaultZone: string): Promise<number[]> {
  // no zone's date is past UTC's next one: a cheap bound before each date is worked out in its zone
  const bound = addDays(now.toISOString().slice(0, 10), 1)
  const candidates = await db
    .select({ id: employees.id, leftOn: employees.leftOn, zone: companies.timezone })
    .from(employees)
    .leftJoin(companies, eq(companies.id, employees.companyId))
    .where(and(eq(employees.status, 1), isNotNull(employees.leftOn), lt(employees.leftOn, bound)))
  const left = candidates.filter((row) => isOver(row.leftOn!, row.zone, now, defaultZone))
  if (left.length === 0) return []
  const ids = left.map((row) => row.id)
  await db.update(employees).set({ status: 0, updatedAt: now }).where(inIds(employees.id, ids))
  await recordAudits(
    db,
    { userId: null, ip: null },
    now,
    left.map(({ id, leftOn }) => ({ action: 'employee.update', resource: 'employee', resourceId: id, before: { status: 1 }, after: { status: 0, left_on: leftOn } })),
  )
  return ids
}
