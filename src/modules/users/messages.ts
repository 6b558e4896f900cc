import { defineMessages, ruleText } from '../../lib/messages'

/** The messages of accounts (users) and the administrators' routes over them. */
export const say = defineMessages('users', {
  missing: { en: 'User {id} does not exist', zh: '账号 {id} 不存在' },
  unknownRoles: { en: 'Unknown role{n:s}: {names}', zh: '角色不存在：{names}' },
  unknownNames: { en: 'unknown: {names}', zh: '不存在：{names}' },
  usernameTaken: {
    en: 'The username "{username}" is already taken (usernames are unique ignoring case)',
    zh: '用户名“{username}”已被使用（用户名不区分大小写）',
  },
  lastAdmin: {
    en: 'User "{username}" is the last enabled administrator and cannot {change}; make another user admin first',
    zh: '账号“{username}”是最后一个启用的管理员，不能{change}；请先把另一个账号设为管理员',
  },
  beDisabled: { en: 'be disabled', zh: '被停用' },
  loseAdmin: { en: 'lose role admin', zh: '失去 admin 角色' },
  beDeleted: { en: 'be deleted', zh: '被删除' },

  // the envelope's message of a successful answer
  created: { en: 'User created', zh: '账号已创建' },
  updated: { en: 'User updated', zh: '账号已更新' },
  deleted: { en: 'User deleted', zh: '账号已删除' },
  passwordSet: { en: 'Password set; the user was signed out everywhere', zh: '密码已设置；该账号已在所有设备上退出登录' },
})

/** The rule texts of the models. */
export const rules = {
  username: ruleText({
    en: 'must be 3 to 64 letters, digits, "_", ".", "@" or "-", starting with a letter or digit',
    zh: '必须是 3 到 64 个字母、数字或 "_"、"."、"@"、"-"，并以字母或数字开头',
  }),
}
