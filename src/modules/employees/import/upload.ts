import { PayloadTooLargeError, ValidationError } from '../../../http/errors'
import { say as http } from '../../../http/messages'
import { say as imports } from '../../imports/messages'
import { readMultipart } from '../../storage/multipart'
import { MAX_ROWS } from './csv'
import { MAX_IMPORT_BYTES } from './model'

const FORM_OVERHEAD = 64 * 1024

const tooLargeFile = (maxBytes: number, maxRows: number) =>
  new PayloadTooLargeError(imports.tooLarge({ mib: maxBytes / 1024 / 1024, rows: maxRows.toLocaleString('en') }))

/**
 * The bytes of the form's field "file", at most `limits.bytes` of them (413 beyond, while they
 * stream); by default an employee import's (MAX_IMPORT_BYTES, MAX_ROWS).
 */
export async function readUpload(request: Request, limits = { bytes: MAX_IMPORT_BYTES, rows: MAX_ROWS }): Promise<Uint8Array> {
  const maxBytes = limits.bytes
  const tooLarge = () => tooLargeFile(maxBytes, limits.rows)
  const declared = Number(request.headers.get('content-length'))
  if (Number.isFinite(declared) && declared > maxBytes + FORM_OVERHEAD) throw tooLarge()
  const form = await readMultipart(request, 1, async (part) => {
    const chunks: Buffer[] = []
    let size = 0
    // every part is read to its end, so the parser can go on; only the field "file" is kept, and not past the limit
    for await (const chunk of part.stream as AsyncIterable<Buffer>) {
      size += chunk.length
      if (part.field === 'file' && size <= maxBytes) chunks.push(chunk)
    }
    if (part.field !== 'file') return null
    if (size > maxBytes) throw tooLarge()
    return new Uint8Array(Buffer.concat(chunks))
  })
  if (form.tooManyFiles) throw new ValidationError(imports.oneFile(), [{ field: 'file', message: imports.isOneFile() }])
  const failure = form.files.find((result) => result.status === 'rejected')
  if (failure) throw (failure as PromiseRejectedResult).reason
  const file = form.files.flatMap((result) => (result.status === 'fulfilled' && result.value ? [result.value] : []))[0]
  if (file) return file
  throw new ValidationError(form.fields.has('file') ? imports.noFileButText() : imports.noFile(), [{ field: 'file', message: http.required() }])
}
