import { payroll as en } from '../../../i18n/en/payroll'
import { payroll as zh } from '../../../i18n/zh/payroll'
import { words } from '../../../i18n'

/** The words of HR's payroll pages: runs, payslips, pay profiles, pay settings. */
export const usePayrollWords = words({ en, zh })
