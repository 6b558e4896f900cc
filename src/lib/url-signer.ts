import { createHmac, timingSafeEqual } from 'node:crypto'

/**
 * HMAC-SHA256 signatures for URLs the service hands out (file downloads from the local
 * store). The key is derived from the token secret, so one secret serves both.
 */
export function createUrlSigner(secret: string) {
  const key = createHmac('sha256', secret).update('workforce file urls').digest()
  const sign = (subject: string, expires: number) => createHmac('sha256', key).update(`${subject}\n${expires}`).digest('hex')
  return {
    sign,
    /** True when `signature` is ours for the subject and `expires` (unix seconds) is not past `now`. */
    verify(subject: string, expires: number, signature: string, now: Date): boolean {
      if (!Number.isSafeInteger(expires) || expires * 1000 < now.getTime() || !/^[0-9a-f]{64}$/.test(signature)) return false
      return timingSafeEqual(Buffer.from(sign(subject, expires), 'hex'), Buffer.from(signature, 'hex'))
    },
  }
}

export type UrlSigner = ReturnType<typeof createUrlSigner>
