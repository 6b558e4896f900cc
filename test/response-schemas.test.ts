import { afterAll, beforeAll, expect, test } from 'bun:test'
import { OptionalKind, TransformKind, type TSchema } from '@sinclair/typebox'
import { TypeCompiler } from '@sinclair/typebox/compiler'
import { t } from 'elysia'
import { answerSchema, Envelope } from '../src/http/envelope'
import { startApp, type TestApp } from './helpers'

let service: TestApp
beforeAll(async () => {
  service = await startApp()
})
afterAll(() => service.close())

/** Every node of a schema that carries a transform. */
function transformsIn(schema: unknown, at = '$'): string[] {
  if (schema === null || typeof schema !== 'object') return []
  const own = TransformKind in (schema as object) ? [at] : []
  return [...own, ...Object.entries(schema).flatMap(([key, inner]) => transformsIn(inner, `${at}.${key}`))]
}

test('no answer of any route is checked through a transform, so Elysia checks answers with the compiled validator', () => {
  let responses = 0
  const found = service.app.routes.flatMap((route) => {
    const response = route.hooks.response as Record<string, TSchema> | TSchema | undefined
    if (!response) return []
    const byStatus = 'type' in response || 'anyOf' in response ? { 200: response as TSchema } : (response as Record<string, TSchema>)
    return Object.entries(byStatus).flatMap(([status, schema]) => {
      responses++
      return transformsIn(schema).map((path) => `${route.method} ${route.path} ${status}: ${path}`)
    })
  })
  expect(found).toEqual([])
  expect(responses).toBeGreaterThan(100)
})

test("an answer's integer is the integer branch of Elysia's, with its options and modifiers", () => {
  const model = t.Object({
    id: t.Integer({ description: 'the id', minimum: 1 }),
    count: t.Optional(t.Integer()),
    parent: t.Nullable(t.Integer()),
    items: t.Array(t.Object({ n: t.Integer() })),
    name: t.String(),
  })
  const answer = answerSchema(model)
  expect(JSON.parse(JSON.stringify(answer))).toEqual({
    type: 'object',
    required: ['id', 'parent', 'items', 'name'],
    properties: {
      id: { type: 'integer', description: 'the id', minimum: 1 },
      count: { type: 'integer' },
      parent: { anyOf: [{ type: 'integer' }, { type: 'null' }], nullable: true },
      items: { type: 'array', items: { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } } },
      name: { type: 'string' },
    },
  })
  expect(OptionalKind in answer.properties.count).toBe(true)
  expect(transformsIn(answer)).toEqual([])
  // the request model is left as it was: it still takes digits
  expect(transformsIn(model).length).toBe(4)

  const check = TypeCompiler.Compile(answer)
  expect(check.Check({ id: 1, parent: null, items: [{ n: 2 }], name: 'x' })).toBe(true)
  expect(check.Check({ id: 1, count: 3, parent: 7, items: [], name: 'x' })).toBe(true)
  expect([check.Check({ id: '1', parent: null, items: [], name: 'x' }), check.Check({ id: 0, parent: null, items: [], name: 'x' })]).toEqual([false, false])
  expect(check.Check({ id: 1.5, parent: null, items: [], name: 'x' })).toBe(false)
})

test('the envelope of an answer has no transform either', () => {
  expect(transformsIn(Envelope(t.Object({ id: t.Integer() })))).toEqual([])
})
