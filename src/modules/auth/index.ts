import { Elysia, t } from 'elysia'
import type { AuthGuard, ClientIp } from '../../http/auth'
import { Envelope, type Replier } from '../../http/envelope'
import { errors } from '../../http/openapi'
import { say } from './messages'
import { ChangePasswordBody, LoginBody, Me, RefreshBody, TokenPair, UpdateMeBody } from './model'
import { User } from '../users/model'
import type { AuthService } from './service'

const detail = (summary: string, description: string, extra: object = {}) => ({ tags: ['Auth'], summary, description, ...extra })

export const authController = (guard: AuthGuard, reply: Replier, auth: AuthService, clientIp: ClientIp) =>
  new Elysia({ name: 'auth', prefix: '/api/v1/auth' })
    .use(guard)
    .post('/login', async ({ body, server, request }) => reply.ok(await auth.login(body.username, body.password, clientIp(server, request)), say.signedIn()), {
      body: LoginBody,
      response: Envelope(TokenPair),
      detail: detail(
        'Sign in with username and password',
        'Returns an access token (send it as `Authorization: Bearer <access_token>`) and a refresh token. Failed sign-ins are counted per username and client address.',
        errors({
          401: 'Wrong username or password (the same message for both), or the account is disabled',
          429: 'Too many failed sign-ins for this username from this address within 15 minutes; or, while the address looks like password spraying (many distinct usernames failed from it, unknown ones above all), a username that has not signed in from it within 90 days; or more than 2 sign-ins at once from this address',
          503: 'The service is busy checking other passwords',
        }),
      ),
    })
    .post('/refresh', async ({ body, server, request }) => reply.ok(await auth.refresh(body.refresh_token, clientIp(server, request)), say.tokensRefreshed()), {
      body: RefreshBody,
      response: Envelope(TokenPair),
      detail: detail(
        'Trade a refresh token for a new pair (the old one stops working)',
        'Refresh tokens rotate: each works once. Presenting one that was already used ends every session of that sign-in.',
        errors({ 401: 'Not a current refresh token (unknown, used, expired, or an access token), or the account is disabled or gone: sign in again' }),
      ),
    })
    .post('/logout', async ({ principal, actor }) => reply.ok(await auth.logout(principal, actor).then(() => null), say.signedOut()), {
      auth: true,
      response: Envelope(t.Null()),
      detail: detail(
        'Sign out: revokes every refresh token and access token of the caller',
        'Ends every session of the caller, on every device; access tokens already handed out stop working at once.',
      ),
    })
    .get('/me', async ({ principal }) => reply.ok(await auth.me(principal)), {
      auth: true,
      response: Envelope(Me),
      detail: detail(
        'The caller: user, roles, permissions and linked employee',
        '`roles` lists the enabled roles, `permissions` what they grant; `employee` is null when the account is not linked to an employee record.',
      ),
    })
    .put('/me', async ({ principal, actor, body }) => reply.ok(await auth.updateMe(principal, actor, body), say.profileUpdated()), {
      auth: true,
      body: UpdateMeBody,
      response: Envelope(User),
      detail: detail(
        'Change your own name, phone, e-mail or avatar (username, status and roles are an administrator’s)',
        'Fields left out stay as they are; null clears phone, e-mail or avatar.',
      ),
    })
    .put(
      '/password',
      async ({ principal, actor, body }) =>
        reply.ok(await auth.changePassword(principal, actor, body.old_password, body.new_password), say.passwordChanged()),
      {
        auth: true,
        body: ChangePasswordBody,
        response: Envelope(TokenPair),
        detail: detail(
          'Change your own password; returns a fresh token pair',
          'Every other session of the account is signed out; continue with the pair returned.',
          errors({
            400: '`old_password` is not correct',
            429: 'More than 2 password checks at once from this address',
            503: 'The service is busy checking other passwords',
          }),
        ),
      },
    )
