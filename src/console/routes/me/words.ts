import { me as en } from '../../i18n/en/me'
import { me as zh } from '../../i18n/zh/me'
import { words } from '../../i18n'

/** The employee pages' words (calendar, statistics, leave, corrections, salaries, files). */
export const useMeWords = words({ en, zh })
