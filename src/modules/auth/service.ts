import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import type { Database, Tx } from '../../db/client'
import { employees } from '../../db/schema'
import { UnauthorizedError, ValidationError } from '../../http/errors'
import { say as http } from '../../http/messages'
import type { Clock } from '../../lib/clock'
import { optionalText, requiredText } from '../../lib/text'
import type { HashGate } from '../../lib/hash-gate'
import { hashPassword, unknownUserHash, verifyPassword } from '../../lib/password'
import { recordAudit, type Actor } from '../audit/recorder'
import type { AccessResolver, Principal } from '../rbac/access'
import { allows } from '../rbac/ability'
import { allPermissionNames, roleNamesByUser } from '../rbac/repository'
import type { UserResponse } from '../users/model'
import { presentUser } from '../users/service'
import { bumpTokenVersion, findUserById, findUserByUsername, updateUser, type UserRow } from '../users/repository'
import type { Me, TokenPair, UpdateMeInput } from './model'
import { say } from './messages'
import * as repo from './repository'
import { attemptWindows, createLockBook, FAILURE_LIMITS, throughGate } from './throttle'
import { hashRefreshToken, newRefreshToken, type TokenService } from './tokens'

export interface AuthDeps {
  database: Database
  clock: Clock
  access: AccessResolver
  tokens: TokenService
  refreshTtlSeconds: number
  /** bounds the password hashes and checks running at once */
  hashGate: HashGate
}

export function createAuthService({ database, clock, access, tokens, refreshTtlSeconds, hashGate }: AuthDeps) {
  const { db } = database
  const locks = createLockBook()

  /** A new access token and a refresh token; `familyId` continues a rotation chain. */
  const issuePair = async (tx: Tx, user: UserRow, familyId: string = randomUUID()): Promise<TokenPair> => {
    const now = clock.now()
    const refresh = newRefreshToken()
    await repo.insertRefreshToken(tx, {
      userId: user.id,
      familyId,
      tokenHash: refresh.hash,
      createdAt: now,
      expiresAt: new Date(now.getTime() + refreshTtlSeconds * 1000),
    })
    const access = await tokens.issueAccess(user)
    const roles = (await roleNamesByUser(tx, [user.id])).get(user.id) ?? []
    return {
      access_token: access.token,
      refresh_token: refresh.token,
      token_type: 'Bearer',
      expires_in: access.expiresIn,
      user: { id: user.id, username: user.username, name: user.name, roles },
    }
  }

  /** Session events are audited against the user they concern; no token is ever written. */
  const audit = (tx: Tx, userId: number, ip: string | null, action: string) =>
    recordAudit(tx, { userId, ip }, clock.now(), { action, resource: 'user', resourceId: userId })

  return {
    async login(username: string, password: string, ip: string | null): Promise<TokenPair> {
      const key = { usernameKey: username.toLowerCase(), address: ip }
      // a known lock and then the gate come first: a refused request costs neither a write nor a hash
      const known = locks.refusal(key, username, clock.now())
      if (known) throw known
      const checked = await throughGate(hashGate, ip, async () => {
        const now = clock.now()
        // counted before the slow password check, so parallel guesses cannot all pass the limits
        const attempt = await database.write((tx) => repo.reserveAttempt(tx, key, now, attemptWindows(now), FAILURE_LIMITS))
        if (attempt === null) return { locked: true, now } as const
        const user = await findUserByUsername(db, username)
        const valid = await verifyPassword(password, user?.passwordHash ?? (await unknownUserHash()))
        return { locked: false, attempt, user: valid ? user : null } as const
      })
      if (checked.locked) throw await locks.refused(db, key, username, checked.now)
      const { attempt, user } = checked
      // a wrong password keeps the attempt as a failure
      if (!user) throw new UnauthorizedError(say.wrongCredentials())
      if (user.status !== 1) {
        await database.write((tx) => repo.removeAttempt(tx, attempt))
        throw new UnauthorizedError(http.accountDisabled())
      }
      return database.write(async (tx) => {
        await repo.clearFailures(tx, key)
        locks.forget(key)
        await audit(tx, user.id, ip, 'auth.login')
        return issuePair(tx, user)
      })
    },

    /**
     * Rotation: a refresh token works once. Presenting one that was already used means
     * it leaked, so the whole chain is revoked and the caller must sign in again.
     */
    async refresh(refreshToken: string, ip: string | null): Promise<TokenPair> {
      const now = clock.now()
      const outcome = await database.write(async (tx) => {
        const row = await repo.findRefreshToken(tx, hashRefreshToken(refreshToken))
        if (!row) return { kind: 'unknown' } as const
        if (row.usedAt || row.revokedAt) {
          await repo.revokeRefreshFamily(tx, row.familyId, now)
          await audit(tx, row.userId, ip, 'auth.refresh.reuse')
          return { kind: 'reused' } as const
        }
        if (row.expiresAt.getTime() <= now.getTime()) return { kind: 'expired' } as const
        const user = await findUserById(tx, row.userId)
        if (!user) return { kind: 'gone' } as const
        if (user.status !== 1) return { kind: 'disabled' } as const
        await repo.markRefreshTokenUsed(tx, row.id, now)
        await audit(tx, user.id, ip, 'auth.refresh')
        return { kind: 'ok', pair: await issuePair(tx, user, row.familyId) } as const
      })
      if (outcome.kind === 'unknown') throw new UnauthorizedError(say.refreshUnknown())
      if (outcome.kind === 'reused')
        throw new UnauthorizedError(say.refreshReused())
      if (outcome.kind === 'expired') throw new UnauthorizedError(say.refreshExpired())
      if (outcome.kind === 'gone') throw new UnauthorizedError(http.accountGone())
      if (outcome.kind === 'disabled') throw new UnauthorizedError(http.accountDisabled())
      return outcome.pair
    },

    /** Ends every session of the caller: refresh tokens revoked, access tokens refused from now on. */
    async logout(principal: Principal, actor: Actor): Promise<void> {
      const now = clock.now()
      await database.write(async (tx) => {
        await repo.revokeUserRefreshTokens(tx, principal.userId, now)
        await bumpTokenVersion(tx, principal.userId, now)
        await audit(tx, principal.userId, actor.ip, 'auth.logout')
      })
      access.invalidate(principal.userId)
    },

    async me(principal: Principal): Promise<Me> {
      const user = await findUserById(db, principal.userId)
      if (!user) throw new UnauthorizedError(http.accountGone())
      const [employee] = await db
        .select({
          id: employees.id,
          employee_no: employees.employeeNo,
          name: employees.name,
          department_id: employees.departmentId,
          company_id: employees.companyId,
          position: employees.position,
          status: employees.status,
        })
        .from(employees)
        .where(eq(employees.userId, user.id))
        .limit(1)
      const catalogue = await allPermissionNames(db)
      return {
        user: await presentUser(db, user),
        roles: principal.roles,
        permissions: catalogue.filter((name) => allows(principal.ability, name)),
        employee: employee ?? null,
      }
    },

    /** The caller edits their own name and contact details (the admin routes refuse one's own account). */
    async updateMe(principal: Principal, actor: Actor, input: UpdateMeInput): Promise<UserResponse> {
      const now = clock.now()
      return database.write(async (tx) => {
        const current = await findUserById(tx, principal.userId)
        if (!current) throw new UnauthorizedError(http.accountGone())
        const before = await presentUser(tx, current)
        const row = await updateUser(tx, principal.userId, {
          name: input.name === undefined ? undefined : requiredText(input.name, 'name'),
          phone: optionalText(input.phone),
          email: optionalText(input.email),
          avatar: optionalText(input.avatar),
          updatedAt: now,
        })
        const after = await presentUser(tx, row!)
        await recordAudit(tx, actor, now, { action: 'user.update', resource: 'user', resourceId: principal.userId, before, after })
        return after
      })
    },

    /** Changes the caller's password, ends their other sessions and returns a fresh pair for this one. */
    async changePassword(principal: Principal, actor: Actor, oldPassword: string, newPassword: string): Promise<TokenPair> {
      const user = await findUserById(db, principal.userId)
      if (!user) throw new UnauthorizedError(http.accountGone())
      const passwordHash = await throughGate(hashGate, actor.ip, async () => {
        if (!(await verifyPassword(oldPassword, user.passwordHash)))
          throw new ValidationError(say.currentPasswordWrong(), [{ field: 'old_password', message: say.notCorrect() }])
        return hashPassword(newPassword)
      })
      const now = clock.now()
      const pair = await database.write(async (tx) => {
        await repo.revokeUserRefreshTokens(tx, user.id, now)
        await updateUser(tx, user.id, { passwordHash })
        const updated = await bumpTokenVersion(tx, user.id, now)
        await audit(tx, user.id, actor.ip, 'auth.password')
        return issuePair(tx, updated!)
      })
      access.invalidate(user.id)
      return pair
    },
  }
}

export type AuthService = ReturnType<typeof createAuthService>
