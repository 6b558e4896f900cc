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
import { permissionsMatching, permissionText, roleText, rolesMatching, say } from './messages'
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
    display_name: roleText(row, 'display_name', row.displayName, locale),
    description: roleText(row, 'description', row.description, locale),
    status: row.status,
    status_text: statusText('switch', row.status, locale),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  }
}

export function toPermissionResponse(row: repo.PermissionRow, locale: Locale): PermissionResponse {
  return {
    id: row.id,
    name: row.name,
    display_name: permissionText(row, 'display_name', row.displayName, locale),
    description: permissionText(row, 'description', row.description, locale),
    resource: row.resource,
    action: row.action,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  }
}

/** Audit snapshots are written in one language whatever the caller reads. */
const snapshot = (row: repo.RoleRow) => toRoleResponse(row, 'en')

const noSuchRole = (name: string | number) => new NotFoundError(typeof name === 'number' ? say.roleIdMissing({ id: name }) : say.roleMissing({ name }))

async function roleByName(db: Queryable, name: string): Promise<repo.RoleRow> {
  const role = await repo.findRoleByName(db, name)
  if (!role) throw noSuchRole(name)
  return role
}

async function permissionByName(db: Queryable, name: string): Promise<repo.PermissionRow> {
  const permission = await repo.findPermissionByName(db, name)
  if (!permission) throw new NotFoundError(say.permissionMissing({ name }))
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
      const { rows, total } = await repo.listRoles(db, query, window, locale === 'zh' && query.search ? rolesMatching(query.search) : [])
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
        { unique: () => new ConflictError(say.roleExists({ name: input.name })) },
      )
      return toRoleResponse(row, locale)
    },

    async updateRole(id: number, input: UpdateRoleInput, actor: Actor, principal: Principal, locale: Locale): Promise<RoleResponse> {
      const now = clock.now()
      const row = await database.write(async (tx) => {
        const before = await repo.findRole(tx, id)
        if (!before) throw noSuchRole(id)
        if (input.name !== undefined && input.name !== before.name)
          throw new ValidationError(say.roleRenamed({ name: before.name }), [{ field: 'name', message: say.cannotChange() }])
        if (before.name === ADMIN_ROLE && input.status === 0) throw new ForbiddenError(say.adminNotDisabled())
        if (input.status !== undefined && input.status !== before.status)
          await requireRoles(tx, principal, [before], (input.status === 1 ? say.enableRole : say.disableRole)({ role: before.name }))
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
        if (role.name === ADMIN_ROLE) throw new ForbiddenError(say.adminNotDeleted())
        // new employees' accounts are given this role
        if (role.name === EMPLOYEE_ROLE) throw new ForbiddenError(say.employeeNotDeleted())
        await requireRoles(tx, principal, [role], say.deleteRole({ role: role.name }))
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
      if (!(await findUserById(db, userId))) throw new NotFoundError(say.userMissing({ id: userId }))
      return (await repo.rolesOfUser(db, userId)).map((row) => toRoleResponse(row, locale))
    },

    async holdersOfRole(roleName: string) {
      return repo.holdersOfRole(db, (await roleByName(db, roleName)).id)
    },

    async permissionsOfRole(roleName: string, locale: Locale): Promise<PermissionResponse[]> {
      return (await repo.permissionsOfRole(db, await roleByName(db, roleName))).map((row) => toPermissionResponse(row, locale))
    },

    async addPermission(input: RolePermissionInput, actor: Actor, principal: Principal): Promise<void> {
      await changeGrant(input, actor, principal, 'add')
    },

    async removePermission(input: RolePermissionInput, actor: Actor, principal: Principal): Promise<void> {
      await changeGrant(input, actor, principal, 'remove')
    },

    async listPermissions(query: PermissionListQuery, locale: Locale) {
      const window = pageWindow(query, 10)
      const { rows, total } = await repo.listPermissions(db, query, window, locale === 'zh' && query.search ? permissionsMatching(query.search) : [])
      return p1(
        rows.map((row) => toPermissionResponse(row, locale)),
        total,
        window,
      )
    },

    async createPermission(input: CreatePermissionInput, actor: Actor, locale: Locale): Promise<PermissionResponse> {
      const parts = splitPermission(input.name)
      for (const field of ['resource', 'action'] as const) {
        const value = input[field]
        if (value !== undefined && value !== parts[field])
          throw new ValidationError(say.partMismatch({ field, value, name: input.name, expected: parts[field] }), [
            { field, message: say.partMustMatch({ expected: parts[field] }) },
          ])
      }
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
              after: toPermissionResponse(permission, 'en'),
            })
            return permission
          }),
        { unique: () => new ConflictError(say.permissionExists({ name: input.name })) },
      )
      return toPermissionResponse(row, locale)
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
      if (!user) throw new NotFoundError(say.userMissing({ id: userId }))
      const role = await roleByName(tx, role_name)
      await requireAccount(tx, principal, userId, verb === 'assign' ? 'assign roles of' : 'revoke roles of')
      await requireRoles(tx, principal, [role], (verb === 'assign' ? say.assignRole : say.revokeRole)({ role: role.name }))
      const before = (await repo.rolesOfUser(tx, userId)).map((r) => r.name)
      if (verb === 'assign') await repo.grantRole(tx, userId, role.id, now)
      else {
        if (
          role.name === ADMIN_ROLE &&
          before.includes(ADMIN_ROLE) &&
          user.status === 1 &&
          (await repo.countActiveAdmins(tx, userId)) === 0
        )
          throw new ConflictError(say.lastAdmin({ username: user.username }))
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
        throw new ForbiddenError((verb === 'add' ? say.cannotAddPermission : say.cannotRemovePermission)({ permission: permission.name }))
      if (role.name === ADMIN_ROLE && verb === 'remove') throw new ForbiddenError(say.adminHoldsAll())
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
