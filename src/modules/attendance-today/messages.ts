import { defineMessages } from '../../lib/messages'

/** The messages of today's board (CONTRACT §23). */
export const say = defineMessages('attendance-today', {
  notForYou: {
    en: 'Today’s board is for holders of {permission} and for managers: your account is not linked to an active employee who manages an employee or an attendance group',
    zh: '今日看板仅供拥有 {permission} 权限的账号和负责人查看：您的账号没有关联到负责员工或考勤组的在职员工',
  },
  groupRefMissing: { en: 'group_id names attendance group {id}, which does not exist', zh: 'group_id 指定的考勤组 {id} 不存在' },
})
