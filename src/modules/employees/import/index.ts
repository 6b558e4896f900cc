import { Elysia } from 'elysia'
import type { AuthGuard } from '../../../http/auth'
import { Envelope, type Replier } from '../../../http/envelope'
import { streamedMultipart } from '../../../http/json-body'
import { errors } from '../../../http/openapi'
import { say } from '../messages'
import { MAX_ROWS } from './csv'
import { IMPORT_COLUMNS, IMPORT_FORM_DOC, ImportQuery, ImportResult, MAX_IMPORT_BYTES } from './model'
import type { EmployeeImport } from './service'

const PATH = '/api/v1/admin/employees/import'
const rows = MAX_ROWS.toLocaleString('en')
const employees = (n: number) => say.employeeCount({ n: n.toLocaleString('en') })

const DESCRIPTION = [
  `A CSV file (RFC 4180, UTF-8; a byte-order mark is fine) whose first row names the columns, then one row per employee, at most ${rows}. ` +
    `Columns: ${IMPORT_COLUMNS.map((column) => `\`${column}\``).join(', ')}; only \`name\` is required, in any order, ` +
    'matched ignoring case (spaces or hyphens stand for underscores). `department` is a department’s name, compared ignoring case and ' +
    'surrounding spaces; `company_id` and `manager_id` are ids; `manager_employee_no` gives the manager instead by employee number, ' +
    'that of another row of the file or of an existing employee (not both columns in one row; no cycle of managers); ' +
    '`status` is 1 (active, the default) or 0 (left). An empty cell is ' +
    'a field not given; cells are trimmed, except passwords. `username` and `password` together also create the employee’s account, ' +
    'with role `employee`, as POST /api/v1/admin/employees does.',
  'Every row is checked as creating that one employee would be, and employee numbers and usernames may not repeat in the file. ' +
    'A file with any problem is a 400 whose `errors` lists every problem of every row at once, each with its `row` as a ' +
    'spreadsheet numbers it (the header is row 1, the first employee row 2) and its column in `field` (`file` for the file ' +
    'or a row as a whole); nothing is created.',
  '`dry_run` must be given: `true` only checks (and answers how many employees would be created); `false` creates them all ' +
    'or none, in one transaction, each audited as `employee.create` (and `role.assign` for its account). Passwords are hashed ' +
    'first (about a tenth of a second each), so a file with many of them takes that long to answer.',
].join('\n\n')

export const employeeImportController = (guard: AuthGuard, reply: Replier, imports: EmployeeImport) =>
  new Elysia({ name: 'employees-import', prefix: PATH })
    .use(guard)
    .post(
      '',
      async ({ request, query, actor, principal }) => {
        const result = await imports.import(request, query.dry_run === 'true', actor, principal)
        const count = employees(result.created)
        return reply.ok(result, query.dry_run === 'true' ? say.wouldCreate({ count }) : say.imported({ count }))
      },
      {
        permission: 'employees:create',
        query: ImportQuery,
        parse: streamedMultipart(PATH),
        response: Envelope(ImportResult),
        detail: {
          tags: ['Employees'],
          summary: `Import employees from a CSV file (multipart field "file"), all or none; dry_run=true only checks it`,
          description: DESCRIPTION,
          ...errors({
            400: `dry_run is missing; the form has no file; the file is empty, not UTF-8 CSV, has more than ${rows} rows, an unknown, repeated or missing column, or a row with a problem: \`errors\` lists them all, each with its \`row\``,
            403: 'A row gives an account (role employee, whose permissions you must hold too), or makes you, an account you made in the last 30 days or one the file creates an employee’s manager (needs approvals:manage)',
            409: 'The database refused a row (a duplicate, or a department, company or manager deleted meanwhile); nothing was imported',
            413: `The file is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MiB`,
          }),
          ...IMPORT_FORM_DOC,
        },
      },
    )
