import { ValidationError } from '../../http/errors'
import { say } from './messages'

/** What a record holds: status 0 unconfirmed or 1 paid, and its payment date (YYYY-MM-DD). */
export interface PaymentState {
  status: number
  paymentDate: string | null
}

/** What a change sends: status `"0"`/`"1"` and payment_date, each possibly left out (undefined). */
export interface PaymentChange {
  status?: '0' | '1'
  paymentDate?: string | null
}

/**
 * The payment date after a change of an existing record: it follows the status.
 * - Paying a record (0 → 1) dates it the day of payment: the date sent, else `today`; never
 *   a date left from before.
 * - Setting status "0" clears it.
 * - A paid record that stays paid keeps its date unless another is sent (null: today).
 * - A record that stays unpaid keeps what it has; null clears it.
 * A date sent while the record ends up unpaid is refused: it would be a date of a payment
 * that has not happened.
 */
export function paymentDateAfter(before: PaymentState, change: PaymentChange, today: string): string | null {
  const status = change.status === undefined ? before.status : Number(change.status)
  const sent = change.paymentDate
  if (status !== 1) {
    if (typeof sent === 'string')
      throw new ValidationError(say.paymentDateUnpaid({ date: sent }), [{ field: 'payment_date', message: say.paymentDateUnpaidField() }])
    return change.status === '0' || sent === null ? null : before.paymentDate
  }
  if (typeof sent === 'string') return sent
  if (before.status !== 1 || sent === null) return today
  return before.paymentDate ?? today
}
