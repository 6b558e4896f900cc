import { defineMessages, ruleText } from '../../lib/messages'

/** The work calendar's messages (CONTRACT §8, §24): its refusals and its answers' words. */
export const say = defineMessages('calendar', {
  givenTwice: { en: '{date} is also days[{index}]', zh: '{date} 与 days[{index}] 重复' },
  statutoryOnlyHoliday: {
    en: 'can be true only for a holiday, not for a make-up workday',
    zh: '只有节假日才能设为 true，调休上班日不能设为法定节假日',
  },
  nothingImported: { en: 'Nothing was imported: {problems}', zh: '未导入任何日期：{problems}' },
  noCompany: { en: 'Company {id} does not exist', zh: '公司 {id} 不存在' },
  noDay: { en: 'Company {id} has no calendar day on {date}', zh: '公司 {id} 的日历中没有 {date} 这一天' },
  noPreset: {
    en: 'There is no calendar preset "{id}"; GET /api/v1/admin/calendar-presets lists them',
    zh: '没有日历预设“{id}”；可用的预设请见 GET /api/v1/admin/calendar-presets',
  },

  dayCreated: { en: 'Calendar day created', zh: '已添加日历日期' },
  dayReplaced: { en: 'Calendar day replaced', zh: '已替换日历日期' },
  dayDeleted: { en: 'Calendar day deleted', zh: '已删除日历日期' },
  imported: { en: 'Calendar imported', zh: '日历已导入' },
  presetApplied: { en: 'Calendar preset applied', zh: '已应用日历预设' },
})

/** The models' rule texts, in both languages. */
export const rules = {
  date: (field: string) => ruleText({ en: `${field} must be a date written YYYY-MM-DD`, zh: `${field} 必须是 YYYY-MM-DD 格式的日期` }),
  kind: ruleText({ en: 'must be "holiday" or "workday"', zh: '必须是 "holiday"（节假日）或 "workday"（调休上班日）' }),
  year: ruleText({ en: 'year must be a whole number from 1 to 9999', zh: 'year 必须是 1 到 9999 之间的整数' }),
  days: (max: number) => ruleText({ en: `days must hold 1 to ${max} days`, zh: `days 必须包含 1 到 ${max} 个日期` }),
  month: ruleText({ en: 'month must be a month written YYYY-MM', zh: 'month 必须是 YYYY-MM 格式的月份' }),
}
