import { t } from 'elysia'
import { Password } from '../../http/models'
import { CreateUserBody, User } from '../users/model'

export const LoginBody = t.Object(
  {
    username: t.String({ minLength: 1, maxLength: 64 }),
    password: t.String({ minLength: 1, maxLength: 128 }),
  },
  { examples: [{ username: 'admin', password: 'change-me-please' }] },
)

/**
 * Any text is looked up, whatever its length: what is not a current refresh token (an access
 * token sent by mistake, a truncated one, "") is a 401, the answer clients act on by signing in again.
 */
export const RefreshBody = t.Object(
  { refresh_token: t.String({ description: 'the refresh_token of the last sign-in or refresh' }) },
  { examples: [{ refresh_token: 'kq3Y0d8Jx2mVtq4n8ZrW5cQ1sE7uL9aH6fB0gN2pR4o' }] },
)

export const ChangePasswordBody = t.Object(
  {
    old_password: t.String({ minLength: 1, maxLength: 128 }),
    new_password: Password,
  },
  { examples: [{ old_password: 'change-me-please', new_password: 'a-longer-passphrase-2024' }] },
)

/** What people change of their own account themselves; username, status and roles are an administrator's. */
export const UpdateMeBody = t.Partial(t.Pick(CreateUserBody, ['name', 'phone', 'email', 'avatar']), {
  examples: [{ name: 'Li Wei', phone: '+86 138 0013 8000', email: 'li.wei@example.com' }],
})
export type UpdateMeInput = typeof UpdateMeBody.static

export const TokenPair = t.Object({
  access_token: t.String(),
  refresh_token: t.String(),
  token_type: t.Literal('Bearer'),
  expires_in: t.Integer({ description: 'seconds until the access token expires' }),
  user: t.Object({ id: t.Integer(), username: t.String(), name: t.String(), roles: t.Array(t.String()) }),
})
export type TokenPair = typeof TokenPair.static

export const LinkedEmployee = t.Object({
  id: t.Integer(),
  employee_no: t.Nullable(t.String()),
  name: t.String(),
  department_id: t.Nullable(t.Integer()),
  company_id: t.Nullable(t.Integer()),
  position: t.Nullable(t.String()),
  status: t.Integer(),
})

export const Me = t.Object({
  user: User,
  roles: t.Array(t.String(), { description: 'enabled roles that grant permissions' }),
  permissions: t.Array(t.String()),
  employee: t.Nullable(LinkedEmployee),
})
export type Me = typeof Me.static
