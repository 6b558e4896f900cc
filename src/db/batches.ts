import { sql, type SQL } from 'drizzle-orm'
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core'

/** SQLite's limit on the parameters of one statement (SQLITE_MAX_VARIABLE_NUMBER since 3.32; libSQL's too). */
const MAX_PARAMETERS = 32766

/** Rows (or IN-list values) per statement, at most: statements stay small whatever the columns. */
const MAX_ITEMS = 500

/**
 * `items` in batches small enough for one statement each, when every item takes `parameters`
 * parameters (a row's columns, or 1 for a value of an IN list).
 */
export function inBatches<T>(items: readonly T[], parameters: number): T[][] {
  const size = Math.max(1, Math.min(MAX_ITEMS, Math.floor(MAX_PARAMETERS / parameters)))
  const batches: T[][] = []
  for (let start = 0; start < items.length; start += size) batches.push(items.slice(start, start + size))
  return batches
}

/**
 * `column IN (ids)` with the ids bound as one JSON array read by `json_each`: one parameter however
 * many ids. Drizzle builds it and SQLite binds it in a small part of the time a list of one
 * parameter each takes (a payroll run asks this of its pages of 500 employees, five times a page).
 */
export const inIds = (column: SQLiteColumn, ids: readonly number[]): SQL => sql`${column} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`
