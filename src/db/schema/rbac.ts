import { sql } from 'drizzle-orm'
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { timestamps } from './columns'
import { users } from './users'

export const roles = sqliteTable(
  'roles',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    name: text('name').notNull(),
    displayName: text('display_name').notNull().default(''),
    description: text('description').notNull().default(''),
    status: integer('status').notNull().default(1),
    ...timestamps,
  },
  (t) => [uniqueIndex('roles_name_unique').on(t.name), check('roles_status_check', sql`${t.status} IN (0, 1)`)],
)

export const permissions = sqliteTable(
  'permissions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    name: text('name').notNull(),
    displayName: text('display_name').notNull().default(''),
    description: text('description').notNull().default(''),
    resource: text('resource').notNull(),
    action: text('action').notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex('permissions_name_unique').on(t.name), index('permissions_resource_idx').on(t.resource)],
)

export const userRoles = sqliteTable(
  'user_roles',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    roleId: integer('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
    createdAt: integer('created_at', { mode: 'timestamp_ms' })
      .notNull()
      .default(sql`(unixepoch('subsec') * 1000)`),
  },
  (t) => [primaryKey({ columns: [t.userId, t.roleId] }), index('user_roles_role_idx').on(t.roleId)],
)

export const rolePermissions = sqliteTable(
  'role_permissions',
  {
    roleId: integer('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
    permissionId: integer('permission_id')
      .notNull()
      .references(() => permissions.id, { onDelete: 'cascade' }),
    createdAt: integer('created_at', { mode: 'timestamp_ms' })
      .notNull()
      .default(sql`(unixepoch('subsec') * 1000)`),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.permissionId] }), index('role_permissions_permission_idx').on(t.permissionId)],
)
