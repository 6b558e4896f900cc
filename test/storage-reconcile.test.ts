import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { count, eq } from 'drizzle-orm'
import { files } from '../src/db/schema'
import { reconcileStorage } from '../src/modules/storage/reconcile'
import { loginAdmin, startApp, type TestApp } from './helpers'
import { startS3 } from './s3-server'

const text = (content: string) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(content))
      controller.close()
    },
  })

const backends: [string, () => Promise<{ env: Record<string, string>; stop(): Promise<void> }>][] = [
  ['local disk', async () => ({ env: {}, stop: async () => {} })],
  ['S3', () => startS3()],
]

describe.each(backends)('start-up reconciliation on %s', (_, start) => {
  let t: TestApp
  let backend: { env: Record<string, string>; stop(): Promise<void> }
  let admin: string

  beforeAll(async () => {
    backend = await start()
    // object stores stamp real time, so the service's clock runs from the real now here
    t = await startApp({ env: backend.env, now: new Date().toISOString() })
    admin = await loginAdmin(t.app)
  })

  afterAll(async () => {
    t.close()
    await backend.stop()
  })

  const keys = async () => {
    const found: string[] = []
    for await (const object of t.deps.store.list()) found.push(object.key)
    return found.sort()
  }
  const rows = async () => (await t.deps.database.db.select({ n: count() }).from(files))[0].n

  test('removes objects without metadata and metadata without objects; leaves whole files and fresh uploads alone', async () => {
    const form = new FormData()
    form.append('file', new File(['kept'], 'kept.txt'))
    const kept = await t.app.handle(
      new Request('http://localhost/api/v1/storage/upload', { method: 'POST', body: form, headers: { authorization: `Bearer ${admin}` } }),
    )
    expect(kept.status).toBe(201)
    const gone = new FormData()
    gone.append('file', new File(['bytes lost'], 'lost.txt'))
    const lost = (await (
      await t.app.handle(
        new Request('http://localhost/api/v1/storage/upload', {
          method: 'POST',
          body: gone,
          headers: { authorization: `Bearer ${admin}` },
        }),
      )
    ).json()) as { data: { id: string } }
    // a delete that died between removing the bytes and the row
    const [{ storageKey }] = await t.deps.database.db.select({ storageKey: files.storageKey }).from(files).where(eq(files.id, lost.data.id))
    await t.deps.store.remove(storageKey)
    // an upload that died after its bytes were stored and before its row
    await t.deps.store.put('2024/03/00000000-0000-4000-8000-000000000000.txt', text('orphan'), 'text/plain')
    expect(await keys()).toHaveLength(2)
    expect(await rows()).toBe(2)

    // right away, the orphan could still be an upload in flight elsewhere: nothing is touched
    expect(await reconcileStorage(t.deps.database, t.deps.store, new Date(), t.deps.logger)).toEqual({ objectsRemoved: 0, rowsRemoved: 0 })
    // a start-up an hour later repairs both
    const later = new Date(Date.now() + 60 * 60 * 1000)
    expect(await reconcileStorage(t.deps.database, t.deps.store, later, t.deps.logger)).toEqual({ objectsRemoved: 1, rowsRemoved: 1 })
    expect(await keys()).toHaveLength(1)
    expect(await rows()).toBe(1)
    expect(await reconcileStorage(t.deps.database, t.deps.store, later, t.deps.logger)).toEqual({ objectsRemoved: 0, rowsRemoved: 0 })
  }, 20_000)
})
