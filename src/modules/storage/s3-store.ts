import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  S3Client,
  type ListObjectsV2CommandOutput,
} from '@aws-sdk/client-s3'
import { Upload } from '@aws-sdk/lib-storage'
import { getSignedUrl } from '@aws-sdk/s3-request-presigner'
import type { StorageConfig } from '../../config'
import type { Message } from '../../lib/messages'
import { contentDisposition } from './content'
import { assertSafeKey } from './local-store'
import { say } from './messages'
import { StorageUnavailableError, type ObjectStore } from './store'

/** S3's minimum part size; with two parts in flight an upload holds about 10 MiB. */
const PART_SIZE = 5 * 1024 * 1024
const QUEUE_SIZE = 2
const CONNECT_TIMEOUT_MS = 3000
/** Until the response headers arrive; an upload part sends 5 MiB first, so it gets longer. */
const UPLOAD_TIMEOUT_MS = 60_000
const REQUEST_TIMEOUT = { requestTimeout: 5000 }
const PROBE_TIMEOUT_MS = 3000

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  // Bun's names for the same failures
  'ConnectionRefused',
  'ConnectionClosed',
  'FailedToOpenSocket',
])

interface ErrorFields {
  name?: string
  code?: string
  cause?: unknown
  $metadata?: { httpStatusCode?: number }
}

/** Why the store could not be reached, or undefined when the error is about the request itself. */
function unreachable(error: unknown): Message | undefined {
  let current = error
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    const { name, code, cause, $metadata } = current as ErrorFields
    if (name === 'TimeoutError' || name === 'AbortError' || code === 'ETIMEDOUT') return say.timedOut()
    if (code && CONNECTION_CODES.has(code)) return say.cannotConnect()
    const status = $metadata?.httpStatusCode ?? 0
    if (status >= 500) return say.storeAnswered({ status })
    current = cause
  }
  return undefined
}

function unavailable(error: unknown): unknown {
  const detail = unreachable(error)
  return detail ? new StorageUnavailableError(detail) : error
}

function isMissing(error: unknown): boolean {
  const { name, $metadata } = error as ErrorFields
  // a missing bucket is a misconfiguration, not a missing object
  return name === 'NoSuchKey' || ($metadata?.httpStatusCode === 404 && name !== 'NoSuchBucket')
}

export function createS3Store(config: Extract<StorageConfig, { kind: 's3' }>): ObjectStore {
  const { bucket: Bucket } = config
  const client = new S3Client({
    region: config.region,
    endpoint: config.endpoint,
    forcePathStyle: config.forcePathStyle,
    credentials:
      config.accessKeyId && config.secretAccessKey
        ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey }
        : undefined,
    requestHandler: { connectionTimeout: CONNECT_TIMEOUT_MS, requestTimeout: UPLOAD_TIMEOUT_MS, throwOnRequestTimeout: true },
  })

  return {
    kind: 's3',

    async put(Key, body, ContentType) {
      assertSafeKey(Key)
      const source = body.getReader()
      let size = 0
      let bodyFailed = false
      let bodyError: unknown
      // counts bytes and tells the caller's error apart from the store's
      const counted = new ReadableStream<Uint8Array>(
        {
          async pull(controller) {
            const chunk = await source.read().catch((error: unknown) => {
              bodyFailed = true
              bodyError = error
              return undefined
            })
            if (!chunk) return controller.error(bodyError)
            if (chunk.done) return controller.close()
            size += chunk.value.byteLength
            controller.enqueue(chunk.value)
          },
          cancel: (reason) => source.cancel(reason),
        },
        { highWaterMark: 0 },
      )
      const upload = new Upload({ client, params: { Bucket, Key, Body: counted, ContentType }, partSize: PART_SIZE, queueSize: QUEUE_SIZE })
      try {
        const result = await upload.done()
        return { size, etag: (result.ETag ?? '').replace(/^"|"$/g, '') }
      } catch (error) {
        // done() rejects only after it has aborted an open multipart upload; calling upload.abort()
        // first would settle it early and race that clean-up. A single PUT is only sent once the
        // whole body has been read, so a failed body never reaches the store.
        if (bodyFailed) throw bodyError
        await source.cancel(error).catch(() => {})
        throw unavailable(error)
      }
    },

    async get(Key, range) {
      assertSafeKey(Key)
      try {
        const { Body } = await client.send(
          new GetObjectCommand({ Bucket, Key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
          REQUEST_TIMEOUT,
        )
        if (!Body) return null
        return Body.transformToWebStream() as ReadableStream<Uint8Array>
      } catch (error) {
        if (isMissing(error)) return null
        throw unavailable(error)
      }
    },

    async remove(Key) {
      assertSafeKey(Key)
      try {
        await client.send(new DeleteObjectCommand({ Bucket, Key }), REQUEST_TIMEOUT)
      } catch (error) {
        if (isMissing(error)) return
        throw unavailable(error)
      }
    },

    async *list() {
      let ContinuationToken: string | undefined
      do {
        let page: ListObjectsV2CommandOutput
        try {
          page = await client.send(new ListObjectsV2Command({ Bucket, ContinuationToken }), REQUEST_TIMEOUT)
        } catch (error) {
          throw unavailable(error)
        }
        for (const object of page.Contents ?? []) {
          if (object.Key === undefined) continue
          yield { key: object.Key, size: object.Size ?? 0, lastModified: object.LastModified ?? new Date(0) }
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined
      } while (ContinuationToken)
    },

    async probe() {
      try {
        await client.send(new HeadBucketCommand({ Bucket }), { abortSignal: AbortSignal.timeout(PROBE_TIMEOUT_MS) })
        return true
      } catch {
        return false
      }
    },

    async presign(Key, expiresIn, { filename, contentType }) {
      assertSafeKey(Key)
      const command = new GetObjectCommand({
        Bucket,
        Key,
        ResponseContentDisposition: contentDisposition(filename),
        ResponseContentType: contentType,
      })
      return getSignedUrl(client, command, { expiresIn })
    },
  }
}
