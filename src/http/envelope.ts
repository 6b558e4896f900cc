import { t, type TSchema } from 'elysia'
import type { Clock } from '../lib/clock'

/** The body every JSON response has: {code, message, data, timestamp}. */
export const Envelope = <T extends TSchema>(data: T) =>
  t.Object({
    code: t.Integer({ examples: [200] }),
    message: t.String(),
    data,
    timestamp: t.String({ format: 'date-time' }),
  })

export interface Envelope<T> {
  code: number
  message: string
  data: T
  timestamp: string
}

export type Replier = ReturnType<typeof replier>

/** Builds success envelopes stamped by the injected clock. */
export function replier(clock: Clock) {
  return {
    ok<T>(data: T, message = 'success'): Envelope<T> {
      return { code: 200, message, data, timestamp: clock.now().toISOString() }
    },
    /** A created resource: HTTP 201 with body code 200 (CONTRACT §1). */
    created<T>(set: { status?: number | string }, data: T, message = 'created'): Envelope<T> {
      set.status = 201
      return { code: 200, message, data, timestamp: clock.now().toISOString() }
    },
  }
}
