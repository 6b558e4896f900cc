import { inArray } from 'drizzle-orm'
import type { Database, Queryable, Tx } from '../../db/client'
import { companies, departments, users } from '../../db/schema'
import { ConflictError, ForbiddenError, NotFoundError, ValidationError, type FieldError } from '../../http/errors'
import { p1, pageWindow } from '../../http/pagination'
import type { Clock } from '../../lib/clock'
import { isCalendarDate } from '../../lib/dates'
import { hashPassword } from '../../lib/password'
import { messageList, type Message } from '../../lib/messages'
import { isForeignKeyViolation, isUniqueViolation, uniqueViolationTarget } from '../../lib/sqlite-errors'
import { optionalText, requiredText } from '../../lib/text'
import { recordAudit, type Actor } from '../audit/recorder'
import type { AccessResolver, Principal } from '../rbac/access'
import { EMPLOYEE_ROLE } from '../rbac/catalogue'
import { keepOwnApprover, recordLinkChange, requireDeciderChoice } from '../rbac/own-matters'
import { requireLink, requireRoles, type LinkChange } from '../rbac/people'
import { findRoleId, findRolesByName, grantRole, roleNamesByUser } from '../rbac/repository'
import { findUserById, insertUser } from '../users/repository'
import { usernameTaken } from '../users/service'
import { say as common } from '../../http/messages'
import { hasLeft } from './leavers'
import { accrueLeave } from '../leave/accrual-job'
import { say } from './messages'
import type { AccountInput, CreateEmployeeInput, EmployeeListQuery, EmployeeResponse, UpdateEmployeeInput } from './model'
import * as repo from './repository'

export function toEmployeeResponse(row: repo.EmployeeWithDepartment): EmployeeResponse {
  return {
    id: row.id,
    employee_no: row.employeeNo,
    name: row.name,
    phone: row.phone,
    email: row.email,
    department_id: row.departmentId,
    department: row.department,
    company_id: row.companyId,
    position: row.position,
    hire_date: row.hireDate,
    left_on: row.leftOn,
    work_start_date: row.workStartDate,
    status: row.status,
    user_id: row.userId,
    attendance_group_id: row.attendanceGroupId,
    manager_id: row.managerId,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  }
}

const missing = (id: number) => new NotFoundError(say.missing({ id }))

function checkHireDate(value: string | null | undefined): void {
  if (value && !isCalendarDate(value)) throw new ValidationError(say.hireDateNotReal({ value }), [{ field: 'hire_date', message: say.notRealDate() }])
}

/** `left_on` is a real date, not before the hire date (the one sent, else the one kept). */
function checkLeftOn(value: string | null | undefined, hireDate: string | null | undefined): void {
  if (!value) return
  if (!isCalendarDate(value)) throw new ValidationError(say.leftOnNotReal({ value }), [{ field: 'left_on', message: say.notRealDate() }])
  if (hireDate && value < hireDate)
    throw new ValidationError(say.leftBeforeHired({ left: value, hired: hireDate }), [{ field: 'left_on', message: say.notBeforeHireDate() }])
}

/** `work_start_date` is a real date, not after the hire date (the one sent, else the one kept). */
function checkWorkStart(value: string | null | undefined, hireDate: string | null | undefined): void {
  if (!value) return
  if (!isCalendarDate(value)) throw new ValidationError(say.workStartNotReal({ value }), [{ field: 'work_start_date', message: say.notRealDate() }])
  if (hireDate && value > hireDate)
    throw new ValidationError(say.workStartAfterHired({ start: value, hired: hireDate }), [{ field: 'work_start_date', message: say.notAfterHireDate() }])
}

/**
 * The rules of a new employee that need no database, in the order create applies them; each throws
 * a ValidationError. An import applies the same ones to each row of its file.
 */
type AccountChoice = Pick<CreateEmployeeInput, 'username' | 'password' | 'user_id'>

/** How an employee's account is given, when it is: a new one (username and password) or an existing one (user_id). */
const ACCOUNT_RULES: readonly ((input: AccountChoice) => void)[] = [
  (input) => {
    if ((input.username === undefined) !== (input.password === undefined))
      throw new ValidationError(say.accountPairNeeded(), [
        { field: input.username === undefined ? 'username' : 'password', message: say.requiredWithOther() },
      ])
  },
  (input) => {
    if (input.username !== undefined && input.user_id !== undefined)
      throw new ValidationError(say.accountEitherWay(), [{ field: 'user_id', message: say.conflictsWithUsername() }])
  },
]

export const NEW_EMPLOYEE_RULES: readonly ((input: CreateEmployeeInput) => void)[] = [
  ...ACCOUNT_RULES,
  (input) => checkHireDate(input.hire_date),
  (input) => checkLeftOn(input.left_on, input.hire_date),
  (input) => checkWorkStart(input.work_start_date, input.hire_date),
  (input) => void requiredText(input.name ?? '', 'name'),
]

type References = { department_id?: number | null; company_id?: number | null; user_id?: number | null }

/**
 * For each of `list`, every department, company or user it names that does not exist: one query
 * per kind however long the list (an import checks all its rows at once).
 */
export async function missingReferences(db: Queryable, list: readonly References[]): Promise<FieldError[][]> {
  const existing = async (table: typeof departments | typeof companies | typeof users, ids: (number | null | undefined)[]) => {
    const wanted = [...new Set(ids.filter((id): id is number => !!id))]
    if (wanted.length === 0) return new Set<number>()
    return new Set((await db.select({ id: table.id }).from(table).where(inArray(table.id, wanted))).map((row) => row.id))
  }
  const departmentIds = await existing(departments, list.map((refs) => refs.department_id))
  const companyIds = await existing(companies, list.map((refs) => refs.company_id))
  const userIds = await existing(users, list.map((refs) => refs.user_id))
  return list.map((refs) => {
    const problems: FieldError[] = []
    if (refs.department_id && !departmentIds.has(refs.department_id))
      problems.push({ field: 'department_id', message: say.noDepartmentId({ id: refs.department_id }) })
    if (refs.company_id && !companyIds.has(refs.company_id)) problems.push({ field: 'company_id', message: say.noCompanyId({ id: refs.company_id }) })
    if (refs.user_id && !userIds.has(refs.user_id)) problems.push({ field: 'user_id', message: say.noUserId({ id: refs.user_id }) })
    return problems
  })
}

/** 400 naming every referenced department, company or user that does not exist. */
async function checkReferences(tx: Tx, refs: References): Promise<void> {
  const [problems] = await missingReferences(tx, [refs])
  if (problems.length > 0)
    throw new ValidationError(messageList(problems.map((p) => say.referenceProblem({ field: p.field, problem: p.message }))), problems)
}

type Person = { id: number; name: string; employeeNo: string | null }

/** An employee as people know them: the name, with the employee number when there is one ("Li Wei (E0001)"). */
const personOf = ({ name, employeeNo }: Person): string => (employeeNo === null ? name : `${name} (${employeeNo})`)

/**
 * 400 unless `managerId` names an existing employee whose own chain of managers does not lead back
 * to `employeeId` (itself included): the message names the chain (CONTRACT §10).
 */
async function checkManager(tx: Tx, employee: Person | null, managerId: number | null | undefined): Promise<void> {
  if (managerId === undefined || managerId === null) return
  if (employee !== null && managerId === employee.id)
    throw new ValidationError(say.ownManager({ id: managerId }), [{ field: 'manager_id', message: say.isTheEmployee() }])
  const chain = employee === null ? [] : [employee]
  const seen = new Set(chain.map((link) => link.id))
  for (let next: number | null = managerId; next !== null; ) {
    const manager = await repo.managerOf(tx, next)
    if (manager === null) {
      if (next === managerId) throw new ValidationError(say.managerMissing({ id: managerId }), [{ field: 'manager_id', message: common.doesNotExist() }])
      return
    }
    chain.push({ id: next, name: manager.name, employeeNo: manager.employeeNo })
    if (seen.has(next)) break
    seen.add(next)
    next = manager.managerId
  }
  if (employee === null || chain.at(-1)?.id !== employee.id) return
  // people, not ids: the chain as a person reading it knows its employees
  const names = chain.map(personOf).join(' → ')
  throw new ValidationError(say.managerCycle({ id: managerId, chain: names }), [{ field: 'manager_id', message: say.makesCycle({ chain: names }) }])
}

export const employeeNoTaken = (employeeNo: string | null | undefined) => new ConflictError(say.employeeNoTaken({ no: String(employeeNo) }))

function conflictFor(error: unknown, input: { employee_no?: string | null; user_id?: number | null; username?: string }) {
  const target = uniqueViolationTarget(error)
  if (target.includes('employee_no')) return employeeNoTaken(input.employee_no)
  if (target.includes('employees_user') || target.includes('employees.user_id')) return new ConflictError(say.userLinkedElsewhere({ id: String(input.user_id) }))
  if (target.includes('username')) return usernameTaken(input.username ?? '')
  return new ConflictError(say.conflictsWithRecord())
}

/** The row of a new employee, its texts trimmed (blank is null); `input` has passed NEW_EMPLOYEE_RULES. */
export function newEmployeeRow(input: CreateEmployeeInput, userId: number | null, now: Date): repo.NewEmployee {
  return {
    name: requiredText(input.name, 'name'),
    employeeNo: optionalText(input.employee_no),
    phone: optionalText(input.phone),
    email: optionalText(input.email),
    departmentId: input.department_id ?? null,
    companyId: input.company_id ?? null,
    position: optionalText(input.position),
    hireDate: input.hire_date ?? null,
    leftOn: input.left_on ?? null,
    workStartDate: input.work_start_date ?? null,
    status: input.status ?? 1,
    userId,
    managerId: input.manager_id ?? null,
    createdAt: now,
    updatedAt: now,
  }
}

/** What an update of an employee record does to routing, for the refusal of keepOwnApprover. */
function changeOfRouting(id: number, change: { name: string; managerId?: number | null; status?: number }): Message {
  if (change.managerId !== undefined) return say.changeManagerOf({ id, name: change.name })
  if (change.status === 0) return say.markAsLeft({ id, name: change.name })
  return say.changeEmployee({ id, name: change.name })
}

/**
 * Unlinking one's own account, or moving it to another record, changes whose requests are one's own
 * (CONTRACT §15): refused through administrator routes. Linking an account that has no record yet is not.
 */
function requireOwnLinkKept(principal: Principal, from: number | null, to: number | null): void {
  if (from === principal.userId || (to === principal.userId && principal.employeeId !== null))
    throw new ForbiddenError(from === principal.userId ? say.unlinkOwnAccount() : say.moveOwnAccount())
}

export function createEmployeesService({ database, clock, access, defaultZone }: { database: Database; clock: Clock; access: AccessResolver; defaultZone: string }) {
  const { db } = database

  /**
   * A change of the account linked to a record, checked by the one rule for people; the account
   * linked now holds role employee, and giving it that role is audited as the role change it is.
   */
  const changeLink = async (tx: Tx, principal: Principal, actor: Actor, change: LinkChange, at: Date) => {
    await requireLink(tx, principal, change)
    if (change.to === null || change.to === change.from) return
    const roles = async () => (await roleNamesByUser(tx, [change.to!])).get(change.to!) ?? []
    const before = await roles()
    if (before.includes(EMPLOYEE_ROLE)) return
    await grantRole(tx, change.to, (await findRoleId(tx, EMPLOYEE_ROLE))!, at)
    await recordAudit(tx, actor, at, {
      action: 'role.assign',
      resource: 'user',
      resourceId: change.to,
      before: { roles: before },
      after: { roles: await roles() },
    })
  }

  /**
   * A new account for an employee record (role employee, created by the caller, so that choosing it as
   * a decider is the caller's own steering, CONTRACT §15), linked by changeLink after.
   */
  const newAccount = async (tx: Tx, principal: Principal, actor: Actor, input: { username: string; passwordHash: string; name: string }, now: Date) => {
    await requireRoles(tx, principal, await findRolesByName(tx, [EMPLOYEE_ROLE]), 'give a new account role employee')
    const { username, passwordHash, name } = input
    return insertUser(tx, { username, passwordHash, name, status: 1, createdBy: actor.userId, createdAt: now, updatedAt: now })
  }

  const get = async (id: number): Promise<EmployeeResponse> => {
    const row = await repo.findEmployee(db, id)
    if (!row) throw missing(id)
    return toEmployeeResponse(row)
  }

  return {
    get,

    async list(query: EmployeeListQuery) {
      const window = pageWindow(query, 10)
      const { rows, total } = await repo.listEmployees(
        db,
        { search: query.search, departmentId: query.department_id, companyId: query.company_id, status: query.status },
        window,
      )
      return p1(rows.map(toEmployeeResponse), total, window)
    },

    async create(input: CreateEmployeeInput, actor: Actor, principal: Principal): Promise<EmployeeResponse> {
      for (const rule of NEW_EMPLOYEE_RULES) rule(input)
      const name = requiredText(input.name, 'name')
      const passwordHash = input.password === undefined ? null : await hashPassword(input.password)
      const now = clock.now()
      try {
        const created = await database.write(async (tx) => {
          await checkReferences(tx, input)
          await requireDeciderChoice(tx, principal, input.manager_id, now)
          await checkManager(tx, null, input.manager_id)
          let userId = input.user_id ?? null
          if (input.username !== undefined && passwordHash !== null)
            userId = (await newAccount(tx, principal, actor, { username: input.username, passwordHash, name }, now)).id
          if (userId !== null) await changeLink(tx, principal, actor, { from: null, to: userId, existingRecord: false }, now)
          const row = newEmployeeRow(input, userId, now)
          // a last day employed already over: inactive from the start (CONTRACT §18)
          if (await hasLeft(tx, row.companyId ?? null, row.leftOn ?? null, now, defaultZone)) row.status = 0
          const id = await repo.insertEmployee(tx, row)
          await recordLinkChange(tx, id, null, userId, now)
          // a new hire's leave grants due now, at once (CONTRACT §18)
          await accrueLeave(tx, now, defaultZone, { employeeIds: [id] })
          const employee = toEmployeeResponse((await repo.findEmployee(tx, id))!)
          await recordAudit(tx, actor, now, { action: 'employee.create', resource: 'employee', resourceId: id, after: employee })
          return employee
        })
        if (input.user_id !== undefined) access.invalidate(input.user_id)
        return created
      } catch (error) {
        if (isUniqueViolation(error)) throw conflictFor(error, input)
        throw error
      }
    },

    async update(id: number, input: UpdateEmployeeInput, actor: Actor, principal: Principal): Promise<EmployeeResponse> {
      checkHireDate(input.hire_date)
      const now = clock.now()
      let previousUserId: number | null = null
      let updated: EmployeeResponse
      try {
        updated = await database.write(async (tx) => {
          const current = await repo.findEmployee(tx, id)
          if (!current) throw missing(id)
          previousUserId = current.userId
          const hireDate = input.hire_date === undefined ? current.hireDate : input.hire_date
          checkLeftOn(input.left_on === undefined ? current.leftOn : input.left_on, hireDate)
          checkWorkStart(input.work_start_date === undefined ? current.workStartDate : input.work_start_date, hireDate)
          await checkReferences(tx, input)
          if (input.manager_id !== undefined && input.manager_id !== current.managerId) await requireDeciderChoice(tx, principal, input.manager_id, now)
          await checkManager(tx, { id, name: current.name, employeeNo: current.employeeNo }, input.manager_id)
          if (input.user_id !== undefined && input.user_id !== current.userId) {
            requireOwnLinkKept(principal, current.userId, input.user_id)
            await changeLink(tx, principal, actor, { from: current.userId, to: input.user_id, existingRecord: true }, now)
          }
          // a last day employed that is over makes the employee inactive, in this change (CONTRACT §18)
          const left = await hasLeft(
            tx,
            input.company_id === undefined ? current.companyId : input.company_id,
            input.left_on === undefined ? current.leftOn : input.left_on,
            now,
            defaultZone,
          )
          const status = left ? 0 : input.status
          const change = { name: current.name, managerId: input.manager_id, status }
          await keepOwnApprover(tx, principal, changeOfRouting(id, change), () => repo.updateEmployee(tx, id, {
            name: input.name === undefined ? undefined : requiredText(input.name, 'name'),
            employeeNo: optionalText(input.employee_no),
            phone: optionalText(input.phone),
            email: optionalText(input.email),
            departmentId: input.department_id,
            companyId: input.company_id,
            position: optionalText(input.position),
            hireDate: input.hire_date,
            leftOn: input.left_on,
            workStartDate: input.work_start_date,
            status,
            userId: input.user_id,
            managerId: input.manager_id,
            updatedAt: now,
          }))
          // after the record, so a link taken by another record is refused by employees_user_unique, with its message
          if (input.user_id !== undefined) await recordLinkChange(tx, id, current.userId, input.user_id, now)
          // grants not yet written follow the dates as they are now (made active again, or a hire date set)
          await accrueLeave(tx, now, defaultZone, { employeeIds: [id] })
          const after = toEmployeeResponse((await repo.findEmployee(tx, id))!)
          await recordAudit(tx, actor, now, {
            action: 'employee.update',
            resource: 'employee',
            resourceId: id,
            before: toEmployeeResponse(current),
            after,
          })
          return after
        })
      } catch (error) {
        if (isUniqueViolation(error)) throw conflictFor(error, input)
        throw error
      }
      if (input.user_id !== undefined) {
        if (previousUserId !== null) access.invalidate(previousUserId)
        if (input.user_id !== null) access.invalidate(input.user_id)
      }
      return updated
    },

    /**
     * Gives a record that has no account one (CONTRACT §23): a new account (username and password,
     * role employee) or an existing one (user_id), by the rule for people as create and update link
     * them. `created` tells which.
     */
    async giveAccount(id: number, input: AccountInput, actor: Actor, principal: Principal): Promise<{ employee: EmployeeResponse; created: boolean }> {
      for (const rule of ACCOUNT_RULES) rule(input)
      if (input.username === undefined && input.user_id === undefined)
        throw new ValidationError(say.accountNeeded(), [{ field: 'username', message: say.requiredOrUserId() }])
      const passwordHash = input.password === undefined ? null : await hashPassword(input.password)
      const now = clock.now()
      let employee: EmployeeResponse
      try {
        employee = await database.write(async (tx) => {
          const current = await repo.findEmployee(tx, id)
          if (!current) throw missing(id)
          if (current.userId !== null) {
            // the account as people know it, by its username, not its id
            const account = await findUserById(tx, current.userId)
            throw new ConflictError(say.hasAccount({ id, name: current.name, username: account?.username ?? String(current.userId) }))
          }
          let userId: number
          if (input.user_id !== undefined) {
            await checkReferences(tx, { user_id: input.user_id })
            requireOwnLinkKept(principal, null, input.user_id)
            userId = input.user_id
          } else userId = (await newAccount(tx, principal, actor, { username: input.username!, passwordHash: passwordHash!, name: current.name }, now)).id
          await changeLink(tx, principal, actor, { from: null, to: userId, existingRecord: true, newUsername: input.username }, now)
          // before the history, so a link taken by another record is refused by employees_user_unique, with its message
          await repo.updateEmployee(tx, id, { userId, updatedAt: now })
          await recordLinkChange(tx, id, null, userId, now)
          const after = toEmployeeResponse((await repo.findEmployee(tx, id))!)
          await recordAudit(tx, actor, now, { action: 'employee.account', resource: 'employee', resourceId: id, before: toEmployeeResponse(current), after })
          return after
        })
      } catch (error) {
        if (isUniqueViolation(error)) throw conflictFor(error, input)
        throw error
      }
      access.invalidate(employee.user_id!)
      return { employee, created: input.user_id === undefined }
    },

    async remove(id: number, actor: Actor, principal: Principal): Promise<void> {
      const now = clock.now()
      let userId: number | null = null
      try {
        await database.write(async (tx) => {
          const current = await repo.findEmployee(tx, id)
          if (!current) throw missing(id)
          userId = current.userId
          requireOwnLinkKept(principal, current.userId, null)
          await requireLink(tx, principal, { from: current.userId, to: null, existingRecord: true })
          await keepOwnApprover(tx, principal, say.deleteEmployee({ id, name: current.name }), async () => {
            // the column's ON DELETE SET NULL, done here (SQLite cannot add it to an existing column): reports lose their manager
            await repo.clearManager(tx, id)
            await repo.deleteEmployee(tx, id)
          })
          await recordAudit(tx, actor, now, { action: 'employee.delete', resource: 'employee', resourceId: id, before: toEmployeeResponse(current) })
        })
      } catch (error) {
        if (isForeignKeyViolation(error)) throw new ConflictError(say.hasRecords({ id }))
        throw error
      }
      if (userId !== null) access.invalidate(userId)
    },
  }
}

export type EmployeesService = ReturnType<typeof createEmployeesService>
