import { approvals } from './en/approvals'
import { calendar } from './en/calendar'
import { common } from './en/common'
import { home } from './en/home'
import { me } from './en/me'
import { payroll } from './en/payroll'
import { payslips } from './en/payslips'
import { people } from './en/people'
import { work } from './en/work'

/**
 * The English dictionary, every section: the shape every other language has, key for key
 * (test/console-i18n.test.ts). At run time each section is loaded with its pages (`words` in index.tsx).
 */
export const en = { common, me, approvals, people, calendar, work, home, payroll, payslips }

export type Dictionary = typeof en

