import { asc, count, eq } from 'drizzle-orm'
import type { Queryable } from '../../db/client'
import { companies } from '../../db/schema'
import type { PageWindow } from '../../http/pagination'
import { containsAny } from '../../db/search'

export type CompanyRow = typeof companies.$inferSelect

export async function findCompany(db: Queryable, id: number): Promise<CompanyRow | null> {
  const [row] = await db.select().from(companies).where(eq(companies.id, id)).limit(1)
  return row ?? null
}

export async function insertCompany(db: Queryable, values: typeof companies.$inferInsert): Promise<CompanyRow> {
  const [row] = await db.insert(companies).values(values).returning()
  return row
}

export async function updateCompany(db: Queryable, id: number, values: Partial<typeof companies.$inferInsert>) {
  const [row] = await db.update(companies).set(values).where(eq(companies.id, id)).returning()
  return row ?? null
}

export async function deleteCompany(db: Queryable, id: number): Promise<boolean> {
  const rows = await db.delete(companies).where(eq(companies.id, id)).returning({ id: companies.id })
  return rows.length > 0
}

export async function listCompanies(db: Queryable, search: string | undefined, window: PageWindow) {
  const where = search?.trim() ? containsAny(search, [companies.name]) : undefined
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(companies).where(where).orderBy(asc(companies.id)).limit(window.pageSize).offset(window.offset),
    db.select({ total: count() }).from(companies).where(where),
  ])
  return { rows, total }
}
