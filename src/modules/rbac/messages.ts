import type { Locale } from '../../config'
import { defineMessages, render, type Entry, type Message } from '../../lib/messages'
import { BUILT_IN_ROLES, PERMISSION_CATALOGUE } from './catalogue'

/** Roles, permissions, and the rules on who may change people and decide matters. */
export const say = defineMessages('rbac', {
  roleCreated: { en: 'Role created', zh: '角色已创建' },
  roleUpdated: { en: 'Role updated', zh: '角色已更新' },
  roleDeleted: { en: 'Role deleted', zh: '角色已删除' },
  roleAssigned: { en: 'Role assigned', zh: '角色已分配' },
  roleRevoked: { en: 'Role revoked', zh: '角色已收回' },
  permissionAdded: { en: 'Permission added to the role', zh: '已为角色添加权限' },
  permissionRemoved: { en: 'Permission removed from the role', zh: '已从角色移除权限' },
  permissionCreated: { en: 'Permission created', zh: '权限已创建' },

  roleIdMissing: { en: 'Role {id} does not exist', zh: '角色 {id} 不存在' },
  roleMissing: { en: 'Role "{name}" does not exist', zh: '角色“{name}”不存在' },
  permissionMissing: { en: 'Permission "{name}" does not exist', zh: '权限“{name}”不存在' },
  userMissing: { en: 'User {id} does not exist', zh: '账号 {id} 不存在' },
  roleExists: { en: 'A role named "{name}" already exists', zh: '名为“{name}”的角色已存在' },
  permissionExists: { en: 'A permission named "{name}" already exists', zh: '名为“{name}”的权限已存在' },
  roleRenamed: {
    en: 'A role\'s name cannot be changed (it is "{name}"); create a new role instead',
    zh: '角色名称不能修改（当前为“{name}”）；如需其他名称，请新建角色',
  },
  cannotChange: { en: 'cannot be changed', zh: '不能修改' },
  adminNotDisabled: { en: 'The role admin cannot be disabled', zh: '角色 admin 不能停用' },
  adminNotDeleted: { en: 'The role admin cannot be deleted', zh: '角色 admin 不能删除' },
  employeeNotDeleted: {
    en: 'The built-in role employee cannot be deleted; disable it or remove its permissions instead',
    zh: '内置角色 employee 不能删除；可以停用它，或移除它的权限',
  },
  lastAdmin: {
    en: 'User "{username}" is the last enabled administrator and cannot lose role admin; make another user admin first',
    zh: '账号“{username}”是最后一个启用的管理员，不能收回其 admin 角色；请先把另一个账号设为管理员',
  },
  partMismatch: {
    en: '{field} "{value}" does not match the name "{name}"; send {field} "{expected}" or leave it out',
    zh: '{field}“{value}”与名称“{name}”不符；请发送 {field}“{expected}”，或不填',
  },
  partMustMatch: { en: 'must be "{expected}" to match the name', zh: '必须为“{expected}”才能与名称相符' },
  cannotAddPermission: {
    en: 'You cannot add {permission}: your own roles do not grant it',
    zh: '您不能添加权限 {permission}：您自己的角色没有该权限',
  },
  cannotRemovePermission: {
    en: 'You cannot remove {permission}: your own roles do not grant it',
    zh: '您不能移除权限 {permission}：您自己的角色没有该权限',
  },
  adminHoldsAll: {
    en: 'The role admin holds every permission; none can be removed from it',
    zh: '角色 admin 拥有全部权限；不能从中移除任何权限',
  },

  notLinked: {
    en: 'Your account is not linked to an employee, so it has no {what}; ask an administrator to link it',
    zh: '您的账号未关联员工，因此没有{what}；请联系管理员关联',
  },
  ownAttendance: { en: 'attendance', zh: '考勤记录' },
  ownSalaries: { en: 'salary records', zh: '工资记录' },
  ownLeave: { en: 'leave', zh: '请假记录' },

  // the people rule (people.ts): "You cannot {act}: …"
  ownAccountRoute: {
    en: 'You cannot {act} through an administrator route; use PUT /api/v1/auth/me or PUT /api/v1/auth/password, or ask another administrator',
    zh: '您不能通过管理员接口{act}；请使用 PUT /api/v1/auth/me 或 PUT /api/v1/auth/password，或请其他管理员操作',
  },
  accountHolds: {
    en: 'You cannot {act}: that account holds {lacking}, which your own roles do not grant',
    zh: '您不能{act}：该账号拥有 {lacking} 权限，而您自己的角色没有这些权限',
  },
  involves: {
    en: 'You cannot {act}: it involves {lacking}, which your own roles do not grant',
    zh: '您不能{act}：此操作涉及 {lacking} 权限，而您自己的角色没有这些权限',
  },
  ownAccount: { en: 'your own account', zh: '自己的账号' },
  userAccount: { en: 'user "{username}"', zh: '账号“{username}”' },
  changeAccount: { en: 'change {account}', zh: '修改{account}' },
  deleteAccount: { en: 'delete {account}', zh: '删除{account}' },
  setPasswordOf: { en: 'set the password of {account}', zh: '设置{account}的密码' },
  assignRolesOf: { en: 'assign roles of {account}', zh: '为{account}分配角色' },
  revokeRolesOf: { en: 'revoke roles of {account}', zh: '收回{account}的角色' },
  giveTheseRoles: { en: 'give these roles', zh: '授予这些角色' },
  changeTheseRoles: { en: 'change these roles', zh: '更改这些角色' },
  giveNewAccountEmployee: { en: 'give a new account role employee', zh: '为新账号授予 employee 角色' },
  enableRole: { en: 'enable the role {role}', zh: '启用角色 {role}' },
  disableRole: { en: 'disable the role {role}', zh: '停用角色 {role}' },
  deleteRole: { en: 'delete the role {role}', zh: '删除角色 {role}' },
  assignRole: { en: 'assign the role {role}', zh: '分配角色 {role}' },
  revokeRole: { en: 'revoke the role {role}', zh: '收回角色 {role}' },
  unlinkAccount: { en: 'unlink {account} from its employee record', zh: '解除{account}与其员工档案的关联' },
  linkOwnAccount: { en: 'link your own account to an employee record', zh: '将自己的账号关联到员工档案' },
  linkNewAccount: { en: 'link a new account "{username}" to an employee record', zh: '将新账号“{username}”关联到员工档案' },
  linkAccount: { en: 'link {account} to an employee record', zh: '将{account}关联到员工档案' },

  // one's own matters (own-matters.ts)
  ownMatter: { en: '{label} is your own: {refusal}', zh: '{label}是您自己的：{refusal}' },
  decideOwn: { en: 'nobody decides their own request', zh: '任何人都不能审批自己的申请' },
  cancelOwn: {
    en: 'nobody cancels their own leave through an administrator route; cancel it yourself while it has not begun, or ask HR',
    zh: '任何人都不能通过管理员接口取消自己的请假；请在假期开始前自行取消，或联系人事',
  },
  adjustOwn: { en: 'nobody adjusts their own leave balance; ask HR', zh: '任何人都不能调整自己的假期余额；请联系人事' },
  editOwn: { en: 'request a correction for your manager to decide', zh: '请提交考勤更正申请，由您的上级审批' },
  payOwn: {
    en: 'nobody creates, changes or pays their own salary; ask another administrator',
    zh: '任何人都不能创建、修改或发放自己的工资；请联系其他管理员',
  },
  selfManager: {
    en: 'You cannot make yourself the manager of an employee: that would let you decide their requests, which needs approvals:manage',
    zh: '您不能将自己设为员工的上级：这样您就能审批其申请，而这需要 approvals:manage 权限',
  },
  freshManager: {
    en: 'You cannot make {employee} a manager: their account "{username}" was created by you in the last {days} days, and choosing who decides requests through an account of your own making needs approvals:manage',
    zh: '您不能将{employee}设为上级：其账号“{username}”是您在最近 {days} 天内创建的，通过自己创建的账号决定审批人需要 approvals:manage 权限',
  },
  newManager: {
    en: 'You cannot make {who} a manager: their account "{username}" is being created by you, and choosing who decides requests through an account of your own making needs approvals:manage',
    zh: '您不能将{who}设为上级：其账号“{username}”正由您创建，通过自己创建的账号决定审批人需要 approvals:manage 权限',
  },
  ownApprover: {
    en: 'You cannot {what}: that changes who decides your own requests ({before} → {after}); ask another administrator',
    zh: '您不能{what}：这会改变审批您本人申请的人（{before} → {after}）；请联系其他管理员',
  },
  approvalsHolders: { en: 'holders of approvals:manage', zh: '拥有 approvals:manage 权限的人' },
  employee: { en: 'employee {name} ({no})', zh: '员工 {name}（{no}）' },
  employeeWithoutNo: { en: 'employee {name}', zh: '员工 {name}' },
})

/** An employee as people know them: name and employee number. */
export const employeeNamed = ({ name, employeeNo }: { name: string; employeeNo: string | null }): Message =>
  employeeNo === null ? say.employeeWithoutNo({ name }) : say.employee({ name, no: employeeNo })

/*
 * The texts the built-in roles and permissions are created with, in both languages. The database
 * keeps the English; an answer shows the request's language: a permission's always (nobody edits
 * them), a role's while it is still the text it was created with.
 */
type Field = 'display_name' | 'description'
const seededKey = (kind: 'role' | 'permission', name: string, field: Field) => `seeded ${kind} ${name} ${field}`

const seeded = defineMessages(
  'rbac',
  Object.fromEntries(
    (['role', 'permission'] as const).flatMap((kind) =>
      (kind === 'role' ? BUILT_IN_ROLES : PERMISSION_CATALOGUE).flatMap((item): [string, Entry][] => [
        [seededKey(kind, item.name, 'display_name'), { en: item.displayName, zh: item.zh.displayName }],
        [seededKey(kind, item.name, 'description'), { en: item.description, zh: item.zh.description }],
      ]),
    ),
  ),
) as Record<string, (() => Message) | undefined>

const seededMessage = (kind: 'role' | 'permission', name: string, field: Field) => seeded[seededKey(kind, name, field)]?.()

/** A built-in role's text in `locale` while it is the one it was created with; any other text as stored. */
export function roleText(role: { name: string }, field: Field, stored: string, locale: Locale): string {
  const message = seededMessage('role', role.name, field)
  return message && render(message, 'en') === stored ? render(message, locale) : stored
}

/** A built-in permission's text in `locale`; a permission made through the API keeps its own. */
export function permissionText(permission: { name: string }, field: Field, stored: string, locale: Locale): string {
  const message = seededMessage('permission', permission.name, field)
  return message ? render(message, locale) : stored
}

/** The built-in permissions whose Chinese name or description contains `search` (ignoring case), for the list's search. */
export const permissionsMatching = (search: string): string[] =>
  PERMISSION_CATALOGUE.filter((p) => containsText([p.zh.displayName, p.zh.description], search)).map((p) => p.name)

/** The built-in roles whose Chinese display name contains `search`, with the English display name it shows for. */
export const rolesMatching = (search: string): { name: string; displayName: string }[] =>
  BUILT_IN_ROLES.filter((r) => containsText([r.zh.displayName], search)).map((r) => ({ name: r.name, displayName: r.displayName }))

const containsText = (texts: string[], search: string) => texts.some((text) => text.toLowerCase().includes(search.trim().toLowerCase()))
