import { NotFoundError } from '../../http/errors'
import { say } from './messages'
import type { FileRow } from './repository'

/**
 * `Content-Disposition: attachment` for any file name: an ASCII fallback with nothing
 * that could end the header or the quoted string, or name a folder, and the exact name in RFC 5987 form.
 */
export function contentDisposition(name: string): string {
  // accents are dropped rather than replaced where a letter has them (é → e); the decomposition also
  // turns look-alikes such as a full-width "／" or "．" into ASCII, so path characters are replaced after it,
  // and "*" too, so that no naive parser finds a second `filename*=` inside the quoted name
  const fallback =
    name
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^\x20-\x7e]|["\\/%;*]/g, '_') || 'download'
  const encoded = encodeURIComponent(name.toWellFormed()).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`
}

/** One `bytes=` range: `a-b`, `a-` or `-n`; several ranges are served whole. */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | null | 'unsatisfiable' {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null
  if (!match || (match[1] === '' && match[2] === '')) return null
  let start: number
  let end: number
  if (match[1] === '') {
    const suffix = Number(match[2])
    if (suffix === 0) return 'unsatisfiable'
    start = Math.max(0, size - suffix)
    end = size - 1
  } else {
    start = Number(match[1])
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1)
  }
  if (start >= size || start > end) return 'unsatisfiable'
  return { start, end }
}

/**
 * The HTTP answer for a file's bytes once access is settled: 304 for a matching ETag,
 * 416 for a range outside the file, headers only for HEAD, else the bytes (206 for a
 * range). A whole download, or one from byte 0, is counted.
 */
export async function contentResponse(
  file: FileRow,
  headers: { range?: string; ifNoneMatch?: string },
  headOnly: boolean,
  io: { open(range?: { start: number; end: number }): Promise<ReadableStream<Uint8Array> | null>; counted(): Promise<void> },
): Promise<Response> {
  const etag = `"${file.etag}"`
  const common = {
    'content-type': file.mimeType,
    etag,
    'accept-ranges': 'bytes',
    'content-disposition': contentDisposition(file.originalName),
    'cache-control': 'private, no-cache',
  }
  if (headers.ifNoneMatch?.split(',').some((tag) => tag.trim() === etag)) return new Response(null, { status: 304, headers: common })
  const range = parseRange(headers.range, file.size)
  if (range === 'unsatisfiable') return new Response(null, { status: 416, headers: { ...common, 'content-range': `bytes */${file.size}` } })
  const sized = {
    ...common,
    'content-length': String(range ? range.end - range.start + 1 : file.size),
    ...(range ? { 'content-range': `bytes ${range.start}-${range.end}/${file.size}` } : {}),
  }
  const status = range ? 206 : 200
  if (headOnly) return new Response(null, { status, headers: sized })
  const body = await io.open(range ?? undefined)
  if (!body) throw new NotFoundError(say.contentMissing({ id: file.id }))
  if (!range || range.start === 0) await io.counted()
  return new Response(body, { status, headers: sized })
}
