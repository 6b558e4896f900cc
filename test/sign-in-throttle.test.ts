import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { asc, desc, eq } from 'drizzle-orm'
import { auditLogs, loginFailures, users } from '../src/db/schema'
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

/** Accounts made straight in the database, with a cheap argon2id hash so that checking 100 passwords takes no time. */
async function makeAccounts(usernames: string[], password: string): Promise<void> {
  const passwordHash = await Bun.password.hash(password, { algorithm: 'argon2id', memoryCost: 256, timeCost: 1 })
  await t.deps.database.write((tx) =>
    tx.insert(users).values(usernames.map((username) => ({ username, passwordHash, name: username }))),
  )
}

const SPRAYING = (minutes: number) => refusal(429, `Too many failed sign-ins for different usernames from your address; try again in ${minutes} minute(s)`)

describe('one address, many usernames (CONTRACT §15)', () => {
  test('50 colleagues behind one office address each mistype once (five of them the username) and then all sign in', async () => {
    const office = '198.51.100.30'
    const staff = Array.from({ length: 50 }, (_, i) => `staff-${String(i).padStart(2, '0')}`)
    await makeAccounts(staff, 'staff-password-1')
    for (const [i, username] of staff.entries()) {
      t.clock.advance(5_000)
      // a mistyped username names nobody: those count against the address above all
      const reply = await signIn(i % 10 === 3 ? `${username}x` : username, 'staff-password-2', office)
      expect([reply.status, reply.body]).toEqual([401, refusal(401, WRONG)])
    }
    expect(await failuresFrom(office)).toHaveLength(50)
    for (const username of staff) {
      t.clock.advance(5_000)
      const reply = await signIn(username, 'staff-password-1', office)
      expect([reply.status, reply.body.data?.user?.username]).toEqual([200, username])
    }
    // each right password cleared its own failure; only the five unknown names are left
    expect((await failuresFrom(office)).map((row) => row.usernameKey)).toEqual(['staff-03x', 'staff-13x', 'staff-23x', 'staff-33x', 'staff-43x'])
  }, 60_000)

  test('100 unknown usernames from one address: the 11th and every later one is a 429 without a check; a right password is not told from a wrong one; accounts that signed in from there before still get in', async () => {
    const sprayer = '203.0.113.8'
    await makeAccounts(['dora'], 'dora-password-1')
    // the admin signed in from this address before the spraying began
    expect((await signIn('admin', ADMIN_PASSWORD, sprayer)).status).toBe(200)
    const started = t.clock.now().getTime()
    for (let i = 1; i <= 100; i++) {
      t.clock.advance(5_000)
      const reply = await signIn(`nobody-${i}`, 'password-1', sprayer)
      if (i <= 10) expect([reply.status, reply.body]).toEqual([401, refusal(401, WRONG)])
      else {
        // the lock lifts when the first of the ten unknown names (5 s after the start) leaves the window
        const seconds = 5 + 15 * 60 - 5 * i
        expect([reply.status, reply.body, reply.headers.get('retry-after')]).toEqual([429, SPRAYING(Math.ceil(seconds / 60)), String(seconds)])
      }
    }
    // the refusals were not counted: no write, no hash
    expect(await failuresFrom(sprayer)).toHaveLength(10)
    expect(t.clock.now().getTime() - started).toBe(500_000)

    // dora never signed in from here: her right password gets the very answer a wrong one gets
    const right = await signIn('dora', 'dora-password-1', sprayer)
    const wrong = await signIn('dora', 'dora-password-2', sprayer)
    for (const reply of [right, wrong])
      expect([reply.status, reply.body, reply.headers.get('retry-after')]).toEqual([429, SPRAYING(7), '405'])
    // the admin's sign-ins are checked as usual: a wrong password is a plain 401, the right one gets in
    expect((await signIn('admin', 'admin-password-2', sprayer)).body).toEqual(refusal(401, WRONG))
    expect((await signIn('admin', ADMIN_PASSWORD, sprayer)).status).toBe(200)
    // the admin's failure was counted, and cleared by the right password
    expect(await failuresFrom(sprayer)).toHaveLength(10)

    // another instance on the same database refuses alike: the counts live in the database
    const other = await startApp({ dir: t.dir, now: t.clock.now().toISOString(), env: { TRUSTED_PROXIES: '127.0.0.1', LOGIN_CONCURRENCY: '1' } })
    const server = other.app.listen({ hostname: '127.0.0.1', port: 0 })
    const at = `http://127.0.0.1:${server.server!.port}`
    try {
      for (const [username, password] of [
        ['nobody-101', 'password-1'],
        ['dora', 'dora-password-1'],
      ]) {
        const reply = await signIn(username, password, sprayer, at)
        expect([reply.status, reply.body, reply.headers.get('retry-after')]).toEqual([429, SPRAYING(7), '405'])
      }
      expect((await signIn('admin', ADMIN_PASSWORD, sprayer, at)).status).toBe(200)
    } finally {
      await server.stop(true)
      other.close()
    }

    // once the first unknown name's failure is 15 minutes old, dora may sign in
    t.clock.advance(405_000)
    const dora = await signIn('dora', 'dora-password-1', sprayer)
    expect([dora.status, dora.body.data?.user?.username]).toEqual([200, 'dora'])
  }, 60_000)
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
