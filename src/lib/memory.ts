import { edenGC } from 'bun:jsc'

/** The collections a budget can ask for: of the young generation only, or of the whole heap. */
export interface Collector {
  young(): void
  full(): void
}

const JAVASCRIPTCORE: Collector = { young: () => void edenGC(), full: () => Bun.gc(true) }

/**
 * A bound on the memory a long batch leaves to the collector. JavaScriptCore collects when its own
 * heuristics say so, which for a batch making hundreds of megabytes of short-lived objects (a
 * payroll run of thousands of employees) is late: the process's footprint grows by far more than
 * the batch ever holds at once. `check()`, called between the batch's steps, collects when
 * resident memory has grown by more than `budgetBytes` since the batch began or since the last
 * collection, so a small batch never pays for one and a large one stays near its budget plus one
 * step. A batch's garbage is young, so the young generation is collected first (a few ms, where a
 * full collection walks every live object of the process); the whole heap only once memory has
 * grown by twice the budget since the last full collection, what the young ones promoted.
 */
export function memoryBudget(budgetBytes: number, resident: () => number = () => process.memoryUsage.rss(), collector: Collector = JAVASCRIPTCORE): () => void {
  let base = resident()
  let sinceFull = base
  return () => {
    const now = resident()
    if (now - base <= budgetBytes) return
    if (now - sinceFull > 2 * budgetBytes) {
      collector.full()
      sinceFull = resident()
    } else collector.young()
    base = resident()
  }
}
