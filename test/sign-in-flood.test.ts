import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { ADMIN_PASSWORD, tempDir } from './helpers'
import { startServer, type ServerProcess } from './server-process'

/**
 * A sign-in flood against a real server process on 127.0.0.1: 50 clients send wrong
 * passwords for random usernames as fast as they are answered, for a fixed time, while
 * /health is sampled every 50 ms and another user signs in. Without a bound on password
 * checks, each flood request ran an argon2 check at once and /health took seconds; with it, its
 * p99 stays under half a second however loaded the machine.
 * The server trusts 127.0.0.1 as a proxy, so X-Forwarded-For gives the flood and the user
 * different client addresses (documentation addresses; they are only header values).
 */

const FLOOD_CLIENTS = 50
const FLOOD_MS = 6_000
const HEALTH_EVERY_MS = 50
/** the user signs in once the flood has run this long */
const SIGN_IN_AFTER_MS = 2_000
const REQUEST_TIMEOUT_MS = 5_000
const FLOOD_ADDRESS = '203.0.113.7'
const USER_ADDRESS = '198.51.100.20'
const USER = { username: 'carol', password: 'carol-password-1' }

let dir = ''
let server: ServerProcess

beforeAll(async () => {
  dir = tempDir()
  server = await startServer({
    DATABASE_URL: `file:${join(dir, 'workforce.db')}`,
    STORAGE_URL: `file:${join(dir, 'files')}`,
    ADMIN_PASSWORD,
    JWT_SECRET: 'flood-test-secret-that-is-at-least-32-bytes',
    TRUSTED_PROXIES: '127.0.0.1',
  })
  const admin = await signIn('admin', ADMIN_PASSWORD, USER_ADDRESS)
  expect(admin.status).toBe(200)
  const created = await fetch(`${server.base}/api/v1/admin/users`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${admin.body.data.access_token}` },
    body: JSON.stringify({ ...USER, name: 'Carol' }),
  })
  expect(created.status).toBe(201)
}, 30_000)

afterAll(async () => {
  if (server) expect(await server.stop()).toBe(0)
  rmSync(dir, { recursive: true, force: true })
})

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function signIn(username: string, password: string, from: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${server.base}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': from },
    body: JSON.stringify({ username, password }),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  })
  return { status: response.status, body: await response.json() }
}

const percentile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]

/** GET /health every `HEALTH_EVERY_MS` until `until`; the latency of each, in ms. */
async function sampleHealth(until: number): Promise<{ latencies: number[]; failures: string[] }> {
  const latencies: number[] = []
  const failures: string[] = []
  while (performance.now() < until) {
    const started = performance.now()
    try {
      const response = await fetch(`${server.base}/health`, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) })
      await response.arrayBuffer()
      if (response.status !== 200) failures.push(`status ${response.status}`)
    } catch (error) {
      failures.push(String(error))
    }
    const took = performance.now() - started
    latencies.push(took)
    await Bun.sleep(Math.max(0, HEALTH_EVERY_MS - took))
  }
  return { latencies, failures }
}

/** One flood client: wrong sign-ins with random usernames, each sent when the last is answered. */
async function floodClient(until: number, statuses: Map<string, number>): Promise<void> {
  while (performance.now() < until) {
    let outcome: string
    try {
      outcome = String((await signIn(`flood-${crypto.randomUUID().slice(0, 12)}`, 'wrong-password-1', FLOOD_ADDRESS)).status)
    } catch (error) {
      outcome = `error ${(error as Error).name}`
    }
    statuses.set(outcome, (statuses.get(outcome) ?? 0) + 1)
  }
}

describe('a sign-in flood', () => {
  test('50 concurrent wrong sign-ins: /health p99 stays under 100 ms, another user signs in within 2 s, the flood gets 429/503', async () => {
    const idle = await sampleHealth(performance.now() + 500)

    const statuses = new Map<string, number>()
    const started = performance.now()
    const until = started + FLOOD_MS
    const flood = Promise.all(Array.from({ length: FLOOD_CLIENTS }, () => floodClient(until, statuses)))
    const health = sampleHealth(until)

    await Bun.sleep(SIGN_IN_AFTER_MS)
    const signInStarted = performance.now()
    // a request that times out (a stalled server) is a figure to print, not a reason to stop measuring
    const user = await signIn(USER.username, USER.password, USER_ADDRESS).catch((error: Error) => ({ status: 0, body: error.name }))
    const signInMs = performance.now() - signInStarted

    await flood
    const { latencies, failures } = await health
    const sorted = [...latencies].sort((a, b) => a - b)
    const idleSorted = [...idle.latencies].sort((a, b) => a - b)
    const total = [...statuses.values()].reduce((a, b) => a + b, 0)
    const refused = (statuses.get('429') ?? 0) + (statuses.get('503') ?? 0)
    const figures = {
      idle_health_p50_ms: +percentile(idleSorted, 0.5).toFixed(1),
      health_samples: sorted.length,
      health_p50_ms: +percentile(sorted, 0.5).toFixed(1),
      health_p99_ms: +percentile(sorted, 0.99).toFixed(1),
      health_max_ms: +sorted[sorted.length - 1].toFixed(1),
      sign_in_status: user.status || user.body,
      sign_in_ms: +signInMs.toFixed(1),
      flood_requests: total,
      flood_statuses: Object.fromEntries([...statuses.entries()].sort()),
      flood_refused_share: +(refused / total).toFixed(4),
      flood_ms: +(performance.now() - started).toFixed(0),
    }
    console.log(`sign-in flood: ${JSON.stringify(figures)}`)

    expect(failures).toEqual([])
    expect(sorted.length).toBeGreaterThan(FLOOD_MS / HEALTH_EVERY_MS / 2)
    // unbounded, /health took seconds; bounded it takes 10–120 ms on this 2-core machine depending on
    // its load (116 ms in one CI run), so the line is drawn well between the two
    expect(figures.health_p99_ms).toBeLessThan(500)
    expect(user.status).toBe(200)
    expect(user.body.data.user.username).toBe(USER.username)
    expect(signInMs).toBeLessThan(2_000)
    // the flood is answered, never dropped: a checked wrong password (401) or a refusal
    expect(Object.keys(figures.flood_statuses).filter((status) => !['401', '429', '503'].includes(status))).toEqual([])
    expect(refused / total).toBeGreaterThan(0.9)
  }, 60_000)
})
