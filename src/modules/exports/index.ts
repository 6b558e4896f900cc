import { Elysia } from 'elysia'
import type { AuthGuard } from '../../http/auth'
import type { LocalePlugin } from '../../http/locale'
import { errors, type ErrorNotes } from '../../http/openapi'
import { AttendanceExportQuery, SalaryExportQuery } from './model'
import type { ExportFile, ExportsService } from './service'
import { CONTENT_TYPES } from './sheet'

/** The bytes of an export as they are produced; personal data, so kept by no cache. */
export const download = (file: Pick<ExportFile, 'body' | 'contentType' | 'filename'>) =>
  new Response(file.body, {
    headers: {
      'content-type': file.contentType,
      'content-disposition': `attachment; filename="${file.filename}"`,
      'cache-control': 'no-store',
    },
  })

/** Elysia answers HEAD with the GET route: the headers alone, without exporting (or auditing) anything. */
export const isHead = (request: Request) => request.method === 'HEAD'

/** The 200 of a download route for the document: a CSV or an XLSX file, as `format` asks. */
export const fileResponses = (what: string, name: string): Record<string, unknown> => ({
  '200': {
    description: `${what}, streamed as it is produced`,
    headers: {
      'Content-Disposition': { description: `\`attachment; filename="${name}-YYYY-MM.csv"\` (or \`.xlsx\`)`, schema: { type: 'string' } },
      'Cache-Control': { description: '`no-store`', schema: { type: 'string' } },
    },
    content: {
      'text/csv': { schema: { type: 'string', description: 'format=csv: UTF-8 with a byte-order mark, RFC 4180, CRLF line ends' } },
      [CONTENT_TYPES.xlsx]: { schema: { type: 'string', format: 'binary', description: 'format=xlsx' } },
    },
  },
})

/** A route's docs, its 200 a file download (as the storage module's content route declares its bytes). */
const detail = (summary: string, description: string[], download: Record<string, unknown>, notes: ErrorNotes) => {
  const extra: Record<string, unknown> = { responses: download }
  return { tags: ['Exports'], summary, description: description.join('\n\n'), ...errors(notes), ...extra }
}

const CELLS =
  'Text cells that a spreadsheet could take for a formula (starting with =, +, -, @, a tab or a CR) start with a single quote; numbers are numbers.'

/** The two layouts (CONTRACT §24), as both routes take them. */
const LAYOUTS = (sheet: string) =>
  [
    '`layout=data` (the default for CSV): a header row of field names, then the rows, the same every month (for formulas, scripts and other systems).',
    `\`layout=sheet\` (the default for XLSX; may be asked for a CSV): a sheet a clerk can print or hand over, in the language of Accept-Language: a title row (the company of the people on it through their attendance groups, or "All companies" when they are of several or none; the month; when it was made, in that company’s time zone, else the service’s), the headers in words${sheet}, the same rows, and a totals row with the sum of every numeric column. The XLSX prints landscape, one page wide (fitToWidth 1, fitToHeight 0), with the header rows repeated on every page and frozen on screen.`,
  ].join('\n\n')

export const exportsController = (guard: AuthGuard, locale: LocalePlugin, exportsService: ExportsService) =>
  new Elysia({ name: 'exports', prefix: '/api/v1/admin/exports' })
    .use(guard)
    .use(locale)
    .get('/attendance', async ({ query, actor, locale, request }) => download(await exportsService.attendance(query, actor, locale, isHead(request))), {
      permission: 'attendance_records:read',
      query: AttendanceExportQuery,
      detail: detail(
        'The attendance sheet of a month: a row per employee, a code per date, the month’s totals',
        [
          'Codes: ✓ normal, L late, E early leave, A absent, X exception, V leave, ½V half-day leave, H holiday, empty for a day off (or a day to come).',
          'A late, early or exception record shows its code first; then absence as statistics count it (a full day of approved leave excuses it, a half day does not); then leave on a work day; then any other record (✓, also on a holiday); then H.',
          'The totals are what GET /api/v1/attendance/statistics answers for the employee over the month at the moment of the export.',
          'Rows: employees hired by the month’s end who are active, or marked as left with a record in the month, by employee id.',
          CELLS,
          LAYOUTS(
            ' (the dates by day of the month), the weekdays under the dates (a company holiday marked H, a make-up workday W; 休 and 班 in Chinese), holidays and rest days shaded in the XLSX (rest days: weekdays on which no enabled rule of the people’s groups works; CSV cannot shade), and under the table a legend of the codes',
          ),
          'Every export is audited (`export.attendance`, with the filters, the layout and the number of rows) before its first byte.',
        ],
        fileResponses('The attendance sheet', 'attendance'),
        { 400: 'month is not a real month, format is not csv or xlsx, layout is not data or sheet, or department_id or group_id does not exist' },
      ),
    })
    .get('/salaries', async ({ query, actor, locale, request }) => download(await exportsService.salaries(query, actor, locale, isHead(request))), {
      permission: 'salaries:read',
      query: SalaryExportQuery,
      detail: detail(
        'The salary register of a month: a row per salary record, then a row of sums',
        [
          'Every income and deduction item, the totals and the net in yuan with 2 decimals (summed exactly, in fen), the status (in the language of Accept-Language) and the payment date.',
          CELLS,
          LAYOUTS(''),
          'Every export is audited (`export.salaries`, with the layout and the number of rows) before its first byte.',
        ],
        fileResponses('The salary register', 'salaries'),
        { 400: 'month is not a real month, format is not csv or xlsx, or layout is not data or sheet' },
      ),
    })
