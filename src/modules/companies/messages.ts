import { defineMessages, ruleText } from '../../lib/messages'

/** The messages of companies. */
export const say = defineMessages('companies', {
  nameTaken: { en: 'A company named "{name}" already exists', zh: '名为“{name}”的公司已存在' },
  startsOnNotReal: { en: 'attendance_starts_on "{value}" is not a real date', zh: 'attendance_starts_on“{value}”不是有效的日期' },
  missing: { en: 'Company {id} does not exist', zh: '公司 {id} 不存在' },
  stillUsed: {
    en: 'Company {id} still has employees or attendance groups; move or delete them first',
    zh: '公司 {id} 下仍有员工或考勤组；请先将其移走或删除',
  },

  // the envelope's message of a successful answer
  created: { en: 'Company created', zh: '公司已创建' },
  updated: { en: 'Company updated', zh: '公司已更新' },
  deleted: { en: 'Company deleted', zh: '公司已删除' },
})

/** The rule texts of the models (the same text as an attendance group's time zone, with the same Chinese). */
export const rules = {
  timeZone: ruleText({ en: 'must be an IANA time zone name such as Asia/Shanghai', zh: '必须是 IANA 时区名称，例如 Asia/Shanghai' }),
}
