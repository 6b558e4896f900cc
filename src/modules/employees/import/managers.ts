import type { Queryable } from '../../../db/client'
import type { FieldError } from '../../../http/errors'
import type { Message } from '../../../lib/messages'
import type { Principal } from '../../rbac/access'
import { requireDeciderChoice, requireNewDeciderChoice } from '../../rbac/own-matters'
import { say } from '../messages'
import { employeeIdsByNo } from '../repository'
import { employeeNoOf, type ImportRow } from './rows'

/*
 * Managers given by employee number (column manager_employee_no, CONTRACT §23): the number of a row
 * of the same file (a team imported with its manager) or of an existing employee, so that a file
 * written from a spreadsheet needs no internal ids.
 */

/** Where a row's manager_employee_no points: an existing employee, another row of the file, or nowhere. */
export type ManagerRef = { existing: number } | { row: ImportRow } | { unknown: true }

const FIELD = 'manager_employee_no'

/** Each row's manager by number: a row of the file with that employee_no first, else an existing employee. */
export async function managersByNumber(db: Queryable, items: readonly ImportRow[]): Promise<Map<ImportRow, ManagerRef>> {
  const refs = new Map<ImportRow, ManagerRef>()
  const named = items.filter((item) => item.managerEmployeeNo !== undefined)
  if (named.length === 0) return refs
  const inFile = new Map<string, ImportRow>()
  for (const item of items) {
    const number = employeeNoOf(item)
    if (number !== undefined && !inFile.has(number)) inFile.set(number, item)
  }
  const existing = await employeeIdsByNo(db, [...new Set(named.map((item) => item.managerEmployeeNo!).filter((number) => !inFile.has(number)))])
  for (const item of named) {
    const number = item.managerEmployeeNo!
    const row = inFile.get(number)
    const id = existing.get(number)
    refs.set(item, row ? { row } : id !== undefined ? { existing: id } : { unknown: true })
  }
  return refs
}

/**
 * The own-matters rule for the managers a file chooses (CONTRACT §15), as creating each row would
 * apply it: by id or by number, an existing employee goes through requireDeciderChoice; a manager
 * the file itself creates with an account has an account of the caller's making.
 */
export async function requireDeciderChoices(db: Queryable, principal: Principal, items: readonly ImportRow[], now: Date): Promise<void> {
  const refs = await managersByNumber(db, items)
  const chosen = new Set<number>()
  for (const item of items) {
    if (typeof item.input.manager_id === 'number') chosen.add(item.input.manager_id)
    const ref = refs.get(item)
    if (ref && 'existing' in ref) chosen.add(ref.existing)
  }
  for (const managerId of chosen) await requireDeciderChoice(db, principal, managerId, now)
  for (const ref of refs.values())
    if ('row' in ref && ref.row.input.username !== undefined)
      requireNewDeciderChoice(principal, say.employeeOfRow({ row: ref.row.row, no: String(employeeNoOf(ref.row)) }), ref.row.input.username)
}

/**
 * The problems of the rows' managers by number; fills in `manager_id` of those naming an existing
 * employee and `managerRow` of those naming a row of the file.
 */
export async function managerProblems(db: Queryable, items: ImportRow[]): Promise<FieldError[]> {
  const problems: FieldError[] = []
  for (const [item, ref] of await managersByNumber(db, items)) {
    const at = (message: Message) => problems.push({ row: item.row, field: FIELD, message })
    if (item.input.manager_id !== undefined) at(say.managerBothWays())
    else if ('unknown' in ref) at(say.noEmployeeNumbered({ no: item.managerEmployeeNo! }))
    else if ('existing' in ref) item.input.manager_id = ref.existing
    else if (ref.row === item) at(say.ownNumberAsManager())
    else item.managerRow = ref.row.row
  }
  return [...problems, ...cycles(items)]
}

/** Rows whose managers within the file lead back to them: each names the cycle from itself. */
function cycles(items: readonly ImportRow[]): FieldError[] {
  const byRow = new Map(items.map((item) => [item.row, item]))
  const done = new Set<number>()
  const looped = new Map<number, number[]>()
  for (const start of items) {
    const path: number[] = []
    const onPath = new Set<number>()
    let next: number | undefined = start.row
    while (next !== undefined && !done.has(next) && !onPath.has(next)) {
      path.push(next)
      onPath.add(next)
      next = byRow.get(next)?.managerRow
    }
    // the walk came back to a row of its own path: from there on, the path is a cycle
    if (next !== undefined && !done.has(next)) {
      const cycle = path.slice(path.indexOf(next))
      cycle.forEach((row, i) => looped.set(row, [...cycle.slice(i), ...cycle.slice(0, i), row]))
    }
    for (const row of path) done.add(row)
  }
  return items
    .filter((item) => looped.has(item.row))
    .map((item) => ({ row: item.row, field: FIELD, message: say.managerRowsCycle({ rows: looped.get(item.row)!.join(' → ') }) }))
}
