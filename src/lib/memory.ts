/**
 * A bound on the memory a long batch leaves to the collector. JavaScriptCore collects when its own
 * heuristics say so, which for a batch making hundreds of megabytes of short-lived objects (a
 * payroll run of thousands of employees) is late: the process's footprint grows by far more than
 * the batch ever holds at once. `check()`, called between the batch's steps, runs a full
 * collection when resident memory has grown by more than `budgetBytes` since the batch began or
 * since the last collection, so a small batch never pays for one and a large one stays near its
 * budget plus one step.
 */
export function memoryBudget(budgetBytes: number, resident: () => number = () => process.memoryUsage.rss(), collect: () => void = () => Bun.gc(true)): () => void {
  let base = resident()
  return () => {
    if (resident() - base <= budgetBytes) return
    collect()
    base = resident()
  }
}
