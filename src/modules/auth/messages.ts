import { defineMessages } from '../../lib/messages'

/** Sign-in, refresh and one's own password (the token checks of every request are the ground floor's). */
export const say = defineMessages('auth', {
  signedIn: { en: 'Signed in', zh: '登录成功' },
  tokensRefreshed: { en: 'Tokens refreshed', zh: '令牌已刷新' },
  signedOut: { en: 'Signed out everywhere', zh: '已在所有设备上退出登录' },
  profileUpdated: { en: 'Profile updated', zh: '个人资料已更新' },
  passwordChanged: { en: 'Password changed; other sessions were signed out', zh: '密码已修改；其他会话已退出登录' },

  wrongCredentials: { en: 'Wrong username or password', zh: '用户名或密码错误' },
  refreshUnknown: { en: 'Unknown refresh token; sign in again', zh: '刷新令牌无效；请重新登录' },
  refreshReused: {
    en: 'This refresh token was already used, so every session of this sign-in was ended; sign in again',
    zh: '此刷新令牌已被使用过，因此本次登录的所有会话均已结束；请重新登录',
  },
  refreshExpired: { en: 'The refresh token has expired; sign in again', zh: '刷新令牌已过期；请重新登录' },
  currentPasswordWrong: { en: 'The current password is not correct', zh: '当前密码不正确' },
  notCorrect: { en: 'is not correct', zh: '不正确' },

  tooManyAtOnce: {
    en: 'Too many sign-ins from your address at once; wait for their answers first',
    zh: '您的地址同时发起的登录过多；请先等待这些请求得到答复',
  },
  busyHashing: { en: 'The service is busy checking other passwords; try again in a moment', zh: '服务正忙于校验其他密码；请稍后再试' },
  addressLocked: {
    en: 'Too many failed sign-ins for different usernames from your address; try again in {minutes} minute(s)',
    zh: '您的地址上多个用户名登录失败次数过多；请 {minutes} 分钟后再试',
  },
  pairLocked: {
    en: 'Too many failed sign-ins for "{username}" from your address; try again in {minutes} minute(s)',
    zh: '用户名“{username}”在您的地址上登录失败次数过多；请 {minutes} 分钟后再试',
  },
})
