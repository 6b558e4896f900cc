/**
 * Shared pieces of the web console's browser tests, budget test and scripts (issue 16): Debian's
 * Chromium driven by playwright-core, a server process with its own database, the API calls that set
 * up what a flow needs but does not exercise, the request watcher (no host but the service) and axe.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core'
import { ADMIN_PASSWORD, tempDir } from './helpers'
import { call, startServer, type ServerProcess } from './server-process'

export const CHROMIUM = '/usr/bin/chromium'
export const chromiumPresent = existsSync(CHROMIUM)
export const inCi = process.env.CI === 'true'
/** Skipped only on a machine without /usr/bin/chromium that is not CI; with CI=true a missing browser fails (.ci/run installs it). */
export const skipBrowser = !chromiumPresent && !inCi
export const SKIP_REASON = `skipped: ${CHROMIUM} is absent; apt-get install chromium, or set CI=true to make this a failure`

export const ROOT = join(import.meta.dir, '..')
export const DIST = join(ROOT, 'src', 'console', 'dist')

/** Waits for pages and answers: long, since the machine running the tests may be busy with other work. */
export const WAIT = 20_000

/** `args`: more command line switches, e.g. `--host-resolver-rules=MAP hr.example.test 127.0.0.1` for a host name of the tests. */
export async function launchBrowser(args: string[] = []): Promise<Browser> {
  if (!chromiumPresent) throw new Error(`${CHROMIUM} is missing: .ci/run installs it with apt-get install -y chromium`)
  return chromium.launch({
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
      '--disable-dev-shm-usage',
      ...args,
    ],
  })
}

/** A fresh browser context (a cold cache, no storage) speaking US English. */
export function newContext(browser: Browser, options: Parameters<Browser['newContext']>[0] = {}): Promise<BrowserContext> {
  return browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 900 }, ...options })
}

// ---------------------------------------------------------------- the server and the API

export interface Service {
  server: ServerProcess
  base: string
  dir: string
  admin: string
  /** a JSON call with the administrator's token (or `token`); throws unless the status is 2xx (or `expected`); gives `data` */
  api<T = any>(method: string, path: string, body?: unknown, options?: { token?: string; expected?: number }): Promise<T>
  stop(): Promise<void>
}

export async function startService(env: Record<string, string> = {}): Promise<Service> {
  const dir = tempDir('workforce-console-')
  const server = await startServer({
    DATABASE_URL: `file:${join(dir, 'workforce.db')}`,
    STORAGE_URL: `file:${join(dir, 'files')}`,
    ADMIN_PASSWORD,
    ...env,
  })
  const base = server.base
  const login = await call(base, 'POST', '/api/v1/auth/login', { body: { username: 'admin', password: ADMIN_PASSWORD } })
  if (login.status !== 200) throw new Error(`the administrator could not sign in: ${JSON.stringify(login.body)}`)
  let admin = login.body.data.access_token as string
  return {
    server,
    base,
    dir,
    get admin() {
      return admin
    },
    async api(method, path, body, options = {}) {
      let reply = await call(base, method, `/api/v1${path}`, { token: options.token ?? admin, body })
      if (reply.status === 401 && options.token === undefined) {
        // a flow signed the administrator out through the console (which ends every session of theirs): sign in again
        admin = (await tokensOf(base, 'admin', ADMIN_PASSWORD)).access_token
        reply = await call(base, method, `/api/v1${path}`, { token: admin, body })
      }
      const ok = options.expected === undefined ? reply.status >= 200 && reply.status < 300 : reply.status === options.expected
      if (!ok) throw new Error(`${method} ${path} answered ${reply.status}: ${JSON.stringify(reply.body)}`)
      return reply.body?.data
    },
    async stop() {
      await server.stop()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

export interface Tokens {
  access_token: string
  refresh_token: string
}

export async function tokensOf(base: string, username: string, password: string): Promise<Tokens> {
  const reply = await call(base, 'POST', '/api/v1/auth/login', { body: { username, password } })
  if (reply.status !== 200) throw new Error(`sign-in of ${username} failed: ${JSON.stringify(reply.body)}`)
  return { access_token: reply.body.data.access_token, refresh_token: reply.body.data.refresh_token }
}

/** The session the console keeps (src/console/session.ts), put in before any script of the page runs. */
export async function putSession(context: BrowserContext, tokens: Tokens): Promise<void> {
  await context.addInitScript((value) => {
    if (!sessionStorage.getItem('workforce.test.session-put')) {
      localStorage.setItem('workforce.session', value)
      sessionStorage.setItem('workforce.test.session-put', '1')
    }
  }, JSON.stringify({ access_token: tokens.access_token, refresh_token: tokens.refresh_token }))
}

/** YYYY-MM-DD in `zone`, `days` from today. */
export function dateIn(zone: string, days = 0): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date())
  return new Date(Date.parse(`${parts}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)
}

/** Every day of the week, from 00:00 to 23:59: whatever the hour of the run, today is a work day under it. */
export const ALL_DAY = { work_start_time: '00:00', work_end_time: '23:59', required_work_hours: 0, work_days: '1,2,3,4,5,6,7' }

// ---------------------------------------------------------------- pages

/** Asks `probe` again until it gives a truthy value or `timeout` passes (then throws with `what`). */
export async function eventually<T>(what: string, probe: () => Promise<T> | T, timeout = WAIT): Promise<T> {
  const deadline = Date.now() + timeout
  let last: unknown
  for (;;) {
    try {
      const value = await probe()
      if (value) return value
      last = value
    } catch (error) {
      last = error
    }
    if (Date.now() > deadline) throw new Error(`${what}: not so after ${timeout} ms (last: ${last instanceof Error ? last.message : String(last)})`)
    await Bun.sleep(100)
  }
}

/** Every URL the page asks for (documents, scripts, API calls), to check no host but the service is contacted. */
export function watchRequests(page: Page): { urls: string[]; api: { method: string; path: string }[] } {
  const seen = { urls: [] as string[], api: [] as { method: string; path: string }[] }
  page.on('request', (request) => {
    seen.urls.push(request.url())
    const url = new URL(request.url())
    if (url.pathname.startsWith('/api/')) seen.api.push({ method: request.method(), path: url.pathname })
  })
  return seen
}

/** The URLs among `urls` on any origin but the service's (data: and blob: URLs name no host). */
export function foreignRequests(urls: string[], base: string): string[] {
  const origin = new URL(base).origin
  return urls.filter((url) => !url.startsWith('data:') && !url.startsWith('blob:') && new URL(url).origin !== origin)
}

/** Page errors and console errors, which a flow should end without. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(`page error: ${error.message}`))
  page.on('console', (message) => {
    // a refused API call shows as a failed resource load in the console: the page shows it itself
    if (message.type() === 'error' && !/Failed to load resource/.test(message.text())) errors.push(`console: ${message.text()}`)
  })
  return errors
}

/** Signs in through the sign-in page and waits for the shell. */
export async function signInThroughPage(page: Page, base: string, username: string, password: string): Promise<void> {
  await page.goto(`${base}/`)
  await page.getByRole('textbox', { name: 'Username' }).fill(username)
  await page.getByRole('textbox', { name: 'Password' }).fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.getByRole('button', { name: 'Sign out' }).waitFor({ timeout: WAIT })
}

/** Picks `option` in the select labelled `label` (Mantine's combobox, or a native select). */
export async function choose(scope: Page | Locator, label: string, option: string): Promise<void> {
  const page = 'page' in scope && typeof scope.page === 'function' ? (scope as Locator).page() : (scope as Page)
  const field = scope.getByRole('combobox', { name: label, exact: true }).or(scope.getByRole('textbox', { name: label, exact: true })).first()
  if ((await field.evaluate((element) => element.tagName)) === 'SELECT') {
    await field.selectOption({ label: option })
    return
  }
  // already chosen (a form may choose the only company itself): clicking the option again would clear it
  if ((await field.inputValue()) === option) return
  await field.click()
  // a searchable select lists what matches the typed text (long lists show only some options)
  if ((await field.getAttribute('readonly')) === null) await field.fill(option)
  await page.getByRole('option', { name: option, exact: true }).first().click()
  if ((await field.inputValue()) !== option) throw new Error(`"${label}" shows ${JSON.stringify(await field.inputValue())} after choosing ${JSON.stringify(option)}`)
}

/** Types a date into a typeable date field (Mantine DateInput, valueFormat YYYY-MM-DD) and leaves it. */
export async function typeDate(scope: Page | Locator, label: string, date: string): Promise<void> {
  const field = scope.getByRole('textbox', { name: label, exact: true })
  await field.click()
  await field.fill(date)
  await field.press('Enter')
  await field.blur()
}

// ---------------------------------------------------------------- axe

const require = createRequire(import.meta.url)
let axeSource: string | undefined
/** axe-core's source, to inject into pages (the page's CSP allows no inline script, so it goes in through the protocol). */
export function axeScript(): string {
  axeSource ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8')
  return axeSource
}

export interface AxeViolation {
  id: string
  impact: string | null
  help: string
  helpUrl: string
  nodes: { target: unknown[]; failureSummary?: string; html: string }[]
}

/** Runs axe on the page as it is now; returns the serious and critical violations. */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  // through the protocol, not a script tag: the console's CSP (script-src 'self') refuses inline scripts
  const loaded = await page.evaluate(() => typeof (globalThis as unknown as { axe?: unknown }).axe !== 'undefined')
  if (!loaded) await page.evaluate(axeScript())
  const violations = (await page.evaluate(async () => {
    // in the page: its globals, typed here without the DOM library
    const page = globalThis as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<{ violations: unknown[] }> }; document: unknown }
    const result = await page.axe.run(page.document, { resultTypes: ['violations'] })
    return result.violations
  })) as AxeViolation[]
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
}

export function describeViolations(where: string, violations: AxeViolation[]): string[] {
  return violations.map(
    (violation) =>
      `${where}: ${violation.id} (${violation.impact}) ${violation.help} — ${violation.nodes
        .slice(0, 5)
        .map((node) => `${JSON.stringify(node.target)} ${node.html.slice(0, 160)}${node.failureSummary ? ` [${node.failureSummary.replace(/\s+/g, ' ').slice(0, 200)}]` : ''}`)
        .join(' | ')}${violation.nodes.length > 5 ? ` and ${violation.nodes.length - 5} more` : ''}`,
  )
}

// ---------------------------------------------------------------- the built console

export interface BuildInfo {
  builtAt: number
  files: { path: string; kind: string; bytes: number; gzipBytes: number }[]
}

export function buildInfo(): BuildInfo {
  return JSON.parse(readFileSync(join(DIST, 'build-info.json'), 'utf8'))
}

/** gzip bytes of each built file by its URL path (`/assets/x.js`, `/index.html`). */
export function gzipByUrlPath(): Map<string, number> {
  return new Map(buildInfo().files.map((file) => [`/${file.path}`, file.gzipBytes]))
}

// ---------------------------------------------------------------- the employee's first page, measured

/**
 * Lighthouse's "fast 3G" (its mobile throttling preset): 150 ms round trip, 1.6 Mbps down,
 * 750 Kbps up; with 4× CPU slowdown, what the budget of issue 16 is measured under.
 */
export const FAST_3G = { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 }
export const CPU_SLOWDOWN = 4

export interface FirstPage {
  /** ms from the start of the navigation to the moment the "Clock in" button is in the page and laid out (the page's own clock) */
  clockInMs: number
  /** the same, as the test saw it: from just before page.goto to the visible button */
  observedMs: number
  /** gzip bytes (dist/build-info.json) of every script loaded until then, by URL path */
  scripts: { path: string; gzipBytes: number }[]
  jsGzipBytes: number
  /** every URL the page asked for until then */
  urls: string[]
}

/**
 * One cold load of the employee's first page (a new context: empty cache), signed in (the token
 * pair in localStorage, as a browser that signed in before keeps it), throttled or not.
 */
export async function measureFirstPage(browser: Browser, base: string, tokens: Tokens, options: { throttle: boolean; viewport?: { width: number; height: number } }): Promise<FirstPage> {
  const context = await newContext(browser, { viewport: options.viewport ?? { width: 390, height: 844 }, isMobile: true, hasTouch: true })
  try {
    await putSession(context, tokens)
    // the first frame the button is on screen, by the page's own clock (performance.now() counts from the navigation's start)
    await context.addInitScript(() => {
      // in the page: its globals, typed here without the DOM library
      interface Button {
        textContent: string | null
        getClientRects(): { length: number }
      }
      const w = globalThis as unknown as {
        __clockInVisibleAt?: number
        document: { querySelectorAll(selector: string): Iterable<Button> }
        MutationObserver: new (callback: () => void) => { observe(target: unknown, options: unknown): void; disconnect(): void }
      }
      const check = () => {
        if (w.__clockInVisibleAt !== undefined) return
        for (const button of Array.from(w.document.querySelectorAll('button'))) {
          if (button.textContent?.trim() === 'Clock in' && button.getClientRects().length > 0) {
            w.__clockInVisibleAt = performance.now()
            observer.disconnect()
            return
          }
        }
      }
      const observer = new w.MutationObserver(check)
      observer.observe(w.document, { childList: true, subtree: true, characterData: true })
    })
    const page = await context.newPage()
    const urls: string[] = []
    const scriptPaths: string[] = []
    page.on('request', (request) => {
      urls.push(request.url())
      const url = new URL(request.url())
      if (url.pathname.endsWith('.js')) scriptPaths.push(url.pathname)
    })
    if (options.throttle) {
      const cdp = await context.newCDPSession(page)
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN })
      await cdp.send('Network.enable')
      await cdp.send('Network.emulateNetworkConditions', FAST_3G)
    }
    const started = performance.now()
    await page.goto(`${base}/`, { waitUntil: 'commit', timeout: 60_000 })
    await page.getByRole('button', { name: 'Clock in' }).waitFor({ timeout: 60_000 })
    const observedMs = performance.now() - started
    const seenAt = await page.evaluate(() => (globalThis as unknown as { __clockInVisibleAt?: number }).__clockInVisibleAt)
    const loadedUrls = [...urls]
    const sizes = gzipByUrlPath()
    const scripts = [...new Set(scriptPaths)].map((path) => {
      const gzipBytes = sizes.get(path)
      if (gzipBytes === undefined) throw new Error(`${path} is not in dist/build-info.json: was the console rebuilt while the server ran?`)
      return { path, gzipBytes }
    })
    return {
      clockInMs: seenAt ?? observedMs,
      observedMs,
      scripts,
      jsGzipBytes: scripts.reduce((sum, script) => sum + script.gzipBytes, 0),
      urls: loadedUrls,
    }
  } finally {
    await context.close()
  }
}

/** An employee who can clock in right away (a rule of every day, no area), signed in through the API. */
export async function employeeReady(service: Service, username = 'ann', password = 'ann-password-1'): Promise<Tokens> {
  const company = await service.api('POST', '/admin/companies', { name: `Acme ${username}`, timezone: 'Asia/Shanghai' })
  const group = await service.api('POST', '/admin/attendance/groups', { name: `Office ${username}`, company_id: company.id })
  await service.api('POST', '/admin/attendance/rules', { name: 'Office hours', group_id: group.id, ...ALL_DAY })
  const employee = await service.api('POST', '/admin/employees', { name: 'Ann Lee', company_id: company.id, username, password })
  await service.api('POST', `/admin/attendance/groups/${group.id}/employees`, { employee_ids: [employee.id] })
  return tokensOf(service.base, username, password)
}
