import { calendar as en } from '../../../../i18n/en/calendar'
import { calendar as zh } from '../../../../i18n/zh/calendar'
import { words } from '../../../../i18n'

/** The words of the company calendar's ranges, pasted lists and presets. */
export const useCalendarWords = words({ en, zh })
