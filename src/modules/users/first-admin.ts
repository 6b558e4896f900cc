import type { Database } from '../../db/client'
import type { Clock } from '../../lib/clock'
import { generatePassword, hashPassword } from '../../lib/password'
import { ADMIN_ROLE } from '../rbac/catalogue'
import { countActiveAdmins, findRoleId, grantRole } from '../rbac/repository'
import { findUserByUsername, insertUser } from './repository'

/**
 * When no enabled user holds role admin, creates `username` with role admin (or gives
 * the role to an existing user of that name). Returns the generated password when one
 * was made, so the caller can print it once; null when nothing was generated.
 */
export async function ensureFirstAdmin(
  database: Database,
  clock: Clock,
  username: string,
  password: string | undefined,
): Promise<{ created: boolean; generatedPassword: string | null }> {
  if ((await countActiveAdmins(database.db)) > 0) return { created: false, generatedPassword: null }
  const plain = password ?? generatePassword()
  const passwordHash = await hashPassword(plain)
  const now = clock.now()
  const created = await database.write(async (tx) => {
    // re-checked under the write lock: another instance may have done it meanwhile
    if ((await countActiveAdmins(tx)) > 0) return false
    const adminRoleId = (await findRoleId(tx, ADMIN_ROLE))!
    const existing = await findUserByUsername(tx, username)
    const user =
      existing ??
      (await insertUser(tx, { username, passwordHash, name: 'Administrator', status: 1, createdAt: now, updatedAt: now }))
    await grantRole(tx, user.id, adminRoleId, now)
    return existing === null
  })
  return { created, generatedPassword: created && password === undefined ? plain : null }
}
