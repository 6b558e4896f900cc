import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import { COMPRESS_MIN_LENGTH, isCompressible, negotiateEncoding, varyOnEncoding, type Encoding } from './compression'

const brotliAsync = promisify(brotliCompress)
const gzipAsync = promisify(gzip)

/**
 * Brotli quality for files compressed once per process: on the 1.7 MB Swagger UI bundle, quality 9 takes
 * ~110 ms for 392 KB (gzip level 9: 42 ms, 459 KB); 10 and 11 save 7–9 % more for 1.3 s and 3 s.
 */
const BROTLI_QUALITY = 9

/** A file served from memory: its bytes, a version tag from its content, and its compressed forms once asked for. */
export interface StaticAsset {
  readonly type: string
  readonly body: Uint8Array
  /** changes whenever the content does: the version in the asset's URL and the base of its ETag */
  readonly tag: string
  readonly compressible: boolean
  /** compressed forms, made on first request (off the event loop) and kept; null if compressing failed */
  readonly encoded: Map<Encoding, Promise<Uint8Array | null>>
}

export function staticAsset(content: Uint8Array | string, type: string): StaticAsset {
  const body = typeof content === 'string' ? new TextEncoder().encode(content) : content
  return {
    type,
    body,
    tag: Bun.hash(body).toString(36),
    compressible: isCompressible(type) && body.byteLength >= COMPRESS_MIN_LENGTH,
    encoded: new Map(),
  }
}

function encodedBody(asset: StaticAsset, encoding: Encoding): Promise<Uint8Array | null> {
  let pending = asset.encoded.get(encoding)
  if (!pending) {
    const compressed =
      encoding === 'br'
        ? brotliAsync(asset.body, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
              [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
              [constants.BROTLI_PARAM_SIZE_HINT]: asset.body.byteLength,
            },
          })
        : gzipAsync(asset.body, { level: 9 })
    pending = compressed.then((buffer) => new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength)).catch(() => null)
    asset.encoded.set(encoding, pending)
  }
  return pending
}

const etagOf = (asset: StaticAsset, encoding: Encoding | null) => `"${asset.tag}${encoding ? `-${encoding}` : ''}"`

/** If-None-Match names this asset in any of its encodings (or is `*`): a weak comparison, as RFC 9110 asks for GET. */
function notModified(header: string | null, asset: StaticAsset): boolean {
  if (!header) return false
  return header.split(',').some((item) => {
    const tag = item.trim().replace(/^W\//, '')
    return tag === '*' || tag === `"${asset.tag}"` || tag === `"${asset.tag}-br"` || tag === `"${asset.tag}-gzip"`
  })
}

export const CACHE_IMMUTABLE = 'public, max-age=31536000, immutable'

/**
 * Answers with an asset: brotli or gzip as the client accepts (not for HEAD), an ETag per encoding,
 * `Vary: Accept-Encoding`, the given Cache-Control, and 304 when If-None-Match already names it.
 */
export async function sendAsset(
  asset: StaticAsset,
  { request, set }: { request: Request; set: { headers: Record<string, string | number> } },
  cacheControl: string,
): Promise<Uint8Array | Response> {
  const wanted =
    asset.compressible && request.method !== 'HEAD' ? negotiateEncoding(request.headers.get('accept-encoding'), ['br', 'gzip']) : null
  set.headers['cache-control'] = cacheControl
  if (asset.compressible) varyOnEncoding(set.headers)
  if (notModified(request.headers.get('if-none-match'), asset)) {
    set.headers.etag = etagOf(asset, wanted)
    return new Response(null, { status: 304 })
  }
  const encoded = wanted ? await encodedBody(asset, wanted) : null
  const encoding = encoded ? wanted : null
  const body = encoded ?? asset.body
  set.headers['content-type'] = asset.type
  set.headers.etag = etagOf(asset, encoding)
  if (encoding) set.headers['content-encoding'] = encoding
  set.headers['content-length'] = String(body.byteLength)
  return body
}
