import { createHash, randomBytes, randomUUID } from 'node:crypto'
import { jwt } from '@elysiajs/jwt'
import type { Clock } from '../../lib/clock'

export interface AccessClaims {
  userId: number
  tokenVersion: number
}

export interface TokenService {
  issueAccess(user: { id: number; tokenVersion: number }): Promise<{ token: string; expiresIn: number }>
  /** The claims of a valid, unexpired access token, or null. */
  verifyAccess(token: string): Promise<AccessClaims | null>
}

/** Verified tokens kept so a client's next request skips the signature check; expiry is still judged each time. */
const VERIFIED_CACHE_SIZE = 10_000

/** HS256 access tokens through @elysiajs/jwt; expiry is judged by the injected clock. */
export function createTokenService(secret: string, clock: Clock, accessTtlSeconds: number): TokenService {
  const signer = jwt({ name: 'jwt', secret, alg: 'HS256' }).decorator.jwt
  const verified = new Map<string, AccessClaims & { expiresAt: number }>()
  return {
    async issueAccess(user) {
      const exp = Math.floor(clock.now().getTime() / 1000) + accessTtlSeconds
      const token = await signer.sign({
        sub: String(user.id),
        sv: user.tokenVersion,
        typ: 'access',
        jti: randomUUID(),
        exp,
        iat: false,
      })
      return { token, expiresIn: accessTtlSeconds }
    },
    async verifyAccess(token) {
      const known = verified.get(token)
      if (known) {
        if (clock.now().getTime() < known.expiresAt) return { userId: known.userId, tokenVersion: known.tokenVersion }
        verified.delete(token)
        return null
      }
      const payload = await signer.verify(token, { currentDate: clock.now(), algorithms: ['HS256'] })
      if (!payload || payload.typ !== 'access' || typeof payload.sv !== 'number') return null
      if (typeof payload.sub !== 'string' || !/^[1-9]\d{0,15}$/.test(payload.sub)) return null
      if (typeof payload.exp !== 'number') return null
      const claims = { userId: Number(payload.sub), tokenVersion: payload.sv }
      // the oldest entry goes first (a Map keeps insertion order)
      if (verified.size >= VERIFIED_CACHE_SIZE) verified.delete(verified.keys().next().value!)
      verified.set(token, { ...claims, expiresAt: payload.exp * 1000 })
      return claims
    },
  }
}

/** An opaque refresh token and the hash that is stored in its place. */
export function newRefreshToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url')
  return { token, hash: hashRefreshToken(token) }
}

export function hashRefreshToken(token: string): string {
  return createHash('sha256').update(token).digest('hex')
}

export function newSecret(): string {
  return randomBytes(48).toString('base64url')
}
