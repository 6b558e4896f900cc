import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { brotliCompressSync, brotliDecompressSync, gunzipSync } from 'node:zlib'
import { createApp, type App } from '../src/app'
import { buildConsole } from '../src/console/build'
import { CONSOLE_CSP, loadConsole } from '../src/http/console'
import { CACHE_IMMUTABLE } from '../src/http/static-assets'
import { startApp, tempDir, type TestApp } from './helpers'

/*
 * How the service serves the web console (CONTRACT §13), on a stand-in build: a page and two
 * assets named as the bundler names them. The real build is checked at the end.
 */
const PAGE = '<!doctype html><html><head><script type="module" src="/assets/index-abc123.js"></script></head><body><div id="root"></div></body></html>'
const SCRIPT = `console.log(${JSON.stringify('x'.repeat(4000))})`
const PREBUILT_BR = brotliCompressSync(SCRIPT)

let t: TestApp
let app: App
let dist: string

beforeAll(async () => {
  dist = tempDir('workforce-console-')
  mkdirSync(join(dist, 'assets'))
  writeFileSync(join(dist, 'index.html'), PAGE)
  writeFileSync(join(dist, 'assets', 'index-abc123.js'), SCRIPT)
  writeFileSync(join(dist, 'assets', 'index-def456.css'), 'body{margin:0}')
  // the build's own brotli form (made at the best quality), served as it is
  writeFileSync(join(dist, 'assets', 'index-abc123.js.br'), PREBUILT_BR)
  writeFileSync(join(dist, 'secret.txt'), 'not an asset')
  t = await startApp()
  app = createApp({ ...t.deps, console: loadConsole(dist) })
})
afterAll(() => {
  t.close()
  rmSync(dist, { recursive: true, force: true })
})

const send = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
  app.handle(new Request(`http://localhost${path}`, { method, headers }))

describe('the console page', () => {
  test('/ and every path of the console answer the page: 200, HTML, its CSP without inline script, no-cache, the security headers', async () => {
    for (const path of ['/', '/me/leave', '/admin/attendance/records', '/approvals?kind=leave', '/no/such/page']) {
      const response = await send(path)
      expect(response.status, path).toBe(200)
      expect(await response.text(), path).toBe(PAGE)
      expect(Object.fromEntries(['content-type', 'content-security-policy', 'cache-control', 'x-frame-options', 'x-content-type-options'].map((name) => [name, response.headers.get(name)]))).toEqual({
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': CONSOLE_CSP,
        'cache-control': 'no-cache',
        'x-frame-options': 'DENY',
        'x-content-type-options': 'nosniff',
      })
    }
    const scripts = CONSOLE_CSP.split(';').find((directive) => directive.trim().startsWith('script-src'))
    expect(scripts?.trim()).toBe("script-src 'self'")
  })

  test('HEAD has the headers and no body; a known ETag is a 304', async () => {
    const head = await send('/me/calendar', {}, 'HEAD')
    expect(head.status).toBe(200)
    expect(await head.text()).toBe('')
    const etag = (await send('/')).headers.get('etag')!
    const again = await send('/admin/users', { 'if-none-match': etag })
    expect(again.status).toBe(304)
    expect(again.headers.get('content-security-policy')).toBe(CONSOLE_CSP)
  })

  test('never for /api/*, /swagger*, /health, file names, or other methods: those stay the JSON 404 (or their own answers)', async () => {
    for (const [method, path] of [
      ['GET', '/api'],
      ['GET', '/api/'],
      ['GET', '/api/v1/nothing'],
      ['GET', '/api/v2/anything/at/all'],
      ['HEAD', '/api/v1/nothing'],
      ['GET', '/swagger/nothing'],
      ['GET', '/swaggerish'],
      ['GET', '/health/deep'],
      ['GET', '/favicon.ico'],
      ['GET', '/robots.txt'],
      ['GET', '/secret.txt'],
      ['POST', '/'],
      ['DELETE', '/me/leave'],
    ]) {
      const response = await send(path, {}, method)
      expect(response.status, `${method} ${path}`).toBe(404)
      expect(response.headers.get('content-type'), `${method} ${path}`).toStartWith('application/json')
    }
    expect((await send('/health')).status).toBe(200)
    expect((await send('/swagger/json')).status).toBe(200)
    expect((await send('/api/v1/auth/me')).status).toBe(401)
  })
})

describe('the console assets', () => {
  test('a hashed asset: its type, kept for a year, compressed as the browser accepts (brotli as the build made it)', async () => {
    const plain = await send('/assets/index-abc123.js')
    expect(plain.status).toBe(200)
    expect(await plain.text()).toBe(SCRIPT)
    expect(plain.headers.get('content-type')).toBe('text/javascript;charset=utf-8')
    expect(plain.headers.get('cache-control')).toBe(CACHE_IMMUTABLE)
    const gzipped = await send('/assets/index-abc123.js', { 'accept-encoding': 'gzip' })
    expect(gzipped.headers.get('content-encoding')).toBe('gzip')
    expect(gunzipSync(new Uint8Array(await gzipped.arrayBuffer())).toString()).toBe(SCRIPT)
    const brotli = await send('/assets/index-abc123.js', { 'accept-encoding': 'br, gzip' })
    expect(brotli.headers.get('content-encoding')).toBe('br')
    const sent = new Uint8Array(await brotli.arrayBuffer())
    expect(Buffer.from(sent).equals(PREBUILT_BR)).toBe(true)
    expect(brotliDecompressSync(sent).toString()).toBe(SCRIPT)
    expect((await send('/assets/index-def456.css')).headers.get('content-type')).toBe('text/css;charset=utf-8')
    // the .br file is the asset's encoding, not an asset of its own
    expect((await send('/assets/index-abc123.js.br')).status).toBe(404)
  })

  test('an unknown asset, a path out of the folder or a file not under assets/ is the JSON 404', async () => {
    for (const path of ['/assets/index-zzz.js', '/assets/..%2Fsecret.txt', '/assets/..%2Findex.html', '/assets/.hidden.js', '/assets/index.html']) {
      const response = await send(path)
      expect(response.status, path).toBe(404)
      expect(((await response.json()) as { code: number }).code, path).toBe(404)
    }
  })
})

test('without a build, / sends people to the docs page and other paths stay the JSON 404', async () => {
  const bare = createApp(t.deps)
  const home = await bare.handle(new Request('http://localhost/'))
  expect([home.status, home.headers.get('location')]).toEqual([302, '/swagger'])
  expect((await bare.handle(new Request('http://localhost/me/leave'))).status).toBe(404)
  expect(loadConsole(join(dist, 'nothing-here'))).toBeNull()
})

test('the real build: one page whose scripts are files (no inline script), every other file hashed under assets/, with its gzip size listed', async () => {
  const out = join(tempDir('workforce-console-build-'), 'dist')
  try {
    const info = await buildConsole(out)
    const page = readFileSync(join(out, 'index.html'), 'utf8')
    const scripts = [...page.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
    expect(scripts.length).toBeGreaterThan(0)
    for (const [, attributes, content] of scripts) {
      expect(attributes).toMatch(/\ssrc="\/assets\/[\w-]+-[a-z0-9]+\.js"/)
      expect(content.trim()).toBe('')
    }
    expect(page).not.toMatch(/\son[a-z]+=/i)
    for (const file of info.files.filter((file) => file.path !== 'index.html')) {
      expect(file.path).toMatch(/^assets\/[\w-]+-[a-z0-9]+\.(js|css|svg)$/)
      expect(file.gzipBytes).toBeGreaterThan(0)
    }
    expect(info.files.some((file) => file.path.endsWith('.css'))).toBe(true)
  } finally {
    rmSync(join(out, '..'), { recursive: true, force: true })
  }
})
