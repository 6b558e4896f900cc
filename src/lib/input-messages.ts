import { defineMessages } from './messages'

/** The messages of the small helpers that check a request's fields (text, money, time zones). */
export const say = defineMessages('lib', {
  notBlank: { en: 'must not be blank', zh: '不能为空' },

  yuanNumber: { en: 'must be a number of yuan', zh: '必须是以元为单位的数字' },
  yuanFinite: { en: 'must be a finite number of yuan', zh: '必须是有限的元金额' },
  notNegative: { en: 'must not be negative', zh: '不能为负数' },
  atMostYuan: { en: 'must be at most {max} yuan', zh: '不能超过 {max} 元' },
  wholeFen: { en: 'must have at most 2 decimals (whole fen)', zh: '最多保留 2 位小数（精确到分）' },

  notTimeZone: {
    en: '"{value}" is not an IANA time zone; use a name such as Asia/Shanghai or UTC',
    zh: '“{value}”不是 IANA 时区；请使用 Asia/Shanghai 或 UTC 这样的名称',
  },
  notTimeZoneField: { en: 'is not an IANA time zone', zh: '不是 IANA 时区' },
})
