import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import type { Browser, BrowserContext } from 'playwright-core'
import { en } from '../src/console/i18n/en'
import {
  ALL_DAY,
  describeViolations,
  foreignRequests,
  launchBrowser,
  newContext,
  seriousViolations,
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
import { tempDir } from './helpers'
import { makeCertificate, TEST_HOST } from './tls-certificates'

/*
 * Clock-in with a position on a phone needs a secure page (CONTRACT §23, issue 26). Chromium on a
 * phone-sized touch screen opens the console under a host name of the network (not localhost, which
 * browsers count as secure even over http), mapped to 127.0.0.1: over HTTPS (the service serving a
 * certificate the test made for that name) it gets the position and clocks in; over plain HTTP it
 * says to open the https address and what to tell the administrator, and sends nothing.
 */

const ZONE = 'Asia/Shanghai'
const OFFICE = { latitude: 31.2304, longitude: 121.4737 }
/** about 15 m from the office */
const INSIDE = { latitude: 31.2305, longitude: 121.4738, accuracy: 12 }
const PASSWORD = 'ann-password-1'
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }

let dir = ''
let secure: Service
let plain: Service
let browser: Browser
const contexts: BrowserContext[] = []

/** Ann, in a group whose rule needs a position within 200 m of the office, every day all day. */
async function officeWithGeofence(service: Service): Promise<void> {
  const company = await service.api('POST', '/admin/companies', { name: 'Acme', timezone: ZONE })
  const group = await service.api('POST', '/admin/attendance/groups', { name: 'Office', company_id: company.id, timezone: ZONE })
  await service.api('POST', '/admin/attendance/rules', {
    name: 'Office hours',
    group_id: group.id,
    ...ALL_DAY,
    location_required: true,
    allowed_latitude: OFFICE.latitude,
    allowed_longitude: OFFICE.longitude,
    location_radius: 200,
  })
  const ann = await service.api('POST', '/admin/employees', { name: 'Ann Lee', company_id: company.id, username: 'ann', password: PASSWORD })
  await service.api('POST', `/admin/attendance/groups/${group.id}/employees`, { employee_ids: [ann.id] })
}

/** The console as a phone on the network opens it: the test's host name, on the service's port. */
const origin = (service: Service) => `${new URL(service.base).protocol}//${TEST_HOST}:${service.server.port}`

/** A phone at the office that allows this site its position (Chromium lets only a secure origin have it). */
async function phonePage(at: string) {
  // the certificate is the test's own: Chromium is told to accept it, and the page stays a secure context
  const context = await newContext(browser, { ...PHONE, ignoreHTTPSErrors: true })
  contexts.push(context)
  // Chromium grants it to a secure origin only (on http it refuses, as a phone would never ask)
  if (at.startsWith('https:')) await context.grantPermissions(['geolocation'], { origin: at })
  await context.setGeolocation(INSIDE)
  const page = await context.newPage()
  page.setDefaultTimeout(WAIT)
  return { page, requests: watchRequests(page), errors: watchErrors(page) }
}

/** Whether the page is a secure context, and its host: run in the page (its globals typed here without the DOM library). */
const securityOfPage = () => {
  const page = globalThis as unknown as { isSecureContext: boolean; location: { host: string } }
  return [page.isSecureContext, page.location.host] as const
}

const clockRequests = (api: { method: string; path: string }[]) => api.filter((request) => request.method !== 'GET' && /clock-(in|out)$/.test(request.path))

async function todayOfAnn(service: Service) {
  const token = (await tokensOf(service.base, 'ann', PASSWORD)).access_token
  return service.api('GET', '/attendance/today', undefined, { token })
}

beforeAll(async () => {
  if (skipBrowser) return
  dir = tempDir('workforce-https-')
  const certificate = makeCertificate(dir, 'hr')
  // long-lived access tokens: a slow run must not see a token expire between steps
  ;[secure, plain] = await Promise.all([
    startService({ ACCESS_TOKEN_TTL: '86400', TLS_CERT_FILE: certificate.certFile, TLS_KEY_FILE: certificate.keyFile }),
    startService({ ACCESS_TOKEN_TTL: '86400' }),
  ])
  await Promise.all([officeWithGeofence(secure), officeWithGeofence(plain)])
  browser = await launchBrowser([`--host-resolver-rules=MAP ${TEST_HOST} 127.0.0.1`])
}, 120_000)

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => {})
  await browser?.close().catch(() => {})
  await Promise.all([secure?.stop(), plain?.stop()])
  if (dir) rmSync(dir, { recursive: true, force: true })
})

describe('clock-in with a position on a phone', () => {
  if (skipBrowser) {
    test.skip(`over https and over plain http (${SKIP_REASON})`, () => {})
    return
  }

  test(
    'over HTTPS on a host name of the network: the phone gets a position and clocks in',
    async () => {
      const at = origin(secure)
      expect(at).toStartWith('https://')
      const { page, requests, errors } = await phonePage(at)
      await signInThroughPage(page, at, 'ann', PASSWORD)
      expect(await page.evaluate(securityOfPage)).toEqual([true, `${TEST_HOST}:${secure.server.port}`])
      await page.getByRole('button', { name: 'Clock in' }).waitFor()
      expect(await page.getByText(en.common.today.httpsTitle).count()).toBe(0)

      const [clockedIn] = await Promise.all([
        page.waitForResponse((response) => response.url().endsWith('/api/v1/attendance/clock-in')),
        page.getByRole('button', { name: 'Clock in' }).click(),
      ])
      expect(clockedIn.status()).toBe(200)
      expect(clockedIn.request().postDataJSON()).toEqual({ latitude: INSIDE.latitude, longitude: INSIDE.longitude })
      await page.getByText('Position found, accurate to 12 m').waitFor()
      await page.getByText(/^Clocked in at \d/).waitFor()
      expect(await page.getByRole('alert').count()).toBe(0)

      const today = await todayOfAnn(secure)
      expect(today.clock_in_time).not.toBeNull()
      expect(clockRequests(requests.api)).toEqual([{ method: 'POST', path: '/api/v1/attendance/clock-in' }])
      expect(foreignRequests(requests.urls, at)).toEqual([])
      expect(errors).toEqual([])
    },
    90_000,
  )

  test(
    'over plain HTTP on that host name: the page says to open the https address and what to tell the administrator, and sends nothing',
    async () => {
      const at = origin(plain)
      expect(at).toStartWith('http://')
      const { page, requests, errors } = await phonePage(at)
      await signInThroughPage(page, at, 'ann', PASSWORD)
      expect(await page.evaluate(securityOfPage)).toEqual([false, `${TEST_HOST}:${plain.server.port}`])
      const button = page.getByRole('button', { name: 'Clock in' })
      await button.waitFor()

      const alert = page.getByRole('alert').filter({ hasText: en.common.today.httpsTitle })
      await alert.waitFor()
      const address = `https://${TEST_HOST}:${plain.server.port}`
      expect(await alert.innerText()).toContain(en.common.today.httpsOpen(address))
      expect(await alert.innerText()).toContain(en.common.today.httpsAdministrator)
      // the address is a link to the same page over https
      expect(await alert.getByRole('link', { name: address }).getAttribute('href')).toBe(address)
      expect(describeViolations('/ over http', await seriousViolations(page))).toEqual([])
      expect(await page.getByText(en.common.today.needsPosition).count()).toBe(0)

      // a tap asks for nothing and sends nothing: no position can come to this page
      await button.click()
      await page.waitForTimeout(1500)
      expect(await page.getByText(en.common.today.locating).count()).toBe(0)
      expect(await page.getByText(en.common.today.positionDenied).count()).toBe(0)
      expect(clockRequests(requests.api)).toEqual([])
      expect((await todayOfAnn(plain))?.clock_in_time ?? null).toBeNull()
      expect(foreignRequests(requests.urls, at)).toEqual([])
      expect(errors).toEqual([])
    },
    90_000,
  )
})
