import { defineMessages } from '../../lib/messages'

/** The messages of employee records, their accounts, and the employee import (CONTRACT §12, §23). */
export const say = defineMessages('employees', {
  // refusals of one record (service.ts)
  missing: { en: 'Employee {id} does not exist', zh: '员工 {id} 不存在' },
  leftOnNotReal: { en: 'left_on "{value}" is not a real date (YYYY-MM-DD)', zh: 'left_on“{value}”不是真实存在的日期（YYYY-MM-DD）' },
  leftBeforeHired: { en: 'left_on {left} is before the hire date {hired}', zh: '离职日期 {left} 早于入职日期 {hired}' },
  workStartNotReal: { en: 'work_start_date "{value}" is not a real date (YYYY-MM-DD)', zh: 'work_start_date“{value}”不是真实存在的日期（YYYY-MM-DD）' },
  workStartAfterHired: {
    en: 'work_start_date {start} is after the hire date {hired}: years of work begin by the hire date',
    zh: '参加工作日期 {start} 晚于入职日期 {hired}：工作年限最晚从入职日期算起',
  },
  notAfterHireDate: { en: 'is after the hire date', zh: '晚于入职日期' },
  notBeforeHireDate: { en: 'is before the hire date', zh: '早于入职日期' },
  hireDateNotReal: { en: 'hire_date "{value}" is not a real date (YYYY-MM-DD)', zh: 'hire_date“{value}”不是真实存在的日期（YYYY-MM-DD）' },
  notRealDate: { en: 'is not a real date', zh: '不是真实存在的日期' },
  accountPairNeeded: {
    en: 'Send username and password together to create a linked account',
    zh: '要创建关联账号，请同时发送 username 和 password',
  },
  requiredWithOther: { en: 'is required with the other', zh: '须与另一项一起填写' },
  accountEitherWay: {
    en: 'Send either user_id (link an existing user) or username and password (create one), not both',
    zh: '请只发送 user_id（关联现有账号）或 username 和 password（新建账号）中的一种，不能同时发送',
  },
  conflictsWithUsername: { en: 'conflicts with username', zh: '不能与 username 同时填写' },
  accountNeeded: {
    en: 'Send username and password to create an account for the employee, or user_id to link an existing one',
    zh: '请发送 username 和 password 为该员工创建账号，或发送 user_id 关联现有账号',
  },
  requiredOrUserId: { en: 'is required, or user_id', zh: '为必填项（或填写 user_id）' },
  referenceProblem: { en: '{field}: {problem}', zh: '{field} 字段：{problem}' },
  noDepartmentId: { en: 'department {id} does not exist', zh: '部门 {id} 不存在' },
  noCompanyId: { en: 'company {id} does not exist', zh: '公司 {id} 不存在' },
  noUserId: { en: 'user {id} does not exist', zh: '账号 {id} 不存在' },
  ownManager: { en: 'manager_id {id}: an employee cannot be their own manager', zh: 'manager_id {id}：员工不能是自己的上级' },
  isTheEmployee: { en: 'is the employee itself', zh: '是该员工本人' },
  managerMissing: { en: 'manager_id names employee {id}, which does not exist', zh: 'manager_id 指定的员工 {id} 不存在' },
  managerCycle: {
    en: 'manager_id {id} would make a cycle of managers: {chain}',
    zh: 'manager_id {id} 会使上级关系形成循环：{chain}',
  },
  makesCycle: { en: 'makes a cycle: {chain}', zh: '会形成循环：{chain}' },
  employeeNoTaken: { en: 'Employee number "{no}" is already in use', zh: '工号“{no}”已被使用' },
  userLinkedElsewhere: { en: 'User {id} is already linked to another employee', zh: '账号 {id} 已关联到另一名员工' },
  conflictsWithRecord: { en: 'The employee conflicts with an existing record', zh: '该员工与现有记录冲突' },
  unlinkOwnAccount: {
    en: 'You cannot unlink your own account from its employee record: that changes whose requests are your own; ask another administrator',
    zh: '您不能解除自己账号与其员工档案的关联：这会改变哪些申请属于您本人；请联系其他管理员',
  },
  moveOwnAccount: {
    en: 'You cannot move your own account to another employee record: that changes whose requests are your own; ask another administrator',
    zh: '您不能把自己的账号关联到另一份员工档案：这会改变哪些申请属于您本人；请联系其他管理员',
  },
  hasAccount: {
    en: 'Employee {id} ({name}) already has the account "{username}"; to give them another, unlink it first (PUT /api/v1/admin/employees/{id} with user_id null)',
    zh: '员工 {id}（{name}）已有账号“{username}”；如需换一个账号，请先解除关联（PUT /api/v1/admin/employees/{id}，user_id 设为 null）',
  },
  hasRecords: {
    en: 'Employee {id} has attendance, leave or salary records and cannot be deleted; set status 0 (left) instead',
    zh: '员工 {id} 有考勤、请假或工资记录，不能删除；请改为将 status 设为 0（离职）',
  },

  // what an administrator would do, for the refusal of keepOwnApprover (rbac/own-matters.ts)
  changeManagerOf: { en: 'change the manager of employee {id} ({name})', zh: '更改员工 {id}（{name}）的上级' },
  markAsLeft: { en: 'mark employee {id} ({name}) as left', zh: '将员工 {id}（{name}）标记为离职' },
  changeEmployee: { en: 'change employee {id} ({name})', zh: '修改员工 {id}（{name}）' },
  deleteEmployee: { en: 'delete employee {id} ({name})', zh: '删除员工 {id}（{name}）' },

  // the envelope's message of a successful answer (index.ts, import/index.ts)
  created: { en: 'Employee created', zh: '员工已创建' },
  updated: { en: 'Employee updated', zh: '员工信息已更新' },
  deleted: { en: 'Employee deleted', zh: '员工已删除' },
  accountCreated: { en: 'Account created', zh: '账号已创建' },
  accountLinked: { en: 'Account linked', zh: '账号已关联' },
  employeeCount: { en: '{n} employee{n:s}', zh: '{n} 名员工' },
  wouldCreate: { en: 'The file is fine: {count} would be created', zh: '文件检查通过：将创建 {count}' },
  imported: { en: '{count} imported', zh: '已导入 {count}' },

  // the employee import (import/*.ts)
  employeesNoun: { en: 'employees', zh: '员工' },
  employeeNoun: { en: 'employee', zh: '位员工' },
  notImportedId: { en: 'ids are given by the service', zh: 'id 由系统分配' },
  notImportedDepartmentId: {
    en: 'give the department by name, in a column "department"',
    zh: '请在“department”列中按名称填写部门',
  },
  notImportedUserId: {
    en: 'an import creates new accounts (username and password); link an existing account with POST /api/v1/admin/employees/{id}/account',
    zh: '导入只会创建新账号（username 和 password）；关联现有账号请用 POST /api/v1/admin/employees/{id}/account',
  },
  notImportedGroupId: {
    en: 'add employees to a group with POST /api/v1/admin/attendance/groups/{id}/employees',
    zh: '将员工加入考勤组请用 POST /api/v1/admin/attendance/groups/{id}/employees',
  },
  notImportedTimestamp: { en: 'set by the service', zh: '由系统设置' },
  noNameColumn: { en: 'the header has no column "name"; every employee needs one', zh: '表头中没有“name”列；每位员工都需要姓名' },
  repeatedUsername: {
    en: '"{value}" is also in row {row} (usernames are unique ignoring case)',
    zh: '“{value}”与第 {row} 行重复（用户名不区分大小写，不能重复）',
  },
  noDepartmentNamed: {
    en: 'no department is named "{name}" (names are compared ignoring case and surrounding spaces)',
    zh: '没有名为“{name}”的部门（比较名称时不区分大小写，并忽略首尾空格）',
  },
  namesMissingEmployee: { en: 'names employee {id}, which does not exist', zh: '指定的员工 {id} 不存在' },
  managerBothWays: {
    en: 'give the manager either by manager_id or by manager_employee_no, not both',
    zh: '上级只能用 manager_id 或 manager_employee_no 中的一种方式指定，不能同时使用',
  },
  noEmployeeNumbered: {
    en: 'no employee has the number "{no}", in the file or among existing employees',
    zh: '文件中和现有员工中都没有工号为“{no}”的员工',
  },
  ownNumberAsManager: {
    en: 'is this row’s own employee_no: an employee cannot be their own manager',
    zh: '是本行自己的 employee_no：员工不能是自己的上级',
  },
  managerRowsCycle: { en: 'makes a cycle of managers: rows {rows}', zh: '使上级关系形成循环：第 {rows} 行' },
  employeeOfRow: { en: 'the employee of row {row} ({no})', zh: '第 {row} 行的员工（{no}）' },
  uniqueIndex: { en: 'a unique index', zh: '某个唯一索引' },
  duplicateRow: {
    en: 'The database refused a row of the file as a duplicate ({target}); nothing was imported. Check the file again with dry_run=true',
    zh: '数据库以重复为由拒绝了文件中的一行（{target}）；未导入任何数据。请用 dry_run=true 重新检查文件',
  },
  referenceGone: {
    en: 'The database refused a row of the file: a department, company or manager it names is gone; nothing was imported. Check the file again with dry_run=true',
    zh: '数据库拒绝了文件中的一行：其中的部门、公司或上级已不存在；未导入任何数据。请用 dry_run=true 重新检查文件',
  },
})
