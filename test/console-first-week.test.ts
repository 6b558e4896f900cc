import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core'
import {
  ALL_DAY,
  choose,
  dateIn,
  eventually,
  foreignRequests,
  launchBrowser,
  newContext,
  typeDate,
  signInThroughPage,
  skipBrowser,
  SKIP_REASON,
  startService,
  tokensOf,
  WAIT,
  watchErrors,
  watchRequests,
  type Service,
} from './console-harness'
import { call } from './server-process'
import { ADMIN_PASSWORD } from './helpers'

/*
 * The console in a company's first week (issue 26, CONTRACT §2, §10, §13, §23), in Chromium: the
 * administrator's first-run steps on a fresh install; changing one's own password; a login created
 * for, or linked to, an employee who had none; the manager field routing requests; the approvals
 * inbox on a phone, with a decision that can be undone; the year's holidays (a range of dates in one
 * submit, then a preset, issue 27); and some of the smaller items (no Clock in
 * for an employee in no group, no green toast when closing a day closed nothing, Escape in a date
 * field keeps the dialog, "No limit" for a leave type without a balance).
 *
 * People (company Acme, Asia/Shanghai; group Office with an all-day rule): mia (Mia Wang) manages;
 * ben (Ben Chen) asks for leave; eve (Eve Sun) changes her password; Finn Park and Gus Lin have no
 * login at first.
 */

const ZONE = 'Asia/Shanghai'
const PASSWORDS = { mia: 'mia-password-1', ben: 'ben-password-1', eve: 'eve-password-1', finn: 'finn-password-1', gus: 'gus-password-1' }

let service: Service
let browser: Browser
const contexts: BrowserContext[] = []
const ids: Record<string, number> = {}
let annualLeave = 0

async function openPage(options: Parameters<typeof newContext>[1] = {}) {
  const context = await newContext(browser, options)
  contexts.push(context)
  const page = await context.newPage()
  page.setDefaultTimeout(WAIT)
  return { context, page, requests: watchRequests(page), errors: watchErrors(page) }
}

const h1 = (page: Page) => page.getByRole('heading', { level: 1 })
const link = (page: Page, name: string) => page.getByRole('navigation').getByRole('link', { name, exact: true })
const textOf = async (locator: Locator) => (await locator.allInnerTexts()).join('\n')
const onlyTheService = (urls: string[]) => expect(foreignRequests(urls, service.base)).toEqual([])

beforeAll(async () => {
  if (skipBrowser) return
  service = await startService({ ACCESS_TOKEN_TTL: '86400' })
  browser = await launchBrowser()
}, 120_000)

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => {})
  await browser?.close().catch(() => {})
  await service?.stop()
})

let setUpDone: Promise<void> | undefined
/** What the later flows share, made through the API (once) after the fresh install was looked at. */
const setUp = () => (setUpDone ??= makePeople())
async function makePeople() {
  const api = service.api
  const company = (await api('GET', '/admin/companies?page=1&page_size=10')).list[0] ?? (await api('POST', '/admin/companies', { name: 'Acme' }))
  await api('PUT', `/admin/companies/${company.id}`, { timezone: ZONE })
  const group = await api('POST', '/admin/attendance/groups', { name: 'Office', company_id: company.id, timezone: ZONE })
  await api('POST', '/admin/attendance/rules', { name: 'Office hours', group_id: group.id, ...ALL_DAY })
  for (const [key, name] of [
    ['mia', 'Mia Wang'],
    ['ben', 'Ben Chen'],
    ['eve', 'Eve Sun'],
  ] as const)
    ids[key] = (await api('POST', '/admin/employees', { name, company_id: company.id, username: key, password: PASSWORDS[key] })).id
  await api('POST', `/admin/attendance/groups/${group.id}/employees`, { employee_ids: [ids.mia, ids.ben, ids.eve] })
  annualLeave = (await api('POST', '/admin/leave/types', { name: 'Annual leave', annual_days: 10 })).id
  await api('POST', '/admin/leave/types', { name: 'Unpaid leave', paid: false, requires_balance: false })
}

describe('the console in the first week, in Chromium', () => {
  if (skipBrowser) {
    test.skip(`first-week flows (${SKIP_REASON})`, () => {})
    return
  }

  test(
    'an administrator on a fresh install lands on the first-run steps, each linking to its page',
    async () => {
      const { page, requests, errors } = await openPage()
      await signInThroughPage(page, service.base, 'admin', ADMIN_PASSWORD)
      expect(new URL(page.url()).pathname).toBe('/')
      const steps = page.getByRole('region', { name: 'First steps' })
      await steps.waitFor()
      const items = steps.getByRole('listitem')
      await eventually('six steps listed', async () => (await items.count()) === 6)
      // nothing is set up: every step is still to do
      expect(await items.filter({ hasText: 'To do' }).count()).toBe(6)
      expect(await textOf(steps)).toContain('No company yet.')
      expect(await textOf(steps)).toContain('Only one account is an administrator')
      const expected: [string, string][] = [
        ['Add your company and its time zone', '/admin/companies'],
        ['Enter this year’s holidays and make-up work days', '/admin/companies'],
        ['Create an attendance group with a rule', '/admin/attendance/groups'],
        ['Add employees and put them in groups', '/admin/employees'],
        ['Create leave types', '/admin/leave'],
        ['Give a second person the administrator role', '/admin/users'],
      ]
      for (const [name, href] of expected) expect(await steps.getByRole('link', { name, exact: true }).getAttribute('href')).toBe(href)

      // a company without a zone: the step says it uses the server default (UTC), and so does its page
      await service.api('POST', '/admin/companies', { name: 'Acme' })
      await page.reload()
      await steps.waitFor()
      const company = items.filter({ hasText: 'Add your company and its time zone' })
      await eventually('the company step names the default zone', async () => /Acme.*default zone \(UTC/.test(await textOf(company)))
      expect(await textOf(company)).toMatch(/to do/i)
      await steps.getByRole('link', { name: 'Add your company and its time zone' }).click()
      await h1(page).filter({ hasText: 'Companies and calendars' }).waitFor()
      await page.getByText(/No time zone is set for Acme: .*UTC/).waitFor()

      // the rest, through the API: the steps follow
      await setUp()
      await service.api('POST', '/admin/users', { username: 'second-admin', password: 'second-admin-1', name: 'Second Admin', roles: ['admin'] })
      await link(page, 'Today').click()
      await steps.waitFor()
      await eventually('only the calendar is left to do', async () => (await items.filter({ hasText: 'To do' }).count()) === 1)
      expect(await textOf(items.filter({ hasText: 'To do' }))).toContain('Enter this year’s holidays')
      onlyTheService(requests.urls)
      expect(errors).toEqual([])
    },
    120_000,
  )
})

describe('the console in the first week, in Chromium: with a company, a group and people', () => {
  if (skipBrowser) return
  beforeAll(() => setUp(), 60_000)

  test(
    'an employee changes their password: a wrong current one is refused as the API says, the new one signs in',
    async () => {
      const other = await tokensOf(service.base, 'eve', PASSWORDS.eve)
      const { page, requests, errors } = await openPage()
      await signInThroughPage(page, service.base, 'eve', PASSWORDS.eve)
      await link(page, 'My account').click()
      await h1(page).filter({ hasText: 'My account' }).waitFor()
      const form = page.getByRole('region', { name: 'Change password' })
      const newPassword = 'eve-new-password-2'

      // a wrong current password: the API's refusal, on its field
      await form.getByRole('textbox', { name: 'Current password' }).fill('not-her-password')
      await form.getByRole('textbox', { name: 'New password', exact: true }).fill(newPassword)
      await form.getByRole('textbox', { name: 'Repeat the new password' }).fill(newPassword)
      const [refused] = await Promise.all([
        page.waitForResponse((response) => response.url().endsWith('/api/v1/auth/password')),
        form.getByRole('button', { name: 'Change password' }).click(),
      ])
      expect(refused.status()).toBe(400)
      const problem = ((await refused.json()) as { errors: { field: string; message: string }[] }).errors.find((error) => error.field === 'old_password')!
      await eventually('the field shows the API’s message', async () => (await form.getByRole('textbox', { name: 'Current password' }).getAttribute('aria-invalid')) === 'true')
      await form.getByText(problem.message).waitFor()

      await form.getByRole('textbox', { name: 'Current password' }).fill(PASSWORDS.eve)
      const [changed] = await Promise.all([
        page.waitForResponse((response) => response.url().endsWith('/api/v1/auth/password')),
        form.getByRole('button', { name: 'Change password' }).click(),
      ])
      expect(changed.status()).toBe(200)

      // this session goes on (with the pair the API returned), the other one ended
      await page.reload()
      await h1(page).filter({ hasText: 'My account' }).waitFor()
      await link(page, 'Today').click()
      await page.getByRole('button', { name: 'Clock in' }).waitFor()
      expect((await call(service.base, 'POST', '/api/v1/auth/refresh', { body: { refresh_token: other.refresh_token } })).status).toBe(401)
      expect((await call(service.base, 'POST', '/api/v1/auth/login', { body: { username: 'eve', password: PASSWORDS.eve } })).status).toBe(401)

      // signed out, she signs in with the new password
      await page.getByRole('button', { name: 'Sign out' }).click()
      await page.getByRole('button', { name: 'Sign in' }).waitFor()
      await signInThroughPage(page, service.base, 'eve', newPassword)
      await h1(page).filter({ hasText: 'Today' }).waitFor()
      PASSWORDS.eve = newPassword
      onlyTheService(requests.urls)
      expect(errors).toEqual([])
    },
    120_000,
  )

  test(
    'HR creates a login for an employee who had none, and links an existing account to another; both sign in',
    async () => {
      const finn = await service.api('POST', '/admin/employees', { name: 'Finn Park', company_id: 1 })
      const gus = await service.api('POST', '/admin/employees', { name: 'Gus Lin', company_id: 1 })
      const gusUser = await service.api('POST', '/admin/users', { username: 'gus', password: PASSWORDS.gus, name: 'Gus Lin', roles: [] })
      expect(finn.user_id).toBeNull()

      const { page, requests, errors } = await openPage()
      await signInThroughPage(page, service.base, 'admin', ADMIN_PASSWORD)
      await link(page, 'Employees').click()
      await h1(page).filter({ hasText: 'Employees' }).waitFor()

      // a new login for Finn
      await page.getByRole('button', { name: 'Add a login for Finn Park' }).click()
      let dialog = page.getByRole('dialog', { name: 'Sign-in account for Finn Park' })
      await dialog.waitFor()
      await dialog.getByRole('textbox', { name: 'Username' }).fill('finn')
      await dialog.getByRole('textbox', { name: 'Password' }).fill(PASSWORDS.finn)
      const [created] = await Promise.all([
        page.waitForResponse((response) => response.url().endsWith(`/api/v1/admin/employees/${finn.id}/account`)),
        dialog.getByRole('button', { name: 'Save' }).click(),
      ])
      expect(created.status()).toBeLessThan(300)
      await dialog.waitFor({ state: 'hidden' })
      expect((await service.api('GET', `/admin/employees/${finn.id}`)).user_id).not.toBeNull()

      // Gus's existing account, linked
      await page.getByRole('button', { name: 'Add a login for Gus Lin' }).click()
      dialog = page.getByRole('dialog', { name: 'Sign-in account for Gus Lin' })
      await dialog.waitFor()
      await dialog.getByText('Link an existing account').click()
      await choose(dialog, 'Account', 'Gus Lin (gus)')
      const [linked] = await Promise.all([
        page.waitForResponse((response) => response.url().endsWith(`/api/v1/admin/employees/${gus.id}/account`)),
        dialog.getByRole('button', { name: 'Save' }).click(),
      ])
      expect(linked.status()).toBeLessThan(300)
      expect(linked.request().postDataJSON()).toEqual({ user_id: gusUser.id })
      await dialog.waitFor({ state: 'hidden' })
      expect((await service.api('GET', `/admin/employees/${gus.id}`)).user_id).toBe(gusUser.id)

      // Finn signs in: he is in no attendance group, so Clock in is not offered, and he is told why
      const finnPage = await openPage()
      await signInThroughPage(finnPage.page, service.base, 'finn', PASSWORDS.finn)
      await h1(finnPage.page).filter({ hasText: 'Today' }).waitFor()
      await finnPage.page.getByText('Clock-in is not available').waitFor()
      await finnPage.page.getByText('Ask an administrator to put you in an attendance group').waitFor()
      expect(await finnPage.page.getByRole('button', { name: 'Clock in' }).count()).toBe(0)

      // Gus signs in with his own password and is the employee now
      const gusPage = await openPage()
      await signInThroughPage(gusPage.page, service.base, 'gus', PASSWORDS.gus)
      await h1(gusPage.page).filter({ hasText: 'Today' }).waitFor()
      const me = await service.api('GET', '/auth/me', undefined, { token: (await tokensOf(service.base, 'gus', PASSWORDS.gus)).access_token })
      expect(me.employee.id).toBe(gus.id)

      onlyTheService([...requests.urls, ...finnPage.requests.urls, ...gusPage.requests.urls])
      expect([...errors, ...finnPage.errors, ...gusPage.errors]).toEqual([])
    },
    150_000,
  )

  test(
    'the manager field: set on the edit and create forms, it routes the employee’s leave to that manager (her board and inbox show it); Escape in a date field keeps the dialog',
    async () => {
      const { page, requests, errors } = await openPage()
      await signInThroughPage(page, service.base, 'admin', ADMIN_PASSWORD)
      await link(page, 'Employees').click()
      await h1(page).filter({ hasText: 'Employees' }).waitFor()

      // Ben's manager: Mia
      await page.getByRole('button', { name: 'Edit Ben Chen' }).click()
      let dialog = page.getByRole('dialog', { name: 'Edit employee' })
      await dialog.waitFor()
      await choose(dialog, 'Manager', 'Mia Wang')
      const [updated] = await Promise.all([
        page.waitForResponse((response) => response.url().endsWith(`/api/v1/admin/employees/${ids.ben}`) && response.request().method() === 'PUT'),
        dialog.getByRole('button', { name: 'Save' }).click(),
      ])
      expect(updated.status()).toBe(200)
      expect(((await updated.json()) as { data: { manager_id: number } }).data.manager_id).toBe(ids.mia)
      await dialog.waitFor({ state: 'hidden' })

      // a new employee with a manager; Escape in the hire date's calendar closes the calendar, not the dialog
      await page.getByRole('button', { name: 'New employee' }).click()
      dialog = page.getByRole('dialog', { name: 'New employee' })
      await dialog.waitFor()
      await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('Hana Wu')
      await dialog.getByRole('textbox', { name: 'Hire date' }).click()
      await dialog.getByRole('textbox', { name: 'Hire date' }).press('Escape')
      await Bun.sleep(500)
      expect(await dialog.isVisible()).toBe(true)
      expect(await dialog.getByRole('textbox', { name: 'Name', exact: true }).inputValue()).toBe('Hana Wu')
      await choose(dialog, 'Manager', 'Mia Wang')
      const [created] = await Promise.all([
        page.waitForResponse((response) => response.url().endsWith('/api/v1/admin/employees') && response.request().method() === 'POST'),
        dialog.getByRole('button', { name: 'Save' }).click(),
      ])
      expect(created.status()).toBe(201)
      expect(((await created.json()) as { data: { manager_id: number } }).data.manager_id).toBe(ids.mia)

      // Ben asks for leave: Mia decides it, and his leave page says so
      const benToken = (await tokensOf(service.base, 'ben', PASSWORDS.ben)).access_token
      const request = await service.api(
        'POST',
        '/leave/requests',
        { type_id: annualLeave, start_date: dateIn(ZONE, 10), end_date: dateIn(ZONE, 10), reason: 'Dentist' },
        { token: benToken },
      )
      expect(request.approver).toEqual({ id: ids.mia, name: 'Mia Wang' })
      const ben = await openPage()
      await signInThroughPage(ben.page, service.base, 'ben', PASSWORDS.ben)
      await link(ben.page, 'Leave').click()
      await ben.page.getByRole('row').filter({ hasText: dateIn(ZONE, 10) }).filter({ hasText: 'Waiting for Mia Wang' }).first().waitFor()
      // a type without a balance shows no "remaining −1"
      const unpaid = ben.page.getByRole('row').filter({ hasText: 'Unpaid leave' })
      await unpaid.first().waitFor()
      expect(await textOf(unpaid)).toContain('No limit')

      // Mia lands on today's board (Ben is one of hers), which counts the request and opens her inbox, where it is
      const mia = await openPage()
      await signInThroughPage(mia.page, service.base, 'mia', PASSWORDS.mia)
      const board = mia.page.getByRole('region', { name: 'At work today' })
      await board.waitFor()
      await board.getByRole('table', { name: 'Employees today' }).getByRole('row', { name: /Ben Chen/ }).waitFor()
      await board.getByText('1 request waits for a decision.').waitFor()
      await board.getByRole('link', { name: 'Open the approvals inbox' }).click()
      await h1(mia.page).filter({ hasText: 'Approvals' }).waitFor()
      await mia.page.getByRole('row', { name: /Ben Chen/ }).filter({ has: mia.page.getByRole('button', { name: 'Approve' }) }).first().waitFor()

      onlyTheService([...requests.urls, ...ben.requests.urls, ...mia.requests.urls])
      expect([...errors, ...ben.errors, ...mia.errors]).toEqual([])
    },
    150_000,
  )

  test(
    'the inbox on a 390-pixel phone: the requester beside Approve on one card; a decision can be undone before it is sent',
    async () => {
      // a request of Ben's for Mia (his manager, set here through the API: this flow needs no form)
      await service.api('PUT', `/admin/employees/${ids.ben}`, { manager_id: ids.mia })
      const day = dateIn(ZONE, 12)
      const benToken = (await tokensOf(service.base, 'ben', PASSWORDS.ben)).access_token
      await service.api('POST', '/leave/requests', { type_id: annualLeave, start_date: day, end_date: day, reason: 'Moving house' }, { token: benToken })

      const { page, requests, errors } = await openPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })
      await signInThroughPage(page, service.base, 'mia', PASSWORDS.mia)
      await page.goto(`${service.base}/approvals`)
      await h1(page).filter({ hasText: 'Approvals' }).waitFor()
      // the request's card, by its requester (its buttons give way to "Approved — Undo" once decided);
      // a table's row would do too, were both on screen together
      const card = page.getByRole('listitem').or(page.getByRole('row')).filter({ hasText: 'Ben Chen' }).filter({ hasText: day })
      await card.filter({ has: page.getByRole('button', { name: 'Approve' }) }).first().waitFor()
      expect(await card.count()).toBe(1)
      const name = card.getByText('Ben Chen', { exact: true })
      const approve = card.getByRole('button', { name: 'Approve' })
      // both on screen at once: the name scrolled into view, the button is beside it without scrolling sideways
      await name.scrollIntoViewIfNeeded()
      for (const element of [name, approve]) {
        const box = (await element.boundingBox())!
        expect(box.x).toBeGreaterThanOrEqual(0)
        expect(box.x + box.width).toBeLessThanOrEqual(390)
        expect(box.y).toBeGreaterThanOrEqual(0)
        expect(box.y + box.height).toBeLessThanOrEqual(844)
      }
      expect(await page.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
      expect(await textOf(card)).toContain('Moving house')

      // approved, then undone: nothing is sent
      const decisions = () => requests.api.filter((sent) => sent.method === 'POST' && /\/approvals\/leave\/\d+\/(approve|reject)$/.test(sent.path))
      await approve.click()
      await card.getByRole('status').filter({ hasText: 'Approved' }).waitFor()
      await card.getByRole('button', { name: 'Undo' }).click()
      await approve.waitFor()
      await Bun.sleep(6_000)
      expect(decisions()).toEqual([])
      expect(await card.count()).toBe(1)

      // approved and left alone: sent after the few seconds
      const [approved] = await Promise.all([
        page.waitForResponse((response) => /\/api\/v1\/approvals\/leave\/\d+\/approve$/.test(response.url()), { timeout: WAIT }),
        approve.click(),
      ])
      expect(approved.status()).toBe(200)
      expect(decisions()).toHaveLength(1)
      await eventually('the approved request leaves the inbox', async () => (await card.count()) === 0)
      onlyTheService(requests.urls)
      expect(errors).toEqual([])
    },
    120_000,
  )

  test(
    'the work calendar: a range of three days added in one submit, then a preset applied; the list follows the year box',
    async () => {
      const { page, requests, errors } = await openPage()
      await signInThroughPage(page, service.base, 'admin', ADMIN_PASSWORD)
      await link(page, 'Companies and calendars').click()
      await h1(page).filter({ hasText: 'Companies and calendars' }).waitFor()
      await page.getByRole('button', { name: 'Calendar of Acme' }).click()
      const year = page.getByRole('textbox', { name: 'Year' })

      // 1 to 3 October 2027, statutory holidays, sent as one import
      const form = page.getByRole('form', { name: 'Add holidays or make-up work days' })
      await typeDate(form, 'From', '2027-10-01')
      await typeDate(form, 'To', '2027-10-03')
      await form.getByRole('textbox', { name: 'Day name' }).fill('National Day')
      await form.getByRole('checkbox', { name: 'Statutory holiday' }).check()
      const changes = () => requests.api.filter((sent) => sent.method !== 'GET' && sent.path.includes('/calendar'))
      const [imported] = await Promise.all([
        page.waitForResponse((response) => response.url().endsWith('/calendar/import')),
        form.getByRole('button', { name: 'Add 3 days' }).click(),
      ])
      expect(imported.status()).toBe(200)
      expect(imported.request().postDataJSON()).toEqual({
        days: ['2027-10-01', '2027-10-02', '2027-10-03'].map((date) => ({ date, kind: 'holiday', name: 'National Day', statutory: true })),
      })
      expect(changes()).toHaveLength(1)
      // the year box and the list moved to 2027 together
      const in2027 = page.getByRole('table', { name: 'Calendar days of Acme in 2027' })
      await eventually('the three days listed under 2027', async () => (await in2027.getByRole('row').filter({ hasText: 'National Day' }).count()) === 3)
      expect(await year.inputValue()).toBe('2027')
      expect(await in2027.getByRole('row').filter({ hasText: 'National Day' }).filter({ hasText: 'Yes' }).count()).toBe(3)

      // China's 2026 arrangement, applied in one step
      await page.getByRole('button', { name: 'Apply a preset' }).click()
      const dialog = page.getByRole('dialog', { name: 'Apply a holiday preset' })
      await dialog.waitFor()
      await choose(dialog, 'Preset', 'China 2026')
      await dialog.getByText('33 days off (13 statutory) and 6 make-up work days').waitFor()
      const [applied] = await Promise.all([
        page.waitForResponse((response) => response.url().endsWith('/calendar/apply-preset')),
        dialog.getByRole('button', { name: 'Apply preset' }).click(),
      ])
      expect(applied.status()).toBe(200)
      expect(applied.request().postDataJSON()).toEqual({ preset_id: 'cn-2026' })
      expect(((await applied.json()) as { data: { imported: number } }).data.imported).toBe(39)
      await dialog.waitFor({ state: 'hidden' })
      expect(changes()).toHaveLength(2)
      const in2026 = page.getByRole('table', { name: 'Calendar days of Acme in 2026' })
      await eventually('the preset’s 39 days listed under 2026', async () => (await in2026.getByRole('row').count()) === 40)
      expect(await year.inputValue()).toBe('2026')
      expect(await in2026.getByRole('row').filter({ hasText: 'Yes' }).count()).toBe(13)
      expect(await textOf(in2026.getByRole('row').filter({ hasText: '2026-10-10' }))).toMatch(/make-up work day/i)

      // the year box drives the list: back to 2027, the range is there again
      await page.getByRole('button', { name: 'Next year' }).click()
      await eventually('2027 listed again', async () => (await in2027.getByRole('row').filter({ hasText: 'National Day' }).count()) === 3)
      expect(await year.inputValue()).toBe('2027')
      onlyTheService(requests.urls)
      expect(errors).toEqual([])
    },
    120_000,
  )

  test(
    'closing a day that has not ended closes nothing, and the toast says so (not a green "Day closed")',
    async () => {
      const { page, errors } = await openPage()
      await signInThroughPage(page, service.base, 'admin', ADMIN_PASSWORD)
      await link(page, 'Day close').click()
      await h1(page).filter({ hasText: 'Day close' }).waitFor()
      // a week ahead: that day has not ended in any zone
      await typeDate(page, 'Date', dateIn(ZONE, 7))
      const [closed] = await Promise.all([
        page.waitForResponse((response) => response.url().endsWith('/api/v1/admin/attendance/close-day')),
        page.getByRole('button', { name: 'Close day' }).click(),
      ])
      expect(closed.status()).toBe(200)
      const groups = ((await closed.json()) as { data: { groups: { closed: boolean }[] } }).data.groups
      expect(groups.length).toBeGreaterThan(0)
      expect(groups.every((group) => !group.closed)).toBe(true)
      await page.getByText(/^Nothing was closed/).waitFor()
      expect(await page.getByText('Day closed', { exact: true }).count()).toBe(0)
      expect(errors).toEqual([])
    },
    90_000,
  )
})
