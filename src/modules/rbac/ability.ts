import { AbilityBuilder, createMongoAbility, type MongoAbility } from '@casl/ability'
import { ADMIN_ROLE, splitPermission } from './catalogue'

export type AppAbility = MongoAbility

export interface RoleGrant {
  role: string
  permissions: readonly string[]
}

/**
 * The ability of a caller from the grants of their enabled roles: `admin` may do
 * everything, any other role exactly its `resource:action` permissions.
 */
export function defineAbility(grants: readonly RoleGrant[]): AppAbility {
  const { can, build } = new AbilityBuilder<AppAbility>(createMongoAbility)
  for (const grant of grants) {
    if (grant.role === ADMIN_ROLE) can('manage', 'all')
    for (const permission of grant.permissions) {
      const { resource, action } = splitPermission(permission)
      can(action, resource)
    }
  }
  return build()
}

export function allows(ability: AppAbility, permission: string): boolean {
  const { resource, action } = splitPermission(permission)
  return ability.can(action, resource)
}
