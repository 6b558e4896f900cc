import type { Locale } from '../../config'
import type { Database, Queryable } from '../../db/client'
import { ConflictError, NotFoundError, ValidationError } from '../../http/errors'
import { pageWindow, p2Pagination } from '../../http/pagination'
import type { Clock } from '../../lib/clock'
import { isCalendarDate } from '../../lib/dates'
import type { Message } from '../../lib/messages'
import { localDate } from '../../lib/local-time'
import { MAX_YUAN, toFen, toYuan } from '../../lib/money'
import { onConstraint } from '../../lib/sqlite-errors'
import { statusText } from '../../lib/status-text'
import { recordAudit, type Actor } from '../audit/recorder'
import { linkedEmployee, type Principal } from '../rbac/access'
import { requireNotOwn } from '../rbac/own-matters'
import {
  DEDUCTION_ITEMS,
  INCOME_ITEMS,
  type AmountField,
  type CreateSalaryInput,
  type SalaryListQuery,
  type SalaryResponse,
  type SalaryStatsResponse,
  type UpdateSalaryInput,
} from './model'
import { say as common } from '../../http/messages'
import { employeeName, say } from './messages'
import { paymentDateAfter } from './payment-date'
import * as repo from './repository'

/** The column of each amount item (the salary register of exports reads rows by it too). */
export const COLUMN: Record<AmountField, keyof repo.NewSalary & keyof repo.SalaryRow> = {
  basic_salary: 'basicSalary',
  seniority_pay: 'seniorityPay',
  performance_pay: 'performancePay',
  overtime_pay: 'overtimePay',
  bonus: 'bonus',
  allowance: 'allowance',
  attendance_deduction: 'attendanceDeduction',
  personal_insurance: 'personalInsurance',
  personal_tax: 'personalTax',
  housing_fund: 'housingFund',
  other_deductions: 'otherDeductions',
}

type Amounts = Record<AmountField, number>

/** Totals and net in fen; a negative net is refused. */
export function computeTotals(amounts: Amounts) {
  const totalIncome = INCOME_ITEMS.reduce((sum, item) => sum + amounts[item], 0)
  const totalDeductions = DEDUCTION_ITEMS.reduce((sum, item) => sum + amounts[item], 0)
  return { totalIncome, totalDeductions, netSalary: totalIncome - totalDeductions }
}

const amountsOf = (row: repo.SalaryRow): Amounts =>
  Object.fromEntries(Object.entries(COLUMN).map(([item, column]) => [item, row[column as keyof repo.SalaryRow] as number])) as Amounts

/** `YYYY-MM` → `YYYY年MM月` */
export const monthText = (month: string) => `${month.slice(0, 4)}年${month.slice(5, 7)}月`

export function toSalaryResponse(row: repo.SalaryWithName, locale: Locale, rawStatus = false): SalaryResponse {
  const amounts = amountsOf(row)
  const yuan = (items: readonly AmountField[], total: number) => ({
    ...Object.fromEntries(items.map((item) => [item, toYuan(amounts[item])])),
    total: toYuan(total),
  })
  return {
    id: row.id,
    employee_id: row.employeeId,
    employee_name: row.employeeName,
    month: monthText(row.month),
    net_salary: toYuan(row.netSalary),
    status: rawStatus ? String(row.status) : statusText('salary', row.status, locale),
    status_code: row.status === 1 ? '1' : '0',
    payment_date: row.paymentDate ? `${row.paymentDate}T00:00:00.000Z` : null,
    category_id: row.categoryId,
    income: yuan(INCOME_ITEMS, row.totalIncome) as SalaryResponse['income'],
    deductions: yuan(DEDUCTION_ITEMS, row.totalDeductions) as SalaryResponse['deductions'],
    summary: { total_income: toYuan(row.totalIncome), total_deductions: toYuan(row.totalDeductions), net_salary: toYuan(row.netSalary) },
    remarks: row.remarks,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  }
}

/** The amounts a request sends, in fen; items not sent are left out. */
function sentAmounts(input: Partial<Record<AmountField, number>>): Partial<Amounts> {
  const sent: Partial<Amounts> = {}
  for (const item of [...INCOME_ITEMS, ...DEDUCTION_ITEMS]) if (input[item] !== undefined) sent[item] = toFen(input[item], item)
  return sent
}

/** The full set of amounts after a change: totals, net, and the sent net checked against it. */
function settle(amounts: Amounts, sentNet: number | undefined) {
  const totals = computeTotals(amounts)
  if (totals.netSalary < 0)
    throw new ValidationError(say.negativeNet({ deductions: toYuan(totals.totalDeductions), income: toYuan(totals.totalIncome) }), [
      { field: 'net_salary', message: say.wouldBeNegative() },
    ])
  // a net may exceed one item's limit: it is checked against the computed one, not the limit
  if (sentNet !== undefined && toFen(sentNet, 'net_salary', MAX_YUAN * INCOME_ITEMS.length) !== totals.netSalary)
    throw new ValidationError(say.netMismatch({ sent: sentNet, net: toYuan(totals.netSalary) }), [
      { field: 'net_salary', message: say.netMustBe({ net: toYuan(totals.netSalary) }) },
    ])
  const columns: Partial<repo.NewSalary> = {}
  for (const [item, column] of Object.entries(COLUMN)) (columns as Record<string, number>)[column] = amounts[item as AmountField]
  return { ...columns, ...totals }
}

function checkPaymentDate(value: string | null | undefined): void {
  if (value && !isCalendarDate(value))
    throw new ValidationError(say.paymentDateNotReal({ value }), [{ field: 'payment_date', message: say.notRealDate() }])
}

const ZERO = Object.fromEntries(Object.keys(COLUMN).map((item) => [item, 0])) as Amounts

export interface SalariesDeps {
  database: Database
  clock: Clock
  defaultZone: string
}

export function createSalariesService({ database, clock, defaultZone }: SalariesDeps) {
  const { db } = database
  const missing = (id: number) => new NotFoundError(say.missing({ id }))
  const today = () => localDate(clock.now(), defaultZone)
  const snapshot = (row: repo.SalaryWithName) => toSalaryResponse(row, 'en')
  const reload = async (tx: Queryable, id: number) => (await repo.findSalary(tx, id))!

  const list = async (filter: repo.SalaryFilter, query: SalaryListQuery, locale: Locale) => {
    if (query.start_month && query.end_month && query.start_month > query.end_month)
      throw new ValidationError(say.startAfterEnd(), [{ field: 'start_month', message: say.isAfterEnd() }])
    const window = pageWindow(query, 10)
    const { rows, total } = await repo.listSalaries(db, filter, window)
    return { salaries: rows.map((row) => toSalaryResponse(row, locale)), pagination: p2Pagination(total, window) }
  }

  const filterOf = (query: SalaryListQuery): repo.SalaryFilter => ({
    month: query.month,
    status: query.status === undefined ? undefined : Number(query.status),
    startMonth: query.start_month,
    endMonth: query.end_month,
  })

  const ownEmployee = (principal: Principal) => linkedEmployee(principal, 'salary records')
  /** Nobody creates, changes, deletes or pays their own salary, but the owner (role admin) (CONTRACT §15). */
  const requireNotOwnSalary = (tx: Queryable, principal: Principal, employeeId: number, label: Message) =>
    requireNotOwn(tx, principal, { label, employeeId }, 'pay', true)

  /** A record a payroll run wrote changes only through the next runs' adjustments (CONTRACT §16); paying it stays as it is. */
  const byRun = (row: { id: number; month: string; payrollRunId: number | null }) =>
    new ConflictError(say.writtenByRun({ id: row.id, month: row.month, run: row.payrollRunId ?? 0 }))

  return {
    async create(input: CreateSalaryInput, actor: Actor, principal: Principal): Promise<SalaryResponse> {
      checkPaymentDate(input.payment_date)
      const status = input.status === '1' ? 1 : 0
      const values = settle({ ...ZERO, ...sentAmounts(input) }, input.net_salary)
      const now = clock.now()
      /** the employee as people know them, for the refusals */
      let who: Message | string = ''
      return onConstraint(
        () =>
          database.write(async (tx) => {
            const employee = await repo.findEmployee(tx, input.employee_id)
            if (!employee)
              throw new ValidationError(say.employeeMissing({ id: input.employee_id }), [{ field: 'employee_id', message: common.doesNotExist() }])
            who = employeeName(employee)
            await requireNotOwnSalary(tx, principal, input.employee_id, say.salaryOf({ employee: who, month: input.month }))
            const id = await repo.insertSalary(tx, {
              ...values,
              employeeId: input.employee_id,
              month: input.month,
              status,
              // the API document lists payment_date on create whatever the status, so an unpaid record may be created with one
              paymentDate: input.payment_date ?? (status === 1 ? today() : null),
              categoryId: input.category_id ?? null,
              remarks: input.remarks?.trim() ?? '',
              createdAt: now,
              updatedAt: now,
            })
            const row = await reload(tx, id)
            await recordAudit(tx, actor, now, { action: 'salary.create', resource: 'salary', resourceId: id, after: snapshot(row) })
            return toSalaryResponse(row, 'en', true)
          }),
        {
          unique: () => new ConflictError(say.alreadyHas({ employee: who, month: input.month })),
        },
      )
    },

    async get(id: number, locale: Locale): Promise<SalaryResponse> {
      const row = await repo.findSalary(db, id)
      if (!row) throw missing(id)
      return toSalaryResponse(row, locale)
    },

    async update(id: number, input: UpdateSalaryInput, actor: Actor, principal: Principal, locale: Locale): Promise<SalaryResponse> {
      checkPaymentDate(input.payment_date)
      const sent = sentAmounts(input)
      const now = clock.now()
      return database.write(async (tx) => {
        const before = await repo.findSalary(tx, id)
        if (!before) throw missing(id)
        await requireNotOwnSalary(tx, principal, before.employeeId, say.record({ id }))
        const current = amountsOf(before)
        const changed = (Object.keys(sent) as AmountField[]).filter((item) => sent[item] !== current[item])
        if (before.payrollRunId !== null && changed.length > 0) throw byRun(before)
        if (before.status === 1 && changed.length > 0)
          throw new ConflictError(say.locked({ id, items: changed.join(', ') }))
        const status = input.status === undefined ? before.status : Number(input.status)
        const paymentDate = paymentDateAfter(before, { status: input.status, paymentDate: input.payment_date }, today())
        await repo.updateSalary(tx, id, {
          ...settle({ ...current, ...sent }, input.net_salary),
          status,
          paymentDate,
          categoryId: input.category_id,
          remarks: input.remarks?.trim(),
          updatedAt: now,
        })
        const after = await reload(tx, id)
        await recordAudit(tx, actor, now, {
          action: 'salary.update',
          resource: 'salary',
          resourceId: id,
          before: snapshot(before),
          after: snapshot(after),
        })
        return toSalaryResponse(after, locale)
      })
    },

    async remove(id: number, actor: Actor, principal: Principal): Promise<void> {
      const now = clock.now()
      await database.write(async (tx) => {
        const before = await repo.findSalary(tx, id)
        if (!before) throw missing(id)
        await requireNotOwnSalary(tx, principal, before.employeeId, say.record({ id }))
        if (before.payrollRunId !== null) throw byRun(before)
        await repo.deleteSalary(tx, id)
        await recordAudit(tx, actor, now, { action: 'salary.delete', resource: 'salary', resourceId: id, before: snapshot(before) })
      })
    },

    /**
     * Every id gets the status in one transaction; unknown ids → 400 naming them, and nothing changes.
     * The payment dates follow as in a PUT: records paid now get today's, records set to "0" lose theirs.
     */
    async batchStatus(ids: number[], status: '0' | '1', actor: Actor, principal: Principal): Promise<void> {
      const unique = [...new Set(ids)]
      const now = clock.now()
      await database.write(async (tx) => {
        const before = await repo.statusesOf(tx, unique)
        const found = new Set(before.map((row) => row.id))
        const unknown = unique.filter((id) => !found.has(id))
        if (unknown.length > 0)
          throw new ValidationError(say.unknownRecords({ n: unknown.length, ids: unknown.join(', ') }), [
            { field: 'ids', message: say.unknownIds({ ids: unknown.join(', ') }) },
          ])
        for (const row of before) await requireNotOwnSalary(tx, principal, row.employeeId, say.record({ id: row.id }))
        await repo.setStatuses(tx, unique, Number(status), now)
        // the dates that change: today's for records paid now, none for records set back to "0"
        const day = today()
        const redated = new Map<string | null, number[]>()
        for (const row of before) {
          const date = paymentDateAfter(row, { status }, day)
          if (date === row.paymentDate) continue
          const group = redated.get(date) ?? []
          group.push(row.id)
          redated.set(date, group)
        }
        for (const [date, group] of redated) await repo.setPaymentDates(tx, group, date)
        const after = await repo.statusesOf(tx, unique)
        const shown = (rows: typeof before) => rows.map(({ id, status, paymentDate }) => ({ id, status, paymentDate }))
        await recordAudit(tx, actor, now, { action: 'salary.batch_status', resource: 'salary', resourceId: null, before: shown(before), after: shown(after) })
      })
    },

    adminList: (query: SalaryListQuery, locale: Locale) => list({ ...filterOf(query), employeeId: query.employee_id }, query, locale),

    /** The caller's own records, whatever `employee_id` says. */
    ownList: (principal: Principal, query: SalaryListQuery, locale: Locale) =>
      list({ ...filterOf(query), employeeId: ownEmployee(principal) }, query, locale),

    async ownMonth(principal: Principal, month: string, locale: Locale): Promise<SalaryResponse> {
      const row = await repo.findSalaryOf(db, ownEmployee(principal), month)
      if (!row) throw new NotFoundError(say.noneForMonth({ month }))
      return toSalaryResponse(row, locale)
    },

    async stats(month: string | undefined): Promise<SalaryStatsResponse> {
      const stats = await repo.salaryStats(db, month || undefined)
      return {
        total_employees: stats.employees,
        total_salaries: stats.total,
        avg_salary: stats.records === 0 ? 0 : toYuan(Math.round(stats.total / stats.records)),
        max_salary: toYuan(stats.max),
        min_salary: toYuan(stats.min),
      }
    },
  }
}

export type SalariesService = ReturnType<typeof createSalariesService>
