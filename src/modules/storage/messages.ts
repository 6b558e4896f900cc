import { defineMessages, ruleText } from '../../lib/messages'

/** The file store's messages: uploads, access, links and the store's own faults. */
export const say = defineMessages('storage', {
  uploaded: { en: 'File uploaded', zh: '文件已上传' },
  processed: { en: 'Files processed', zh: '文件已处理' },
  deleted: { en: 'File deleted', zh: '文件已删除' },
  noLimit: { en: 'no limit', zh: '不限' },

  fileMissing: { en: 'File {id} does not exist', zh: '文件 {id} 不存在' },
  uploaderOnly: {
    en: 'Only the uploader of file {id} or a holder of files:manage may do this',
    zh: '只有文件 {id} 的上传者或拥有 files:manage 权限的人才能执行此操作',
  },
  linkInvalid: { en: 'This link is invalid or has expired; ask for a new one', zh: '此链接无效或已过期；请重新获取' },
  contentMissing: { en: 'The content of file {id} is missing from storage', zh: '文件 {id} 的内容在存储中缺失' },
  notRealDateField: { en: 'is not a real date', zh: '不是有效的日期' },

  oneFileOnly: {
    en: 'Send one file in the field "file"; use /api/v1/storage/batch-upload for several',
    zh: '请在字段 "file" 中只发送一个文件；多个文件请用 /api/v1/storage/batch-upload 上传',
  },
  noFile: { en: 'No file: send it in the multipart field "file"', zh: '没有文件：请在 multipart 字段 "file" 中发送' },
  tooManyFiles: { en: 'Send at most {max} files per batch', zh: '每批最多发送 {max} 个文件' },
  noFiles: { en: 'No files: send them in the multipart field "files"', zh: '没有文件：请在 multipart 字段 "files" 中发送' },
  failed: { en: 'failed', zh: '失败' },

  tooLarge: {
    en: 'The file is larger than the limit of {size} ({bytes} bytes)',
    zh: '文件超过了大小上限 {size}（{bytes} 字节）',
  },
  badFolder: {
    en: 'folder must be names of letters, digits, spaces, ".", "_" or "-" joined by "/", without "..", a leading "/" or "\\", at most 255 characters',
    zh: 'folder 必须由字母、数字、空格、“.”、“_”或“-”组成的名称以“/”连接，不能含“..”、开头的“/”或“\\”，最多 255 个字符',
  },
  badFolderField: { en: 'is not a valid folder path', zh: '不是有效的文件夹路径' },
  badIsPublic: { en: 'is_public must be true or false', zh: 'is_public 必须是 true 或 false' },
  trueOrFalse: { en: 'must be true or false', zh: '必须是 true 或 false' },
  descriptionTooLong: { en: 'description must be at most 500 characters long', zh: 'description 最多 500 个字符' },
  empty: { en: '"{name}" is empty', zh: '“{name}”是空文件' },

  notMultipart: { en: 'Send the file as multipart/form-data', zh: '请以 multipart/form-data 方式发送文件' },
  noBoundary: {
    en: 'The multipart/form-data body has no boundary; let your HTTP client build the form',
    zh: 'multipart/form-data 请求内容缺少 boundary；请让 HTTP 客户端自动生成表单',
  },
  fieldTooLong: { en: 'The form field "{name}" is longer than {kib} KiB', zh: '表单字段“{name}”超过 {kib} KiB' },
  fieldHasNul: {
    en: 'The form field "{name}" contains the NUL character (\\u0000)',
    zh: '表单字段“{name}”含有 NUL 字符（\\u0000）',
  },
  tooManyFields: {
    en: 'Too many form fields: send at most {max} besides the files',
    zh: '表单字段过多：除文件外最多发送 {max} 个',
  },
  malformed: {
    en: 'The multipart/form-data body is malformed or was cut off ({detail})',
    zh: 'multipart/form-data 请求内容格式有误或不完整（{detail}）',
  },

  bytes: { en: '{size} ({n} bytes)', zh: '{size}（{n} 字节）' },
  overQuota: {
    en: 'This file does not fit in your upload quota: your files take {used} of {quota}. Delete files you no longer need, or ask an administrator to raise UPLOAD_QUOTA',
    zh: '此文件超出您的上传配额：您的文件已占用 {used}，配额为 {quota}。请删除不再需要的文件，或请管理员调高 UPLOAD_QUOTA',
  },

  typeNotAccepted: {
    en: '"{name}" is of type {mime}, which is not accepted; allowed: {allowed}',
    zh: '“{name}”的类型为 {mime}，不被接受；允许的类型：{allowed}',
  },
  typeUnknown: {
    en: '"{name}" is of a type that could not be recognised, which is not accepted; allowed: {allowed}',
    zh: '无法识别“{name}”的文件类型，不被接受；允许的类型：{allowed}',
  },
  extensionDisagrees: {
    en: 'The name "{name}" ends in .{extension}, but its content is {mime}; rename it or send the right file',
    zh: '文件名“{name}”的扩展名是 .{extension}，但内容是 {mime}；请改名或发送正确的文件',
  },

  unavailable: {
    en: 'File storage is unavailable right now ({detail}); try again later',
    zh: '文件存储暂时不可用（{detail}）；请稍后再试',
  },
  s3Silent: { en: 'the S3 store does not answer', zh: 'S3 存储没有响应' },
  folderSilent: { en: 'the file folder does not answer', zh: '文件夹没有响应' },
  permissionDenied: { en: 'permission denied', zh: '没有权限' },
  readOnly: { en: 'read-only file system', zh: '文件系统为只读' },
  diskFull: { en: 'disk full', zh: '磁盘已满' },
  diskQuota: { en: 'disk quota exceeded', zh: '超出磁盘配额' },
  diskIo: { en: 'disk I/O error', zh: '磁盘读写错误' },
  notAFolder: { en: 'the storage folder is not a folder', zh: '存储文件夹不是一个文件夹' },
  timedOut: { en: 'the request timed out', zh: '请求超时' },
  cannotConnect: { en: 'cannot connect', zh: '无法连接' },
  storeAnswered: { en: 'the store answered {status}', zh: '存储服务返回了 {status}' },
})

/** The rule texts of the models (the error handler translates them). */
export const rules = {
  fileId: ruleText({ en: 'must be a file id (UUID)', zh: '必须是文件 ID（UUID）' }),
  fileIdQuery: ruleText({ en: 'file_id must be a file id (UUID)', zh: 'file_id 必须是文件 ID（UUID）' }),
  dateFrom: ruleText({ en: 'date_from must be a date written YYYY-MM-DD', zh: 'date_from 必须是 YYYY-MM-DD 格式的日期' }),
  dateTo: ruleText({ en: 'date_to must be a date written YYYY-MM-DD', zh: 'date_to 必须是 YYYY-MM-DD 格式的日期' }),
  sortBy: ruleText({ en: 'sort_by must be name, size or created_at', zh: 'sort_by 必须是 name、size 或 created_at' }),
  sortOrder: ruleText({ en: 'sort_order must be asc or desc', zh: 'sort_order 必须是 asc 或 desc' }),
  expiresIn: ruleText({ en: 'must be a whole number of seconds from 1 to 604800', zh: '必须是 1 到 604800 之间的整数秒' }),
  expires: ruleText({ en: 'expires must be a unix time in seconds', zh: 'expires 必须是以秒为单位的 Unix 时间' }),
}
