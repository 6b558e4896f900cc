import type { Locale } from '../../config'
import type { Database, Queryable } from '../../db/client'
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../../http/errors'
import { p1, pageWindow } from '../../http/pagination'
import type { Clock } from '../../lib/clock'
import { onConstraint } from '../../lib/sqlite-errors'
import { statusText } from '../../lib/status-text'
import { requiredText } from '../../lib/text'
import { recordAudit, type Actor } from '../audit/recorder'
import { findUserById } from '../users/repository'
import { allows } from './ability'
import type { AccessResolver, Principal } from './access'
import { ADMIN_ROLE, EMPLOYEE_ROLE, splitPermission } from './catalogue'
import type {
  CreatePermissionInput,
  CreateRoleInput,
  PermissionListQuery,
  PermissionResponse,
  RoleAssignmentInput,
  RoleListQuery,
  RolePermissionInput,
  RoleResponse,
  UpdateRoleInput,
} from './model'
import { requireAccount, requireRoles } from './people'
import * as repo from './repository'

export function toRoleResponse(row: repo.RoleRow, locale: Locale): RoleResponse {
  return {
    id: row.id,
    name: row.name,
    display_name: row.displayName,
    description: row.description,
    status: row.status,
    status_text: statusText('switch', row.status, locale),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  }
}

export function toPermissionResponse(row: repo.PermissionRow): PermissionResponse {
  return {
    id: row.id,
    name: row.name,
    display_name: row.displayName,
    description: row.description,
    resource: row.resource,
    action: row.action,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  }
}

/** Audit snapshots are written in one language whatever the caller reads. */
const snapshot = (row: repo.RoleRow) => toRoleResponse(row, 'en')

const noSuchRole = (name: string | number) =>
  new NotFoundError(typeof name === 'number' ? `Role ${name} does not exist` : `Role "${name}" does not exist`)

async function roleByName(db: Queryable, name: string): Promise<repo.RoleRow> {
  const role = await repo.findRoleByName(db, name)
  if (!role) throw noSuchRole(name)
  return role
}

async function permissionByName(db: Queryable, name: string): Promise<repo.PermissionRow> {
  const permission = await repo.findPermissionByName(db, name)
  if (!permission) throw new NotFoundError(`Permission "${name}" does not exist`)
  return permission
}

export function createRbacService({ database, clock, access }: { database: Database; clock: Clock; access: AccessResolver }) {
  const { db } = database

  const loadRole = async (id: number) => {
    const role = await repo.findRole(db, id)
    if (!role) throw noSuchRole(id)
    return role
  }

  return {
    async listRoles(query: RoleListQuery, locale: Locale) {
      const window = pageWindow(query, 10)
      const { rows, total } = await repo.listRoles(db, query, window)
      return p1(
        rows.map((row) => toRoleResponse(row, locale)),
        total,
        window,
      )
    },

    async getRole(id: number, locale: Locale): Promise<RoleResponse> {
      return toRoleResponse(await loadRole(id), locale)
    },

    async createRole(input: CreateRoleInput, actor: Actor, locale: Locale): Promise<RoleResponse> {
      const now = clock.now()
      const row = await onConstraint(
        () =>
          database.write(async (tx) => {
            const role = await repo.insertRole(tx, {
              name: input.name,
              displayName: input.display_name === undefined ? input.name : requiredText(input.display_name, 'display_name'),
              description: input.description?.trim() ?? '',
              status: input.status ?? 1,
              createdAt: now,
              updatedAt: now,
            })
            await recordAudit(tx, actor, now, { action: 'role.create', resource: 'role', resourceId: role.id, after: snapshot(role) })
            return role
          }),
        { unique: () => new ConflictError(`A role named "${input.name}" already exists`) },
      )
      return toRoleResponse(row, locale)
    },

    async updateRole(id: number, input: UpdateRoleInput, actor: Actor, principal: Principal, locale: Locale): Promise<RoleResponse> {
      const now = clock.now()
      const row = await database.write(async (tx) => {
        const before = await repo.findRole(tx, id)
        if (!before) throw noSuchRole(id)
        if (input.name !== undefined && input.name !== before.name)
          throw new ValidationError(`A role's name cannot be changed (it is "${before.name}"); create a new role instead`, [
            { field: 'name', message: 'cannot be changed' },
          ])
        if (before.name === ADMIN_ROLE && input.status === 0) throw new ForbiddenError('The role admin cannot be disabled')
        if (input.status !== undefined && input.status !== before.status)
          await requireRoles(tx, principal, [before], `${input.status === 1 ? 'enable' : 'disable'} the role ${before.name}`)
        const after = (await repo.updateRole(tx, id, {
          displayName: input.display_name === undefined ? undefined : requiredText(input.display_name, 'display_name'),
          description: input.description?.trim(),
          status: input.status,
          updatedAt: now,
        }))!
        await recordAudit(tx, actor, now, {
          action: 'role.update',
          resource: 'role',
          resourceId: id,
          before: snapshot(before),
          after: snapshot(after),
        })
        return after
      })
      access.invalidate()
      return toRoleResponse(row, locale)
    },

    async removeRole(id: number, actor: Actor, principal: Principal): Promise<void> {
      const now = clock.now()
      await database.write(async (tx) => {
        const role = await repo.findRole(tx, id)
        if (!role) throw noSuchRole(id)
        if (role.name === ADMIN_ROLE) throw new ForbiddenError('The role admin cannot be deleted')
        // new employees' accounts are given this role
        if (role.name === EMPLOYEE_ROLE)
          throw new ForbiddenError('The built-in role employee cannot be deleted; disable it or remove its permissions instead')
        await requireRoles(tx, principal, [role], `delete the role ${role.name}`)
        const holders = await repo.holdersOfRole(tx, id)
        const permissions = await repo.permissionsOfRole(tx, role)
        await repo.deleteRole(tx, id)
        await recordAudit(tx, actor, now, {
          action: 'role.delete',
          resource: 'role',
          resourceId: id,
          before: { ...snapshot(role), user_ids: holders.map((user) => user.id), permissions: permissions.map((p) => p.name) },
        })
      })
      access.invalidate()
    },

    async assign(input: RoleAssignmentInput, actor: Actor, principal: Principal): Promise<void> {
      await changeAssignment(input, actor, principal, 'assign')
    },

    async revoke(input: RoleAssignmentInput, actor: Actor, principal: Principal): Promise<void> {
      await changeAssignment(input, actor, principal, 'revoke')
    },

    async rolesOfUser(userId: number, locale: Locale): Promise<RoleResponse[]> {
      if (!(await findUserById(db, userId))) throw new NotFoundError(`User ${userId} does not exist`)
      return (await repo.rolesOfUser(db, userId)).map((row) => toRoleResponse(row, locale))
    },

    async holdersOfRole(roleName: string) {
      return repo.holdersOfRole(db, (await roleByName(db, roleName)).id)
    },

    async permissionsOfRole(roleName: string): Promise<PermissionResponse[]> {
      return (await repo.permissionsOfRole(db, await roleByName(db, roleName))).map(toPermissionResponse)
    },

    async addPermission(input: RolePermissionInput, actor: Actor, principal: Principal): Promise<void> {
      await changeGrant(input, actor, principal, 'add')
    },

    async removePermission(input: RolePermissionInput, actor: Actor, principal: Principal): Promise<void> {
      await changeGrant(input, actor, principal, 'remove')
    },

    async listPermissions(query: PermissionListQuery) {
      const window = pageWindow(query, 10)
      const { rows, total } = await repo.listPermissions(db, query, window)
      return p1(rows.map(toPermissionResponse), total, window)
    },

    async createPermission(input: CreatePermissionInput, actor: Actor): Promise<PermissionResponse> {
      const parts = splitPermission(input.name)
      for (const field of ['resource', 'action'] as const)
        if (input[field] !== undefined && input[field] !== parts[field])
          throw new ValidationError(
            `${field} "${input[field]}" does not match the name "${input.name}"; send ${field} "${parts[field]}" or leave it out`,
            [{ field, message: `must be "${parts[field]}" to match the name` }],
          )
      const now = clock.now()
      const row = await onConstraint(
        () =>
          database.write(async (tx) => {
            const permission = await repo.insertPermission(tx, {
              name: input.name,
              displayName: input.display_name === undefined ? input.name : requiredText(input.display_name, 'display_name'),
              description: input.description?.trim() ?? '',
              ...parts,
              createdAt: now,
              updatedAt: now,
            })
            await recordAudit(tx, actor, now, {
              action: 'permission.create',
              resource: 'permission',
              resourceId: permission.id,
              after: toPermissionResponse(permission),
            })
            return permission
          }),
        { unique: () => new ConflictError(`A permission named "${input.name}" already exists`) },
      )
      return toPermissionResponse(row)
    },

    async rolesOfPermission(permissionName: string, locale: Locale): Promise<RoleResponse[]> {
      const permission = await permissionByName(db, permissionName)
      return (await repo.rolesOfPermission(db, permission.id)).map((row) => toRoleResponse(row, locale))
    },
  }

  /** Gives a user a role or takes it away; holding it already (or not at all) changes nothing. */
  async function changeAssignment(
    { user_id: userId, role_name }: RoleAssignmentInput,
    actor: Actor,
    principal: Principal,
    verb: 'assign' | 'revoke',
  ) {
    const now = clock.now()
    await database.write(async (tx) => {
      const user = await findUserById(tx, userId)
      if (!user) throw new NotFoundError(`User ${userId} does not exist`)
      const role = await roleByName(tx, role_name)
      await requireAccount(tx, principal, userId, `${verb} roles of`)
      await requireRoles(tx, principal, [role], `${verb} the role ${role.name}`)
      const before = (await repo.rolesOfUser(tx, userId)).map((r) => r.name)
      if (verb === 'assign') await repo.grantRole(tx, userId, role.id, now)
      else {
        if (
          role.name === ADMIN_ROLE &&
          before.includes(ADMIN_ROLE) &&
          user.status === 1 &&
          (await repo.countActiveAdmins(tx, userId)) === 0
        )
          throw new ConflictError(
            `User ${userId} is the last enabled administrator and cannot lose role admin; make another user admin first`,
          )
        await repo.revokeRole(tx, userId, role.id)
      }
      const after = (await repo.rolesOfUser(tx, userId)).map((r) => r.name)
      await recordAudit(tx, actor, now, {
        action: `role.${verb}`,
        resource: 'user',
        resourceId: userId,
        before: { roles: before },
        after: { roles: after },
      })
    })
    access.invalidate(userId)
  }

  /** Adds a permission to a role or removes it; already so changes nothing. */
  async function changeGrant(
    { role_name, permission_name }: RolePermissionInput,
    actor: Actor,
    principal: Principal,
    verb: 'add' | 'remove',
  ) {
    const now = clock.now()
    await database.write(async (tx) => {
      const role = await roleByName(tx, role_name)
      const permission = await permissionByName(tx, permission_name)
      if (!allows(principal.ability, permission.name))
        throw new ForbiddenError(`You cannot ${verb} ${permission.name}: your own roles do not grant it`)
      if (role.name === ADMIN_ROLE && verb === 'remove')
        throw new ForbiddenError('The role admin holds every permission; none can be removed from it')
      const before = (await repo.permissionsOfRole(tx, role)).map((p) => p.name)
      // admin holds every permission without links
      if (role.name !== ADMIN_ROLE) {
        if (verb === 'add') await repo.linkPermission(tx, role.id, permission.id, now)
        else await repo.unlinkPermission(tx, role.id, permission.id)
      }
      const after = (await repo.permissionsOfRole(tx, role)).map((p) => p.name)
      await recordAudit(tx, actor, now, {
        action: `role.permission.${verb}`,
        resource: 'role',
        resourceId: role.id,
        before: { permissions: before },
        after: { permissions: after },
      })
    })
    access.invalidate()
  }
}

export type RbacService = ReturnType<typeof createRbacService>
