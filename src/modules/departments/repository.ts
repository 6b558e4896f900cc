import { asc, count, eq, inArray, sql } from 'drizzle-orm'
import type { Queryable } from '../../db/client'
import { departments } from '../../db/schema'
import { inBatches } from '../../db/batches'
import { containsAny } from '../../db/search'
import type { PageWindow } from '../../http/pagination'

export type DepartmentRow = typeof departments.$inferSelect

export async function findDepartment(db: Queryable, id: number): Promise<DepartmentRow | null> {
  const [row] = await db.select().from(departments).where(eq(departments.id, id)).limit(1)
  return row ?? null
}

export async function insertDepartment(db: Queryable, values: typeof departments.$inferInsert): Promise<DepartmentRow> {
  const [row] = await db.insert(departments).values(values).returning()
  return row
}

export async function updateDepartment(db: Queryable, id: number, values: Partial<typeof departments.$inferInsert>) {
  const [row] = await db.update(departments).set(values).where(eq(departments.id, id)).returning()
  return row ?? null
}

export async function deleteDepartment(db: Queryable, id: number): Promise<void> {
  await db.delete(departments).where(eq(departments.id, id))
}

export async function listDepartments(db: Queryable, name: string | undefined, window: PageWindow) {
  const where = name?.trim() ? containsAny(name, [departments.name]) : undefined
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(departments).where(where).orderBy(asc(departments.id)).limit(window.pageSize).offset(window.offset),
    db.select({ total: count() }).from(departments).where(where),
  ])
  return { rows, total }
}

export async function allDepartmentNames(db: Queryable) {
  return db.select({ id: departments.id, name: departments.name }).from(departments).orderBy(asc(departments.id))
}

/**
 * SQLite's lower(): ASCII letters only, as the unique index on lower(name) compares department names.
 * Names that differ in other letters' case are different departments.
 */
export const departmentKey = (name: string) => name.trim().replace(/[A-Z]/g, (letter) => letter.toLowerCase())

/** The departments named `names` ignoring case and surrounding spaces, by departmentKey. */
export async function departmentsByName(db: Queryable, names: string[]): Promise<Map<string, { id: number; name: string }>> {
  const found = new Map<string, { id: number; name: string }>()
  const keys = [...new Set(names.map(departmentKey))]
  for (const batch of inBatches(keys, 1)) {
    const rows = await db
      .select({ id: departments.id, name: departments.name })
      .from(departments)
      .where(inArray(sql`lower(${departments.name})`, batch))
    for (const row of rows) found.set(departmentKey(row.name), row)
  }
  return found
}
