import { PassThrough } from 'node:stream'
import type ExcelJS from 'exceljs'
import { CSV_BOM, csvNumber, csvRow, neutralise, type CsvCell } from '../../lib/csv'
import { yuanText } from '../../lib/money'

/*
 * A sheet is typed columns and rows produced page by page; it is written as CSV or XLSX into a
 * pull-based ReadableStream: a page is loaded only when the reader wants more bytes, so memory
 * holds about one page whatever the number of rows, and a slow client slows the export down
 * instead of filling the server's memory.
 */

/** text: neutralised against formulas; integer and number: numeric; yuan: integer fen, written as yuan with 2 decimals. */
export type ColumnKind = 'text' | 'integer' | 'number' | 'yuan'

export interface Column {
  header: string
  kind: ColumnKind
  /** XLSX column width, in characters */
  width?: number
}

export type Cell = string | number | null
export type Row = readonly Cell[]

export interface Sheet {
  /** the worksheet's name in XLSX */
  name: string
  columns: readonly Column[]
  /** columns kept in view when scrolling right (XLSX) */
  frozenColumns?: number
  /** the rows, a page at a time; pulled only as the reader asks for more */
  pages: AsyncIterator<Row[]>
  /** a last row (sums), written after every page; bold in XLSX */
  footer?: () => Row
  /** when the file was made (XLSX document properties) */
  created: Date
}

export type Format = 'csv' | 'xlsx'

export const CONTENT_TYPES: Record<Format, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
}

export function sheetStream(sheet: Sheet, format: Format, onError: (error: unknown) => void): ReadableStream<Uint8Array> {
  return format === 'csv' ? csvStream(sheet, onError) : xlsxStream(sheet, onError)
}

function csvCell(kind: ColumnKind, cell: Cell): CsvCell {
  if (cell === null) return null
  if (kind === 'yuan') return csvNumber(yuanText(Number(cell)))
  return kind === 'text' ? String(cell) : Number(cell)
}

const csvLine = (columns: readonly Column[], row: Row) => csvRow(row.map((cell, i) => csvCell(columns[i].kind, cell)))

/** The CSV: a BOM and the header, then one chunk per page, then the footer. */
function csvStream(sheet: Sheet, onError: (error: unknown) => void): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  const { columns } = sheet
  let started = false
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          if (!started) {
            started = true
            controller.enqueue(encoder.encode(CSV_BOM + csvRow(columns.map((column) => column.header))))
            return
          }
          const next = await sheet.pages.next()
          if (!next.done) return controller.enqueue(encoder.encode(next.value.map((row) => csvLine(columns, row)).join('')))
          if (sheet.footer) controller.enqueue(encoder.encode(csvLine(columns, sheet.footer())))
          controller.close()
        } catch (error) {
          onError(error)
          controller.error(error)
        }
      },
      async cancel() {
        await sheet.pages.return?.()
      },
    },
    { highWaterMark: 0 },
  )
}

/** Only money gets a format of its own: a style on every cell of a column costs exceljs objects per cell (a third more memory). */
const NUMBER_FORMATS: Record<ColumnKind, string | undefined> = { text: undefined, integer: undefined, number: undefined, yuan: '#,##0.00' }

function xlsxValue(kind: ColumnKind, cell: Cell): ExcelJS.CellValue {
  if (cell === null || cell === '') return null
  if (kind === 'yuan') return Number(cell) / 100
  // text cells are string cells (never formulas), and neutralised as in the CSV, so that a copy saved as CSV is safe too
  return kind === 'text' ? neutralise(String(cell)) : Number(cell)
}

/**
 * The XLSX, by exceljs's streaming writer (no shared strings: rows are written out as they are
 * committed) into a PassThrough read on demand. A page is added only when the PassThrough has
 * nothing buffered for the reader; the zip's deflate holds back a few pages' worth before its
 * first bytes, which bounds what is in memory.
 */
function xlsxStream(sheet: Sheet, onError: (error: unknown) => void): ReadableStream<Uint8Array> {
  const out = new PassThrough({ highWaterMark: 64 * 1024 })
  // loaded on the first XLSX export, not at start: exceljs alone is about 190 ms and 20 MB of every start
  const excel = require('exceljs') as typeof ExcelJS
  const workbook = new excel.stream.xlsx.WorkbookWriter({
    stream: out,
    useSharedStrings: false,
    useStyles: true,
  })
  // read when the workbook is committed
  Object.assign(workbook, { created: sheet.created, modified: sheet.created, creator: 'Workforce', lastModifiedBy: 'Workforce' })
  const frozen = sheet.frozenColumns ?? 0
  const worksheet = workbook.addWorksheet(sheet.name, { views: [{ state: 'frozen', ySplit: 1, xSplit: frozen }] })
  const { columns } = sheet
  worksheet.columns = columns.map((column, i) => ({
    key: String(i),
    width: column.width ?? Math.max(10, column.header.length + 2),
    ...(NUMBER_FORMATS[column.kind] ? { style: { numFmt: NUMBER_FORMATS[column.kind] } } : {}),
  }))
  const addRow = (cells: readonly ExcelJS.CellValue[], bold = false) => {
    const row = worksheet.addRow(cells as ExcelJS.CellValue[])
    if (bold) row.font = { bold: true }
    row.commit()
  }
  addRow(
    columns.map((column) => column.header),
    true,
  )
  const toCells = (row: Row) => row.map((cell, i) => xlsxValue(columns[i].kind, cell))

  let failure: unknown = null
  out.on('error', (error) => (failure ??= error))
  let finishing: Promise<void> | null = null
  /** Resolves when the PassThrough has bytes, ends, fails or is closed. */
  const moved = () =>
    new Promise<void>((resolve) => {
      const events = ['readable', 'end', 'error', 'close'] as const
      const done = () => {
        for (const event of events) out.off(event, done)
        resolve()
      }
      for (const event of events) out.on(event, done)
    })

  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          for (;;) {
            if (failure) throw failure
            const chunk: Buffer | null = out.read()
            if (chunk !== null) return controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength))
            if (out.readableEnded) return controller.close()
            if (finishing) {
              await moved()
              continue
            }
            const next = await sheet.pages.next()
            if (next.done) {
              if (sheet.footer) addRow(toCells(sheet.footer()), true)
              worksheet.commit()
              finishing = workbook.commit().catch((error: unknown) => {
                failure ??= error
                out.destroy()
              })
              // the commit's last bytes and the end arrive as events
              continue
            }
            for (const row of next.value) addRow(toCells(row))
            // let the zip take the rows in before looking for its output
            await new Promise((resolve) => setImmediate(resolve))
          }
        } catch (error) {
          onError(error)
          out.destroy()
          controller.error(error)
        }
      },
      async cancel() {
        out.destroy()
        await sheet.pages.return?.()
      },
    },
    { highWaterMark: 0 },
  )
}
