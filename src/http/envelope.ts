import { TransformKind } from '@sinclair/typebox'
import { Elysia, t, type TSchema } from 'elysia'
import type { Locale } from '../config'
import type { Clock } from '../lib/clock'
import { type Message, render } from '../lib/messages'
import { pickLocale } from '../lib/status-text'
import { say } from './messages'

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

/**
 * Builds success envelopes stamped by the injected clock. The message is a catalogue message
 * until `envelopeLanguage` renders it in the request's language, before the answer is checked
 * against its model; the type says string, which is what the client gets.
 */
export function replier(clock: Clock) {
  const envelope = <T>(data: T, message: Message): Envelope<T> => ({
    code: 200,
    message: message as unknown as string,
    data,
    timestamp: clock.now().toISOString(),
  })
  return {
    ok<T>(data: T, message: Message = say.success()): Envelope<T> {
      return envelope(data, message)
    },
    /** A created resource: HTTP 201 with body code 200 (CONTRACT §1). */
    created<T>(set: { status?: number | string }, data: T, message: Message = say.created()): Envelope<T> {
      set.status = 201
      return envelope(data, message)
    },
  }
}

/**
 * Renders a success envelope's message in the request's language (`Accept-Language`, else
 * `fallback`). Typed as returning nothing so that routes' answer types stay their own.
 */
export function envelopeLanguage(fallback: Locale) {
  const renderMessage: (context: { responseValue: unknown; request: Request }) => void = ({ responseValue, request }) => {
    const answer = responseValue as { message?: unknown } | null
    if (answer === null || typeof answer !== 'object' || typeof answer.message !== 'object' || answer.message === null) return
    return { ...answer, message: render(answer.message as Message, pickLocale(request.headers.get('accept-language'), fallback)) }
  }
  return new Elysia({ name: 'envelope-language', seed: fallback }).onAfterHandle({ as: 'global' }, renderMessage)
}
