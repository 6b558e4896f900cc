import { defineMessages } from '../lib/messages'

/** The messages of the ground floor: the envelope, validation, sign-in, bodies, retries. */
export const say = defineMessages('http', {
  success: { en: 'success', zh: '成功' },
  created: { en: 'created', zh: '已创建' },
  fieldProblem: { en: '{field} {problem}', zh: '{field}：{problem}' },
  invalidRequest: { en: 'Invalid request', zh: '请求无效' },
  invalidField: { en: 'Invalid request: {field} {problem}', zh: '请求无效：{field}：{problem}' },
  unreadableBody: {
    en: 'The request body could not be read; send JSON with Content-Type: application/json',
    zh: '无法读取请求内容；请以 Content-Type: application/json 发送 JSON',
  },
  noEndpoint: {
    en: 'No endpoint {method} {path}; the list of endpoints is at /swagger',
    zh: '没有接口 {method} {path}；接口列表见 /swagger',
  },
  badCookie: { en: 'A cookie has an invalid signature', zh: '某个 Cookie 的签名无效' },
  internal: { en: 'Internal server error', zh: '服务器内部错误' },
  internalLogged: { en: 'Internal server error; the failure was logged', zh: '服务器内部错误；故障已记入日志' },

  signInFirst: {
    en: 'Sign in first: send "Authorization: Bearer <access token>" from POST /api/v1/auth/login',
    zh: '请先登录：发送 POST /api/v1/auth/login 得到的 "Authorization: Bearer <访问令牌>"',
  },
  tokenInvalid: {
    en: 'The access token is invalid or has expired; refresh it or sign in again',
    zh: '访问令牌无效或已过期；请刷新令牌或重新登录',
  },
  accountGone: { en: 'The account of this token no longer exists', zh: '此令牌所属的账号已不存在' },
  accountDisabled: { en: 'This account is disabled; ask an administrator to enable it', zh: '此账号已被停用；请联系管理员启用' },
  sessionEnded: {
    en: 'This session has ended (signed out or password changed); sign in again',
    zh: '此次登录已结束（已退出或已修改密码）；请重新登录',
  },
  permissionMissing: {
    en: 'Your roles do not grant the permission {permission}; ask an administrator for it',
    zh: '您的角色没有“{permission}”权限；请向管理员申请',
  },

  bodyTooLarge: {
    en: 'The JSON body is larger than {mib} MiB; send less data per request',
    zh: 'JSON 请求内容超过 {mib} MiB；请每次少发送一些数据',
  },
  multipartRefused: {
    en: 'This endpoint takes a JSON body (Content-Type: application/json); files go to POST /api/v1/storage/upload',
    zh: '此接口只接受 JSON 请求内容（Content-Type: application/json）；文件请用 POST /api/v1/storage/upload 上传',
  },
  bodyTooDeep: {
    en: 'The JSON body nests objects or arrays more than {depth} levels deep; send a flatter body',
    zh: 'JSON 请求内容的对象或数组嵌套超过 {depth} 层；请减少嵌套',
  },
  bodyNotJson: { en: 'The request body is not valid JSON: {detail}', zh: '请求内容不是有效的 JSON：{detail}' },
  nulInField: {
    en: 'The field "{key}" contains the NUL character (\\u0000), which no text of this API may hold',
    zh: '字段“{key}”含有 NUL 字符（\\u0000），本接口的文本不能含有此字符',
  },
  nulInText: {
    en: 'A text contains the NUL character (\\u0000), which no text of this API may hold',
    zh: '某段文本含有 NUL 字符（\\u0000），本接口的文本不能含有此字符',
  },

  idempotencyKeyLength: {
    en: 'The {header} header must be 1 to {max} characters long',
    zh: '请求头 {header} 的长度必须在 1 到 {max} 个字符之间',
  },
  idempotencyKeyLengthField: { en: 'must be 1 to {max} characters long', zh: '长度必须在 1 到 {max} 个字符之间' },
  idempotencyRunning: {
    en: 'A request with {header} "{key}" is still being processed; send it again once that one has been answered',
    zh: '带 {header} “{key}”的请求仍在处理中；请在它得到答复后再发送',
  },
  idempotencyUnknown: {
    en: 'The first request with {header} "{key}" was cut short and its outcome is unknown: its change may or may not have been saved. Check before repeating it, with a new key',
    zh: '第一次带 {header} “{key}”的请求被中断，结果未知：其修改可能已保存，也可能没有。请先核对，再用新的键重新发送',
  },
  idempotencyOther: {
    en: '{header} "{key}" was used within the last 24 hours for another request (another method, path or body); use a new key for a new request',
    zh: '{header} “{key}”在过去 24 小时内已用于另一个请求（方法、路径或内容不同）；新的请求请用新的键',
  },

  untrustedForwarding: {
    en: 'X-Forwarded-For arrived from {peer}, which is not in TRUSTED_PROXIES: every client behind that proxy shares its address, so sign-in throttling counts them as one. If {peer} is your reverse proxy, add it to TRUSTED_PROXIES; until then the header is ignored',
    zh: '来自 {peer} 的请求带有 X-Forwarded-For，但 {peer} 不在 TRUSTED_PROXIES 中：该代理后面的所有客户端共用它的地址，登录限流会把它们算作同一个客户端。如果 {peer} 是您的反向代理，请把它加入 TRUSTED_PROXIES；在此之前该请求头将被忽略',
  },
  noConsoleAsset: { en: 'No console asset {file}', zh: '没有控制台文件 {file}' },
  noDocsAsset: { en: 'No docs asset {file}', zh: '没有文档文件 {file}' },

  // field problems every module words the same way
  doesNotExist: { en: 'does not exist', zh: '不存在' },
  notRealDate: { en: '"{value}" is not a real date', zh: '“{value}”不是真实存在的日期' },
  notRealDateOf: { en: '{field} "{value}" is not a real date', zh: '{field}“{value}”不是真实存在的日期' },

  // the rules TypeBox checks, as the error handler words them
  required: { en: 'is required', zh: '为必填项' },
  minLength: { en: 'must be at least {n} character{n:s} long', zh: '长度不能少于 {n} 个字符' },
  maxLength: { en: 'must be at most {n} characters long', zh: '长度不能超过 {n} 个字符' },
  minimum: { en: 'must be at least {n}', zh: '不能小于 {n}' },
  maximum: { en: 'must be at most {n}', zh: '不能大于 {n}' },
  maxItems: { en: 'must have at most {n} item{n:s}', zh: '最多 {n} 项' },
  minItems: { en: 'must have at least {n} item{n:s}', zh: '至少 {n} 项' },
  mustBeInteger: { en: 'must be an integer', zh: '必须是整数' },
  mustBeNumber: { en: 'must be a number', zh: '必须是数字' },
  mustBeBoolean: { en: 'must be a boolean', zh: '必须是布尔值（true 或 false）' },
  mustBeString: { en: 'must be a string', zh: '必须是文本' },
  mustBeNull: { en: 'must be a null', zh: '必须是 null' },
  mustBeObject: { en: 'must be a JSON object', zh: '必须是 JSON 对象' },
  mustBeArray: { en: 'must be a JSON array', zh: '必须是 JSON 数组' },
  unsupportedValue: { en: 'has an unsupported value {value}', zh: '的值 {value} 不受支持' },
  unsupportedFormat: { en: 'has an unsupported format', zh: '的格式不受支持' },
  invalid: { en: 'is invalid', zh: '无效' },
  unknownRule: { en: '{detail}', zh: '不符合要求（{detail}）' },
})
