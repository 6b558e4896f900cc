import { defineMessages, ruleText } from '../../lib/messages'

/** The messages of attendance: clocking, the position check, rules and groups, day close. */
export const say = defineMessages('attendance', {
  // the position check at the door (geofence.ts, service.ts)
  coordinatesTogether: { en: 'Send latitude and longitude together', zh: '请同时发送 latitude 和 longitude' },
  withOtherCoordinate: { en: 'is required with the other coordinate', zh: '须与另一个坐标一起填写' },
  verbClockIn: { en: 'clock in', zh: '上班打卡' },
  verbClockOut: { en: 'clock out', zh: '下班打卡' },
  positionNeeded: {
    en: 'Your attendance rule needs your position to {verb}: send latitude and longitude (allowed radius {radius} m)',
    zh: '您的考勤规则要求提供位置才能{verb}：请发送 latitude 和 longitude（允许范围为半径 {radius} 米）',
  },
  outsideArea: {
    en: 'You are {distance} m from the allowed place, outside its {radius} m radius; {verb} from within {radius} m',
    zh: '您距离指定打卡地点 {distance} 米，超出了 {radius} 米的范围；请在 {radius} 米以内{verb}',
  },
  tooManyAttempts: {
    en: '{refusal}. You have had {max} refused attempts in {minutes} minutes, so this one was not recorded; wait {wait} minute(s) before trying from outside the area (from within it you can clock at once)',
    zh: '{refusal}。您在 {minutes} 分钟内已有 {max} 次打卡被拒绝，因此本次未被记录；请等待 {wait} 分钟后再在范围外尝试（在范围内可立即打卡）',
  },

  // clocking (service.ts, caller.ts)
  alreadyClockedIn: { en: 'You have already clocked in for {date}', zh: '您已完成 {date} 的上班打卡' },
  stillClockedIn: { en: 'You are still clocked in for {date}; clock out first', zh: '您在 {date} 上班打卡后还没有下班打卡；请先下班打卡' },
  clockedInOffDay: { en: 'Clocked in on a day off', zh: '已上班打卡（今天是休息日）' },
  clockedInLate: { en: 'Clocked in {minutes} minutes late', zh: '已上班打卡，迟到 {minutes} 分钟' },
  clockedInOnTime: { en: 'Clocked in on time', zh: '已准时上班打卡' },
  alreadyClockedOut: { en: 'You have already clocked out for {date}', zh: '您已完成 {date} 的下班打卡' },
  clockedOutEarly: { en: 'Clocked out {minutes} minutes early', zh: '已下班打卡，早退 {minutes} 分钟' },
  clockedOutShort: {
    en: 'Clocked out after {hours} hours, short of the required {required}',
    zh: '已下班打卡，工作 {hours} 小时，不足规定的 {required} 小时',
  },
  clockedOutDone: { en: 'Clocked out', zh: '已下班打卡' },
  closedWithoutClockOut: {
    en: 'Your work day {date} was closed without a clock-out (status exception); ask an administrator',
    zh: '您 {date} 的考勤已在没有下班打卡的情况下完成日结算（状态：异常）；请联系管理员',
  },
  notClockedIn: { en: 'You have not clocked in for {date}; clock in first', zh: '您还没有完成 {date} 的上班打卡；请先上班打卡' },
  groupWithoutRule: { en: 'Your attendance group "{group}" has no enabled rule', zh: '您所在的考勤组“{group}”没有启用的考勤规则' },
  notInGroup: { en: 'You are not in an attendance group', zh: '您不在任何考勤组中' },
  recordMissing: { en: 'Attendance record {id} does not exist', zh: '考勤记录 {id} 不存在' },
  hasLeftClock: {
    en: 'You are marked as having left (employee status 0), so you can no longer clock in or out',
    zh: '您已被标记为离职（员工状态 0），不能再打卡',
  },
  notInGroupAsk: {
    en: 'You are not in an attendance group; ask an administrator to add you to one',
    zh: '您不在任何考勤组中；请联系管理员将您加入考勤组',
  },
  groupWithoutRuleAsk: {
    en: 'Your attendance group "{group}" has no enabled rule; ask an administrator to add one',
    zh: '您所在的考勤组“{group}”没有启用的考勤规则；请联系管理员添加',
  },
  groupDisabledAsk: {
    en: 'Your attendance group "{group}" is disabled; ask an administrator to enable it',
    zh: '您所在的考勤组“{group}”已停用；请联系管理员启用',
  },
  hasLeftRequests: {
    en: 'You are marked as having left (employee status 0), so you can no longer make requests',
    zh: '您已被标记为离职（员工状态 0），不能再提交申请',
  },
  employeeHasLeft: { en: 'the employee has left', zh: '该员工已离职' },
  beforeHireDate: {
    en: '{field} {date} is before your hire date ({hireDate}): there is nothing to request for it',
    zh: '{field} {date} 早于您的入职日期（{hireDate}）：无需为该日期提交申请',
  },
  notBeforeHireDate: { en: 'must not be before your hire date, {hireDate}', zh: '不能早于您的入职日期 {hireDate}' },

  // the envelope's message of a successful answer
  clockedIn: { en: 'Clocked in', zh: '上班打卡成功' },
  clockedOut: { en: 'Clocked out', zh: '下班打卡成功' },
  noRecordToday: { en: 'No attendance record today', zh: '今天没有考勤记录' },
  dayClosed: { en: 'Day closed', zh: '考勤日结算已完成' },
  ruleCreated: { en: 'Rule created', zh: '考勤规则已创建' },
  ruleUpdated: { en: 'Rule updated', zh: '考勤规则已更新' },
  ruleDeleted: { en: 'Rule deleted', zh: '考勤规则已删除' },
  groupCreated: { en: 'Group created', zh: '考勤组已创建' },
  groupUpdated: { en: 'Group updated', zh: '考勤组已更新' },
  groupDeleted: { en: 'Group deleted', zh: '考勤组已删除' },
  employeesAdded: { en: 'Employees added', zh: '员工已加入考勤组' },
  employeesRemoved: { en: 'Employees removed', zh: '员工已移出考勤组' },

  // dates and ranges (records.ts)
  notAfterEndDate: { en: 'must not be after end_date', zh: '不能晚于 end_date' },
  rangeTooLong: {
    en: 'must be at most {max} days after start_date (inclusive)',
    zh: '与 start_date 之间（含首尾）不能超过 {max} 天',
  },

  // day close (day-close.ts)
  groupRefMissing: {
    en: 'group_id names attendance group {id}, which does not exist',
    zh: 'group_id 指定的考勤组 {id} 不存在',
  },
  groupDisabledClose: {
    en: 'Attendance group "{group}" is disabled; enable it to close its days',
    zh: '考勤组“{group}”已停用；请先启用，再进行考勤日结算',
  },
  isDisabled: { en: 'is disabled', zh: '已停用' },
  groupNotYetCreated: {
    en: 'Attendance group "{group}" did not exist on {date}: it was created on {created}',
    zh: '考勤组“{group}”在 {date} 还不存在：它创建于 {created}',
  },
  beforeGroupCreated: { en: 'is before the group was created ({created})', zh: '早于考勤组的创建日期（{created}）' },

  // rules and groups (setup/service.ts, setup/shapes.ts)
  groupMissing: { en: 'Attendance group {id} does not exist', zh: '考勤组 {id} 不存在' },
  ruleMissing: { en: 'Attendance rule {id} does not exist', zh: '考勤规则 {id} 不存在' },
  namesMissingGroup: { en: 'names attendance group {id}, which does not exist', zh: '指定的考勤组 {id} 不存在' },
  namesMissingCompany: { en: 'names company {id}, which does not exist', zh: '指定的公司 {id} 不存在' },
  namesMissingEmployee: { en: 'names employee {id}, which does not exist', zh: '指定的员工 {id} 不存在' },
  namesMissingEmployees: { en: 'names employees that do not exist: {ids}', zh: '以下员工不存在：{ids}' },
  cannotAddToManaged: {
    en: 'You cannot add employees to group {id}: you manage it, so you would decide their requests, which needs {permission}',
    zh: '您不能向考勤组 {id} 添加员工：您是该组的负责人，加入后将由您审批他们的申请，这需要 {permission} 权限',
  },
  changeOwnGroup: { en: 'change group {id} ({name}), which you belong to', zh: '修改您所在的考勤组 {id}（{name}）' },
  deleteOwnGroup: { en: 'delete group {id} ({name}), which you belong to', zh: '删除您所在的考勤组 {id}（{name}）' },
  moveIntoGroup: { en: 'move yourself into group {id}', zh: '把自己移入考勤组 {id}' },
  moveOutOfGroup: { en: 'move yourself out of group {id}', zh: '把自己移出考勤组 {id}' },
  repeatedWeekday: { en: 'must not repeat a weekday', zh: '不能有重复的星期' },
  sameAsWorkStart: { en: 'must differ from work_start_time', zh: '不能与 work_start_time 相同' },
  withOtherBreakTime: { en: 'is required with the other break time', zh: '须与另一个休息时间一起填写' },
  sameAsBreakStart: { en: 'must differ from break_start_time', zh: '不能与 break_start_time 相同' },
  areaRequired: {
    en: 'and allowed_longitude are required when location_required is true',
    zh: 'location_required 为 true 时，它与 allowed_longitude 都必须填写',
  },
  radiusRequired: { en: 'must be above 0 when location_required is true', zh: 'location_required 为 true 时必须大于 0' },
})

/** The rule texts of the models (model.ts, setup/model.ts). */
export const rules = {
  clockTime: ruleText({ en: 'must be a time HH:MM between 00:00 and 23:59', zh: '必须是 00:00 到 23:59 之间的时间（HH:MM）' }),
  workDays: ruleText({
    en: 'must be distinct weekday digits 1 to 7 joined by commas, such as 1,2,3,4,5',
    zh: '必须是用逗号分隔、互不重复的星期数字 1 到 7，例如 1,2,3,4,5',
  }),
  minutes: ruleText({ en: 'must be a whole number of minutes from 0 to 1440', zh: '必须是 0 到 1440 之间的整数分钟数' }),
  latitude: ruleText({ en: 'must be a latitude from -90 to 90', zh: '必须是 -90 到 90 之间的纬度' }),
  longitude: ruleText({ en: 'must be a longitude from -180 to 180', zh: '必须是 -180 到 180 之间的经度' }),
  timeZone: ruleText({ en: 'must be an IANA time zone name such as Asia/Shanghai', zh: '必须是 IANA 时区名称，例如 Asia/Shanghai' }),
  hours: ruleText({ en: 'must be a number of hours from 0 to 24', zh: '必须是 0 到 24 之间的小时数' }),
  lateDays: ruleText({ en: 'must be a whole number of days from 0 to 31', zh: '必须是 0 到 31 之间的整数天数' }),
  radius: ruleText({ en: 'must be a whole number of metres from 0 to 100000', zh: '必须是 0 到 100000 之间的整数米数' }),
  order: ruleText({ en: 'order must be asc or desc', zh: 'order 必须是 asc 或 desc' }),
  status: ruleText({ en: 'status must be a whole number from 0 to 4', zh: 'status 必须是 0 到 4 之间的整数' }),
  startDate: ruleText({ en: 'start_date must be a date written YYYY-MM-DD', zh: 'start_date 必须是 YYYY-MM-DD 格式的日期' }),
  endDate: ruleText({ en: 'end_date must be a date written YYYY-MM-DD', zh: 'end_date 必须是 YYYY-MM-DD 格式的日期' }),
}

/** `sort must be one of …` for a list of sort keys. */
export const sortRule = (sorts: readonly string[]) =>
  ruleText({ en: `sort must be one of ${sorts.join(', ')}`, zh: `sort 必须是以下之一：${sorts.join(', ')}` })
