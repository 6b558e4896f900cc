import { lazy, type ComponentType } from 'react'
import type { Dictionary } from '../i18n/en'
import type { Me } from '../components/me'
import Home from './home'

export type NavKey = keyof Dictionary['common']['nav']

export interface PageEntry {
  path: string
  nav: NavKey
  section: 'me' | 'approvals' | 'admin'
  /** whether the navigation offers the page to this caller (the API still decides every call) */
  allowed: (me: Me) => boolean
  component: ComponentType
  /** false: a page reached from another one (a payroll run, a month's payslip), not listed in the navigation */
  menu?: false
}

const any = (...permissions: string[]) => (me: Me) => permissions.some((permission) => me.permissions.includes(permission))
const employee = (permission: string) => (me: Me) => me.employee !== null && me.permissions.includes(permission)

/**
 * Every page of the console: one chunk per page, loaded when first opened, so an employee's phone
 * downloads only what it shows. The landing page's today card is the exception: it is in the first
 * download, so the clock-in button needs no second round trip for its code.
 */
export const PAGES: PageEntry[] = [
  // the landing page for everyone: today's card, the first-run steps, today's board (routes/home)
  { path: '/', nav: 'today', section: 'me', allowed: () => true, component: Home },
  { path: '/me/calendar', nav: 'calendar', section: 'me', allowed: employee('attendance:view'), component: lazy(() => import('./me/calendar')) },
  { path: '/me/statistics', nav: 'statistics', section: 'me', allowed: employee('attendance:view'), component: lazy(() => import('./me/statistics')) },
  { path: '/me/leave', nav: 'leave', section: 'me', allowed: employee('leave:request'), component: lazy(() => import('./me/leave')) },
  { path: '/me/corrections', nav: 'corrections', section: 'me', allowed: employee('attendance:correct'), component: lazy(() => import('./me/corrections')) },
  { path: '/me/salaries', nav: 'salaries', section: 'me', allowed: employee('salaries:read_own'), component: lazy(() => import('./me/salaries')) },
  { path: '/me/payslips', nav: 'payslips', section: 'me', allowed: employee('salaries:read_own'), component: lazy(() => import('./me/payslips')) },
  // before the month's page, whose :month would take it
  { path: '/me/payslips/tax-summary', nav: 'payslips', section: 'me', allowed: employee('salaries:read_own'), component: lazy(() => import('./me/payslips/tax-summary')), menu: false },
  { path: '/me/payslips/:month', nav: 'payslips', section: 'me', allowed: employee('salaries:read_own'), component: lazy(() => import('./me/payslips/payslip')), menu: false },
  { path: '/me/files', nav: 'files', section: 'me', allowed: () => true, component: lazy(() => import('./me/files')) },
  { path: '/me/account', nav: 'account', section: 'me', allowed: () => true, component: lazy(() => import('./home/account')) },
  { path: '/approvals', nav: 'approvals', section: 'approvals', allowed: (me) => me.employee !== null || any('approvals:manage')(me), component: lazy(() => import('./approvals/inbox')) },
  { path: '/admin/users', nav: 'users', section: 'admin', allowed: any('users:read'), component: lazy(() => import('./admin/people/users')) },
  { path: '/admin/roles', nav: 'roles', section: 'admin', allowed: any('roles:read'), component: lazy(() => import('./admin/people/roles')) },
  { path: '/admin/companies', nav: 'companies', section: 'admin', allowed: any('companies:read'), component: lazy(() => import('./admin/people/companies')) },
  { path: '/admin/departments', nav: 'departments', section: 'admin', allowed: any('departments:read'), component: lazy(() => import('./admin/people/departments')) },
  { path: '/admin/employees', nav: 'employees', section: 'admin', allowed: any('employees:read'), component: lazy(() => import('./admin/people/employees')) },
  { path: '/admin/attendance/groups', nav: 'groups', section: 'admin', allowed: any('attendance_groups:read'), component: lazy(() => import('./admin/work/groups')) },
  { path: '/admin/attendance/rules', nav: 'rules', section: 'admin', allowed: any('attendance_rules:read'), component: lazy(() => import('./admin/work/rules')) },
  { path: '/admin/attendance/records', nav: 'records', section: 'admin', allowed: any('attendance_records:read'), component: lazy(() => import('./admin/work/records')) },
  { path: '/admin/attendance/day-close', nav: 'dayClose', section: 'admin', allowed: any('attendance_records:close'), component: lazy(() => import('./admin/work/day-close')) },
  { path: '/admin/leave', nav: 'leaveAdmin', section: 'admin', allowed: any('leave_types:read', 'leave:read'), component: lazy(() => import('./admin/work/leave')) },
  { path: '/admin/salaries', nav: 'salariesAdmin', section: 'admin', allowed: any('salaries:read'), component: lazy(() => import('./admin/work/salaries')) },
  { path: '/admin/payroll', nav: 'payroll', section: 'admin', allowed: any('payroll:read'), component: lazy(() => import('./admin/payroll')) },
  { path: '/admin/payroll/runs/:id', nav: 'payroll', section: 'admin', allowed: any('payroll:read'), component: lazy(() => import('./admin/payroll/run')), menu: false },
  { path: '/admin/files', nav: 'filesAdmin', section: 'admin', allowed: any('files:manage'), component: lazy(() => import('./admin/work/files')) },
  { path: '/admin/audit', nav: 'audit', section: 'admin', allowed: any('audit:read'), component: lazy(() => import('./admin/work/audit')) },
  { path: '/admin/exports', nav: 'exports', section: 'admin', allowed: any('attendance_records:read', 'salaries:read'), component: lazy(() => import('./admin/work/exports')) },
]
