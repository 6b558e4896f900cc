import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { catalogue, placeholders, render, ruleCatalogue } from '../src/lib/messages'
import { errorBody, loginAdmin, req, startApp, type TestApp } from './helpers'

/*
 * CONTRACT §24: every text the API sends exists in English and Chinese. The app is built first, so
 * every module's catalogue is registered; then each entry, and each rule text a route's models
 * carry, must have a Chinese text of its own.
 */

const HAN = /[\u4e00-\u9fff]/
/** An entry with no words of its own ("{field} {problem}") is only placeholders and punctuation. */
const wordless = (en: string) => en.replace(/\{\w+(?::\w+)?\}/g, '').replace(/[\s;:,.()"'-]/g, '') === ''

type Node = Record<string, unknown>

/** Every schema node under a route model, by JSON path, and whether a node above it has a rule text. */
function* nodes(value: unknown, path: string, ruled = false): Generator<[string, Node, boolean]> {
  if (value === null || typeof value !== 'object') return
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) yield* nodes(item, `${path}[${i}]`, ruled)
    return
  }
  yield [path, value as Node, ruled]
  const below = ruled || typeof (value as Node).error === 'string'
  for (const [key, inner] of Object.entries(value)) yield* nodes(inner, `${path}.${key}`, below)
}

describe('the message catalogue', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await startApp()
  })
  afterAll(() => t.close())

  test('every entry has a Chinese text of its own, with the placeholders of the English', () => {
    const problems: string[] = []
    expect(catalogue().size).toBeGreaterThan(300)
    for (const [key, { en, zh }] of catalogue()) {
      if (zh === en) problems.push(`${key}: the Chinese is a copy of the English`)
      else if (!HAN.test(zh) && !wordless(en)) problems.push(`${key}: the Chinese has no Chinese characters: ${zh}`)
      if (placeholders(en).join() !== placeholders(zh).join()) problems.push(`${key}: placeholders ${placeholders(en)} in English, ${placeholders(zh)} in Chinese`)
    }
    expect(problems).toEqual([])
  })

  test('every rule text of every route model has a Chinese text of its own, and every pattern or format has a rule text', () => {
    const problems = new Set<string>()
    const rules = ruleCatalogue()
    for (const route of t.app.routes) {
      for (const part of ['body', 'query', 'params', 'headers'] as const) {
        for (const [path, node, ruled] of nodes((route.hooks as Record<string, unknown>)[part], part)) {
          const where = `${route.method} ${route.path} ${path}`
          if (typeof node.error === 'string') {
            const zh = rules.get(node.error)
            if (zh === undefined) problems.add(`${where}: rule text "${node.error}" has no Chinese`)
            else if (zh === node.error || !HAN.test(zh)) problems.add(`${where}: rule text "${node.error}" has no Chinese of its own`)
          } else if (!ruled && (typeof node.pattern === 'string' || typeof node.format === 'string') && node.type === 'string') {
            const described = typeof node.description === 'string' ? rules.get(`must be ${node.description}`) : undefined
            if (described === undefined) problems.add(`${where}: a pattern or format without a rule text`)
          }
        }
      }
    }
    expect([...problems]).toEqual([])
  })

  test('the error handler speaks the language of Accept-Language, else LOCALE', async () => {
    const zh = { 'accept-language': 'zh-CN,zh;q=0.9,en;q=0.8' }
    expect((await req(t.app, 'GET', '/api/v1/nowhere', { headers: zh })).body).toEqual(
      errorBody(404, '没有接口 GET /api/v1/nowhere；接口列表见 /swagger'),
    )
    expect((await req(t.app, 'GET', '/api/v1/nowhere', { headers: { 'accept-language': 'en' } })).body).toEqual(
      errorBody(404, 'No endpoint GET /api/v1/nowhere; the list of endpoints is at /swagger'),
    )
    expect((await req(t.app, 'GET', '/api/v1/auth/me', { headers: zh })).body).toEqual(
      errorBody(401, '请先登录：发送 POST /api/v1/auth/login 得到的 "Authorization: Bearer <访问令牌>"'),
    )
    const admin = await loginAdmin(t.app)
    const invalid = await req(t.app, 'POST', '/api/v1/admin/departments', { token: admin, headers: zh, body: { name: 7 } })
    expect(invalid.body).toEqual(errorBody(400, '请求无效：name：必须是文本', { errors: [{ field: 'name', message: '必须是文本' }] }))

    const chinese = await startApp({ env: { LOCALE: 'zh' } })
    try {
      expect((await req(chinese.app, 'GET', '/api/v1/nowhere')).body).toEqual(errorBody(404, '没有接口 GET /api/v1/nowhere；接口列表见 /swagger'))
      expect((await req(chinese.app, 'GET', '/api/v1/nowhere', { headers: { 'accept-language': 'en-GB' } })).body.message).toBe(
        'No endpoint GET /api/v1/nowhere; the list of endpoints is at /swagger',
      )
    } finally {
      chinese.close()
    }
  })

  test('success messages come in the language asked for too', async () => {
    const admin = await loginAdmin(t.app)
    const zh = await req(t.app, 'GET', '/api/v1/auth/me', { token: admin, headers: { 'accept-language': 'zh' } })
    expect([zh.status, zh.body.message]).toEqual([200, '成功'])
    const en = await req(t.app, 'GET', '/api/v1/auth/me', { token: admin })
    expect([en.status, en.body.message]).toEqual([200, 'success'])
  })

  test('a message renders in each language with its values put in', () => {
    const problems: string[] = []
    for (const [key, { en }] of catalogue()) {
      const values = Object.fromEntries(placeholders(en).map((name) => [name, 2]))
      for (const locale of ['en', 'zh'] as const) {
        const text = render({ key, values }, locale)
        if (/\{\w+(?::\w+)?\}/.test(text)) problems.push(`${key} (${locale}) keeps a placeholder: ${text}`)
      }
    }
    expect(problems).toEqual([])
  })
})
