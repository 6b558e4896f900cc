import { defineMessages } from '../../lib/messages'

/** Corrections of clock times: an employee's request, its decision, and an administrator's edit. */
export const say = defineMessages('corrections', {
  requested: { en: 'Correction requested', zh: '考勤更正申请已提交' },
  cancelled: { en: 'Correction cancelled', zh: '考勤更正申请已取消' },
  recordCorrected: { en: 'Record corrected', zh: '考勤记录已更正' },

  correction: { en: "{employee}'s correction of {date}", zh: '{employee} {date} 的考勤更正' },
  record: { en: 'Attendance record {id}', zh: '第 {id} 号考勤记录' },
  correctionMissing: { en: 'Correction {id} does not exist', zh: '考勤更正 {id} 不存在' },
  recordMissing: { en: 'Attendance record {id} does not exist', zh: '考勤记录 {id} 不存在' },

  notInstant: { en: '"{value}" is not an ISO 8601 instant', zh: '“{value}”不是 ISO 8601 时间' },
  oneTimeRequired: {
    en: 'or clock_out_time is required: give at least one time to correct',
    zh: '与 clock_out_time 至少须填写一个；请给出要更正的时间',
  },
  dateRange: { en: 'must be from {earliest} to today ({today}, {zone})', zh: '必须在 {earliest} 到今天（{today}，{zone}）之间' },
  nothingToCorrect: {
    en: 'The record of {date} already has these times: there is nothing to correct',
    zh: '{date} 的记录已是这些时间：没有需要更正的内容',
  },
  timesAlreadyThere: { en: 'and clock_out_time are the record’s already', zh: '与 clock_out_time 已与记录一致' },
  pending: {
    en: 'A correction of {date} is already pending; cancel it or wait for the decision',
    zh: '{date} 已有一条待审批的考勤更正；请先取消，或等待审批结果',
  },
  notPendingCancel: {
    en: '{correction} is {status}; only a pending one can be cancelled',
    zh: '{correction}{status}；只有待审批的更正才能取消',
  },
  notPendingDecide: {
    en: '{correction} is {status}, not pending: it cannot be {decision}',
    zh: '{correction}{status}，不在待审批状态：不能{decision}',
  },
  noLongerFits: {
    en: '{correction} no longer fits the record of that date: {problem}. Reject it, and ask for a new one',
    zh: '{correction}已与当天的记录不符：{problem}。请驳回它，并重新申请',
  },
  changedMeanwhile: { en: '{correction} changed meanwhile; try again', zh: '{correction}刚刚被修改；请重试' },

  // a correction's status, and a decision, as the messages above name them
  pendingStatus: { en: 'pending', zh: '待审批' },
  approvedStatus: { en: 'approved', zh: '已批准' },
  rejectedStatus: { en: 'rejected', zh: '已驳回' },
  cancelledStatus: { en: 'cancelled', zh: '已取消' },
  approve: { en: 'approved', zh: '批准' },
  reject: { en: 'rejected', zh: '驳回' },

  // what a change of clock times does to a record (plan.ts)
  groupHasNoRule: {
    en: 'The attendance group "{group}" has no enabled rule to judge {date} by; ask an administrator to add one',
    zh: '考勤组“{group}”没有可用于 {date} 的已启用考勤规则；请联系管理员添加',
  },
  noGroup: {
    en: 'The employee is not in an attendance group, so {date} has no rule to judge it by; ask an administrator to add them to one',
    zh: '该员工不在任何考勤组中，因此 {date} 没有可依据的考勤规则；请联系管理员将其加入考勤组',
  },
  clockInOffDate: {
    en: 'must fall on {date} in {zone}; {instant} is on {actual} there',
    zh: '必须在 {zone} 时区的 {date} 当天；{instant} 在该时区是 {actual}',
  },
  notInFuture: { en: 'must not be in the future', zh: '不能是将来的时间' },
  clockInMissing: {
    en: 'is required: the record of {date} has no clock-in to go with the clock-out',
    zh: '为必填项：{date} 的记录没有上班打卡，无法与下班打卡配对',
  },
  afterClockIn: { en: 'must be after the clock-in ({clockIn})', zh: '必须晚于上班打卡时间（{clockIn}）' },
  within24Hours: {
    en: 'must be at most 24 hours after the clock-in ({clockIn})',
    zh: '与上班打卡时间（{clockIn}）相隔不能超过 24 小时',
  },
})
