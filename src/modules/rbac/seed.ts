import { eq } from 'drizzle-orm'
import type { Database } from '../../db/client'
import { permissions, rolePermissions, roles } from '../../db/schema'
import { BUILT_IN_ROLES, EMPLOYEE_PERMISSIONS, EMPLOYEE_ROLE, PERMISSION_CATALOGUE, splitPermission } from './catalogue'

/**
 * Creates the permission catalogue and the built-in roles, with their English texts (answers show
 * them in the request's language: src/modules/rbac/messages.ts). Idempotent and safe when
 * several instances start at once. Role `employee` receives its permissions only when
 * they are first created, so an administrator's later removal sticks across restarts.
 */
export async function seedAccessControl(database: Database, at: Date): Promise<void> {
  await database.write(async (tx) => {
    const created = await tx
      .insert(permissions)
      .values(
        PERMISSION_CATALOGUE.map((p) => ({
          name: p.name,
          displayName: p.displayName,
          description: p.description,
          ...splitPermission(p.name),
          createdAt: at,
          updatedAt: at,
        })),
      )
      .onConflictDoNothing()
      .returning({ id: permissions.id, name: permissions.name })
    await tx
      .insert(roles)
      .values(BUILT_IN_ROLES.map((r) => ({ name: r.name, displayName: r.displayName, description: r.description, status: 1, createdAt: at, updatedAt: at })))
      .onConflictDoNothing()

    const forEmployees = created.filter((p) => (EMPLOYEE_PERMISSIONS as readonly string[]).includes(p.name))
    if (forEmployees.length === 0) return
    const [employeeRole] = await tx.select({ id: roles.id }).from(roles).where(eq(roles.name, EMPLOYEE_ROLE))
    await tx
      .insert(rolePermissions)
      .values(forEmployees.map((p) => ({ roleId: employeeRole.id, permissionId: p.id, createdAt: at })))
      .onConflictDoNothing()
  })
}

