import { people as en } from '../../../i18n/en/people'
import { people as zh } from '../../../i18n/zh/people'
import { words } from '../../../i18n'

/** The words of the administrators' people pages: users, roles, companies, departments, employees. */
export const usePeopleWords = words({ en, zh })
