import { Elysia } from 'elysia'
import type { AuthGuard } from '../../../http/auth'
import { Envelope, type Replier } from '../../../http/envelope'
import { streamedMultipart } from '../../../http/json-body'
import { errors } from '../../../http/openapi'
import { uploadForm } from '../../imports/form'
import { HISTORY_COLUMNS, HistoryImportQuery, HistoryImportResult, MAX_HISTORY_BYTES, MAX_HISTORY_ROWS, type HistoryImportResponse } from './model'
import { say } from './messages'
import type { HistoryImport } from './service'

const PATH = '/api/v1/admin/attendance/records/import'
const rows = MAX_HISTORY_ROWS.toLocaleString('en')
const summary = ({ created, replaced, kept }: HistoryImportResponse) =>
  say.counts({ created: created.toLocaleString('en'), replaced: replaced.toLocaleString('en'), kept: kept.toLocaleString('en') })

const DESCRIPTION = [
  `Past attendance (CONTRACT §23): a CSV file (RFC 4180, UTF-8; a byte-order mark is fine) whose first row names the columns ` +
    `${HISTORY_COLUMNS.map((column) => `\`${column}\``).join(', ')} (\`clock_out\` and \`note\` may be left out), then one row per record, ` +
    `at most ${rows}. \`employee_no\` names the employee; \`work_date\` is YYYY-MM-DD, not in the future and not before the employee’s ` +
    'attendance start (their hire date, their group’s company’s `attendance_starts_on`); `clock_in` (required) and `clock_out` are a local ' +
    'time HH:MM (seconds allowed) in the zone of the employee’s group, or an ISO 8601 instant with its offset. A local clock-out before the ' +
    'clock-in is on the next day. A row without a clock-out is an exception once its day is closed.',
  'Each record is judged as an approved correction judges one (see PUT /api/v1/admin/attendance/records/{id}): under the rule that ' +
    'applies on its date in the employee’s group now, with the company calendar, the employee’s attendance start and half days of ' +
    'approved leave (a record already clocked in, replaced, keeps the shift it was opened under). It is marked `imported`, carries the ' +
    'row’s note, and each one is audited as `attendance_record.import` with what it replaced.',
  'A date that has a record with clock times keeps it (counted in `kept`) unless `replace=true`; an absent record without clock times ' +
    '(day close’s) is always replaced. An employee number that does not exist, an employee in no attendance group or whose group has no ' +
    'enabled rule, a date given twice for an employee, a date with a pending correction, times that do not hang together (the clock-in ' +
    'on the work date, the clock-out after it by at most 24 hours, neither in the future): a 400 whose `errors` lists every problem of ' +
    'every row, each with its `row` as a spreadsheet numbers it (the header is row 1), and nothing is written. A row that is your own ' +
    'record is a 403 for the whole file (nobody edits their own attendance, CONTRACT §15).',
  '`dry_run` must be given: `true` only checks and counts; `false` writes every record or none, in one transaction.',
].join('\n\n')

export const historyImportController = (guard: AuthGuard, reply: Replier, history: HistoryImport) =>
  new Elysia({ name: 'attendance-history-import', prefix: PATH })
    .use(guard)
    .post(
      '',
      async ({ request, query, actor, principal }) => {
        const dryRun = query.dry_run === 'true'
        const result = await history.import(request, { dryRun, replace: query.replace === 'true' }, actor, principal)
        const counts = summary(result)
        return reply.ok(result, dryRun ? say.fileFine({ counts }) : say.imported({ counts }))
      },
      {
        permission: 'attendance_records:update',
        query: HistoryImportQuery,
        parse: streamedMultipart(PATH),
        response: Envelope(HistoryImportResult),
        detail: {
          tags: ['Attendance records'],
          summary: 'Import past attendance records from a CSV file (multipart field "file"), all or none; dry_run=true only checks it',
          description: DESCRIPTION,
          ...errors({
            400: `dry_run is missing; the form has no file; the file is empty, not UTF-8 CSV, has more than ${rows} rows, an unknown, repeated or missing column, or a row with a problem: \`errors\` lists them all, each with its \`row\``,
            403: 'A row is a record of your own employee (linked to your account now or before)',
            413: `The file is larger than ${MAX_HISTORY_BYTES / 1024 / 1024} MiB`,
          }),
          ...uploadForm('attendance records', MAX_HISTORY_BYTES, MAX_HISTORY_ROWS),
        },
      },
    )
