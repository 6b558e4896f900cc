import { t } from 'elysia'
import { rules } from './messages'

/** At most this many rows of records per file (CONTRACT §23). */
export const MAX_HISTORY_ROWS = 50_000

/** Enough for 50,000 rows with notes. */
export const MAX_HISTORY_BYTES = 16 * 1024 * 1024

export const HISTORY_COLUMNS = ['employee_no', 'work_date', 'clock_in', 'clock_out', 'note'] as const
export type HistoryColumn = (typeof HISTORY_COLUMNS)[number]

export const HistoryImportQuery = t.Object({
  dry_run: t.Union([t.Literal('true'), t.Literal('false')], {
    description: 'required: `true` checks the file and writes nothing; `false` imports it',
    error: rules.dryRun,
  }),
  replace: t.Optional(
    t.Union([t.Literal('true'), t.Literal('false')], {
      description: '`true` replaces records that already have clock times; `false` (the default) keeps them, and counts them in `kept`',
      error: rules.replace,
    }),
  ),
})

const RowErrors = t.Array(t.Object({ row: t.Integer({ minimum: 1 }), field: t.String(), message: t.String() }), {
  description: 'always empty here: a file with errors is a 400 whose `errors` lists every one, each with its row',
  maxItems: 0,
})

export const HistoryImportResult = t.Object({
  created: t.Integer({ minimum: 0, description: 'records created (with dry_run=true: that would be)' }),
  replaced: t.Integer({
    minimum: 0,
    description: 'records replaced: absent records (no clock times) always, records with clock times only with replace=true',
  }),
  kept: t.Integer({ minimum: 0, description: 'rows left out because their date already has a record with clock times (replace=false)' }),
  errors: RowErrors,
})
export type HistoryImportResponse = typeof HistoryImportResult.static
