import { expect } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import { attendanceRecords, calendarDays } from '../src/db/schema'
import { replyOf, req, type Reply, type TestApp } from './helpers'

/*
 * Small pieces the payroll HTTP tests share (issue 28): requests that must succeed, a month's
 * attendance imported as a CSV file (CONTRACT §23) and closed day by day, the ids of records and
 * calendar days (the `sources` of payslip lines), and a payslip line as the API shows it.
 */

/** An instant given as a Shanghai wall clock (`2025-03-20T08:55`). */
export const shanghai = (dateTime: string) => new Date(`${dateTime}:00+08:00`).toISOString()

/** Every date of a month, `YYYY-MM-01` to its last. */
export function datesOfMonth(month: string): string[] {
  const [year, m] = month.split('-').map(Number)
  const days = new Date(Date.UTC(year, m, 0)).getUTCDate()
  return Array.from({ length: days }, (_, i) => `${month}-${String(i + 1).padStart(2, '0')}`)
}

/** 1 = Monday … 7 = Sunday */
export const weekdayOf = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay() || 7

/** The request, which must answer `status` (200 unless told); returns `data`. */
export async function must(t: TestApp, token: string, method: string, path: string, body?: unknown, status = 200) {
  const reply = await req(t.app, method, path, { token, body })
  if (reply.status !== status) throw new Error(`${method} ${path} → ${reply.status} (wanted ${status}): ${JSON.stringify(reply.body)}`)
  return reply.body.data
}

/** Company 1 "Acme" in Asia/Shanghai with group 1 "Office" and its rule "Hours": 09:00–18:00, a 12:00–13:00 break, 8 hours, Monday to Friday. */
export async function shanghaiOffice(t: TestApp, token: string): Promise<void> {
  await must(t, token, 'POST', '/api/v1/admin/companies', { name: 'Acme', timezone: 'Asia/Shanghai' }, 201)
  await must(t, token, 'POST', '/api/v1/admin/attendance/groups', { name: 'Office', company_id: 1 }, 201)
  await must(t, token, 'POST', '/api/v1/admin/attendance/rules', {
    name: 'Hours',
    group_id: 1,
    work_start_time: '09:00',
    work_end_time: '18:00',
    break_start_time: '12:00',
    break_end_time: '13:00',
    required_work_hours: 8,
    work_days: '1,2,3,4,5',
  }, 201)
}

/** A CSV file of past attendance, through POST /admin/attendance/records/import (all or none). */
export async function importHistory(t: TestApp, token: string, rows: [employeeNo: string, date: string, clockIn: string, clockOut: string][]): Promise<Reply> {
  const lines = ['employee_no,work_date,clock_in,clock_out', ...rows.map((row) => row.join(','))]
  const form = new FormData()
  form.append('file', new File([lines.map((line) => `${line}\r\n`).join('')], 'history.csv', { type: 'text/csv' }))
  const reply = await replyOf(
    await t.app.handle(
      new Request('http://localhost/api/v1/admin/attendance/records/import?dry_run=false', { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } }),
    ),
  )
  if (reply.status !== 200) throw new Error(`history import → ${reply.status}: ${JSON.stringify(reply.body)}`)
  return reply
}

/** Day close of every date of the month for a group, as the scheduled job would have done it. */
export async function closeMonth(t: TestApp, token: string, month: string, groupId: number): Promise<void> {
  for (const date of datesOfMonth(month)) await must(t, token, 'POST', '/api/v1/admin/attendance/close-day', { date, group_id: groupId })
}

/** The id of an employee's attendance record of a date (a payslip line's `attendance_record` source). */
export async function recordId(t: TestApp, employeeId: number, date: string): Promise<number> {
  const rows = await t.deps.database.db
    .select({ id: attendanceRecords.id })
    .from(attendanceRecords)
    .where(and(eq(attendanceRecords.employeeId, employeeId), eq(attendanceRecords.workDate, date)))
  if (rows.length !== 1) throw new Error(`employee ${employeeId} has ${rows.length} records on ${date}`)
  return rows[0].id
}

/** The id of a company's calendar day (a `calendar_day` source). */
export async function calendarDayId(t: TestApp, companyId: number, date: string): Promise<number> {
  const rows = await t.deps.database.db
    .select({ id: calendarDays.id })
    .from(calendarDays)
    .where(and(eq(calendarDays.companyId, companyId), eq(calendarDays.date, date)))
  if (rows.length !== 1) throw new Error(`company ${companyId} has ${rows.length} calendar days on ${date}`)
  return rows[0].id
}

export type SourceKind = 'attendance_record' | 'leave_request' | 'correction' | 'calendar_day' | 'pay_profile' | 'payslip' | 'leave_type' | 'leave_ledger'
export const source = (kind: SourceKind, id: number) => ({ kind, id })

/**
 * A payslip line as the API shows it: code, kind, amount (yuan), formula and sources asserted
 * exactly; the label (the request's language) and the named inputs are the computation's to word.
 */
export function line(code: string, kind: 'income' | 'attendance' | 'deduction', amount: number, formula: string, sources: ReturnType<typeof source>[], month?: string) {
  return {
    code,
    label: expect.any(String),
    kind,
    amount,
    formula,
    inputs: expect.any(Object),
    sources,
    ...(month === undefined ? {} : { month }),
  }
}

/** The personal_tax line's formula of CONTRACT §17 with its three parts. */
export const taxFormula = (p: {
  gross: string
  months: number
  contributions?: string
  special?: string
  taxable: string
  rate: string
  quick: string
  cumulativeTax: string
  withheld: string
  tax: string
}) =>
  `taxable: max(0, ${p.gross} − 5000.00 × ${p.months} − ${p.contributions ?? '0.00'} − ${p.special ?? '0.00'}) = ${p.taxable}; ` +
  `tax: ${p.taxable} × ${p.rate} − ${p.quick} = ${p.cumulativeTax}; ` +
  `this month: max(0, ${p.cumulativeTax} − ${p.withheld}) = ${p.tax}`
