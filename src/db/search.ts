import { or, sql, type AnyColumn, type SQL } from 'drizzle-orm'

/**
 * Rows where any of the columns contains `search`. Every character matches itself: `%`, `_` and `\`
 * too, and NUL, which LIKE would take for the end of the pattern (so "x\0" matched as "x"). Case is
 * ignored for A–Z only, because SQLite's lower() folds nothing else; lower-casing É in JavaScript
 * would make a search for "École" miss "École".
 */
export function containsAny(search: string, columns: AnyColumn[]): SQL {
  const needle = search.trim().replace(/[A-Z]/g, (letter) => letter.toLowerCase())
  return or(...columns.map((column) => sql`instr(lower(coalesce(${column}, '')), ${needle}) > 0`))!
}
