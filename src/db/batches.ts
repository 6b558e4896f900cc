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
