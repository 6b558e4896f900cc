import { TransformKind } from '@sinclair/typebox'
import { t, type TSchema } from 'elysia'
import type { Clock } from '../lib/clock'

/** The body every JSON response has: {code, message, data, timestamp}. */
export const Envelope = <T extends TSchema>(data: T) =>
  answerSchema(
    t.Object({
      code: t.Integer({ examples: [200] }),
      message: t.String(),
      data,
      timestamp: t.String({ format: 'date-time' }),
    }),
  )

type Node = TSchema & { [TransformKind]?: unknown; anyOf?: Node[]; allOf?: Node[]; properties?: Record<string, Node>; items?: Node }

/**
 * The schema an answer is checked against: the models without the transforms of Elysia's
 * `t.Integer`, which also takes a string of digits and parses it. A request needs that; an answer's
 * integers are numbers already, and a schema with a transform makes Elysia walk every answer through
 * TypeBox's encoder (about a tenth of an employee read's time) instead of its compiled check. Each
 * such integer becomes its integer branch, with its options and modifiers (optional, read-only).
 */
export function answerSchema<T extends TSchema>(schema: T): T {
  const node = schema as Node
  if (node[TransformKind] !== undefined) {
    const numbers = (node.anyOf ?? []).filter((member) => member.type !== 'string')
    if (numbers.length !== 1) throw new Error(`a response schema has a transform that is not an integer's: ${JSON.stringify(node)}`)
    const { anyOf: _, [TransformKind]: __, ...modifiers } = node
    return { ...modifiers, ...numbers[0] } as unknown as T
  }
  const plain: Node = { ...node }
  if (node.properties) plain.properties = Object.fromEntries(Object.entries(node.properties).map(([name, inner]) => [name, answerSchema(inner)]))
  if (node.items) plain.items = answerSchema(node.items)
  if (node.anyOf) plain.anyOf = node.anyOf.map((member) => answerSchema(member))
  if (node.allOf) plain.allOf = node.allOf.map((member) => answerSchema(member))
  return plain as T
}

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
