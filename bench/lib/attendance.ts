import type { Client } from '@libsql/client'
import { addDays, instantAt } from '../../src/lib/local-time'
import { ATTENDANCE_COLUMNS, STATUS_NAMES, checkRecord, dayFrame, makeRecord } from './attendance-rows'
import { BulkInsert } from './bulk'
import type { Organization } from './organization'
import type { Random } from './random'

/** Rows per transaction: large, but the WAL stays a fraction of the file. */
const ROWS_PER_TRANSACTION = 250_000
/** How many generated rows are compared with the app's policy functions. */
const POLICY_SAMPLE = 5_000

export interface AttendanceInput {
  org: Organization
  /** work dates, oldest first */
  dates: string[]
  zone: string
  /** the last day the service's day-close job could already have closed */
  lastEnded: string
  /** employees on a full day of approved leave, by date: they get no record (day close writes none for them) */
  onLeave: ReadonlyMap<string, ReadonlySet<number>>
  /** dates the company calendar changes (make-up workdays): the policy check, which judges by weekday, skips them */
  calendarDates: ReadonlySet<string>
  rowsPerStatement: number
  log: (message: string) => void
}

type ByStatus = Record<(typeof STATUS_NAMES)[number], number>
const emptyByStatus = (): ByStatus => Object.fromEntries(STATUS_NAMES.map((name) => [name, 0])) as ByStatus

/**
 * One record per employee per work date, in date order as clocking would add them.
 * The table's indexes are dropped for the load and rebuilt from their own stored SQL,
 * which is faster than keeping four indexes up to date row by row.
 */
export async function seedAttendance(client: Client, random: Random, input: AttendanceInput) {
  const { org, dates, zone } = input
  const timings: Record<string, number> = {}
  const employees = org.employees.last - org.employees.first + 1
  let total = employees * dates.length
  for (const date of dates) total -= input.onLeave.get(date)?.size ?? 0
  const checkEvery = Math.max(1, Math.floor(total / POLICY_SAMPLE))
  const byStatus = emptyByStatus()
  const sampleByStatus = emptyByStatus()
  let checked = 0

  let started = performance.now()
  const indexes = (
    await client.execute("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'attendance_records' AND sql IS NOT NULL")
  ).rows.map((row) => ({ name: String(row.name), sql: String(row.sql) }))
  for (const index of indexes) await client.execute(`DROP INDEX "${index.name}"`)

  let written = 0
  let tx = await client.transaction('write')
  try {
    let bulk = new BulkInsert(tx, 'attendance_records', ATTENDANCE_COLUMNS, input.rowsPerStatement)
    let inTransaction = 0
    for (const date of dates) {
      const frame = dayFrame(date, zone)
      const away = input.onLeave.get(date)
      const unchecked = input.calendarDates.has(date)
      for (let offset = 0; offset < employees; offset++) {
        if (away?.has(org.employees.first + offset)) continue
        const rule = org.rules[org.ruleOf[offset]]
        const row = makeRecord(random, rule, frame, org.employees.first + offset, date, zone)
        const status = STATUS_NAMES[row[ATTENDANCE_COLUMNS.indexOf('status')] as number]
        byStatus[status]++
        if (offset === 0) sampleByStatus[status]++
        if (!unchecked && (written + inTransaction) % checkEvery === 0) {
          const problem = checkRecord(rule, zone, row)
          if (problem) throw new Error(`generated attendance row disagrees with the app's policy: ${problem}`)
          checked++
        }
        await bulk.add(row)
        if (++inTransaction === ROWS_PER_TRANSACTION) {
          written += await bulk.finish()
          await tx.commit()
          tx.close()
          tx = await client.transaction('write')
          bulk = new BulkInsert(tx, 'attendance_records', ATTENDANCE_COLUMNS, input.rowsPerStatement)
          inTransaction = 0
          input.log(`attendance: ${written} of ${total} records`)
        }
      }
    }
    written += await bulk.finish()
    await tx.commit()
  } finally {
    tx.close()
  }
  const rebuilding = performance.now()
  for (const index of indexes) await client.execute(index.sql)
  // the records' time includes rebuilding their indexes; that part is also given alone
  timings.attendance_indexes = Math.round(performance.now() - rebuilding)
  timings.attendance_records = Math.round(performance.now() - started)
  input.log(
    `attendance: ${written} records in ${timings.attendance_records} ms (of which rebuilding indexes ${timings.attendance_indexes} ms)`,
  )

  // every day from the groups' first up to the last that has ended is closed, as the day-close job would have done
  started = performance.now()
  let closedThrough = dates[0]
  const closed = await client.transaction('write')
  try {
    const bulk = new BulkInsert(closed, 'attendance_closed_days', ['group_id', 'work_date', 'closed_at'], input.rowsPerStatement)
    for (let date = dates[0]; date <= input.lastEnded; date = addDays(date, 1)) {
      const closesAt = instantAt(addDays(date, 1), '00:00', zone).getTime()
      for (const rule of org.rules) await bulk.add([rule.groupId, date, closesAt + random.int(0, 14_999)])
      closedThrough = date
    }
    await bulk.finish()
    await closed.commit()
  } finally {
    closed.close()
  }
  timings.attendance_closed_days = Math.round(performance.now() - started)

  return { count: written, byStatus, sampleByStatus, policyCheck: { checked, mismatches: 0 }, closedThrough, timings }
}
