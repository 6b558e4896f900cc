import { describe, expect, test } from 'bun:test'
import { allows, defineAbility, type RoleGrant } from '../../src/modules/rbac/ability'
import { PERMISSION_CATALOGUE, splitPermission } from '../../src/modules/rbac/catalogue'

const hr: RoleGrant = { role: 'hr', permissions: ['salaries:read', 'salaries:create'] }
const viewer: RoleGrant = { role: 'viewer', permissions: ['users:read', 'employees:read'] }

describe('the permission decision', () => {
  const cases: [string, RoleGrant[], string, boolean][] = [
    ['no roles grant nothing', [], 'users:read', false],
    ['admin grants every catalogue permission', [{ role: 'admin', permissions: [] }], 'users:delete', true],
    ['admin grants permissions created later too', [{ role: 'admin', permissions: [] }], 'reports:export', true],
    ['a role grants exactly its permissions', [hr], 'salaries:read', true],
    ['... and not the other actions of the resource', [hr], 'salaries:delete', false],
    ['... nor other resources', [hr], 'users:read', false],
    ['grants of several roles add up (first)', [hr, viewer], 'salaries:create', true],
    ['grants of several roles add up (second)', [hr, viewer], 'employees:read', true],
    ['read does not imply write', [viewer], 'employees:update', false],
    ['resource:manage grants every action of that resource', [{ role: 'files', permissions: ['files:manage'] }], 'files:delete', true],
    ['resource:manage stays within its resource', [{ role: 'files', permissions: ['files:manage'] }], 'users:read', false],
    ['a role named like admin is not admin', [{ role: 'admins', permissions: [] }], 'users:read', false],
    ['a permission on resource "all" is no wildcard', [{ role: 'x', permissions: ['all:manage'] }], 'users:read', false],
    ['... and grants what it names', [{ role: 'x', permissions: ['all:manage'] }], 'all:read', true],
    ['resources with a colon split at the last one', [{ role: 'x', permissions: ['attendance:rules:read'] }], 'attendance:rules:read', true],
  ]
  test.each(cases)('%s', (_, grants, permission, expected) => {
    expect(allows(defineAbility(grants), permission)).toBe(expected)
  })

  test('every catalogue permission is resource:action and unique', () => {
    const names = PERMISSION_CATALOGUE.map((p) => p.name)
    expect(new Set(names).size).toBe(names.length)
    for (const name of names) {
      const { resource, action } = splitPermission(name)
      expect(resource).toMatch(/^[a-z_]+$/)
      expect(action).toMatch(/^[a-z_]+$/)
    }
  })
})
