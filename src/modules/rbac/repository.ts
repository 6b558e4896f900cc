import { and, asc, count, eq, inArray, ne, or, sql, type SQL } from 'drizzle-orm'
import type { Db, Queryable } from '../../db/client'
import { inBatches } from '../../db/batches'
import { preparedQuery } from '../../db/prepared'
import { employees, permissions, rolePermissions, roles, userRoles, users } from '../../db/schema'
import { containsAny } from '../../db/search'
import type { PageWindow } from '../../http/pagination'
import { ADMIN_ROLE } from './catalogue'

export type RoleRow = typeof roles.$inferSelect
export type PermissionRow = typeof permissions.$inferSelect

export interface PrincipalRow {
  id: number
  status: number
  tokenVersion: number
  employeeId: number | null
  grants: { role: string; permissions: string[] }[]
}

const principalRows = preparedQuery((db) =>
  db
    .select({
      id: users.id,
      status: users.status,
      tokenVersion: users.tokenVersion,
      employeeId: employees.id,
      role: roles.name,
      permission: permissions.name,
    })
    .from(users)
    .leftJoin(employees, eq(employees.userId, users.id))
    .leftJoin(userRoles, eq(userRoles.userId, users.id))
    .leftJoin(roles, and(eq(roles.id, userRoles.roleId), eq(roles.status, 1)))
    .leftJoin(rolePermissions, eq(rolePermissions.roleId, roles.id))
    .leftJoin(permissions, eq(permissions.id, rolePermissions.permissionId))
    .where(eq(users.id, sql.placeholder('userId')))
    .prepare(),
)

/** Everything a request needs to know about its caller (one query), or null when the user is gone. */
export async function findPrincipal(db: Db, userId: number): Promise<PrincipalRow | null> {
  const rows = await principalRows(db).all({ userId })
  if (rows.length === 0) return null
  const grants = new Map<string, string[]>()
  for (const row of rows) {
    if (row.role === null) continue // no roles, or a disabled one
    const list = grants.get(row.role) ?? []
    if (row.permission) list.push(row.permission)
    grants.set(row.role, list)
  }
  const { id, status, tokenVersion, employeeId } = rows[0]
  return { id, status, tokenVersion, employeeId, grants: [...grants].map(([role, permissions]) => ({ role, permissions })) }
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

/** Gives each of `userIds` the role, with few statements; holding it already is fine. */
export async function grantRoleToMany(db: Queryable, userIds: number[], roleId: number, at: Date): Promise<void> {
  for (const batch of inBatches(userIds, 3))
    await db.insert(userRoles).values(batch.map((userId) => ({ userId, roleId, createdAt: at }))).onConflictDoNothing()
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

export async function findRole(db: Queryable, id: number): Promise<RoleRow | null> {
  const [row] = await db.select().from(roles).where(eq(roles.id, id)).limit(1)
  return row ?? null
}

export async function findRoleByName(db: Queryable, name: string): Promise<RoleRow | null> {
  const [row] = await db.select().from(roles).where(eq(roles.name, name)).limit(1)
  return row ?? null
}

export async function insertRole(db: Queryable, values: typeof roles.$inferInsert): Promise<RoleRow> {
  const [row] = await db.insert(roles).values(values).returning()
  return row
}

export async function updateRole(db: Queryable, id: number, values: Partial<typeof roles.$inferInsert>): Promise<RoleRow | null> {
  const [row] = await db.update(roles).set(values).where(eq(roles.id, id)).returning()
  return row ?? null
}

/** Deletes the role; its user and permission links go with it (ON DELETE CASCADE). */
export async function deleteRole(db: Queryable, id: number): Promise<void> {
  await db.delete(roles).where(eq(roles.id, id))
}

/** `alsoShownAs`: built-in roles whose display name, as shown in the caller's language, matches the search too. */
export async function listRoles(
  db: Queryable,
  filter: { search?: string; status?: number },
  window: PageWindow,
  alsoShownAs: { name: string; displayName: string }[] = [],
) {
  const conditions: SQL[] = []
  if (filter.search?.trim())
    conditions.push(
      or(
        containsAny(filter.search, [roles.name, roles.displayName]),
        ...alsoShownAs.map((role) => and(eq(roles.name, role.name), eq(roles.displayName, role.displayName))),
      )!,
    )
  if (filter.status !== undefined) conditions.push(eq(roles.status, filter.status))
  const where = conditions.length > 0 ? and(...conditions) : undefined
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(roles).where(where).orderBy(asc(roles.id)).limit(window.pageSize).offset(window.offset),
    db.select({ total: count() }).from(roles).where(where),
  ])
  return { rows, total }
}

/** Every role the user holds, enabled or not, by id. */
export async function rolesOfUser(db: Queryable, userId: number): Promise<RoleRow[]> {
  const rows = await db
    .select({ role: roles })
    .from(userRoles)
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .where(eq(userRoles.userId, userId))
    .orderBy(asc(roles.id))
  return rows.map((row) => row.role)
}

export async function holdersOfRole(db: Queryable, roleId: number) {
  return db
    .select({ id: users.id, username: users.username, name: users.name })
    .from(userRoles)
    .innerJoin(users, eq(users.id, userRoles.userId))
    .where(eq(userRoles.roleId, roleId))
    .orderBy(asc(users.id))
}

export async function revokeRole(db: Queryable, userId: number, roleId: number): Promise<void> {
  await db.delete(userRoles).where(and(eq(userRoles.userId, userId), eq(userRoles.roleId, roleId)))
}

/** The permissions a role grants: its links, or every permission for `admin`. */
export async function permissionsOfRole(db: Queryable, role: Pick<RoleRow, 'id' | 'name'>): Promise<PermissionRow[]> {
  if (role.name === ADMIN_ROLE) return db.select().from(permissions).orderBy(asc(permissions.id))
  const rows = await db
    .select({ permission: permissions })
    .from(rolePermissions)
    .innerJoin(permissions, eq(permissions.id, rolePermissions.permissionId))
    .where(eq(rolePermissions.roleId, role.id))
    .orderBy(asc(permissions.id))
  return rows.map((row) => row.permission)
}

/** The roles granting a permission: those linked to it, and `admin`, which holds them all. */
export async function rolesOfPermission(db: Queryable, permissionId: number): Promise<RoleRow[]> {
  const linked = db.select({ roleId: rolePermissions.roleId }).from(rolePermissions).where(eq(rolePermissions.permissionId, permissionId))
  return db
    .select()
    .from(roles)
    .where(or(eq(roles.name, ADMIN_ROLE), inArray(roles.id, linked)))
    .orderBy(asc(roles.id))
}

export async function linkPermission(db: Queryable, roleId: number, permissionId: number, at: Date): Promise<void> {
  await db.insert(rolePermissions).values({ roleId, permissionId, createdAt: at }).onConflictDoNothing()
}

export async function unlinkPermission(db: Queryable, roleId: number, permissionId: number): Promise<void> {
  await db.delete(rolePermissions).where(and(eq(rolePermissions.roleId, roleId), eq(rolePermissions.permissionId, permissionId)))
}

export async function findPermissionByName(db: Queryable, name: string): Promise<PermissionRow | null> {
  const [row] = await db.select().from(permissions).where(eq(permissions.name, name)).limit(1)
  return row ?? null
}

export async function insertPermission(db: Queryable, values: typeof permissions.$inferInsert): Promise<PermissionRow> {
  const [row] = await db.insert(permissions).values(values).returning()
  return row
}

/** `alsoNamed`: built-in permissions whose texts, as shown in the caller's language, match the search too. */
export async function listPermissions(db: Queryable, filter: { search?: string; resource?: string }, window: PageWindow, alsoNamed: string[] = []) {
  const conditions: SQL[] = []
  if (filter.search?.trim())
    conditions.push(
      or(
        containsAny(filter.search, [permissions.name, permissions.displayName, permissions.description]),
        alsoNamed.length > 0 ? inArray(permissions.name, alsoNamed) : undefined,
      )!,
    )
  if (filter.resource?.trim()) conditions.push(eq(permissions.resource, filter.resource.trim()))
  const where = conditions.length > 0 ? and(...conditions) : undefined
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(permissions).where(where).orderBy(asc(permissions.id)).limit(window.pageSize).offset(window.offset),
    db.select({ total: count() }).from(permissions).where(where),
  ])
  return { rows, total }
}

/** The username of an account, as refusals name it; null when it is gone. */
export async function usernameOf(db: Queryable, userId: number): Promise<string | null> {
  const [row] = await db.select({ username: users.username }).from(users).where(eq(users.id, userId)).limit(1)
  return row?.username ?? null
}
