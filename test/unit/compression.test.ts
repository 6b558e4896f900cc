import { describe, expect, test } from 'bun:test'
import { Elysia } from 'elysia'
import { gunzipSync } from 'node:zlib'
import { COMPRESS_MIN_LENGTH, compression, isCompressible, negotiateEncoding, varyOnEncoding, type Encoding } from '../../src/http/compression'

describe('negotiateEncoding', () => {
  const cases: [string | null, Encoding[], Encoding | null][] = [
    [null, ['br', 'gzip'], null],
    ['', ['br', 'gzip'], null],
    ['identity', ['br', 'gzip'], null],
    ['gzip', ['br', 'gzip'], 'gzip'],
    ['gzip, deflate, br, zstd', ['br', 'gzip'], 'br'],
    ['gzip, deflate, br, zstd', ['gzip'], 'gzip'],
    ['br', ['gzip'], null],
    ['deflate', ['br', 'gzip'], null],
    ['GZIP', ['gzip'], 'gzip'],
    ['x-gzip', ['gzip'], 'gzip'],
    ['gzip;q=0', ['gzip'], null],
    ['gzip; q=0.0', ['gzip'], null],
    ['gzip;q=0.5, br;q=0.8', ['br', 'gzip'], 'br'],
    ['gzip;q=0.9, br;q=0.8', ['br', 'gzip'], 'gzip'],
    ['gzip;q=1, br;q=1', ['br', 'gzip'], 'br'],
    ['*', ['br', 'gzip'], 'br'],
    ['*;q=0', ['br', 'gzip'], null],
    ['br;q=0, *', ['br', 'gzip'], 'gzip'],
    ['gzip;q=0, *;q=0.5', ['gzip'], null],
    ['gzip;q=nonsense', ['gzip'], null],
    [' , gzip , ', ['gzip'], 'gzip'],
  ]
  test.each(cases)('%p offered %p → %p', (header, offered, expected) => {
    expect(negotiateEncoding(header, offered)).toBe(expected)
  })
})

describe('isCompressible', () => {
  test.each([
    ['application/json', true],
    ['application/json;charset=utf-8', true],
    ['application/problem+json', true],
    ['text/html; charset=utf-8', true],
    ['text/css;charset=utf-8', true],
    ['text/javascript;charset=utf-8', true],
    ['application/javascript', true],
    ['image/svg+xml', true],
    ['text/plain', true],
    ['image/png', false],
    ['application/pdf', false],
    ['application/octet-stream', false],
    ['application/zip', false],
  ] as const)('%p → %p', (type, expected) => {
    expect(isCompressible(type)).toBe(expected)
  })
  test('no type: not compressible', () => expect(isCompressible(undefined)).toBe(false))
})

describe('varyOnEncoding', () => {
  test.each([
    [undefined, 'accept-encoding'],
    ['', 'accept-encoding'],
    ['origin', 'origin, accept-encoding'],
    ['Accept-Encoding', 'Accept-Encoding'],
    ['origin, accept-encoding', 'origin, accept-encoding'],
    ['*', '*'],
  ] as const)('%p → %p', (before, after) => {
    const headers: Record<string, string> = before === undefined ? {} : { vary: before }
    varyOnEncoding(headers)
    expect(headers.vary).toBe(after)
  })
})

describe('the compression hook', () => {
  // a JSON body of exactly `n` characters: {"t":"xxx…"} is 8 characters around the text
  const bodyOf = (n: number) => ({ t: 'x'.repeat(n - 8) })
  const app = new Elysia()
    .use(compression())
    // like the service's error handler: registered before the routes, answering with an object
    .get('/json/:n', ({ params }) => bodyOf(Number(params.n)))
    .get('/text/:type', ({ params, set }) => {
      set.headers['content-type'] = decodeURIComponent(params.type)
      return 'y'.repeat(4000)
    })
    .get('/bytes', () => new TextEncoder().encode('z'.repeat(4000)))
    .get('/response', () => new Response('r'.repeat(4000), { headers: { 'content-type': 'text/plain' } }))
    .get('/status/:code', ({ params, set }) => {
      set.status = Number(params.code)
      return bodyOf(4000)
    })
    .get('/encoded', ({ set }) => {
      set.headers['content-encoding'] = 'br'
      return 'already encoded'.repeat(100)
    })
    .get('/vary', ({ set }) => {
      set.headers.vary = 'origin'
      return bodyOf(4000)
    })
    .onError(({ set }) => {
      set.status = 500
      return { message: 'failed', detail: 'e'.repeat(3000) }
    })
    .get('/error', (): unknown => {
      throw new Error('x'.repeat(3000))
    })
  const send = (path: string, encoding: string | null = 'gzip', method = 'GET') =>
    app.handle(new Request(`http://localhost${path}`, { method, headers: encoding === null ? {} : { 'accept-encoding': encoding } }))

  test(`a JSON body under ${COMPRESS_MIN_LENGTH} characters goes out as it is; from ${COMPRESS_MIN_LENGTH} on it is gzipped`, async () => {
    for (const n of [100, COMPRESS_MIN_LENGTH - 1, COMPRESS_MIN_LENGTH, 50_000]) {
      const response = await send(`/json/${n}`)
      const body = new Uint8Array(await response.arrayBuffer())
      const text = JSON.stringify(bodyOf(n))
      expect(text).toHaveLength(n)
      expect(response.headers.get('content-type')).toBe('application/json;charset=utf-8')
      if (n < COMPRESS_MIN_LENGTH) {
        expect([response.headers.get('content-encoding'), response.headers.get('vary')]).toEqual([null, null])
        expect(new TextDecoder().decode(body)).toBe(text)
      } else {
        expect([response.headers.get('content-encoding'), response.headers.get('vary')]).toEqual(['gzip', 'accept-encoding'])
        expect(response.headers.get('content-length')).toBe(String(body.byteLength))
        expect(new TextDecoder().decode(gunzipSync(body))).toBe(text)
      }
    }
  })

  test('a client that does not accept gzip gets the same bytes uncompressed', async () => {
    for (const encoding of [null, 'identity', 'br', 'gzip;q=0']) {
      const response = await send('/json/5000', encoding)
      expect(response.headers.get('content-encoding'), String(encoding)).toBeNull()
      expect(await response.text()).toBe(JSON.stringify(bodyOf(5000)))
    }
  })

  test('text of a compressible type is gzipped; other types, bytes and Responses pass untouched', async () => {
    for (const [type, compressed] of [
      ['text/html; charset=utf-8', true],
      ['image/svg+xml', true],
      ['image/png', false],
      ['application/octet-stream', false],
    ] as const) {
      const response = await send(`/text/${encodeURIComponent(type)}`)
      const body = new Uint8Array(await response.arrayBuffer())
      expect(response.headers.get('content-encoding'), type).toBe(compressed ? 'gzip' : null)
      expect(new TextDecoder().decode(compressed ? gunzipSync(body) : body), type).toBe('y'.repeat(4000))
    }
    for (const path of ['/bytes', '/response']) {
      const response = await send(path)
      expect(response.headers.get('content-encoding'), path).toBeNull()
      expect((await response.arrayBuffer()).byteLength, path).toBe(4000)
    }
  })

  test('HEAD, 204, 206 and 304 are not compressed, nor a body that already names its encoding', async () => {
    expect((await send('/json/5000', 'gzip', 'HEAD')).headers.get('content-encoding')).toBeNull()
    for (const code of [206, 304]) expect((await send(`/status/${code}`)).headers.get('content-encoding'), String(code)).toBeNull()
    expect((await send('/status/201')).headers.get('content-encoding')).toBe('gzip')
    const encoded = await send('/encoded')
    expect(encoded.headers.get('content-encoding')).toBe('br')
    expect(await encoded.text()).toBe('already encoded'.repeat(100))
  })

  test('Vary keeps what the route set; an error answer is compressed like any other and keeps its body', async () => {
    expect((await send('/vary')).headers.get('vary')).toBe('origin, accept-encoding')
    const failed = await send('/error')
    expect(failed.status).toBe(500)
    expect(failed.headers.get('content-encoding')).toBe('gzip')
    expect(JSON.parse(gunzipSync(new Uint8Array(await failed.arrayBuffer())).toString())).toEqual({ message: 'failed', detail: 'e'.repeat(3000) })
    const plain = await send('/error', null)
    expect(await plain.json()).toEqual({ message: 'failed', detail: 'e'.repeat(3000) })
  })
})
