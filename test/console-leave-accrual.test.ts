import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Browser, BrowserContext, Page } from 'playwright-core'
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
  WAIT,
  watchErrors,
  watchRequests,
  type Service,
} from './console-harness'
import { ADMIN_PASSWORD } from './helpers'

/*
 * Leave that accrues, in the console (CONTRACT §18), in Chromium: HR creates a yearly type with
 * China's statutory tiers through the leave type form (the tiers filled by their button, a carry-over
 * and its expiry) and the types table shows it as yearly; an employee with a work start date (made
 * through the API, with a login) opens their leave page, where the type's balance is, and opens its
 * details: the ledger's grant row, in words. HR opens the same details from the employee's balances,
 * and sees the work start date on the employee form. axe finds no serious or critical violation on
 * the type form, the types table, the leave page or the details.
 *
 * People (company Acme Accrual, Asia/Shanghai): Qian Li (login qian), hired 2020-03-02, working
 * since 2010-01-04. The administrator is HR.
 */

const ZONE = 'Asia/Shanghai'
const TYPE = 'Statutory annual leave'
const PASSWORDS = { admin: ADMIN_PASSWORD, qian: 'qian-password-1' }
const YEAR = Number(dateIn(ZONE).slice(0, 4))

let service: Service
let browser: Browser
const contexts: BrowserContext[] = []
const ids: Record<string, number> = {}

async function openPage(username: keyof typeof PASSWORDS) {
  const context = await newContext(browser, { timezoneId: ZONE })
  contexts.push(context)
  await putSession(context, await tokensOf(service.base, username, PASSWORDS[username]))
  const page = await context.newPage()
  page.setDefaultTimeout(WAIT)
  return { page, requests: watchRequests(page), errors: watchErrors(page) }
}

const h1 = (page: Page) => page.getByRole('heading', { level: 1 })

async function noSeriousViolations(page: Page, where: string) {
  expect(describeViolations(where, await seriousViolations(page))).toEqual([])
}

beforeAll(async () => {
  if (skipBrowser) return
  service = await startService({ ACCESS_TOKEN_TTL: '86400' })
  browser = await launchBrowser()
  ids.company = (await service.api('POST', '/admin/companies', { name: 'Acme Accrual', timezone: ZONE })).id
}, 120_000)

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => {})
  await browser?.close().catch(() => {})
  await service?.stop()
})

describe('leave that accrues, in the console, in Chromium', () => {
  if (skipBrowser) {
    test.skip(`accrual flows (${SKIP_REASON})`, () => {})
    return
  }

  test(
    'HR creates a yearly type with the statutory tiers through the form; the table shows it as yearly',
    async () => {
      const { page, requests, errors } = await openPage('admin')
      await page.goto(`${service.base}/admin/leave`)
      await h1(page).filter({ hasText: 'Leave types and balances' }).waitFor()
      await page.getByRole('button', { name: 'New leave type' }).click()
      const dialog = page.getByRole('dialog', { name: 'New leave type' })
      await dialog.waitFor()
      await dialog.getByRole('textbox', { name: 'Name' }).fill(TYPE)

      // accrual none: no tiers and no carry-over to fill
      expect(await dialog.getByRole('button', { name: 'China’s statutory annual leave' }).count()).toBe(0)
      await choose(dialog, 'Accrual', 'Yearly')
      await dialog.getByText('Granted on 1 January; prorated in the year of hire').waitFor()
      await dialog.getByRole('button', { name: 'China’s statutory annual leave' }).click()
      const tiers = dialog.getByRole('group', { name: /^Tier \d$/ })
      await eventually('three tiers', async () => (await tiers.count()) === 3)
      expect(await dialog.getByRole('group', { name: 'Tier 3' }).getByRole('textbox', { name: 'From years of work' }).inputValue()).toBe('20')
      expect(await dialog.getByRole('group', { name: 'Tier 3' }).getByRole('textbox', { name: 'Days a year' }).inputValue()).toBe('15')
      // one added and removed again
      await dialog.getByRole('button', { name: 'Add tier' }).click()
      await dialog.getByRole('group', { name: 'Tier 4' }).waitFor()
      await dialog.getByRole('button', { name: 'Remove tier 4' }).click()
      await dialog.getByRole('group', { name: 'Tier 4' }).waitFor({ state: 'detached' })
      // two tiers from the same year: the API's refusal shows on the tiers
      const second = dialog.getByRole('group', { name: 'Tier 2' }).getByRole('textbox', { name: 'From years of work' })
      await second.fill('1')
      const [refused] = await Promise.all([
        page.waitForResponse((response) => response.url().endsWith('/api/v1/admin/leave/types') && response.request().method() === 'POST'),
        dialog.getByRole('button', { name: 'Create' }).click(),
      ])
      expect(refused.status()).toBe(400)
      const problem = ((await refused.json()) as { errors: { field: string; message: string }[] }).errors
      expect(problem.map((error) => error.field)).toEqual(['seniority_tiers'])
      await dialog.getByRole('alert').filter({ hasText: problem[0]!.message }).waitFor()
      await second.fill('10')
      await dialog.getByRole('textbox', { name: 'Carry over at most (days)' }).fill('5')
      await dialog.getByRole('textbox', { name: 'Carried days lapse after (MM-DD)' }).fill('03-31')
      await noSeriousViolations(page, 'leave type form')

      const [created] = await Promise.all([
        page.waitForResponse((response) => response.url().endsWith('/api/v1/admin/leave/types') && response.request().method() === 'POST'),
        dialog.getByRole('button', { name: 'Create' }).click(),
      ])
      expect(created.status()).toBe(201)
      expect(created.request().postDataJSON()).toEqual({
        name: TYPE,
        paid: true,
        requires_balance: true,
        annual_days: 0,
        status: 1,
        accrual: 'yearly',
        unit: 'day',
        payout_on_leaving: false,
        seniority_tiers: [
          { from_years: 1, days: 5 },
          { from_years: 10, days: 10 },
          { from_years: 20, days: 15 },
        ],
        carry_over_max: 5,
        carry_over_expires: '03-31',
      })
      ids.type = ((await created.json()) as { data: { id: number } }).data.id
      await dialog.waitFor({ state: 'hidden' })

      const row = page.getByRole('table', { name: 'Leave types' }).getByRole('row').filter({ hasText: TYPE })
      await row.getByRole('cell', { name: 'Yearly', exact: true }).waitFor()
      await dialog.waitFor({ state: 'detached' })
      await noSeriousViolations(page, 'leave types table')

      // the type's settings, opened again in the form
      await row.getByRole('button', { name: 'Edit' }).click()
      const edit = page.getByRole('dialog', { name: 'Edit leave type' })
      await edit.waitFor()
      expect(await edit.getByRole('combobox', { name: 'Accrual' }).inputValue()).toBe('Yearly')
      expect(await edit.getByRole('group', { name: /^Tier \d$/ }).count()).toBe(3)
      expect(await edit.getByRole('textbox', { name: 'Carried days lapse after (MM-DD)' }).inputValue()).toBe('03-31')
      await edit.getByRole('button', { name: 'Cancel' }).click()
      await edit.waitFor({ state: 'detached' })

      expect(foreignRequests(requests.urls, service.base)).toEqual([])
      expect(errors).toEqual([])
    },
    120_000,
  )

  test(
    'an employee with a work start date sees the balance on their leave page and its details list the grant; so does HR',
    async () => {
      expect(ids.type).toBeGreaterThan(0)
      ids.qian = (
        await service.api('POST', '/admin/employees', {
          name: 'Qian Li',
          company_id: ids.company,
          hire_date: '2020-03-02',
          work_start_date: '2010-01-04',
          username: 'qian',
          password: PASSWORDS.qian,
        })
      ).id
      const token = (await tokensOf(service.base, 'qian', PASSWORDS.qian)).access_token
      // a hire is granted the year's days at once (by the tiers: years of work since 2010)
      const grant = await eventually('the year’s grant is in the ledger', async () => {
        const { entries } = await service.api('GET', `/leave/ledger?year=${YEAR}`, undefined, { token })
        return (entries as { type_id: number; kind: string; days: number }[]).find((entry) => entry.type_id === ids.type && entry.kind === 'grant')!
      })
      expect(grant.days).toBeGreaterThanOrEqual(10)
      const balance = ((await service.api('GET', `/leave/balances?year=${YEAR}`, undefined, { token })).balances as { type_id: number; remaining: number }[]).find(
        (row) => row.type_id === ids.type,
      )!
      expect(balance.remaining).toBe(grant.days)

      const { page, requests, errors } = await openPage('qian')
      await page.goto(`${service.base}/me/leave`)
      await h1(page).filter({ hasText: 'Leave' }).waitFor()
      const row = page.getByRole('table', { name: `Leave balances in ${YEAR}` }).getByRole('row').filter({ hasText: TYPE })
      await row.getByRole('cell', { name: String(balance.remaining), exact: true }).first().waitFor()
      await noSeriousViolations(page, 'leave page')

      await row.getByRole('button', { name: `Details of ${TYPE}` }).click()
      const details = page.getByRole('dialog', { name: `${TYPE} in ${YEAR}: how the balance adds up` })
      await details.waitFor()
      const grantRow = details.getByRole('table', { name: 'Entries behind the balance, oldest first' }).getByRole('row').filter({ hasText: 'Granted' })
      await grantRow.getByRole('cell', { name: `+${grant.days}`, exact: true }).waitFor()
      await grantRow.getByText(`Accrued for ${YEAR}`).waitFor()
      await grantRow.getByRole('cell', { name: /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/ }).waitFor()
      await noSeriousViolations(page, 'balance details')
      await details.getByRole('button', { name: 'Close' }).click()
      await details.waitFor({ state: 'detached' })
      expect(foreignRequests(requests.urls, service.base)).toEqual([])
      expect(errors).toEqual([])

      // HR: the same rows from the employee's balances, and the work start date on the employee form
      const hr = await openPage('admin')
      await hr.page.goto(`${service.base}/admin/leave`)
      await hr.page.getByRole('tab', { name: 'Balances' }).click()
      await choose(hr.page, 'Employee', 'Qian Li')
      const hrRow = hr.page.getByRole('table', { name: 'Leave balances' }).getByRole('row').filter({ hasText: TYPE })
      await hrRow.getByRole('button', { name: `Details of ${TYPE}` }).click()
      const hrDetails = hr.page.getByRole('dialog', { name: `${TYPE} in ${YEAR}: how the balance adds up` })
      await hrDetails.getByRole('row').filter({ hasText: 'Granted' }).getByRole('cell', { name: `+${grant.days}`, exact: true }).waitFor()
      await noSeriousViolations(hr.page, 'balance details for HR')
      await hrDetails.getByRole('button', { name: 'Close' }).click()
      await hrDetails.waitFor({ state: 'detached' })

      await hr.page.goto(`${service.base}/admin/employees`)
      await hr.page.getByRole('button', { name: 'Edit Qian Li' }).click()
      const form = hr.page.getByRole('dialog', { name: 'Edit employee' })
      await form.waitFor()
      expect(await form.getByRole('textbox', { name: 'Work start date' }).inputValue()).toBe('2010-01-04')
      expect(await form.getByRole('textbox', { name: 'Hire date' }).inputValue()).toBe('2020-03-02')
      expect(foreignRequests(hr.requests.urls, service.base)).toEqual([])
      expect(hr.errors).toEqual([])
    },
    120_000,
  )
})
