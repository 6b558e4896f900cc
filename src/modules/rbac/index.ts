import { Elysia, t } from 'elysia'
import type { AuthGuard } from '../../http/auth'
import { Envelope, type Replier } from '../../http/envelope'
import { errors } from '../../http/openapi'
import type { LocalePlugin } from '../../http/locale'
import { IdParams } from '../../http/models'
import { P1 } from '../../http/pagination'
import {
  CreatePermissionBody,
  CreateRoleBody,
  Permission,
  PermissionListQuery,
  PermissionNameParams,
  Role,
  RoleAssignmentBody,
  RoleHolder,
  RoleListQuery,
  RoleNameParams,
  RolePermissionBody,
  UpdateRoleBody,
  UserIdParams,
} from './model'
import { say } from './messages'
import type { RbacService } from './service'

const roleDetail = (summary: string, extra: object = {}) => ({ tags: ['Roles'], summary, ...extra })
const permissionDetail = (summary: string, extra: object = {}) => ({ tags: ['Permissions'], summary, ...extra })
const HANDS_OUT = 'needs every permission involved: nobody hands out more than they hold'
const Done = Envelope(t.Null())

export const rolesController = (guard: AuthGuard, locale: LocalePlugin, reply: Replier, rbac: RbacService) =>
  new Elysia({ name: 'roles', prefix: '/api/v1/admin/roles' })
    .use(guard)
    .use(locale)
    .post('', async ({ body, actor, locale, set }) => reply.created(set, await rbac.createRole(body, actor, locale), say.roleCreated()), {
      permission: 'roles:create',
      body: CreateRoleBody,
      response: { 201: Envelope(Role) },
      detail: roleDetail('Create a role', errors({ 409: 'A role with this name exists' })),
    })
    .get('', async ({ query, locale }) => reply.ok(await rbac.listRoles(query, locale)), {
      permission: 'roles:read',
      query: RoleListQuery,
      response: Envelope(P1(Role)),
      detail: roleDetail('List roles'),
    })
    .post(
      '/assign',
      async ({ body, actor, principal }) => reply.ok(await rbac.assign(body, actor, principal).then(() => null), say.roleAssigned()),
      {
        permission: 'roles:assign',
        body: RoleAssignmentBody,
        response: Done,
        detail: roleDetail('Give a user a role (holding it already is fine)', {
          description: `Takes effect on the user's next request; ${HANDS_OUT}.`,
          ...errors({ 403: 'The role or the account holds permissions your roles do not grant, or the account is your own', 404: 'No such user or role' }),
        }),
      },
    )
    .post(
      '/revoke',
      async ({ body, actor, principal }) => reply.ok(await rbac.revoke(body, actor, principal).then(() => null), say.roleRevoked()),
      {
        permission: 'roles:assign',
        body: RoleAssignmentBody,
        response: Done,
        detail: roleDetail('Take a role from a user', {
          description: `Takes effect on the user's next request; ${HANDS_OUT}.`,
          ...errors({
            403: 'The role or the account holds permissions your roles do not grant, or the account is your own',
            404: 'No such user or role',
            409: 'It would leave no enabled administrator',
          }),
        }),
      },
    )
    .get('/users/:user_id', async ({ params, locale }) => reply.ok(await rbac.rolesOfUser(params.user_id, locale)), {
      permission: 'roles:read',
      params: UserIdParams,
      response: Envelope(t.Array(Role)),
      detail: roleDetail('Roles a user holds', errors({ 404: 'No such user' })),
    })
    .get('/by-name/:role_name/users', async ({ params }) => reply.ok(await rbac.holdersOfRole(params.role_name)), {
      permission: 'roles:read',
      params: RoleNameParams,
      response: Envelope(t.Array(RoleHolder)),
      detail: roleDetail('Users holding a role', errors({ 404: 'No such role' })),
    })
    .post(
      '/permissions/add',
      async ({ body, actor, principal }) =>
        reply.ok(await rbac.addPermission(body, actor, principal).then(() => null), say.permissionAdded()),
      {
        permission: 'permissions:grant',
        body: RolePermissionBody,
        response: Done,
        detail: roleDetail('Add a permission to a role', {
          description: `Takes effect on the holders' next request; ${HANDS_OUT}.`,
          ...errors({ 403: 'Your roles do not grant that permission', 404: 'No such role or permission' }),
        }),
      },
    )
    .post(
      '/permissions/remove',
      async ({ body, actor, principal }) =>
        reply.ok(await rbac.removePermission(body, actor, principal).then(() => null), say.permissionRemoved()),
      {
        permission: 'permissions:grant',
        body: RolePermissionBody,
        response: Done,
        detail: roleDetail('Remove a permission from a role', {
          description: `Takes effect on the holders' next request; ${HANDS_OUT}.`,
          ...errors({ 403: 'Your roles do not grant that permission, or the role is admin (it holds every permission)', 404: 'No such role or permission' }),
        }),
      },
    )
    .get('/by-name/:role_name/permissions', async ({ params, locale }) => reply.ok(await rbac.permissionsOfRole(params.role_name, locale)), {
      permission: 'roles:read',
      params: RoleNameParams,
      response: Envelope(t.Array(Permission)),
      detail: roleDetail('Permissions a role grants (admin: all)', errors({ 404: 'No such role' })),
    })
    .get('/:id', async ({ params, locale }) => reply.ok(await rbac.getRole(params.id, locale)), {
      permission: 'roles:read',
      params: IdParams,
      response: Envelope(Role),
      detail: roleDetail('Read a role', errors({ 404: 'No such role' })),
    })
    .put(
      '/:id',
      async ({ params, body, actor, principal, locale }) => reply.ok(await rbac.updateRole(params.id, body, actor, principal, locale), say.roleUpdated()),
      {
        permission: 'roles:update',
        params: IdParams,
        body: UpdateRoleBody,
        response: Envelope(Role),
        detail: roleDetail('Update a role’s display name, description or status; its name cannot change', {
          description:
            'A role keeps its name: `name` may be sent (clients that send the whole role) but must equal the current name, else 400. Enabling or disabling a role needs every permission it grants.',
          ...errors({
            400: '`name` differs from the role’s name (a role cannot be renamed; create a new role instead)',
            403: 'Disabling admin, or switching a role that grants permissions your roles do not',
            404: 'No such role',
          }),
        }),
      },
    )
    .delete('/:id', async ({ params, actor, principal }) => reply.ok(await rbac.removeRole(params.id, actor, principal).then(() => null), say.roleDeleted()), {
      permission: 'roles:delete',
      params: IdParams,
      response: Done,
      detail: roleDetail('Delete a role with its user and permission links', {
        description: `Its holders lose it on their next request; ${HANDS_OUT}.`,
        ...errors({ 403: 'The role is admin or employee (built in), or grants permissions your roles do not', 404: 'No such role' }),
      }),
    })

export const permissionsController = (guard: AuthGuard, locale: LocalePlugin, reply: Replier, rbac: RbacService) =>
  new Elysia({ name: 'permissions', prefix: '/api/v1/admin/permissions' })
    .use(guard)
    .use(locale)
    .post('', async ({ body, actor, set, locale }) => reply.created(set, await rbac.createPermission(body, actor, locale), say.permissionCreated()), {
      permission: 'permissions:create',
      body: CreatePermissionBody,
      response: { 201: Envelope(Permission) },
      detail: permissionDetail('Create a permission', {
        description: '`resource` and `action` are taken from the name when left out; when given they must match it.',
        ...errors({ 409: 'A permission with this name exists' }),
      }),
    })
    .get('', async ({ query, locale }) => reply.ok(await rbac.listPermissions(query, locale)), {
      permission: 'permissions:read',
      query: PermissionListQuery,
      response: Envelope(P1(Permission)),
      detail: permissionDetail('List permissions'),
    })
    .get(
      '/by-name/:permission_name/roles',
      async ({ params, locale }) => reply.ok(await rbac.rolesOfPermission(params.permission_name, locale)),
      {
        permission: 'permissions:read',
        params: PermissionNameParams,
        response: Envelope(t.Array(Role)),
        detail: permissionDetail('Roles granting a permission (admin holds all)', errors({ 404: 'No such permission' })),
      },
    )
