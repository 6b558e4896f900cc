import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { asc, count } from 'drizzle-orm'
import { auditLogs } from '../src/db/schema'
import { drizzle } from 'drizzle-orm/libsql'
import * as schema from '../src/db/schema'
import { createAuditService } from '../src/modules/audit/service'
import { PERMISSION_CATALOGUE } from '../src/modules/rbac/catalogue'
import { ADMIN_PASSWORD, errorBody, invalidBody, login, NOW, okBody, req, startApp, type TestApp } from './helpers'

const LATER = '2024-03-15T10:30:00.000Z'
const BOB_PASSWORD = 'bob-password-1'
const BOB_NEW_PASSWORD = 'bob-password-2'
const CID_PASSWORD = 'cid-password-1'

let t: TestApp
let admin: string
let bob: string
let cid = ''
const secrets: string[] = [ADMIN_PASSWORD, BOB_PASSWORD, BOB_NEW_PASSWORD, CID_PASSWORD]

beforeAll(async () => {
  t = await startApp()
})

afterAll(() => t.close())

const entries = () => t.deps.database.db.select().from(auditLogs).orderBy(asc(auditLogs.id))
const total = async () => (await t.deps.database.db.select({ n: count() }).from(auditLogs))[0].n

interface Step {
  method: string
  path: string
  body?: unknown
  /** a multipart body instead of JSON */
  form?: () => FormData
  as?: () => string
  status: number
  /** what the one new entry says; absent for a refused request, which must add none */
  entry?: { actorId: number; action: string; resource: string; resourceId: string | null }
  /** keeps what the reply returns (tokens, ids) */
  keep?: (data: { access_token?: string; refresh_token?: string; id?: string; results?: { id: string }[] }) => void
}

const UUID: string = expect.stringMatching(/^[0-9a-f-]{36}$/)
const upload =
  (...files: [string, string][]) =>
  () => {
    const form = new FormData()
    for (const [name, content] of files) form.append(files.length > 1 ? 'files' : 'file', new File([content], name))
    return form
  }
let fileId = ''
/** the employee and group the imports' steps make */
const history = { employee: 0, group: 0, user: 0 }
const HISTORY_CSV = 'employee_no,work_date,clock_in,clock_out,note\r\nH-1,2024-03-13,09:00,18:00,from the old system\r\n'
const OPENING_CSV = 'employee_no,leave_type,year,days\r\nH-1,annual leave,2024,3\r\n'
let batchIds: string[] = []

let refreshToken = ''

const STEPS: Step[] = [
  {
    method: 'POST',
    path: '/api/v1/auth/login',
    body: { username: 'admin', password: ADMIN_PASSWORD },
    status: 200,
    entry: { actorId: 1, action: 'auth.login', resource: 'user', resourceId: '1' },
    keep: (data) => {
      admin = data.access_token!
      refreshToken = data.refresh_token!
      secrets.push(admin, refreshToken)
    },
  },
  { method: 'POST', path: '/api/v1/auth/login', body: { username: 'admin', password: 'wrong-password' }, status: 401 },
  { method: 'POST', path: '/api/v1/auth/refresh', body: { refresh_token: 'not-a-token' }, status: 401 },
  {
    method: 'POST',
    path: '/api/v1/admin/users',
    body: { username: 'bob', password: BOB_PASSWORD, name: 'Bob' },
    status: 201,
    entry: { actorId: 1, action: 'user.create', resource: 'user', resourceId: '2' },
  },
  { method: 'POST', path: '/api/v1/admin/users', body: { username: 'BOB', password: BOB_PASSWORD, name: 'Bob' }, status: 409 },
  {
    method: 'PUT',
    path: '/api/v1/admin/users/2',
    body: { name: 'Bobby' },
    status: 200,
    entry: { actorId: 1, action: 'user.update', resource: 'user', resourceId: '2' },
  },
  { method: 'PUT', path: '/api/v1/admin/users/99', body: { name: 'Nobody' }, status: 404 },
  { method: 'PUT', path: '/api/v1/admin/users/1', body: { status: 0 }, status: 403 },
  {
    method: 'PUT',
    path: '/api/v1/admin/users/2/password',
    body: { password: BOB_PASSWORD },
    status: 200,
    entry: { actorId: 1, action: 'user.password', resource: 'user', resourceId: '2' },
  },
  {
    method: 'POST',
    path: '/api/v1/admin/companies',
    body: { name: 'Acme' },
    status: 201,
    entry: { actorId: 1, action: 'company.create', resource: 'company', resourceId: '1' },
  },
  {
    method: 'PUT',
    path: '/api/v1/admin/companies/1',
    body: { timezone: 'Asia/Shanghai' },
    status: 200,
    entry: { actorId: 1, action: 'company.update', resource: 'company', resourceId: '1' },
  },
  {
    method: 'POST',
    path: '/api/v1/admin/departments',
    body: { name: 'Eng' },
    status: 201,
    entry: { actorId: 1, action: 'department.create', resource: 'department', resourceId: '1' },
  },
  { method: 'POST', path: '/api/v1/admin/departments', body: { name: 'ENG' }, status: 409 },
  {
    method: 'PUT',
    path: '/api/v1/admin/departments/1',
    body: { name: 'Engineering' },
    status: 200,
    entry: { actorId: 1, action: 'department.update', resource: 'department', resourceId: '1' },
  },
  {
    method: 'POST',
    path: '/api/v1/admin/employees',
    body: { name: 'Ann', department_id: 1, company_id: 1 },
    status: 201,
    entry: { actorId: 1, action: 'employee.create', resource: 'employee', resourceId: '1' },
  },
  { method: 'POST', path: '/api/v1/admin/employees', body: { name: 'Ghost', department_id: 9 }, status: 400 },
  { method: 'DELETE', path: '/api/v1/admin/departments/1', status: 409 },
  { method: 'DELETE', path: '/api/v1/admin/companies/1', status: 409 },
  {
    method: 'PUT',
    path: '/api/v1/admin/employees/1',
    body: { position: 'Engineer' },
    status: 200,
    entry: { actorId: 1, action: 'employee.update', resource: 'employee', resourceId: '1' },
  },
  {
    method: 'DELETE',
    path: '/api/v1/admin/employees/1',
    status: 200,
    entry: { actorId: 1, action: 'employee.delete', resource: 'employee', resourceId: '1' },
  },
  {
    method: 'DELETE',
    path: '/api/v1/admin/departments/1',
    status: 200,
    entry: { actorId: 1, action: 'department.delete', resource: 'department', resourceId: '1' },
  },
  {
    method: 'DELETE',
    path: '/api/v1/admin/companies/1',
    status: 200,
    entry: { actorId: 1, action: 'company.delete', resource: 'company', resourceId: '1' },
  },
  {
    method: 'POST',
    path: '/api/v1/admin/roles',
    body: { name: 'hr' },
    status: 201,
    entry: { actorId: 1, action: 'role.create', resource: 'role', resourceId: '3' },
  },
  { method: 'POST', path: '/api/v1/admin/roles', body: { name: 'HR' }, status: 400 },
  {
    method: 'PUT',
    path: '/api/v1/admin/roles/3',
    body: { display_name: 'HR' },
    status: 200,
    entry: { actorId: 1, action: 'role.update', resource: 'role', resourceId: '3' },
  },
  { method: 'PUT', path: '/api/v1/admin/roles/1', body: { status: 0 }, status: 403 },
  {
    method: 'POST',
    path: '/api/v1/admin/permissions',
    body: { name: 'reports:read' },
    status: 201,
    entry: { actorId: 1, action: 'permission.create', resource: 'permission', resourceId: String(PERMISSION_CATALOGUE.length + 1) },
  },
  { method: 'POST', path: '/api/v1/admin/permissions', body: { name: 'reports:read' }, status: 409 },
  {
    method: 'POST',
    path: '/api/v1/admin/roles/permissions/add',
    body: { role_name: 'hr', permission_name: 'reports:read' },
    status: 200,
    entry: { actorId: 1, action: 'role.permission.add', resource: 'role', resourceId: '3' },
  },
  {
    method: 'POST',
    path: '/api/v1/admin/roles/permissions/remove',
    body: { role_name: 'hr', permission_name: 'reports:read' },
    status: 200,
    entry: { actorId: 1, action: 'role.permission.remove', resource: 'role', resourceId: '3' },
  },
  {
    method: 'POST',
    path: '/api/v1/admin/roles/permissions/remove',
    body: { role_name: 'admin', permission_name: 'reports:read' },
    status: 403,
  },
  {
    method: 'POST',
    path: '/api/v1/admin/roles/assign',
    body: { user_id: 2, role_name: 'hr' },
    status: 200,
    entry: { actorId: 1, action: 'role.assign', resource: 'user', resourceId: '2' },
  },
  { method: 'POST', path: '/api/v1/admin/roles/assign', body: { user_id: 99, role_name: 'hr' }, status: 404 },
  {
    method: 'POST',
    path: '/api/v1/admin/roles/revoke',
    body: { user_id: 2, role_name: 'hr' },
    status: 200,
    entry: { actorId: 1, action: 'role.revoke', resource: 'user', resourceId: '2' },
  },
  { method: 'POST', path: '/api/v1/admin/roles/revoke', body: { user_id: 1, role_name: 'admin' }, status: 403 },
  { method: 'DELETE', path: '/api/v1/admin/roles/1', status: 403 },
  {
    method: 'POST',
    path: '/api/v1/auth/login',
    body: { username: 'bob', password: BOB_PASSWORD },
    status: 200,
    entry: { actorId: 2, action: 'auth.login', resource: 'user', resourceId: '2' },
    keep: (data) => {
      bob = data.access_token!
      secrets.push(bob)
    },
  },
  {
    method: 'PUT',
    path: '/api/v1/auth/password',
    as: () => bob,
    body: { old_password: 'wrong-password', new_password: BOB_NEW_PASSWORD },
    status: 400,
  },
  {
    method: 'PUT',
    path: '/api/v1/auth/password',
    as: () => bob,
    body: { old_password: BOB_PASSWORD, new_password: BOB_NEW_PASSWORD },
    status: 200,
    entry: { actorId: 2, action: 'auth.password', resource: 'user', resourceId: '2' },
    keep: (data) => {
      bob = data.access_token!
      secrets.push(bob, data.refresh_token!)
    },
  },
  {
    method: 'PUT',
    path: '/api/v1/auth/me',
    as: () => bob,
    body: { name: 'Bob Himself' },
    status: 200,
    entry: { actorId: 2, action: 'user.update', resource: 'user', resourceId: '2' },
  },
  { method: 'PUT', path: '/api/v1/auth/me', as: () => bob, body: { email: 'not an address' }, status: 400 },
  {
    method: 'POST',
    path: '/api/v1/auth/logout',
    as: () => bob,
    status: 200,
    entry: { actorId: 2, action: 'auth.logout', resource: 'user', resourceId: '2' },
  },
  {
    method: 'DELETE',
    path: '/api/v1/admin/roles/3',
    status: 200,
    entry: { actorId: 1, action: 'role.delete', resource: 'role', resourceId: '3' },
  },
  {
    method: 'POST',
    path: '/api/v1/admin/companies',
    body: { name: 'Globex' },
    status: 201,
    entry: { actorId: 1, action: 'company.create', resource: 'company', resourceId: '2' },
  },
  {
    method: 'POST',
    path: '/api/v1/admin/employees',
    body: { name: 'Cid' },
    status: 201,
    entry: { actorId: 1, action: 'employee.create', resource: 'employee', resourceId: '2' },
  },
  {
    method: 'POST',
    path: '/api/v1/admin/attendance/groups',
    body: { name: 'Office', company_id: 2 },
    status: 201,
    entry: { actorId: 1, action: 'attendance_group.create', resource: 'attendance_group', resourceId: '1' },
  },
  { method: 'POST', path: '/api/v1/admin/attendance/groups', body: { name: 'Office', company_id: 99 }, status: 400 },
  {
    method: 'PUT',
    path: '/api/v1/admin/attendance/groups/1',
    body: { timezone: 'Asia/Shanghai' },
    status: 200,
    entry: { actorId: 1, action: 'attendance_group.update', resource: 'attendance_group', resourceId: '1' },
  },
  {
    method: 'POST',
    path: '/api/v1/admin/attendance/groups/1/employees',
    body: { employee_ids: [2] },
    status: 200,
    entry: { actorId: 1, action: 'attendance_group.employees.add', resource: 'attendance_group', resourceId: '1' },
  },
  { method: 'POST', path: '/api/v1/admin/attendance/groups/1/employees', body: { employee_ids: [2, 98, 99] }, status: 400 },
  {
    method: 'DELETE',
    path: '/api/v1/admin/attendance/groups/1/employees',
    body: { employee_ids: [2] },
    status: 200,
    entry: { actorId: 1, action: 'attendance_group.employees.remove', resource: 'attendance_group', resourceId: '1' },
  },
  {
    method: 'POST',
    path: '/api/v1/admin/attendance/rules',
    body: { name: 'Day', group_id: 1, work_start_time: '09:00', work_end_time: '18:00', required_work_hours: 8, work_days: '1,2,3,4,5' },
    status: 201,
    entry: { actorId: 1, action: 'attendance_rule.create', resource: 'attendance_rule', resourceId: '1' },
  },
  {
    method: 'POST',
    path: '/api/v1/admin/attendance/rules',
    body: { name: 'Bad', group_id: 1, work_start_time: '09:00', work_end_time: '18:00', required_work_hours: 8, work_days: '1,1' },
    status: 400,
  },
  {
    method: 'PUT',
    path: '/api/v1/admin/attendance/rules/1',
    body: { late_grace_period: 5 },
    status: 200,
    entry: { actorId: 1, action: 'attendance_rule.update', resource: 'attendance_rule', resourceId: '1' },
  },
  {
    method: 'POST',
    path: '/api/v1/admin/attendance/groups/1/employees',
    body: { employee_ids: [2] },
    status: 200,
    entry: { actorId: 1, action: 'attendance_group.employees.add', resource: 'attendance_group', resourceId: '1' },
  },
  {
    method: 'POST',
    path: '/api/v1/admin/attendance/close-day',
    body: { date: '2024-03-14' },
    status: 200,
    entry: { actorId: 1, action: 'attendance.close_day', resource: 'attendance_day', resourceId: '2024-03-14' },
  },
  { method: 'POST', path: '/api/v1/admin/attendance/close-day', body: { date: '2024-03-14', group_id: 9 }, status: 400 },
  // the work calendar (CONTRACT §8): a holiday on the closed day takes its absences with it, in the same one entry
  {
    method: 'PUT',
    path: '/api/v1/admin/companies/2/calendar/2024-03-14',
    body: { kind: 'holiday', name: 'Founders Day' },
    status: 201,
    entry: { actorId: 1, action: 'calendar_day.create', resource: 'calendar_day', resourceId: '2/2024-03-14' },
  },
  {
    method: 'PUT',
    path: '/api/v1/admin/companies/2/calendar/2024-03-14',
    body: { kind: 'holiday', name: 'Founders’ Day' },
    status: 200,
    entry: { actorId: 1, action: 'calendar_day.update', resource: 'calendar_day', resourceId: '2/2024-03-14' },
  },
  { method: 'PUT', path: '/api/v1/admin/companies/2/calendar/2024-02-30', body: { kind: 'holiday', name: 'No such day' }, status: 400 },
  { method: 'PUT', path: '/api/v1/admin/companies/99/calendar/2024-03-14', body: { kind: 'holiday', name: 'Nowhere' }, status: 404 },
  {
    method: 'POST',
    path: '/api/v1/admin/companies/2/calendar/import',
    body: { days: [{ date: '2024-03-16', kind: 'workday', name: 'Make-up day' }] },
    status: 200,
    entry: { actorId: 1, action: 'calendar.import', resource: 'company_calendar', resourceId: '2' },
  },
  {
    method: 'POST',
    path: '/api/v1/admin/companies/2/calendar/import',
    body: { days: [{ date: '2024-03-17', kind: 'workday', name: 'A' }, { date: '2024-03-17', kind: 'holiday', name: 'B' }] },
    status: 400,
  },
  {
    method: 'DELETE',
    path: '/api/v1/admin/companies/2/calendar/2024-03-16',
    status: 200,
    entry: { actorId: 1, action: 'calendar_day.delete', resource: 'calendar_day', resourceId: '2/2024-03-16' },
  },
  { method: 'DELETE', path: '/api/v1/admin/companies/2/calendar/2024-03-16', status: 404 },
  // a preset (CONTRACT §24): its whole year in one change, one entry
  {
    method: 'POST',
    path: '/api/v1/admin/companies/2/calendar/apply-preset',
    body: { preset_id: 'cn-2025' },
    status: 200,
    entry: { actorId: 1, action: 'calendar.apply_preset', resource: 'company_calendar', resourceId: '2' },
  },
  { method: 'POST', path: '/api/v1/admin/companies/2/calendar/apply-preset', body: { preset_id: 'xx-2025' }, status: 404 },
  { method: 'POST', path: '/api/v1/admin/companies/99/calendar/apply-preset', body: { preset_id: 'cn-2025' }, status: 404 },
  // leave (CONTRACT §9): Cid (in group 1, under rule 1) gets an account, a balance and requests
  {
    method: 'POST',
    path: '/api/v1/admin/users',
    body: { username: 'cid', password: CID_PASSWORD, name: 'Cid', roles: ['employee'] },
    status: 201,
    entry: { actorId: 1, action: 'user.create', resource: 'user', resourceId: '3' },
  },
  {
    method: 'PUT',
    path: '/api/v1/admin/employees/2',
    body: { user_id: 3 },
    status: 200,
    entry: { actorId: 1, action: 'employee.update', resource: 'employee', resourceId: '2' },
  },
  {
    method: 'POST',
    path: '/api/v1/auth/login',
    body: { username: 'cid', password: CID_PASSWORD },
    status: 200,
    entry: { actorId: 3, action: 'auth.login', resource: 'user', resourceId: '3' },
    keep: (data) => {
      cid = data.access_token!
      secrets.push(cid, data.refresh_token!)
    },
  },
  {
    method: 'POST',
    path: '/api/v1/admin/leave/types',
    body: { name: 'Annual leave', annual_days: 5 },
    status: 201,
    entry: { actorId: 1, action: 'leave_type.create', resource: 'leave_type', resourceId: '1' },
  },
  { method: 'POST', path: '/api/v1/admin/leave/types', body: { name: 'ANNUAL LEAVE' }, status: 409 },
  {
    method: 'PUT',
    path: '/api/v1/admin/leave/types/1',
    body: { annual_days: 6.5 },
    status: 200,
    entry: { actorId: 1, action: 'leave_type.update', resource: 'leave_type', resourceId: '1' },
  },
  {
    method: 'POST',
    path: '/api/v1/admin/leave/balances/adjust',
    body: { employee_id: 2, type_id: 1, year: 2024, days: 1, reason: 'Carried over' },
    status: 200,
    entry: { actorId: 1, action: 'leave_balance.adjust', resource: 'leave_balance', resourceId: '2/1/2024' },
  },
  { method: 'POST', path: '/api/v1/admin/leave/balances/adjust', body: { employee_id: 2, type_id: 1, year: 2024, days: 0, reason: 'None' }, status: 400 },
  {
    method: 'POST',
    path: '/api/v1/leave/requests',
    as: () => cid,
    body: { type_id: 1, start_date: '2024-03-18', end_date: '2024-03-19' },
    status: 201,
    entry: { actorId: 3, action: 'leave_request.create', resource: 'leave_request', resourceId: '1' },
  },
  { method: 'POST', path: '/api/v1/leave/requests', as: () => cid, body: { type_id: 1, start_date: '2024-03-19', end_date: '2024-03-19' }, status: 409 },
  { method: 'POST', path: '/api/v1/leave/requests', as: () => cid, body: { type_id: 1, start_date: '2024-04-01', end_date: '2024-04-30' }, status: 400 },
  {
    method: 'POST',
    path: '/api/v1/leave/requests/1/cancel',
    as: () => cid,
    status: 200,
    entry: { actorId: 3, action: 'leave_request.cancel', resource: 'leave_request', resourceId: '1' },
  },
  { method: 'POST', path: '/api/v1/leave/requests/1/cancel', as: () => cid, status: 409 },
  {
    method: 'POST',
    path: '/api/v1/leave/requests',
    as: () => cid,
    body: { type_id: 1, start_date: '2024-03-18', end_date: '2024-03-18' },
    status: 201,
    entry: { actorId: 3, action: 'leave_request.create', resource: 'leave_request', resourceId: '2' },
  },
  {
    method: 'POST',
    path: '/api/v1/admin/leave/requests/2/cancel',
    status: 200,
    entry: { actorId: 1, action: 'leave_request.cancel', resource: 'leave_request', resourceId: '2' },
  },
  // approvals (CONTRACT §10): the administrator holds approvals:manage; Cid decides nothing, least of all their own
  {
    method: 'POST',
    path: '/api/v1/leave/requests',
    as: () => cid,
    body: { type_id: 1, start_date: '2024-03-20', end_date: '2024-03-20' },
    status: 201,
    entry: { actorId: 3, action: 'leave_request.create', resource: 'leave_request', resourceId: '3' },
  },
  {
    method: 'POST',
    path: '/api/v1/leave/requests',
    as: () => cid,
    body: { type_id: 1, start_date: '2024-03-21', end_date: '2024-03-21' },
    status: 201,
    entry: { actorId: 3, action: 'leave_request.create', resource: 'leave_request', resourceId: '4' },
  },
  { method: 'POST', path: '/api/v1/approvals/leave/3/approve', as: () => cid, body: {}, status: 403 },
  {
    method: 'POST',
    path: '/api/v1/approvals/leave/3/approve',
    body: { note: 'Enjoy' },
    status: 200,
    entry: { actorId: 1, action: 'leave_request.approve', resource: 'leave_request', resourceId: '3' },
  },
  { method: 'POST', path: '/api/v1/approvals/leave/3/reject', body: { note: 'Too late' }, status: 409 },
  { method: 'POST', path: '/api/v1/approvals/leave/4/reject', body: { note: '   ' }, status: 400 },
  {
    method: 'POST',
    path: '/api/v1/approvals/leave/4/reject',
    body: { note: 'Busy week' },
    status: 200,
    entry: { actorId: 1, action: 'leave_request.reject', resource: 'leave_request', resourceId: '4' },
  },
  // corrections (CONTRACT §11): Cid asks, the administrator approves; the administrator's own edit is audited as a record's correction
  {
    method: 'POST',
    path: '/api/v1/attendance/corrections',
    as: () => cid,
    body: { work_date: '2024-03-13', clock_in_time: '2024-03-13T01:00:00Z', clock_out_time: '2024-03-13T10:00:00Z', reason: 'The badge reader was down' },
    status: 201,
    entry: { actorId: 3, action: 'attendance_correction.create', resource: 'attendance_correction', resourceId: '1' },
  },
  {
    method: 'POST',
    path: '/api/v1/attendance/corrections',
    as: () => cid,
    body: { work_date: '2024-03-13', clock_in_time: '2024-03-13T01:05:00Z', reason: 'Again' },
    status: 409,
  },
  {
    method: 'POST',
    path: '/api/v1/approvals/correction/1/approve',
    body: {},
    status: 200,
    entry: { actorId: 1, action: 'attendance_correction.approve', resource: 'attendance_correction', resourceId: '1' },
  },
  {
    method: 'POST',
    path: '/api/v1/attendance/corrections',
    as: () => cid,
    body: { work_date: '2024-03-12', clock_in_time: '2024-03-12T01:00:00Z', reason: 'Forgot to clock in' },
    status: 201,
    entry: { actorId: 3, action: 'attendance_correction.create', resource: 'attendance_correction', resourceId: '2' },
  },
  {
    method: 'POST',
    path: '/api/v1/attendance/corrections/2/cancel',
    as: () => cid,
    status: 200,
    entry: { actorId: 3, action: 'attendance_correction.cancel', resource: 'attendance_correction', resourceId: '2' },
  },
  { method: 'POST', path: '/api/v1/attendance/corrections/2/cancel', as: () => cid, status: 409 },
  {
    method: 'PUT',
    path: '/api/v1/admin/attendance/records/1',
    body: { clock_out_time: '2024-03-13T11:00:00Z', reason: 'Stayed for the release' },
    status: 200,
    entry: { actorId: 1, action: 'attendance_record.correct', resource: 'attendance_record', resourceId: '1' },
  },
  { method: 'PUT', path: '/api/v1/admin/attendance/records/1', body: { clock_out_time: '2024-03-13T11:30:00Z', reason: ' ' }, status: 400 },
  { method: 'PUT', path: '/api/v1/admin/employees/2', body: { manager_id: 2 }, status: 400 },
  {
    method: 'POST',
    path: '/api/v1/admin/leave/types',
    body: { name: 'Spare leave' },
    status: 201,
    entry: { actorId: 1, action: 'leave_type.create', resource: 'leave_type', resourceId: '2' },
  },
  {
    method: 'DELETE',
    path: '/api/v1/admin/leave/types/2',
    status: 200,
    entry: { actorId: 1, action: 'leave_type.delete', resource: 'leave_type', resourceId: '2' },
  },
  { method: 'DELETE', path: '/api/v1/admin/leave/types/1', status: 409 },
  {
    method: 'DELETE',
    path: '/api/v1/admin/attendance/rules/1',
    status: 200,
    entry: { actorId: 1, action: 'attendance_rule.delete', resource: 'attendance_rule', resourceId: '1' },
  },
  {
    method: 'DELETE',
    path: '/api/v1/admin/attendance/groups/1',
    status: 200,
    entry: { actorId: 1, action: 'attendance_group.delete', resource: 'attendance_group', resourceId: '1' },
  },
  {
    method: 'DELETE',
    path: '/api/v1/admin/users/2',
    status: 200,
    entry: { actorId: 1, action: 'user.delete', resource: 'user', resourceId: '2' },
  },
  { method: 'DELETE', path: '/api/v1/admin/users/1', status: 403 },
  {
    method: 'POST',
    path: '/api/v1/admin/employees',
    body: { name: 'Payee' },
    status: 201,
    entry: { actorId: 1, action: 'employee.create', resource: 'employee', resourceId: '3' },
  },
  {
    method: 'POST',
    path: '/api/v1/admin/salaries',
    body: { employee_id: 3, month: '2024-03', basic_salary: 5000, personal_tax: 100 },
    status: 201,
    entry: { actorId: 1, action: 'salary.create', resource: 'salary', resourceId: '1' },
  },
  { method: 'POST', path: '/api/v1/admin/salaries', body: { employee_id: 3, month: '2024-03', basic_salary: 1 }, status: 409 },
  {
    method: 'POST',
    path: '/api/v1/admin/salaries',
    body: { employee_id: 3, month: '2024-04', basic_salary: 1, net_salary: 2 },
    status: 400,
  },
  {
    method: 'PUT',
    path: '/api/v1/admin/salaries/1',
    body: { bonus: 20.5 },
    status: 200,
    entry: { actorId: 1, action: 'salary.update', resource: 'salary', resourceId: '1' },
  },
  {
    method: 'PATCH',
    path: '/api/v1/admin/salaries/batch-status',
    body: { ids: [1], status: '1' },
    status: 200,
    entry: { actorId: 1, action: 'salary.batch_status', resource: 'salary', resourceId: null },
  },
  { method: 'PATCH', path: '/api/v1/admin/salaries/batch-status', body: { ids: [1, 2], status: '0' }, status: 400 },
  { method: 'PUT', path: '/api/v1/admin/salaries/1', body: { bonus: 30 }, status: 409 },
  { method: 'DELETE', path: '/api/v1/admin/employees/3', status: 409 },
  {
    method: 'DELETE',
    path: '/api/v1/admin/salaries/1',
    status: 200,
    entry: { actorId: 1, action: 'salary.delete', resource: 'salary', resourceId: '1' },
  },
  // payroll (CONTRACT §16): Payee joins company 2 and is paid February by a run
  {
    method: 'PUT',
    path: '/api/v1/admin/employees/3',
    body: { company_id: 2 },
    status: 200,
    entry: { actorId: 1, action: 'employee.update', resource: 'employee', resourceId: '3' },
  },
  {
    method: 'PUT',
    path: '/api/v1/admin/employees/3/pay-profile',
    body: { effective_month: '2024-01', basic_salary: 5000 },
    status: 200,
    entry: { actorId: 1, action: 'pay_profile.create', resource: 'pay_profile', resourceId: '1' },
  },
  { method: 'PUT', path: '/api/v1/admin/employees/3/pay-profile', body: { effective_month: '2024-01', basic_salary: 1.234 }, status: 400 },
  // contribution schemes and special additional deductions (CONTRACT §17): made, changed, refused and deleted
  {
    method: 'POST',
    path: '/api/v1/admin/payroll/schemes',
    body: { name: 'Audit city', effective_from: '2024-01', items: [{ code: 'pension', employee_rate: 0.08, employer_rate: 0.16, base_min: 3000, base_max: 30000 }] },
    status: 201,
    entry: { actorId: 1, action: 'contribution_scheme.create', resource: 'contribution_scheme', resourceId: '1' },
  },
  {
    method: 'PUT',
    path: '/api/v1/admin/payroll/schemes/1',
    body: { name: 'Audit city', effective_from: '2024-01', items: [{ code: 'pension', employee_rate: 0.08, employer_rate: 0.14, base_min: 3000, base_max: 30000 }] },
    status: 200,
    entry: { actorId: 1, action: 'contribution_scheme.update', resource: 'contribution_scheme', resourceId: '1' },
  },
  { method: 'PUT', path: '/api/v1/admin/payroll/schemes/1', body: { name: 'Audit city', effective_from: '2024-01', items: [{ code: 'pension', employee_rate: 0.08001, employer_rate: 0.14, base_min: 3000, base_max: 30000 }] }, status: 400 },
  {
    method: 'DELETE',
    path: '/api/v1/admin/payroll/schemes/1',
    status: 200,
    entry: { actorId: 1, action: 'contribution_scheme.delete', resource: 'contribution_scheme', resourceId: '1' },
  },
  {
    method: 'PUT',
    path: '/api/v1/admin/employees/3/tax-deductions/2024',
    body: { housing_rent: 1500 },
    status: 200,
    entry: { actorId: 1, action: 'tax_deduction.create', resource: 'tax_deduction', resourceId: '1' },
  },
  {
    method: 'PUT',
    path: '/api/v1/admin/employees/3/tax-deductions/2024',
    body: { housing_rent: 1000 },
    status: 200,
    entry: { actorId: 1, action: 'tax_deduction.update', resource: 'tax_deduction', resourceId: '1' },
  },
  { method: 'PUT', path: '/api/v1/admin/employees/3/tax-deductions/2024', body: { housing_rent: 1500.01 }, status: 400 },
  {
    method: 'DELETE',
    path: '/api/v1/admin/employees/3/tax-deductions/2024',
    status: 200,
    entry: { actorId: 1, action: 'tax_deduction.delete', resource: 'tax_deduction', resourceId: '1' },
  },
  {
    method: 'PUT',
    path: '/api/v1/admin/companies/2/pay-settings',
    body: { days_per_month: 21.75 },
    status: 200,
    entry: { actorId: 1, action: 'pay_settings.update', resource: 'company', resourceId: '2' },
  },
  {
    method: 'POST',
    path: '/api/v1/admin/payroll/runs',
    body: { company_id: 2, month: '2024-02' },
    status: 201,
    entry: { actorId: 1, action: 'payroll_run.create', resource: 'payroll_run', resourceId: '1' },
  },
  { method: 'POST', path: '/api/v1/admin/payroll/runs', body: { company_id: 2, month: '2024-02' }, status: 409 },
  {
    method: 'POST',
    path: '/api/v1/admin/payroll/runs/1/recompute',
    status: 200,
    entry: { actorId: 1, action: 'payroll_run.recompute', resource: 'payroll_run', resourceId: '1' },
  },
  {
    method: 'PUT',
    path: '/api/v1/admin/payroll/runs/1/payslips/1/inputs',
    body: { bonus: 100 },
    status: 200,
    entry: { actorId: 1, action: 'payslip.inputs', resource: 'payslip', resourceId: '1' },
  },
  {
    method: 'POST',
    path: '/api/v1/admin/payroll/runs/1/approve',
    status: 200,
    entry: { actorId: 1, action: 'payroll_run.approve', resource: 'payroll_run', resourceId: '1' },
  },
  { method: 'DELETE', path: '/api/v1/admin/payroll/runs/1', status: 409 },
  {
    method: 'POST',
    path: '/api/v1/admin/payroll/runs',
    body: { company_id: 2, month: '2024-01' },
    status: 201,
    entry: { actorId: 1, action: 'payroll_run.create', resource: 'payroll_run', resourceId: '2' },
  },
  {
    method: 'DELETE',
    path: '/api/v1/admin/payroll/runs/2',
    status: 200,
    entry: { actorId: 1, action: 'payroll_run.delete', resource: 'payroll_run', resourceId: '2' },
  },
  {
    method: 'POST',
    path: '/api/v1/storage/upload',
    form: upload(['notes.txt', 'plain words']),
    status: 201,
    entry: { actorId: 1, action: 'file.upload', resource: 'file', resourceId: UUID },
    keep: (data) => {
      fileId = data.id!
    },
  },
  { method: 'POST', path: '/api/v1/storage/upload', form: upload(['fake.pdf', 'not a pdf at all']), status: 415 },
  {
    method: 'POST',
    path: '/api/v1/storage/batch-upload',
    form: upload(['a.txt', 'one'], ['b.txt', 'two']),
    status: 200,
    entry: { actorId: 1, action: 'file.batch_upload', resource: 'file', resourceId: null },
    keep: (data) => {
      batchIds = data.results!.map((item) => item.id)
    },
  },
  {
    method: 'POST',
    path: '/api/v1/storage/presigned-url',
    body: {
      get file_id() {
        return fileId
      },
    },
    status: 200,
  },
  {
    method: 'DELETE',
    path: '/api/v1/storage/delete',
    body: {
      get file_id() {
        return fileId
      },
    },
    status: 200,
    entry: { actorId: 1, action: 'file.delete', resource: 'file', resourceId: UUID },
  },
  {
    method: 'DELETE',
    path: '/api/v1/storage/delete',
    body: {
      get file_id() {
        return fileId
      },
    },
    status: 404,
  },
  {
    method: 'DELETE',
    path: '/api/v1/storage/batch-delete',
    body: {
      get file_ids() {
        return batchIds
      },
    },
    status: 200,
    entry: { actorId: 1, action: 'file.batch_delete', resource: 'file', resourceId: null },
  },
  // an import audits each employee as creating it would; a dry run and a refused file write nothing
  {
    method: 'POST',
    path: '/api/v1/admin/employees/import?dry_run=true',
    form: upload(['employees.csv', 'name,employee_no\r\nImported,IMP-1\r\n']),
    status: 200,
  },
  { method: 'POST', path: '/api/v1/admin/employees/import?dry_run=false', form: upload(['employees.csv', 'name,email\r\nBad,nope\r\n']), status: 400 },
  {
    method: 'POST',
    path: '/api/v1/admin/employees/import?dry_run=false',
    form: upload(['employees.csv', 'name,employee_no\r\nImported,IMP-1\r\n']),
    status: 200,
    entry: { actorId: 1, action: 'employee.create', resource: 'employee', resourceId: expect.stringMatching(/^\d+$/) },
  },
  // the first week's imports (CONTRACT §23) audit each record and each balance; a dry run and a refused file write nothing
  {
    method: 'POST',
    path: '/api/v1/admin/employees',
    body: { name: 'Historian', employee_no: 'H-1', hire_date: '2024-01-01' },
    status: 201,
    entry: { actorId: 1, action: 'employee.create', resource: 'employee', resourceId: expect.stringMatching(/^\d+$/) },
    keep: (data) => void (history.employee = Number(data.id)),
  },
  {
    method: 'POST',
    path: '/api/v1/admin/attendance/groups',
    body: { name: 'History', company_id: 2 },
    status: 201,
    entry: { actorId: 1, action: 'attendance_group.create', resource: 'attendance_group', resourceId: expect.stringMatching(/^\d+$/) },
    keep: (data) => void (history.group = Number(data.id)),
  },
  {
    method: 'POST',
    path: '/api/v1/admin/attendance/rules',
    body: {
      get group_id() {
        return history.group
      },
      name: 'History day',
      work_start_time: '09:00',
      work_end_time: '18:00',
      required_work_hours: 8,
      work_days: '1,2,3,4,5',
    },
    status: 201,
    entry: { actorId: 1, action: 'attendance_rule.create', resource: 'attendance_rule', resourceId: expect.stringMatching(/^\d+$/) },
  },
  {
    method: 'POST',
    get path() {
      return `/api/v1/admin/attendance/groups/${history.group}/employees`
    },
    body: {
      get employee_ids() {
        return [history.employee]
      },
    },
    status: 200,
    entry: { actorId: 1, action: 'attendance_group.employees.add', resource: 'attendance_group', resourceId: expect.stringMatching(/^\d+$/) },
  },
  { method: 'POST', path: '/api/v1/admin/attendance/records/import?dry_run=true', form: upload(['h.csv', HISTORY_CSV]), status: 200 },
  {
    method: 'POST',
    path: '/api/v1/admin/attendance/records/import?dry_run=false',
    form: upload(['h.csv', 'employee_no,work_date,clock_in\r\nH-1,2099-01-01,09:00\r\n']),
    status: 400,
  },
  {
    method: 'POST',
    path: '/api/v1/admin/attendance/records/import?dry_run=false',
    form: upload(['h.csv', HISTORY_CSV]),
    status: 200,
    entry: { actorId: 1, action: 'attendance_record.import', resource: 'attendance_record', resourceId: expect.stringMatching(/^\d+$/) },
  },
  { method: 'POST', path: '/api/v1/admin/leave/balances/import?dry_run=true', form: upload(['b.csv', OPENING_CSV]), status: 200 },
  {
    method: 'POST',
    path: '/api/v1/admin/leave/balances/import?dry_run=false',
    form: upload(['b.csv', 'employee_no,leave_type,year,days\r\nH-1,No such leave,2024,3\r\n']),
    status: 400,
  },
  {
    method: 'POST',
    path: '/api/v1/admin/leave/balances/import?dry_run=false',
    form: upload(['b.csv', OPENING_CSV]),
    status: 200,
    entry: { actorId: 1, action: 'leave_balance.import', resource: 'leave_balance', resourceId: expect.stringMatching(/^\d+\/1\/2024$/) },
  },
  // a login for an employee that has none (CONTRACT §23): linking an account that holds role employee already is one entry
  {
    method: 'POST',
    path: '/api/v1/admin/users',
    body: { username: 'historian', password: 'historian-password-1', name: 'Historian', roles: ['employee'] },
    status: 201,
    entry: { actorId: 1, action: 'user.create', resource: 'user', resourceId: expect.stringMatching(/^\d+$/) },
    keep: (data) => void (history.user = Number(data.id)),
  },
  {
    method: 'POST',
    get path() {
      return `/api/v1/admin/employees/${history.employee}/account`
    },
    body: {
      get user_id() {
        return history.user
      },
    },
    status: 200,
    entry: { actorId: 1, action: 'employee.account', resource: 'employee', resourceId: expect.stringMatching(/^\d+$/) },
  },
]

// after the admin's first sign-in, so the token exists
STEPS.splice(1, 0, {
  method: 'POST',
  path: '/api/v1/auth/refresh',
  body: {
    get refresh_token() {
      return refreshToken
    },
  },
  status: 200,
  entry: { actorId: 1, action: 'auth.refresh', resource: 'user', resourceId: '1' },
  keep: (data) => {
    admin = data.access_token!
    secrets.push(admin, data.refresh_token!)
  },
})

describe('every change leaves exactly one audit entry; a refused one leaves none', () => {
  test('the steps cover every route that changes something', () => {
    // clock-in and clock-out are an employee's own record, and signing a link changes nothing
    const unaudited = ['/api/v1/attendance/clock-in', '/api/v1/attendance/clock-out', '/api/v1/storage/presigned-url']
    const changing = t.app.routes
      .filter((route) => !['GET', 'HEAD'].includes(route.method) && route.path.startsWith('/api/') && !unaudited.includes(route.path))
      .map((route) => `${route.method} ${route.path.replace(/:kind/g, 'leave').replace(/:(\w+)/g, '1')}`)
    // ids and dates (the work calendar's) stand for any; approvals' kind leave stands for every kind
    const covered = new Set(
      STEPS.filter((step) => step.entry).map((step) => `${step.method} ${step.path.split('?')[0].replace(/\/\d{4}-\d{2}-\d{2}|\/\d+/g, '/1')}`),
    )
    expect(changing.filter((route) => !covered.has(route))).toEqual([])
  })

  test.each(STEPS.map((step, i) => [i, step] as const))('%i: %o', async (_, step) => {
    const before = await total()
    const token = step.as?.() ?? admin
    const body = step.body === undefined ? undefined : JSON.parse(JSON.stringify(step.body))
    const reply = step.form
      ? await t.app
          .handle(
            new Request(`http://localhost${step.path}`, {
              method: step.method,
              body: step.form(),
              headers: { authorization: `Bearer ${token}` },
            }),
          )
          .then(async (response) => ({ status: response.status, body: await response.json() }))
      : await req(t.app, step.method, step.path, { token, body })
    expect(reply.status, JSON.stringify(reply.body)).toBe(step.status)
    step.keep?.(reply.body.data)
    const added = (await entries()).slice(before)
    if (!step.entry) return expect(added).toEqual([])
    expect(added).toHaveLength(1)
    const { actorId, action, resource, resourceId, ip, createdAt } = added[0]
    expect({ actorId, action, resource, resourceId, ip, createdAt }).toEqual({ ...step.entry, ip: null, createdAt: new Date(NOW) })
  })

  test('no password, hash or token is ever written', async () => {
    const written = JSON.stringify(await entries())
    for (const secret of secrets) expect(written).not.toContain(secret)
    expect(written).not.toContain('$argon2')
    expect(written).not.toMatch(/"[a-z_]*(password|token|hash|secret)[a-z_]*":/i)
  })
})

describe('what an entry holds', () => {
  test('an update keeps the resource before and after', async () => {
    const reply = await req(t.app, 'GET', '/api/v1/admin/audit-logs?action=company.update', { token: admin })
    const company = { id: 1, name: 'Acme', attendance_starts_on: null, created_at: NOW, updated_at: NOW }
    expect(reply.body).toEqual(
      okBody({
        list: [
          {
            id: 7,
            actor_id: 1,
            actor_username: 'admin',
            action: 'company.update',
            action_text: 'Changed a company',
            resource: 'company',
            resource_id: '1',
            target_text: 'company #1 (deleted)',
            before: { ...company, timezone: null },
            after: { ...company, timezone: 'Asia/Shanghai' },
            ip: null,
            created_at: NOW,
          },
        ],
        total: 1,
        page: 1,
        page_size: 10,
      }),
    )
  })

  test('role changes show the roles a user held before and after; a deleted actor keeps the id', async () => {
    const assign = await req(t.app, 'GET', '/api/v1/admin/audit-logs?action=role.assign', { token: admin })
    expect(assign.body.data.list[0]).toMatchObject({ before: { roles: [] }, after: { roles: ['hr'] } })
    const logout = await req(t.app, 'GET', '/api/v1/admin/audit-logs?action=auth.logout', { token: admin })
    expect(logout.body.data.list[0]).toMatchObject({ actor_id: 2, actor_username: null, before: null, after: null })
    const roleDelete = await req(t.app, 'GET', '/api/v1/admin/audit-logs?action=role.delete', { token: admin })
    expect(roleDelete.body.data.list[0]).toMatchObject({
      before: { id: 3, name: 'hr', display_name: 'HR', user_ids: [], permissions: [] },
      after: null,
    })
  })
})

describe('the audit list', () => {
  test('newest first, style P1, filtered by actor, resource and action', async () => {
    const all = await req(t.app, 'GET', '/api/v1/admin/audit-logs?page_size=100', { token: admin })
    const expected = STEPS.filter((step) => step.entry).length
    expect(all.body.data.total).toBe(expected)
    expect(all.body.data.list.map((entry: { id: number }) => entry.id)).toEqual(Array.from({ length: expected }, (_, i) => expected - i))
    const byBob = await req(t.app, 'GET', '/api/v1/admin/audit-logs?actor_id=2', { token: admin })
    expect(byBob.body.data.list.map((entry: { action: string }) => entry.action)).toEqual(['auth.logout', 'user.update', 'auth.password', 'auth.login'])
    const roles = await req(t.app, 'GET', '/api/v1/admin/audit-logs?resource=role&page_size=2&page=2', { token: admin })
    expect(roles.body.data.list.map((entry: { action: string }) => entry.action)).toEqual(['role.permission.add', 'role.update'])
    expect(roles.body.data).toMatchObject({ total: 5, page: 2, page_size: 2 })
  })

  test('from and to bound the time; a bare date is a whole UTC day', async () => {
    t.clock.set(LATER)
    try {
      await req(t.app, 'POST', '/api/v1/admin/departments', { token: admin, body: { name: 'Later' } })
      const count = async (query: string) =>
        (await req(t.app, 'GET', `/api/v1/admin/audit-logs?${query}`, { token: admin })).body.data.total
      const all = await count('')
      expect(await count(`from=${LATER}`)).toBe(1)
      expect(await count(`to=${NOW}`)).toBe(all - 1)
      expect(await count('from=2024-03-15T09:30:00.001Z')).toBe(1)
      expect(await count('from=2024-03-15T18:30:00%2B08:00')).toBe(1)
      expect(await count('from=2024-03-15T18:30:00.001%2B08:00')).toBe(0)
      expect(await count('from=2024-03-15&to=2024-03-15')).toBe(all)
      expect(await count('to=2024-03-14')).toBe(0)
      expect(await count('from=2024-03-16')).toBe(0)

      const reversed = await req(t.app, 'GET', '/api/v1/admin/audit-logs?from=2024-03-16&to=2024-03-15', { token: admin })
      expect(reversed.body).toEqual({
        ...errorBody(400, 'from must not be later than to', { errors: [{ field: 'from', message: 'is later than to' }] }),
        timestamp: LATER,
      })
      const bad = await req(t.app, 'GET', '/api/v1/admin/audit-logs?to=2024-13-01', { token: admin })
      expect(bad.body).toEqual({
        ...errorBody(400, 'to "2024-13-01" is not a real date or time', {
          errors: [{ field: 'to', message: 'is not a real date or time' }],
        }),
        timestamp: LATER,
      })
      const words = await req(t.app, 'GET', '/api/v1/admin/audit-logs?from=yesterday', { token: admin })
      expect(words.body).toEqual({
        ...invalidBody('from', 'must be a date YYYY-MM-DD or an ISO 8601 timestamp such as 2024-03-15T09:30:00Z'),
        timestamp: LATER,
      })
    } finally {
      t.clock.set(NOW)
    }
  })

  test('needs audit:read', async () => {
    const clerk = await req(t.app, 'POST', '/api/v1/admin/users', {
      token: admin,
      body: { username: 'clerk', password: 'clerk-password', name: 'Clerk' },
    })
    expect(clerk.status, JSON.stringify(clerk.body)).toBe(201)
    const token = await login(t.app, 'clerk', 'clerk-password')
    expect((await req(t.app, 'GET', '/api/v1/admin/audit-logs', { token })).body).toEqual(
      errorBody(403, 'Your roles do not grant the permission audit:read; ask an administrator for it'),
    )
    expect(clerk.status).toBe(201)
  })
})

describe('over a real connection', () => {
  test('the entry keeps the client address', async () => {
    const server = t.app.listen({ port: 0, hostname: '127.0.0.1' })
    try {
      const response = await fetch(`http://127.0.0.1:${server.server!.port}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
      })
      expect(response.status).toBe(200)
      const [last] = (await entries()).slice(-1)
      expect(last).toMatchObject({ action: 'auth.login', actorId: 1, ip: '127.0.0.1' })
    } finally {
      await server.stop()
    }
  })
})

describe('action_text and target_text: the action and its target in words', () => {
  const entriesIn = async (language?: string) =>
    (
      await req(t.app, 'GET', '/api/v1/admin/audit-logs?page_size=100', {
        token: admin,
        headers: language ? { 'accept-language': language } : {},
      })
    ).body.data.list as { id: number; action: string; action_text: string; resource_id: string | null; target_text: string }[]

  test('every action the steps write has words in both languages', async () => {
    const [en, zh] = [await entriesIn(), await entriesIn('zh')]
    expect(en.filter((entry) => entry.action_text === entry.action).map((entry) => entry.action)).toEqual([])
    expect(zh.filter((entry) => !/\p{Script=Han}/u.test(entry.action_text)).map((entry) => entry.action)).toEqual([])
    const words = (list: typeof en, action: string) => list.find((entry) => entry.action === action)?.action_text
    expect([words(en, 'auth.login'), words(zh, 'auth.login')]).toEqual(['Signed in', '登录'])
    expect([words(en, 'role.permission.add'), words(zh, 'role.permission.add')]).toEqual(['Added a permission to a role', '为角色添加权限'])
    expect([words(en, 'leave_request.approve'), words(zh, 'leave_request.approve')]).toEqual(['Approved a leave request', '批准请假申请'])
  })

  test('targets named as people know them, read now: a deleted one by its type and id', async () => {
    const [en, zh] = [await entriesIn(), await entriesIn('zh')]
    const target = (list: typeof en, action: string, resourceId?: string) =>
      list.find((entry) => entry.action === action && (resourceId === undefined || entry.resource_id === resourceId))?.target_text
    const both = (action: string, resourceId?: string) => [target(en, action, resourceId), target(zh, action, resourceId)]
    // an account by its username; one deleted since
    expect(both('auth.login', '1')).toEqual(['admin', 'admin'])
    expect(both('user.create', '2')).toEqual(['account #2 (deleted)', '账号 #2（已删除）'])
    // an employee by name and number, or by name alone without one; a deleted one
    expect(both('employee.account')).toEqual(['Historian (H-1)', 'Historian（工号 H-1）'])
    expect(both('employee.create', '2')).toEqual(['Cid', 'Cid'])
    expect(both('employee.delete')).toEqual(['employee #1 (deleted)', '员工 #1（已删除）'])
    // companies, groups, rules, leave types and permissions by their names
    expect(both('company.create', '2')).toEqual(['Globex', 'Globex'])
    expect(both('company.delete')).toEqual(['company #1 (deleted)', '公司 #1（已删除）'])
    expect(both('attendance_group.create', '2')).toEqual(['History', 'History'])
    expect(both('attendance_rule.create', '2')).toEqual(['History day', 'History day'])
    expect(both('leave_type.update')).toEqual(['Annual leave', 'Annual leave'])
    expect(both('permission.create')).toEqual(['reports:read', 'reports:read'])
    expect(both('role.delete')).toEqual(['role #3 (deleted)', '角色 #3（已删除）'])
    // what names a company, an employee or a leave type inside its id
    expect(both('calendar.import')).toEqual(['the work calendar of Globex', 'Globex的工作日历'])
    expect(both('calendar_day.delete')).toEqual(['2024-03-16 in the calendar of Globex', 'Globex日历中的 2024-03-16'])
    expect(both('leave_balance.import')).toEqual(['Annual leave 2024 of Historian (H-1)', 'Historian（工号 H-1）的 2024 年Annual leave余额'])
    expect(both('attendance.close_day')).toEqual(['attendance day 2024-03-14', '2024-03-14 考勤日'])
    // anything else by its type and id; a batch by its type
    expect(both('salary.update')).toEqual(['salary record #1', '工资记录 #1'])
    expect(both('leave_request.approve')).toEqual(['leave request #3', '请假申请 #3'])
    expect(both('salary.batch_status')).toEqual(['salary records', '多条工资记录'])
    expect(both('file.batch_upload')).toEqual(['files', '多个文件'])
    expect(both('file.delete')).toEqual([`file #${fileId} (deleted)`, `文件 #${fileId}（已删除）`])
  })

  test('names are read when the list is: a renamed company shows its new name', async () => {
    const renamed = await req(t.app, 'PUT', '/api/v1/admin/companies/2', { token: admin, body: { name: 'Globex Ltd' } })
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200)
    const created = await req(t.app, 'GET', '/api/v1/admin/audit-logs?action=company.create&resource=company', { token: admin })
    expect(created.body.data.list.map((entry: { target_text: string }) => entry.target_text)).toEqual(['Globex Ltd', 'company #1 (deleted)'])
  })

  test('one query per kind of target on a page, however many entries name it', async () => {
    let queries = 0
    const counted = drizzle(t.deps.database.client, { schema, logger: { logQuery: () => void queries++ } })
    const page = await createAuditService({ db: counted }).list({ page: 1, page_size: 100 }, 'en')
    const kinds = new Set(page.list.map((entry) => entry.resource))
    expect(page.list.length).toBeGreaterThan(80)
    // the page and its count, then one each for employees, accounts, companies, departments, groups, rules, leave types, roles, permissions and files
    expect(kinds.size).toBeGreaterThan(10)
    expect(queries).toBe(2 + 10)
  })
})
