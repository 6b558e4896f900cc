import { Readable } from 'node:stream'
import Busboy from 'busboy'
import { ValidationError } from '../../http/errors'
import { say } from './messages'

export interface FilePart {
  field: string
  filename: string
  stream: Readable
}

export interface MultipartResult<T> {
  fields: Map<string, string>
  files: PromiseSettledResult<T>[]
  /** more file parts came than `maxFiles`; those were skipped */
  tooManyFiles: boolean
}

/** Text fields besides the files, and the size of each: enough for folder, description and is_public. */
export const MAX_FIELDS = 20
export const MAX_FIELD_BYTES = 64 * 1024

/**
 * Reads a multipart/form-data request as a stream: each file part goes to `onFile` as it
 * arrives and is never held whole in memory (the next part waits until it is consumed);
 * text fields are collected. `onFile` must read its part to the end, or resume it.
 */
export function readMultipart<T>(request: Request, maxFiles: number, onFile: (part: FilePart) => Promise<T>): Promise<MultipartResult<T>> {
  const contentType = request.headers.get('content-type') ?? ''
  if (!contentType.toLowerCase().startsWith('multipart/form-data') || !request.body)
    return Promise.reject(new ValidationError(say.notMultipart()))
  return new Promise((resolve, reject) => {
    let parser: Busboy.Busboy
    try {
      parser = Busboy({
        headers: { 'content-type': contentType },
        defParamCharset: 'utf8',
        limits: { files: maxFiles, fields: MAX_FIELDS, fieldSize: MAX_FIELD_BYTES },
      })
    } catch {
      return reject(new ValidationError(say.noBoundary()))
    }
    const fields = new Map<string, string>()
    const tasks: Promise<T>[] = []
    let tooManyFiles = false
    // a field dropped or cut by the limits would be read as absent or shorter: refused instead
    let refusal: ValidationError | null = null
    let failed = false
    parser.on('file', (field, stream, info) => {
      // busboy goes on to later parts after a malformed one; the request is refused already, so nothing more is stored
      if (failed) return void stream.resume()
      const task = onFile({ field, filename: info.filename ?? '', stream })
      // observed now: the outcome is collected when the whole body has been read
      task.catch(() => undefined)
      tasks.push(task)
    })
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) refusal ??= new ValidationError(say.fieldTooLong({ name, kib: MAX_FIELD_BYTES / 1024 }))
      // SQLite would hand such a text back cut at the NUL
      if (value.includes('\u0000')) refusal ??= new ValidationError(say.fieldHasNul({ name }))
      fields.set(name, value)
    })
    parser.on('fieldsLimit', () => {
      refusal ??= new ValidationError(say.tooManyFields({ max: MAX_FIELDS }))
    })
    parser.on('filesLimit', () => {
      tooManyFiles = true
    })
    parser.on('error', (error) => {
      failed = true
      void Promise.allSettled(tasks).then(() =>
        reject(new ValidationError(say.malformed({ detail: (error as Error).message }))),
      )
    })
    parser.on('close', () => {
      if (!failed) void Promise.allSettled(tasks).then((files) => (refusal ? reject(refusal) : resolve({ fields, files, tooManyFiles })))
    })
    const body = Readable.fromWeb(request.body as unknown as import('node:stream/web').ReadableStream<Uint8Array>)
    body.on('error', (error) => parser.destroy(error))
    body.pipe(parser)
  })
}
