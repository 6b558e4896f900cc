import { describe, expect, test } from 'bun:test'
import { renderFieldErrors, ValidationError } from '../../src/http/errors'
import { render } from '../../src/lib/messages'
import { paymentDateAfter, type PaymentChange, type PaymentState } from '../../src/modules/salaries/payment-date'

const TODAY = '2024-02-28'
const unpaid = (paymentDate: string | null = null): PaymentState => ({ status: 0, paymentDate })
const paid = (paymentDate: string | null): PaymentState => ({ status: 1, paymentDate })

describe('the payment date after a change', () => {
  const cases: [string, PaymentState, PaymentChange, string | null][] = [
    // paying: the date sent, else today, never one left from before
    ['unpaid → "1": today', unpaid(), { status: '1' }, TODAY],
    ['unpaid with an old date → "1": today, not the old date', unpaid('2024-01-31'), { status: '1' }, TODAY],
    ['unpaid → "1" with a date: that date', unpaid('2024-01-31'), { status: '1', paymentDate: '2024-02-27' }, '2024-02-27'],
    ['unpaid → "1" with null: today', unpaid('2024-01-31'), { status: '1', paymentDate: null }, TODAY],
    // setting back to unpaid clears it
    ['paid → "0": none', paid('2024-01-31'), { status: '0' }, null],
    ['paid → "0" with null: none', paid('2024-01-31'), { status: '0', paymentDate: null }, null],
    ['unpaid with a date → "0": none', unpaid('2024-01-31'), { status: '0' }, null],
    // staying paid
    ['paid, no status: kept', paid('2024-01-31'), {}, '2024-01-31'],
    ['paid → "1" again: kept', paid('2024-01-31'), { status: '1' }, '2024-01-31'],
    ['paid, a new date: that date', paid('2024-01-31'), { paymentDate: '2024-02-01' }, '2024-02-01'],
    ['paid, null: today', paid('2024-01-31'), { paymentDate: null }, TODAY],
    ['paid without a date (older data), no change: today', paid(null), {}, TODAY],
    // staying unpaid
    ['unpaid, no change: none', unpaid(), {}, null],
    ['unpaid with a date from its creation, no status: kept', unpaid('2024-03-31'), {}, '2024-03-31'],
    ['unpaid with a date, null: none', unpaid('2024-03-31'), { paymentDate: null }, null],
  ]
  test.each(cases)('%s', (_what, before, change, expected) => {
    expect(paymentDateAfter(before, change, TODAY)).toBe(expected)
  })

  const refused: [string, PaymentState, PaymentChange][] = [
    ['a date on an unpaid record', unpaid(), { paymentDate: '2024-02-01' }],
    ['a date with "0" on an unpaid record', unpaid(), { status: '0', paymentDate: '2024-02-01' }],
    ['a date with "0" on a paid record', paid('2024-01-31'), { status: '0', paymentDate: '2024-02-01' }],
  ]
  test.each(refused)('%s → a 400 naming payment_date', (_what, before, change) => {
    let error: unknown
    try {
      paymentDateAfter(before, change, TODAY)
    } catch (thrown) {
      error = thrown
    }
    expect(error).toBeInstanceOf(ValidationError)
    expect((error as ValidationError).status).toBe(400)
    expect((error as ValidationError).message).toBe(
      'payment_date 2024-02-01 cannot be set on an unpaid record (status "0"); send status "1" with it to mark the record paid, or leave payment_date out',
    )
    expect(renderFieldErrors((error as ValidationError).errors ?? [], 'en')).toEqual([
      { field: 'payment_date', message: 'must be left out while the record is unpaid (status "0")' },
    ])
    expect(render((error as ValidationError).text, 'zh')).toBe(
      '未发放的记录（status "0"）不能设置 payment_date 2024-02-01；如要标记为已发放，请同时发送 status "1"，否则请不填 payment_date',
    )
  })
})
