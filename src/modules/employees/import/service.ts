import type { Database, Queryable } from '../../../db/client'
import { ConflictError, type FieldError } from '../../../http/errors'
import type { Clock } from '../../../lib/clock'
import type { Limiter } from '../../../lib/limiter'
import { hashPassword } from '../../../lib/password'
import { isForeignKeyViolation, isUniqueViolation, uniqueViolationTarget } from '../../../lib/sqlite-errors'
import { recordAudits, type Actor, type AuditEntry } from '../../audit/recorder'
import { departmentKey, departmentsByName } from '../../departments/repository'
import type { Principal } from '../../rbac/access'
import { EMPLOYEE_ROLE } from '../../rbac/catalogue'
import { recordLinkChange } from '../../rbac/own-matters'
import { requireRoles } from '../../rbac/people'
import { findRoleId, findRolesByName, grantRoleToMany, roleNamesByUser } from '../../rbac/repository'
import { say as users } from '../../users/messages'
import { insertUsers, takenUsernames } from '../../users/repository'
import { say } from '../messages'
import { insertEmployees, missingEmployeeIds, setManager, takenEmployeeNos } from '../repository'
import { accrueLeave } from '../../leave/accrual-job'
import { missingReferences, newEmployeeRow, toEmployeeResponse } from '../service'
import { decodeText, parseCsv } from './csv'
import { managerProblems, requireDeciderChoices } from './managers'
import type { ImportColumn, ImportResultResponse } from './model'
import { employeeNoOf, readHeader, readRow, repeats, rowsRefused, ruleProblems, usernameOf, type Header, type ImportRow } from './rows'
import { readUpload } from './upload'

/*
 * Employees from a CSV file (CONTRACT §12): every row is checked by the rules of creating one
 * employee (the create model, NEW_EMPLOYEE_RULES, missing references, taken numbers and usernames,
 * the rule for people), every problem of every row is reported at once, and the rows are written
 * all or none in one transaction, audited as creating each one would be.
 *
 * Rows are numbered as a spreadsheet shows them: the header is row 1 and the first employee row 2;
 * a cell with a line break stays in its row, and blank rows keep their numbers (see csv.ts).
 */

/**
 * What the database says of the rows: departments by name, companies and managers that do not
 * exist, employee numbers and usernames already taken. Run before anything slow, and again inside
 * the write transaction, where it decides. Fills in each row's department_id.
 */
async function databaseProblems(db: Queryable, items: ImportRow[]): Promise<FieldError[]> {
  const problems: FieldError[] = []
  const usable = (item: ImportRow, field: string) => !item.refused.has(field)

  const named = items.filter((item) => item.department !== undefined)
  const departments = await departmentsByName(db, named.map((item) => item.department!))
  for (const item of named) {
    const found = departments.get(departmentKey(item.department!))
    if (!found) {
      problems.push({ row: item.row, field: 'department', message: say.noDepartmentNamed({ name: item.department! }) })
      continue
    }
    item.input.department_id = found.id
    item.departmentName = found.name
  }

  const companies = items.filter((item) => usable(item, 'company_id') && item.input.company_id)
  const missing = await missingReferences(db, companies.map((item) => ({ company_id: item.input.company_id })))
  companies.forEach((item, i) => problems.push(...missing[i].map((problem) => ({ row: item.row, ...problem }))))

  const managed = items.filter((item) => usable(item, 'manager_id') && typeof item.input.manager_id === 'number')
  const noManager = await missingEmployeeIds(db, [...new Set(managed.map((item) => item.input.manager_id!))])
  for (const item of managed)
    if (noManager.has(item.input.manager_id!))
      problems.push({ row: item.row, field: 'manager_id', message: say.namesMissingEmployee({ id: item.input.manager_id! }) })

  const numbered = items.filter((item) => usable(item, 'employee_no') && employeeNoOf(item) !== undefined)
  const takenNos = await takenEmployeeNos(db, [...new Set(numbered.map((item) => employeeNoOf(item)!))])
  for (const item of numbered)
    if (takenNos.has(employeeNoOf(item)!)) {
      problems.push({ row: item.row, field: 'employee_no', message: say.employeeNoTaken({ no: employeeNoOf(item)! }) })
      item.refused.add('employee_no')
    }

  problems.push(...(await managerProblems(db, items)))

  const accounts = items.filter((item) => usable(item, 'username') && item.input.username !== undefined)
  const takenNames = await takenUsernames(db, accounts.map((item) => item.input.username!))
  for (const item of accounts)
    if (takenNames.has(usernameOf(item)!)) {
      problems.push({ row: item.row, field: 'username', message: users.usernameTaken({ username: item.input.username! }) })
      item.refused.add('username')
    }
  return problems
}

/**
 * The rule for people (rbac/people.ts), as creating each row's employee applies it: making oneself
 * someone's manager, or an account of one's own recent making (one the file creates too), needs
 * approvals:manage; a new account gets role employee, whose permissions the caller must hold. A
 * refusal is a 403 for the whole file.
 */
async function requirePeopleRule(db: Queryable, principal: Principal, items: ImportRow[], now: Date): Promise<void> {
  await requireDeciderChoices(db, principal, items, now)
  if (items.some((item) => item.input.username !== undefined || item.input.password !== undefined))
    await requireRoles(db, principal, await findRolesByName(db, [EMPLOYEE_ROLE]), 'give a new account role employee')
}

export interface EmployeeImportDeps {
  database: Database
  clock: Clock
  /** password hashes of imports, at most so many at a time in this process */
  hashing: Limiter
  /** the zone of a date outside a company (the accrual of the new hires' leave) */
  defaultZone: string
}

export function createEmployeeImport({ database, clock, hashing, defaultZone }: EmployeeImportDeps) {
  const { db } = database

  /** The 400 listing every problem of the rows, if there is one; `q` is the database or the write transaction. */
  const check = async (q: Queryable, header: Header, items: ImportRow[], early: FieldError[]) => {
    const problems = [...early]
    for (const item of items) problems.push(...ruleProblems(item))
    problems.push(...(await databaseProblems(q, items)))
    problems.push(...repeats(items, 'employee_no', employeeNoOf))
    problems.push(...repeats(items, 'username', usernameOf, say.repeatedUsername))
    const order = (field: string) => (field === 'file' ? -1 : (header.columns.get(field as ImportColumn) ?? header.columns.size))
    if (problems.length > 0) throw rowsRefused(problems, order)
  }

  /** Copies of the rows for one check, which fills in their state (refused fields, department ids) afresh. */
  const fresh = (items: ImportRow[]) =>
    items.map((item) => ({ ...item, input: { ...item.input }, refused: new Set<string>() }))

  return {
    async import(request: Request, dryRun: boolean, actor: Actor, principal: Principal): Promise<ImportResultResponse> {
      const table = parseCsv(decodeText(await readUpload(request)))
      const header = readHeader(table)
      const early: FieldError[] = []
      const items: ImportRow[] = []
      for (const row of table.rows) {
        const read = readRow(header, row)
        if ('input' in read) items.push(read)
        else early.push(read)
      }
      await requirePeopleRule(db, principal, items, clock.now())
      await check(db, header, fresh(items), early)
      if (dryRun) return { created: items.length, errors: [] }

      // the slow part, before the write lock is taken; an import's hashes share a few places in this process
      const hashes = new Map<number, string>()
      await Promise.all(
        items
          .filter((item) => item.input.password !== undefined)
          .map((item) => hashing.run(async () => void hashes.set(item.row, await hashPassword(item.input.password!)))),
      )
      const now = clock.now()
      try {
        await database.write(async (tx) => {
          // decided here, under the write lock: what changed while the passwords were hashed is seen
          const rows = fresh(items)
          await requirePeopleRule(tx, principal, rows, now)
          await check(tx, header, rows, [])
          const ids = await createAll(tx, rows, hashes, actor, now)
          // the new hires' leave grants due now, at once (CONTRACT §18)
          await accrueLeave(tx, now, defaultZone, { employeeIds: ids })
        })
      } catch (error) {
        // the checks under the write lock leave the database nothing to refuse; should it refuse a row all the same, nothing is kept
        if (isUniqueViolation(error)) throw new ConflictError(say.duplicateRow({ target: uniqueViolationTarget(error) || say.uniqueIndex() }))
        if (isForeignKeyViolation(error)) throw new ConflictError(say.referenceGone())
        throw error
      }
      return { created: items.length, errors: [] }
    },
  }
}

/** Writes the rows as creating each would (accounts with role employee, then employees), with their audit entries in row order; returns the employees' ids. */
async function createAll(tx: Queryable, rows: ImportRow[], hashes: Map<number, string>, actor: Actor, now: Date): Promise<number[]> {
  const accounts = rows.filter((item) => item.input.username !== undefined)
  let userIds = new Map<string, number>()
  if (accounts.length > 0) {
    userIds = await insertUsers(
      tx,
      accounts.map((item) => ({
        username: item.input.username!,
        passwordHash: hashes.get(item.row)!,
        name: newEmployeeRow(item.input, null, now).name,
        status: 1,
        createdBy: actor.userId,
        createdAt: now,
        updatedAt: now,
      })),
    )
    await grantRoleToMany(tx, [...userIds.values()], (await findRoleId(tx, EMPLOYEE_ROLE))!, now)
  }
  const userOf = (item: ImportRow) => (item.input.username === undefined ? null : userIds.get(usernameOf(item)!)!)
  const stored = await insertEmployees(tx, rows.map((item) => newEmployeeRow(item.input, userOf(item), now)))
  // managers named by a row of the file get their id once it is stored
  const idOfRow = new Map(rows.map((item, i) => [item.row, stored[i].id]))
  const reports = new Map<number, number[]>()
  rows.forEach((item, i) => {
    if (item.managerRow === undefined) return
    const managerId = idOfRow.get(item.managerRow)!
    const ids = reports.get(managerId) ?? []
    ids.push(stored[i].id)
    reports.set(managerId, ids)
    stored[i] = { ...stored[i], managerId }
  })
  for (const [managerId, ids] of reports) await setManager(tx, ids, managerId, now)
  for (const employee of stored) if (employee.userId !== null) await recordLinkChange(tx, employee.id, null, employee.userId, now)
  const roles = await roleNamesByUser(tx, [...userIds.values()])
  const entries: AuditEntry[] = []
  rows.forEach((item, i) => {
    const userId = userOf(item)
    if (userId !== null)
      entries.push({ action: 'role.assign', resource: 'user', resourceId: userId, before: { roles: [] }, after: { roles: roles.get(userId) } })
    // as findEmployee shows it: the department named in the file, and no attendance group yet
    const department = item.department === undefined ? null : { id: item.input.department_id!, name: item.departmentName! }
    const employee = toEmployeeResponse({ ...stored[i], department, attendanceGroupId: null })
    entries.push({ action: 'employee.create', resource: 'employee', resourceId: employee.id, after: employee })
  })
  await recordAudits(tx, actor, now, entries)
  return stored.map((employee) => employee.id)
}

export type EmployeeImport = ReturnType<typeof createEmployeeImport>
