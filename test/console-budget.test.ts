import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Browser } from 'playwright-core'
import {
  employeeReady,
  foreignRequests,
  launchBrowser,
  measureFirstPage,
  skipBrowser,
  SKIP_REASON,
  startService,
  type Service,
  type Tokens,
} from './console-harness'

/*
 * The byte budget of issue 16 for the employee's first page, measured in Chromium: the JavaScript
 * it loads until the "Clock in" button shows (≤ 150 KB gzipped, sizes from dist/build-info.json),
 * and no request to another host. The time budget (the button within 1.5 s with 4× CPU slowdown and
 * fast 3G) is a benchmark, not a timed test: bench/console.ts measures it on cold loads and writes
 * the figure to bench/RESULTS.md.
 */

const JS_BUDGET = 150 * 1024

let service: Service
let browser: Browser
let tokens: Tokens

beforeAll(async () => {
  if (skipBrowser) return
  service = await startService({ ACCESS_TOKEN_TTL: '86400' })
  browser = await launchBrowser()
  tokens = await employeeReady(service)
}, 120_000)

afterAll(async () => {
  await browser?.close().catch(() => {})
  await service?.stop()
})

describe('the employee’s first page: budgets', () => {
  if (skipBrowser) {
    test.skip(`JavaScript and time to the clock-in button (${SKIP_REASON})`, () => {})
    return
  }

  test(
    `the JavaScript loaded until "Clock in" shows is ≤ 150 KB gzipped; only the service is contacted`,
    async () => {
      const load = await measureFirstPage(browser, service.base, tokens, { throttle: false })
      console.log(
        `employee's first page: ${(load.jsGzipBytes / 1024).toFixed(1)} KB of JavaScript gzipped in ${load.scripts.length} files (${load.scripts
          .map((script) => `${script.path} ${(script.gzipBytes / 1024).toFixed(1)} KB`)
          .join(', ')}); "Clock in" at ${Math.round(load.clockInMs)} ms unthrottled`,
      )
      expect(load.scripts.length).toBeGreaterThan(0)
      expect(load.jsGzipBytes).toBeLessThanOrEqual(JS_BUDGET)
      expect(foreignRequests(load.urls, service.base)).toEqual([])
    },
    120_000,
  )
})
