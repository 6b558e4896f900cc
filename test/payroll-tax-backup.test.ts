import { afterAll, beforeAll, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { writeBackup } from '../src/modules/backups/backup'
import { restoreBackup } from '../src/modules/backups/restore'
import { login, loginAdmin, req, startApp, tempDir, type TestApp } from './helpers'
import { must, shanghai } from './payroll-fixtures'
import { onSqld } from './sqld'

/*
 * Every figure of a run survives a backup and restore and reads the same afterwards (issue 29):
 * a company pays three months with contribution schemes (one of them changed mid-way) and a
 * declaration of special deductions, approves them, leaves a fourth month in draft; a backup is
 * taken (writeBackup, as `bun run backup` does) and restored into an empty data location
 * (restoreBackup, as `bun run restore` does); a service started on it reads every run, every payslip
 * (whole bodies), the registers, the schemes, the declarations, the pay profiles, the salary records
 * and the tax summaries exactly as the first one did.
 *
 * Tang (Beijing, 30,000, 4,000 a month declared) is the State Taxation Administration's example:
 * January 495.00, February 495.00, March 1,440.00 (worked out in test/payroll-tax-golden.test.ts).
 * Zhang (Shenzhen, 12,000) gets a 5,000 bonus in February; Shenzhen's scheme changes in March.
 */

const NOW = shanghai('2025-04-20T10:00')
const ENV = { ACCESS_TOKEN_TTL: '2592000' }
const SCHEMES = '/api/v1/admin/payroll/schemes'
const RUNS = '/api/v1/admin/payroll/runs'
const MONTHS = ['2025-01', '2025-02', '2025-03']

const dirs: string[] = []
let source: TestApp
let restored: TestApp | undefined
const ids = { tang: 0, zhang: 0 }

afterAll(() => {
  source?.close()
  restored?.close()
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

beforeAll(async () => {
  // a backup copies the embedded database file: with a libSQL server there is none to copy (see test:sqld)
  if (onSqld) return
  source = await startApp({ now: NOW, env: ENV })
  const admin = await loginAdmin(source.app)
  const adminDo = (method: string, path: string, body?: unknown, status = 200) => must(source, admin, method, path, body, status)
  const item = (code: string, employee_rate: number, employer_rate: number, base_min: number, base_max: number, employee_fixed = 0) => ({
    code,
    employee_rate,
    employer_rate,
    base_min,
    base_max,
    employee_fixed,
  })
  const beijing = await adminDo(
    'POST',
    SCHEMES,
    {
      name: 'Beijing',
      effective_from: '2025-01',
      items: [
        item('pension', 0.08, 0.16, 6821, 35283),
        item('medical', 0.02, 0.098, 6821, 35283),
        item('unemployment', 0.005, 0.005, 6821, 35283),
        item('work_injury', 0, 0.004, 6821, 35283),
        item('housing_fund', 0.045, 0.045, 2540, 35283),
      ],
    },
    201,
  )
  const shenzhenItems = (unemployment: number, fund: number) => [
    item('pension', 0.08, 0.14, 4492, 27501),
    item('medical', 0.02, 0.05, 6733, 33666, 1.5),
    item('unemployment', unemployment, 0.007, 2360, 33666),
    item('maternity', 0, 0.005, 6733, 33666),
    item('housing_fund', fund, fund, 2360, 41190),
  ]
  const shenzhen = await adminDo('POST', SCHEMES, { name: 'Shenzhen', effective_from: '2025-01', items: shenzhenItems(0.003, 0.05) }, 201)
  await adminDo('POST', SCHEMES, { name: 'Shenzhen', effective_from: '2025-03', items: shenzhenItems(0.005, 0.1) }, 201)

  const company = await adminDo('POST', '/api/v1/admin/companies', { name: 'Acme', timezone: 'Asia/Shanghai' }, 201)
  ids.tang = (
    await adminDo('POST', '/api/v1/admin/employees', { name: 'Tang Example', employee_no: 'T01', company_id: company.id, hire_date: '2024-01-02', username: 'tang', password: 'tang-password-1' }, 201)
  ).id
  ids.zhang = (await adminDo('POST', '/api/v1/admin/employees', { name: 'Zhang Change', employee_no: 'T02', company_id: company.id, hire_date: '2024-01-02' }, 201)).id
  await adminDo('PUT', `/api/v1/admin/employees/${ids.tang}/pay-profile`, {
    effective_month: '2025-01',
    basic_salary: 30000,
    contribution_base: 30000,
    housing_fund_base: 30000,
    scheme_id: beijing.id,
    bank_account: '6222 0000 0000 0001',
  })
  await adminDo('PUT', `/api/v1/admin/employees/${ids.zhang}/pay-profile`, {
    effective_month: '2025-01',
    basic_salary: 11000,
    allowance: 1000,
    contribution_base: 12000,
    housing_fund_base: 12000,
    scheme_id: shenzhen.id,
    bank_account: '6222 0000 0000 0002',
  })
  await adminDo('PUT', `/api/v1/admin/employees/${ids.tang}/tax-deductions/2025`, { housing_rent: 1500, elderly_support: 2500 })
  await adminDo('PUT', `/api/v1/admin/employees/${ids.zhang}/tax-deductions/2024`, { from_month: '2024-09', continuing_education: 400 })

  for (const month of MONTHS) {
    const run = await adminDo('POST', RUNS, { company_id: company.id, month }, 201)
    if (month === '2025-02') {
      const zhang = ((await adminDo('GET', `${RUNS}/${run.id}/payslips`)).payslips as { id: number; employee: { id: number } }[]).find((p) => p.employee.id === ids.zhang)!
      await adminDo('PUT', `${RUNS}/${run.id}/payslips/${zhang.id}/inputs`, { bonus: 5000, note: 'Spring festival' })
    }
    // Zhang's declaration of 2025 is made in March, from February
    if (month === '2025-03') {
      await adminDo('PUT', `/api/v1/admin/employees/${ids.zhang}/tax-deductions/2025`, { from_month: '2025-02', children: 1, infant_care: 2000 })
      await adminDo('POST', `${RUNS}/${run.id}/recompute`)
    }
    await adminDo('POST', `${RUNS}/${run.id}/approve`)
  }
  // April stays a draft
  await adminDo('POST', RUNS, { company_id: company.id, month: '2025-04' }, 201)
}, 60_000)

/** Everything the service says of the payroll: what must read the same after a restore. */
async function everything(t: TestApp) {
  const admin = await loginAdmin(t.app)
  const tang = await login(t.app, 'tang', 'tang-password-1')
  const get = async (path: string, token = admin) => must(t, token, 'GET', path)
  const file = async (path: string) => {
    const reply = await req(t.app, 'GET', path, { token: admin })
    expect(reply.status).toBe(200)
    return reply.body as string
  }
  const { runs } = await get(RUNS)
  const perRun = []
  for (const run of runs as { id: number; status: string }[])
    perRun.push({
      run: await get(`${RUNS}/${run.id}`),
      payslips: await get(`${RUNS}/${run.id}/payslips`),
      register: await file(`${RUNS}/${run.id}/register?format=csv`),
      // a draft has no bank transfer list (409)
      bankTransfers: run.status === 'approved' ? await file(`${RUNS}/${run.id}/bank-transfers?format=csv`) : null,
    })
  const { schemes } = await get(SCHEMES)
  const perScheme = []
  for (const scheme of schemes as { id: number }[]) perScheme.push(await get(`${SCHEMES}/${scheme.id}`))
  const perEmployee: Record<string, unknown> = {}
  for (const [who, id] of Object.entries(ids))
    perEmployee[who] = {
      declarations: await get(`/api/v1/admin/employees/${id}/tax-deductions`),
      declaration2025: await get(`/api/v1/admin/employees/${id}/tax-deductions/2025`),
      profiles: await get(`/api/v1/admin/employees/${id}/pay-profile`),
      taxSummary2025: await get(`/api/v1/admin/payroll/tax-summary?year=2025&employee_id=${id}`),
      salaries: await get(`/api/v1/admin/salaries?employee_id=${id}&page_size=100`),
    }
  const own = {
    payslips: await get('/api/v1/payslips?year=2025', tang),
    march: await get('/api/v1/payslips/2025-03', tang),
    taxSummary: await get('/api/v1/payslips/tax-summary?year=2025', tang),
  }
  return { runs, perRun, schemes, perScheme, perEmployee, own, salaries: await get('/api/v1/admin/salaries?page_size=100') }
}

test.skipIf(onSqld)('after a backup and a restore into an empty location every run, payslip, scheme, declaration, salary record and tax summary reads the same', async () => {
  const before = await everything(source)

  // not an empty comparison: four runs (three approved), two payslips each, three schemes, the STA's figures
  expect(before.runs.map((run: { month: string; status: string }) => [run.month, run.status]).sort()).toEqual([
    ['2025-01', 'approved'],
    ['2025-02', 'approved'],
    ['2025-03', 'approved'],
    ['2025-04', 'draft'],
  ])
  expect(before.perRun.map((run) => run.payslips.payslips.length)).toEqual([2, 2, 2, 2])
  expect(before.perScheme).toHaveLength(3)
  const tangSummary = before.perEmployee.tang as { taxSummary2025: { months: { month: string; tax_withheld: number }[] } }
  expect(tangSummary.taxSummary2025.months.map((month) => [month.month, month.tax_withheld])).toEqual([
    ['2025-01', 495],
    ['2025-02', 495],
    ['2025-03', 1440],
  ])
  // Zhang: Jan 12000 − 5000 − (960.00 + 240.00 + 1.50 + 36.00 + 600.00 = 1837.50) = 5162.50 × 0.03 = 154.875 → 154.88;
  // Feb (+ 5000 bonus) 29000 − 10000 − 3675.00 = 15325.00 × 0.03 = 459.75 − 154.88 = 304.87;
  // Mar (the newer scheme: 960.00 + 241.50 + 60.00 + 1200.00 = 2461.50; infant care 2000 × 2 months from February)
  //   41000 − 15000 − 6136.50 − 4000 = 15863.50 × 0.03 = 475.905 → 475.91 − 459.75 = 16.16
  const zhangSummary = before.perEmployee.zhang as { taxSummary2025: { months: { month: string; tax_withheld: number; cumulative_special_deductions: number }[] } }
  expect(zhangSummary.taxSummary2025.months.map((month) => [month.month, month.tax_withheld, month.cumulative_special_deductions])).toEqual([
    ['2025-01', 154.88, 0],
    ['2025-02', 304.87, 0],
    ['2025-03', 16.16, 4000],
  ])
  expect(before.salaries.salaries).toHaveLength(6)
  const lineCodes = new Set(before.perRun.flatMap((run) => run.payslips.payslips.flatMap((payslip: { lines: { code: string }[] }) => payslip.lines.map((line) => line.code))))
  for (const code of ['personal_insurance', 'housing_fund', 'employer_contributions', 'personal_tax', 'bonus']) expect(lineCodes.has(code)).toBe(true)

  const backups = tempDir('workforce-payroll-backup-')
  dirs.push(backups)
  const archive = await writeBackup({ databaseUrl: source.deps.config.databaseUrl, storage: source.deps.config.storage, dir: join(backups, 'backups'), now: new Date(NOW) })

  const target = tempDir('workforce-payroll-restore-')
  dirs.push(target)
  await restoreBackup(archive.path, { databaseUrl: `file:${join(target, 'workforce.db')}`, storage: { kind: 'file', dir: join(target, 'files') } })
  restored = await startApp({ dir: target, now: NOW, env: ENV })

  const after = await everything(restored)
  expect(after).toEqual(before)
}, 60_000)
