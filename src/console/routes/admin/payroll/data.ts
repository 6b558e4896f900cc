import { api, unwrap } from '../../../api'

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

/** Whole yuan with at most 2 decimals, as the API takes it: integer fen ÷ 100 is the nearest number to the written amount. */
export const yuanOfFen = (fen: number) => fen / 100
