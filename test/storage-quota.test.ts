import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { ListMultipartUploadsCommand, S3Client } from '@aws-sdk/client-s3'
import { createApp, type App } from '../src/app'
import { auditLogs, files } from '../src/db/schema'
import type { ObjectStore } from '../src/modules/storage/store'
import { errorBody, loginAdmin, makeUser, NOW, okBody, replyOf, req, startApp, type TestApp } from './helpers'
import { startS3 } from './s3-server'

/*
 * UPLOAD_QUOTA: the bytes of files one account may keep (CONTRACT §5 extension), once on the local disk
 * and once on S3 (s3rver on 127.0.0.1). Every account here starts without files.
 */

const API = '/api/v1/storage'
const PUBLIC_URL = 'http://localhost:8080'
const MiB = 1024 * 1024
const QUOTA = 6 * MiB
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/** The 507 an account gets when a file does not fit: `used` is what its stored files take. */
const overQuota = (used: string, usedBytes: number) =>
  errorBody(
    507,
    `This file does not fit in your upload quota: your files take ${used} (${usedBytes} bytes) of 6.00 MB (${QUOTA} bytes). ` +
      'Delete files you no longer need, or ask an administrator to raise UPLOAD_QUOTA',
  )

/** `size` bytes of text (sniffed as text/plain). */
const text = (size: number) => new Uint8Array(size).fill(0x61)

interface Part {
  name: string
  size: number
}

function form(parts: Part[], field: string) {
  const body = new FormData()
  for (const part of parts) body.append(field, new File([text(part.size)], part.name))
  return body
}

async function send(app: App, path: 'upload' | 'batch-upload', token: string, parts: Part[], headers: Record<string, string> = {}) {
  const body = form(parts, path === 'upload' ? 'file' : 'files')
  return replyOf(
    await app.handle(new Request(`http://localhost${API}/${path}`, { method: 'POST', body, headers: { ...headers, authorization: `Bearer ${token}` } })),
  )
}

/** A store whose writes, once finished, wait until `count` of them have finished: uploads that all passed the streaming check. */
function heldStore(store: ObjectStore, count: number): ObjectStore {
  let finished = 0
  let release!: () => void
  const allFinished = new Promise<void>((resolve) => (release = resolve))
  return {
    ...store,
    async put(key, body, contentType) {
      const stored = await store.put(key, body, contentType)
      if (++finished >= count) release()
      await allFinished
      return stored
    },
  }
}

/** A store that notes how each write ended: the bytes stored, or the error that stopped the stream. */
function watchedStore(store: ObjectStore): { store: ObjectStore; writes: string[] } {
  const writes: string[] = []
  return {
    writes,
    store: {
      ...store,
      async put(key, body, contentType) {
        try {
          const stored = await store.put(key, body, contentType)
          writes.push(`stored ${stored.size}`)
          return stored
        } catch (error) {
          writes.push(`stopped: ${(error as Error).message}`)
          throw error
        }
      },
    },
  }
}

describe.each([
  ['local disk', false],
  ['S3', true],
] as const)('upload quota on %s', (_backend, isS3) => {
  let t: TestApp
  let s3: Awaited<ReturnType<typeof startS3>> | undefined
  let admin: string
  let users = 0

  beforeAll(async () => {
    s3 = isS3 ? await startS3() : undefined
    t = await startApp({ env: { ...s3?.env, UPLOAD_QUOTA: String(QUOTA) } })
    admin = await loginAdmin(t.app)
  })

  afterAll(async () => {
    t?.close()
    await s3?.stop()
  })

  /** A new account without files. */
  async function account() {
    const name = `user${++users}`
    return { name, ...(await makeUser(t.app, admin, name)) }
  }

  const upload = (token: string, part: Part, headers?: Record<string, string>) => send(t.app, 'upload', token, [part], headers)

  /** Uploads one file; fails the test when it is refused. */
  async function uploaded(token: string, part: Part): Promise<string> {
    const reply = await upload(token, part)
    if (reply.status !== 201) throw new Error(`upload of ${part.name} failed: ${JSON.stringify(reply.body)}`)
    return reply.body.data.id
  }

  /** Every row (id and size) and every object (key and size) there is. */
  async function stored() {
    const rows = await t.deps.database.db.select({ id: files.id, size: files.size }).from(files)
    const objects: string[] = []
    for await (const object of t.deps.store.list()) objects.push(`${object.key} ${object.size}`)
    return { rows: rows.map((row) => `${row.id} ${row.size}`).sort(), objects: objects.sort() }
  }

  /** What a refused upload may not leave: temp files on disk, open multipart uploads on S3. */
  async function unfinished(): Promise<string[]> {
    if (!isS3) return readdir(join(t.dir, 'files', '.tmp')).catch(() => [])
    const client = new S3Client({
      region: 'us-east-1',
      endpoint: s3!.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    })
    try {
      const { Uploads } = await client.send(new ListMultipartUploadsCommand({ Bucket: 'workforce-test' }))
      return (Uploads ?? []).map((upload) => `${upload.Key}`)
    } finally {
      client.destroy()
    }
  }

  const plus = (before: { rows: string[]; objects: string[] }, added: { id: string; size: number }[]) => ({
    rows: [...before.rows, ...added.map((file) => `${file.id} ${file.size}`)].sort(),
    objects: [...before.objects, ...added.map((file) => `2024/03/${file.id}.txt ${file.size}`)].sort(),
  })

  const auditCount = async () => (await t.deps.database.db.select({ id: auditLogs.id }).from(auditLogs)).length

  /** The File object of a text file `name` of `size` bytes uploaded by `uploader`. */
  const fileDetail = (id: string, name: string, size: number, sizeFormatted: string, uploader: { id: number; name: string }) => ({
    id,
    filename: `${id}.txt`,
    original_name: name,
    mime_type: 'text/plain',
    size,
    size_formatted: sizeFormatted,
    folder: null,
    description: null,
    is_public: false,
    uploaded_by: { ...uploader, avatar: null },
    created_at: NOW,
    url: `${PUBLIC_URL}${API}/files/${id}/content`,
    download_url: expect.stringContaining(isS3 ? `${s3!.endpoint}/workforce-test/2024/03/${id}.txt?` : `${PUBLIC_URL}${API}/files/${id}/content?`),
    last_accessed_at: null,
    download_count: 0,
  })

  test('a file up to what is left → 201; the next byte → 507 with the whole body; nothing more is stored', async () => {
    const ann = await account()
    await uploaded(ann.token, { name: 'two.txt', size: 2 * MiB })
    // exactly what is left: 4 MiB
    const reply = await upload(ann.token, { name: 'four.txt', size: 4 * MiB })
    expect(reply.status).toBe(201)
    const id = reply.body.data.id
    expect(reply.body).toEqual(okBody(fileDetail(id, 'four.txt', 4 * MiB, '4.00 MB', { id: ann.id, name: ann.name }), 'File uploaded'))

    const before = await stored()
    const since = await auditCount()
    const refused = await upload(ann.token, { name: 'one-byte.txt', size: 1 })
    expect(refused.status).toBe(507)
    expect(refused.body).toEqual(overQuota('6.00 MB', QUOTA))
    const zh = await send(t.app, 'upload', ann.token, [{ name: 'one-byte.txt', size: 1 }], { 'accept-language': 'zh-CN,zh;q=0.9' })
    expect(zh.body).toEqual(
      errorBody(
        507,
        `此文件超出您的上传配额：您的文件已占用 6.00 MB（${QUOTA} 字节），配额为 6.00 MB（${QUOTA} 字节）。请删除不再需要的文件，或请管理员调高 UPLOAD_QUOTA`,
      ),
    )
    expect(await stored()).toEqual(before)
    expect(await auditCount()).toBe(since)
    expect(await unfinished()).toEqual([])
  })

  test('a 7 MiB file against 6 MiB left is stopped while it streams (past S3’s first 5 MiB part): no row, no object, nothing unfinished', async () => {
    const ben = await account()
    const watched = watchedStore(t.deps.store)
    const before = await stored()
    const reply = await send(createApp({ ...t.deps, store: watched.store }), 'upload', ben.token, [{ name: 'seven.txt', size: 7 * MiB }])
    expect(reply.status).toBe(507)
    expect(reply.body).toEqual(overQuota('0 B', 0))
    // the write itself was stopped, not merely left out afterwards
    expect(watched.writes).toEqual([`stopped: ${overQuota('0 B', 0).message}`])
    expect(await stored()).toEqual(before)
    expect(await unfinished()).toEqual([])
  }, 30_000)

  test('a declared Content-Length over what is left → 507 before the body is read', async () => {
    const cleo = await account()
    await uploaded(cleo.token, { name: 'five.txt', size: 5 * MiB })
    const before = await stored()
    const boundary = 'quota-boundary'
    const reply = await req(t.app, 'POST', `${API}/upload`, {
      token: cleo.token,
      raw: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nhello\r\n--${boundary}--\r\n`,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(3 * MiB) },
    })
    expect(reply.status).toBe(507)
    expect(reply.body).toEqual(overQuota('5.00 MB', 5 * MiB))
    expect(await stored()).toEqual(before)
  })

  test('in a batch each file fits or fails on its own, in order: a refused one takes nothing from those after it', async () => {
    const dora = await account()
    await uploaded(dora.token, { name: 'first.txt', size: 2 * MiB })
    const before = await stored()
    const watched = watchedStore(t.deps.store)
    // 2 MiB used: a (1) fits → 3; b (4) does not; c (1) fits → 4; d (3) does not; e (2) fits → 6, the whole quota
    const reply = await send(createApp({ ...t.deps, store: watched.store }), 'batch-upload', dora.token, [
      { name: 'a.txt', size: MiB },
      { name: 'b.txt', size: 4 * MiB },
      { name: 'c.txt', size: MiB },
      { name: 'd.txt', size: 3 * MiB },
      { name: 'e.txt', size: 2 * MiB },
    ])
    expect(reply.status).toBe(200)
    const ids = (reply.body.data.results as { id?: string }[]).map((item) => item.id)
    for (const i of [0, 2, 4]) expect(ids[i]).toMatch(UUID)
    const success = (i: number, name: string, size: number) => ({
      id: ids[i],
      filename: `${ids[i]}.txt`,
      original_name: name,
      size,
      url: `${PUBLIC_URL}${API}/files/${ids[i]}/content`,
      status: 'success',
    })
    const failed = (name: string, used: string, usedBytes: number) => ({ original_name: name, status: 'failed', error: overQuota(used, usedBytes).message })
    expect(reply.body).toEqual(
      okBody(
        {
          total: 5,
          success: 3,
          failed: 2,
          results: [
            success(0, 'a.txt', MiB),
            failed('b.txt', '3.00 MB', 3 * MiB),
            success(2, 'c.txt', MiB),
            failed('d.txt', '4.00 MB', 4 * MiB),
            success(4, 'e.txt', 2 * MiB),
          ],
        },
        'Files processed',
      ),
    )
    // in the order they ended: on S3 a small file's PUT is still under way when the next file streams
    expect(watched.writes.sort()).toEqual(
      [
        `stored ${MiB}`,
        `stopped: ${overQuota('3.00 MB', 3 * MiB).message}`,
        `stored ${MiB}`,
        `stopped: ${overQuota('4.00 MB', 4 * MiB).message}`,
        `stored ${2 * MiB}`,
      ].sort(),
    )
    expect(await stored()).toEqual(
      plus(before, [
        { id: ids[0]!, size: MiB },
        { id: ids[2]!, size: MiB },
        { id: ids[4]!, size: 2 * MiB },
      ]),
    )
    expect(await unfinished()).toEqual([])
  }, 30_000)

  test('two uploads at once that both pass the streaming check but not together: exactly one is kept, the other → 507', async () => {
    const eve = await account()
    // both files are in the store before either is committed: only the check in the write transaction can refuse one
    const held = createApp({ ...t.deps, store: heldStore(t.deps.store, 2) })
    const before = await stored()
    const replies = await Promise.all([
      send(held, 'upload', eve.token, [{ name: 'one.txt', size: 4 * MiB }]),
      send(held, 'upload', eve.token, [{ name: 'two.txt', size: 4 * MiB }]),
    ])
    expect(replies.map((reply) => reply.status).sort()).toEqual([201, 507])
    const kept = replies.find((reply) => reply.status === 201)!
    const refused = replies.find((reply) => reply.status === 507)!
    const id = kept.body.data.id
    expect(kept.body).toEqual(
      okBody(fileDetail(id, kept.body.data.original_name, 4 * MiB, '4.00 MB', { id: eve.id, name: eve.name }), 'File uploaded'),
    )
    expect(refused.body).toEqual(overQuota('4.00 MB', 4 * MiB))
    expect(await stored()).toEqual(plus(before, [{ id, size: 4 * MiB }]))
  }, 30_000)

  test('two batches at once: their files together never pass the quota', async () => {
    const finn = await account()
    const held = createApp({ ...t.deps, store: heldStore(t.deps.store, 4) })
    const before = await stored()
    const batch = (prefix: string) =>
      send(held, 'batch-upload', finn.token, [
        { name: `${prefix}1.txt`, size: 2 * MiB },
        { name: `${prefix}2.txt`, size: 2 * MiB },
      ])
    const replies = await Promise.all([batch('a'), batch('b')])
    // 6 MiB: three of the four 2 MiB files; the last one committed finds the quota taken
    const counts = replies.map((reply) => [reply.body.data.success, reply.body.data.failed])
    expect(counts.sort()).toEqual([
      [1, 1],
      [2, 0],
    ])
    const failure = replies.flatMap((reply) => reply.body.data.results).filter((item: { status: string }) => item.status === 'failed')
    expect(failure).toEqual([{ original_name: expect.stringMatching(/^[ab]2\.txt$/), status: 'failed', error: overQuota('6.00 MB', QUOTA).message }])
    const keptIds = replies.flatMap((reply) => reply.body.data.results).flatMap((item: { id?: string }) => (item.id ? [item.id] : []))
    expect(await stored()).toEqual(plus(before, keptIds.map((id: string) => ({ id, size: 2 * MiB }))))
  }, 30_000)

  test('deleting files frees their share of the quota', async () => {
    const gus = await account()
    const first = await uploaded(gus.token, { name: 'a.txt', size: 3 * MiB })
    const second = await uploaded(gus.token, { name: 'b.txt', size: 3 * MiB })
    const full = await upload(gus.token, { name: 'c.txt', size: MiB })
    expect(full.status).toBe(507)
    expect(full.body).toEqual(overQuota('6.00 MB', QUOTA))

    const removed = await req(t.app, 'DELETE', `${API}/delete`, { token: gus.token, body: { file_id: first } })
    expect(removed.body).toEqual(okBody({ deleted: true, file_id: first }, 'File deleted'))
    const again = await upload(gus.token, { name: 'c.txt', size: 3 * MiB })
    expect(again.status).toBe(201)
    expect(again.body).toEqual(okBody(fileDetail(again.body.data.id, 'c.txt', 3 * MiB, '3.00 MB', { id: gus.id, name: gus.name }), 'File uploaded'))

    const batchRemoved = await req(t.app, 'DELETE', `${API}/batch-delete`, { token: gus.token, body: { file_ids: [second, again.body.data.id] } })
    expect(batchRemoved.body.data).toEqual({
      total: 2,
      success: 2,
      failed: 0,
      results: [
        { file_id: second, status: 'success' },
        { file_id: again.body.data.id, status: 'success' },
      ],
    })
    expect((await upload(gus.token, { name: 'six.txt', size: QUOTA })).status).toBe(201)
  }, 30_000)

  test('the quota is per account: another account’s files do not count; files:manage (admin) is not exempt', async () => {
    const hal = await account()
    const ivy = await account()
    await uploaded(hal.token, { name: 'full.txt', size: QUOTA })
    expect((await upload(hal.token, { name: 'more.txt', size: 1 })).body).toEqual(overQuota('6.00 MB', QUOTA))
    // ivy's quota is untouched by hal's files
    expect((await upload(ivy.token, { name: 'mine.txt', size: QUOTA })).status).toBe(201)

    await uploaded(admin, { name: 'admin.txt', size: QUOTA })
    const before = await stored()
    const refused = await upload(admin, { name: 'admin-more.txt', size: 1 })
    expect(refused.status).toBe(507)
    expect(refused.body).toEqual(overQuota('6.00 MB', QUOTA))
    expect(await stored()).toEqual(before)
  }, 30_000)

  test('the config shows the quota', async () => {
    const reply = await req(t.app, 'GET', `${API}/config`, { token: admin })
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual(
      okBody({
        max_file_size: 104857600,
        max_file_size_formatted: '100.00 MB',
        upload_quota: QUOTA,
        upload_quota_formatted: '6.00 MB',
        allowed_types: reply.body.data.allowed_types,
        storage_endpoint: isS3 ? `${s3!.endpoint}/workforce-test` : `${PUBLIC_URL}/api/v1/storage`,
        features: { multipart_upload: isS3, resumable_upload: false, image_processing: false, video_processing: false },
      }),
    )
    expect(reply.body.data.allowed_types).toHaveLength(9)
  })

  describe('UPLOAD_QUOTA=0', () => {
    let free: TestApp
    let freeS3: Awaited<ReturnType<typeof startS3>> | undefined
    let token: string

    beforeAll(async () => {
      freeS3 = isS3 ? await startS3() : undefined
      free = await startApp({ env: { ...freeS3?.env, UPLOAD_QUOTA: '0' } })
      token = await loginAdmin(free.app)
    })

    afterAll(async () => {
      free?.close()
      await freeS3?.stop()
    })

    test('means no limit: one account keeps more than a quota would allow; the config says "no limit"', async () => {
      const ken = await makeUser(free.app, token, 'ken')
      // 7 + 2 × 4 = 15 MiB, more than twice the quota of the other app
      expect((await send(free.app, 'upload', ken.token, [{ name: 'seven.txt', size: 7 * MiB }])).status).toBe(201)
      const batch = await send(free.app, 'batch-upload', ken.token, [
        { name: 'a.txt', size: 4 * MiB },
        { name: 'b.txt', size: 4 * MiB },
      ])
      expect(batch.body.data).toMatchObject({ total: 2, success: 2, failed: 0 })
      const sizes = await free.deps.database.db.select({ size: files.size }).from(files)
      expect(sizes.map((row) => row.size).sort()).toEqual([4 * MiB, 4 * MiB, 7 * MiB])

      const config = await req(free.app, 'GET', `${API}/config`, { token })
      expect(config.body.data).toMatchObject({ upload_quota: 0, upload_quota_formatted: 'no limit' })
      const zh = await req(free.app, 'GET', `${API}/config`, { token, headers: { 'accept-language': 'zh' } })
      expect(zh.body.data).toMatchObject({ upload_quota: 0, upload_quota_formatted: '不限' })
    }, 30_000)
  })
})
