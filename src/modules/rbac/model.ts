import { t } from 'elysia'
import { Id, PositiveInt, Status, StatusFilter, Text, Timestamp } from '../../http/models'
import { pageQuery } from '../../http/pagination'
import { ruleText } from '../../lib/messages'
import { PERMISSION_NAME_PATTERN } from './catalogue'

export const RoleName = t.String({
  pattern: '^[a-z][a-z_]{1,49}$',
  description: '2 to 50 lowercase letters or "_", starting with a letter; unique; cannot be changed',
  examples: ['hr'],
  error: ruleText({ en: 'must be 2 to 50 lowercase letters or "_", starting with a letter', zh: '必须是 2 到 50 个小写字母或“_”，并以字母开头' }),
})

export const PermissionNameField = t.String({
  pattern: PERMISSION_NAME_PATTERN.source,
  description: '`resource:action` in lowercase letters, digits, "_" or "-"',
  examples: ['salaries:read'],
  error: ruleText({
    en: 'must be resource:action in lowercase letters, digits, "_" or "-", such as salaries:read',
    zh: '必须是由小写字母、数字、“_”或“-”组成的 resource:action 形式，例如 salaries:read',
  }),
})

const Part = (what: string) =>
  t.String({
    pattern: '^[a-z][a-z0-9_-]{0,49}$',
    description: `the ${what} part of the name; taken from the name when left out`,
    error: ruleText({ en: 'must be 1 to 50 lowercase letters, digits, "_" or "-", starting with a letter', zh: '必须是 1 到 50 个小写字母、数字、“_”或“-”，并以字母开头' }),
  })

const SEEDED_ROLE_TEXT = 'for the built-in roles, in the language of Accept-Language while it is the text they were created with'
export const Role = t.Object({
  id: t.Integer(),
  name: t.String({ description: 'the stable code clients send (admin, employee, …)' }),
  display_name: t.String({ description: SEEDED_ROLE_TEXT }),
  description: t.String({ description: SEEDED_ROLE_TEXT }),
  status: t.Integer({ description: '1 = enabled, 0 = disabled (grants nothing)' }),
  status_text: t.String({ description: 'enabled / disabled, or 启用 / 禁用 with Accept-Language: zh' }),
  created_at: Timestamp,
  updated_at: Timestamp,
})
export type RoleResponse = typeof Role.static

const SEEDED_PERMISSION_TEXT = 'for the built-in permissions, in the language of Accept-Language'
export const Permission = t.Object({
  id: t.Integer(),
  name: t.String(),
  display_name: t.String({ description: SEEDED_PERMISSION_TEXT }),
  description: t.String({ description: SEEDED_PERMISSION_TEXT }),
  resource: t.String(),
  action: t.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
})
export type PermissionResponse = typeof Permission.static

export const RoleHolder = t.Object({ id: t.Integer(), username: t.String(), name: t.String() })
export type RoleHolderResponse = typeof RoleHolder.static

export const CreateRoleBody = t.Object(
  {
    name: RoleName,
    display_name: t.Optional(Text(100)),
    description: t.Optional(t.String({ maxLength: 500 })),
    status: t.Optional(Status()),
  },
  { examples: [{ name: 'hr', display_name: 'Human resources', description: 'Manages employees and salaries', status: 1 }] },
)
export type CreateRoleInput = typeof CreateRoleBody.static

export const UpdateRoleBody = t.Object(
  {
    name: t.Optional(t.String({ maxLength: 50, description: 'must equal the current name when sent (a role cannot be renamed: 400)' })),
    display_name: t.Optional(Text(100)),
    description: t.Optional(t.String({ maxLength: 500 })),
    status: t.Optional(Status()),
  },
  { examples: [{ display_name: 'HR team', description: 'Manages employee records and salaries', status: 1 }] },
)
export type UpdateRoleInput = typeof UpdateRoleBody.static

export const RoleListQuery = t.Object({
  ...pageQuery(10),
  search: t.Optional(t.String({ maxLength: 100, description: 'part of the name or display name, ignoring case' })),
  status: t.Optional(StatusFilter()),
})
export type RoleListQuery = typeof RoleListQuery.static

export const RoleAssignmentBody = t.Object(
  { user_id: Id, role_name: t.String({ minLength: 1, maxLength: 50 }) },
  { examples: [{ user_id: 2, role_name: 'hr' }] },
)
export type RoleAssignmentInput = typeof RoleAssignmentBody.static

export const RolePermissionBody = t.Object(
  {
    role_name: t.String({ minLength: 1, maxLength: 50 }),
    permission_name: t.String({ minLength: 1, maxLength: 101 }),
  },
  { examples: [{ role_name: 'hr', permission_name: 'salaries:read' }] },
)
export type RolePermissionInput = typeof RolePermissionBody.static

export const CreatePermissionBody = t.Object(
  {
    name: PermissionNameField,
    display_name: t.Optional(Text(100)),
    description: t.Optional(t.String({ maxLength: 500 })),
    resource: t.Optional(Part('resource')),
    action: t.Optional(Part('action')),
  },
  { examples: [{ name: 'reports:read', display_name: 'Read reports', description: 'Open the monthly reports' }] },
)
export type CreatePermissionInput = typeof CreatePermissionBody.static

export const PermissionListQuery = t.Object({
  ...pageQuery(10),
  search: t.Optional(t.String({ maxLength: 100, description: 'part of the name, display name or description, ignoring case' })),
  resource: t.Optional(t.String({ maxLength: 50, description: 'exact resource, e.g. salaries' })),
})
export type PermissionListQuery = typeof PermissionListQuery.static

export const UserIdParams = t.Object({ user_id: PositiveInt('user_id') })
export const RoleNameParams = t.Object({ role_name: t.String({ minLength: 1, maxLength: 50 }) })
export const PermissionNameParams = t.Object({ permission_name: t.String({ minLength: 1, maxLength: 101 }) })
