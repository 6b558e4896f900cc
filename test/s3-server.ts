import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3'
// @ts-expect-error s3rver ships no type declarations
import S3rver from 's3rver'

interface KoaContext {
  method: string
  path: string
  query: Record<string, string | string[] | undefined>
  status: number
  body: unknown
}
type Middleware = (ctx: KoaContext, next: () => Promise<void>) => Promise<void>
interface S3rverInstance {
  middleware: Middleware[]
  store: { getResourcePath(bucket: string, key: string | undefined, resource: string): string }
  run(): Promise<{ port: number }>
  close(): Promise<void>
}

const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }

/**
 * s3rver 3.7 answers ListMultipartUploads with NotImplemented and AbortMultipartUpload with
 * MethodNotAllowed. These answer from the folder where s3rver keeps unfinished uploads, so a test can see
 * whether an abandoned multipart upload was cleaned up, and lib-storage's clean-up can succeed.
 */
function multipartUploads(server: S3rverInstance): Middleware {
  return async (ctx, next) => {
    const [bucket, ...rest] = ctx.path.slice(1).split('/')
    const key = rest.join('/')
    const uploadsDir = () => server.store.getResourcePath(decodeURIComponent(bucket), undefined, 'uploads')
    if (ctx.method === 'GET' && key === '' && 'uploads' in ctx.query) {
      const ids = await readdir(uploadsDir()).catch(() => [] as string[])
      const uploads = await Promise.all(
        ids.map(async (UploadId) => ({ Key: await readFile(join(uploadsDir(), UploadId, 'key'), 'utf8'), UploadId })),
      )
      ctx.body = { ListMultipartUploadsResult: { Bucket: bucket, IsTruncated: false, Upload: uploads } }
    } else if (ctx.method === 'DELETE' && key !== '' && typeof ctx.query.uploadId === 'string') {
      await rm(join(uploadsDir(), ctx.query.uploadId), { recursive: true, force: true })
      ctx.status = 204
    } else {
      await next()
    }
  }
}

/** Starts an S3-compatible server on a random port with one empty bucket; `env` points the app at it. */
export async function startS3(bucket = 'workforce-test'): Promise<{
  endpoint: string
  env: Record<string, string>
  stop(): Promise<void>
  dir: string
}> {
  const dir = await mkdtemp(join(tmpdir(), 's3rver-'))
  const server: S3rverInstance = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir })
  // just before the router, after the middleware that turns plain objects into XML
  server.middleware.splice(server.middleware.length - 1, 0, multipartUploads(server))
  const { port } = await server.run()
  const endpoint = `http://127.0.0.1:${port}`

  const client = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials: CREDENTIALS })
  try {
    await client.send(new CreateBucketCommand({ Bucket: bucket }))
  } catch (error) {
    await server.close()
    await rm(dir, { recursive: true, force: true })
    throw error
  } finally {
    client.destroy()
  }

  let stopped = false
  return {
    endpoint,
    dir,
    env: {
      STORAGE_URL: `s3://${bucket}`,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
    },
    async stop() {
      if (stopped) return
      stopped = true
      await server.close()
      await rm(dir, { recursive: true, force: true })
    },
  }
}
