import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { createClient } from '@libsql/client'
import type { Socket } from 'bun'
import { bodyHash } from '../src/http/idempotency'
import { ADMIN_PASSWORD, errorBody, login, loginAdmin, makeUser, NOW, req, startApp, tempDir, type Reply, type TestApp } from './helpers'
import { onSqld, startSqld } from './sqld'

/*
 * Idempotency-Key (CONTRACT §25, issue 31): a create sent again with the same key and body answers
 * the first answer and creates nothing; another body with the key is a 409; keys are per account and
 * kept 24 hours. A retry after a connection cut, or after a 503 whose outcome is unknown, never
 * makes a second row.
 */

const KEY = 'Idempotency-Key'
const HOUR_MS = 3_600_000

let t: TestApp
let admin: string

beforeEach(async () => {
  t = await startApp()
  admin = await loginAdmin(t.app)
})
afterEach(() => t.close())

const count = async (table: string, where = '') => Number((await t.deps.database.client.execute(`SELECT count(*) AS n FROM ${table} ${where}`)).rows[0].n)

const department = (name: string, key?: string, token = admin) =>
  req(t.app, 'POST', '/api/v1/admin/departments', { token, body: { name }, headers: key === undefined ? {} : { [KEY]: key } })

const created = (data: Record<string, unknown>, at = NOW) => ({ code: 200, message: 'Department created', data: { created_at: at, updated_at: at, ...data }, timestamp: at })

const stillRunning = (key: string) =>
  `A request with Idempotency-Key "${key}" is still being processed; send it again once that one has been answered`
const anotherRequest = (key: string) =>
  `Idempotency-Key "${key}" was used within the last 24 hours for another request (another method, path or body); use a new key for a new request`
const outcomeUnknown = (key: string) =>
  `The first request with Idempotency-Key "${key}" was cut short and its outcome is unknown: its change may or may not have been saved. Check before repeating it, with a new key`

describe('a create with an Idempotency-Key', () => {
  test('answers 201; the same request again answers the same 201 and body, marked replayed, and creates nothing', async () => {
    const first = await department('Sales', 'order-1')
    expect(first.status).toBe(201)
    expect(first.body).toEqual(created({ id: 1, name: 'Sales' }))
    expect(first.headers.get('idempotent-replayed')).toBeNull()

    // a minute later: a fresh answer would carry another timestamp
    t.clock.advance(60_000)
    const again = await department('Sales', 'order-1')
    expect([again.status, again.body, again.headers.get('idempotent-replayed')]).toEqual([201, first.body, 'true'])
    expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'))
    expect([await count('departments'), await count('idempotency_keys'), await count('audit_logs', "WHERE action = 'department.create'")]).toEqual([1, 1, 1])
  })

  test('the same key with another body, or on another route: 409 naming the key, and nothing created', async () => {
    expect((await department('Sales', 'order-1')).status).toBe(201)
    const other = await department('Marketing', 'order-1')
    expect([other.status, other.body]).toEqual([409, errorBody(409, anotherRequest('order-1'))])
    const elsewhere = await req(t.app, 'POST', '/api/v1/admin/companies', { token: admin, body: { name: 'Sales' }, headers: { [KEY]: 'order-1' } })
    expect([elsewhere.status, elsewhere.body]).toEqual([409, errorBody(409, anotherRequest('order-1'))])
    expect([await count('departments'), await count('companies')]).toEqual([1, 0])
  })

  test('an answer below 500 is kept too: a repeat of a refused create gets the same 409, not a fresh attempt', async () => {
    expect((await department('Sales')).status).toBe(201)
    const refused = await department('sales', 'dup')
    expect(refused.status).toBe(409)
    // the name is free again: the repeat must still answer what the first got
    await t.deps.database.client.execute('DELETE FROM departments')
    const again = await department('sales', 'dup')
    expect([again.status, again.body, again.headers.get('idempotent-replayed')]).toEqual([409, refused.body, 'true'])
    expect(await count('departments')).toBe(0)
  })

  test('keys are per account: the same key of two users makes two rows, each answered its own', async () => {
    const hr = await makeUser(t.app, admin, 'hr.one', ['admin'])
    const mine = await department('Sales', 'shared-key')
    const theirs = await department('Marketing', 'shared-key', hr.token)
    expect([mine.status, theirs.status]).toEqual([201, 201])
    expect(theirs.body).toEqual(created({ id: 2, name: 'Marketing' }))
    expect((await department('Marketing', 'shared-key', hr.token)).body).toEqual(theirs.body)
    expect([await count('departments'), await count('idempotency_keys', "WHERE key = 'shared-key'")]).toEqual([2, 2])
  })

  test('a key of 255 characters is taken; an empty one or one over 255 is a 400, and nothing is created', async () => {
    const problem = errorBody(400, 'The Idempotency-Key header must be 1 to 255 characters long', {
      errors: [{ field: 'Idempotency-Key', message: 'must be 1 to 255 characters long' }],
    })
    for (const key of ['', 'k'.repeat(256), 'é'.repeat(300)]) {
      const reply = await department('Sales', key)
      expect([reply.status, reply.body], `${key.length} characters`).toEqual([400, problem])
    }
    expect([await count('departments'), await count('idempotency_keys')]).toEqual([0, 0])
    expect((await department('Sales', 'k'.repeat(255))).status).toBe(201)
  })

  test('a key is kept 24 hours: then forgotten (a new request with it creates again) and old keys are purged', async () => {
    expect((await department('Sales', 'daily')).status).toBe(201)
    expect((await department('Ops', 'other')).status).toBe(201)
    // access tokens last two hours: signed in again each time
    t.clock.advance(24 * HOUR_MS - 1)
    admin = await loginAdmin(t.app)
    expect((await department('Sales', 'daily')).headers.get('idempotent-replayed')).toBe('true')
    t.clock.advance(2)
    admin = await loginAdmin(t.app)
    const later = new Date(Date.parse(NOW) + 24 * HOUR_MS + 1).toISOString()
    const fresh = await department('Marketing', 'daily')
    expect([fresh.status, fresh.body]).toEqual([201, created({ id: 3, name: 'Marketing' }, later)])
    // the key "other" was not used again: the next purge (at most hourly, by the next key's claim) deletes its row
    expect(await count('idempotency_keys', "WHERE key = 'other'")).toBe(1)
    t.clock.advance(HOUR_MS)
    expect((await department('Support', 'third')).status).toBe(201)
    expect(await count('idempotency_keys', "WHERE key = 'other'")).toBe(0)
    expect(await count('idempotency_keys')).toBe(2)
  })

  test('without the header nothing changes; an anonymous POST (sign-in) ignores it', async () => {
    expect((await department('Sales')).status).toBe(201)
    expect((await department('Sales')).status).toBe(409)
    for (const key of ['sign-in', 'x'.repeat(300)]) {
      const reply = await req(t.app, 'POST', '/api/v1/auth/login', { body: { username: 'admin', password: ADMIN_PASSWORD }, headers: { [KEY]: key } })
      expect([reply.status, reply.headers.get('idempotent-replayed')]).toEqual([200, null])
    }
    expect(await count('idempotency_keys')).toBe(0)
  })

  test('two requests with one key at once: one creates; the other is told it is still running, or gets the same answer', async () => {
    const replies = await Promise.all(Array.from({ length: 4 }, () => department('Sales', 'together')))
    const statuses = replies.map((reply) => reply.status)
    expect(statuses).toContain(201)
    for (const reply of replies) {
      if (reply.status === 201) expect(reply.body).toEqual(created({ id: 1, name: 'Sales' }))
      else {
        expect([reply.status, reply.body, reply.headers.get('retry-after')]).toEqual([409, errorBody(409, stillRunning('together')), '1'])
      }
    }
    expect([await count('departments'), await count('idempotency_keys')]).toEqual([1, 1])
  })
})

describe('an upload with an Idempotency-Key', () => {
  /** A form with one file, as a client builds it: the boundary is the client's choice, new on every send. */
  const form = (boundary: string, content: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="note.txt"\r\nContent-Type: text/plain\r\n\r\n${content}\r\n` +
    `--${boundary}\r\nContent-Disposition: form-data; name="description"\r\n\r\nsigned\r\n--${boundary}--\r\n`
  const upload = (boundary: string, content: string) =>
    req(t.app, 'POST', '/api/v1/storage/upload', {
      token: admin,
      raw: form(boundary, content),
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, [KEY]: 'upload-1' },
    })

  test('the same form sent again (another boundary) answers the first answer: one file; another file with the key is a 409', async () => {
    const first = await upload('----first-boundary-1', 'hello, world')
    expect(first.status).toBe(201)
    const again = await upload('----another-boundary-2', 'hello, world')
    expect([again.status, again.body, again.headers.get('idempotent-replayed')]).toEqual([201, first.body, 'true'])
    const other = await upload('----third-boundary-3', 'another text')
    expect([other.status, other.body]).toEqual([409, errorBody(409, anotherRequest('upload-1'))])
    expect(await count('files')).toBe(1)
  })

  test('the fingerprint ignores the boundary, wherever the chunks split the body, and nothing else', () => {
    const hash = (boundary: string, content: string, cut: number) => {
      const bytes = Buffer.from(form(boundary, content))
      return bodyHash('POST /u\n', boundary).update(bytes.subarray(0, cut)).update(bytes.subarray(cut)).digest()
    }
    const one = hash('AaB03x', 'hello', 0)
    for (let cut = 0; cut <= form('another-longer-boundary', 'hello').length; cut += 3) expect(hash('another-longer-boundary', 'hello', cut)).toBe(one)
    expect(hash('AaB03x', 'hellO', 10)).not.toBe(one)
  })
})

describe('over a real HTTP connection', () => {
  test('a create whose connection is cut once it was sent, retried with the same key: the first answer, one row', async () => {
    const server = t.app.listen({ hostname: '127.0.0.1', port: 0 })
    try {
      const port = server.server!.port!
      // an employee with an account: the password hash makes the first request run a while after the cut
      const body = JSON.stringify({ name: 'Li Wei', username: 'li.wei', password: 'li-wei-password-1' })
      const request =
        `POST /api/v1/admin/employees HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${admin}\r\nContent-Type: application/json\r\n` +
        `${KEY}: hire-li-wei\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
      // the whole request written; once the service has taken it up (its key claimed), the connection is closed
      // without reading a byte of the answer: the client never learns what happened
      const socket = await Bun.connect({ hostname: '127.0.0.1', port, socket: { data() {} } })
      socket.write(request)
      for (let waited = 0; (await count('idempotency_keys')) === 0 && waited < 10_000; waited += 5) await Bun.sleep(5)
      socket.terminate()

      const retry = () =>
        fetch(`http://127.0.0.1:${port}/api/v1/admin/employees`, {
          method: 'POST',
          headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json', [KEY]: 'hire-li-wei' },
          body,
        })
      let answer = await retry()
      // while the first request runs, the retry is told so (409 with Retry-After): a client waits and sends it again
      for (let tries = 0; answer.status === 409 && tries < 100; tries++) {
        expect(await answer.json()).toEqual(errorBody(409, stillRunning('hire-li-wei')))
        await Bun.sleep(Number(answer.headers.get('retry-after')) * 50)
        answer = await retry()
      }
      expect([answer.status, answer.headers.get('idempotent-replayed')]).toEqual([201, 'true'])
      expect(((await answer.json()) as { data: unknown }).data).toMatchObject({ id: 1, name: 'Li Wei', user_id: 2 })
      expect([await count('employees'), await count('users', "WHERE username = 'li.wei'"), await count('idempotency_keys')]).toEqual([1, 1, 1])
    } finally {
      await server.stop()
    }
  })
})

/**
 * A TCP proxy to a libSQL server that, once armed, lets a number of COMMITs through and then passes
 * on the next one but cuts the client's connection instead of passing on the answer: the database
 * went away after the change was sent, and whether it was saved is unknown to the service.
 */
async function cuttingProxy(target: number) {
  type End = { socket: Socket<unknown> | null; queue: Buffer[] }
  const flush = (end: End) => {
    while (end.socket && end.queue.length > 0) {
      const written = end.socket.write(end.queue[0])
      if (written < end.queue[0].length) {
        end.queue[0] = end.queue[0].subarray(Math.max(written, 0))
        return
      }
      end.queue.shift()
    }
  }
  let commitsToPass = -1
  const server = Bun.listen<{ upstream: End; cut: boolean }>({
    hostname: '127.0.0.1',
    port: 0,
    socket: {
      open(client) {
        const upstream: End = { socket: null, queue: [] }
        client.data = { upstream, cut: false }
        void Bun.connect({
          hostname: '127.0.0.1',
          port: target,
          socket: {
            open(socket) {
              upstream.socket = socket as Socket<unknown>
              flush(upstream)
            },
            data(socket, chunk) {
              // the server took the COMMIT and answered: the client is cut off instead of hearing it
              if (client.data.cut) {
                client.terminate()
                socket.end()
              } else client.write(chunk)
            },
            drain: () => flush(upstream),
            close: () => void client.end(),
            error: () => void client.end(),
          },
        }).catch(() => client.end())
      },
      data(client, chunk) {
        if (commitsToPass >= 0 && chunk.includes('"sql":"COMMIT"') && commitsToPass-- === 0) client.data.cut = true
        client.data.upstream.queue.push(Buffer.from(chunk))
        flush(client.data.upstream)
      },
      close: (client) => void client.data.upstream.socket?.end(),
    },
  })
  return {
    url: `http://127.0.0.1:${server.port}`,
    /** the COMMIT after the next `pass` ones is cut */
    arm(pass: number) {
      commitsToPass = pass
    },
    stop: () => server.stop(true),
  }
}

// on a libSQL server only (bun run test:sqld): an embedded file cannot lose its connection
describe.skipIf(!onSqld)('a libSQL server that goes away after a COMMIT was sent', () => {
  test('503 saying the change may or may not have been saved; a repeat with the key is never run twice', async () => {
    const dir = tempDir('workforce-cut-')
    const sqld = await startSqld(join(dir, 'sqld'))
    const proxy = await cuttingProxy(sqld.port)
    const direct = createClient({ url: sqld.url })
    const served = await startApp({ env: { DATABASE_URL: proxy.url }, dir })
    try {
      const token = await login(served.app, 'admin', ADMIN_PASSWORD)
      const post = (name: string, key?: string): Promise<Reply> =>
        req(served.app, 'POST', '/api/v1/admin/departments', { token, body: { name }, headers: key ? { [KEY]: key } : {} })
      const saved = async (name: string) => Number((await direct.execute({ sql: 'SELECT count(*) AS n FROM departments WHERE name = ?', args: [name] })).rows[0].n)
      const unknown = errorBody(503, 'The connection to the database was lost before it answered: this change may or may not have been saved; check before repeating it, or repeat it with the same Idempotency-Key')

      // issue 31: this was "The database cannot be reached; try again later" for a write that was in fact saved
      proxy.arm(0)
      const cut = await post('Finance')
      expect([cut.status, cut.body, cut.headers.get('retry-after')]).toEqual([503, unknown, '5'])
      expect(await saved('Finance')).toBe(1)

      // with a key: the key's claim commits, the create's COMMIT is cut; the key stays claimed, so the repeat is not run
      proxy.arm(1)
      const keyed = await post('Legal', 'legal-1')
      expect([keyed.status, keyed.body]).toEqual([503, unknown])
      const repeat = await post('Legal', 'legal-1')
      expect([repeat.status, repeat.body]).toEqual([409, errorBody(409, outcomeUnknown('legal-1'))])
      expect(await saved('Legal')).toBe(1)
    } finally {
      served.close()
      direct.close()
      proxy.stop()
      await sqld.stop()
    }
  })
})
