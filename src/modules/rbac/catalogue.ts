/**
 * The built-in permissions, one `resource:action` per endpoint (several endpoints may
 * share one). Created at start-up; role `admin` holds all of them implicitly.
 */
export const PERMISSION_CATALOGUE = [
  { name: 'users:read', displayName: 'Read users', description: 'List and read user accounts' },
  { name: 'users:create', displayName: 'Create users', description: 'Create user accounts' },
  { name: 'users:update', displayName: 'Update users', description: 'Edit user accounts, their roles and passwords' },
  { name: 'users:delete', displayName: 'Delete users', description: 'Delete user accounts' },
  { name: 'companies:read', displayName: 'Read companies', description: 'List and read companies' },
  { name: 'companies:create', displayName: 'Create companies', description: 'Create companies' },
  { name: 'companies:update', displayName: 'Update companies', description: 'Edit companies' },
  { name: 'companies:delete', displayName: 'Delete companies', description: 'Delete companies' },
  { name: 'employees:read', displayName: 'Read employees', description: 'List and read employees' },
  { name: 'employees:create', displayName: 'Create employees', description: 'Create employees and their accounts' },
  { name: 'employees:update', displayName: 'Update employees', description: 'Edit employees' },
  { name: 'employees:delete', displayName: 'Delete employees', description: 'Delete employees' },
  { name: 'roles:read', displayName: 'Read roles', description: 'List and read roles, their users and their permissions' },
  { name: 'roles:create', displayName: 'Create roles', description: 'Create roles' },
  { name: 'roles:update', displayName: 'Update roles', description: 'Edit roles, including enabling and disabling them' },
  { name: 'roles:delete', displayName: 'Delete roles', description: 'Delete roles' },
  { name: 'roles:assign', displayName: 'Assign roles', description: 'Give roles to users and take them back' },
  { name: 'permissions:read', displayName: 'Read permissions', description: 'List permissions and the roles holding them' },
  { name: 'permissions:create', displayName: 'Create permissions', description: 'Create permissions' },
  { name: 'permissions:grant', displayName: 'Grant permissions', description: 'Add permissions to roles and remove them' },
  { name: 'departments:read', displayName: 'Read departments', description: 'List and read departments' },
  { name: 'departments:create', displayName: 'Create departments', description: 'Create departments' },
  { name: 'departments:update', displayName: 'Update departments', description: 'Edit departments' },
  { name: 'departments:delete', displayName: 'Delete departments', description: 'Delete departments no employee belongs to' },
  { name: 'audit:read', displayName: 'Read the audit log', description: 'List who changed what, and when' },
  { name: 'attendance:clock', displayName: 'Clock in and out', description: 'Clock in and out as the linked employee' },
  { name: 'attendance:view', displayName: 'Read own attendance', description: 'Read own records, summary, statistics and rule' },
  { name: 'attendance:correct', displayName: 'Request corrections', description: 'Ask to correct the clock times of own records, list and cancel own corrections' },
  { name: 'attendance_records:read', displayName: 'Read attendance records', description: 'Read every employee’s records and refused clock attempts' },
  {
    name: 'attendance_records:update',
    displayName: 'Correct attendance records',
    description: 'Correct any employee’s clock times at once, with a reason (kept as an approved correction)',
  },
  { name: 'attendance_records:close', displayName: 'Close attendance days', description: 'Close a work day: absences and exceptions' },
  { name: 'attendance_rules:read', displayName: 'Read attendance rules', description: 'List and read attendance rules' },
  { name: 'attendance_rules:create', displayName: 'Create attendance rules', description: 'Create attendance rules' },
  { name: 'attendance_rules:update', displayName: 'Update attendance rules', description: 'Edit attendance rules' },
  { name: 'attendance_rules:delete', displayName: 'Delete attendance rules', description: 'Delete attendance rules' },
  { name: 'attendance_groups:read', displayName: 'Read attendance groups', description: 'List and read attendance groups and their members' },
  { name: 'attendance_groups:create', displayName: 'Create attendance groups', description: 'Create attendance groups' },
  { name: 'attendance_groups:update', displayName: 'Update attendance groups', description: 'Edit attendance groups and their members' },
  { name: 'attendance_groups:delete', displayName: 'Delete attendance groups', description: 'Delete attendance groups with their rules' },
  { name: 'calendar:read', displayName: 'Read work calendars', description: 'List companies’ holidays and make-up workdays' },
  {
    name: 'calendar:update',
    displayName: 'Change work calendars',
    description: 'Mark, import and unmark companies’ holidays and make-up workdays (which removes past absences on new holidays)',
  },
  { name: 'files:manage', displayName: 'Manage every file', description: 'Read, sign and delete files uploaded by anyone' },
  { name: 'salaries:read', displayName: 'Read salaries', description: 'List and read salary records and their statistics' },
  { name: 'salaries:create', displayName: 'Create salaries', description: 'Create salary records' },
  { name: 'salaries:update', displayName: 'Update salaries', description: 'Edit salary records and set their status' },
  { name: 'salaries:delete', displayName: 'Delete salaries', description: 'Delete salary records' },
  { name: 'salaries:read_own', displayName: 'Read own salaries', description: 'Read own salary records' },
  { name: 'leave:request', displayName: 'Request leave', description: 'List leave types, read own balances, request and cancel own leave' },
  { name: 'leave:read', displayName: 'Read leave', description: 'Read every employee’s leave requests and balances' },
  { name: 'leave:manage', displayName: 'Manage leave', description: 'Adjust leave balances and cancel anyone’s leave' },
  { name: 'leave_types:read', displayName: 'Read leave types', description: 'List and read leave types' },
  { name: 'leave_types:manage', displayName: 'Manage leave types', description: 'Create, edit and delete leave types' },
  { name: 'approvals:manage', displayName: 'Decide any request', description: 'Approve or reject anyone’s leave and corrections but one’s own' },
] as const satisfies readonly { name: `${string}:${string}`; displayName: string; description: string }[]

export type PermissionName = (typeof PERMISSION_CATALOGUE)[number]['name']

/** Permissions the built-in role `employee` receives when they are first created. */
export const EMPLOYEE_PERMISSIONS: readonly PermissionName[] = ['attendance:clock', 'attendance:view', 'attendance:correct', 'salaries:read_own', 'leave:request']

export const ADMIN_ROLE = 'admin'
export const EMPLOYEE_ROLE = 'employee'

export const BUILT_IN_ROLES = [
  { name: ADMIN_ROLE, displayName: 'Administrator', description: 'Holds every permission' },
  { name: EMPLOYEE_ROLE, displayName: 'Employee', description: 'Clocks in and out and reads own records' },
] as const

/** `resource:action`, lowercase; `*` is left out because the policy engine uses it as "any". */
export const PERMISSION_NAME_PATTERN = /^[a-z][a-z0-9_-]{0,49}:[a-z][a-z0-9_-]{0,49}$/

export function splitPermission(name: string): { resource: string; action: string } {
  const at = name.lastIndexOf(':')
  return { resource: name.slice(0, at), action: name.slice(at + 1) }
}
