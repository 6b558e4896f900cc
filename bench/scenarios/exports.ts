/**
 * S9: the attendance sheet of a whole month (every seeded employee) downloaded from a real server
 * process as CSV and as XLSX, both in the data layout (`layout=data`): how long each takes, when
 * its first byte comes, and how much the server's resident memory grows meanwhile (VmRSS sampled
 * every 20 ms: the peak minus the value before). An export streams page by page, so the growth must not follow the number of rows
 * (target: at most 64 MB for 5,000 employees).
 */
import { rssOf } from '../lib/server'

export interface ExportFigures {
  format: 'csv' | 'xlsx'
  status: number
  bytes: number
  /** CSV: the data rows (lines after the header); XLSX: not counted (the body is compressed) */
  rows: number | null
  /** from the request to the last byte */
  seconds: number
  /** from the request to the first byte of the body */
  firstByteSeconds: number
  rssBefore: number
  rssPeak: number
  rssGrowth: number
}

export interface ExportsFigures {
  month: string
  csv: ExportFigures
  xlsx: ExportFigures
}

/** The last month that has ended, in UTC: the seed's records run to yesterday over 182 days, so it holds all of it. */
export function lastFullMonth(now = new Date()): string {
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1))
  return first.toISOString().slice(0, 7)
}

const CR = 13
const LF = 10

async function download(base: string, pid: number, token: string, path: string, format: 'csv' | 'xlsx') {
  let peak = rssOf(pid)
  const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 20)
  try {
    const started = performance.now()
    const response = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } })
    let firstByte = 0
    let bytes = 0
    let lines = 0
    let previous = 0
    // read as it comes, never held whole: the client must not be what limits the server's memory
    const reader = response.body!.getReader()
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      if (bytes === 0) firstByte = performance.now() - started
      bytes += next.value.byteLength
      if (format === 'csv')
        for (const byte of next.value) {
          if (byte === LF && previous === CR) lines++
          previous = byte
        }
    }
    const seconds = (performance.now() - started) / 1000
    return { status: response.status, bytes, lines, seconds, firstByteSeconds: firstByte / 1000, peak }
  } finally {
    clearInterval(sampler)
  }
}

/**
 * Downloads the month's attendance sheet from the server at `base` (process `pid`) as CSV, then
 * as XLSX, after one unmeasured download of each (the first loads code paths and warms the page
 * cache), each measured from the resident memory it starts with.
 */
export async function exportsScenario(base: string, pid: number, adminToken: string, month = lastFullMonth()): Promise<ExportsFigures> {
  const measure = async (format: 'csv' | 'xlsx'): Promise<ExportFigures> => {
    // the data layout (XLSX now defaults to the sheet layout): the rows alone, as the figures of earlier runs measured
    const path = `/api/v1/admin/exports/attendance?month=${month}&format=${format}&layout=data`
    await download(base, pid, adminToken, path, format)
    await Bun.sleep(500)
    const rssBefore = rssOf(pid)
    const run = await download(base, pid, adminToken, path, format)
    return {
      format,
      status: run.status,
      bytes: run.bytes,
      rows: format === 'csv' ? Math.max(0, run.lines - 1) : null,
      seconds: run.seconds,
      firstByteSeconds: run.firstByteSeconds,
      rssBefore,
      rssPeak: run.peak,
      rssGrowth: Math.max(0, run.peak - rssBefore),
    }
  }
  return { month, csv: await measure('csv'), xlsx: await measure('xlsx') }
}
