import { defineMessages } from '../lib/messages'

/** What the service says when its database cannot do the work: a fault of its disk, or no answer in time. */
export const say = defineMessages('db', {
  diskFull: {
    en: 'The server’s disk is full, so this change was not saved; try again later. The operator has been told: space must be freed on the database’s disk',
    zh: '服务器磁盘已满，此次修改未保存；请稍后再试。已通知运维人员：需要清理数据库所在磁盘的空间',
  },
  diskReadOnly: {
    en: 'The database’s disk is read-only, so this change was not saved; try again later. The operator has been told: the disk must be writable again',
    zh: '数据库所在磁盘为只读，此次修改未保存；请稍后再试。已通知运维人员：需要恢复磁盘的写入',
  },
  diskFailing: {
    en: 'The database’s disk failed to read or write (I/O error), so this change was not saved; try again later. The operator has been told: the disk must be checked',
    zh: '数据库所在磁盘读写失败（I/O 错误），此次修改未保存；请稍后再试。已通知运维人员：需要检查磁盘',
  },

  busy: { en: 'The database is busy with other changes; try again in a moment', zh: '数据库正忙于处理其他修改；请稍后再试' },
  timeout: { en: 'The database did not answer within {seconds} s; try again later', zh: '数据库在 {seconds} 秒内没有响应；请稍后再试' },
  timeoutOutcomeUnknown: {
    en: 'The database did not answer within {seconds} s: this change may or may not have been saved; check before repeating it, or repeat it with the same Idempotency-Key',
    zh: '数据库在 {seconds} 秒内没有响应：此次修改可能已保存，也可能没有；请先核对再重试，或使用相同的 Idempotency-Key 重试',
  },
  unreachable: { en: 'The database cannot be reached; try again later', zh: '无法连接数据库；请稍后再试' },
  lostOutcomeUnknown: {
    en: 'The connection to the database was lost before it answered: this change may or may not have been saved; check before repeating it, or repeat it with the same Idempotency-Key',
    zh: '数据库连接在响应前中断：此次修改可能已保存，也可能没有；请先核对再重试，或使用相同的 Idempotency-Key 重试',
  },
})
