import type { WriteOptions } from '../../db/client'

/** What one row may add to an import's one transaction: 50,000 records take about 16 s over a libSQL server. */
const MS_PER_ROW = 1

/**
 * The write limit of an import of `rows` rows, all or none in one transaction: at least the
 * database's own, and longer for a big file than one request's ten seconds.
 */
export const importWrite = (rows: number): WriteOptions => ({ minTimeoutMs: 10_000 + rows * MS_PER_ROW })
