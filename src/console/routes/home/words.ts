import { home as en } from '../../i18n/en/home'
import { home as zh } from '../../i18n/zh/home'
import { words } from '../../i18n'

/** The landing page's and the account page's words. */
export const useHomeWords = words({ en, zh })
