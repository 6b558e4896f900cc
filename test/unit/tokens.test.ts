import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { refreshTokens } from '../../src/db/schema'
import { fixedClock } from '../../src/lib/clock'
import { createHashGate, hashGateOptions } from '../../src/lib/hash-gate'
import { createAuthService } from '../../src/modules/auth/service'
import { createTokenService, hashRefreshToken, newRefreshToken } from '../../src/modules/auth/tokens'
import { ADMIN_PASSWORD, startApp, type TestApp } from '../helpers'

const SECRET = 'unit-test-secret-that-is-32-bytes-or-more'

describe('access tokens', () => {
  test('carry the user and session version, and expire by the injected clock', async () => {
    const clock = fixedClock('2030-01-01T00:00:00Z')
    const tokens = createTokenService(SECRET, clock, 60)
    const { token, expiresIn } = await tokens.issueAccess({ id: 7, tokenVersion: 3 })
    expect(expiresIn).toBe(60)
    expect(await tokens.verifyAccess(token)).toEqual({ userId: 7, tokenVersion: 3 })
    clock.advance(59_999)
    expect(await tokens.verifyAccess(token)).toEqual({ userId: 7, tokenVersion: 3 })
    clock.advance(1)
    expect(await tokens.verifyAccess(token)).toBeNull()
  })

  test('tokens of another secret, other algorithms or other types are refused', async () => {
    const clock = fixedClock('2030-01-01T00:00:00Z')
    const mine = createTokenService(SECRET, clock, 60)
    const theirs = createTokenService('a-completely-different-secret-of-32-bytes', clock, 60)
    const { token } = await theirs.issueAccess({ id: 1, tokenVersion: 0 })
    expect(await mine.verifyAccess(token)).toBeNull()

    const [, payload] = (await mine.issueAccess({ id: 1, tokenVersion: 0 })).token.split('.')
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${payload}.`
    expect(await mine.verifyAccess(none)).toBeNull()
    expect(await mine.verifyAccess('')).toBeNull()
    expect(await mine.verifyAccess('a.b.c')).toBeNull()
  })

  test('two tokens issued in the same instant differ', async () => {
    const tokens = createTokenService(SECRET, fixedClock('2030-01-01T00:00:00Z'), 60)
    const a = await tokens.issueAccess({ id: 1, tokenVersion: 0 })
    const b = await tokens.issueAccess({ id: 1, tokenVersion: 0 })
    expect(a.token).not.toBe(b.token)
  })
})

describe('refresh token rotation', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await startApp()
  })
  afterAll(() => t.close())

  const service = () =>
    createAuthService({
      database: t.deps.database,
      clock: t.clock,
      access: t.deps.access,
      tokens: t.deps.tokens,
      refreshTtlSeconds: 3600,
      hashGate: createHashGate(hashGateOptions(1)),
    })

  test('refresh tokens are random and only their hash is kept', () => {
    const a = newRefreshToken()
    const b = newRefreshToken()
    expect(a.token).not.toBe(b.token)
    expect(a.hash).toBe(hashRefreshToken(a.token))
    expect(a.hash).toMatch(/^[0-9a-f]{64}$/)
  })

  test('each refresh continues the chain; a reused link revokes every link', async () => {
    const auth = service()
    const first = await auth.login('admin', ADMIN_PASSWORD, null)
    const second = await auth.refresh(first.refresh_token, null)
    const third = await auth.refresh(second.refresh_token, null)
    const rows = await t.deps.database.db
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, hashRefreshToken(third.refresh_token)))
    const chain = await t.deps.database.db.select().from(refreshTokens).where(eq(refreshTokens.familyId, rows[0].familyId))
    expect(chain).toHaveLength(3)
    expect(chain.filter((row) => row.usedAt !== null)).toHaveLength(2)

    await expect(auth.refresh(first.refresh_token, null)).rejects.toThrow('already used')
    await expect(auth.refresh(third.refresh_token, null)).rejects.toThrow('already used')
    const after = await t.deps.database.db.select().from(refreshTokens).where(eq(refreshTokens.familyId, rows[0].familyId))
    expect(after.every((row) => row.revokedAt !== null)).toBe(true)
  })

  test('a refresh token expires by the clock; other logins are separate chains', async () => {
    const auth = service()
    const a = await auth.login('admin', ADMIN_PASSWORD, null)
    const b = await auth.login('admin', ADMIN_PASSWORD, null)
    await expect(auth.refresh(a.refresh_token, null)).resolves.toBeDefined()
    await expect(auth.refresh(a.refresh_token, null)).rejects.toThrow('already used')
    // b's chain is untouched by a's revocation
    t.clock.advance(3599_000)
    const b2 = await auth.refresh(b.refresh_token, null)
    t.clock.advance(3600_000)
    await expect(auth.refresh(b2.refresh_token, null)).rejects.toThrow('expired')
  })
})
