import { randomUUID } from 'node:crypto'
import { PayloadTooLargeError, ValidationError } from '../../http/errors'
import { say as http } from '../../http/messages'
import type { Clock } from '../../lib/clock'
import { formatSize } from '../../lib/size-format'
import { SNIFF_BYTES, sniffType } from './file-types'
import { say } from './messages'
import type { FilePart } from './multipart'
import type { NewFile } from './repository'
import type { UploadBudget } from './quota'
import type { ObjectStore } from './store'

export interface Stored {
  id: string
  key: string
  filename: string
  originalName: string
  mimeType: string
  size: number
  etag: string
}

export const fileTooLarge = (maxFileSize: number) =>
  new PayloadTooLargeError(say.tooLarge({ size: formatSize(maxFileSize), bytes: maxFileSize }))

const FOLDER_SEGMENT = /^[\p{L}\p{N} ._-]+$/u

/** A folder path: segments of letters, digits, space, `.`, `_`, `-` joined by `/`. */
export function checkFolder(raw: string | undefined): string | null {
  const folder = raw?.trim().replace(/\/+$/, '')
  if (!folder) return null
  const segments = folder.split('/')
  const bad =
    folder.length > 255 ||
    folder.startsWith('/') ||
    folder.includes('\\') ||
    segments.some((segment) => segment.trim() === '' || segment === '.' || segment === '..' || !FOLDER_SEGMENT.test(segment))
  if (bad) throw new ValidationError(say.badFolder(), [{ field: 'folder', message: say.badFolderField() }])
  return folder
}

export function checkIsPublic(raw: string | undefined): boolean {
  if (raw === undefined || raw === '') return false
  const value = raw.trim().toLowerCase()
  if (['true', '1', 'on', 'yes'].includes(value)) return true
  if (['false', '0', 'off', 'no'].includes(value)) return false
  throw new ValidationError(say.badIsPublic(), [{ field: 'is_public', message: say.trueOrFalse() }])
}

export function checkDescription(raw: string | undefined): string | null {
  const description = raw?.trim()
  if (!description) return null
  if (description.length > 500)
    throw new ValidationError(say.descriptionTooLong(), [{ field: 'description', message: http.maxLength({ n: 500 }) }])
  return description
}

/** The name as uploaded, without any path a client put in front of it and without control characters; "." or ".." names nothing. */
export function originalNameOf(filename: string): string {
  const base = filename.split(/[\\/]/).pop() ?? ''
  // eslint-disable-next-line no-control-regex
  const visible = base.replace(/[\u0000-\u001f\u007f]/g, '')
  const clean = visible.trim().toWellFormed()
  if (/^\.*$/.test(clean)) return 'unnamed'
  const characters = Array.from(clean)
  if (characters.length <= 255) return clean
  // cut whole characters from the middle of the name, keeping its extension
  const dot = clean.lastIndexOf('.')
  const extension = dot > 0 && clean.length - dot <= 16 ? clean.slice(dot) : ''
  return (
    Array.from(clean.slice(0, clean.length - extension.length))
      .slice(0, 255 - extension.length)
      .join('') + extension
  )
}

/** Reads a part to its end without keeping it, so the next part can be parsed. */
export function drain(part: FilePart): void {
  part.stream.resume()
}

/** The same for a part already being iterated (a stream with a reader attached ignores `resume`). */
export async function discardRest(chunks: AsyncIterator<Buffer>): Promise<void> {
  try {
    while (!(await chunks.next()).done);
  } catch {
    // the request broke off; the parser reports it
  }
}

/**
 * Streams one file part to the store: type from its first bytes, size counted as it passes against
 * the size limit and the account's `budget`; `keys` collects what was stored.
 */
export function createPartWriter({ store, clock, maxFileSize }: { store: ObjectStore; clock: Clock; maxFileSize: number }) {
  const tooLarge = () => fileTooLarge(maxFileSize)
  return async (part: FilePart, keys: string[], budget: UploadBudget): Promise<Stored> => {
    const originalName = originalNameOf(part.filename)
    const chunks = part.stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>
    let size = 0
    /** what passed so far: over the size limit or the quota, the file is refused */
    const count = (chunk: Buffer) => {
      if (size + chunk.length > maxFileSize) throw tooLarge()
      budget.take(chunk.length, size)
      size += chunk.length
    }
    try {
      let head = Buffer.alloc(0)
      let ended = false
      while (head.length < SNIFF_BYTES) {
        const next = await chunks.next()
        if (next.done) {
          ended = true
          break
        }
        count(next.value)
        head = Buffer.concat([head, next.value])
      }
      if (head.length === 0) throw new ValidationError(say.empty({ name: originalName }))
      const type = await sniffType(head, originalName, ended)
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new Uint8Array(head))
          if (ended) controller.close()
        },
        async pull(controller) {
          const next = await chunks.next()
          if (next.done) return controller.close()
          try {
            count(next.value)
          } catch (error) {
            return controller.error(error)
          }
          controller.enqueue(new Uint8Array(next.value))
        },
      })
      const id = randomUUID()
      const now = clock.now()
      const filename = `${id}.${type.extension}`
      const key = `${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, '0')}/${filename}`
      keys.push(key)
      const stored = await store.put(key, body, type.mime)
      return { id, key, filename, originalName, mimeType: type.mime, size: stored.size, etag: stored.etag }
    } catch (error) {
      budget.release(size)
      throw error
    } finally {
      // whatever happened, the rest of this part is read (and dropped) so the next part can be parsed
      await discardRest(chunks)
    }
  }
}

/** The metadata rows of stored files, with the form's folder, description and is_public checked. */
export function rowsFor(stored: Stored[], fields: Map<string, string>, uploadedBy: number | null, at: Date): NewFile[] {
  const folder = checkFolder(fields.get('folder'))
  const description = checkDescription(fields.get('description'))
  const isPublic = checkIsPublic(fields.get('is_public'))
  return stored.map((file) => ({
    id: file.id,
    storageKey: file.key,
    filename: file.filename,
    originalName: file.originalName,
    mimeType: file.mimeType,
    size: file.size,
    etag: file.etag,
    folder,
    description,
    isPublic,
    uploadedBy,
    createdAt: at,
    updatedAt: at,
  }))
}
