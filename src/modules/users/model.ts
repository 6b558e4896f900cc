import { t } from 'elysia'
import { Email, Password, Phone, Status, StatusFilter, Text, Timestamp } from '../../http/models'
import { pageQuery } from '../../http/pagination'
import { rules } from './messages'

export const Username = t.String({
  pattern: '^[A-Za-z0-9][A-Za-z0-9_.@-]{2,63}$',
  description: '3 to 64 characters: letters, digits, "_", ".", "@" or "-"; unique ignoring case',
  error: rules.username,
})

const RoleNames = t.Array(t.String({ minLength: 1, maxLength: 50 }), { maxItems: 50, description: 'role names' })

export const User = t.Object({
  id: t.Integer(),
  username: t.String(),
  name: t.String(),
  phone: t.Nullable(t.String()),
  email: t.Nullable(t.String()),
  avatar: t.Nullable(t.String()),
  status: t.Integer({ description: '1 = enabled, 0 = disabled' }),
  roles: t.Array(t.String()),
  created_at: Timestamp,
  updated_at: Timestamp,
})
export type UserResponse = typeof User.static

const userFields = {
  username: Username,
  password: Password,
  name: Text(100),
  phone: t.Optional(t.Nullable(Phone)),
  email: t.Optional(t.Nullable(Email)),
  avatar: t.Optional(t.Nullable(t.String({ maxLength: 2048 }))),
  status: t.Optional(Status()),
  roles: t.Optional(RoleNames),
}

export const CreateUserBody = t.Object(userFields, {
  examples: [{ username: 'li.wei', password: 'first-day-password', name: 'Li Wei', email: 'li.wei@example.com', roles: ['employee'] }],
})
export type CreateUserInput = typeof CreateUserBody.static

export const UpdateUserBody = t.Partial(t.Omit(t.Object(userFields), ['password']), {
  examples: [{ name: 'Li Wei', phone: '+86 138 0013 8000', status: 1 }],
})
export type UpdateUserInput = typeof UpdateUserBody.static

export const SetPasswordBody = t.Object({ password: Password }, { examples: [{ password: 'a-new-password-2024' }] })

export const UserListQuery = t.Object({
  ...pageQuery(10),
  search: t.Optional(t.String({ maxLength: 100, description: 'matches username, name, phone or e-mail' })),
  status: t.Optional(StatusFilter()),
})
export type UserListQuery = typeof UserListQuery.static
