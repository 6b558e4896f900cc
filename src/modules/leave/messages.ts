import { defineMessages, ruleText } from '../../lib/messages'

/** The messages of leave (CONTRACT §9): types, balances, requests, and the opening balances' import. */
export const say = defineMessages('leave', {
  // a request's dates (service.ts)
  notRealDate: { en: 'is not a real date', zh: '不是真实存在的日期' },
  startAfterEnd: { en: 'start_date {start} is after end_date {end}', zh: 'start_date {start} 晚于 end_date {end}' },
  notAfterEndDate: { en: 'must not be after end_date', zh: '不能晚于 end_date' },
  rangeTooLong: {
    en: 'The range {start} to {end} is {length} days long; at most {max} days may be requested at once',
    zh: '{start} 至 {end} 共 {length} 天；一次最多只能申请 {max} 天',
  },
  atMostDaysAfterStart: { en: 'must be at most {max} days after start_date (inclusive)', zh: '与 start_date 之间（含首尾）不能超过 {max} 天' },
  halfDayNeedsOneDate: {
    en: 'half_day "{half}" needs start_date and end_date to be the same date ({start} to {end} is not)',
    zh: 'half_day“{half}”要求 start_date 与 end_date 是同一天（{start} 至 {end} 不是同一天）',
  },
  onlyOneDate: { en: 'only when start_date = end_date', zh: '仅限 start_date = end_date 时使用' },

  // hourly leave (service.ts, CONTRACT §18)
  timesNeedHourType: {
    en: '"{type}" is taken in days: start_time and end_time are for a type with unit "hour"',
    zh: '“{type}”按天请假：start_time 和 end_time 只适用于 unit 为 "hour" 的假期类型',
  },
  dayType: { en: 'only for a type taken by the hour', zh: '仅适用于按小时请假的假期类型' },
  hourTypeNeedsTimes: {
    en: '"{type}" is taken by the hour: send start_time and end_time (HH:MM) on one date',
    zh: '“{type}”按小时请假：请提供同一天的 start_time 和 end_time（HH:MM）',
  },
  timeRequired: { en: 'is required for a type taken by the hour', zh: '按小时请假时为必填项' },
  hoursOneDate: {
    en: 'Hourly leave is on one date: end_date must be start_date ({start} to {end} is not one date)',
    zh: '按小时请假只能在同一天：end_date 必须等于 start_date（{start} 至 {end} 不是同一天）',
  },
  hoursNoHalfDay: { en: 'cannot be sent with start_time and end_time: hourly leave is its own span', zh: '不能与 start_time、end_time 同时提供：按小时请假自有时段' },
  endNotAfterStart: { en: 'end_time {end} is not after start_time {start}', zh: 'end_time {end} 不晚于 start_time {start}' },
  afterStartTime: { en: 'must be after start_time', zh: '必须晚于 start_time' },
  noWorkTime: {
    en: '{date} from {start} to {end} holds none of your work time (your work hours less the break, on a work day): there is nothing to take leave from',
    zh: '{date} {start} 至 {end} 不含您的工作时间（工作日的上班时段，扣除休息时间）：无需请假',
  },
  noWorkTimeField: { en: 'the span holds no work time', zh: '该时段内没有工作时间' },
  wholeDayByHours: {
    en: 'Hourly leave on {date} would cover all of that day’s {hours} hours of work time: take the whole day as leave of days instead (a type counted in days)',
    zh: '{date} 的按小时请假将覆盖当天全部 {hours} 小时工作时间：请改为按天请假（选择按天计的假期类型）',
  },
  leaveSomeWork: { en: 'must leave some of the day’s work time', zh: '须保留当天部分工作时间' },
  atHours: { en: 'on {date} from {start} to {end}', zh: '{date} {start} 至 {end}' },
  notEnoughHoursLeft: {
    en: 'You asked for {hours} hours of {type} in {year}, but only {remaining} remain (granted {granted}, taken {taken}, pending {pending})',
    zh: '您申请了 {year} 年的“{type}”{hours} 小时，但只剩 {remaining} 小时（额度 {granted} 小时，已休 {taken} 小时，待审批 {pending} 小时）',
  },
  requestedAndLeftHours: { en: '{hours} hours requested, {remaining} remain', zh: '申请 {hours} 小时，剩余 {remaining} 小时' },
  unitFixed: {
    en: 'Leave type "{type}" has requests or balance rows in {unit}s: its unit cannot change (make a new type instead)',
    zh: '假期类型“{type}”已有按{unit}计的申请或余额记录：不能更改单位（请新建一个假期类型）',
  },
  payoutDaysOnly: { en: 'applies to a type taken in days (unit "day")', zh: '仅适用于按天请假的假期类型（unit 为 "day"）' },
  daysOrHours: {
    en: '"{type}" is counted in {unit}s: send {field} (and not the other)',
    zh: '“{type}”以{unit}计：请提供 {field}（不要同时提供另一项）',
  },
  otherUnit: { en: 'is for a type counted in the other unit', zh: '只适用于以另一单位计的假期类型' },
  hoursZero: { en: 'hours must not be 0', zh: 'hours 不能为 0' },
  notWholeMinutes: { en: 'hours {hours} is not a whole number of minutes (0.25 is 15 minutes)', zh: 'hours {hours} 不是整分钟数（0.25 即 15 分钟）' },
  wholeMinutes: { en: 'must be a whole number of minutes', zh: '必须是整分钟数' },
  takesTooManyHours: {
    en: 'Taking {hours} hours from {type} {year} would leave {left}: only {remaining} remain',
    zh: '从 {year} 年的“{type}”中扣减 {hours} 小时后将剩 {left} 小时：目前只剩 {remaining} 小时',
  },
  calendarOverdrawsHours: {
    en: "The calendar change adds {hours} hours of work time to {request}'s {type} in {year}, which has {remaining} hours left: adjust that balance or cancel the request first",
    zh: '此次工作日历变更使{request}在 {year} 年的“{type}”增加 {hours} 小时工作时间，而该余额只剩 {remaining} 小时：请先调整余额或撤销该申请',
  },
  unitDay: { en: 'day', zh: '天' },
  unitHour: { en: 'hour', zh: '小时' },

  // requests (service.ts)
  requestMissing: { en: 'Leave request {id} does not exist', zh: '请假申请 {id} 不存在' },
  request: { en: "{employee}'s request for {type} {span}", zh: '{employee}的“{type}”请假申请（{span}）' },
  notCancellable: {
    en: '{request} is {status}; only a pending or approved request can be cancelled',
    zh: '{request}的状态为“{status}”；只有待审批或已批准的申请可以撤销',
  },
  notPending: {
    en: '{request} is {status}, not pending: it cannot be {decision}',
    zh: '{request}的状态为“{status}”，不是待审批：无法{decision}',
  },
  pending: { en: 'pending', zh: '待审批' },
  approved: { en: 'approved', zh: '已批准' },
  rejected: { en: 'rejected', zh: '已驳回' },
  cancelled: { en: 'cancelled', zh: '已撤销' },
  decisionApproved: { en: 'approved', zh: '批准' },
  decisionRejected: { en: 'rejected', zh: '驳回' },
  changedMeanwhile: { en: '{request} changed meanwhile; try again', zh: '{request}刚刚被其他操作修改；请重试' },
  approvedAndBegun: {
    en: '{request} is approved and began on {start} (today is {today}); ask HR to cancel it',
    zh: '{request}已批准，并已于 {start} 开始（今天是 {today}）；如需撤销，请联系人事',
  },
  typeRefMissing: { en: 'type_id names leave type {id}, which does not exist', zh: 'type_id 指定的假期类型 {id} 不存在' },
  typeDisabled: { en: 'Leave type "{name}" is disabled and cannot be requested', zh: '假期类型“{name}”已停用，不能申请' },
  isDisabled: { en: 'is disabled', zh: '已停用' },
  noWorkDays: {
    en: '{start} to {end} holds none of your work days: there is nothing to take leave from',
    zh: '{start} 至 {end} 没有您的工作日：无需请假',
  },
  noWorkDay: { en: 'the range holds no work day', zh: '该日期范围内没有工作日' },
  overlaps: {
    en: 'Your request {asked} overlaps your {type} {other}, which is {status}',
    zh: '您申请的 {asked} 与您{status}的“{type}”（{other}）时间重叠',
  },
  overlapsAnother: {
    en: 'Your request {asked} overlaps another of your pending or approved leave requests',
    zh: '您申请的 {asked} 与您另一项待审批或已批准的请假时间重叠',
  },
  fromTo: { en: 'from {start} to {end}', zh: '{start} 至 {end}' },
  onDate: { en: 'on {date}', zh: '{date} 全天' },
  onMorning: { en: 'on {date} (am)', zh: '{date} 上午' },
  onAfternoon: { en: 'on {date} (pm)', zh: '{date} 下午' },
  notEnoughLeft: {
    en: 'You asked for {days} days of {type} in {year}, but only {remaining} remain (granted {granted}, taken {taken}, pending {pending})',
    zh: '您申请了 {year} 年的“{type}”{days} 天，但只剩 {remaining} 天（额度 {granted} 天，已休 {taken} 天，待审批 {pending} 天）',
  },
  requestedAndLeft: { en: '{days} days requested, {remaining} remain', zh: '申请 {days} 天，剩余 {remaining} 天' },

  // balances (service.ts, shapes.ts)
  employeeMissing: { en: 'Employee {id} does not exist', zh: '员工 {id} 不存在' },
  employeeRefMissing: { en: 'employee_id names employee {id}, which does not exist', zh: 'employee_id 指定的员工 {id} 不存在' },
  daysZero: { en: 'days must not be 0', zh: 'days 不能为 0' },
  notZero: { en: 'must not be 0', zh: '不能为 0' },
  balanceOfEmployee: { en: 'The {type} balance of {name}', zh: '{name}的“{type}”余额' },
  takesTooMuch: {
    en: 'Taking {days} days from {type} {year} would leave {left}: only {remaining} remain',
    zh: '从 {year} 年的“{type}”中扣减 {days} 天后将剩 {left} 天：目前只剩 {remaining} 天',
  },
  atLeast: { en: 'at least -{n}', zh: '不能小于 -{n}' },
  notHalfDays: { en: '{field} {days} is not a whole or half number of days', zh: '{field} {days} 不是整天或半天的天数' },
  multipleOfHalf: { en: 'must be a multiple of 0.5', zh: '必须是 0.5 的整数倍' },

  // a calendar change inside leave (recount.ts)
  calendarOverdraws: {
    en: "The calendar change adds {days} work day{days:s} to {request}'s {type} in {year}, which has {remaining} day{remaining:s} left: adjust that balance or cancel the request first",
    zh: '此次工作日历变更使{request}在 {year} 年的“{type}”增加 {days} 个工作日，而该余额只剩 {remaining} 天：请先调整余额或撤销该申请',
  },

  // types (types.ts)
  typeMissing: { en: 'Leave type {id} does not exist', zh: '假期类型 {id} 不存在' },
  typeNameTaken: {
    en: 'A leave type named "{name}" already exists (names are compared ignoring case)',
    zh: '已有名为“{name}”的假期类型（名称不区分大小写）',
  },
  tierTwice: { en: 'names from_years {years} twice: each tier needs years of its own', zh: '中 from_years {years} 出现了两次：每一档的年限必须不同' },
  onlyWhenAccruing: {
    en: 'applies to a type that accrues: set accrual to "yearly" or "monthly" (it is "none")',
    zh: '只适用于累积发放的假期类型：请把 accrual 设为 "yearly" 或 "monthly"（目前为 "none"）',
  },
  notMonthDay: { en: 'carry_over_expires "{value}" is not a date of the year written MM-DD', zh: 'carry_over_expires“{value}”不是 MM-DD 格式的日期' },
  monthDay: { en: 'must be a date of the year written MM-DD (03-31)', zh: '必须是 MM-DD 格式的日期（如 03-31）' },
  typeInUse: {
    en: 'Leave type {id} has leave requests or balance adjustments and cannot be deleted; disable it (status 0) instead',
    zh: '假期类型 {id} 已有请假申请或余额调整，不能删除；请改为停用（status 设为 0）',
  },

  // the envelope's message of a successful answer (index.ts, opening/index.ts)
  typeCreated: { en: 'Leave type created', zh: '假期类型已创建' },
  typeUpdated: { en: 'Leave type updated', zh: '假期类型已更新' },
  typeDeleted: { en: 'Leave type deleted', zh: '假期类型已删除' },
  balanceAdjusted: { en: 'Balance adjusted', zh: '余额已调整' },
  requestCancelled: { en: 'Leave request cancelled', zh: '请假申请已撤销' },
  requested: { en: 'Leave requested', zh: '请假申请已提交' },
  openingCount: { en: '{n} opening balance{n:s}', zh: '{n} 项期初余额' },
  openingWouldWrite: { en: 'The file is fine: {count} would be written', zh: '文件检查通过：将写入 {count}' },
  openingImported: { en: '{count} imported', zh: '已导入 {count}' },

  // the opening balances' import (opening/service.ts)
  balancesNoun: { en: 'balances', zh: '余额' },
  balanceNoun: { en: 'balance', zh: '项余额' },
  employeeNoRequired: { en: 'is required: the employee number of the balance’s employee', zh: '为必填项：该余额所属员工的工号' },
  leaveTypeRequired: { en: 'is required: the name of a leave type', zh: '为必填项：假期类型的名称' },
  notAYear: { en: '"{value}" is not a year (four digits, e.g. 2024)', zh: '“{value}”不是年份（四位数字，例如 2024）' },
  daysRequired: {
    en: 'is required: the days to add to the balance (negative: to take away)',
    zh: '为必填项：要加到余额上的天数（负数表示扣减）',
  },
  notDays: {
    en: '"{value}" is not a whole or half number of days (e.g. 5, 2.5 or -1)',
    zh: '“{value}”不是整天或半天的天数（例如 5、2.5 或 -1）',
  },
  daysFromTo: { en: 'must be from -366 to 366', zh: '必须在 -366 到 366 之间' },
  ownRow: {
    en: 'Row {row}, the {type} {year} balance of employee {no},',
    zh: '第 {row} 行，员工 {no} 在 {year} 年的“{type}”余额',
  },
  noEmployeeNumbered: { en: 'no employee has the employee number "{no}"', zh: '没有工号为“{no}”的员工' },
  noTypeNamed: {
    en: 'no leave type is named "{name}" (names are compared ignoring case); the types are {types}',
    zh: '没有名为“{name}”的假期类型（名称不区分大小写）；现有的假期类型为 {types}',
  },
  noTypesYet: { en: 'none yet', zh: '暂无' },
  balanceOfRow: {
    en: 'the {type} {year} balance of employee {no} ({name})',
    zh: '员工 {no}（{name}）在 {year} 年的“{type}”余额',
  },
  openedInRow: {
    en: '{balance} is also in row {row}: a balance has one opening balance',
    zh: '{balance}与第 {row} 行重复：每项余额只能有一个期初余额',
  },
  openedAlready: {
    en: '{balance} has an opening balance already; change it with POST /api/v1/admin/leave/balances/adjust',
    zh: '{balance}已有期初余额；如需修改，请用 POST /api/v1/admin/leave/balances/adjust',
  },
  takesTooMuchOf: {
    en: 'taking {days} days from {balance} would leave {left}: only {remaining} remain',
    zh: '从{balance}中扣减 {days} 天后将剩 {left} 天：目前只剩 {remaining} 天',
  },
})

/** The rule texts of the models (model.ts). */
export const rules = {
  year: (field: string) => ruleText({ en: `${field} must be a year (1 to 9999)`, zh: `${field} 必须是年份（1 到 9999）` }),
  yearValue: ruleText({ en: 'must be a year (1 to 9999)', zh: '必须是年份（1 到 9999）' }),
  employeeId: ruleText({ en: 'employee_id must be a positive whole number', zh: 'employee_id 必须是正整数' }),
  fromYears: ruleText({ en: 'from_years must be a whole number of years from 0 to 100', zh: 'from_years 必须是 0 到 100 之间的整数年' }),
  accrual: ruleText({ en: 'accrual must be "none", "yearly" or "monthly"', zh: 'accrual 必须是 "none"、"yearly" 或 "monthly"' }),
  halfDay: ruleText({ en: 'half_day must be "am", "pm" or null', zh: 'half_day 必须是 "am"、"pm" 或 null' }),
  unit: ruleText({ en: 'unit must be "day" or "hour"', zh: 'unit 必须是 "day" 或 "hour"' }),
  clockTime: ruleText({ en: 'must be a time of day written HH:MM (00:00 to 23:59)', zh: '必须是 HH:MM 格式的时间（00:00 到 23:59）' }),
  status: ruleText({
    en: 'status must be pending, approved, rejected or cancelled',
    zh: 'status 必须是 pending、approved、rejected 或 cancelled',
  }),
  startDate: ruleText({ en: 'start_date must be a date written YYYY-MM-DD', zh: 'start_date 必须是 YYYY-MM-DD 格式的日期' }),
  endDate: ruleText({ en: 'end_date must be a date written YYYY-MM-DD', zh: 'end_date 必须是 YYYY-MM-DD 格式的日期' }),
}
