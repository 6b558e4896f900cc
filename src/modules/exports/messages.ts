import { defineMessages, ruleText } from '../../lib/messages'

/** The exports' messages (CONTRACT §12, §24): their refusals, and the words of the sheet layout. */
export const say = defineMessages('exports', {
  notRealMonth: { en: '"{month}" is not a real month', zh: '“{month}”不是真实存在的月份' },
  /** one problem of a filter, as the exports have always worded it: "field: problem" */
  filterProblem: { en: '{field}: {problem}', zh: '{field}：{problem}' },
  noDepartment: { en: 'department {id} does not exist', zh: '部门 {id} 不存在' },
  noGroup: { en: 'attendance group {id} does not exist', zh: '考勤组 {id} 不存在' },

  // the sheet layout's title rows and worksheet names
  attendanceTitle: {
    en: 'Attendance sheet · {company} · {month} · made {made} ({zone})',
    zh: '考勤表 · {company} · {month} · 制表时间 {made}（{zone}）',
  },
  salaryTitle: {
    en: 'Salary register · {company} · {month} · made {made} ({zone})',
    zh: '工资表 · {company} · {month} · 制表时间 {made}（{zone}）',
  },
  allCompanies: { en: 'All companies', zh: '全部公司' },
  attendanceSheetName: { en: 'Attendance {month}', zh: '考勤表 {month}' },
  salarySheetName: { en: 'Salaries {month}', zh: '工资表 {month}' },
  total: { en: 'Total', zh: '合计' },
})

/** The columns' headers in words, by the field each holds (the data layout's header). */
export const header = defineMessages('exports.header', {
  employee_no: { en: 'Employee no.', zh: '工号' },
  name: { en: 'Name', zh: '姓名' },
  department: { en: 'Department', zh: '部门' },
  work_days: { en: 'Work days', zh: '应出勤天数' },
  attendance_days: { en: 'Days attended', zh: '出勤天数' },
  late_days: { en: 'Late days', zh: '迟到天数' },
  late_minutes: { en: 'Late minutes', zh: '迟到分钟' },
  early_days: { en: 'Early-leave days', zh: '早退天数' },
  absent_days: { en: 'Absent days', zh: '缺勤天数' },
  leave_days: { en: 'Leave days', zh: '请假天数' },
  overtime_hours: { en: 'Overtime hours', zh: '加班小时' },
  work_hours: { en: 'Hours worked', zh: '工作小时' },
  leave_hours: { en: 'Leave hours', zh: '请假小时' },
  basic_salary: { en: 'Basic salary', zh: '基本工资' },
  seniority_pay: { en: 'Seniority pay', zh: '工龄工资' },
  performance_pay: { en: 'Performance pay', zh: '绩效工资' },
  overtime_pay: { en: 'Overtime pay', zh: '加班费' },
  bonus: { en: 'Bonus', zh: '奖金' },
  allowance: { en: 'Allowance', zh: '津贴' },
  total_income: { en: 'Total income', zh: '应发合计' },
  attendance_deduction: { en: 'Attendance deduction', zh: '考勤扣款' },
  personal_insurance: { en: 'Social insurance (employee)', zh: '个人社保' },
  personal_tax: { en: 'Income tax', zh: '个人所得税' },
  housing_fund: { en: 'Housing fund', zh: '住房公积金' },
  other_deductions: { en: 'Other deductions', zh: '其他扣款' },
  total_deductions: { en: 'Total deductions', zh: '扣款合计' },
  net_salary: { en: 'Net pay', zh: '实发工资' },
  status: { en: 'Status', zh: '状态' },
  payment_date: { en: 'Paid on', zh: '发放日期' },
})

/** The weekday row under the dates, and its marks of the company calendar. */
export const weekdays = defineMessages('exports.weekday', {
  mon: { en: 'Mon', zh: '一' },
  tue: { en: 'Tue', zh: '二' },
  wed: { en: 'Wed', zh: '三' },
  thu: { en: 'Thu', zh: '四' },
  fri: { en: 'Fri', zh: '五' },
  sat: { en: 'Sat', zh: '六' },
  sun: { en: 'Sun', zh: '日' },
  holiday: { en: '{day} H', zh: '{day} 休' },
  workday: { en: '{day} W', zh: '{day} 班' },
})

/** The legend under the attendance sheet: what each day code means, and the marks. */
export const legend = defineMessages('exports.legend', {
  title: { en: 'Codes', zh: '代码说明' },
  normal: { en: 'Normal', zh: '正常' },
  late: { en: 'Late', zh: '迟到' },
  early: { en: 'Left early', zh: '早退' },
  absent: { en: 'Absent', zh: '缺勤' },
  exception: { en: 'Exception (a clock-in or clock-out missing)', zh: '异常（缺上班打卡或下班打卡）' },
  leave: { en: 'Leave, a whole day', zh: '请假（全天）' },
  halfLeave: { en: 'Leave, half a day', zh: '请假（半天）' },
  holiday: { en: 'Holiday', zh: '节假日' },
  noneCode: { en: '(empty)', zh: '（空白）' },
  none: { en: 'A day off, or a day still to come', zh: '休息日，或尚未到来的日期' },
  marks: {
    en: 'Under a date, H marks a holiday and W a make-up workday of the company calendar.',
    zh: '日期下方的“休”表示公司日历中的节假日，“班”表示调休上班日。',
  },
  shading: { en: 'Shaded columns: holidays and rest days.', zh: '有底色的列：节假日和休息日。' },
})

/** The models' rule texts, in both languages. */
export const rules = {
  month: ruleText({ en: 'month must be a month written YYYY-MM', zh: 'month 必须是 YYYY-MM 格式的月份' }),
  format: ruleText({ en: 'format must be csv or xlsx', zh: 'format 必须是 csv 或 xlsx' }),
  layout: ruleText({ en: 'layout must be data or sheet', zh: 'layout 必须是 data 或 sheet' }),
}
