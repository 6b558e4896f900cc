import { Elysia, t } from 'elysia'
import type { AuthGuard, ClientIp } from '../../http/auth'
import { Envelope, type Replier } from '../../http/envelope'
import { ChangePasswordBody, LoginBody, Me, RefreshBody, TokenPair, UpdateMeBody } from './model'
import { User } from '../users/model'
import type { AuthService } from './service'

const detail = (summary: string) => ({ tags: ['Auth'], summary })

export const authController = (guard: AuthGuard, reply: Replier, auth: AuthService, clientIp: ClientIp) =>
  new Elysia({ name: 'auth', prefix: '/api/v1/auth' })
    .use(guard)
    .post('/login', async ({ body, server, request }) => reply.ok(await auth.login(body.username, body.password, clientIp(server, request)), 'Signed in'), {
      body: LoginBody,
      response: Envelope(TokenPair),
      detail: detail('Sign in with username and password'),
    })
    .post('/refresh', async ({ body, server, request }) => reply.ok(await auth.refresh(body.refresh_token, clientIp(server, request)), 'Tokens refreshed'), {
      body: RefreshBody,
      response: Envelope(TokenPair),
      detail: detail('Trade a refresh token for a new pair (the old one stops working)'),
    })
    .post('/logout', async ({ principal, actor }) => reply.ok(await auth.logout(principal, actor).then(() => null), 'Signed out everywhere'), {
      auth: true,
      response: Envelope(t.Null()),
      detail: detail('Sign out: revokes every refresh token and access token of the caller'),
    })
    .get('/me', async ({ principal }) => reply.ok(await auth.me(principal)), {
      auth: true,
      response: Envelope(Me),
      detail: detail('The caller: user, roles, permissions and linked employee'),
    })
    .put('/me', async ({ principal, actor, body }) => reply.ok(await auth.updateMe(principal, actor, body), 'Profile updated'), {
      auth: true,
      body: UpdateMeBody,
      response: Envelope(User),
      detail: detail('Change your own name, phone, e-mail or avatar (username, status and roles are an administrator’s)'),
    })
    .put(
      '/password',
      async ({ principal, actor, body }) =>
        reply.ok(await auth.changePassword(principal, actor, body.old_password, body.new_password), 'Password changed; other sessions were signed out'),
      {
        auth: true,
        body: ChangePasswordBody,
        response: Envelope(TokenPair),
        detail: detail('Change your own password; returns a fresh token pair'),
      },
    )
