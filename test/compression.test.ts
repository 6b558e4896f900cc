import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { errorBody, loginAdmin, startApp, tempDir, type TestApp, ADMIN_PASSWORD } from './helpers'
import { startServer, type ServerProcess } from './server-process'

const SWAGGER_UI = join(import.meta.dir, '..', 'node_modules', 'swagger-ui-dist')
const BROWSER = 'gzip, deflate, br, zstd'
const LIST = '/api/v1/admin/permissions?page_size=100'

let t: TestApp
let admin: string
beforeAll(async () => {
  t = await startApp()
  admin = await loginAdmin(t.app)
})
afterAll(() => t.close())

const send = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
  t.app.handle(new Request(`http://localhost${path}`, { method, headers }))
const bytesOf = async (response: Response) => new Uint8Array(await response.arrayBuffer())
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes)

function expectSecurityHeaders(headers: Headers, what: string): void {
  expect(headers.get('x-content-type-options'), what).toBe('nosniff')
  expect(headers.get('x-frame-options'), what).toBe('DENY')
  expect(headers.get('referrer-policy'), what).toBe('no-referrer')
  expect(headers.get('cross-origin-resource-policy'), what).toBe('same-origin')
}

describe('JSON bodies', () => {
  test('a list over 1 KB is gzipped for a client that accepts gzip, and decodes to the very bytes sent uncompressed', async () => {
    const auth = { authorization: `Bearer ${admin}` }
    const plainResponse = await send(LIST, auth)
    const plain = await bytesOf(plainResponse)
    expect(plainResponse.headers.get('content-encoding')).toBeNull()
    expect(plain.byteLength).toBeGreaterThan(5000)
    expect(JSON.parse(text(plain))).toMatchObject({ code: 200, data: { page: 1, page_size: 100 } })

    for (const accepted of ['gzip', BROWSER, 'br;q=1, gzip;q=0.5', '*']) {
      const response = await send(LIST, { ...auth, 'accept-encoding': accepted })
      const body = await bytesOf(response)
      expect(response.status, accepted).toBe(200)
      expect(response.headers.get('content-encoding'), accepted).toBe('gzip')
      expect(response.headers.get('vary'), accepted).toBe('accept-encoding')
      expect(response.headers.get('content-length'), accepted).toBe(String(body.byteLength))
      expect(response.headers.get('content-type'), accepted).toStartWith('application/json')
      expectSecurityHeaders(response.headers, accepted)
      expect(body.byteLength, accepted).toBeLessThan(plain.byteLength / 4)
      expect(new Uint8Array(gunzipSync(body)), accepted).toEqual(plain)
    }
    // brotli is for the docs assets, compressed once; a JSON body is gzip or nothing
    for (const accepted of ['identity', 'br', 'gzip;q=0', 'deflate']) {
      const response = await send(LIST, { ...auth, 'accept-encoding': accepted })
      expect(response.headers.get('content-encoding'), accepted).toBeNull()
      expect(await bytesOf(response), accepted).toEqual(plain)
    }
  })

  test('the OpenAPI document is gzipped the same way and decodes to the same document', async () => {
    const plain = await bytesOf(await send('/swagger/json'))
    const response = await send('/swagger/json', { 'accept-encoding': BROWSER })
    const body = await bytesOf(response)
    expect([response.headers.get('content-encoding'), response.headers.get('vary')]).toEqual(['gzip', 'accept-encoding'])
    expect(response.headers.get('content-length')).toBe(String(body.byteLength))
    expect(new Uint8Array(gunzipSync(body))).toEqual(plain)
    expect(JSON.parse(text(plain))).toMatchObject({ openapi: expect.any(String), paths: expect.any(Object) })
  })

  test('small bodies and error envelopes under 1 KB go out as they are, whatever the client accepts', async () => {
    const cases: [string, string, Record<string, string>, number][] = [
      ['health', '/health', {}, 200],
      ['a short list', '/api/v1/admin/departments', { authorization: `Bearer ${admin}` }, 200],
      ['no token', '/api/v1/auth/me', {}, 401],
      ['unknown path', '/api/v1/nothing-here', {}, 404],
    ]
    for (const [what, path, headers, status] of cases) {
      const response = await send(path, { ...headers, 'accept-encoding': BROWSER })
      const body = await bytesOf(response)
      expect(response.status, what).toBe(status)
      expect(response.headers.get('content-encoding'), what).toBeNull()
      expect(response.headers.get('vary'), what).toBeNull()
      expect(response.headers.get('content-type'), what).toStartWith('application/json')
      expectSecurityHeaders(response.headers, what)
      expect(body.byteLength, what).toBeLessThan(1024)
      expect(JSON.parse(text(body)), what).toMatchObject({ code: status })
    }
    const missing = await send('/api/v1/nothing-here', { 'accept-encoding': 'gzip' })
    expect(await missing.json()).toEqual(errorBody(404, 'No endpoint GET /api/v1/nothing-here; the list of endpoints is at /swagger'))
  })

  test('HEAD of a large JSON answer is not compressed', async () => {
    const response = await send(LIST, { authorization: `Bearer ${admin}`, 'accept-encoding': 'gzip' }, 'HEAD')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-encoding')).toBeNull()
  })
})

describe('file content', () => {
  test('is never compressed: the stored bytes with their Content-Length and ETag; Range gives 206, If-None-Match 304', async () => {
    const content = 'a very compressible line of text\n'.repeat(200)
    const form = new FormData()
    form.append('file', new File([content], 'notes.txt', { type: 'text/plain' }))
    const uploaded = await t.app.handle(
      new Request('http://localhost/api/v1/storage/upload', { method: 'POST', body: form, headers: { authorization: `Bearer ${admin}` } }),
    )
    expect(uploaded.status).toBe(201)
    const { id } = ((await uploaded.json()) as { data: { id: string } }).data
    const path = `/api/v1/storage/files/${id}/content`
    const auth = { authorization: `Bearer ${admin}`, 'accept-encoding': BROWSER }

    const whole = await send(path, auth)
    expect(whole.status).toBe(200)
    expect(whole.headers.get('content-encoding')).toBeNull()
    expect(whole.headers.get('content-length')).toBe(String(content.length))
    const etag = whole.headers.get('etag')
    expect(etag).toBeTruthy()
    expect(await whole.text()).toBe(content)

    const range = await send(path, { ...auth, range: 'bytes=0-99' })
    expect(range.status).toBe(206)
    expect(range.headers.get('content-encoding')).toBeNull()
    expect(range.headers.get('content-length')).toBe('100')
    expect(await range.text()).toBe(content.slice(0, 100))

    const unchanged = await send(path, { ...auth, 'if-none-match': etag! })
    expect(unchanged.status).toBe(304)
    expect(unchanged.headers.get('content-encoding')).toBeNull()
    expect((await bytesOf(unchanged)).byteLength).toBe(0)
  })
})

describe('the docs page and its assets', () => {
  const fileOf = (name: string) => new Uint8Array(readFileSync(join(SWAGGER_UI, name)))

  test('JS and CSS: brotli when accepted, else gzip, else as they are; each decodes to the file; an ETag per encoding', async () => {
    for (const name of ['swagger-ui-bundle.js', 'swagger-ui.css']) {
      const file = fileOf(name)
      const tags = new Set<string>()
      for (const [accepted, encoding, decode] of [
        [BROWSER, 'br', brotliDecompressSync],
        ['gzip', 'gzip', gunzipSync],
        ['gzip;q=0.5, br;q=0.2', 'gzip', gunzipSync],
        ['identity', null, (bytes: Uint8Array) => bytes],
        [null, null, (bytes: Uint8Array) => bytes],
      ] as const) {
        const what = `${name} with ${accepted}`
        const response = await send(`/swagger/assets/${name}`, accepted ? { 'accept-encoding': accepted } : {})
        const body = await bytesOf(response)
        expect(response.status, what).toBe(200)
        expect(response.headers.get('content-encoding'), what).toBe(encoding)
        expect(response.headers.get('vary'), what).toBe('accept-encoding')
        expect(response.headers.get('content-length'), what).toBe(String(body.byteLength))
        expect(response.headers.get('content-type'), what).toBe(name.endsWith('.js') ? 'text/javascript;charset=utf-8' : 'text/css;charset=utf-8')
        expectSecurityHeaders(response.headers, what)
        expect(new Uint8Array(decode(body)), what).toEqual(file)
        if (encoding) expect(body.byteLength, what).toBeLessThan(file.byteLength / 3)
        tags.add(response.headers.get('etag')!)
      }
      // one tag per representation: identity, br, gzip
      expect(tags.size, name).toBe(3)
    }
  })

  test('the favicon (PNG) and the small init.js are never compressed', async () => {
    for (const name of ['favicon-32x32.png', 'init.js']) {
      const response = await send(`/swagger/assets/${name}`, { 'accept-encoding': BROWSER })
      expect(response.status, name).toBe(200)
      expect(response.headers.get('content-encoding'), name).toBeNull()
      expect(response.headers.get('vary'), name).toBeNull()
      const body = await bytesOf(response)
      expect(response.headers.get('content-length'), name).toBe(String(body.byteLength))
      if (name.endsWith('.png')) expect(body).toEqual(fileOf(name))
      else expect(text(body)).toContain('SwaggerUIBundle(')
    }
  })

  test('the page names each asset with its version: those URLs are cached for a year as immutable; others for an hour', async () => {
    const page = await send('/swagger', { 'accept-encoding': BROWSER })
    expect(page.status).toBe(200)
    expect(page.headers.get('cache-control')).toBe('no-cache')
    expect(page.headers.get('etag')).toMatch(/^"\w+"$/)
    const urls = [...(await page.text()).matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1])
    expect(urls.map((url) => url.replace(/\?v=\w+$/, '?v=…'))).toEqual([
      '/swagger/assets/favicon-32x32.png?v=…',
      '/swagger/assets/swagger-ui.css?v=…',
      '/swagger/assets/swagger-ui-bundle.js?v=…',
      '/swagger/assets/init.js?v=…',
    ])
    for (const url of urls) {
      const response = await send(url, { 'accept-encoding': BROWSER })
      expect(response.status, url).toBe(200)
      expect(response.headers.get('cache-control'), url).toBe('public, max-age=31536000, immutable')
      expect(response.headers.get('etag'), url).toStartWith(`"${new URL(url, 'http://x').searchParams.get('v')}`)
      await response.arrayBuffer()
    }
    for (const url of ['/swagger/assets/swagger-ui.css', '/swagger/assets/swagger-ui.css?v=old', '/swagger/assets/init.js?v=']) {
      const response = await send(url)
      expect(response.headers.get('cache-control'), url).toBe('public, max-age=3600')
      await response.arrayBuffer()
    }
  })

  test('If-None-Match naming the asset in any encoding (weak or strong) → 304 with no body; another tag → 200', async () => {
    const path = '/swagger/assets/swagger-ui-bundle.js'
    const first = await send(path, { 'accept-encoding': BROWSER })
    const etag = first.headers.get('etag')!
    expect(etag).toMatch(/^"\w+-br"$/)
    await first.arrayBuffer()
    const base = etag.replace('-br"', '"')
    for (const [ifNoneMatch, accepted, expectedTag] of [
      [etag, BROWSER, etag],
      [`W/${etag}`, BROWSER, etag],
      [`"other", ${etag}`, BROWSER, etag],
      [etag, 'gzip', base.replace(/"$/, '-gzip"')],
      [base, null, base],
      ['*', BROWSER, etag],
    ] as const) {
      const what = `${ifNoneMatch} / ${accepted}`
      const response = await send(path, { 'if-none-match': ifNoneMatch, ...(accepted ? { 'accept-encoding': accepted } : {}) })
      expect(response.status, what).toBe(304)
      expect(response.headers.get('etag'), what).toBe(expectedTag)
      expect(response.headers.get('cache-control'), what).toBe('public, max-age=3600')
      expect(response.headers.get('vary'), what).toBe('accept-encoding')
      expect(response.headers.get('content-encoding'), what).toBeNull()
      expectSecurityHeaders(response.headers, what)
      expect((await bytesOf(response)).byteLength, what).toBe(0)
    }
    const changed = await send(path, { 'if-none-match': '"something-else"', 'accept-encoding': 'gzip' })
    expect(changed.status).toBe(200)
    expect(changed.headers.get('content-encoding')).toBe('gzip')
    await changed.arrayBuffer()

    const page = await send('/swagger')
    const revalidated = await send('/swagger', { 'if-none-match': page.headers.get('etag')! })
    expect(revalidated.status).toBe(304)
    expect(revalidated.headers.get('cache-control')).toBe('no-cache')
    expectSecurityHeaders(revalidated.headers, 'page 304')
  })

  test('an asset off the list is still the JSON 404', async () => {
    const response = await send('/swagger/assets/index.html', { 'accept-encoding': BROWSER })
    expect(response.status).toBe(404)
    expect(await response.json()).toEqual(errorBody(404, 'No docs asset index.html'))
  })
})

describe('GET /', () => {
  test('GET and HEAD / redirect to the docs page (302) with the security headers', async () => {
    for (const [method, path] of [
      ['GET', '/'],
      ['HEAD', '/'],
      ['GET', '/?from=bookmark'],
    ]) {
      const response = await send(path, {}, method)
      expect(response.status, `${method} ${path}`).toBe(302)
      expect(response.headers.get('location'), `${method} ${path}`).toBe('/swagger')
      expectSecurityHeaders(response.headers, `${method} ${path}`)
    }
  })

  test('other methods on /, and every other unknown path, stay the JSON 404; /api, /swagger and /health are not captured', async () => {
    for (const [method, path] of [
      ['POST', '/'],
      ['DELETE', '/'],
      ['GET', '/index.html'],
      ['GET', '/api'],
      ['GET', '/api/v1'],
      ['HEAD', '/nothing/here'],
    ]) {
      const response = await send(path, {}, method)
      expect(response.status, `${method} ${path}`).toBe(404)
      expect(response.headers.get('location'), `${method} ${path}`).toBeNull()
      if (method !== 'HEAD') expect((await response.json()) as unknown, `${method} ${path}`).toMatchObject({ code: 404, data: null })
    }
    expect((await send('/health')).status).toBe(200)
    expect((await send('/swagger')).headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect((await send('/swagger/json')).status).toBe(200)
    expect((await send('/api/v1/auth/me')).status).toBe(401)
  })
})

describe('over a real connection', () => {
  let server: ServerProcess
  const dir = tempDir()
  beforeAll(async () => {
    server = await startServer({
      DATABASE_URL: `file:${join(dir, 'workforce.db')}`,
      STORAGE_URL: `file:${join(dir, 'files')}`,
      ADMIN_PASSWORD,
      JWT_SECRET: 'test-secret-that-is-at-least-32-bytes-long',
    })
  })
  afterAll(async () => {
    await server?.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  /** One request on its own socket; the answer's header lines and body bytes as they came. */
  async function raw(path: string, accepted: string): Promise<{ status: number; headers: string[]; body: Uint8Array<ArrayBuffer> }> {
    const chunks: Uint8Array[] = []
    await new Promise<void>((resolve, reject) => {
      Bun.connect({
        hostname: '127.0.0.1',
        port: server.port,
        socket: {
          open: (socket) => void socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nAccept-Encoding: ${accepted}\r\nConnection: close\r\n\r\n`),
          data: (_socket, data) => void chunks.push(new Uint8Array(data)),
          close: () => resolve(),
          error: (_socket, error) => reject(error),
        },
      }).catch(reject)
    })
    const all = Buffer.concat(chunks)
    const end = all.indexOf('\r\n\r\n')
    const [statusLine, ...headers] = all.subarray(0, end).toString('latin1').split('\r\n')
    return { status: Number(statusLine.split(' ')[1]), headers: headers.map((line) => line.toLowerCase()), body: new Uint8Array(all.subarray(end + 4)) }
  }
  const header = (headers: string[], name: string) => headers.filter((line) => line.startsWith(`${name}:`)).map((line) => line.slice(name.length + 1).trim())

  test('one Content-Length, counting the compressed bytes sent; the body decodes to the uncompressed answer', async () => {
    for (const [path, accepted, encoding, decode] of [
      ['/swagger/json', 'gzip', 'gzip', gunzipSync],
      ['/swagger/assets/swagger-ui-bundle.js', BROWSER, 'br', brotliDecompressSync],
      ['/swagger/assets/swagger-ui.css', 'gzip', 'gzip', gunzipSync],
    ] as const) {
      const [compressed, plain] = [await raw(path, accepted), await raw(path, 'identity')]
      expect([compressed.status, plain.status], path).toEqual([200, 200])
      expect(header(compressed.headers, 'content-encoding'), path).toEqual([encoding])
      expect(header(compressed.headers, 'content-length'), path).toEqual([String(compressed.body.byteLength)])
      expect(header(compressed.headers, 'transfer-encoding'), path).toEqual([])
      expect(header(compressed.headers, 'x-content-type-options'), path).toEqual(['nosniff'])
      expect(header(plain.headers, 'content-encoding'), path).toEqual([])
      expect(header(plain.headers, 'content-length'), path).toEqual([String(plain.body.byteLength)])
      expect(new Uint8Array(decode(compressed.body)), path).toEqual(plain.body)
    }
  })
})
