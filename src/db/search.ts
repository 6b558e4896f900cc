import { or, sql, type AnyColumn, type SQL } from 'drizzle-orm'
import { likePattern } from '../lib/text'

/** Rows where any of the columns contains `search`, ignoring case; `%` and `_` match literally. */
export function containsAny(search: string, columns: AnyColumn[]): SQL {
  const pattern = likePattern(search)
  return or(...columns.map((column) => sql`lower(coalesce(${column}, '')) LIKE ${pattern} ESCAPE '\\'`))!
}
