import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core'
import {
  choose,
  dateIn,
  describeViolations,
  eventually,
  foreignRequests,
  launchBrowser,
  newContext,
  putSession,
  seriousViolations,
  skipBrowser,
  SKIP_REASON,
  startService,
  tokensOf,
  typeDate,
  WAIT,
  watchErrors,
  watchRequests,
  type Service,
} from './console-harness'
import { ADMIN_PASSWORD } from './helpers'

/*
 * Hourly leave and the payout on leaving, in the console (CONTRACT §18), in Chromium: HR's type
 * form refuses a payout on an hourly type on its switch (the API's field error), then creates the
 * hourly type, which the types table shows in hours; an employee on a phone asks for 10:00–14:00
 * of a work day (their rule breaks 12:00–13:00, so the request is 3 h), sees it as "3 h" with its
 * times, and their balance in hours, also in its details; HR sees the request and the balance in
 * hours, adjusts the balance in hours, and the form explains on the unit that a type with requests
 * keeps it. axe finds no serious or critical violation on those screens.
 *
 * People (company Acme Hours, Asia/Shanghai; rule 09:00–18:00, break 12:00–13:00, Monday to
 * Friday): Hana Zhou (login hana). The administrator is HR.
 */

const ZONE = 'Asia/Shanghai'
const TYPE = 'Hourly leave'
const PASSWORDS = { admin: ADMIN_PASSWORD, hana: 'hana-password-1' }
const YEAR = Number(dateIn(ZONE).slice(0, 4))
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }

/** A work day (Monday to Friday) of this year, after today if one is left, else before it. */
function workDay(): string {
  const weekday = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay()
  for (const days of [1, 2, 3, 4, 5, 6, 7, -1, -2, -3, -4, -5, -6, -7]) {
    const date = dateIn(ZONE, days)
    if (Number(date.slice(0, 4)) === YEAR && weekday(date) >= 1 && weekday(date) <= 5) return date
  }
  throw new Error('no work day within a week of today')
}
const DAY = workDay()

let service: Service
let browser: Browser
const contexts: BrowserContext[] = []
const ids: Record<string, number> = {}

async function openPage(username: keyof typeof PASSWORDS, options: Parameters<typeof newContext>[1] = {}) {
  const context = await newContext(browser, { timezoneId: ZONE, ...options })
  contexts.push(context)
  await putSession(context, await tokensOf(service.base, username, PASSWORDS[username]))
  const page = await context.newPage()
  page.setDefaultTimeout(WAIT)
  return { page, requests: watchRequests(page), errors: watchErrors(page) }
}

const h1 = (page: Page) => page.getByRole('heading', { level: 1 })
const typesCall = (response: { url(): string; request(): { method(): string } }, method: string) =>
  /\/api\/v1\/admin\/leave\/types(\/\d+)?$/.test(response.url()) && response.request().method() === method

/** The text of what describes a control (its aria-describedby): where a field's hint and error are read out. */
const descriptionOf = (control: Locator) =>
  control.evaluate((element) => {
    const page = globalThis as unknown as { document: { getElementById(id: string): { textContent: string | null } | null } }
    const ids = (element as unknown as { getAttribute(name: string): string | null }).getAttribute('aria-describedby') ?? ''
    return ids
      .split(/\s+/)
      .map((id) => (id ? page.document.getElementById(id)?.textContent ?? '' : ''))
      .join(' ')
  })

async function noSeriousViolations(page: Page, where: string) {
  expect(describeViolations(where, await seriousViolations(page))).toEqual([])
}

beforeAll(async () => {
  if (skipBrowser) return
  service = await startService({ ACCESS_TOKEN_TTL: '86400' })
  browser = await launchBrowser()
  ids.company = (await service.api('POST', '/admin/companies', { name: 'Acme Hours', timezone: ZONE })).id
  ids.group = (await service.api('POST', '/admin/attendance/groups', { name: 'Office hours', company_id: ids.company })).id
  await service.api('POST', '/admin/attendance/rules', {
    name: 'Weekdays with lunch',
    group_id: ids.group,
    work_start_time: '09:00',
    work_end_time: '18:00',
    break_start_time: '12:00',
    break_end_time: '13:00',
    required_work_hours: 8,
    work_days: '1,2,3,4,5',
  })
  ids.hana = (await service.api('POST', '/admin/employees', { name: 'Hana Zhou', company_id: ids.company, username: 'hana', password: PASSWORDS.hana })).id
  await service.api('POST', `/admin/attendance/groups/${ids.group}/employees`, { employee_ids: [ids.hana] })
}, 120_000)

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => {})
  await browser?.close().catch(() => {})
  await service?.stop()
})

describe('hourly leave in the console, in Chromium', () => {
  if (skipBrowser) {
    test.skip(`hourly leave flows (${SKIP_REASON})`, () => {})
    return
  }

  test(
    'HR’s type form refuses a payout on an hourly type on its switch, then creates the hourly type; the table shows its unit',
    async () => {
      const { page, requests, errors } = await openPage('admin')
      await page.goto(`${service.base}/admin/leave`)
      await h1(page).filter({ hasText: 'Leave types and balances' }).waitFor()
      await page.getByRole('button', { name: 'New leave type' }).click()
      const dialog = page.getByRole('dialog', { name: 'New leave type' })
      await dialog.waitFor()
      await dialog.getByRole('textbox', { name: 'Name' }).fill(TYPE)
      await dialog.getByRole('textbox', { name: 'Days per year' }).fill('5')

      // days by default, with the payout switch; turned on, then the unit changed to hours: it stays, saying it applies to days
      expect(await dialog.getByRole('radio', { name: 'Days' }).isChecked()).toBe(true)
      const payout = dialog.getByRole('switch', { name: 'Pay out remaining days on leaving' })
      await payout.check()
      await dialog.getByRole('radio', { name: 'Hours' }).check()
      await dialog.getByText('Requests of a time on one date, counted in work time without breaks; balances in hours').waitFor()
      await dialog.getByText('Only for a type taken in days: turn it off for hours').waitFor()
      const [refused] = await Promise.all([
        page.waitForResponse((response) => typesCall(response, 'POST')),
        dialog.getByRole('button', { name: 'Create' }).click(),
      ])
      expect(refused.status()).toBe(400)
      const problems = ((await refused.json()) as { errors: { field: string; message: string }[] }).errors
      expect(problems.map((problem) => problem.field)).toEqual(['payout_on_leaving'])
      // the API's words on the switch, read out with it
      await dialog.getByText(problems[0]!.message).waitFor()
      expect(await descriptionOf(payout)).toContain(problems[0]!.message)
      await noSeriousViolations(page, 'leave type form, refused')

      // off, the switch leaves an hourly type's form
      await payout.click()
      await payout.waitFor({ state: 'detached' })
      await dialog.getByText('Granted each year; a multiple of 0.5; balances count each day as 8 hours').waitFor()
      const [created] = await Promise.all([
        page.waitForResponse((response) => typesCall(response, 'POST')),
        dialog.getByRole('button', { name: 'Create' }).click(),
      ])
      expect(created.status()).toBe(201)
      expect(created.request().postDataJSON()).toEqual({
        name: TYPE,
        paid: true,
        requires_balance: true,
        annual_days: 5,
        status: 1,
        accrual: 'none',
        unit: 'hour',
        payout_on_leaving: false,
        seniority_tiers: null,
        carry_over_max: 0,
        carry_over_expires: null,
      })
      ids.type = ((await created.json()) as { data: { id: number } }).data.id
      await dialog.waitFor({ state: 'detached' })

      const row = page.getByRole('table', { name: 'Leave types' }).getByRole('row').filter({ hasText: TYPE })
      await row.getByRole('cell', { name: 'Hours', exact: true }).waitFor()
      await noSeriousViolations(page, 'leave types table')
      expect(foreignRequests(requests.urls, service.base)).toEqual([])
      expect(errors).toEqual([])
    },
    120_000,
  )

  test(
    'an employee on a phone asks for 10:00–14:00 of a work day: 3 h of work time; the request and the balance show hours',
    async () => {
      expect(ids.type).toBeGreaterThan(0)
      const { page, requests, errors } = await openPage('hana', PHONE)
      await page.goto(`${service.base}/me/leave`)
      await h1(page).filter({ hasText: 'Leave' }).waitFor()
      const balances = page.getByRole('table', { name: `Leave balances in ${YEAR}` })
      const balance = balances.getByRole('row').filter({ hasText: TYPE })
      await balance.getByRole('cell', { name: '40 h', exact: true }).first().waitFor()

      // an hourly type: one date and two times, no end date and no halves
      const form = page.getByRole('region', { name: 'Request leave' })
      await choose(form, 'Leave type', TYPE)
      await form.getByRole('textbox', { name: 'Date', exact: true }).waitFor()
      expect(await form.getByRole('textbox', { name: 'End date' }).count()).toBe(0)
      expect(await form.getByRole('radio', { name: 'Morning only' }).count()).toBe(0)
      await typeDate(form, 'Date', DAY)
      await form.getByLabel('Start time').fill('10:00')
      // an end before the start: the form says so, nothing is sent
      await form.getByLabel('End time').fill('09:30')
      await form.getByRole('button', { name: 'Submit', exact: true }).click()
      await form.getByText('The end time must be after the start time').waitFor()
      expect(requests.api.filter((sent) => sent.method === 'POST' && sent.path.endsWith('/leave/requests'))).toEqual([])
      await form.getByLabel('End time').fill('14:00')
      await form.getByRole('textbox', { name: 'Reason', exact: true }).fill('Doctor')
      await noSeriousViolations(page, 'hourly request form on a phone')
      const [asked] = await Promise.all([
        page.waitForResponse((response) => response.url().endsWith('/api/v1/leave/requests') && response.request().method() === 'POST'),
        form.getByRole('button', { name: 'Submit', exact: true }).click(),
      ])
      expect(asked.status()).toBe(201)
      expect(asked.request().postDataJSON()).toEqual({ type_id: ids.type, start_date: DAY, end_date: DAY, start_time: '10:00', end_time: '14:00', reason: 'Doctor' })
      const request = ((await asked.json()) as { data: { id: number; unit: string; hours: number; days: number } }).data
      expect(request).toMatchObject({ unit: 'hour', hours: 3, days: 0 })
      ids.request = request.id

      // the request: its times and 3 h; the balance: 3 of 40 hours pending
      const mine = page.getByRole('table', { name: 'My leave requests' }).getByRole('row').filter({ hasText: `${DAY} 10:00–14:00` })
      await mine.getByRole('cell', { name: '3 h', exact: true }).waitFor()
      await balance.getByRole('cell', { name: '37 h', exact: true }).waitFor()
      await balance.getByRole('cell', { name: '3 h', exact: true }).waitFor()
      // a phone's page does not scroll sideways (the tables scroll inside themselves)
      expect(await page.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
      await noSeriousViolations(page, 'leave page on a phone')

      // the details: the year's 5 days as 40 hours, and the 3 hours held for the request
      await balance.getByRole('button', { name: `Details of ${TYPE}` }).click()
      const details = page.getByRole('dialog', { name: `${TYPE} in ${YEAR}: how the balance adds up` })
      const entries = details.getByRole('table', { name: 'Entries behind the balance, oldest first' })
      await entries.getByRole('columnheader', { name: 'Hours', exact: true }).waitFor()
      await entries.getByRole('row').filter({ hasText: 'Days per year of the type, 8 hours each' }).getByRole('cell', { name: '+40', exact: true }).waitFor()
      await entries.getByRole('row').filter({ hasText: 'Held for a request' }).getByRole('cell', { name: '+3', exact: true }).waitFor()
      await noSeriousViolations(page, 'balance details on a phone')
      await details.getByRole('button', { name: 'Close' }).click()
      await details.waitFor({ state: 'detached' })

      expect(foreignRequests(requests.urls, service.base)).toEqual([])
      expect(errors).toEqual([])
    },
    120_000,
  )

  test(
    'HR sees the request and the balance in hours, adjusts the balance in hours, and the unit of a type with requests stays',
    async () => {
      expect(ids.request).toBeGreaterThan(0)
      const { page, requests, errors } = await openPage('admin')
      await page.goto(`${service.base}/admin/leave`)
      await h1(page).filter({ hasText: 'Leave types and balances' }).waitFor()

      await page.getByRole('tab', { name: 'Requests' }).click()
      const asked = page.getByRole('table', { name: 'Leave requests' }).getByRole('row').filter({ hasText: 'Hana Zhou' })
      await asked.getByRole('cell', { name: `${DAY} 10:00–14:00`, exact: true }).waitFor()
      await asked.getByRole('cell', { name: '3 h', exact: true }).waitFor()
      await noSeriousViolations(page, 'HR’s leave requests')

      await page.getByRole('tab', { name: 'Balances' }).click()
      await choose(page, 'Employee', 'Hana Zhou')
      const balance = page.getByRole('table', { name: 'Leave balances' }).getByRole('row').filter({ hasText: TYPE })
      await balance.getByRole('cell', { name: '37 h', exact: true }).waitFor()

      await page.getByRole('button', { name: 'Adjust balance' }).click()
      const adjust = page.getByRole('dialog', { name: `Adjust a ${YEAR} balance` })
      await adjust.waitFor()
      await choose(adjust, 'Leave type', TYPE)
      await adjust.getByRole('textbox', { name: 'Hours' }).fill('1.5')
      await adjust.getByRole('textbox', { name: 'Reason' }).fill('Overtime on Saturday')
      await noSeriousViolations(page, 'adjust form in hours')
      const [adjusted] = await Promise.all([
        page.waitForResponse((response) => response.url().endsWith('/api/v1/admin/leave/balances/adjust')),
        adjust.getByRole('button', { name: 'Adjust', exact: true }).click(),
      ])
      expect(adjusted.status()).toBe(200)
      expect(adjusted.request().postDataJSON()).toEqual({ employee_id: ids.hana, type_id: ids.type, year: YEAR, hours: 1.5, reason: 'Overtime on Saturday' })
      await adjust.waitFor({ state: 'detached' })
      await balance.getByRole('cell', { name: '38.5 h', exact: true }).waitFor()
      await noSeriousViolations(page, 'HR’s balances in hours')

      // the type has a request: its unit stays, and the form says so on the unit
      await page.getByRole('tab', { name: 'Leave types' }).click()
      await page.getByRole('table', { name: 'Leave types' }).getByRole('row').filter({ hasText: TYPE }).getByRole('button', { name: 'Edit' }).click()
      const edit = page.getByRole('dialog', { name: 'Edit leave type' })
      await edit.waitFor()
      expect(await edit.getByRole('radio', { name: 'Hours' }).isChecked()).toBe(true)
      await edit.getByText('Fixed once the type has requests or balance entries: for the other unit, make a new type').waitFor()
      await edit.getByRole('radio', { name: 'Days' }).check()
      const [kept] = await Promise.all([page.waitForResponse((response) => typesCall(response, 'PUT')), edit.getByRole('button', { name: 'Save' }).click()])
      expect(kept.status()).toBe(409)
      const message = ((await kept.json()) as { message: string }).message
      await edit.getByText(message).waitFor()
      expect(await descriptionOf(edit.getByRole('radiogroup', { name: 'Taken in' }))).toContain(message)
      await noSeriousViolations(page, 'leave type form, unit kept')
      await edit.getByRole('button', { name: 'Cancel' }).click()
      await edit.waitFor({ state: 'detached' })
      expect((await service.api('GET', `/admin/leave/types/${ids.type}`)).unit).toBe('hour')

      expect(foreignRequests(requests.urls, service.base)).toEqual([])
      expect(errors).toEqual([])
    },
    120_000,
  )

  test(
    'approved, the hours show on the employee’s month calendar: the date says its leave and span, and its details list it',
    async () => {
      expect(ids.request).toBeGreaterThan(0)
      await service.api('POST', `/approvals/leave/${ids.request}/approve`, { note: 'ok' })
      const { page, requests, errors } = await openPage('hana', PHONE)
      await page.goto(`${service.base}/me/calendar`)
      await h1(page).filter({ hasText: 'Calendar' }).waitFor()
      // the calendar opens on this month; the day may be in the next
      if (DAY.slice(0, 7) !== dateIn(ZONE).slice(0, 7)) await page.getByRole('button', { name: 'Next month' }).click()
      const date = page.getByRole('region', { name: `Attendance in ${DAY.slice(0, 7)}` }).getByRole('button', { name: new RegExp(`${DAY}.*${TYPE} \\(10:00–14:00\\)`) })
      await date.click()
      await page.getByText(`${TYPE} (10:00–14:00)`, { exact: true }).waitFor()
      await noSeriousViolations(page, 'month calendar with hourly leave on a phone')
      expect(foreignRequests(requests.urls, service.base)).toEqual([])
      expect(errors).toEqual([])
    },
    120_000,
  )
})
