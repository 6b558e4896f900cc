/** The English texts a built-in role or permission is created with, and their Chinese (shown by src/modules/rbac/messages.ts). */
interface SeededTexts {
  displayName: string
  description: string
  zh: { displayName: string; description: string }
}

/**
 * The built-in permissions, one `resource:action` per endpoint (several endpoints may
 * share one). Created at start-up; role `admin` holds all of them implicitly.
 */
export const PERMISSION_CATALOGUE = [
  {
    name: 'users:read',
    displayName: 'Read users',
    description: 'List and read user accounts',
    zh: { displayName: '查看账号', description: '列出并查看账号' },
  },
  { name: 'users:create', displayName: 'Create users', description: 'Create user accounts', zh: { displayName: '创建账号', description: '创建账号' } },
  {
    name: 'users:update',
    displayName: 'Update users',
    description: 'Edit user accounts, their roles and passwords',
    zh: { displayName: '修改账号', description: '修改账号及其角色和密码' },
  },
  { name: 'users:delete', displayName: 'Delete users', description: 'Delete user accounts', zh: { displayName: '删除账号', description: '删除账号' } },
  {
    name: 'companies:read',
    displayName: 'Read companies',
    description: 'List and read companies',
    zh: { displayName: '查看公司', description: '列出并查看公司' },
  },
  { name: 'companies:create', displayName: 'Create companies', description: 'Create companies', zh: { displayName: '创建公司', description: '创建公司' } },
  { name: 'companies:update', displayName: 'Update companies', description: 'Edit companies', zh: { displayName: '修改公司', description: '修改公司信息' } },
  { name: 'companies:delete', displayName: 'Delete companies', description: 'Delete companies', zh: { displayName: '删除公司', description: '删除公司' } },
  {
    name: 'employees:read',
    displayName: 'Read employees',
    description: 'List and read employees',
    zh: { displayName: '查看员工', description: '列出并查看员工' },
  },
  {
    name: 'employees:create',
    displayName: 'Create employees',
    description: 'Create employees and their accounts',
    zh: { displayName: '创建员工', description: '创建员工及其账号' },
  },
  { name: 'employees:update', displayName: 'Update employees', description: 'Edit employees', zh: { displayName: '修改员工', description: '修改员工信息' } },
  { name: 'employees:delete', displayName: 'Delete employees', description: 'Delete employees', zh: { displayName: '删除员工', description: '删除员工' } },
  {
    name: 'roles:read',
    displayName: 'Read roles',
    description: 'List and read roles, their users and their permissions',
    zh: { displayName: '查看角色', description: '列出并查看角色及其账号和权限' },
  },
  { name: 'roles:create', displayName: 'Create roles', description: 'Create roles', zh: { displayName: '创建角色', description: '创建角色' } },
  {
    name: 'roles:update',
    displayName: 'Update roles',
    description: 'Edit roles, including enabling and disabling them',
    zh: { displayName: '修改角色', description: '修改角色，包括启用和停用' },
  },
  { name: 'roles:delete', displayName: 'Delete roles', description: 'Delete roles', zh: { displayName: '删除角色', description: '删除角色' } },
  {
    name: 'roles:assign',
    displayName: 'Assign roles',
    description: 'Give roles to users and take them back',
    zh: { displayName: '分配角色', description: '为账号授予或收回角色' },
  },
  {
    name: 'permissions:read',
    displayName: 'Read permissions',
    description: 'List permissions and the roles holding them',
    zh: { displayName: '查看权限', description: '列出权限及拥有这些权限的角色' },
  },
  {
    name: 'permissions:create',
    displayName: 'Create permissions',
    description: 'Create permissions',
    zh: { displayName: '创建权限', description: '创建权限' },
  },
  {
    name: 'permissions:grant',
    displayName: 'Grant permissions',
    description: 'Add permissions to roles and remove them',
    zh: { displayName: '授予权限', description: '为角色添加或移除权限' },
  },
  {
    name: 'departments:read',
    displayName: 'Read departments',
    description: 'List and read departments',
    zh: { displayName: '查看部门', description: '列出并查看部门' },
  },
  {
    name: 'departments:create',
    displayName: 'Create departments',
    description: 'Create departments',
    zh: { displayName: '创建部门', description: '创建部门' },
  },
  {
    name: 'departments:update',
    displayName: 'Update departments',
    description: 'Edit departments',
    zh: { displayName: '修改部门', description: '修改部门信息' },
  },
  {
    name: 'departments:delete',
    displayName: 'Delete departments',
    description: 'Delete departments no employee belongs to',
    zh: { displayName: '删除部门', description: '删除没有员工的部门' },
  },
  {
    name: 'audit:read',
    displayName: 'Read the audit log',
    description: 'List who changed what, and when',
    zh: { displayName: '查看审计日志', description: '查看谁在何时修改了什么' },
  },
  {
    name: 'attendance:clock',
    displayName: 'Clock in and out',
    description: 'Clock in and out as the linked employee',
    zh: { displayName: '上下班打卡', description: '以关联的员工身份上班打卡和下班打卡' },
  },
  {
    name: 'attendance:view',
    displayName: 'Read own attendance',
    description: 'Read own records, summary, statistics and rule',
    zh: { displayName: '查看本人考勤', description: '查看本人的考勤记录、汇总、统计和考勤规则' },
  },
  {
    name: 'attendance:correct',
    displayName: 'Request corrections',
    description: 'Ask to correct the clock times of own records, list and cancel own corrections',
    zh: { displayName: '申请考勤更正', description: '申请更正本人记录的打卡时间，查看并取消本人的考勤更正' },
  },
  {
    name: 'attendance_records:read',
    displayName: 'Read attendance records',
    description: 'Read every employee’s records and refused clock attempts',
    zh: { displayName: '查看考勤记录', description: '查看所有员工的考勤记录和被拒绝的打卡' },
  },
  {
    name: 'attendance_records:update',
    displayName: 'Correct attendance records',
    description: 'Correct any employee’s clock times at once, with a reason (kept as an approved correction)',
    zh: { displayName: '更正考勤记录', description: '直接更正任何员工的打卡时间，须填写原因（记为已批准的考勤更正）' },
  },
  {
    name: 'attendance_records:close',
    displayName: 'Close attendance days',
    description: 'Close a work day: absences and exceptions',
    zh: { displayName: '考勤日结算', description: '结算工作日：记录缺勤和异常' },
  },
  {
    name: 'attendance_rules:read',
    displayName: 'Read attendance rules',
    description: 'List and read attendance rules',
    zh: { displayName: '查看考勤规则', description: '列出并查看考勤规则' },
  },
  {
    name: 'attendance_rules:create',
    displayName: 'Create attendance rules',
    description: 'Create attendance rules',
    zh: { displayName: '创建考勤规则', description: '创建考勤规则' },
  },
  {
    name: 'attendance_rules:update',
    displayName: 'Update attendance rules',
    description: 'Edit attendance rules',
    zh: { displayName: '修改考勤规则', description: '修改考勤规则' },
  },
  {
    name: 'attendance_rules:delete',
    displayName: 'Delete attendance rules',
    description: 'Delete attendance rules',
    zh: { displayName: '删除考勤规则', description: '删除考勤规则' },
  },
  {
    name: 'attendance_groups:read',
    displayName: 'Read attendance groups',
    description: 'List and read attendance groups and their members',
    zh: { displayName: '查看考勤组', description: '列出并查看考勤组及其成员' },
  },
  {
    name: 'attendance_groups:create',
    displayName: 'Create attendance groups',
    description: 'Create attendance groups',
    zh: { displayName: '创建考勤组', description: '创建考勤组' },
  },
  {
    name: 'attendance_groups:update',
    displayName: 'Update attendance groups',
    description: 'Edit attendance groups and their members',
    zh: { displayName: '修改考勤组', description: '修改考勤组及其成员' },
  },
  {
    name: 'attendance_groups:delete',
    displayName: 'Delete attendance groups',
    description: 'Delete attendance groups with their rules',
    zh: { displayName: '删除考勤组', description: '删除考勤组及其考勤规则' },
  },
  {
    name: 'calendar:read',
    displayName: 'Read work calendars',
    description: 'List companies’ holidays and make-up workdays',
    zh: { displayName: '查看工作日历', description: '查看各公司的节假日和调休上班日' },
  },
  {
    name: 'calendar:update',
    displayName: 'Change work calendars',
    description: 'Mark, import and unmark companies’ holidays and make-up workdays (which removes past absences on new holidays)',
    zh: { displayName: '修改工作日历', description: '标记、导入和取消各公司的节假日和调休上班日（新设节假日上已有的缺勤会被移除）' },
  },
  {
    name: 'files:manage',
    displayName: 'Manage every file',
    description: 'Read, sign and delete files uploaded by anyone',
    zh: { displayName: '管理所有文件', description: '查看、签发链接和删除任何人上传的文件' },
  },
  {
    name: 'salaries:read',
    displayName: 'Read salaries',
    description: 'List and read salary records and their statistics',
    zh: { displayName: '查看工资', description: '列出并查看工资记录及其统计' },
  },
  {
    name: 'salaries:create',
    displayName: 'Create salaries',
    description: 'Create salary records',
    zh: { displayName: '创建工资', description: '创建工资记录' },
  },
  {
    name: 'salaries:update',
    displayName: 'Update salaries',
    description: 'Edit salary records and set their status',
    zh: { displayName: '修改工资', description: '修改工资记录并设置其状态' },
  },
  {
    name: 'salaries:delete',
    displayName: 'Delete salaries',
    description: 'Delete salary records',
    zh: { displayName: '删除工资', description: '删除工资记录' },
  },
  {
    name: 'salaries:read_own',
    displayName: 'Read own salaries',
    description: 'Read own salary records',
    zh: { displayName: '查看本人工资', description: '查看本人的工资记录' },
  },
  {
    name: 'leave:request',
    displayName: 'Request leave',
    description: 'List leave types, read own balances, request and cancel own leave',
    zh: { displayName: '申请请假', description: '查看假期类型和本人余额，申请和取消本人的请假' },
  },
  {
    name: 'leave:read',
    displayName: 'Read leave',
    description: 'Read every employee’s leave requests and balances',
    zh: { displayName: '查看请假', description: '查看所有员工的请假申请和假期余额' },
  },
  {
    name: 'leave:manage',
    displayName: 'Manage leave',
    description: 'Adjust leave balances and cancel anyone’s leave',
    zh: { displayName: '管理请假', description: '调整假期余额，取消任何人的请假' },
  },
  {
    name: 'leave_types:read',
    displayName: 'Read leave types',
    description: 'List and read leave types',
    zh: { displayName: '查看假期类型', description: '列出并查看假期类型' },
  },
  {
    name: 'leave_types:manage',
    displayName: 'Manage leave types',
    description: 'Create, edit and delete leave types',
    zh: { displayName: '管理假期类型', description: '创建、修改和删除假期类型' },
  },
  {
    name: 'approvals:manage',
    displayName: 'Decide any request',
    description: 'Approve or reject anyone’s leave and corrections but one’s own',
    zh: { displayName: '审批任何申请', description: '审批或驳回任何人的请假和考勤更正（本人的除外）' },
  },
  {
    name: 'payroll:read',
    displayName: 'Read payroll',
    description: 'Read pay profiles, pay settings, payroll runs, payslips and their exports',
    zh: { displayName: '查看工资核算', description: '查看薪资档案、薪资设置、工资核算批次、工资条及其导出' },
  },
  {
    name: 'payroll:manage',
    displayName: 'Manage payroll',
    description: 'Edit pay profiles and pay settings; create, recompute and delete payroll runs and enter their inputs',
    zh: { displayName: '管理工资核算', description: '修改薪资档案和薪资设置；创建、重算和删除工资核算批次，录入其数据' },
  },
  {
    name: 'payroll:approve',
    displayName: 'Approve payroll',
    description: 'Approve a payroll run, which writes its salary records (never a run holding one’s own payslip)',
    zh: { displayName: '审批工资核算', description: '审批工资核算批次并写入工资记录（含本人工资条的批次除外）' },
  },
] as const satisfies readonly (SeededTexts & { name: `${string}:${string}` })[]

export type PermissionName = (typeof PERMISSION_CATALOGUE)[number]['name']

/** Permissions the built-in role `employee` receives when they are first created. */
export const EMPLOYEE_PERMISSIONS: readonly PermissionName[] = ['attendance:clock', 'attendance:view', 'attendance:correct', 'salaries:read_own', 'leave:request']

export const ADMIN_ROLE = 'admin'
export const EMPLOYEE_ROLE = 'employee'

export const BUILT_IN_ROLES = [
  { name: ADMIN_ROLE, displayName: 'Administrator', description: 'Holds every permission', zh: { displayName: '管理员', description: '拥有全部权限' } },
  {
    name: EMPLOYEE_ROLE,
    displayName: 'Employee',
    description: 'Clocks in and out and reads own records',
    zh: { displayName: '员工', description: '上下班打卡并查看本人的记录' },
  },
] as const satisfies readonly (SeededTexts & { name: string })[]

/** `resource:action`, lowercase; `*` is left out because the policy engine uses it as "any". */
export const PERMISSION_NAME_PATTERN = /^[a-z][a-z0-9_-]{0,49}:[a-z][a-z0-9_-]{0,49}$/

export function splitPermission(name: string): { resource: string; action: string } {
  const at = name.lastIndexOf(':')
  return { resource: name.slice(0, at), action: name.slice(at + 1) }
}
