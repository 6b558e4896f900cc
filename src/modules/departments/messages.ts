import { defineMessages } from '../../lib/messages'

/** The messages of departments. */
export const say = defineMessages('departments', {
  nameTaken: {
    en: 'A department named "{name}" already exists (names are unique ignoring case)',
    zh: '名为“{name}”的部门已存在（部门名称不区分大小写，不能重复）',
  },
  missing: { en: 'Department {id} does not exist', zh: '部门 {id} 不存在' },
  stillUsed: {
    en: 'Department {id} still has employees; move them to another department first',
    zh: '部门 {id} 下仍有员工；请先将他们调到其他部门',
  },

  // the envelope's message of a successful answer
  created: { en: 'Department created', zh: '部门已创建' },
  updated: { en: 'Department updated', zh: '部门已更新' },
  deleted: { en: 'Department deleted', zh: '部门已删除' },
})
