/**
 * Screenshots of the web console for the README (issue 16): a server process with demo data made
 * through the API (a company, departments, employees with Chinese and English names, a rule, a group,
 * clock records, a leave request), Debian's Chromium through playwright-core, English.
 *
 *   bun bench/screenshots.ts
 *
 * Writes src/console/screenshots/: employee.png (the employee's today page, 390 × 844), and at
 * 1280 × 800 admin-employees.png, admin-roles.png and admin-records.png (the audit log,
 * admin-audit.png, when the records page cannot be shown). PNGs are reduced to 256 colours with
 * ImageMagick when `convert` is installed, to keep what is committed small.
 */
import { mkdirSync, renameSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { ALL_DAY, dateIn, launchBrowser, newContext, putSession, ROOT, startService, tokensOf, type Service, type Tokens } from '../test/console-harness'
import { ADMIN_PASSWORD } from '../test/helpers'

const OUT = join(ROOT, 'src', 'console', 'screenshots')
const ZONE = 'Asia/Shanghai'
const OFFICE = { latitude: 31.2304, longitude: 121.4737 }

const PEOPLE = [
  { name: '王芳', username: 'wangfang', department: 0, position: '工程师' },
  { name: 'Alice Smith', username: 'alice', department: 0, position: 'Software engineer' },
  { name: '李伟', username: 'liwei', department: 1, position: '会计' },
  { name: 'Tom Brown', username: 'tom', department: 1, position: 'Controller' },
  { name: '张伟', username: 'zhangwei', department: 2, position: '销售经理' },
  { name: 'Maria García', username: 'maria', department: 2, position: 'Account manager' },
]
const password = (username: string) => `${username}-password-1`

async function demoData(service: Service): Promise<Record<string, Tokens>> {
  const api = service.api
  const company = await api('POST', '/admin/companies', { name: 'Acme 上海', timezone: ZONE })
  const departments = []
  for (const name of ['研发部 Engineering', '财务部 Finance', '销售部 Sales']) departments.push(await api('POST', '/admin/departments', { name }))
  const group = await api('POST', '/admin/attendance/groups', { name: '上海办公室 Shanghai office', company_id: company.id, timezone: ZONE })
  await api('POST', '/admin/attendance/rules', {
    name: 'Office hours',
    group_id: group.id,
    ...ALL_DAY,
    work_start_time: '09:00',
    work_end_time: '18:00',
    break_start_time: '12:00',
    break_end_time: '13:00',
    required_work_hours: 8,
    location_required: true,
    allowed_latitude: OFFICE.latitude,
    allowed_longitude: OFFICE.longitude,
    location_radius: 300,
  })
  const ids: number[] = []
  for (const [index, person] of PEOPLE.entries()) {
    const employee = await api('POST', '/admin/employees', {
      name: person.name,
      employee_no: `E${String(index + 1).padStart(4, '0')}`,
      company_id: company.id,
      department_id: departments[person.department].id,
      position: person.position,
      hire_date: '2024-03-01',
      username: person.username,
      password: password(person.username),
    })
    ids.push(employee.id)
  }
  await api('POST', `/admin/attendance/groups/${group.id}/employees`, { employee_ids: ids })
  await api('PUT', `/admin/attendance/groups/${group.id}`, { manager_id: ids[0] })
  const leaveType = await api('POST', '/admin/leave/types', { name: 'Annual leave', annual_days: 10 })
  const tokens: Record<string, Tokens> = {}
  for (const person of PEOPLE) tokens[person.username] = await tokensOf(service.base, person.username, password(person.username))
  // today's clock records of all but the one whose page is shown (she clocks in on the page)
  for (const person of PEOPLE.slice(1)) {
    await api('POST', '/attendance/clock-in', { latitude: OFFICE.latitude + 0.0003, longitude: OFFICE.longitude }, { token: tokens[person.username].access_token })
  }
  for (const person of PEOPLE.slice(3)) await api('POST', '/attendance/clock-out', { latitude: OFFICE.latitude, longitude: OFFICE.longitude + 0.0002 }, { token: tokens[person.username].access_token })
  await api('POST', '/leave/requests', { type_id: leaveType.id, start_date: dateIn(ZONE, 10), end_date: dateIn(ZONE, 11), reason: '家里有事 Family matters' }, { token: tokens.alice.access_token })
  return tokens
}

async function shoot(page: Page, file: string): Promise<string> {
  const path = join(OUT, file)
  // the toasts and the caret do not belong in a picture
  await page.mouse.move(0, 0)
  await page.screenshot({ path, type: 'png', animations: 'disabled', caret: 'hide' })
  const convert = Bun.which('convert')
  if (convert) {
    const smaller = `${path}.tmp.png`
    const run = Bun.spawnSync([convert, path, '-strip', '-colors', '256', `PNG8:${smaller}`])
    if (run.exitCode === 0 && statSync(smaller).size < statSync(path).size) renameSync(smaller, path)
  }
  console.log(`${path}: ${(statSync(path).size / 1024).toFixed(0)} KB`)
  return path
}

async function adminPage(browser: Browser, base: string, tokens: Tokens, path: string, file: string): Promise<boolean> {
  const context = await newContext(browser, { viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 })
  try {
    await putSession(context, tokens)
    const page = await context.newPage()
    await page.goto(`${base}${path}`)
    await page.getByRole('button', { name: 'Sign out' }).waitFor({ timeout: 30_000 })
    try {
      await page.getByRole('heading', { level: 1 }).waitFor({ timeout: 15_000 })
    } catch {
      console.error(`${path}: the page shows no heading (still a placeholder?); no ${file}`)
      return false
    }
    await page.waitForLoadState('networkidle').catch(() => {})
    await page.locator('.mantine-Loader-root').first().waitFor({ state: 'hidden', timeout: 15_000 }).catch(() => {})
    await shoot(page, file)
    return true
  } finally {
    await context.close()
  }
}

mkdirSync(OUT, { recursive: true })
const service = await startService({ ACCESS_TOKEN_TTL: '86400' })
const browser = await launchBrowser()
try {
  const tokens = await demoData(service)
  const admin = await tokensOf(service.base, 'admin', ADMIN_PASSWORD)

  // the employee's today page on a phone, clocked in with a granted position
  const phone = await newContext(browser, { viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true })
  try {
    await phone.grantPermissions(['geolocation'], { origin: service.base })
    await phone.setGeolocation({ latitude: OFFICE.latitude + 0.0001, longitude: OFFICE.longitude + 0.0001, accuracy: 9 })
    await putSession(phone, tokens.wangfang)
    const page = await phone.newPage()
    await page.goto(`${service.base}/`)
    await page.getByRole('button', { name: 'Clock in' }).click({ timeout: 30_000 })
    await page.getByRole('button', { name: 'Clock out' }).waitFor({ timeout: 30_000 })
    await page.getByText(/^Position found/).waitFor()
    await shoot(page, 'employee.png')
  } finally {
    await phone.close()
  }

  await adminPage(browser, service.base, admin, '/admin/employees', 'admin-employees.png')
  await adminPage(browser, service.base, admin, '/admin/roles', 'admin-roles.png')
  if (!(await adminPage(browser, service.base, admin, '/admin/attendance/records', 'admin-records.png')))
    await adminPage(browser, service.base, admin, '/admin/audit', 'admin-audit.png')
} finally {
  await browser.close().catch(() => {})
  await service.stop()
}
