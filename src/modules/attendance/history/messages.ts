import { defineMessages, ruleText } from '../../../lib/messages'

/** The messages of the attendance history import (CONTRACT §23). */
export const say = defineMessages('attendance.history', {
  // a row's cells (rows.ts)
  notTimeOfDay: { en: '"{value}" is not a time of day (00:00 to 23:59)', zh: '“{value}”不是有效的时刻（00:00 到 23:59）' },
  notTime: {
    en: '"{value}" is neither a local time (HH:MM) nor an ISO 8601 instant with its offset (2024-10-08T09:02:00+08:00)',
    zh: '“{value}”既不是本地时间（HH:MM），也不是带时区偏移的 ISO 8601 时间（如 2024-10-08T09:02:00+08:00）',
  },
  employeeNoRequired: { en: 'is required: the employee number of the record’s employee', zh: '为必填项：该记录所属员工的工号' },
  workDateRequired: { en: 'is required (YYYY-MM-DD)', zh: '为必填项（YYYY-MM-DD）' },
  notRealDate: { en: '"{value}" is not a real date written YYYY-MM-DD', zh: '“{value}”不是 YYYY-MM-DD 格式的有效日期' },
  clockInRequired: {
    en: 'is required: a record is imported with its clock-in (a past work day without a record counts as absent by itself)',
    zh: '为必填项：导入的记录必须带有上班打卡时间（过去没有记录的工作日本来就算作缺勤）',
  },
  noteTooLong: { en: 'must be at most {max} characters (it has {length})', zh: '不能超过 {max} 个字符（现有 {length} 个）' },

  // a row against the database (service.ts)
  ownRow: {
    en: 'Row {row}, the attendance record of employee {no} on {date},',
    zh: '第 {row} 行（员工 {no} 在 {date} 的考勤记录）',
  },
  noSuchEmployeeNo: { en: 'no employee has the employee number "{no}"', zh: '没有工号为“{no}”的员工' },
  who: { en: 'employee {no} ({name})', zh: '员工 {no}（{name}）' },
  notInGroup: {
    en: '{who} is not in an attendance group, so {date} has no rule to judge it by; add them to one first',
    zh: '{who}不在任何考勤组中，{date} 没有可依据的考勤规则；请先将其加入考勤组',
  },
  repeatedDate: { en: '{date} of {who} is also in row {row}', zh: '{who}的 {date} 也出现在第 {row} 行' },
  inFuture: { en: '{date} is in the future (today is {today} in {zone})', zh: '{date} 是将来的日期（{zone} 的今天是 {today}）' },
  hireDateBound: { en: 'hire date, {date}', zh: '入职日期 {date}' },
  companyStartBound: {
    en: 'company’s attendance start (attendance_starts_on), {date}',
    zh: '公司的考勤开始日期（attendance_starts_on）{date}',
  },
  beforeStart: {
    en: '{date} is before the {bound}, of {who}: no date before it counts. Move that date first to import it',
    zh: '{date} 早于{who}的{bound}：此前的日期都不计入考勤。如需导入，请先调整该日期',
  },
  pendingCorrection: {
    en: '{who} has a pending correction of {date}: decide it first',
    zh: '{who}有一条 {date} 的补卡申请尚待审批：请先处理',
  },

  // the answer (index.ts)
  counts: {
    en: '{created} record{created:s} created, {replaced} replaced, {kept} kept as they were',
    zh: '新建 {created} 条记录，替换 {replaced} 条，保留 {kept} 条不变',
  },
  fileFine: { en: 'The file is fine; importing it would leave: {counts}', zh: '文件没有问题；导入后的结果将是：{counts}' },
  imported: { en: 'Imported: {counts}', zh: '导入完成：{counts}' },
})

/** The rule texts of the import's query (model.ts). */
export const rules = {
  dryRun: ruleText({
    en: 'dry_run must be true (check the file and write nothing) or false (import it)',
    zh: 'dry_run 必须是 true（只检查文件，不写入）或 false（导入）',
  }),
  replace: ruleText({ en: 'replace must be true or false', zh: 'replace 必须是 true 或 false' }),
}
