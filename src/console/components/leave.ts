import type { useT } from '../i18n'

/*
 * Leave amounts as people read them (CONTRACT §18): a type counts in days or, with `unit: hour`,
 * in hours; its balances, ledger rows and requests say which, and the figures are in that unit.
 */

export type LeaveUnit = 'day' | 'hour'

/** The words of amounts (common.ts `leaveAmounts`). */
type AmountWords = ReturnType<typeof useT>['common']['leaveAmounts']

/** A balance's figure: days as the bare number (the table counts days), hours as "16 h". */
export const balanceFigure = (unit: LeaveUnit, figure: number, words: AmountWords): string => (unit === 'hour' ? words.hours(figure) : String(figure))

interface RequestSpan {
  unit: LeaveUnit
  start_date: string
  end_date: string
  half_day: 'am' | 'pm' | null
  start_time: string | null
  end_time: string | null
  days: number
  hours: number | null
}

/** How long a request is: "2 days", "0.5 days", or the work time of an hourly one, "2.5 h". */
export const requestLength = (request: RequestSpan, words: AmountWords): string =>
  request.unit === 'hour' ? words.hours(request.hours ?? 0) : words.days(request.days)

/** When a request is: "2026-03-20 10:00–14:00", "2026-03-20 (morning)" or "2026-03-18 – 2026-03-20". */
export function requestDates(request: RequestSpan, half: (half: 'am' | 'pm') => string): string {
  if (request.start_time !== null && request.end_time !== null) return `${request.start_date} ${request.start_time}–${request.end_time}`
  if (request.start_date !== request.end_date) return `${request.start_date} – ${request.end_date}`
  return `${request.start_date}${request.half_day ? ` (${half(request.half_day)})` : ''}`
}
