import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { en } from '../src/console/i18n/en'
import {
  ALL_DAY,
  choose,
  dateIn,
  describeViolations,
  eventually,
  foreignRequests,
  launchBrowser,
  newContext,
  putSession,
  seriousViolations,
  signInThroughPage,
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
 * The web console in a real browser (CONTRACT §13, issue 16): Debian's Chromium driven by
 * playwright-core against a server process with its own database; elements found by role and
 * accessible name, as a screen reader would. Each flow exercises its own pages and sets up the rest
 * through the API. Clock-ins happen at the real time of day, so the rule works every day from 00:00
 * to 23:59 and nothing asserts late or early.
 *
 * People (company Acme, Asia/Shanghai; group Office, rule "Office hours" with a 200 m area):
 *   ann (Ann Lee) clocks; ben (Ben Chen) asks for leave; mia (Mia Wang) is Ben's manager.
 */

const ZONE = 'Asia/Shanghai'
const OFFICE = { latitude: 31.2304, longitude: 121.4737 }
const RADIUS = 200
/** about 15 m from the office */
const INSIDE = { latitude: 31.2305, longitude: 121.4738, accuracy: 12 }
/** about 2.2 km north of it */
const OUTSIDE = { latitude: 31.2504, longitude: 121.4737, accuracy: 20 }

const PASSWORDS = { ann: 'ann-password-1', ben: 'ben-password-1', mia: 'mia-password-1', dana: 'dana-password-1' }

let service: Service
let browser: Browser
const contexts: BrowserContext[] = []
const ids: Record<string, number> = {}
let officeGroup = 0
let leaveTypeId = 0

/** A page in a fresh context (cold cache), watched for foreign requests and errors. */
async function openPage(options: Parameters<typeof newContext>[1] = {}) {
  const context = await newContext(browser, options)
  contexts.push(context)
  const page = await context.newPage()
  page.setDefaultTimeout(WAIT)
  const requests = watchRequests(page)
  const errors = watchErrors(page)
  return { context, page, requests, errors }
}

function onlyTheService(urls: string[]) {
  expect(urls.length).toBeGreaterThan(0)
  expect(foreignRequests(urls, service.base)).toEqual([])
}

const h1 = (page: Page) => page.getByRole('heading', { level: 1 })
const link = (page: Page, name: string) => page.getByRole('navigation').getByRole('link', { name, exact: true })
/** Picks `option` in the first of the selects named `labels` the form has (forms may or may not ask). */
async function chooseIfPresent(scope: Locator, labels: string[], option: string) {
  for (const label of labels) {
    const field = scope.getByRole('combobox', { name: label, exact: true }).or(scope.getByRole('textbox', { name: label, exact: true }))
    if ((await field.count()) > 0) return choose(scope, label, option)
  }
}
const textOf = async (locator: Locator) => (await locator.allInnerTexts()).join('\n')

beforeAll(async () => {
  if (skipBrowser) return
  // long-lived access tokens: a slow run must not see a token expire between steps
  service = await startService({ ACCESS_TOKEN_TTL: '86400' })
  browser = await launchBrowser()
  const api = service.api
  await api('POST', '/admin/companies', { name: 'Acme', timezone: ZONE })
  for (const [key, name] of [
    ['mia', 'Mia Wang'],
    ['ann', 'Ann Lee'],
    ['ben', 'Ben Chen'],
  ] as const) {
    const created = await api('POST', '/admin/employees', { name, company_id: 1, username: key, password: PASSWORDS[key] })
    ids[key] = created.id
  }
  // Mia decides Ben's requests (CONTRACT §10: the requester's manager_id first)
  await api('PUT', `/admin/employees/${ids.ben}`, { manager_id: ids.mia })
  officeGroup = (await api('POST', '/admin/attendance/groups', { name: 'Office', company_id: 1, timezone: ZONE })).id
  await api('POST', '/admin/attendance/rules', {
    name: 'Office hours',
    group_id: officeGroup,
    ...ALL_DAY,
    location_required: true,
    allowed_latitude: OFFICE.latitude,
    allowed_longitude: OFFICE.longitude,
    location_radius: RADIUS,
  })
  await api('POST', `/admin/attendance/groups/${officeGroup}/employees`, { employee_ids: [ids.mia, ids.ann, ids.ben] })
  leaveTypeId = (await api('POST', '/admin/leave/types', { name: 'Annual leave', annual_days: 10 })).id
}, 120_000)

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => {})
  await browser?.close().catch(() => {})
  await service?.stop()
})

describe('the web console in Chromium', () => {
  if (skipBrowser) {
    test.skip(`browser flows and accessibility (${SKIP_REASON})`, () => {})
    return
  }

  test(
    'sign in: a wrong password shows the API’s message; the right one opens the console',
    async () => {
      const { page, requests, errors } = await openPage()
      await page.goto(`${service.base}/`)
      await h1(page).filter({ hasText: en.common.signIn.title }).waitFor()
      await page.getByRole('textbox', { name: 'Username' }).fill('admin')
      await page.getByRole('textbox', { name: 'Password' }).fill('not-the-password')
      const [refused] = await Promise.all([
        page.waitForResponse((response) => response.url().endsWith('/api/v1/auth/login')),
        page.getByRole('button', { name: 'Sign in' }).click(),
      ])
      expect(refused.status()).toBe(401)
      const message = ((await refused.json()) as { message: string }).message
      expect(message.length).toBeGreaterThan(0)
      const alert = page.getByRole('alert').filter({ hasText: message })
      await alert.waitFor()
      expect(await page.getByRole('button', { name: 'Sign out' }).count()).toBe(0)

      await page.getByRole('textbox', { name: 'Password' }).fill(ADMIN_PASSWORD)
      await page.getByRole('button', { name: 'Sign in' }).click()
      await page.getByRole('button', { name: 'Sign out' }).waitFor()
      await page.getByRole('combobox', { name: 'Language' }).or(page.getByRole('textbox', { name: 'Language' })).first().waitFor()
      await link(page, 'Users').waitFor()

      // signing out brings the sign-in page back
      await page.getByRole('button', { name: 'Sign out' }).click()
      await page.getByRole('button', { name: 'Sign in' }).waitFor()
      onlyTheService(requests.urls)
      expect(errors).toEqual([])
    },
    90_000,
  )

  test(
    'a denied position shows a clear message and sends nothing',
    async () => {
      // no permission granted: headless Chromium denies the page's request for the position
      const { page, requests } = await openPage()
      await signInThroughPage(page, service.base, 'ann', PASSWORDS.ann)
      const button = page.getByRole('button', { name: 'Clock in' })
      await button.waitFor()
      await button.click()
      await page.getByRole('alert').filter({ hasText: 'Your browser did not allow the position' }).waitFor()
      // nothing was sent: no made-up position, no clock-in without one
      expect(requests.api.filter((request) => request.method !== 'GET' && /clock-(in|out)$/.test(request.path))).toEqual([])
      expect((await service.api('GET', '/attendance/today', undefined, { token: (await tokensOf(service.base, 'ann', PASSWORDS.ann)).access_token }))?.clock_in_time ?? null).toBeNull()
      onlyTheService(requests.urls)
    },
    90_000,
  )

  test(
    'clock in and out with a granted position: refused outside the area with the server’s message, recorded inside it',
    async () => {
      const { context, page, requests, errors } = await openPage()
      await context.grantPermissions(['geolocation'], { origin: service.base })
      await context.setGeolocation(OUTSIDE)
      await signInThroughPage(page, service.base, 'ann', PASSWORDS.ann)
      await h1(page).filter({ hasText: 'Today' }).waitFor()

      // outside: the server refuses, and the page shows its message as sent (distance and radius)
      const [refused] = await Promise.all([
        page.waitForResponse((response) => response.url().endsWith('/api/v1/attendance/clock-in')),
        page.getByRole('button', { name: 'Clock in' }).click(),
      ])
      expect(refused.status()).toBeGreaterThanOrEqual(400)
      const message = ((await refused.json()) as { message: string }).message
      expect(message).toMatch(new RegExp(`\\b2\\d{3} m\\b.*\\b${RADIUS} m\\b`))
      await page.getByRole('alert').filter({ hasText: message }).waitFor()
      await page.getByText('Position found, accurate to 20 m').waitFor()

      // inside: recorded
      await context.setGeolocation(INSIDE)
      const [clockedIn] = await Promise.all([
        page.waitForResponse((response) => response.url().endsWith('/api/v1/attendance/clock-in')),
        page.getByRole('button', { name: 'Clock in' }).click(),
      ])
      expect(clockedIn.status()).toBe(200)
      await page.getByText('Position found, accurate to 12 m').waitFor()
      await page.getByText(/^Clocked in at \d/).waitFor()
      expect(await page.getByRole('alert').count()).toBe(0)
      const sent = clockedIn.request().postDataJSON() as { latitude: number; longitude: number }
      expect(sent).toEqual({ latitude: INSIDE.latitude, longitude: INSIDE.longitude })

      // and out
      const [clockedOut] = await Promise.all([
        page.waitForResponse((response) => response.url().endsWith('/api/v1/attendance/clock-out')),
        page.getByRole('button', { name: 'Clock out' }).click(),
      ])
      expect(clockedOut.status()).toBe(200)
      await page.getByText(/^Clocked out at \d/).waitFor()
      expect(await page.getByRole('button', { name: 'Clock out' }).count()).toBe(0)

      const token = (await tokensOf(service.base, 'ann', PASSWORDS.ann)).access_token
      const today = await service.api('GET', '/attendance/today', undefined, { token })
      expect(today.clock_in_time).not.toBeNull()
      expect(today.clock_out_time).not.toBeNull()
      onlyTheService(requests.urls)
      expect(errors).toEqual([])
    },
    90_000,
  )

  test(
    'leave: the employee asks through the form, the manager approves in the inbox, the employee sees it approved; a reject needs a note',
    async () => {
      const start = dateIn(ZONE, 14)
      const end = dateIn(ZONE, 15)

      // Ben asks
      const ben = await openPage()
      await signInThroughPage(ben.page, service.base, 'ben', PASSWORDS.ben)
      await link(ben.page, 'Leave').click()
      await h1(ben.page).waitFor()
      await choose(ben.page, 'Leave type', 'Annual leave')
      await typeDate(ben.page, 'Start date', start)
      await typeDate(ben.page, 'End date', end)
      await ben.page.getByRole('textbox', { name: 'Reason', exact: true }).fill('Family visit')
      const [asked] = await Promise.all([
        ben.page.waitForResponse((response) => response.url().endsWith('/api/v1/leave/requests') && response.request().method() === 'POST'),
        ben.page.getByRole('button', { name: 'Submit', exact: true }).click(),
      ])
      expect(asked.status()).toBe(201)
      const request = ((await asked.json()) as { data: { id: number; start_date: string; end_date: string; type_id: number; reason: string } }).data
      expect(request).toMatchObject({ start_date: start, end_date: end, type_id: leaveTypeId, reason: 'Family visit' })

      // Mia approves it in her inbox
      const mia = await openPage()
      await signInThroughPage(mia.page, service.base, 'mia', PASSWORDS.mia)
      await link(mia.page, 'Approvals').click()
      await h1(mia.page).waitFor()
      const row = mia.page.getByRole('row', { name: /Ben Chen/ }).filter({ has: mia.page.getByRole('button', { name: 'Approve' }) })
      await row.first().waitFor()
      expect(await row.count()).toBe(1)
      const [approved] = await Promise.all([
        mia.page.waitForResponse((response) => /\/api\/v1\/approvals\/leave\/\d+\/approve$/.test(response.url())),
        row.getByRole('button', { name: 'Approve' }).click(),
      ])
      expect(approved.status()).toBe(200)
      expect(approved.url()).toEndWith(`/approvals/leave/${request.id}/approve`)
      await eventually('the approved request leaves the pending inbox', async () => (await row.count()) === 0)

      // Ben sees it approved
      await ben.page.reload()
      const benRow = ben.page.getByRole('row').filter({ hasText: start })
      await benRow.first().waitFor()
      await eventually('the request shows as approved', async () => /approved/i.test(await textOf(benRow)))

      // a second request, made through the API: Mia cannot reject it without a note
      const benToken = (await tokensOf(service.base, 'ben', PASSWORDS.ben)).access_token
      const second = await service.api(
        'POST',
        '/leave/requests',
        { type_id: leaveTypeId, start_date: dateIn(ZONE, 21), end_date: dateIn(ZONE, 21) },
        { token: benToken },
      )
      await mia.page.reload()
      const pending = mia.page.getByRole('row', { name: /Ben Chen/ }).filter({ has: mia.page.getByRole('button', { name: 'Reject' }) })
      await pending.first().waitFor()
      await pending.first().getByRole('button', { name: 'Reject' }).click()
      const dialog = mia.page.getByRole('dialog')
      await dialog.waitFor()
      const note = dialog.getByRole('textbox', { name: 'Note' })
      await note.waitFor()
      await dialog.getByRole('button', { name: 'Confirm rejection' }).click()
      // the form refuses: the field is marked invalid, nothing is sent
      await eventually('the note is marked as required', async () => (await note.getAttribute('aria-invalid')) === 'true')
      expect(mia.requests.api.filter((sent) => sent.path.endsWith('/reject'))).toEqual([])
      await note.fill('That week the release ships; please pick other dates')
      const [rejected] = await Promise.all([
        mia.page.waitForResponse((response) => /\/reject$/.test(response.url())),
        dialog.getByRole('button', { name: 'Confirm rejection' }).click(),
      ])
      expect(rejected.status()).toBe(200)
      expect(rejected.url()).toEndWith(`/approvals/leave/${second.id}/reject`)
      const decided = await service.api('GET', `/leave/requests/${second.id}`, undefined, { token: benToken }).catch(() => null)
      if (decided) expect(decided.status_text ?? decided.status).toMatch(/reject/i)

      onlyTheService([...ben.requests.urls, ...mia.requests.urls])
      expect([...ben.errors, ...mia.errors]).toEqual([])
    },
    150_000,
  )

  test(
    'an administrator creates an employee, a group and a rule through the pages, and sees that employee’s record',
    async () => {
      const { page, requests, errors } = await openPage()
      await signInThroughPage(page, service.base, 'admin', ADMIN_PASSWORD)

      // the employee, with a sign-in account
      await link(page, 'Employees').click()
      await h1(page).filter({ hasText: 'Employees' }).waitFor()
      await page.getByRole('button', { name: 'New employee' }).click()
      let dialog = page.getByRole('dialog', { name: 'New employee' })
      await dialog.waitFor()
      await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('Dana Zhou')
      await dialog.getByRole('textbox', { name: 'Employee number' }).fill('E-0042')
      await dialog.getByRole('switch', { name: /sign-in account/ }).or(dialog.getByRole('checkbox', { name: /sign-in account/ })).first().check()
      await dialog.getByRole('textbox', { name: 'Username' }).fill('dana')
      await dialog.getByRole('textbox', { name: 'Password' }).fill(PASSWORDS.dana)
      const [employeeCreated] = await Promise.all([
        page.waitForResponse((response) => response.url().endsWith('/api/v1/admin/employees') && response.request().method() === 'POST'),
        dialog.getByRole('button', { name: /^(Save|Create)$/ }).click(),
      ])
      expect(employeeCreated.status()).toBe(201)
      const dana = ((await employeeCreated.json()) as { data: { id: number; name: string; employee_no: string } }).data
      expect(dana).toMatchObject({ name: 'Dana Zhou', employee_no: 'E-0042' })
      await dialog.waitFor({ state: 'hidden' })
      await page.getByRole('row', { name: /Dana Zhou/ }).first().waitFor()

      // the group
      await link(page, 'Attendance groups').click()
      await h1(page).filter({ hasText: 'Attendance groups' }).waitFor()
      await page.getByRole('button', { name: 'New group' }).click()
      dialog = page.getByRole('dialog', { name: 'New group' })
      await dialog.waitFor()
      await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('Night desk')
      await chooseIfPresent(dialog, ['Company'], 'Acme')
      await chooseIfPresent(dialog, ['Time zone'], ZONE)
      const [groupCreated] = await Promise.all([
        page.waitForResponse((response) => response.url().endsWith('/api/v1/admin/attendance/groups') && response.request().method() === 'POST'),
        dialog.getByRole('button', { name: /^(Create|Save)$/ }).click(),
      ])
      expect(groupCreated.status()).toBe(201)
      const group = ((await groupCreated.json()) as { data: { id: number; name: string } }).data
      expect(group.name).toBe('Night desk')
      await dialog.waitFor({ state: 'hidden' })

      // the rule, in that group
      await link(page, 'Attendance rules').click()
      await h1(page).filter({ hasText: 'Attendance rules' }).waitFor()
      await page.getByRole('button', { name: 'New rule' }).click()
      dialog = page.getByRole('dialog', { name: 'New rule' })
      await dialog.waitFor()
      await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('Night desk hours')
      await chooseIfPresent(dialog, ['Group', 'Attendance group'], 'Night desk')
      await dialog.getByRole('textbox', { name: 'Work start', exact: true }).fill('00:00')
      await dialog.getByRole('textbox', { name: 'Work end', exact: true }).fill('23:59')
      const [ruleCreated] = await Promise.all([
        page.waitForResponse((response) => response.url().endsWith('/api/v1/admin/attendance/rules') && response.request().method() === 'POST'),
        dialog.getByRole('button', { name: /^(Create|Save)$/ }).click(),
      ])
      expect(ruleCreated.status()).toBe(201)
      const rule = ((await ruleCreated.json()) as { data: { group_id: number; name: string; location_required: boolean } }).data
      expect(rule).toMatchObject({ group_id: group.id, name: 'Night desk hours', location_required: false })

      // Dana joins the group and clocks in through the API
      await service.api('POST', `/admin/attendance/groups/${group.id}/employees`, { employee_ids: [dana.id] })
      const danaToken = (await tokensOf(service.base, 'dana', PASSWORDS.dana)).access_token
      const record = await service.api('POST', '/attendance/clock-in', {}, { token: danaToken })
      expect(record.attendance_id).toBeGreaterThan(0)

      // the records page shows it
      await link(page, 'Attendance records').click()
      await h1(page).filter({ hasText: 'Attendance records' }).waitFor()
      const table = page.getByRole('table', { name: 'Attendance records' })
      await table.waitFor()
      await table.getByRole('row', { name: /Dana Zhou/ }).first().waitFor()
      expect(await textOf(table.getByRole('row', { name: /Dana Zhou/ }).first())).toContain(record.work_date)

      onlyTheService(requests.urls)
      expect(errors).toEqual([])
    },
    150_000,
  )

  test(
    'accessibility: axe finds no serious or critical violation on any page of the administrator and of an employee',
    async () => {
      const problems: string[] = []
      const visited: string[] = []
      const foreign: string[] = []
      const covered = new Set<string>()
      const who = [
        { name: 'admin', tokens: await tokensOf(service.base, 'admin', ADMIN_PASSWORD) },
        // Ann has today's record (clocked in and out above), Ben his leave requests
        { name: 'employee ann', tokens: await tokensOf(service.base, 'ann', PASSWORDS.ann) },
        { name: 'employee ben', tokens: await tokensOf(service.base, 'ben', PASSWORDS.ben) },
      ]
      // the sign-in page
      {
        const { page, requests } = await openPage()
        await page.goto(`${service.base}/`)
        await h1(page).waitFor()
        problems.push(...describeViolations('/ (sign-in)', await seriousViolations(page)))
        foreign.push(...foreignRequests(requests.urls, service.base))
      }
      for (const { name, tokens } of who) {
        const { context, page, requests, errors } = await openPage()
        await putSession(context, tokens)
        await page.goto(`${service.base}/`)
        await page.getByRole('button', { name: 'Sign out' }).waitFor()
        // the pages the navigation offers this caller (src/console/routes/index.ts decides)
        const paths = await page.getByRole('navigation').locator('a[href]').evaluateAll((anchors) => anchors.map((a) => a.getAttribute('href') ?? ''))
        expect(paths.length).toBeGreaterThan(0)
        for (const path of paths) {
          const navLink = page.getByRole('navigation').locator(`a[href="${path}"]`).first()
          // after a page that broke the console (its error is reported below), open the next one afresh
          if ((await navLink.count()) > 0) await navLink.click()
          else await page.goto(`${service.base}${path}`)
          await eventually(`${name} reaches ${path}`, () => new URL(page.url()).pathname === path)
          covered.add(path)
          const entry = { path }
          try {
            await h1(page).waitFor({ timeout: WAIT })
          } catch {
            problems.push(`${name} ${entry.path}: no h1 (the page is still a placeholder, or did not load)`)
            continue
          }
          // let the page's queries settle before judging it
          await page.waitForLoadState('networkidle').catch(() => {})
          await page.getByRole('progressbar').or(page.locator('.mantine-Loader-root')).first().waitFor({ state: 'hidden', timeout: WAIT }).catch(() => {})
          problems.push(...describeViolations(`${name} ${entry.path}`, await seriousViolations(page)))
          visited.push(`${name} ${entry.path}`)
        }
        foreign.push(...foreignRequests(requests.urls, service.base))
        problems.push(...errors.map((error) => `${name}: ${error}`))
      }
      // every page of the console is reachable by one of the two
      const routes = readFileSync(join(import.meta.dir, '..', 'src', 'console', 'routes', 'index.ts'), 'utf8')
      const every = [...routes.matchAll(/\{ path: '([^']+)'/g)].map((match) => match[1])
      expect(every.length).toBeGreaterThan(10)
      // pages of one thing (a run, a payslip) are reached from their lists, not the menu: axe judges them in their own flow
      const inTheirFlow: Record<string, string> = {
        '/admin/payroll/runs/:id': 'test/console-payroll.test.ts (the approved run page)',
        '/me/payslips/:month': 'test/console-payroll.test.ts (the payslip on a phone)',
        '/me/payslips/tax-summary': 'test/console-payroll-tax.test.ts (the employee’s tax summary, in English and Chinese)',
      }
      expect(every.filter((path) => !covered.has(path) && !(path in inTheirFlow))).toEqual([])
      console.log(`axe checked ${visited.length} pages: ${visited.join(', ')}`)
      expect(foreign).toEqual([])
      expect(problems).toEqual([])
    },
    300_000,
  )
})
