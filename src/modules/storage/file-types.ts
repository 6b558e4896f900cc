import { AppError } from '../../http/errors'
import type { Message } from '../../lib/messages'
import { say } from './messages'

/** The MIME types the service accepts, with the name extensions each may carry. */
export const ALLOWED_TYPES: Record<string, readonly string[]> = {
  'image/jpeg': ['jpg', 'jpeg'],
  'image/png': ['png'],
  'image/gif': ['gif'],
  'application/pdf': ['pdf'],
  'application/msword': ['doc'],
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': ['docx'],
  'application/vnd.ms-excel': ['xls'],
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': ['xlsx'],
  'text/plain': ['txt', 'text', 'log', 'csv'],
}

/** How many leading bytes are read to decide the type (OOXML needs its first zip entries). */
export const SNIFF_BYTES = 64 * 1024

export class UnsupportedTypeError extends AppError {
  constructor(message: Message) {
    super(415, message)
  }
}

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.')
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : ''
}

/** UTF-8 without NUL or other control characters than tab, line breaks and form feed. */
function looksLikeText(head: Uint8Array, complete: boolean): boolean {
  // a multi-byte character may be cut at the end of a partial head
  const bytes = complete ? head : head.subarray(0, Math.max(0, head.length - 3))
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
    return !/[\u0000-\u0008\u000B\u000E-\u001F\u007F]/.test(text)
  } catch {
    return false
  }
}

/**
 * The MIME type of a file from its first bytes (magic numbers), checked against the
 * allowed list and against the name's extension: a type off the list, or an extension
 * that disagrees with the content, is a 415.
 */
export async function sniffType(head: Uint8Array, name: string, complete: boolean): Promise<{ mime: string; extension: string }> {
  const extension = extensionOf(name)
  // loaded with the first upload, not at start: file-type and its readers are about 5 MB of every process
  const { fileTypeFromBuffer } = await import('file-type')
  const detected = await fileTypeFromBuffer(head)
  let mime: string | null = detected?.mime ?? null
  // .doc and .xls share one container format (OLE compound file); the name tells which
  if (mime === 'application/x-cfb')
    mime = extension === 'doc' ? 'application/msword' : extension === 'xls' ? 'application/vnd.ms-excel' : mime
  if (!detected && looksLikeText(head, complete)) mime = 'text/plain'
  const allowed = Object.keys(ALLOWED_TYPES)
  if (!mime || !ALLOWED_TYPES[mime])
    throw new UnsupportedTypeError(
      mime ? say.typeNotAccepted({ name, mime, allowed: allowed.join(', ') }) : say.typeUnknown({ name, allowed: allowed.join(', ') }),
    )
  if (extension && !ALLOWED_TYPES[mime].includes(extension))
    throw new UnsupportedTypeError(say.extensionDisagrees({ name, extension, mime }))
  return { mime, extension: extension || ALLOWED_TYPES[mime][0] }
}
