import { t } from 'elysia'
import { rules } from '../../imports/messages'

/** At most this many balances per file. */
export const MAX_OPENING_ROWS = 50_000

export const MAX_OPENING_BYTES = 4 * 1024 * 1024

/** The reason of every ledger row the import writes (CONTRACT §23). */
export const OPENING_REASON = 'opening balance'

export const OPENING_COLUMNS = ['employee_no', 'leave_type', 'year', 'days'] as const
export type OpeningColumn = (typeof OPENING_COLUMNS)[number]

export const OpeningImportQuery = t.Object({
  dry_run: t.Union([t.Literal('true'), t.Literal('false')], {
    description: 'required: `true` checks the file and writes nothing; `false` imports it',
    error: rules.dryRun,
  }),
})

export const OpeningImportResult = t.Object({
  created: t.Integer({ minimum: 0, description: 'opening balances written (ledger rows); with dry_run=true, how many would be' }),
  errors: t.Array(t.Object({ row: t.Integer({ minimum: 1 }), field: t.String(), message: t.String() }), {
    description: 'always empty here: a file with errors is a 400 whose `errors` lists every one, each with its row',
    maxItems: 0,
  }),
})
export type OpeningImportResponse = typeof OpeningImportResult.static
