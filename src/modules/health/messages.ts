import { defineMessages } from '../../lib/messages'

/** What /health says is wrong (`message`), and what it tells an administrator (`warnings`). */
export const say = defineMessages('health', {
  healthy: { en: 'healthy', zh: '正常' },
  /** problems one after another: "a. b" */
  then: { en: '{first}. {rest}', zh: '{first}。此外，{rest}' },
  databaseSilent: { en: 'The database does not answer', zh: '数据库没有响应' },
  writesFail: { en: 'Database writes fail; changes answer 503', zh: '数据库写入失败；修改操作将返回 503' },
  writesSlow: {
    en: 'Database writes do not finish in time; changes may answer 503',
    zh: '数据库写入未能及时完成；修改操作可能返回 503',
  },
  storeSilent: { en: 'The file store does not answer; file endpoints answer 503', zh: '文件存储没有响应；文件接口将返回 503' },
  diskLow: {
    en: 'Free disk space is {free}, under the {min} of HEALTH_MIN_FREE_MB; free some before writes fail',
    zh: '磁盘剩余空间为 {free}，低于 HEALTH_MIN_FREE_MB 设定的 {min}；请在写入失败之前释放空间',
  },

  writeProbeFailed: { en: 'The database write probe failed: {problem}', zh: '数据库写入探测失败：{problem}' },
  writeTimedOut: {
    en: 'a write did not finish within {ms} ms (a held write lock, or a database that hangs on writes)',
    zh: '一次写入未在 {ms} 毫秒内完成（写锁被占用，或数据库写入时卡住）',
  },
  folderLow: {
    en: '{folder} has {bytes} bytes free, under HEALTH_MIN_FREE_MB ({min} bytes)',
    zh: '{folder} 剩余 {bytes} 字节，低于 HEALTH_MIN_FREE_MB（{min} 字节）',
  },
})
