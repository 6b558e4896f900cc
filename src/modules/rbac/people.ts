import type { Queryable } from '../../db/client'
import { ForbiddenError } from '../../http/errors'
import { allows } from './ability'
import type { Principal } from './access'
import { EMPLOYEE_ROLE, type PermissionName } from './catalogue'
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

function refuseLacking(principal: Principal, names: Iterable<string>, refusal: (lacking: string) => string): void {
  const lacking = [...new Set(names)].filter((name) => !allows(principal.ability, name)).sort()
  if (lacking.length > 0) throw new ForbiddenError(refusal(lacking.join(', ')))
}

/** Nobody hands out more than they hold: giving, taking, switching or deleting roles needs every permission they grant. */
export async function requireRoles(db: Queryable, principal: Principal, roles: RoleRef[], what: string): Promise<void> {
  refuseLacking(principal, await grantedBy(db, roles), (lacking) => `You cannot ${what}: it involves ${lacking}, which your own roles do not grant`)
}

/**
 * The caller may change, disable, delete, reset the password of, or change the roles of `userId` only
 * when it holds every permission that account holds, and never its own account through an admin route.
 */
export async function requireAccount(db: Queryable, principal: Principal, userId: number, what: string): Promise<void> {
  if (userId === principal.userId)
    throw new ForbiddenError(
      `You cannot ${what} your own account through an administrator route; use PUT /api/v1/auth/me or PUT /api/v1/auth/password, or ask another administrator`,
    )
  const held = await grantedBy(db, await repo.rolesOfUser(db, userId))
  refuseLacking(principal, held, (lacking) => `You cannot ${what} user ${userId}: that account holds ${lacking}, which your own roles do not grant`)
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
  const what =
    to === null
      ? `unlink user ${from} from its employee record`
      : to === principal.userId
        ? 'link your own account to an employee record'
        : change.newUsername !== undefined
          ? `link a new account "${change.newUsername}" to an employee record`
          : `link user ${to} to an employee record`
  refuseLacking(principal, involved, (lacking) => `You cannot ${what}: it involves ${lacking}, which your own roles do not grant`)
}
