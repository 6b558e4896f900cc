import { Elysia } from 'elysia'
import { PayloadTooLargeError, ValidationError } from './errors'

export const JSON_BODY_LIMIT = 1024 * 1024

async function readLimited(request: Request, limit: number): Promise<string> {
  const declared = Number(request.headers.get('content-length'))
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit)
  if (!request.body) return ''
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit) {
      await reader.cancel()
      throw tooLarge(limit)
    }
    chunks.push(value)
  }
  return new TextDecoder().decode(Buffer.concat(chunks))
}

const tooLarge = (limit: number) =>
  new PayloadTooLargeError(`The JSON body is larger than ${limit / 1024 / 1024} MiB; send less data per request`)

/** Parses JSON bodies itself so that size (413) and syntax (400) errors get clear messages. */
export const jsonBody = new Elysia({ name: 'json-body' }).onParse({ as: 'global' }, async ({ request, contentType }) => {
  if (!contentType?.toLowerCase().startsWith('application/json')) return
  const raw = await readLimited(request, JSON_BODY_LIMIT)
  if (raw.trim() === '') return {}
  try {
    return JSON.parse(raw)
  } catch (error) {
    throw new ValidationError(`The request body is not valid JSON: ${(error as Error).message}`)
  }
})
