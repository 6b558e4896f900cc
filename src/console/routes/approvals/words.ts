import { approvals as en } from '../../i18n/en/approvals'
import { approvals as zh } from '../../i18n/zh/approvals'
import { words } from '../../i18n'

export const useApprovalsWords = words({ en, zh })
