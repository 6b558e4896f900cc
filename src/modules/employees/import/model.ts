import { t } from 'elysia'
import type { Message } from '../../../lib/messages'
import { uploadForm } from '../../imports/form'
import { rules } from '../../imports/messages'
import { say } from '../messages'
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
  'work_start_date',
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
export const NOT_IMPORTED: Readonly<Record<string, Message>> = {
  id: say.notImportedId(),
  department_id: say.notImportedDepartmentId(),
  // "{id}" stays as written: a placeholder of the path, not of the message
  user_id: say.notImportedUserId({ id: '{id}' }),
  attendance_group_id: say.notImportedGroupId({ id: '{id}' }),
  created_at: say.notImportedTimestamp(),
  updated_at: say.notImportedTimestamp(),
}

/** Enough for 5,000 rows of long names, addresses and department names in any script. */
export const MAX_IMPORT_BYTES = 4 * 1024 * 1024

export const ImportQuery = t.Object({
  dry_run: t.Union([t.Literal('true'), t.Literal('false')], {
    description: 'required: `true` checks the file and writes nothing; `false` imports it',
    error: rules.dryRun,
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
