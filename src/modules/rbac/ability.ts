import { AbilityBuilder, createMongoAbility, type MongoAbility } from '@casl/ability'
import { ADMIN_ROLE, splitPermission } from './catalogue'

export type AppAbility = MongoAbility

/**
 * The wildcard resource. CASL's default is `all`, so a permission created through the
 * API as `all:manage` would have made its holders administrators; `*` cannot be in a
 * permission name. The action wildcard stays `manage`: `files:manage` means every
 * action on files.
 */
const ANY_RESOURCE = '*'

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
    if (grant.role === ADMIN_ROLE) can('manage', ANY_RESOURCE)
    for (const permission of grant.permissions) {
      const { resource, action } = splitPermission(permission)
      can(action, resource)
    }
  }
  return build({ anySubjectType: ANY_RESOURCE })
}

export function allows(ability: AppAbility, permission: string): boolean {
  const { resource, action } = splitPermission(permission)
  return ability.can(action, resource)
}
