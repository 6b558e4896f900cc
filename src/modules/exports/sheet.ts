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
  /** the sheet layout: centred (the day codes) */
  centred?: boolean
  /** the sheet layout: shaded (a holiday or a rest day) */
  shaded?: boolean
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
  /** a last row: this label in the first column and the sum of every numeric column (exact: in fen, hundredths); bold in XLSX */
  totals?: string
  /** when the file was made (XLSX document properties) */
  created: Date
  /** the sheet layout (CONTRACT §24): a title, a second header row, a legend, shading and printing */
  dress?: Dress
}

/** What the sheet layout adds around the table. */
export interface Dress {
  /** the first row, above the header */
  title: string
  /** a row under the header (the weekdays under the dates) */
  subheader?: Row
  /** rows of text under the table, after an empty row (the legend), by format: CSV cannot shade */
  legend?: (format: Format) => string[][]
}

export type Format = 'csv' | 'xlsx'

export const CONTENT_TYPES: Record<Format, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
}

export function sheetStream(sheet: Sheet, format: Format, onError: (error: unknown) => void): ReadableStream<Uint8Array> {
  return format === 'csv' ? csvStream(sheet, onError) : xlsxStream(sheet, onError)
}

/**
 * The sheet's totals row, when it has one: the sum of every numeric column, added up as the pages
 * pass in whole units (fen, hundredths), so exact.
 */
function totalling({ columns, totals: label }: Sheet) {
  const scale = columns.map((column) => (column.kind === 'number' ? 100 : column.kind === 'text' ? 0 : 1))
  const sums = columns.map(() => 0)
  return {
    page(rows: Row[]): Row[] {
      if (label !== undefined)
        for (const row of rows) for (const [i, cell] of row.entries()) if (scale[i] && cell !== null && cell !== '') sums[i] += Math.round(Number(cell) * scale[i])
      return rows
    },
    footer: (): Row | null => (label === undefined ? null : columns.map((_, i) => (i === 0 ? label : scale[i] ? sums[i] / scale[i] : null))),
  }
}

function csvCell(kind: ColumnKind, cell: Cell): CsvCell {
  if (cell === null) return null
  if (kind === 'yuan') return csvNumber(yuanText(Number(cell)))
  return kind === 'text' ? String(cell) : Number(cell)
}

const csvLine = (columns: readonly Column[], row: Row) => csvRow(row.map((cell, i) => csvCell(columns[i].kind, cell)))

/** A row of text outside the table (a title, a legend line), as wide as the table: RFC 4180 wants every record the same length. */
const csvTextLine = (columns: readonly Column[], cells: Row) => csvRow(columns.map((_, i) => cells[i] ?? null))

/** The CSV: a BOM and the header (after the title in the sheet layout), then one chunk per page, then the totals (and the legend). */
function csvStream(sheet: Sheet, onError: (error: unknown) => void): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  const { columns, dress } = sheet
  const rows = totalling(sheet)
  let started = false
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          if (!started) {
            started = true
            const header = csvRow(columns.map((column) => column.header))
            if (!dress) return controller.enqueue(encoder.encode(CSV_BOM + header))
            const subheader = dress.subheader ? csvTextLine(columns, dress.subheader) : ''
            return controller.enqueue(encoder.encode(CSV_BOM + csvTextLine(columns, [dress.title]) + header + subheader))
          }
          const next = await sheet.pages.next()
          if (!next.done) {
            const lines = rows.page(next.value).map((row) => csvLine(columns, row))
            return controller.enqueue(encoder.encode(lines.join('')))
          }
          const footer = rows.footer()
          const legend = dress?.legend?.('csv') ?? []
          const tail = [
            footer ? csvLine(columns, footer) : '',
            ...(legend.length > 0 ? [[], ...legend] : []).map((line) => csvTextLine(columns, line)),
          ]
          if (tail.some(Boolean)) controller.enqueue(encoder.encode(tail.join('')))
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

/**
 * In the data layout only money gets a format of its own: a style on every cell of a column costs
 * exceljs objects per cell (a third more memory). The sheet layout pays that for its borders and
 * shading (per page only: its memory stays flat however many rows).
 */
const NUMBER_FORMATS: Record<ColumnKind, string | undefined> = { text: undefined, integer: undefined, number: undefined, yuan: '#,##0.00' }

function xlsxValue(kind: ColumnKind, cell: Cell): ExcelJS.CellValue {
  if (cell === null || cell === '') return null
  if (kind === 'yuan') return Number(cell) / 100
  // text cells are string cells (never formulas), and neutralised as in the CSV, so that a copy saved as CSV is safe too
  return kind === 'text' ? neutralise(String(cell)) : Number(cell)
}

/*
 * The sheet layout's look. Its styles are the columns' (shared objects: exceljs gives each cell of
 * a styled column a style of its own, referring to them), so that the rows stay plain arrays.
 */
const THIN: ExcelJS.Border = { style: 'thin', color: { argb: 'FFBFBFBF' } }
const BORDER: Partial<ExcelJS.Borders> = { top: THIN, left: THIN, bottom: THIN, right: THIN }
const SHADE: ExcelJS.Fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFE7E6E6' } }
const BOLD: Partial<ExcelJS.Font> = { bold: true }
const CENTRED: Partial<ExcelJS.Alignment> = { horizontal: 'center' }
const HEADER_ALIGNMENT: Partial<ExcelJS.Alignment> = { horizontal: 'center', vertical: 'middle', wrapText: true }
/** Printing: landscape A4, one page wide and as many long as it takes, the page number at the foot. */
const PRINT: Partial<ExcelJS.PageSetup> = {
  orientation: 'landscape',
  paperSize: 9,
  fitToPage: true,
  fitToWidth: 1,
  fitToHeight: 0,
  margins: { left: 0.4, right: 0.4, top: 0.5, bottom: 0.6, header: 0.3, footer: 0.3 },
}

/** Characters as wide as a Latin letter: a CJK character takes two. */
const textWidth = (text: string) => [...text].reduce((width, char) => width + (/[\u2E80-\u9FFF\uF900-\uFAFF\uFF00-\uFF60]/.test(char) ? 2 : 1), 0)

/** The lines a header takes wrapped in its column (at most 3), for the header row's height. */
const headerLines = (column: Column, width: number) => Math.min(3, Math.ceil(textWidth(column.header) / Math.max(1, width - 1)))

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
  const { columns, dress } = sheet
  // the sheet layout: a title row, the header and the subheader; the data layout: the header
  const headerRow = dress ? 2 : 1
  const headerRows = headerRow + (dress?.subheader ? 1 : 0)
  const worksheet = workbook.addWorksheet(sheet.name, {
    views: [{ state: 'frozen', ySplit: headerRows, xSplit: sheet.frozenColumns ?? 0 }],
    ...(dress ? { pageSetup: { ...PRINT, printTitlesRow: `${headerRow}:${headerRows}` }, headerFooter: { oddFooter: '&C&P / &N' } } : {}),
  })
  const widths = columns.map((column) => column.width ?? Math.max(10, column.header.length + 2))
  worksheet.columns = columns.map((column, i) => {
    const numFmt = NUMBER_FORMATS[column.kind]
    const style: Partial<ExcelJS.Style> = {
      ...(numFmt ? { numFmt } : {}),
      ...(dress ? { border: BORDER } : {}),
      ...(dress && column.centred ? { alignment: CENTRED } : {}),
      ...(dress && column.shaded ? { fill: SHADE } : {}),
    }
    return { key: String(i), width: widths[i], ...(Object.keys(style).length > 0 ? { style } : {}) }
  })
  const addRow = (cells: readonly ExcelJS.CellValue[], look: { font?: Partial<ExcelJS.Font>; plain?: boolean; height?: number } = {}) => {
    const row = worksheet.addRow(cells as ExcelJS.CellValue[])
    // the title and the legend's lines of text: text alone, without the table's borders
    if (look.plain) row.eachCell((cell) => (cell.style = {}))
    if (look.font) row.font = look.font
    if (look.height) {
      row.height = look.height
      row.alignment = HEADER_ALIGNMENT
    }
    row.commit()
  }
  if (dress) addRow([dress.title], { font: { bold: true, size: 14 }, plain: true })
  addRow(
    columns.map((column) => column.header),
    { font: BOLD, height: dress ? 15 * Math.max(1, ...columns.map((column, i) => headerLines(column, widths[i]))) : undefined },
  )
  if (dress?.subheader) addRow(dress.subheader)
  const toCells = (row: Row) => row.map((cell, i) => xlsxValue(columns[i].kind, cell))
  const rows = totalling(sheet)

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
              const footer = rows.footer()
              if (footer) addRow(toCells(footer), { font: BOLD })
              const legend = dress?.legend?.('xlsx') ?? []
              if (legend.length > 0) addRow([])
              for (const [i, line] of legend.entries()) addRow(line, { plain: line.length === 1, font: i === 0 ? BOLD : undefined })
              worksheet.commit()
              finishing = workbook.commit().catch((error: unknown) => {
                failure ??= error
                out.destroy()
              })
              // the commit's last bytes and the end arrive as events
              continue
            }
            for (const row of rows.page(next.value)) addRow(toCells(row))
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
