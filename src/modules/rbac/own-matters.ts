import { and, eq, gte, isNull, or, sql, type SQL } from 'drizzle-orm'
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core'
import type { Queryable } from '../../db/client'
import { employeeLinks, employees, users } from '../../db/schema'
import { ForbiddenError } from '../../http/errors'
import type { Message } from '../../lib/messages'
import { allows } from './ability'
import type { Principal } from './access'
import { ADMIN_ROLE } from './catalogue'
import { employeeNamed, say } from './messages'

/*
 * Nobody decides, adjusts or pays their own matters (CONTRACT §15): one rule, beside the people rule
 * of people.ts, called inside the transaction of every service method that approves, adjusts or pays.
 * A matter is the caller's own when its employee is linked to the caller's account now, or the
 * request was made by the caller's account, or its employee was linked to the caller's account at
 * any time since the matter was made (a link that ended before it does not count).
 */

/** Holders decide any request but their own (CONTRACT §10). */
export const MANAGE_APPROVALS = 'approvals:manage'

export interface Matter {
  /** what the refusal names, as people know it: "The leave request of Wang Fang (E0002) from 2024-05-06", "The salary of Li Wei (E0007) for 2024-05" */
  label: Message
  employeeId: number
  /** the account that made the request */
  createdBy?: number | null
  /** the account linked to the employee when the request was made */
  linkedUserId?: number | null
  /** when the matter was made; undefined: any link the employee ever had counts */
  madeAt?: Date
}

/** What the caller would do to the matter, for the refusal: "decide", "cancel", "adjust the balance of", "pay". */
export type Act = 'decide' | 'cancel' | 'adjust' | 'edit' | 'pay'

const REFUSALS: Record<Act, () => Message> = {
  decide: say.decideOwn,
  cancel: say.cancelOwn,
  adjust: say.adjustOwn,
  edit: say.editOwn,
  pay: say.payOwn,
}

/** True when the account was linked to the employee at some time in [since, now] (any time when `since` is undefined). */
export async function wasLinked(db: Queryable, userId: number, employeeId: number, since?: Date): Promise<boolean> {
  const [row] = await db
    .select({ id: employeeLinks.id })
    .from(employeeLinks)
    .where(
      and(
        eq(employeeLinks.userId, userId),
        eq(employeeLinks.employeeId, employeeId),
        since === undefined ? undefined : or(isNull(employeeLinks.unlinkedAt), gte(employeeLinks.unlinkedAt, since)),
      ),
    )
    .limit(1)
  return row !== undefined
}

export async function isOwnMatter(db: Queryable, principal: Principal, matter: Matter): Promise<boolean> {
  if (principal.employeeId !== null && principal.employeeId === matter.employeeId) return true
  if (matter.createdBy === principal.userId || matter.linkedUserId === principal.userId) return true
  return wasLinked(db, principal.userId, matter.employeeId, matter.madeAt)
}

/**
 * 403 when the matter is the caller's own, whatever the caller holds. `ownerMay`: role admin (the
 * owner, who stands for the company) is the exception, as for salaries and payroll runs.
 */
export async function requireNotOwn(db: Queryable, principal: Principal, matter: Matter, act: Act, ownerMay = false): Promise<void> {
  if (ownerMay && principal.roles.includes(ADMIN_ROLE)) return
  if (await isOwnMatter(db, principal, matter)) throw ownMatterRefused(matter.label, act)
}

/**
 * The same rule for a whole file of matters (an import's rows, CONTRACT §23): the employees among
 * `employeeIds` whose matters are the caller's own — linked to the caller's account now, or at any
 * time (as an edit of a record judges it). One query.
 */
export async function ownEmployeesAmong(db: Queryable, principal: Principal, employeeIds: Iterable<number>): Promise<Set<number>> {
  const among = new Set(employeeIds)
  const linked = await db.selectDistinct({ employeeId: employeeLinks.employeeId }).from(employeeLinks).where(eq(employeeLinks.userId, principal.userId))
  const own = [principal.employeeId, ...linked.map((row) => row.employeeId)]
  return new Set(own.filter((id): id is number => id !== null && among.has(id)))
}

/** The 403 of an act on one's own matter, in the words `requireNotOwn` uses. */
export const ownMatterRefused = (label: Message, act: Act) => new ForbiddenError(say.ownMatter({ label, refusal: REFUSALS[act]() }))

/** The inbox's half of the rule, as SQL over a request table: rows that are not the account's own matters. */
export function notOwnMatter(
  userId: number,
  employeeId: number | null,
  request: { employeeId: SQLiteColumn; createdBy: SQLiteColumn; linkedUserId: SQLiteColumn; createdAt: SQLiteColumn },
): SQL {
  return sql`(${employeeId === null ? sql`1` : sql`${request.employeeId} <> ${employeeId}`}
    AND ${request.createdBy} IS NOT ${userId} AND ${request.linkedUserId} IS NOT ${userId}
    AND NOT EXISTS (SELECT 1 FROM ${employeeLinks} WHERE ${employeeLinks.userId} = ${userId}
      AND ${employeeLinks.employeeId} = ${request.employeeId}
      AND (${employeeLinks.unlinkedAt} IS NULL OR ${employeeLinks.unlinkedAt} >= ${request.createdAt})))`
}

/**
 * Who a request is decided by and for, frozen when it is made (CONTRACT §15): the account linked
 * to the employee now and the approver — the employee's manager, else their group's manager,
 * skipping anyone who has left (status 0) and the employee themselves.
 */
export async function partiesOf(db: Queryable, employeeId: number): Promise<{ linkedUserId: number | null; approverId: number | null }> {
  const rows = await db.all<{ linked_user_id: number | null; approver_id: number | null }>(sql`
    SELECT e.user_id AS linked_user_id, coalesce(m.id, gm.id) AS approver_id
    FROM ${employees} e
    LEFT JOIN ${employees} m ON m.id = e.manager_id AND m.status = 1 AND m.id <> e.id
    LEFT JOIN attendance_group_members agm ON agm.employee_id = e.id
    LEFT JOIN attendance_groups g ON g.id = agm.group_id
    LEFT JOIN ${employees} gm ON gm.id = g.manager_id AND gm.status = 1 AND gm.id <> e.id
    WHERE e.id = ${employeeId}`)
  return { linkedUserId: rows[0]?.linked_user_id ?? null, approverId: rows[0]?.approver_id ?? null }
}

/**
 * Keeps the history of links (CONTRACT §15) in step with `employees.user_id`: called by every change
 * of an employee's account, in its transaction.
 */
export async function recordLinkChange(db: Queryable, employeeId: number, from: number | null, to: number | null, at: Date): Promise<void> {
  if (from === to) return
  if (from !== null)
    await db
      .update(employeeLinks)
      // a clock set back (tests do; NTP may) never ends a link before it began
      .set({ unlinkedAt: sql`max(${employeeLinks.linkedAt}, ${at.getTime()})` })
      .where(and(eq(employeeLinks.employeeId, employeeId), isNull(employeeLinks.unlinkedAt)))
  if (to !== null) await db.insert(employeeLinks).values({ employeeId, userId: to, linkedAt: at })
}

/** Accounts made by the caller this recently are theirs to steer: making them deciders needs approvals:manage. */
export const FRESH_ACCOUNT_DAYS = 30

/**
 * Choosing who decides others' requests (an employee's or a group's manager): the caller themselves,
 * or an employee linked to an account the caller created in the last 30 days, needs approvals:manage.
 */
export async function requireDeciderChoice(db: Queryable, principal: Principal, managerId: number | null | undefined, now: Date): Promise<void> {
  if (managerId === undefined || managerId === null || allows(principal.ability, MANAGE_APPROVALS)) return
  if (managerId === (await linkedEmployeeNow(db, principal.userId))) throw new ForbiddenError(say.selfManager())
  const since = new Date(now.getTime() - FRESH_ACCOUNT_DAYS * 86_400_000)
  const [fresh] = await db
    .select({ username: users.username, name: employees.name, employeeNo: employees.employeeNo })
    .from(employees)
    .innerJoin(users, eq(users.id, employees.userId))
    .where(and(eq(employees.id, managerId), eq(users.createdBy, principal.userId), gte(users.createdAt, since)))
    .limit(1)
  if (fresh) throw new ForbiddenError(say.freshManager({ employee: employeeNamed(fresh), username: fresh.username, days: FRESH_ACCOUNT_DAYS }))
}

/**
 * The same for a manager the request itself creates with an account (an import naming, by employee
 * number, a manager in its own file): that account is of the caller's making from the start.
 */
export function requireNewDeciderChoice(principal: Principal, who: Message, username: string): void {
  if (allows(principal.ability, MANAGE_APPROVALS)) return
  throw new ForbiddenError(say.newManager({ who, username }))
}

/** The employee record linked to the account now, read inside the caller's transaction (the principal may be half a second old). */
export async function linkedEmployeeNow(db: Queryable, userId: number): Promise<number | null> {
  const [row] = await db.select({ id: employees.id }).from(employees).where(eq(employees.userId, userId)).limit(1)
  return row?.id ?? null
}

/**
 * Nobody changes who decides their own requests through administrator routes (CONTRACT §15): their
 * own record's manager, the manager of their group, moving themselves into or out of a group,
 * deleting their group. `change` runs in the caller's transaction; when it changes the approver the
 * caller's own next request would get, the refusal throws and the transaction leaves nothing written.
 * A change that leaves that approver as it was (a group whose manager is not theirs, since their own
 * manager decides) is allowed.
 */
export async function keepOwnApprover<T>(db: Queryable, principal: Principal, what: Message, change: () => Promise<T>): Promise<T> {
  const own = await linkedEmployeeNow(db, principal.userId)
  if (own === null) return change()
  const before = (await partiesOf(db, own)).approverId
  // named now: the change may remove them
  const beforeNamed = await approverNamed(db, before)
  const result = await change()
  const after = (await partiesOf(db, own)).approverId
  if (after !== before) throw new ForbiddenError(say.ownApprover({ what, before: beforeNamed, after: await approverNamed(db, after) }))
  return result
}

/** Who decides a request, as the refusal names them: an employee by name and number, or the holders of approvals:manage. */
async function approverNamed(db: Queryable, employeeId: number | null): Promise<Message> {
  if (employeeId === null) return say.approvalsHolders()
  const [row] = await db.select({ name: employees.name, employeeNo: employees.employeeNo }).from(employees).where(eq(employees.id, employeeId)).limit(1)
  return row ? employeeNamed(row) : say.approvalsHolders()
}
