import { say } from './messages'
import { existsSync, readFileSync } from 'node:fs'
import { extname, join } from 'node:path'
import { Elysia } from 'elysia'
import { normalizePath } from '../lib/url-path'
import { NotFoundError } from './errors'
import { CACHE_IMMUTABLE, sendAsset, staticAsset, type StaticAsset } from './static-assets'

/** Where `bun src/console/build.ts` puts the built console (not committed: built by `bun run start` and the Dockerfile). */
export const CONSOLE_DIST = join(import.meta.dir, '..', 'console', 'dist')

/**
 * The console's policy: every script, style, image and request from this service only; no inline
 * script. Styles may be inline: the component library sets CSS variables in style attributes and a
 * style element (styles cannot run code).
 */
export const CONSOLE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; connect-src 'self'; manifest-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"

const TYPES: Record<string, string> = {
  '.js': 'text/javascript;charset=utf-8',
  '.css': 'text/css;charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
}

export interface ConsoleAssets {
  page: StaticAsset
  /** an asset by its hashed file name under assets/, read on first request and kept; null for any other name */
  asset(file: string): StaticAsset | null
}

/** The built console in `dir`, or null when it has not been built. */
export function loadConsole(dir = CONSOLE_DIST): ConsoleAssets | null {
  const index = join(dir, 'index.html')
  if (!existsSync(index)) return null
  const page = staticAsset(readFileSync(index), 'text/html; charset=utf-8')
  const assets = new Map<string, StaticAsset>()
  return {
    page,
    asset(file) {
      let asset = assets.get(file)
      if (asset) return asset
      const type = TYPES[extname(file)]
      const path = join(dir, 'assets', file)
      // names are the bundler's ([name]-[hash].[ext]): nothing with a separator or a leading dot
      if (!type || !/^[\w-]+(\.[\w-]+)*$/.test(file) || !existsSync(path)) return null
      asset = staticAsset(readFileSync(path), type)
      // the build's brotli form, at a quality too slow to reach per request
      if (existsSync(`${path}.br`)) asset.encoded.set('br', Promise.resolve(new Uint8Array(readFileSync(`${path}.br`))))
      assets.set(file, asset)
      return asset
    },
  }
}

/**
 * Paths the console never answers for, however unknown: the API's, the docs page's and the health
 * check's, however spelt (`//api/…`, `/%61pi/…`, `/x/../health`: decided on `normalizePath`).
 */
export function isReserved(pathname: string): boolean {
  const path = normalizePath(pathname)
  return /^\/(api|health)(\/|$)/.test(path) || path.startsWith('/swagger')
}

/** A path that names a file (its last segment has an extension): never a page of the console. */
const namesAFile = (pathname: string) => /\.[^/]*$/.test(pathname)

/**
 * The console's page for any GET or HEAD that no route answers, outside `isReserved` and file names:
 * the console's router shows the page, or its own "not found". It is no route but the not-found
 * answer, so the route table lists only the API; it goes before the error handler. Without a build,
 * `/` sends people to the docs page and every other path stays the JSON 404.
 */
export const consolePage = (assets: ConsoleAssets | null) =>
  new Elysia({ name: 'console-page' }).onError({ as: 'global' }, async (context) => {
    const { code, request } = context
    if (code !== 'NOT_FOUND' || (request.method !== 'GET' && request.method !== 'HEAD')) return
    const pathname = normalizePath(new URL(request.url).pathname)
    if (!assets) return pathname === '/' ? new Response(null, { status: 302, headers: { location: '/swagger' } }) : undefined
    if (isReserved(pathname) || namesAFile(pathname)) return
    const headers = context.set.headers as Record<string, string>
    headers['content-security-policy'] = CONSOLE_CSP
    headers['permissions-policy'] = 'geolocation=(self), camera=(), microphone=()'
    // the page names its assets by content: a browser asks again each time (304 when unchanged)
    const body = await sendAsset(assets.page, { request, set: { headers } }, 'no-cache')
    if (body instanceof Response) {
      for (const [name, value] of Object.entries(headers)) body.headers.set(name, value)
      return body
    }
    return new Response(request.method === 'HEAD' ? null : (body as Uint8Array<ArrayBuffer>), { status: 200, headers })
  })

/** The console's assets, named by their content: browsers keep them for a year. */
export const consoleAssets = (assets: ConsoleAssets | null) =>
  new Elysia({ name: 'console-assets' }).get(
    '/assets/:file',
    (context) => {
      const asset = assets?.asset(context.params.file)
      if (!asset) throw new NotFoundError(say.noConsoleAsset({ file: context.params.file }))
      return sendAsset(asset, context, CACHE_IMMUTABLE)
    },
    { detail: { hide: true } },
  )
