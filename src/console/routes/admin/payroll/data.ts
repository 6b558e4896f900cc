import { api, ApiError, unwrap } from '../../../api'

/* The payroll API as these pages ask it, and the types of its answers (from the server's route types). */

export const PAYROLL_KEY = ['admin', 'payroll'] as const

export type RunStatus = 'draft' | 'approved'
export const FLAGS = ['prorated', 'absence', 'unpaid_leave', 'lateness', 'overtime', 'adjustment', 'entered', 'negative_net'] as const
export type Flag = (typeof FLAGS)[number]

export const fetchRuns = (query: { company_id?: number; status?: RunStatus }) => unwrap(api.admin.payroll.runs.get({ query }))
export type RunRow = Awaited<ReturnType<typeof fetchRuns>>['runs'][number]

export const fetchRun = (id: number) => unwrap(api.admin.payroll.runs({ id }).get())
export type Run = Awaited<ReturnType<typeof fetchRun>>

export const fetchPayslips = (id: number, flag: Flag | null) => unwrap(api.admin.payroll.runs({ id }).payslips.get({ query: flag ? { flag } : {} }))
export type RunPayslip = Awaited<ReturnType<typeof fetchPayslips>>['payslips'][number]

export const fetchProfiles = (employeeId: number) => unwrap(api.admin.employees({ id: employeeId })['pay-profile'].get())
export type PayProfile = Awaited<ReturnType<typeof fetchProfiles>>['profiles'][number]

export const fetchSettings = (companyId: number) => unwrap(api.admin.companies({ id: companyId })['pay-settings'].get())
export type PaySettings = Awaited<ReturnType<typeof fetchSettings>>

export const fetchSchemes = () => unwrap(api.admin.payroll.schemes.get())
export type Scheme = Awaited<ReturnType<typeof fetchSchemes>>['schemes'][number]
export type SchemeItem = Scheme['items'][number]
export type SchemeCode = SchemeItem['code']
/** The insurances and the housing fund a scheme may have, in the API's order. */
export const SCHEME_CODES = ['pension', 'medical', 'unemployment', 'work_injury', 'maternity', 'housing_fund'] as const satisfies readonly SchemeCode[]

/** An employee's declaration of special additional deductions for a year; null when there is none (404). */
export const fetchDeclaration = (employeeId: number, year: number) =>
  unwrap(api.admin.employees({ id: employeeId })['tax-deductions']({ year }).get()).catch((error: unknown) => {
    if (error instanceof ApiError && error.status === 404) return null
    throw error
  })
export type Declaration = NonNullable<Awaited<ReturnType<typeof fetchDeclaration>>>

export const fetchTaxSummary = (employeeId: number, year: number) => unwrap(api.admin.payroll['tax-summary'].get({ query: { employee_id: employeeId, year } }))

/** Whole yuan with at most 2 decimals, as the API takes it: integer fen ÷ 100 is the nearest number to the written amount. */
export const yuanOfFen = (fen: number) => fen / 100
