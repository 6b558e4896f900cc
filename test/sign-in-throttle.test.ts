import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { asc, desc, eq } from 'drizzle-orm'
import { auditLogs, loginFailures } from '../src/db/schema'
import { ADMIN_PASSWORD, replyOf, startApp, type Reply, type TestApp } from './helpers'

/**
 * Sign-in throttling by client address, over real connections to in-process servers on
 * 127.0.0.1 (an in-process request has no address). The main server trusts 127.0.0.1 as a
 * proxy, so X-Forwarded-For gives each request the client address a test names; the clock
 * stays frozen and is moved by hand. Addresses are documentation ones (RFC 5737).
 */

const STRANGER = '203.0.113.7'
const OWNER = '198.51.100.20'
const WRONG = 'Wrong username or password'

let t: TestApp
let base = ''
let stop = () => {}

beforeAll(async () => {
  t = await startApp({ env: { TRUSTED_PROXIES: '127.0.0.1', LOGIN_CONCURRENCY: '1' } })
  const server = t.app.listen({ hostname: '127.0.0.1', port: 0 })
  base = `http://127.0.0.1:${server.server!.port}`
  stop = () => void server.stop(true)
})
afterAll(() => {
  stop()
  t.close()
})

async function signIn(username: string, password: string, from: string | null, at = base): Promise<Reply> {
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (from !== null) headers['x-forwarded-for'] = from
  return replyOf(await fetch(`${at}/api/v1/auth/login`, { method: 'POST', headers, body: JSON.stringify({ username, password }) }))
}

/** The error envelope, stamped with the (moved) frozen time. */
const refusal = (code: number, message: string) => ({ code, message, data: null, timestamp: t.clock.now().toISOString() })

const failuresFrom = (address: string) =>
  t.deps.database.db
    .select({ usernameKey: loginFailures.usernameKey, address: loginFailures.address, failedAt: loginFailures.failedAt })
    .from(loginFailures)
    .where(eq(loginFailures.address, address))
    .orderBy(asc(loginFailures.id))

describe('a stranger cannot lock an account out', () => {
  test("ten wrong passwords for admin from a stranger's address: the stranger is stopped, admin signs in from elsewhere", async () => {
    for (let i = 0; i < 10; i++) {
      t.clock.advance(30_000)
      const reply = await signIn('admin', `guess-${i}`, STRANGER)
      expect([reply.status, reply.body]).toEqual([401, refusal(401, WRONG)])
    }
    // the owner, from another address, is not locked out
    const owner = await signIn('admin', ADMIN_PASSWORD, OWNER)
    expect(owner.status).toBe(200)
    expect(owner.body.data.user).toEqual({ id: 1, username: 'admin', name: 'Administrator', roles: ['admin'] })
    // the stranger is stopped for this name, even with the right password (so guessing it is no use)
    for (const username of ['admin', 'ADMIN']) {
      const locked = await signIn(username, ADMIN_PASSWORD, STRANGER)
      expect([locked.status, locked.body, locked.headers.get('retry-after')]).toEqual([
        429,
        refusal(429, `Too many failed sign-ins for "${username}" from your address; try again in 11 minute(s)`),
        // the oldest of the ten was 4.5 minutes ago
        String(15 * 60 - 270),
      ])
    }

    // the owner's success clears only the owner's own failures: the stranger stays stopped
    expect(await failuresFrom(STRANGER)).toHaveLength(10)
    expect((await signIn('admin', ADMIN_PASSWORD, STRANGER)).status).toBe(429)
    // the audit entry names the client, not the proxy
    const [entry] = await t.deps.database.db.select().from(auditLogs).orderBy(desc(auditLogs.id)).limit(1)
    expect(entry).toMatchObject({ action: 'auth.login', actorId: 1, ip: OWNER })

    // once the oldest failure is 15 minutes old, the stranger may try again
    t.clock.advance(15 * 60_000 - 270_000)
    expect((await signIn('admin', 'guess-again', STRANGER)).body).toEqual(refusal(401, WRONG))
  }, 30_000)

  test('one address trying many usernames is stopped for every username after 30 failures', async () => {
    const sprayer = '203.0.113.8'
    for (let i = 0; i < 30; i++) {
      t.clock.advance(20_000)
      const reply = await signIn(`someone-${i}`, 'password-1', sprayer)
      expect([reply.status, reply.body]).toEqual([401, refusal(401, WRONG)])
    }
    const rows = await failuresFrom(sprayer)
    expect(rows).toHaveLength(30)
    expect(rows[0]).toEqual({ usernameKey: 'someone-0', address: sprayer, failedAt: new Date(t.clock.now().getTime() - 29 * 20_000) })

    // any name, even a right password: the first of the 30 was 580 s ago, so 320 s remain
    for (const [username, password] of [
      ['someone-new', 'password-1'],
      ['admin', ADMIN_PASSWORD],
    ]) {
      const locked = await signIn(username, password, sprayer)
      expect([locked.status, locked.body, locked.headers.get('retry-after')]).toEqual([
        429,
        refusal(429, 'Too many failed sign-ins from your address; try again in 6 minute(s)'),
        '320',
      ])
    }
    expect(await failuresFrom(sprayer)).toHaveLength(30)
    // everyone else is unaffected
    expect((await signIn('admin', ADMIN_PASSWORD, OWNER)).status).toBe(200)
    expect((await signIn('someone-new', 'password-1', '203.0.113.99')).body).toEqual(refusal(401, WRONG))
  }, 60_000)

  test('failures older than the window are purged by the next attempt: unknown usernames leave nothing for good', async () => {
    for (const name of ['ghost-1', 'ghost-2']) expect((await signIn(name, 'password-1', '203.0.113.9')).status).toBe(401)
    expect((await t.deps.database.db.select().from(loginFailures)).length).toBeGreaterThan(2)

    t.clock.advance(15 * 60_000)
    expect((await signIn('ghost-3', 'password-1', '203.0.113.10')).status).toBe(401)
    // every earlier failure, of every name and address, is gone; only the new attempt is kept
    const left = await t.deps.database.db.select().from(loginFailures)
    expect(left).toEqual([{ id: expect.any(Number), usernameKey: 'ghost-3', address: '203.0.113.10', failedAt: t.clock.now() }])
  })
})

describe('the hash gate', () => {
  test('a third sign-in at once from one address is a 429 at once, without a write or a hash', async () => {
    const from = '203.0.113.11'
    const replies = await Promise.all([0, 1, 2].map((i) => signIn(`burst-${i}`, 'password-1', from)))
    const statuses = replies.map((reply) => reply.status).sort()
    expect(statuses).toEqual([401, 401, 429])
    const refused = replies.find((reply) => reply.status === 429)!
    expect([refused.body, refused.headers.get('retry-after')]).toEqual([
      refusal(429, 'Too many sign-ins from your address at once; wait for their answers first'),
      '1',
    ])
    expect(await failuresFrom(from)).toHaveLength(2)
  })

  test('beyond one running check and eight waiting ones, a sign-in gets 503 with Retry-After, and nothing is written for it', async () => {
    // twelve clients at once, each from its own address (LOGIN_CONCURRENCY=1: 1 running, 8 waiting)
    const replies = await Promise.all(
      Array.from({ length: 12 }, (_, i) => signIn(`crowd-${i}`, 'password-1', `198.51.100.${100 + i}`)),
    )
    const busy = replies.filter((reply) => reply.status === 503)
    const checked = replies.filter((reply) => reply.status === 401)
    // on a slow machine a waiting check may also run out of time (1.5 s): a 503 as well
    expect(busy.length).toBeGreaterThanOrEqual(3)
    expect(checked.length + busy.length).toBe(12)
    for (const reply of busy)
      expect([reply.body, reply.headers.get('retry-after')]).toEqual([
        refusal(503, 'The service is busy checking other passwords; try again in a moment'),
        '2',
      ])
    const rows = await t.deps.database.db.select().from(loginFailures)
    expect(rows.filter((row) => row.usernameKey.startsWith('crowd-'))).toHaveLength(checked.length)
  }, 30_000)
})

describe('client addresses', () => {
  test("a peer that is not a trusted proxy cannot choose its address with X-Forwarded-For", async () => {
    const other = await startApp({ env: { TRUSTED_PROXIES: '10.0.0.1' } })
    const server = other.app.listen({ hostname: '127.0.0.1', port: 0 })
    const at = `http://127.0.0.1:${server.server!.port}`
    try {
      for (let i = 0; i < 10; i++) expect((await signIn('admin', `guess-${i}`, `198.51.100.${i + 1}`, at)).status).toBe(401)
      // every failure was counted against the socket's address, so a fresh header does not help
      const locked = await signIn('admin', ADMIN_PASSWORD, '198.51.100.50', at)
      expect([locked.status, locked.body.message]).toEqual([
        429,
        'Too many failed sign-ins for "admin" from your address; try again in 15 minute(s)',
      ])
      const rows = await other.deps.database.db.select({ address: loginFailures.address }).from(loginFailures)
      expect(rows).toEqual(Array(10).fill({ address: '127.0.0.1' }))
    } finally {
      await server.stop(true)
      other.close()
    }
  }, 30_000)

  test("a signed-in caller's audit entries carry the forwarded client address", async () => {
    const from = '198.51.100.77'
    const signedIn = await signIn('admin', ADMIN_PASSWORD, from)
    const response = await fetch(`${base}/api/v1/auth/logout`, {
      method: 'POST',
      headers: { authorization: `Bearer ${signedIn.body.data.access_token}`, 'x-forwarded-for': `10.9.9.9, ${from}` },
    })
    expect(response.status).toBe(200)
    const [entry] = await t.deps.database.db.select().from(auditLogs).orderBy(desc(auditLogs.id)).limit(1)
    expect(entry).toMatchObject({ action: 'auth.logout', actorId: 1, ip: from })
  })
})
