/** B1–B3, B6, B7 and the write beside B8: what this machine can do without the service, measured in the same run as the scenarios. */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient, type Client } from '@libsql/client'
import { runLoad, runLoop, type LoadResult } from '../lib/load'
import { startServer } from '../lib/server'
import type { LoopPayslip } from '../baselines/payroll-loop'

/** B1: a bare Elysia JSON route over the same number of connections as the scenario. */
export async function bareElysia(connections: number, durationMs: number): Promise<LoadResult> {
  const server = await startServer({ env: {}, command: ['bun', 'bench/baseline-server.ts'] })
  try {
    const request = { url: `${server.base}/ping` }
    await runLoad({ connections, durationMs: Math.min(1000, durationMs / 3), next: () => request })
    return await runLoad({ connections, durationMs, next: () => request })
  } finally {
    await server.stop()
  }
}

/**
 * B2: one attendance-shaped row per statement, each its own transaction, into a table
 * with the same unique (employee, work date) index, on a file opened as the service
 * opens it (WAL, synchronous NORMAL).
 */
export async function rawInserts(count: number): Promise<LoadResult> {
  const dir = mkdtempSync(join(tmpdir(), 'workforce-b2-'))
  const client = createClient({ url: `file:${join(dir, 'b2.db')}` })
  try {
    await client.execute('PRAGMA journal_mode = WAL')
    await client.execute('PRAGMA synchronous = NORMAL')
    await client.execute(`CREATE TABLE records (id INTEGER PRIMARY KEY AUTOINCREMENT, employee_id INTEGER NOT NULL, rule_id INTEGER,
      work_date TEXT NOT NULL, timezone TEXT NOT NULL, clock_in_time INTEGER, clock_in_lat REAL, clock_in_lng REAL, status INTEGER NOT NULL,
      late_minutes INTEGER NOT NULL DEFAULT 0, note TEXT NOT NULL DEFAULT '', created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL)`)
    await client.execute('CREATE UNIQUE INDEX records_employee_date ON records (employee_id, work_date)')
    const now = Date.now()
    return await runLoop(count, (i) =>
      client.execute({
        sql: `INSERT INTO records (employee_id, rule_id, work_date, timezone, clock_in_time, clock_in_lat, clock_in_lng, status, late_minutes, note, created_at, updated_at)
              VALUES (?, 1, '2026-11-20', 'Asia/Shanghai', ?, 31.23, 121.47, 0, 0, '', ?, ?)`,
        args: [i + 1, now, now, now],
      }),
    )
  } finally {
    client.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

/** B3: a point select by the (employee, work date) index of the seeded database. */
export async function rawPointSelects(dbUrl: string, count: number, employees: number[], dates: string[]): Promise<LoadResult> {
  const client = createClient({ url: dbUrl })
  try {
    return await pointSelects(client, count, employees, dates)
  } finally {
    client.close()
  }
}

/** B3's select through any client, one at a time, after up to 1,000 unmeasured. */
export async function pointSelects(client: Client, count: number, employees: number[], dates: string[]): Promise<LoadResult> {
  const select = (i: number) =>
    client.execute({
      sql: 'SELECT * FROM attendance_records WHERE employee_id = ? AND work_date = ?',
      args: [employees[(i * 7919) % employees.length], dates[(i * 104_729) % dates.length]],
    })
  await runLoop(Math.min(1000, count), select)
  return runLoop(count, select)
}

/** B6: the month's attendance records read whole through the libSQL client, in one query: the reading an export of that month must do. */
export async function rawMonthRead(dbUrl: string, month: string): Promise<{ rows: number; seconds: number }> {
  const client = createClient({ url: dbUrl })
  try {
    const started = performance.now()
    const result = await client.execute({
      sql: 'SELECT * FROM attendance_records WHERE work_date >= ? AND work_date <= ? ORDER BY employee_id, work_date',
      args: [`${month}-01`, `${month}-31`],
    })
    return { rows: result.rows.length, seconds: (performance.now() - started) / 1000 }
  } finally {
    client.close()
  }
}

/** B7: `count` employee rows inserted in one transaction through the libSQL client into a copy of the employees table: the writing an import must do. */
export async function rawEmployeeInserts(dbUrl: string, count: number): Promise<{ rows: number; seconds: number }> {
  const client = createClient({ url: dbUrl })
  try {
    await client.execute('DROP TABLE IF EXISTS bench_employees')
    await client.execute('CREATE TABLE bench_employees AS SELECT * FROM employees WHERE 0')
    await client.execute('CREATE UNIQUE INDEX bench_employees_no ON bench_employees (employee_no)')
    const now = Date.now()
    const started = performance.now()
    const tx = await client.transaction('write')
    for (let i = 1; i <= count; i++)
      await tx.execute({
        sql: `INSERT INTO bench_employees (id, employee_no, name, phone, email, position, hire_date, status, created_at, updated_at)
              VALUES (?, ?, ?, ?, ?, 'Engineer', '2024-01-02', 1, ?, ?)`,
        args: [i, `B7-${i}`, `Baseline ${i}`, `+86 138 ${String(i).padStart(8, '0')}`, `b7.${i}@example.com`, now, now],
      })
    await tx.commit()
    const seconds = (performance.now() - started) / 1000
    await client.execute('DROP TABLE bench_employees')
    return { rows: count, seconds }
  } finally {
    client.close()
  }
}

/**
 * Beside B8: B8's payslips written raw, one INSERT each in one transaction through the libSQL client, into a scratch
 * copy of the payslips table (lines and facts as JSON text): the writing a payroll run must do on top of B8's reading
 * and computing. Not part of B8; reported beside it.
 */
export async function rawPayslipInserts(dbUrl: string, payslips: readonly LoopPayslip[]): Promise<{ rows: number; seconds: number }> {
  const client = createClient({ url: dbUrl })
  try {
    await client.execute('DROP TABLE IF EXISTS bench_payslips')
    await client.execute('CREATE TABLE bench_payslips AS SELECT * FROM payslips WHERE 0')
    await client.execute('CREATE UNIQUE INDEX bench_payslips_run_employee ON bench_payslips (run_id, employee_id)')
    const now = Date.now()
    const started = performance.now()
    const tx = await client.transaction('write')
    for (const [i, payslip] of payslips.entries())
      await tx.execute({
        sql: `INSERT INTO bench_payslips (id, run_id, employee_id, month, profile_id, gross, base_gross, deductions, net, personal_tax, lines, facts, created_at, updated_at)
              VALUES (?, 0, ?, '', 0, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        args: [
          i + 1,
          payslip.employeeId,
          payslip.gross,
          payslip.gross,
          payslip.tax,
          payslip.net,
          payslip.tax,
          JSON.stringify(Object.entries(payslip.lines).map(([code, amount]) => ({ code, amount }))),
          JSON.stringify(payslip.facts),
          now,
          now,
        ],
      })
    await tx.commit()
    const seconds = (performance.now() - started) / 1000
    await client.execute('DROP TABLE bench_payslips')
    return { rows: payslips.length, seconds }
  } finally {
    client.close()
  }
}
