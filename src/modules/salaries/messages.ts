import { defineMessages, ruleText, type Message } from '../../lib/messages'

/** The salary records' messages. */
export const say = defineMessages('salaries', {
  created: { en: 'Salary record created', zh: '工资记录已创建' },
  statusesUpdated: { en: 'Statuses updated', zh: '状态已更新' },
  updated: { en: 'Salary record updated', zh: '工资记录已更新' },
  deleted: { en: 'Salary record deleted', zh: '工资记录已删除' },

  writtenByRun: {
    en: 'Salary record {id} of {month} was written by payroll run {run}: its amounts change only through the next runs’ adjustments, and it cannot be deleted',
    zh: '{month} 的工资记录 {id} 由工资核算批次 {run} 写入：其金额只能通过以后批次的调整变更，且不能删除',
  },
  missing: { en: 'Salary record {id} does not exist', zh: '工资记录 {id} 不存在' },
  noneForMonth: { en: 'You have no salary record for {month}', zh: '您没有 {month} 的工资记录' },
  employeeMissing: {
    en: 'employee_id names employee {id}, which does not exist',
    zh: 'employee_id 指定的员工 {id} 不存在',
  },
  alreadyHas: {
    en: '{employee} already has a salary record for {month}; update that one instead',
    zh: '{employee}已有 {month} 的工资记录；请修改那条记录',
  },
  employee: { en: '{name} ({no})', zh: '{name}（工号 {no}）' },
  salaryOf: { en: 'The salary of {employee} for {month}', zh: '{employee} {month} 的工资' },
  record: { en: 'Salary record {id}', zh: '工资记录 {id}' },

  negativeNet: {
    en: 'Deductions ({deductions} yuan) exceed income ({income} yuan): the net salary would be negative',
    zh: '扣款（{deductions} 元）超过收入（{income} 元）：实发工资将为负数',
  },
  wouldBeNegative: { en: 'would be negative', zh: '将为负数' },
  netMismatch: {
    en: 'net_salary {sent} does not match the computed net salary {net}',
    zh: 'net_salary {sent} 与计算出的实发工资 {net} 不一致',
  },
  netMustBe: { en: 'must be {net} (income minus deductions) or left out', zh: '必须为 {net}（收入减扣款），或不填' },
  paymentDateNotReal: { en: 'payment_date "{value}" is not a real date (YYYY-MM-DD)', zh: 'payment_date“{value}”不是有效的日期（YYYY-MM-DD）' },
  notRealDate: { en: 'is not a real date', zh: '不是有效的日期' },
  paymentDateUnpaid: {
    en: 'payment_date {date} cannot be set on an unpaid record (status "0"); send status "1" with it to mark the record paid, or leave payment_date out',
    zh: '未发放的记录（status "0"）不能设置 payment_date {date}；如要标记为已发放，请同时发送 status "1"，否则请不填 payment_date',
  },
  paymentDateUnpaidField: {
    en: 'must be left out while the record is unpaid (status "0")',
    zh: '记录未发放（status "0"）时不能填写',
  },
  startAfterEnd: { en: 'start_month must not be after end_month', zh: 'start_month 不能晚于 end_month' },
  isAfterEnd: { en: 'is after end_month', zh: '晚于 end_month' },
  locked: {
    en: 'Salary record {id} is paid, so its amounts are locked ({items} would change); set its status to "0" first',
    zh: '工资记录 {id} 已发放，金额已锁定（{items} 将被修改）；请先将其状态设为 "0"',
  },
  unknownRecords: {
    en: 'Unknown salary record{n:s}: {ids}; nothing was changed',
    zh: '未知的工资记录：{ids}；未做任何修改',
  },
  unknownIds: { en: 'unknown: {ids}', zh: '未知：{ids}' },
})

/** An employee as people know them: "Zhang San (E001)", or the name alone without a number. */
export const employeeName = ({ name, employeeNo }: { name: string; employeeNo: string | null }): Message | string =>
  employeeNo ? say.employee({ name, no: employeeNo }) : name

/** The rule texts of the models (the error handler translates them). */
export const monthRule = (field: string) =>
  ruleText({ en: `${field} must be a month written YYYY-MM`, zh: `${field} 必须是 YYYY-MM 格式的月份` })
export const statusRule = (field: string) =>
  ruleText({ en: `${field} must be "0" (unconfirmed) or "1" (paid)`, zh: `${field} 必须是 "0"（未确认）或 "1"（已发放）` })
export const statsMonthRule = ruleText({
  en: 'month must be a month written YYYY-MM, or empty for all months',
  zh: 'month 必须是 YYYY-MM 格式的月份，或留空表示所有月份',
})
