import { Elysia } from 'elysia'
import type { AuthGuard } from '../../../http/auth'
import { Envelope, type Replier } from '../../../http/envelope'
import { streamedMultipart } from '../../../http/json-body'
import { errors } from '../../../http/openapi'
import { uploadForm } from '../../imports/form'
import { say } from '../messages'
import { MAX_OPENING_BYTES, MAX_OPENING_ROWS, OPENING_COLUMNS, OpeningImportQuery, OpeningImportResult } from './model'
import type { OpeningBalances } from './service'

const PATH = '/api/v1/admin/leave/balances/import'
const rows = MAX_OPENING_ROWS.toLocaleString('en')
const balances = (n: number) => say.openingCount({ n: n.toLocaleString('en') })

const DESCRIPTION = [
  `Opening leave balances (CONTRACT §23): a CSV file (RFC 4180, UTF-8; a byte-order mark is fine) whose first row names the columns ` +
    `${OPENING_COLUMNS.map((column) => `\`${column}\``).join(', ')}, then one row per balance, at most ${rows}. \`employee_no\` names the ` +
    'employee, `leave_type` a leave type by name (ignoring case), `year` the balance’s year; `days` (a multiple of 0.5, not 0, from -366 ' +
    'to 366) is added to the days granted, or, negative, taken away (e.g. days already taken before the service was used), never below ' +
    'zero remaining.',
  'Each row is written to the ledger as an adjustment with the reason "opening balance", as POST /api/v1/admin/leave/balances/adjust ' +
    'writes one, and audited as `leave_balance.import`. A balance takes one opening balance: a second row for it, in the file or in a ' +
    'later file, is refused (adjust it instead). A file with any problem is a 400 whose `errors` lists every problem of every row, each ' +
    'with its `row` (the header is row 1); nothing is written. A row for your own employee record is a 403 for the whole file (nobody ' +
    'adjusts their own balance, CONTRACT §15).',
  '`dry_run` must be given: `true` only checks and counts; `false` writes every row or none, in one transaction.',
].join('\n\n')

export const openingBalancesController = (guard: AuthGuard, reply: Replier, opening: OpeningBalances) =>
  new Elysia({ name: 'leave-opening-balances', prefix: PATH })
    .use(guard)
    .post(
      '',
      async ({ request, query, actor, principal }) => {
        const dryRun = query.dry_run === 'true'
        const result = await opening.import(request, dryRun, actor, principal)
        const count = balances(result.created)
        return reply.ok(result, dryRun ? say.openingWouldWrite({ count }) : say.openingImported({ count }))
      },
      {
        permission: 'leave:manage',
        query: OpeningImportQuery,
        parse: streamedMultipart(PATH),
        response: Envelope(OpeningImportResult),
        detail: {
          tags: ['Leave'],
          summary: 'Import opening leave balances from a CSV file (multipart field "file"), all or none; dry_run=true only checks it',
          description: DESCRIPTION,
          ...errors({
            400: `dry_run is missing; the form has no file; the file is empty, not UTF-8 CSV, has more than ${rows} rows, an unknown, repeated or missing column, or a row with a problem: \`errors\` lists them all, each with its \`row\``,
            403: 'A row is a balance of your own employee (linked to your account now or before)',
            413: `The file is larger than ${MAX_OPENING_BYTES / 1024 / 1024} MiB`,
          }),
          ...uploadForm('opening leave balances', MAX_OPENING_BYTES, MAX_OPENING_ROWS),
        },
      },
    )
