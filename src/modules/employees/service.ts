import { eq } from 'drizzle-orm'
import type { Database, Tx } from '../../db/client'
import { companies, departments, users } from '../../db/schema'
import { ConflictError, NotFoundError, ValidationError } from '../../http/errors'
import { p1, pageWindow } from '../../http/pagination'
import type { Clock } from '../../lib/clock'
import { isCalendarDate } from '../../lib/dates'
import { hashPassword } from '../../lib/password'
import { isForeignKeyViolation, isUniqueViolation, uniqueViolationTarget } from '../../lib/sqlite-errors'
import { optionalText, requiredText } from '../../lib/text'
import { recordAudit, type Actor } from '../audit/recorder'
import type { AccessResolver, Principal } from '../rbac/access'
import { EMPLOYEE_ROLE } from '../rbac/catalogue'
import { requireLink, requireManagerChange, requireRoles, type LinkChange } from '../rbac/people'
import { findRoleId, findRolesByName, grantRole, roleNamesByUser } from '../rbac/repository'
import { insertUser } from '../users/repository'
import { usernameTaken } from '../users/service'
import type { CreateEmployeeInput, EmployeeListQuery, EmployeeResponse, UpdateEmployeeInput } from './model'
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
    status: row.status,
    user_id: row.userId,
    attendance_group_id: row.attendanceGroupId,
    manager_id: row.managerId,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  }
}

const missing = (id: number) => new NotFoundError(`Employee ${id} does not exist`)

function checkHireDate(value: string | null | undefined): void {
  if (value && !isCalendarDate(value))
    throw new ValidationError(`hire_date "${value}" is not a real date (YYYY-MM-DD)`, [{ field: 'hire_date', message: 'is not a real date' }])
}

/** 400 naming every referenced department, company or user that does not exist. */
async function checkReferences(
  tx: Tx,
  refs: { department_id?: number | null; company_id?: number | null; user_id?: number | null },
): Promise<void> {
  const problems: { field: string; message: string }[] = []
  const exists = async (table: typeof departments | typeof companies | typeof users, id: number) =>
    (await tx.select({ id: table.id }).from(table).where(eq(table.id, id)).limit(1)).length > 0
  if (refs.department_id && !(await exists(departments, refs.department_id)))
    problems.push({ field: 'department_id', message: `department ${refs.department_id} does not exist` })
  if (refs.company_id && !(await exists(companies, refs.company_id)))
    problems.push({ field: 'company_id', message: `company ${refs.company_id} does not exist` })
  if (refs.user_id && !(await exists(users, refs.user_id)))
    problems.push({ field: 'user_id', message: `user ${refs.user_id} does not exist` })
  if (problems.length > 0)
    throw new ValidationError(problems.map((p) => `${p.field}: ${p.message}`).join('; '), problems)
}

/**
 * 400 unless `managerId` names an existing employee whose own chain of managers does not lead back
 * to `employeeId` (itself included): the message names the chain (CONTRACT §10).
 */
async function checkManager(tx: Tx, employee: { id: number; name: string } | null, managerId: number | null | undefined): Promise<void> {
  if (managerId === undefined || managerId === null) return
  if (employee !== null && managerId === employee.id)
    throw new ValidationError(`manager_id ${managerId}: an employee cannot be their own manager`, [{ field: 'manager_id', message: 'is the employee itself' }])
  const chain = employee === null ? [] : [employee]
  const seen = new Set(chain.map((link) => link.id))
  for (let next: number | null = managerId; next !== null; ) {
    const manager = await repo.managerOf(tx, next)
    if (manager === null) {
      if (next === managerId)
        throw new ValidationError(`manager_id names employee ${managerId}, which does not exist`, [{ field: 'manager_id', message: 'does not exist' }])
      return
    }
    chain.push({ id: next, name: manager.name })
    if (seen.has(next)) break
    seen.add(next)
    next = manager.managerId
  }
  if (employee === null || chain.at(-1)?.id !== employee.id) return
  const names = chain.map((link) => `${link.name} (${link.id})`).join(' → ')
  throw new ValidationError(`manager_id ${managerId} would make a cycle of managers: ${names}`, [{ field: 'manager_id', message: `makes a cycle: ${names}` }])
}

function conflictFor(error: unknown, input: { employee_no?: string | null; user_id?: number | null; username?: string }) {
  const target = uniqueViolationTarget(error)
  if (target.includes('employee_no')) return new ConflictError(`Employee number "${input.employee_no}" is already in use`)
  if (target.includes('employees_user') || target.includes('employees.user_id'))
    return new ConflictError(`User ${input.user_id} is already linked to another employee`)
  if (target.includes('username')) return usernameTaken(input.username ?? '')
  return new ConflictError('The employee conflicts with an existing record')
}

export function createEmployeesService({ database, clock, access }: { database: Database; clock: Clock; access: AccessResolver }) {
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
      if ((input.username === undefined) !== (input.password === undefined))
        throw new ValidationError('Send username and password together to create a linked account', [
          { field: input.username === undefined ? 'username' : 'password', message: 'is required with the other' },
        ])
      if (input.username !== undefined && input.user_id !== undefined)
        throw new ValidationError('Send either user_id (link an existing user) or username and password (create one), not both', [
          { field: 'user_id', message: 'conflicts with username' },
        ])
      checkHireDate(input.hire_date)
      const name = requiredText(input.name, 'name')
      const passwordHash = input.password === undefined ? null : await hashPassword(input.password)
      const now = clock.now()
      try {
        const created = await database.write(async (tx) => {
          await checkReferences(tx, input)
          requireManagerChange(principal, input.manager_id)
          await checkManager(tx, null, input.manager_id)
          let userId = input.user_id ?? null
          if (input.username !== undefined && passwordHash !== null) {
            await requireRoles(tx, principal, await findRolesByName(tx, [EMPLOYEE_ROLE]), 'give a new account role employee')
            const user = await insertUser(tx, { username: input.username, passwordHash, name, status: 1, createdAt: now, updatedAt: now })
            userId = user.id
          }
          if (userId !== null) await changeLink(tx, principal, actor, { from: null, to: userId, existingRecord: false }, now)
          const id = await repo.insertEmployee(tx, {
            name,
            employeeNo: optionalText(input.employee_no),
            phone: optionalText(input.phone),
            email: optionalText(input.email),
            departmentId: input.department_id ?? null,
            companyId: input.company_id ?? null,
            position: optionalText(input.position),
            hireDate: input.hire_date ?? null,
            status: input.status ?? 1,
            userId,
            managerId: input.manager_id ?? null,
            createdAt: now,
            updatedAt: now,
          })
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
          await checkReferences(tx, input)
          if (input.manager_id !== current.managerId) requireManagerChange(principal, input.manager_id)
          await checkManager(tx, { id, name: current.name }, input.manager_id)
          if (input.user_id !== undefined)
            await changeLink(tx, principal, actor, { from: current.userId, to: input.user_id, existingRecord: true }, now)
          await repo.updateEmployee(tx, id, {
            name: input.name === undefined ? undefined : requiredText(input.name, 'name'),
            employeeNo: optionalText(input.employee_no),
            phone: optionalText(input.phone),
            email: optionalText(input.email),
            departmentId: input.department_id,
            companyId: input.company_id,
            position: optionalText(input.position),
            hireDate: input.hire_date,
            status: input.status,
            userId: input.user_id,
            managerId: input.manager_id,
            updatedAt: now,
          })
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

    async remove(id: number, actor: Actor, principal: Principal): Promise<void> {
      const now = clock.now()
      let userId: number | null = null
      try {
        await database.write(async (tx) => {
          const current = await repo.findEmployee(tx, id)
          if (!current) throw missing(id)
          userId = current.userId
          await requireLink(tx, principal, { from: current.userId, to: null, existingRecord: true })
          // the column's ON DELETE SET NULL, done here (SQLite cannot add it to an existing column): reports lose their manager
          await repo.clearManager(tx, id)
          await repo.deleteEmployee(tx, id)
          await recordAudit(tx, actor, now, { action: 'employee.delete', resource: 'employee', resourceId: id, before: toEmployeeResponse(current) })
        })
      } catch (error) {
        if (isForeignKeyViolation(error))
          throw new ConflictError(
            `Employee ${id} has attendance, leave or salary records and cannot be deleted; set status 0 (left) instead`,
          )
        throw error
      }
      if (userId !== null) access.invalidate(userId)
    },
  }
}

export type EmployeesService = ReturnType<typeof createEmployeesService>
