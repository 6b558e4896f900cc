import { payslips as en } from '../../../i18n/en/payslips'
import { payslips as zh } from '../../../i18n/zh/payslips'
import { words } from '../../../i18n'

/** The words of a payslip: the employee's pages, and its lines wherever they are shown. */
export const usePayslipWords = words({ en, zh })
