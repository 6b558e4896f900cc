import { and, asc, eq, gt } from 'drizzle-orm'
import type { Database, Queryable } from '../../../db/client'
import { employees, payProfiles, payslips } from '../../../db/schema'
import { ConflictError, NotFoundError } from '../../../http/errors'
import type { Clock } from '../../../lib/clock'
import type { Logger } from '../../../lib/logger'
import { recordAudit, type Actor } from '../../audit/recorder'
import { CONTENT_TYPES, sheetStream, type Column, type Format, type Row, type Sheet } from '../../exports/sheet'
import type { LineCode, PayLine } from '../compute/types'
import { say } from '../messages'
import { findRun, type PayslipRow, type RunWithNames } from './repository'

/*
 * A run's payroll register (a row per payslip: every line's amount, gross, deductions, net and the
 * employer's contributions, then a row of sums) and its bank transfer list (employee_no, name,
 * bank_account, net), as CSV or XLSX, streamed a page of payslips at a time.
 */

const PAGE = 500

/** The register's amount columns: a line code (several codes summed) or a payslip figure. */
const AMOUNTS: { header: string; of: (payslip: PayslipRow, amountOf: (...codes: LineCode[]) => number) => number }[] = [
  { header: 'basic_salary', of: (_, amount) => amount('basic_salary') },
  { header: 'seniority_pay', of: (_, amount) => amount('seniority_pay') },
  { header: 'allowance', of: (_, amount) => amount('allowance') },
  { header: 'overtime_pay', of: (_, amount) => amount('overtime_work_day', 'overtime_rest_day', 'overtime_statutory_holiday') },
  { header: 'leave_payout', of: (_, amount) => amount('leave_payout') },
  { header: 'performance_pay', of: (_, amount) => amount('performance_pay') },
  { header: 'bonus', of: (_, amount) => amount('bonus') },
  { header: 'other_income', of: (_, amount) => amount('other_income') },
  { header: 'adjustment', of: (_, amount) => amount('adjustment') },
  { header: 'absence', of: (_, amount) => amount('absence') },
  { header: 'unpaid_leave', of: (_, amount) => amount('unpaid_leave') },
  { header: 'unpaid_leave_hours', of: (_, amount) => amount('unpaid_leave_hours') },
  { header: 'lateness', of: (_, amount) => amount('lateness') },
  { header: 'gross', of: (payslip) => payslip.gross },
  { header: 'personal_insurance', of: (_, amount) => amount('personal_insurance') },
  { header: 'housing_fund', of: (_, amount) => amount('housing_fund') },
  { header: 'personal_tax', of: (_, amount) => amount('personal_tax') },
  { header: 'other_deductions', of: (_, amount) => amount('other_deductions') },
  { header: 'deductions', of: (payslip) => payslip.deductions },
  { header: 'net', of: (payslip) => payslip.net },
  { header: 'employer_contributions', of: (payslip) => payslip.employerContributions },
]

export const REGISTER_COLUMNS: readonly Column[] = [
  { header: 'employee_no', kind: 'text', width: 14 },
  { header: 'name', kind: 'text', width: 18 },
  ...AMOUNTS.map(({ header }): Column => ({ header, kind: 'yuan', width: Math.max(13, header.length + 2) })),
]

export const BANK_COLUMNS: readonly Column[] = [
  { header: 'employee_no', kind: 'text', width: 14 },
  { header: 'name', kind: 'text', width: 18 },
  { header: 'bank_account', kind: 'text', width: 26 },
  { header: 'net', kind: 'yuan', width: 14 },
]

export function registerRow(payslip: PayslipRow, employeeNo: string | null, name: string): Row {
  const lines = payslip.lines as PayLine[]
  const amountOf = (...codes: LineCode[]) => lines.filter((line) => codes.includes(line.code)).reduce((sum, line) => sum + line.amount, 0)
  return [employeeNo, name, ...AMOUNTS.map(({ of }) => of(payslip, amountOf))]
}

/** A page of the run's payslips after employee `after`, with the employee and the bank account of the profile the payslip used. */
function page(db: Queryable, runId: number, after: number) {
  return db
    .select({ payslip: payslips, employeeNo: employees.employeeNo, name: employees.name, bankAccount: payProfiles.bankAccount })
    .from(payslips)
    .innerJoin(employees, eq(employees.id, payslips.employeeId))
    .innerJoin(payProfiles, eq(payProfiles.id, payslips.profileId))
    .where(and(eq(payslips.runId, runId), gt(payslips.employeeId, after)))
    .orderBy(asc(payslips.employeeId))
    .limit(PAGE)
}
type PageRow = Awaited<ReturnType<typeof page>>[number]

export interface RunFile {
  filename: string
  contentType: string
  body: ReadableStream<Uint8Array> | null
}

export function createRunExports({ database, clock, logger }: { database: Database; clock: Clock; logger: Logger }) {
  const { db } = database

  async function* pages(runId: number, row: (row: PageRow) => Row): AsyncGenerator<Row[]> {
    let after = 0
    for (;;) {
      const rows = await page(db, runId, after)
      if (rows.length === 0) return
      after = rows[rows.length - 1].payslip.employeeId
      yield rows.map(row)
      if (rows.length < PAGE) return
    }
  }

  const requireRun = async (id: number): Promise<RunWithNames> => {
    const found = await findRun(db, id)
    if (!found) throw new NotFoundError(say.runMissing({ id }))
    return found
  }

  const file = async (
    kind: 'payroll_register' | 'bank_transfers',
    found: RunWithNames,
    format: Format,
    actor: Actor,
    headOnly: boolean,
    sheet: Omit<Sheet, 'created'>,
  ): Promise<RunFile> => {
    const { run } = found
    const filename = `${kind.replace('_', '-')}-${run.companyId}-${run.month}.${format}`
    if (headOnly) return { filename, contentType: CONTENT_TYPES[format], body: null }
    const now = clock.now()
    await database.write((tx) =>
      recordAudit(tx, actor, now, { action: `export.${kind}`, resource: 'export', resourceId: run.month, after: { run_id: run.id, company_id: run.companyId, month: run.month, format } }),
    )
    const failed = (error: unknown) =>
      logger.error(`the ${kind} export failed while streaming; the download was cut off`, { error: error instanceof Error ? error.message : String(error) })
    return { filename, contentType: CONTENT_TYPES[format], body: sheetStream({ ...sheet, created: now }, format, failed) }
  }

  return {
    /** The run's register, draft or approved (a draft's is for review), with a row of sums. */
    async register(id: number, format: Format, actor: Actor, headOnly = false): Promise<RunFile> {
      const found = await requireRun(id)
      return file('payroll_register', found, format, actor, headOnly, {
        name: `Payroll ${found.run.month}`,
        columns: REGISTER_COLUMNS,
        frozenColumns: 2,
        totals: 'total',
        pages: pages(id, (row) => registerRow(row.payslip, row.employeeNo, row.name)),
      })
    },

    /** The bank transfer list of an approved run: what the bank pays out (a draft's could pay a figure that still changes → 409). */
    async bankTransfers(id: number, format: Format, actor: Actor, headOnly = false): Promise<RunFile> {
      const found = await requireRun(id)
      if (found.run.status !== 'approved') throw new ConflictError(say.bankListDraft({ company: found.company, month: found.run.month }))
      return file('bank_transfers', found, format, actor, headOnly, {
        name: `Bank transfers ${found.run.month}`,
        columns: BANK_COLUMNS,
        frozenColumns: 2,
        totals: 'total',
        pages: pages(id, (row) => [row.employeeNo, row.name, row.bankAccount, row.payslip.net]),
      })
    },
  }
}

export type RunExports = ReturnType<typeof createRunExports>
