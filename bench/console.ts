/**
 * The web console's budgets (issue 16), measured in Debian's Chromium (playwright-core): the
 * JavaScript the employee's first page loads until its "Clock in" button shows (gzip sizes from
 * src/console/dist/build-info.json), all of the console's JavaScript, and the time from the
 * navigation's start to that button with 4× CPU slowdown and Lighthouse's "fast 3G" (150 ms round
 * trip, 1.6 Mbps down, 750 Kbps up) set through the DevTools protocol, each load from a cold cache
 * (a new browser context), signed in; the median of five loads. Prints a markdown section.
 *
 *   bun bench/console.ts            print the section
 *   bun bench/console.ts --write    also put it in bench/RESULTS.md as its "## Web console" section
 *                                   (replacing that section, or before "## Every figure"; nothing else changes)
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { join } from 'node:path'
import {
  buildInfo,
  CPU_SLOWDOWN,
  employeeReady,
  FAST_3G,
  foreignRequests,
  launchBrowser,
  measureFirstPage,
  ROOT,
  startService,
  type FirstPage,
} from '../test/console-harness'
import { withSection } from './lib/sections'

const LOADS = 5
const JS_BUDGET_KB = 150
const TIME_BUDGET_MS = 1500
const RESULTS = join(ROOT, 'bench', 'RESULTS.md')
const HEADING = '## Web console'

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
const kb = (bytes: number) => (bytes / 1024).toFixed(1)

const service = await startService({ ACCESS_TOKEN_TTL: '86400' })
const browser = await launchBrowser()
let section: string
try {
  const tokens = await employeeReady(service)
  // unmeasured: the server reads each asset from disk on its first request
  const first = await measureFirstPage(browser, service.base, tokens, { throttle: false })
  const loads: FirstPage[] = []
  for (let i = 0; i < LOADS; i++) loads.push(await measureFirstPage(browser, service.base, tokens, { throttle: true }))

  const times = loads.map((load) => Math.round(load.clockInMs))
  const foreign = [...first.urls, ...loads.flatMap((load) => load.urls)]
  const hosts = [...new Set(foreign.filter((url) => !url.startsWith('data:') && !url.startsWith('blob:')).map((url) => new URL(url).host))]
  const others = foreignRequests(foreign, service.base)
  const info = buildInfo()
  const allJs = info.files.filter((file) => file.path.endsWith('.js'))
  const allCss = info.files.filter((file) => file.path.endsWith('.css'))
  const firstCss = first.urls.filter((url) => new URL(url).pathname.endsWith('.css')).map((url) => new URL(url).pathname)
  const cssBytes = info.files.filter((file) => firstCss.includes(`/${file.path}`)).reduce((sum, file) => sum + file.gzipBytes, 0)
  const jsHolds = first.jsGzipBytes <= JS_BUDGET_KB * 1024
  const timeHolds = median(times) <= TIME_BUDGET_MS
  const verdict = (holds: boolean) => (holds ? 'holds' : '**misses**')

  section = `${HEADING}

- Date: ${new Date().toISOString()}; ${cpus().length} × ${cpus()[0]?.model.trim() ?? 'CPU'}, Bun ${Bun.version}, ${(await browser.version()) || 'Chromium'} (Debian's /usr/bin/chromium, headless, through playwright-core)
- Measured by \`bun bench/console.ts\` (the byte budget also by test/console-budget.test.ts): a signed-in employee (the token pair in localStorage, as a browser keeps it after signing in) opens \`/\` in a new browser context (a cold cache) on a 390 × 844 viewport; the time runs from the navigation's start to the moment the "Clock in" button is in the page and laid out (a MutationObserver in the page, by the page's own clock). Throttling through the DevTools protocol: \`Emulation.setCPUThrottlingRate\` ${CPU_SLOWDOWN}× and \`Network.emulateNetworkConditions\` with Lighthouse's "fast 3G" (${FAST_3G.latency} ms round trip, 1.6 Mbps down, 750 Kbps up). JavaScript sizes are the gzip sizes of src/console/dist/build-info.json for each script the page loaded until then (the service sends Brotli when the browser accepts it, which is smaller).

| budget | measured | target | |
|---|---|---|---|
| JavaScript of the employee's first page, gzipped | ${kb(first.jsGzipBytes)} KB in ${first.scripts.length} file${first.scripts.length === 1 ? '' : 's'} (${first.scripts.map((script) => `\`${script.path}\` ${kb(script.gzipBytes)} KB`).join(', ')}); its CSS ${kb(cssBytes)} KB | ≤ ${JS_BUDGET_KB} KB | ${verdict(jsHolds)} |
| "Clock in" visible, ${CPU_SLOWDOWN}× CPU + fast 3G, cold cache | median ${median(times)} ms, max ${Math.max(...times)} ms (${LOADS} loads: ${times.join(', ')} ms); unthrottled ${Math.round(first.clockInMs)} ms | ≤ ${TIME_BUDGET_MS} ms | ${verdict(timeHolds)} |
| Hosts contacted | ${hosts.map((host) => `\`${host}\``).join(', ')} (the service only)${others.length ? `; others: ${others.join(', ')}` : ''} | the service only | ${verdict(others.length === 0)} |
| All of the console's JavaScript, gzipped | ${kb(allJs.reduce((sum, file) => sum + file.gzipBytes, 0))} KB in ${allJs.length} files (CSS ${kb(allCss.reduce((sum, file) => sum + file.gzipBytes, 0))} KB); pages load in chunks when first opened | reported | — |
`
} finally {
  await browser.close().catch(() => {})
  await service.stop()
}

console.log(section)

if (process.argv.includes('--write')) {
  writeFileSync(RESULTS, withSection(readFileSync(RESULTS, 'utf8'), HEADING, section))
  console.error(`wrote the "${HEADING}" section of ${RESULTS}`)
}
