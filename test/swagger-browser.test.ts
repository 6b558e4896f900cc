import { afterAll, describe, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type BrowserContext } from 'playwright-core'
import { ADMIN_PASSWORD, tempDir } from './helpers'
import { call, signIn, startServer, type ServerProcess } from './server-process'

/**
 * The docs page in a real browser: Debian's chromium, driven by playwright-core (the `playwright`
 * package would download its own browsers, which cannot work here). Skipped only on a machine without
 * /usr/bin/chromium that is not CI; with CI=true a missing browser fails, since .ci/run installs it.
 */
const CHROMIUM = '/usr/bin/chromium'
const SCREENSHOT = join(tmpdir(), 'workforce-swagger-browser.png')
const present = existsSync(CHROMIUM)
const inCi = process.env.CI === 'true'

const dirs: string[] = []
let server: ServerProcess | undefined
let context: BrowserContext | undefined
afterAll(async () => {
  await context?.close()
  await server?.stop()
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

const title = 'the docs page in Chromium: Authorize with a token, "Try it out" on the department list with its defaults → 200 and the rows'

describe('/swagger in a browser', () => {
  if (!present && !inCi) {
    test.skip(`${title} (skipped: ${CHROMIUM} is absent; apt-get install chromium, or set CI=true to make this a failure)`, () => {})
    return
  }

  test(
    title,
    async () => {
      if (!present) throw new Error(`${CHROMIUM} is missing: .ci/run installs it with apt-get install -y chromium`)
      const dir = tempDir()
      dirs.push(dir)
      // a port chosen at start and no PUBLIC_URL: "Try it out" still sends to where the page was opened
      server = await startServer({
        PORT: '0',
        DATABASE_URL: `file:${join(dir, 'workforce.db')}`,
        STORAGE_URL: `file:${join(dir, 'files')}`,
        ADMIN_PASSWORD,
      })
      const token = await signIn(server.base, 'admin', ADMIN_PASSWORD)
      for (const name of ['Browser Test Engineering', 'Browser Test Finance'])
        expect((await call(server.base, 'POST', '/api/v1/admin/departments', { token, body: { name } })).status).toBe(201)

      const profile = mkdtempSync(join(tmpdir(), 'workforce-chromium-'))
      dirs.push(profile)
      context = await chromium.launchPersistentContext(profile, {
        executablePath: CHROMIUM,
        headless: true,
        args: [
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
        viewport: { width: 1280, height: 1000 },
      })
      const page = context.pages()[0] ?? (await context.newPage())
      const failures: string[] = []
      page.on('pageerror', (error) => failures.push(`page error: ${error.message}`))
      page.on('console', (message) => {
        if (message.type() === 'error') failures.push(`console: ${message.text()}`)
      })
      const encodings = new Map<string, string | null>()
      page.on('response', (response) => {
        const url = new URL(response.url())
        encodings.set(url.pathname, response.headers()['content-encoding'] ?? null)
      })

      // `/` is the web console now; the docs page is at /swagger
      await page.goto(`${server.base}/swagger`)
      expect(new URL(page.url()).pathname).toBe('/swagger')
      await page.locator('.swagger-ui .info .title').waitFor({ timeout: 15_000 })
      expect(await page.title()).toBe('Workforce API')

      // Authorize: the bearer scheme's value field, then close the dialog
      await page.locator('.auth-wrapper button.authorize').click()
      const dialog = page.locator('.dialog-ux .modal-ux')
      await dialog.locator('input[type="text"], input[type="password"]').first().fill(token)
      await dialog.locator('.auth-btn-wrapper button.authorize').click()
      await dialog.locator('.auth-btn-wrapper button', { hasText: 'Close' }).click()

      // the department list, with the defaults the page fills in; the tags start closed: open Departments
      await page.locator('.opblock-tag[data-tag="Departments"]').click()
      const operation = page.locator('.opblock.opblock-get', {
        has: page.locator('.opblock-summary-path[data-path="/api/v1/admin/departments"]'),
      })
      await operation.locator('.opblock-summary').click()
      await operation.locator('button.try-out__btn').click()
      await operation.locator('button.execute').click()

      const live = operation.locator('.live-responses-table .response').first()
      await live.waitFor({ timeout: 10_000 })
      expect((await live.locator('.response-col_status').innerText()).trim()).toBe('200')
      const shown = await live.locator('.response-col_description pre').first().innerText()
      expect(shown).toContain('Browser Test Engineering')
      expect(shown).toContain('Browser Test Finance')
      // the request the page sent carried the token
      expect(await operation.locator('.curl-command, .curl').first().innerText()).toContain('Authorization: Bearer')

      await live.scrollIntoViewIfNeeded()
      await page.screenshot({ path: SCREENSHOT })
      expect(failures).toEqual([])
      // the browser got the big pieces compressed
      expect(['br', 'gzip']).toContain(String(encodings.get('/swagger/assets/swagger-ui-bundle.js')))
      expect(['br', 'gzip']).toContain(String(encodings.get('/swagger/json')))
    },
    60_000,
  )
})
