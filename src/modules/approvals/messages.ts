import { defineMessages, ruleText } from '../../lib/messages'

/** The messages of the approvals inbox and its decisions (CONTRACT §10). */
export const say = defineMessages('approvals', {
  /** `what`: the request as its kind names it ("Leave request 12") */

  // the envelope's message of a successful answer
  approved: { en: 'Request approved', zh: '申请已批准' },
  rejected: { en: 'Request rejected', zh: '申请已驳回' },

  // an inbox item's summary: "Annual leave, 2024-10-08 – 2024-10-10 (3 days)"
  leaveRange: { en: '{type}, {start} – {end} ({days} day{days:s})', zh: '{type}，{start} 至 {end}（{days} 天）' },
  leaveDay: { en: '{type}, {date} ({days} day{days:s})', zh: '{type}，{date}（{days} 天）' },
  leaveHalfDay: { en: '{type}, {date} {half} ({days} day{days:s})', zh: '{type}，{date} {half}（{days} 天）' },
  am: { en: 'am', zh: '上午' },
  pm: { en: 'pm', zh: '下午' },
  // "Correction of 2024-10-08: clock-in 09:00, clock-out 18:05"
  correction: { en: 'Correction of {date}: {time}', zh: '{date} 的补卡：{time}' },
  correctionBoth: { en: 'Correction of {date}: {clockIn}, {clockOut}', zh: '{date} 的补卡：{clockIn}，{clockOut}' },
  correctionEmpty: { en: 'Correction of {date}: ', zh: '{date} 的补卡' },
  clockIn: { en: 'clock-in {time}', zh: '上班打卡 {time}' },
  clockInOn: { en: 'clock-in {time} on {date}', zh: '上班打卡 {date} {time}' },
  clockOut: { en: 'clock-out {time}', zh: '下班打卡 {time}' },
  clockOutOn: { en: 'clock-out {time} on {date}', zh: '下班打卡 {date} {time}' },
})

/** The rule texts of the models (model.ts). */
export const rules = {
  kind: ruleText({ en: 'kind must be leave or correction', zh: 'kind 必须是 leave 或 correction' }),
}
