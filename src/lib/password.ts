/** Passwords are kept only as argon2id hashes. */
export function hashPassword(password: string): Promise<string> {
  return Bun.password.hash(password, { algorithm: 'argon2id' })
}

export function verifyPassword(password: string, hash: string): Promise<boolean> {
  return Bun.password.verify(password, hash)
}

let dummyHash: Promise<string> | undefined

/** A hash of nothing anyone knows, verified against when a username does not exist so timing reveals nothing. */
export function unknownUserHash(): Promise<string> {
  dummyHash ??= hashPassword(crypto.randomUUID())
  return dummyHash
}

export function generatePassword(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789'
  const bytes = crypto.getRandomValues(new Uint8Array(20))
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('')
}
