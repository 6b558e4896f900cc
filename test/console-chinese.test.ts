import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { zh } from '../src/console/i18n/zh'
import { distanceMeters } from '../src/lib/geo'
import { pickLocale } from '../src/lib/status-text'
import {
  ALL_DAY,
  choose,
  dateIn,
  foreignRequests,
  launchBrowser,
  newContext,
  putSession,
  skipBrowser,
  SKIP_REASON,
  startService,
  tokensOf,
  typeDate,
  WAIT,
  watchErrors,
  type Service,
} from './console-harness'

/*
 * The console in Chinese (issue 27, CONTRACT §13 and §24), in Chromium with the browser's language
 * zh-CN: the console speaks Chinese, sends `Accept-Language: zh` on every API call, and shows the
 * server's refusals as sent, in Chinese: a wrong password, a clock-in from outside the rule's area
 * (the distance in metres), a leave request over days an earlier one already covers. Each text is
 * asserted whole, and the same text is checked on the page.
 *
 * People (company 示例公司, Asia/Shanghai; group 总部, a rule of every day with a 200 m area):
 * 王小明 (wang) clocks in and asks for 年假.
 */

const ZONE = 'Asia/Shanghai'
const OFFICE = { latitude: 31.2304, longitude: 121.4737 }
const RADIUS = 200
/** about 2.2 km north of the office */
const OUTSIDE = { latitude: 31.2504, longitude: 121.4737, accuracy: 20 }
const PASSWORD = 'wang-password-1'

/** The server's Chinese texts, as its catalogue has them (src/modules/{auth,attendance,leave}/messages.ts). */
const expected = {
  wrongPassword: '用户名或密码错误',
  outside: (distance: number) => `您距离指定打卡地点 ${distance} 米，超出了 ${RADIUS} 米的范围；请在 ${RADIUS} 米以内上班打卡`,
  overlap: (askedStart: string, askedEnd: string, start: string, end: string) => `您申请的 ${askedStart} 至 ${askedEnd} 与您待审批的“年假”（${start} 至 ${end}）时间重叠`,
}

let service: Service
let browser: Browser
const contexts: BrowserContext[] = []
let annualLeave = 0

/** A page in a fresh context speaking Chinese, with every API call's Accept-Language kept. */
async function openChinesePage() {
  const context = await newContext(browser, { locale: 'zh-CN' })
  contexts.push(context)
  const page = await context.newPage()
  page.setDefaultTimeout(WAIT)
  const languages: { path: string; language: string | undefined }[] = []
  const urls: string[] = []
  page.on('request', (request) => {
    urls.push(request.url())
    const url = new URL(request.url())
    if (url.pathname.startsWith('/api/')) languages.push({ path: url.pathname, language: request.headers()['accept-language'] })
  })
  const errors = watchErrors(page)
  return { context, page, languages, urls, errors }
}

/**
 * Every API call the console made asked for Chinese: `zh` from the application, the browser's list
 * (with English last) from the first script, which runs before the application (boot.ts).
 */
function allAskedInChinese(languages: { path: string; language: string | undefined }[]) {
  expect(languages.length).toBeGreaterThan(0)
  expect(languages.filter((call) => call.language !== 'zh' && !(call.language === 'zh-CN,en;q=0.01' && pickLocale(call.language, 'en') === 'zh'))).toEqual([])
}

const h1 = (page: Page) => page.getByRole('heading', { level: 1 })

beforeAll(async () => {
  if (skipBrowser) return
  // long-lived access tokens: a slow run must not see a token expire between steps
  service = await startService({ ACCESS_TOKEN_TTL: '86400' })
  browser = await launchBrowser()
  const api = service.api
  const company = await api('POST', '/admin/companies', { name: '示例公司', timezone: ZONE })
  const group = await api('POST', '/admin/attendance/groups', { name: '总部', company_id: company.id, timezone: ZONE })
  await api('POST', '/admin/attendance/rules', {
    name: '全天',
    group_id: group.id,
    ...ALL_DAY,
    location_required: true,
    allowed_latitude: OFFICE.latitude,
    allowed_longitude: OFFICE.longitude,
    location_radius: RADIUS,
  })
  const employee = await api('POST', '/admin/employees', { name: '王小明', company_id: company.id, username: 'wang', password: PASSWORD })
  await api('POST', `/admin/attendance/groups/${group.id}/employees`, { employee_ids: [employee.id] })
  annualLeave = (await api('POST', '/admin/leave/types', { name: '年假', annual_days: 10 })).id
}, 120_000)

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => {})
  await browser?.close().catch(() => {})
  await service?.stop()
})

describe('the console in Chinese, in Chromium', () => {
  if (skipBrowser) {
    test.skip(`the server's Chinese messages in the console (${SKIP_REASON})`, () => {})
    return
  }

  test(
    'a wrong password shows the server’s Chinese message; switched to English, the next one comes in English',
    async () => {
      const { page, languages, urls, errors } = await openChinesePage()
      await page.goto(`${service.base}/`)
      await h1(page).filter({ hasText: zh.common.signIn.title }).waitFor()
      expect(await page.locator('html').getAttribute('lang')).toBe('zh-CN')
      await page.getByRole('textbox', { name: zh.common.signIn.username }).fill('wang')
      await page.getByRole('textbox', { name: zh.common.signIn.password }).fill('not-the-password')
      const [refused] = await Promise.all([
        page.waitForResponse((response) => response.url().endsWith('/api/v1/auth/login')),
        page.getByRole('button', { name: zh.common.signIn.submit, exact: true }).click(),
      ])
      expect(refused.status()).toBe(401)
      expect(((await refused.json()) as { message: string }).message).toBe(expected.wrongPassword)
      expect(await page.getByRole('alert').filter({ hasText: expected.wrongPassword }).innerText()).toBe(expected.wrongPassword)
      allAskedInChinese(languages)

      // the console's choice wins over the browser's language
      await page.getByRole('combobox', { name: zh.common.language }).selectOption({ label: 'English' })
      await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor()
      const [again] = await Promise.all([
        page.waitForResponse((response) => response.url().endsWith('/api/v1/auth/login')),
        page.getByRole('button', { name: 'Sign in', exact: true }).click(),
      ])
      expect(again.request().headers()['accept-language']).toBe('en')
      expect(((await again.json()) as { message: string }).message).toBe('Wrong username or password')
      await page.getByRole('alert').filter({ hasText: 'Wrong username or password' }).waitFor()
      expect(foreignRequests(urls, service.base)).toEqual([])
      expect(errors).toEqual([])
    },
    90_000,
  )

  test(
    'a clock-in from outside the area shows the server’s Chinese refusal, with the distance in metres',
    async () => {
      const { context, page, languages, urls, errors } = await openChinesePage()
      await context.grantPermissions(['geolocation'], { origin: service.base })
      await context.setGeolocation(OUTSIDE)
      await putSession(context, await tokensOf(service.base, 'wang', PASSWORD))
      await page.goto(`${service.base}/`)
      await h1(page).filter({ hasText: zh.common.today.title }).waitFor()
      const [refused] = await Promise.all([
        page.waitForResponse((response) => response.url().endsWith('/api/v1/attendance/clock-in')),
        page.getByRole('button', { name: zh.common.today.clockIn, exact: true }).click(),
      ])
      expect(refused.status()).toBe(400)
      const distance = Math.round(distanceMeters(OUTSIDE, OFFICE))
      expect(distance).toBeGreaterThan(2000)
      const message = expected.outside(distance)
      expect(((await refused.json()) as { message: string }).message).toBe(message)
      const alert = page.getByRole('alert').filter({ hasText: message })
      await alert.waitFor()
      expect(await alert.innerText()).toBe(`${zh.common.today.refused}\n${message}`)
      allAskedInChinese(languages)
      expect(foreignRequests(urls, service.base)).toEqual([])
      expect(errors).toEqual([])
    },
    90_000,
  )

  test(
    'a leave request over days an earlier one covers shows the server’s Chinese overlap message',
    async () => {
      const tokens = await tokensOf(service.base, 'wang', PASSWORD)
      const [first, second, third] = [14, 15, 16].map((days) => dateIn(ZONE, days))
      await service.api('POST', '/leave/requests', { type_id: annualLeave, start_date: first, end_date: second }, { token: tokens.access_token })

      const { context, page, languages, urls, errors } = await openChinesePage()
      await putSession(context, tokens)
      await page.goto(`${service.base}/me/leave`)
      await h1(page).filter({ hasText: zh.me.leave.title }).waitFor()
      await choose(page, zh.me.leave.leaveType, '年假')
      await typeDate(page, zh.me.leave.startDate, second)
      await typeDate(page, zh.me.leave.endDate, third)
      const [refused] = await Promise.all([
        page.waitForResponse((response) => response.url().endsWith('/api/v1/leave/requests') && response.request().method() === 'POST'),
        page.getByRole('button', { name: zh.me.leave.submit, exact: true }).click(),
      ])
      expect(refused.status()).toBe(409)
      const message = expected.overlap(second, third, first, second)
      expect(((await refused.json()) as { message: string }).message).toBe(message)
      await page.getByText(message, { exact: true }).waitFor()
      allAskedInChinese(languages)
      expect(foreignRequests(urls, service.base)).toEqual([])
      expect(errors).toEqual([])
    },
    90_000,
  )
})
