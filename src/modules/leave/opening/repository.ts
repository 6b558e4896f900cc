import { and, inArray, sql } from 'drizzle-orm'
import type { Queryable } from '../../../db/client'
import { inBatches } from '../../../db/batches'
import { employees, leaveLedger } from '../../../db/schema'
import { balanceColumns, ledgerSumsOf, type LedgerEntry, type LedgerSums } from '../repository'
import { OPENING_REASON } from './model'

/** `${employeeId} ${typeId} ${year}`: one balance. */
export const balanceKey = (employeeId: number, typeId: number, year: number) => `${employeeId} ${typeId} ${year}`

/** The employees the file names by number. */
export async function employeesByNumber(db: Queryable, numbers: string[]) {
  const rows: { id: number; employeeNo: string | null; name: string }[] = []
  for (const batch of inBatches(numbers, 1))
    rows.push(...(await db.select({ id: employees.id, employeeNo: employees.employeeNo, name: employees.name }).from(employees).where(inArray(employees.employeeNo, batch))))
  return new Map(rows.map((row) => [row.employeeNo!, row]))
}

export interface BalanceSums extends LedgerSums {
  /** the balance has an opening balance already */
  opened: boolean
}

/** The ledger's sums (as `ledgerSums`) of every balance of the employees in the years, by balance. */
export async function balanceSums(db: Queryable, employeeIds: number[], years: number[]): Promise<Map<string, BalanceSums>> {
  const sums = new Map<string, BalanceSums>()
  if (years.length === 0) return sums
  for (const batch of inBatches(employeeIds, 1))
    for (const row of await db
      .select({
        employeeId: leaveLedger.employeeId,
        typeId: leaveLedger.typeId,
        year: leaveLedger.year,
        ...balanceColumns,
        opened: sql<number>`coalesce(max(${leaveLedger.kind} = 'adjustment' AND ${leaveLedger.reason} = ${OPENING_REASON}), 0)`,
      })
      .from(leaveLedger)
      .where(and(inArray(leaveLedger.employeeId, batch), inArray(leaveLedger.year, years)))
      .groupBy(leaveLedger.employeeId, leaveLedger.typeId, leaveLedger.year))
      sums.set(balanceKey(row.employeeId, row.typeId, row.year), {
        ...ledgerSumsOf(row),
        opened: Number(row.opened) === 1,
      })
  return sums
}

/** Appends the ledger rows, a batch per statement. */
export async function appendAll(db: Queryable, entries: LedgerEntry[]): Promise<void> {
  for (const batch of inBatches(entries, 10)) await db.insert(leaveLedger).values(batch)
}
