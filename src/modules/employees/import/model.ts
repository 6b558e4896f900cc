import { t } from 'elysia'
import { uploadForm } from '../../imports/form'
import { MAX_ROWS } from './csv'

/** The columns an import reads, in the order the documentation lists them. */
export const IMPORT_COLUMNS = [
  'name',
  'employee_no',
  'phone',
  'email',
  'department',
  'company_id',
  'position',
  'hire_date',
  'status',
  'manager_id',
  'manager_employee_no',
  'username',
  'password',
] as const
export type ImportColumn = (typeof IMPORT_COLUMNS)[number]

/** Whole numbers in the file; the other columns are text. */
export const INTEGER_COLUMNS: ReadonlySet<ImportColumn> = new Set(['company_id', 'manager_id', 'status'])

/** Columns of an employee that an import does not set, with what to do instead. */
export const NOT_IMPORTED: Readonly<Record<string, string>> = {
  id: 'ids are given by the service',
  department_id: 'give the department by name, in a column "department"',
  user_id: 'an import creates new accounts (username and password); link an existing account with POST /api/v1/admin/employees/{id}/account',
  attendance_group_id: 'add employees to a group with POST /api/v1/admin/attendance/groups/{id}/employees',
  created_at: 'set by the service',
  updated_at: 'set by the service',
}

/** Enough for 5,000 rows of long names, addresses and department names in any script. */
export const MAX_IMPORT_BYTES = 4 * 1024 * 1024

export const ImportQuery = t.Object({
  dry_run: t.Union([t.Literal('true'), t.Literal('false')], {
    description: 'required: `true` checks the file and writes nothing; `false` imports it',
    error: 'dry_run must be true (check the file and write nothing) or false (import it)',
  }),
})

export const ImportResult = t.Object({
  created: t.Integer({ minimum: 0, description: 'employees created; with dry_run=true, how many would be' }),
  errors: t.Array(
    t.Object({
      row: t.Integer({ minimum: 1 }),
      field: t.String(),
      message: t.String(),
    }),
    { description: 'always empty here: a file with errors is a 400 whose `errors` lists every one, each with its row', maxItems: 0 },
  ),
})
export type ImportResultResponse = typeof ImportResult.static

export const IMPORT_FORM_DOC = uploadForm('employees', MAX_IMPORT_BYTES, MAX_ROWS)
