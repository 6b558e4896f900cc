import type { Database, Queryable, Tx } from '../../db/client'
import { ConflictError, NotFoundError, ValidationError } from '../../http/errors'
import { pageWindow, p1 } from '../../http/pagination'
import type { Clock } from '../../lib/clock'
import type { Message } from '../../lib/messages'
import { hashPassword } from '../../lib/password'
import { isUniqueViolation } from '../../lib/sqlite-errors'
import { optionalText, requiredText } from '../../lib/text'
import { revokeUserRefreshTokens } from '../auth/repository'
import { recordAudit, type Actor } from '../audit/recorder'
import type { AccessResolver, Principal } from '../rbac/access'
import { ADMIN_ROLE } from '../rbac/catalogue'
import { countActiveAdmins, findRolesByName, replaceUserRoles, roleNamesByUser, rolesOfUser } from '../rbac/repository'
import { requireAccount, requireRoles } from '../rbac/people'
import { say } from './messages'
import type { CreateUserInput, UpdateUserInput, UserListQuery, UserResponse } from './model'
import * as repo from './repository'

export interface UsersDeps {
  database: Database
  clock: Clock
  access: AccessResolver
}

export function toUserResponse(row: repo.UserRow, roles: string[]): UserResponse {
  return {
    id: row.id,
    username: row.username,
    name: row.name,
    phone: row.phone,
    email: row.email,
    avatar: row.avatar,
    status: row.status,
    roles,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  }
}

export async function presentUser(db: Queryable, row: repo.UserRow): Promise<UserResponse> {
  const roles = await roleNamesByUser(db, [row.id])
  return toUserResponse(row, roles.get(row.id) ?? [])
}

/** The roles of the names, or a 400 naming those that do not exist. */
export async function resolveRoles(db: Queryable, names: string[]) {
  const unique = [...new Set(names)]
  const found = await findRolesByName(db, unique)
  const missing = unique.filter((name) => !found.some((role) => role.name === name))
  if (missing.length > 0)
    throw new ValidationError(say.unknownRoles({ n: missing.length, names: missing.join(', ') }), [
      { field: 'roles', message: say.unknownNames({ names: missing.join(', ') }) },
    ])
  return found
}

export function usernameTaken(username: string): ConflictError {
  return new ConflictError(say.usernameTaken({ username }))
}

/** Checks the user exists; the guard refuses a change that would leave no enabled admin (409). */
async function loadForChange(tx: Tx, id: number) {
  const current = await repo.findUserById(tx, id)
  if (!current) throw new NotFoundError(say.missing({ id }))
  const before = await presentUser(tx, current)
  const isActiveAdmin = current.status === 1 && before.roles.includes(ADMIN_ROLE)
  const keepAnotherAdmin = async (change: Message) => {
    if (isActiveAdmin && (await countActiveAdmins(tx, id)) === 0) throw new ConflictError(say.lastAdmin({ username: current.username, change }))
  }
  return { before, keepAnotherAdmin }
}

export function createUsersService({ database, clock, access }: UsersDeps) {
  const { db } = database

  const get = async (id: number): Promise<UserResponse> => {
    const row = await repo.findUserById(db, id)
    if (!row) throw new NotFoundError(say.missing({ id }))
    return presentUser(db, row)
  }

  return {
    get,

    async list(query: UserListQuery) {
      const window = pageWindow(query, 10)
      const { rows, total } = await repo.listUsers(db, { search: query.search, status: query.status }, window)
      const roles = await roleNamesByUser(db, rows.map((row) => row.id))
      return p1(rows.map((row) => toUserResponse(row, roles.get(row.id) ?? [])), total, window)
    },

    async create(input: CreateUserInput, actor: Actor, principal: Principal): Promise<UserResponse> {
      const passwordHash = await hashPassword(input.password)
      const now = clock.now()
      try {
        return await database.write(async (tx) => {
          const roles = await resolveRoles(tx, input.roles ?? [])
          await requireRoles(tx, principal, roles, 'give these roles')
          const row = await repo.insertUser(tx, {
            username: input.username,
            passwordHash,
            name: requiredText(input.name, 'name'),
            phone: optionalText(input.phone),
            email: optionalText(input.email),
            avatar: optionalText(input.avatar),
            status: input.status ?? 1,
            createdBy: actor.userId,
            createdAt: now,
            updatedAt: now,
          })
          await replaceUserRoles(tx, row.id, roles.map((role) => role.id), now)
          const created = await presentUser(tx, row)
          await recordAudit(tx, actor, now, { action: 'user.create', resource: 'user', resourceId: row.id, after: created })
          return created
        })
      } catch (error) {
        if (isUniqueViolation(error)) throw usernameTaken(input.username)
        throw error
      }
    },

    async update(id: number, input: UpdateUserInput, actor: Actor, principal: Principal): Promise<UserResponse> {
      const now = clock.now()
      try {
        const result = await database.write(async (tx) => {
          const { before, keepAnotherAdmin } = await loadForChange(tx, id)
          await requireAccount(tx, principal, id, 'change')
          if (input.status === 0) await keepAnotherAdmin(say.beDisabled())
          if (input.roles && !input.roles.includes(ADMIN_ROLE)) await keepAnotherAdmin(say.loseAdmin())

          if (input.roles) {
            const roles = await resolveRoles(tx, input.roles)
            const wanted = new Set(roles.map((role) => role.name))
            const changed = [...roles.filter((role) => !before.roles.includes(role.name)), ...(await rolesOfUser(tx, id)).filter((role) => !wanted.has(role.name))]
            await requireRoles(tx, principal, changed, 'change these roles')
            await replaceUserRoles(tx, id, roles.map((role) => role.id), now)
          }
          const row = await repo.updateUser(tx, id, {
            username: input.username,
            name: input.name === undefined ? undefined : requiredText(input.name, 'name'),
            phone: optionalText(input.phone),
            email: optionalText(input.email),
            avatar: optionalText(input.avatar),
            status: input.status,
            updatedAt: now,
          })
          const after = await presentUser(tx, row!)
          await recordAudit(tx, actor, now, { action: 'user.update', resource: 'user', resourceId: id, before, after })
          return after
        })
        access.invalidate(id)
        return result
      } catch (error) {
        if (isUniqueViolation(error)) throw usernameTaken(input.username ?? '')
        throw error
      }
    },

    async remove(id: number, actor: Actor, principal: Principal): Promise<void> {
      const now = clock.now()
      await database.write(async (tx) => {
        const { before, keepAnotherAdmin } = await loadForChange(tx, id)
        await requireAccount(tx, principal, id, 'delete')
        await keepAnotherAdmin(say.beDeleted())
        await repo.deleteUser(tx, id)
        await recordAudit(tx, actor, now, { action: 'user.delete', resource: 'user', resourceId: id, before })
      })
      access.invalidate(id)
    },

    /** An administrator sets a new password; every session of that user ends. */
    async setPassword(id: number, password: string, actor: Actor, principal: Principal): Promise<void> {
      // refused before the slow hash too, so a caller who may not do this learns it at once
      if (!(await repo.findUserById(db, id))) throw new NotFoundError(say.missing({ id }))
      await requireAccount(db, principal, id, 'set the password of')
      const passwordHash = await hashPassword(password)
      const now = clock.now()
      await database.write(async (tx) => {
        await requireAccount(tx, principal, id, 'set the password of')
        const row = await repo.updateUser(tx, id, { passwordHash, updatedAt: now })
        if (!row) throw new NotFoundError(say.missing({ id }))
        await repo.bumpTokenVersion(tx, id, now)
        await revokeUserRefreshTokens(tx, id, now)
        await recordAudit(tx, actor, now, { action: 'user.password', resource: 'user', resourceId: id })
      })
      access.invalidate(id)
    },
  }
}

export type UsersService = ReturnType<typeof createUsersService>
