import { edenGC } from 'bun:jsc'

/** The collections a budget can ask for: of the young generation only, or of the whole heap. */
export interface Collector {
  young(): void
  full(): void
}

const JAVASCRIPTCORE: Collector = { young: () => void edenGC(), full: () => Bun.gc(true) }

export interface BudgetOptions {
  /** the bytes the batch keeps on purpose so far (its results): growth no collection can give back, not counted against the budget */
  kept?: () => number
  /** the process's resident memory, bytes */
  resident?: () => number
  collector?: Collector
}

/**
 * A bound on the memory a long batch leaves to the collector. JavaScriptCore collects when its own
 * heuristics say so, which for a batch making hundreds of megabytes of short-lived objects (a
 * payroll run of thousands of employees) is late: the process's footprint grows by far more than
 * the batch ever holds at once. `check()`, called between the batch's steps, collects when
 * resident memory has grown by more than `budgetBytes` (less what the batch kept meanwhile) since
 * the batch began or since the last collection, so a small batch never pays for one and a large
 * one stays near its budget plus one step plus what it keeps. A batch's garbage is young, so the
 * young generation is collected first (a few ms, where a full collection walks every live object
 * of the process); the whole heap only once memory has grown by twice the budget since the last
 * full collection, what the young ones promoted.
 */
export function memoryBudget(budgetBytes: number, options: BudgetOptions = {}): () => void {
  const { kept = () => 0, resident = () => process.memoryUsage.rss(), collector = JAVASCRIPTCORE } = options
  /** resident memory less what the batch kept: what a collection could act on */
  const garbage = () => resident() - kept()
  let base = garbage()
  let sinceFull = base
  return () => {
    const now = garbage()
    if (now - base <= budgetBytes) return
    if (now - sinceFull > 2 * budgetBytes) {
      collector.full()
      sinceFull = garbage()
    } else collector.young()
    base = garbage()
  }
}
