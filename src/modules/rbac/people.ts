import type { Queryable } from '../../db/client'
import { ForbiddenError } from '../../http/errors'
import type { Message } from '../../lib/messages'
import { allows } from './ability'
import type { Principal } from './access'
import { EMPLOYEE_ROLE, type PermissionName } from './catalogue'
import { say } from './messages'
import * as repo from './repository'

/*
 * One rule for every change to people (STYLE 17): a caller may act on an account, a role, or the
 * link between an account and an employee record only when it holds everything the target holds.
 * Each service method that changes people calls one of these first, inside its transaction.
 */

type RoleRef = Pick<repo.RoleRow, 'id' | 'name'>

/**
 * A linked account sees its employee's salaries and attendance as its own, so giving an existing
 * record to an account (or one's own account to a record) needs the right to read those anyway.
 */
export const EMPLOYEE_RECORD_READS: readonly PermissionName[] = ['salaries:read', 'attendance_records:read']

/** Permission names the roles grant; a disabled role counts, since it may be switched back on. */
async function grantedBy(db: Queryable, roles: RoleRef[]): Promise<string[]> {
  const names = new Set<string>()
  for (const role of roles) for (const permission of await repo.permissionsOfRole(db, role)) names.add(permission.name)
  return [...names]
}

/** A 403 when the caller lacks any of `names`; the refusal is worded (and what it names looked up) only then. */
async function refuseLacking(principal: Principal, names: Iterable<string>, refusal: (lacking: string) => Message | Promise<Message>): Promise<void> {
  const lacking = [...new Set(names)].filter((name) => !allows(principal.ability, name)).sort()
  if (lacking.length > 0) throw new ForbiddenError(await refusal(lacking.join(', ')))
}

/** What a change of roles made elsewhere does, as the refusal names it: "You cannot give these roles: …". */
const ROLE_ACTS = {
  'give these roles': say.giveTheseRoles,
  'change these roles': say.changeTheseRoles,
  'give a new account role employee': say.giveNewAccountEmployee,
} as const
export type RolesAct = keyof typeof ROLE_ACTS

/** Nobody hands out more than they hold: giving, taking, switching or deleting roles needs every permission they grant. */
export async function requireRoles(db: Queryable, principal: Principal, roles: RoleRef[], what: RolesAct | Message): Promise<void> {
  const act = typeof what === 'string' ? ROLE_ACTS[what]() : what
  await refuseLacking(principal, await grantedBy(db, roles), (lacking) => say.involves({ act, lacking }))
}

/** What is done to an account, as the refusal names it: "You cannot change user "li.wei": …". */
const ACCOUNT_ACTS = {
  change: say.changeAccount,
  delete: say.deleteAccount,
  'set the password of': say.setPasswordOf,
  'assign roles of': say.assignRolesOf,
  'revoke roles of': say.revokeRolesOf,
} as const
export type AccountAct = keyof typeof ACCOUNT_ACTS

/** An account as refusals name it: by its username (the account is there: the refusal is about what it holds). */
const userNamed = async (db: Queryable, userId: number): Promise<Message> => say.userAccount({ username: (await repo.usernameOf(db, userId)) ?? '' })

/**
 * The caller may change, disable, delete, reset the password of, or change the roles of `userId` only
 * when it holds every permission that account holds, and never its own account through an admin route.
 */
export async function requireAccount(db: Queryable, principal: Principal, userId: number, what: AccountAct): Promise<void> {
  if (userId === principal.userId) throw new ForbiddenError(say.ownAccountRoute({ act: ACCOUNT_ACTS[what]({ account: say.ownAccount() }) }))
  const held = await grantedBy(db, await repo.rolesOfUser(db, userId))
  await refuseLacking(principal, held, async (lacking) => say.accountHolds({ act: ACCOUNT_ACTS[what]({ account: await userNamed(db, userId) }), lacking }))
}

export interface LinkChange {
  /** the account linked to the record before, or null (also for a new record) */
  from: number | null
  /** the account linked after, or null for an unlink */
  to: number | null
  /** false when the record is being created with the link */
  existingRecord: boolean
  /** the username of an account made for this link: a refusal names it, since its id goes with the rolled-back account */
  newUsername?: string
}

/**
 * Who an account is: linking account `to` to an employee record (taking it from `from`) changes both
 * accounts and gives `to` role employee and the record's history. The caller must hold everything
 * `to` and `from` hold, the permissions of role employee, and, when the record already existed or the
 * account is the caller's own, the right to read any employee's salaries and attendance.
 */
export async function requireLink(db: Queryable, principal: Principal, change: LinkChange): Promise<void> {
  const { from, to } = change
  if (from === to) return
  const involved = new Set<string>()
  for (const userId of [to, from])
    if (userId !== null && userId !== principal.userId)
      for (const name of await grantedBy(db, await repo.rolesOfUser(db, userId))) involved.add(name)
  if (to !== null) {
    const employeeRole = await repo.findRoleByName(db, EMPLOYEE_ROLE)
    if (employeeRole) for (const name of await grantedBy(db, [employeeRole])) involved.add(name)
    if (change.existingRecord || to === principal.userId) for (const name of EMPLOYEE_RECORD_READS) involved.add(name)
  }
  const act = async () =>
    to === null
      ? say.unlinkAccount({ account: await userNamed(db, from!) })
      : to === principal.userId
        ? say.linkOwnAccount()
        : change.newUsername !== undefined
          ? say.linkNewAccount({ username: change.newUsername })
          : say.linkAccount({ account: await userNamed(db, to) })
  await refuseLacking(principal, involved, async (lacking) => say.involves({ act: await act(), lacking }))
}
