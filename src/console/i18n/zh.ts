import type { Dictionary } from './en'
import { approvals } from './zh/approvals'
import { calendar } from './zh/calendar'
import { common } from './zh/common'
import { home } from './zh/home'
import { me } from './zh/me'
import { payroll } from './zh/payroll'
import { payslips } from './zh/payslips'
import { people } from './zh/people'
import { work } from './zh/work'

/** 中文词典：与英文词典键键相同。 */
export const zh: Dictionary = { common, me, approvals, people, calendar, work, home, payroll, payslips }

