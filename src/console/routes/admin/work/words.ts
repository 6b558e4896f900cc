import { work as en } from '../../../i18n/en/work'
import { work as zh } from '../../../i18n/zh/work'
import { words } from '../../../i18n'

/** The words of the administrators' work pages: attendance, leave, salaries, files, audit, exports. */
export const useWorkWords = words({ en, zh })
