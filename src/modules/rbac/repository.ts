import { and, count, eq, inArray, ne } from 'drizzle-orm'
import type { Queryable } from '../../db/client'
import { employees, permissions, rolePermissions, roles, userRoles, users } from '../../db/schema'
import { ADMIN_ROLE } from './catalogue'

export interface PrincipalRow {
  id: number
  status: number
  tokenVersion: number
  employeeId: number | null
  grants: { role: string; permissions: string[] }[]
}

/** Everything a request needs to know about its caller, or null when the user is gone. */
export async function findPrincipal(db: Queryable, userId: number): Promise<PrincipalRow | null> {
  const [user] = await db
    .select({
      id: users.id,
      status: users.status,
      tokenVersion: users.tokenVersion,
      employeeId: employees.id,
    })
    .from(users)
    .leftJoin(employees, eq(employees.userId, users.id))
    .where(eq(users.id, userId))
    .limit(1)
  if (!user) return null
  const links = await db
    .select({ role: roles.name, permission: permissions.name })
    .from(userRoles)
    .innerJoin(roles, and(eq(roles.id, userRoles.roleId), eq(roles.status, 1)))
    .leftJoin(rolePermissions, eq(rolePermissions.roleId, roles.id))
    .leftJoin(permissions, eq(permissions.id, rolePermissions.permissionId))
    .where(eq(userRoles.userId, userId))
  const grants = new Map<string, string[]>()
  for (const link of links) {
    const list = grants.get(link.role) ?? []
    if (link.permission) list.push(link.permission)
    grants.set(link.role, list)
  }
  return { ...user, grants: [...grants].map(([role, permissions]) => ({ role, permissions })) }
}

/** Role names held by each of the given users (enabled or not), in name order. */
export async function roleNamesByUser(db: Queryable, userIds: number[]): Promise<Map<number, string[]>> {
  const result = new Map<number, string[]>(userIds.map((id) => [id, []]))
  if (userIds.length === 0) return result
  const rows = await db
    .select({ userId: userRoles.userId, role: roles.name })
    .from(userRoles)
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .where(inArray(userRoles.userId, userIds))
    .orderBy(roles.name)
  for (const row of rows) result.get(row.userId)?.push(row.role)
  return result
}

export async function findRolesByName(db: Queryable, names: string[]) {
  if (names.length === 0) return []
  return db.select({ id: roles.id, name: roles.name }).from(roles).where(inArray(roles.name, names))
}

export async function findRoleId(db: Queryable, name: string): Promise<number | null> {
  const [row] = await db.select({ id: roles.id }).from(roles).where(eq(roles.name, name)).limit(1)
  return row?.id ?? null
}

/** Makes `roleIds` exactly the roles `userId` holds. */
export async function replaceUserRoles(db: Queryable, userId: number, roleIds: number[], at: Date): Promise<void> {
  await db.delete(userRoles).where(eq(userRoles.userId, userId))
  if (roleIds.length > 0) await db.insert(userRoles).values(roleIds.map((roleId) => ({ userId, roleId, createdAt: at })))
}

/** Gives `userId` the role; holding it already is fine. */
export async function grantRole(db: Queryable, userId: number, roleId: number, at: Date): Promise<void> {
  await db.insert(userRoles).values({ userId, roleId, createdAt: at }).onConflictDoNothing()
}

/** Enabled users holding role admin, leaving out `exceptUserId` when given. */
export async function countActiveAdmins(db: Queryable, exceptUserId?: number): Promise<number> {
  const [{ total }] = await db
    .select({ total: count() })
    .from(users)
    .innerJoin(userRoles, eq(userRoles.userId, users.id))
    .innerJoin(roles, and(eq(roles.id, userRoles.roleId), eq(roles.name, ADMIN_ROLE)))
    .where(exceptUserId === undefined ? eq(users.status, 1) : and(eq(users.status, 1), ne(users.id, exceptUserId)))
  return total
}

export async function allPermissionNames(db: Queryable): Promise<string[]> {
  const rows = await db.select({ name: permissions.name }).from(permissions).orderBy(permissions.name)
  return rows.map((row) => row.name)
}
