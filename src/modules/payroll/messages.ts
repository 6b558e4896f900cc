import { defineMessages, ruleText } from '../../lib/messages'

/** Payroll's messages (CONTRACT §16): profiles, settings, runs, payslips and their lines. */
export const say = defineMessages('payroll', {
  profileSaved: { en: 'Pay profile saved', zh: '薪资档案已保存' },
  settingsSaved: { en: 'Pay settings saved', zh: '薪资设置已保存' },
  runCreated: { en: 'Payroll run created', zh: '工资核算批次已创建' },
  runRecomputed: { en: 'Payroll run recomputed', zh: '工资核算批次已重算' },
  runApproved: { en: 'Payroll run approved; its salary records are written', zh: '工资核算批次已审批，工资记录已写入' },
  runDeleted: { en: 'Payroll run deleted', zh: '工资核算批次已删除' },
  inputsSaved: { en: 'Payslip inputs saved and the payslip recomputed', zh: '工资条录入项已保存，工资条已重算' },

  employeeMissing: { en: 'Employee {id} does not exist', zh: '员工 {id} 不存在' },
  companyMissing: { en: 'Company {id} does not exist', zh: '公司 {id} 不存在' },
  runMissing: { en: 'Payroll run {id} does not exist', zh: '工资核算批次 {id} 不存在' },
  payslipMissing: { en: 'Payslip {id} is not in payroll run {run}', zh: '工资核算批次 {run} 中没有工资条 {id}' },
  noPayslip: { en: 'You have no approved payslip for {month}', zh: '您没有 {month} 已审批的工资条' },
  notLinked: {
    en: 'Your account is not linked to an employee, so it has no payslips; ask an administrator to link it',
    zh: '您的账号未关联员工，因此没有工资条；请联系管理员关联',
  },
  beforeTaxTables: {
    en: '{month} is before {first}, the first month of cumulative income tax withholding this service computes',
    zh: '{month} 早于 {first}；本系统从 {first} 起按累计预扣法计算个人所得税',
  },
  notRealMonth: { en: 'month {month} is not a real month', zh: '月份 {month} 不是真实存在的月份' },
  runExists: {
    en: '{company} already has a payroll run for {month} (run {id}); recompute that one instead',
    zh: '{company}已有 {month} 的工资核算批次（批次 {id}）；请重算该批次',
  },
  notDraft: {
    en: 'The payroll run of {company} for {month} is approved and locked; changes to that month go into the next month’s run as adjustments',
    zh: '{company} {month} 的工资核算批次已审批并锁定；该月的变动将作为调整计入下月的批次',
  },
  bankListDraft: {
    en: 'The payroll run of {company} for {month} is a draft: its bank transfer list is made once it is approved',
    zh: '{company} {month} 的工资核算批次尚未审批：审批后才能生成银行代发表',
  },
  runOf: { en: 'The payroll run of {company} for {month}', zh: '{company} {month} 的工资核算批次' },
  negativeNet: {
    en: 'The net pay of {employees} for {month} would be below zero; enter other income or check their attendance before approving',
    zh: '{employees} {month} 的实发工资将小于零；请先录入其他收入或核对考勤，再审批',
  },
  salaryNotByRun: {
    en: '{employee} already has a salary record for {month} (record {id}) that no payroll run wrote; delete it or move it before approving',
    zh: '{employee}已有 {month} 的工资记录（记录 {id}），不是由工资核算写入的；请先删除或处理该记录，再审批',
  },
  salaryByOtherRun: {
    en: '{employee} already has a salary record for {month} (record {id}), written by payroll run {run}; a month is paid once: leave them out of this run (correct their company or leaving date and recompute)',
    zh: '{employee}已有 {month} 的工资记录（记录 {id}），由工资核算批次 {run} 写入；每月只发放一次：请将其排除在本批次之外（修正其公司或离职日期后重算）',
  },
  noLongerPaid: {
    en: 'The payroll run of {company} for {month} no longer pays {employee} (their hire or leaving date, company or pay profile changed): recompute the run',
    zh: '{company} {month} 的工资核算批次已不再包含{employee}（其入职或离职日期、公司或薪资档案已变更）：请重算该批次',
  },
  payoutWritten: {
    en: 'The remaining {type} of {employee} for {year} has already been paid out on leaving; recompute the run before approving',
    zh: '{employee} {year} 年剩余的{type}已在离职时折算发放；请先重算该批次，再审批',
  },
  payoutChanged: {
    en: 'The {type} balance of {employee} for {year} changed since the run was computed: the payslip pays out {days} days, the balance now has {remaining} days; recompute the run before approving',
    zh: '{employee} {year} 年的{type}余额在核算后已变动：工资条折算 {days} 天，余额现为 {remaining} 天；请先重算该批次，再审批',
  },
  employee: { en: '{name} ({no})', zh: '{name}（工号 {no}）' },
  employeeNoNumber: { en: '{name} (no employee number)', zh: '{name}（无工号）' },
  daysPerMonth: { en: 'days_per_month must be above 0 and at most 31, with at most 2 decimals', zh: 'days_per_month 必须大于 0 且不超过 31，最多两位小数' },
  daysPerMonthField: { en: 'above 0 and at most 31, at most 2 decimals', zh: '大于 0 且不超过 31，最多两位小数' },
  multiplier: { en: 'overtime_multipliers.{kind} must be from 0 to 10 with at most 2 decimals', zh: 'overtime_multipliers.{kind} 必须在 0 到 10 之间，最多两位小数' },
  multiplierField: { en: 'from 0 to 10, at most 2 decimals', zh: '0 到 10 之间，最多两位小数' },
  invalid: { en: 'The pay settings are not valid: {problems}', zh: '薪资设置无效：{problems}' },
  invalidProfile: { en: 'The pay profile is not valid: {problems}', zh: '薪资档案无效：{problems}' },
  invalidInputs: { en: 'The payslip inputs are not valid: {problems}', zh: '工资条录入项无效：{problems}' },

  // contribution schemes and declarations of special additional deductions (CONTRACT §17)
  schemeCreated: { en: 'Contribution scheme created', zh: '社保公积金方案已创建' },
  schemeSaved: { en: 'Contribution scheme saved', zh: '社保公积金方案已保存' },
  schemeDeleted: { en: 'Contribution scheme deleted', zh: '社保公积金方案已删除' },
  schemeMissing: { en: 'Contribution scheme {id} does not exist', zh: '社保公积金方案 {id} 不存在' },
  schemeMissingField: { en: 'no contribution scheme has this id', zh: '没有此编号的社保公积金方案' },
  schemeExists: {
    en: 'A contribution scheme named {name} from {month} already exists (scheme {id}); edit that one, or give the new one another month',
    zh: '已存在名为 {name}、自 {month} 起的社保公积金方案（方案 {id}）；请编辑该方案，或为新方案选择其他月份',
  },
  schemeNamedByProfile: {
    en: 'The contribution scheme {scheme} is named by the pay profile of {employee} from {month}; give that profile another scheme first',
    zh: '社保公积金方案{scheme}正被{employee}自 {month} 起的薪资档案使用；请先为该档案改选其他方案',
  },
  schemeUsedByRun: {
    en: 'The contribution scheme {scheme} computed payslips of {company} for {month} (payroll run {run}); a scheme that computed a month is kept (a draft run lets go of it once recomputed or deleted)',
    zh: '社保公积金方案{scheme}已用于{company} {month} 的工资条（工资核算批次 {run}）；计算过工资的方案需保留（草稿批次重算或删除后即不再使用）',
  },
  schemeNamed: { en: '{name} from {month}', zh: '{name}（自 {month} 起）' },
  invalidScheme: { en: 'The contribution scheme is not valid: {problems}', zh: '社保公积金方案无效：{problems}' },
  rateField: { en: 'a decimal from 0 to 1 with at most 4 places (8 % is 0.08)', zh: '必须是 0 到 1 之间、最多四位小数的数（8% 写作 0.08）' },
  baseMaxField: { en: 'must not be below base_min', zh: '不能低于 base_min' },
  codeTwiceField: { en: 'appears more than once in the scheme', zh: '在方案中重复出现' },
  nameField: { en: 'must not be empty', zh: '不能为空' },
  declarationSaved: { en: 'Special additional deductions saved', zh: '专项附加扣除已保存' },
  declarationDeleted: { en: 'Special additional deductions deleted', zh: '专项附加扣除已删除' },
  declarationMissing: {
    en: 'Employee {employee} has no special additional deductions declared for {year}',
    zh: '员工 {employee} 没有 {year} 年的专项附加扣除申报',
  },
  declarationUsed: {
    en: 'The special additional deductions of {year} were counted by the payslips of {company} for {month} (payroll run {run}); set the amounts to 0 instead, and the next month’s cumulative figures take them back',
    zh: '{year} 年的专项附加扣除已计入{company} {month} 的工资条（工资核算批次 {run}）；请改为将金额设为 0，下月的累计数字会相应扣回',
  },
  invalidDeclaration: { en: 'The special additional deductions are not valid: {problems}', zh: '专项附加扣除无效：{problems}' },
  capField: { en: 'at most {cap} yuan a month (the 2023 standard)', zh: '每月最多 {cap} 元（2023 年标准）' },
  childrenCapField: {
    en: 'children’s education and infant care together at most 2000 yuan a month per child: with {children} declared, at most {cap} yuan',
    zh: '子女教育与婴幼儿照护合计每个子女每月最多 2000 元：申报 {children} 个子女，最多 {cap} 元',
  },
  housingExclusiveField: {
    en: 'housing loan interest and housing rent cannot both be declared; keep one',
    zh: '住房贷款利息与住房租金不能同时申报，请只保留一项',
  },
  fromMonthField: { en: 'must be a month of {year}', zh: '必须是 {year} 年内的月份' },
  employeeIdNeeded: { en: 'is required: your account is linked to no employee', zh: '必填：您的账号未关联员工' },
  taxYear: { en: '{year} is before {first}, the first year of cumulative income tax withholding this service computes', zh: '{year} 年早于 {first} 年；本系统从 {first} 年起按累计预扣法计算个人所得税' },

  // the payslip lines' labels
  line_basic_salary: { en: 'Basic salary', zh: '基本工资' },
  line_seniority_pay: { en: 'Seniority pay', zh: '工龄工资' },
  line_allowance: { en: 'Allowance', zh: '津贴' },
  line_overtime_work_day: { en: 'Overtime pay, work days', zh: '加班费（工作日）' },
  line_overtime_rest_day: { en: 'Overtime pay, rest days', zh: '加班费（休息日）' },
  line_overtime_statutory_holiday: { en: 'Overtime pay, statutory holidays', zh: '加班费（法定节假日）' },
  line_leave_payout: { en: 'Unused annual leave paid out', zh: '未休年假折算工资' },
  line_performance_pay: { en: 'Performance pay', zh: '绩效工资' },
  line_bonus: { en: 'Bonus', zh: '奖金' },
  line_other_income: { en: 'Other income', zh: '其他收入' },
  line_adjustment: { en: 'Adjustment for {month}', zh: '{month} 调整（补发/补扣）' },
  line_absence: { en: 'Absence deduction', zh: '缺勤扣款' },
  line_unpaid_leave: { en: 'Unpaid leave deduction', zh: '事假扣款' },
  line_unpaid_leave_hours: { en: 'Unpaid leave deduction (hours)', zh: '事假扣款（小时）' },
  line_lateness: { en: 'Lateness deduction', zh: '迟到扣款' },
  line_personal_insurance: { en: 'Social insurance (employee)', zh: '个人社保' },
  line_housing_fund: { en: 'Housing fund (employee)', zh: '个人住房公积金' },
  line_personal_tax: { en: 'Individual income tax', zh: '个人所得税' },
  line_other_deductions: { en: 'Other deductions', zh: '其他扣款' },
  line_employer_contributions: { en: 'Employer’s social insurance and housing fund', zh: '单位缴纳社保及公积金' },
})

export const monthRule = (field: string) =>
  ruleText({ en: `${field} must be a month written YYYY-MM`, zh: `${field} 必须是 YYYY-MM 格式的月份` })
export const yearRule = ruleText({ en: 'year must be a year (1 to 9999)', zh: 'year 必须是年份（1 到 9999）' })
export const flagRule = ruleText({
  en: 'flag must be one of prorated, absence, unpaid_leave, lateness, overtime, adjustment, entered, negative_net',
  zh: 'flag 必须是 prorated、absence、unpaid_leave、lateness、overtime、adjustment、entered、negative_net 之一',
})
export const freeRule = ruleText({ en: 'free_occurrences must be a whole number from 0 to 31, or null', zh: 'free_occurrences 必须是 0 到 31 之间的整数，或 null' })
export const formatRule = ruleText({ en: 'format must be csv or xlsx', zh: 'format 必须是 csv 或 xlsx' })
/** Item codes sit at a nested path (items.0.code): the rule does not name its field. */
export const codeRule = ruleText({
  en: 'must be one of pension, medical, unemployment, work_injury, maternity, housing_fund',
  zh: '必须是 pension、medical、unemployment、work_injury、maternity、housing_fund 之一',
})
export const childrenRule = ruleText({ en: 'children must be a whole number from 0 to 20', zh: 'children 必须是 0 到 20 之间的整数' })
