import { ValidationError } from '../http/errors'
import type { Message } from './messages'
import { say } from './input-messages'

/** The largest amount of one item, in yuan (CONTRACT §6). */
export const MAX_YUAN = 100_000_000

/**
 * Yuan as sent in JSON → integer fen, exactly. The number is read through its shortest
 * decimal spelling (what JSON carried), so 19.99 is 1999 fen, never 1998.9999…; more
 * than two decimals, a negative or non-finite value, a value above the limit, or
 * anything that is not a number → 400 naming the field.
 */
export function toFen(value: unknown, field: string, maxYuan = MAX_YUAN): number {
  const refuse = (problem: Message): never => {
    throw ValidationError.of([{ field, message: problem }])
  }
  if (typeof value !== 'number') return refuse(say.yuanNumber())
  if (!Number.isFinite(value)) return refuse(say.yuanFinite())
  if (value < 0) return refuse(say.notNegative())
  if (value > maxYuan) return refuse(say.atMostYuan({ max: maxYuan }))
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(String(value))
  if (!match) return refuse(say.wholeFen())
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'))
}

/** Integer fen → yuan for JSON: the closest double to the decimal, which prints exactly (1999 → 19.99). */
export function toYuan(fen: number): number {
  return fen / 100
}

/** "00" … "99", the cents of `yuanText` (a payroll run writes some hundred thousand amounts). */
const CENTS = Array.from({ length: 100 }, (_, cents) => String(cents).padStart(2, '0'))

/** Integer fen → yuan written with exactly 2 decimals, from the integer (no floating point): 1999 → "19.99", -5 → "-0.05". */
export function yuanText(fen: number): string {
  if (!Number.isSafeInteger(fen)) throw new RangeError(`not a whole number of fen: ${fen}`)
  const abs = Math.abs(fen)
  const text = `${Math.floor(abs / 100)}.${CENTS[abs % 100]}`
  return fen < 0 ? `-${text}` : text
}
