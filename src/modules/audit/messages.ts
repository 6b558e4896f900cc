import { defineMessages } from '../../lib/messages'

/** The audit list's refusals, and how an entry's target is named. */
export const say = defineMessages('audit', {
  notRealMoment: { en: '{field} "{value}" is not a real date or time', zh: '{field}“{value}”不是有效的日期或时间' },
  notRealMomentField: { en: 'is not a real date or time', zh: '不是有效的日期或时间' },
  fromAfterTo: { en: 'from must not be later than to', zh: 'from 不能晚于 to' },
  fromAfterToField: { en: 'is later than to', zh: '晚于 to' },

  // target_text: a target as a person knows it
  employee: { en: '{name} ({no})', zh: '{name}（工号 {no}）' },
  deleted: { en: '{type} #{id} (deleted)', zh: '{type} #{id}（已删除）' },
  attendanceDay: { en: 'attendance day {date}', zh: '{date} 考勤日' },
  calendarDay: { en: '{date} in the calendar of {company}', zh: '{company}日历中的 {date}' },
  companyCalendar: { en: 'the work calendar of {company}', zh: '{company}的工作日历' },
  leaveBalance: { en: '{leaveType} {year} of {employee}', zh: '{employee}的 {year} 年{leaveType}余额' },
  exportOf: { en: 'export of {month}', zh: '{month} 的导出' },
})

/** A target's type in words: `{type}` of the texts above. */
export const typeWords = defineMessages('audit.type', {
  user: { en: 'account', zh: '账号' },
  employee: { en: 'employee', zh: '员工' },
  company: { en: 'company', zh: '公司' },
  department: { en: 'department', zh: '部门' },
  attendance_group: { en: 'attendance group', zh: '考勤组' },
  attendance_rule: { en: 'attendance rule', zh: '考勤规则' },
  attendance_record: { en: 'attendance record', zh: '考勤记录' },
  attendance_correction: { en: 'correction request', zh: '补卡申请' },
  attendance_day: { en: 'attendance day', zh: '考勤日' },
  calendar_day: { en: 'calendar day', zh: '日历日' },
  company_calendar: { en: 'work calendar', zh: '工作日历' },
  role: { en: 'role', zh: '角色' },
  permission: { en: 'permission', zh: '权限' },
  file: { en: 'file', zh: '文件' },
  salary: { en: 'salary record', zh: '工资记录' },
  pay_profile: { en: 'pay profile', zh: '薪资档案' },
  payroll_run: { en: 'payroll run', zh: '工资核算批次' },
  payslip: { en: 'payslip', zh: '工资条' },
  contribution_scheme: { en: 'contribution scheme', zh: '社保公积金方案' },
  tax_deduction: { en: 'special additional deductions', zh: '专项附加扣除' },
  leave_type: { en: 'leave type', zh: '假期类型' },
  leave_request: { en: 'leave request', zh: '请假申请' },
  leave_balance: { en: 'leave balance', zh: '假期余额' },
  export: { en: 'export', zh: '导出' },
})

/** The targets of a change of many at once (a batch), where it has its own words. */
export const batchWords = defineMessages('audit.batch', {
  salary: { en: 'salary records', zh: '多条工资记录' },
  file: { en: 'files', zh: '多个文件' },
})

/**
 * Each action code the service writes (`action` of recordAudit), in words. A code missing here is
 * shown as itself; the audit test walks every audited route and fails on one.
 */
export const actionWords = defineMessages('audit.action', {
  'auth.login': { en: 'Signed in', zh: '登录' },
  'auth.logout': { en: 'Signed out', zh: '退出登录' },
  'auth.refresh': { en: 'Renewed the session', zh: '续期登录' },
  'auth.refresh.reuse': {
    en: 'Used a spent refresh token again; the sign-in was ended',
    zh: '重复使用了已用过的刷新令牌，该次登录已结束',
  },
  'auth.password': { en: 'Changed own password', zh: '修改了自己的密码' },

  'user.create': { en: 'Created an account', zh: '新建账号' },
  'user.update': { en: 'Changed an account', zh: '修改账号' },
  'user.delete': { en: 'Deleted an account', zh: '删除账号' },
  'user.password': { en: 'Reset the password of an account', zh: '重置账号密码' },

  'role.create': { en: 'Created a role', zh: '新建角色' },
  'role.update': { en: 'Changed a role', zh: '修改角色' },
  'role.delete': { en: 'Deleted a role', zh: '删除角色' },
  'role.assign': { en: 'Gave an account a role', zh: '为账号分配角色' },
  'role.revoke': { en: 'Took a role from an account', zh: '收回账号的角色' },
  'role.permission.add': { en: 'Added a permission to a role', zh: '为角色添加权限' },
  'role.permission.remove': { en: 'Removed a permission from a role', zh: '从角色移除权限' },
  'permission.create': { en: 'Created a permission', zh: '新建权限' },

  'company.create': { en: 'Created a company', zh: '新建公司' },
  'company.update': { en: 'Changed a company', zh: '修改公司' },
  'company.delete': { en: 'Deleted a company', zh: '删除公司' },
  'department.create': { en: 'Created a department', zh: '新建部门' },
  'department.update': { en: 'Changed a department', zh: '修改部门' },
  'department.delete': { en: 'Deleted a department', zh: '删除部门' },

  'employee.create': { en: 'Added an employee', zh: '新增员工' },
  'employee.update': { en: 'Changed an employee', zh: '修改员工' },
  'employee.delete': { en: 'Deleted an employee', zh: '删除员工' },
  'employee.account': { en: 'Gave an employee an account', zh: '为员工开通账号' },

  'attendance_rule.create': { en: 'Created an attendance rule', zh: '新建考勤规则' },
  'attendance_rule.update': { en: 'Changed an attendance rule', zh: '修改考勤规则' },
  'attendance_rule.delete': { en: 'Deleted an attendance rule', zh: '删除考勤规则' },
  'attendance_group.create': { en: 'Created an attendance group', zh: '新建考勤组' },
  'attendance_group.update': { en: 'Changed an attendance group', zh: '修改考勤组' },
  'attendance_group.delete': { en: 'Deleted an attendance group', zh: '删除考勤组' },
  'attendance_group.employees.add': { en: 'Added employees to an attendance group', zh: '向考勤组添加员工' },
  'attendance_group.employees.remove': { en: 'Removed employees from an attendance group', zh: '从考勤组移出员工' },
  'attendance_group.employees.move_out': {
    en: 'Moved employees out of an attendance group into another',
    zh: '将员工从考勤组调到其他考勤组',
  },
  'attendance.close_day': { en: 'Closed an attendance day', zh: '考勤日结算' },
  'attendance_record.import': { en: 'Imported an attendance record', zh: '导入考勤记录' },
  'attendance_record.correct': { en: 'Corrected an attendance record', zh: '更正考勤记录' },
  'attendance_correction.create': { en: 'Requested an attendance correction', zh: '提交补卡申请' },
  'attendance_correction.cancel': { en: 'Withdrew a correction request', zh: '撤回补卡申请' },
  'attendance_correction.approve': { en: 'Approved a correction request', zh: '批准补卡申请' },
  'attendance_correction.reject': { en: 'Rejected a correction request', zh: '驳回补卡申请' },

  'calendar_day.create': { en: 'Marked a day in the work calendar', zh: '在工作日历中设置日期' },
  'calendar_day.update': { en: 'Changed a day of the work calendar', zh: '修改工作日历中的日期' },
  'calendar_day.delete': { en: 'Cleared a day of the work calendar', zh: '清除工作日历中的日期设置' },
  'calendar.import': { en: 'Imported a work calendar', zh: '导入工作日历' },
  'calendar.apply_preset': { en: 'Applied a holiday preset to a work calendar', zh: '为工作日历套用节假日预设' },

  'leave_type.create': { en: 'Created a leave type', zh: '新建假期类型' },
  'leave_type.update': { en: 'Changed a leave type', zh: '修改假期类型' },
  'leave_type.delete': { en: 'Deleted a leave type', zh: '删除假期类型' },
  'leave_request.create': { en: 'Requested leave', zh: '提交请假申请' },
  'leave_request.cancel': { en: 'Cancelled a leave request', zh: '撤销请假申请' },
  'leave_request.recount': { en: 'Recounted a leave request after a calendar change', zh: '因工作日历变更重新计算请假天数' },
  'leave_request.approve': { en: 'Approved a leave request', zh: '批准请假申请' },
  'leave_request.reject': { en: 'Rejected a leave request', zh: '驳回请假申请' },
  'leave_balance.adjust': { en: 'Adjusted a leave balance', zh: '调整假期余额' },
  'leave_balance.import': { en: 'Imported an opening leave balance', zh: '导入假期期初余额' },

  'salary.create': { en: 'Created a salary record', zh: '新建工资记录' },
  'salary.update': { en: 'Changed a salary record', zh: '修改工资记录' },
  'salary.delete': { en: 'Deleted a salary record', zh: '删除工资记录' },
  'salary.batch_status': { en: 'Changed the status of salary records', zh: '批量修改工资记录状态' },

  'pay_profile.create': { en: 'Set a pay profile', zh: '新建薪资档案' },
  'pay_profile.update': { en: 'Changed a pay profile', zh: '修改薪资档案' },
  'pay_settings.update': { en: 'Changed the pay settings', zh: '修改薪资设置' },
  'contribution_scheme.create': { en: 'Created a contribution scheme', zh: '新建社保公积金方案' },
  'contribution_scheme.update': { en: 'Changed a contribution scheme', zh: '修改社保公积金方案' },
  'contribution_scheme.delete': { en: 'Deleted a contribution scheme', zh: '删除社保公积金方案' },
  'tax_deduction.create': { en: 'Declared special additional deductions', zh: '申报专项附加扣除' },
  'tax_deduction.update': { en: 'Changed special additional deductions', zh: '修改专项附加扣除' },
  'tax_deduction.delete': { en: 'Deleted special additional deductions', zh: '删除专项附加扣除' },
  'payroll_run.create': { en: 'Computed a payroll run', zh: '新建工资核算批次' },
  'payroll_run.recompute': { en: 'Recomputed a payroll run', zh: '重算工资核算批次' },
  'payroll_run.approve': { en: 'Approved a payroll run', zh: '审批工资核算批次' },
  'payroll_run.delete': { en: 'Deleted a payroll run', zh: '删除工资核算批次' },
  'payslip.inputs': { en: 'Entered a payslip’s inputs', zh: '录入工资条数据' },
  'export.payroll_register': { en: 'Exported a payroll register', zh: '导出工资表' },
  'export.bank_transfers': { en: 'Exported a bank transfer list', zh: '导出银行代发表' },

  'file.upload': { en: 'Uploaded a file', zh: '上传文件' },
  'file.batch_upload': { en: 'Uploaded files', zh: '批量上传文件' },
  'file.delete': { en: 'Deleted a file', zh: '删除文件' },
  'file.batch_delete': { en: 'Deleted files', zh: '批量删除文件' },

  'export.attendance': { en: 'Exported attendance', zh: '导出考勤' },
  'export.salaries': { en: 'Exported salaries', zh: '导出工资' },
})
