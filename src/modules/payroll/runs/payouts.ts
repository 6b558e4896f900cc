import { and, asc, eq, sql } from 'drizzle-orm'
import { inIds } from '../../../db/batches'
import type { Queryable } from '../../../db/client'
import { leaveLedger, leaveTypes } from '../../../db/schema'
import { ConflictError } from '../../../http/errors'
import type { MessageValue } from '../../../lib/messages'
import { isUniqueViolation } from '../../../lib/sqlite-errors'
import { balanceColumns, findType, ledgerSumsOf, ledgerSums } from '../../leave/repository'
import { remainingOf } from '../../leave/shapes'
import type { LeavePayout, PayLine } from '../compute/types'
import { say } from '../messages'

/*
 * Remaining leave paid out on leaving (CONTRACT §18): the payslip of the month holding an
 * employee's left_on pays the remaining balance of that year of each type with payout_on_leaving;
 * approving it writes a `payout` ledger row per line (event `payout <year>`, once per employee and
 * type by the ledger's unique index), so the balance reads 0 afterwards. A draft's computation
 * writes nothing: it only reads the ledger.
 */

export const PAYOUT_REASON = 'paid out on leaving'
export const payoutEvent = (year: number) => `payout ${year}`

/**
 * The payouts of the leavers among `employees` whose left_on is in [first, last]: per type with
 * payout_on_leaving, the year's remaining balance when above 0 and not paid out already.
 */
export async function payoutsOf(
  db: Queryable,
  employees: readonly { id: number; leftOn: string | null }[],
  first: string,
  last: string,
): Promise<Map<number, LeavePayout[]>> {
  const found = new Map<number, LeavePayout[]>()
  const leavers = employees.filter((e) => e.leftOn !== null && e.leftOn >= first && e.leftOn <= last).map((e) => e.id)
  if (leavers.length === 0) return found
  const types = await db.select().from(leaveTypes).where(eq(leaveTypes.payoutOnLeaving, true)).orderBy(asc(leaveTypes.id))
  if (types.length === 0) return found
  const year = Number(first.slice(0, 4))
  const event = payoutEvent(year)
  const rows = await db
    .select({
      employeeId: leaveLedger.employeeId,
      typeId: leaveLedger.typeId,
      ...balanceColumns,
      ids: sql<string>`json_group_array(${leaveLedger.id})`,
      paidOut: sql<number>`coalesce(sum(${leaveLedger.kind} = 'payout' AND ${leaveLedger.event} = ${event}), 0)`,
    })
    .from(leaveLedger)
    .where(and(inIds(leaveLedger.employeeId, leavers), eq(leaveLedger.year, year), inIds(leaveLedger.typeId, types.map((type) => type.id))))
    .groupBy(leaveLedger.employeeId, leaveLedger.typeId)
  const byKey = new Map(rows.map((row) => [`${row.employeeId} ${row.typeId}`, row]))
  for (const employeeId of leavers) {
    const payouts: LeavePayout[] = []
    for (const type of types) {
      const row = byKey.get(`${employeeId} ${type.id}`)
      if (row && Number(row.paidOut) > 0) continue
      const remaining = remainingOf(type, row && ledgerSumsOf(row))
      if (remaining <= 0) continue
      const ledgerIds = row ? (JSON.parse(row.ids) as number[]).sort((a, b) => a - b) : []
      payouts.push({ typeId: type.id, typeName: type.name, year, halfDays: remaining, ledgerIds })
    }
    if (payouts.length > 0) found.set(employeeId, payouts)
  }
  return found
}

/** The payouts an approved payslip paid, read back from its lines (an approved month recomputed pays what it paid). */
export function paidPayouts(month: string, lines: readonly PayLine[]): LeavePayout[] {
  return lines
    .filter((line) => line.code === 'leave_payout')
    .map((line) => ({
      typeId: line.sources.find((source) => source.kind === 'leave_type')!.id,
      typeName: String(line.inputs.leave_type),
      year: Number(month.slice(0, 4)),
      halfDays: Math.round(Number(line.inputs.remaining_leave_days) * 2),
      ledgerIds: line.sources.filter((source) => source.kind === 'leave_ledger').map((source) => source.id),
    }))
}

export interface PaidPayslip {
  employeeId: number
  month: string
  lines: readonly PayLine[]
  /** their name and number, for the messages */
  employee: MessageValue
}

/**
 * In the approval's transaction: a `payout` ledger row per payout line (amount −the half-days paid),
 * after which the balance must read 0. A balance that changed since the run was computed, or a
 * payout of the year already written (another run got there first), refuses the approval (409):
 * the run is recomputed first, so that what is paid and what the ledger takes are the same.
 */
export async function writePayouts(db: Queryable, payslips: readonly PaidPayslip[], actorId: number | null, at: Date): Promise<void> {
  for (const payslip of payslips)
    for (const payout of paidPayouts(payslip.month, payslip.lines)) {
      const where = { employee: payslip.employee, type: payout.typeName, year: payout.year, days: payout.halfDays / 2 }
      try {
        await db.insert(leaveLedger).values({
          employeeId: payslip.employeeId,
          typeId: payout.typeId,
          year: payout.year,
          kind: 'payout',
          amount: -payout.halfDays,
          reason: PAYOUT_REASON,
          requestId: null,
          actorId,
          event: payoutEvent(payout.year),
          createdAt: at,
        })
      } catch (error) {
        if (isUniqueViolation(error)) throw new ConflictError(say.payoutWritten(where))
        throw error
      }
      const type = (await findType(db, payout.typeId))!
      const remaining = remainingOf(type, (await ledgerSums(db, payslip.employeeId, payout.year, payout.typeId)).get(payout.typeId))
      if (remaining !== 0) throw new ConflictError(say.payoutChanged({ ...where, remaining: (remaining + payout.halfDays) / 2 }))
    }
}
