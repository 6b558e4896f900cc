import { Elysia, t } from 'elysia'
import type { AuthGuard } from '../../http/auth'
import { Envelope, type Replier } from '../../http/envelope'
import { IdParams } from '../../http/models'
import { errors } from '../../http/openapi'
import { P1 } from '../../http/pagination'
import { CreateUserBody, SetPasswordBody, UpdateUserBody, User, UserListQuery } from './model'
import { say } from './messages'
import type { UsersService } from './service'

const detail = (summary: string, extra: object = {}) => ({ tags: ['Users'], summary, ...extra })
const PEOPLE_RULE = 'The account holds permissions your roles do not grant, or it is your own (use /api/v1/auth/me)'

export const usersController = (guard: AuthGuard, reply: Replier, users: UsersService) =>
  new Elysia({ name: 'users', prefix: '/api/v1/admin/users' })
    .use(guard)
    .post('', async ({ body, actor, principal, set }) => reply.created(set, await users.create(body, actor, principal), say.created()), {
      permission: 'users:create',
      body: CreateUserBody,
      response: { 201: Envelope(User) },
      detail: detail(
        'Create a user',
        errors({
          400: 'an unknown role name',
          403: 'The roles given grant permissions your own roles do not',
          409: 'The username is taken (usernames are unique ignoring case)',
        }),
      ),
    })
    .get('', async ({ query }) => reply.ok(await users.list(query)), {
      permission: 'users:read',
      query: UserListQuery,
      response: Envelope(P1(User)),
      detail: detail('List users'),
    })
    .get('/:id', async ({ params }) => reply.ok(await users.get(params.id)), {
      permission: 'users:read',
      params: IdParams,
      response: Envelope(User),
      detail: detail('Read a user'),
    })
    .put('/:id', async ({ params, body, actor, principal }) => reply.ok(await users.update(params.id, body, actor, principal), say.updated()), {
      permission: 'users:update',
      params: IdParams,
      body: UpdateUserBody,
      response: Envelope(User),
      detail: detail(
        'Update a user; `roles` replaces the roles held',
        {
          description: 'Fields left out stay as they are.',
          ...errors({
            400: 'an unknown role name',
            403: PEOPLE_RULE,
            409: 'The username is taken, or the change would leave no enabled administrator',
          }),
        },
      ),
    })
    .delete('/:id', async ({ params, actor, principal }) => reply.ok(await users.remove(params.id, actor, principal).then(() => null), say.deleted()), {
      permission: 'users:delete',
      params: IdParams,
      response: Envelope(t.Null()),
      detail: detail('Delete a user', errors({ 403: PEOPLE_RULE, 409: 'The user is the last enabled administrator' })),
    })
    .put(
      '/:id/password',
      async ({ params, body, actor, principal }) =>
        reply.ok(
          await users.setPassword(params.id, body.password, actor, principal).then(() => null),
          say.passwordSet(),
        ),
      {
        permission: 'users:update',
        params: IdParams,
        body: SetPasswordBody,
        response: Envelope(t.Null()),
        detail: detail("Set a user's password", {
          description: 'The user is signed out everywhere.',
          ...errors({ 403: PEOPLE_RULE }),
        }),
      },
    )
