import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { createHash, randomBytes } from 'node:crypto'
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ListMultipartUploadsCommand, S3Client } from '@aws-sdk/client-s3'
import { createLocalStore } from '../../src/modules/storage/local-store'
import { openStore } from '../../src/modules/storage/open-store'
import { StorageUnavailableError, type ObjectStore } from '../../src/modules/storage/store'
import { startS3 } from '../s3-server'

const MiB = 1024 * 1024
const CHUNK = 64 * 1024
const BUCKET = 'object-store-test'

/** `data` as a stream of 64 KiB chunks. */
function streamOf(data: Uint8Array): ReadableStream<Uint8Array> {
  let offset = 0
  return new ReadableStream({
    pull(controller) {
      if (offset >= data.byteLength) return controller.close()
      controller.enqueue(data.slice(offset, offset + CHUNK))
      offset += CHUNK
    },
  })
}

/** A stream that delivers `bytes` bytes and then errors, as a caller does when a size limit is passed. */
function failingStream(bytes: number, error: Error): ReadableStream<Uint8Array> {
  let sent = 0
  return new ReadableStream({
    pull(controller) {
      if (sent >= bytes) return controller.error(error)
      controller.enqueue(new Uint8Array(CHUNK).fill(7))
      sent += CHUNK
    },
  })
}

async function read(stream: ReadableStream<Uint8Array> | null): Promise<Uint8Array> {
  expect(stream).not.toBeNull()
  return new Uint8Array(await new Response(stream).arrayBuffer())
}

async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = []
  for await (const item of items) out.push(item)
  return out
}

const md5 = (data: Uint8Array) => createHash('md5').update(data).digest('hex')

interface Backend {
  store: ObjectStore
  /** unfinished writes the backend still holds: temp files, or open multipart uploads */
  leftovers(): Promise<string[]>
  stop(): Promise<void>
}

async function localBackend(): Promise<Backend> {
  const dir = await mkdtemp(join(tmpdir(), 'local-store-'))
  return {
    store: openStore({ kind: 'file', dir }),
    leftovers: () => readdir(join(dir, '.tmp')).catch(() => []),
    stop: () => rm(dir, { recursive: true, force: true }),
  }
}

async function s3Backend(): Promise<Backend> {
  const s3 = await startS3(BUCKET)
  const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }
  const client = new S3Client({ region: 'us-east-1', endpoint: s3.endpoint, forcePathStyle: true, credentials })
  return {
    store: openStore({ kind: 's3', bucket: BUCKET, endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true, ...credentials }),
    async leftovers() {
      const { Uploads } = await client.send(new ListMultipartUploadsCommand({ Bucket: BUCKET }))
      return (Uploads ?? []).map((upload) => `${upload.Key} ${upload.UploadId}`)
    },
    async stop() {
      client.destroy()
      await s3.stop()
    },
  }
}

describe.each([
  ['file', localBackend],
  ['s3', s3Backend],
] as const)('%s object store', (kind, start) => {
  let backend: Backend
  let store: ObjectStore
  beforeAll(async () => {
    backend = await start()
    store = backend.store
  })
  afterAll(() => backend.stop())
  beforeEach(async () => {
    for await (const object of store.list()) await store.remove(object.key)
  })

  test('reports its kind', () => {
    expect(store.kind).toBe(kind)
  })

  test('stores and returns small objects byte for byte', async () => {
    const data = randomBytes(1000)
    const stored = await store.put('2024/03/small.bin', streamOf(data), 'application/octet-stream')
    expect(stored.size).toBe(1000)
    if (kind === 'file') expect(stored.etag).toBe(md5(data))
    else expect(stored.etag).toMatch(/^[^"]+$/)
    expect(await read(await store.get('2024/03/small.bin'))).toEqual(new Uint8Array(data))
  })

  test('stores an empty object', async () => {
    const stored = await store.put('2024/03/empty.txt', streamOf(new Uint8Array(0)), 'text/plain')
    expect(stored.size).toBe(0)
    if (kind === 'file') expect(stored.etag).toBe(md5(new Uint8Array(0)))
    expect(await read(await store.get('2024/03/empty.txt'))).toEqual(new Uint8Array(0))
  })

  test('streams a 12 MiB object (multipart on S3)', async () => {
    const data = randomBytes(12 * MiB)
    const stored = await store.put('2024/03/large.bin', streamOf(data), 'application/octet-stream')
    expect(stored.size).toBe(12 * MiB)
    if (kind === 'file') expect(stored.etag).toBe(md5(data))
    else expect(stored.etag).toMatch(/^[^"]+$/)
    const back = await read(await store.get('2024/03/large.bin'))
    expect(back.byteLength).toBe(data.byteLength)
    expect(Buffer.compare(back, data)).toBe(0)
  }, 60_000)

  test('returns byte ranges, both ends inclusive', async () => {
    const data = randomBytes(1000)
    await store.put('2024/03/range.bin', streamOf(data), 'application/octet-stream')
    const range = async (start: number, end: number) => read(await store.get('2024/03/range.bin', { start, end }))
    expect(await range(0, 9)).toEqual(new Uint8Array(data.subarray(0, 10)))
    expect(await range(400, 499)).toEqual(new Uint8Array(data.subarray(400, 500)))
    expect(await range(999, 999)).toEqual(new Uint8Array(data.subarray(999)))
  })

  test('returns null for a missing object', async () => {
    expect(await store.get('2024/03/missing.pdf')).toBeNull()
    expect(await store.get('2024/03/missing.pdf', { start: 0, end: 9 })).toBeNull()
  })

  test('removes objects; removing a missing one is fine', async () => {
    await store.put('2024/03/gone.txt', streamOf(new TextEncoder().encode('bye')), 'text/plain')
    await store.remove('2024/03/gone.txt')
    expect(await store.get('2024/03/gone.txt')).toBeNull()
    expect(await store.remove('2024/03/gone.txt')).toBeUndefined()
    expect(await store.remove('1999/01/never.txt')).toBeUndefined()
  })

  test('lists exactly the objects put', async () => {
    const keys = ['2024/03/a.pdf', '2024/04/b.png', 'top.txt']
    for (const [index, key] of keys.entries()) await store.put(key, streamOf(randomBytes(10 + index)), 'application/octet-stream')
    const listed = (await all(store.list())).sort((a, b) => a.key.localeCompare(b.key))
    expect(listed.map(({ key, size }) => ({ key, size }))).toEqual([
      { key: '2024/03/a.pdf', size: 10 },
      { key: '2024/04/b.png', size: 11 },
      { key: 'top.txt', size: 12 },
    ])
    for (const object of listed) {
      expect(object.lastModified).toBeInstanceOf(Date)
      expect(Math.abs(object.lastModified.getTime() - Date.now())).toBeLessThan(60_000)
    }
  })

  test('a body that errors half-way rejects with that error and leaves nothing behind', async () => {
    const tooLarge = new Error('the file is larger than the limit')
    // 7 MiB: past the first 5 MiB part, so S3 is inside a multipart upload
    await expect(store.put('2024/03/partial.bin', failingStream(7 * MiB, tooLarge), 'application/octet-stream')).rejects.toBe(tooLarge)
    expect(await all(store.list())).toEqual([])
    expect(await store.get('2024/03/partial.bin')).toBeNull()
    expect(await backend.leftovers()).toEqual([])
  }, 30_000)

  test('a body that errors before any byte rejects with that error', async () => {
    const broken = new Error('client went away')
    await expect(store.put('2024/03/none.bin', failingStream(0, broken), 'application/octet-stream')).rejects.toBe(broken)
    expect(await all(store.list())).toEqual([])
    expect(await backend.leftovers()).toEqual([])
  })

  test.each([
    '../escape.pdf',
    '2024/../../escape.pdf',
    '/etc/passwd',
    '2024\\03\\x.pdf',
    '2024/03/x\0.pdf',
    '2024//x.pdf',
    './x',
    '.tmp/x',
    '',
  ])('rejects the unsafe key %j', async (key) => {
    await expect(store.put(key, streamOf(new Uint8Array(1)), 'text/plain')).rejects.toThrow('Unsafe object key')
    await expect(store.get(key)).rejects.toThrow('Unsafe object key')
    await expect(store.remove(key)).rejects.toThrow('Unsafe object key')
  })

  test('probe says the store is writable', async () => {
    expect(await store.probe()).toBe(true)
  })
})

async function expectUnavailable(action: () => Promise<unknown>): Promise<void> {
  const started = performance.now()
  const error = await action().then(
    () => undefined,
    (error: unknown) => error,
  )
  expect(error).toBeInstanceOf(StorageUnavailableError)
  expect((error as StorageUnavailableError).status).toBe(503)
  expect(performance.now() - started).toBeLessThan(5000)
}

describe('s3 object store with the server stopped', () => {
  let store: ObjectStore
  beforeAll(async () => {
    const s3 = await startS3(BUCKET)
    store = openStore({
      kind: 's3',
      bucket: BUCKET,
      endpoint: s3.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
    })
    expect(await store.probe()).toBe(true)
    await s3.stop()
  })

  test('put, get, remove and list fail fast with StorageUnavailableError', async () => {
    await expectUnavailable(() => store.put('2024/03/a.txt', streamOf(new Uint8Array(10)), 'text/plain'))
    await expectUnavailable(() => store.put('2024/03/b.bin', streamOf(randomBytes(6 * MiB)), 'application/octet-stream'))
    await expectUnavailable(() => store.get('2024/03/a.txt'))
    await expectUnavailable(() => store.remove('2024/03/a.txt'))
    await expectUnavailable(() => all(store.list()))
  }, 30_000)

  test('probe is false', async () => {
    expect(await store.probe()).toBe(false)
  })
})

describe('local object store on an unusable folder', () => {
  let root: string
  let store: ObjectStore
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'local-store-'))
    await writeFile(join(root, 'plain-file'), 'not a folder')
    store = createLocalStore(join(root, 'plain-file', 'files'))
  })
  afterAll(() => rm(root, { recursive: true, force: true }))

  test('every operation throws StorageUnavailableError', async () => {
    await expectUnavailable(() => store.put('2024/03/a.txt', streamOf(new Uint8Array(10)), 'text/plain'))
    await expectUnavailable(() => store.get('2024/03/a.txt'))
    await expectUnavailable(() => store.remove('2024/03/a.txt'))
    await expectUnavailable(() => all(store.list()))
  })

  test('probe is false', async () => {
    expect(await store.probe()).toBe(false)
  })

  test('the folder being a regular file is also unavailable', async () => {
    const fileStore = createLocalStore(join(root, 'plain-file'))
    await expectUnavailable(() => fileStore.get('2024/03/a.txt'))
    await expectUnavailable(() => all(fileStore.list()))
    expect(await fileStore.probe()).toBe(false)
  })
})

describe('local object store', () => {
  test('does not list unfinished writes in .tmp and starts empty when the folder is missing', async () => {
    const root = await mkdtemp(join(tmpdir(), 'local-store-'))
    try {
      const store = createLocalStore(join(root, 'files'))
      expect(await all(store.list())).toEqual([])
      expect(await store.get('2024/03/a.txt')).toBeNull()
      await mkdir(join(root, 'files', '.tmp'), { recursive: true })
      await writeFile(join(root, 'files', '.tmp', 'unfinished'), 'half')
      await store.put('2024/03/a.txt', streamOf(new TextEncoder().encode('whole')), 'text/plain')
      expect((await all(store.list())).map((object) => object.key)).toEqual(['2024/03/a.txt'])
    } finally {
      await rm(root, { recursive: true, force: true })
    }
  })
})

describe('s3 presigned downloads', () => {
  let s3: Awaited<ReturnType<typeof startS3>>
  let store: ObjectStore
  const data = randomBytes(2048)
  const filename = 'Résumé "final" 简历.pdf'
  beforeAll(async () => {
    s3 = await startS3(BUCKET)
    store = openStore({
      kind: 's3',
      bucket: BUCKET,
      endpoint: s3.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
    })
    await store.put('2024/03/resume.pdf', streamOf(data), 'application/pdf')
  })
  afterAll(() => s3.stop())

  test('downloads without credentials as the given file name', async () => {
    const url = await store.presign!('2024/03/resume.pdf', 60, { filename, contentType: 'application/pdf' })
    expect(url).toContain('X-Amz-Signature=')
    const response = await fetch(url)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/pdf')
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="Resume _final_ __.pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9%20%22final%22%20%E7%AE%80%E5%8E%86.pdf`,
    )
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(new Uint8Array(data))
  })

  test('an expired URL is refused', async () => {
    const url = await store.presign!('2024/03/resume.pdf', 1, { filename, contentType: 'application/pdf' })
    await Bun.sleep(2100)
    const response = await fetch(url)
    expect(response.status).toBe(403)
    await response.body?.cancel()
  }, 10_000)
})
