/**
 * B5: S2's two reads as Workforce answers them, written out by hand.
 * - GET /api/v1/attendance/today (attendance/service.ts `today`): the caller's context, today's
 *   work date, the record of that date with the employee's name and phone, and the rule it was
 *   clocked in under (from the caller's rules, else read), shaped as Workforce shapes them.
 * - GET /api/v1/employees/salaries/{month} (salaries/service.ts `ownMonth`): the caller's
 *   salary of the month with the employee's name, amounts in yuan.
 * Rows go straight from the driver's arrays into the answer: no row objects in between.
 */
import type { Locale } from '../../src/config'
import { NotFoundError, ValidationError } from '../../src/http/errors'
import { say as http } from '../../src/http/messages'
import { ruleMessage } from '../../src/lib/messages'
import { toYuan } from '../../src/lib/money'
import { statusText } from '../../src/lib/status-text'
import { hoursOf } from '../../src/modules/attendance/policy'
import { toRuleResponse } from '../../src/modules/attendance/setup/shapes'
import { monthRule, say } from '../../src/modules/salaries/messages'
import { todayWorkDate, type Context } from './same-work-clock-in'
import { RECORD, SALARY, type SameWorkDb } from './same-work-db'

const iso = (ms: unknown) => (ms === null ? null : new Date(ms as number).toISOString())

/** The caller's record of today's work date, or null. */
export function today(db: SameWorkDb, context: Context, locale: Locale) {
  const row = db.recordOn(context.employeeId, todayWorkDate(context, new Date()))
  if (!row) return null
  const at = <T>(column: keyof typeof RECORD) => row[RECORD[column]] as T
  const ruleId = at<number | null>('rule_id')
  const group = context.membership?.group
  const known = group ? context.rules.find((rule) => rule.id === ruleId) : undefined
  const rule = known && group ? { rule: known, groupName: group.name } : ruleId === null ? null : db.ruleById(ruleId)
  const name = row[RECORD.updated_at + 1] as string | null
  const status = at<number>('status')
  return {
    id: at<number>('id'),
    employee_id: at<number>('employee_id'),
    employee: name === null ? null : { id: at<number>('employee_id'), name, phone: row[RECORD.updated_at + 2] as string | null },
    rule_id: ruleId,
    rule: rule ? toRuleResponse(rule, locale) : null,
    clock_in_time: iso(at('clock_in_time')),
    clock_out_time: iso(at('clock_out_time')),
    clock_in_lat: at<number | null>('clock_in_lat'),
    clock_in_lng: at<number | null>('clock_in_lng'),
    clock_out_lat: at<number | null>('clock_out_lat'),
    clock_out_lng: at<number | null>('clock_out_lng'),
    work_date: at<string>('work_date'),
    timezone: at<string>('timezone'),
    status,
    status_text: statusText('attendance', status, locale),
    work_hours: hoursOf(at<number>('work_minutes')),
    late_minutes: at<number>('late_minutes'),
    early_minutes: at<number>('early_minutes'),
    overtime_minutes: at<number>('overtime_minutes'),
    corrected: at<number>('corrected') === 1,
    imported: at<number>('imported') === 1,
    note: at<string>('note'),
    created_at: iso(at('created_at')),
    updated_at: iso(at('updated_at')),
  }
}

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/
/** The path model's rule text (salaries/model.ts), as the error handler words a refused month. */
const MONTH_RULE = monthRule('month')
const INCOME = ['basic_salary', 'seniority_pay', 'performance_pay', 'overtime_pay', 'bonus', 'allowance'] as const
const DEDUCTIONS = ['attendance_deduction', 'personal_insurance', 'personal_tax', 'housing_fund', 'other_deductions'] as const

/** The caller's salary of a month; 400 for no month, 404 for none. */
export function salaryOfMonth(db: SameWorkDb, employeeId: number, month: string, locale: Locale) {
  if (!MONTH.test(month)) {
    const problem = ruleMessage(MONTH_RULE, 'month')
    throw new ValidationError(http.invalidField({ field: 'month', problem }), [{ field: 'month', message: problem }])
  }
  const row = db.salaryOf(employeeId, month)
  if (!row) throw new NotFoundError(say.noneForMonth({ month }))
  const fen = (column: keyof typeof SALARY) => row[SALARY[column]] as number
  const yuan = (items: readonly (keyof typeof SALARY)[], total: number) => {
    const amounts: Record<string, number> = {}
    for (const item of items) amounts[item] = toYuan(fen(item))
    amounts.total = toYuan(total)
    return amounts
  }
  const stored = row[SALARY.month] as string
  const status = fen('status')
  const paymentDate = row[SALARY.payment_date] as string | null
  return {
    id: fen('id'),
    employee_id: fen('employee_id'),
    employee_name: row[SALARY.updated_at + 1] as string | null,
    month: `${stored.slice(0, 4)}年${stored.slice(5, 7)}月`,
    net_salary: toYuan(fen('net_salary')),
    status: statusText('salary', status, locale),
    status_code: status === 1 ? '1' : '0',
    payment_date: paymentDate ? `${paymentDate}T00:00:00.000Z` : null,
    category_id: row[SALARY.category_id] as number | null,
    income: yuan(INCOME, fen('total_income')),
    deductions: yuan(DEDUCTIONS, fen('total_deductions')),
    summary: { total_income: toYuan(fen('total_income')), total_deductions: toYuan(fen('total_deductions')), net_salary: toYuan(fen('net_salary')) },
    remarks: row[SALARY.remarks] as string,
    created_at: iso(row[SALARY.created_at]),
    updated_at: iso(row[SALARY.updated_at]),
  }
}
