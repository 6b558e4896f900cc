import { t } from 'elysia'
import { Email, Password, Phone, Status, Text, Timestamp } from '../../http/models'
import { pageQuery } from '../../http/pagination'

export const Username = t.String({
  pattern: '^[A-Za-z0-9][A-Za-z0-9_.@-]{2,63}$',
  description: '3 to 64 characters: letters, digits, "_", ".", "@" or "-"; unique ignoring case',
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

export const CreateUserBody = t.Object({
  username: Username,
  password: Password,
  name: Text(100),
  phone: t.Optional(t.Nullable(Phone)),
  email: t.Optional(t.Nullable(Email)),
  avatar: t.Optional(t.Nullable(t.String({ maxLength: 2048 }))),
  status: t.Optional(Status),
  roles: t.Optional(RoleNames),
})
export type CreateUserInput = typeof CreateUserBody.static

export const UpdateUserBody = t.Object({
  username: t.Optional(Username),
  name: t.Optional(Text(100)),
  phone: t.Optional(t.Nullable(Phone)),
  email: t.Optional(t.Nullable(Email)),
  avatar: t.Optional(t.Nullable(t.String({ maxLength: 2048 }))),
  status: t.Optional(Status),
  roles: t.Optional(RoleNames),
})
export type UpdateUserInput = typeof UpdateUserBody.static

export const SetPasswordBody = t.Object({ password: Password })

export const UserListQuery = t.Object({
  ...pageQuery(10),
  search: t.Optional(t.String({ maxLength: 100, description: 'matches username, name, phone or e-mail' })),
  // a query value arrives as text, which the literal union of Status never matches; an integer is coerced
  status: t.Optional(t.Integer({ minimum: 0, maximum: 1, error: 'status must be 0 or 1', description: '1 = enabled, 0 = disabled' })),
})
export type UserListQuery = typeof UserListQuery.static
