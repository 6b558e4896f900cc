import { afterAll, beforeAll, expect, test } from 'bun:test'
import { loginAdmin, startApp, type TestApp } from './helpers'
import { must } from './payroll-fixtures'

/*
 * An approved month changed afterwards (CONTRACT §16 "after approval") when its payslip had
 * contributions and special deductions (§17): the next run's adjustment names what changed the
 * wage payable (here the hire date moved into the month, so the month is prorated), never the
 * scheme or the declaration, which are after the wage payable and were not changed.
 */

let t: TestApp
let admin: string
beforeAll(async () => {
  t = await startApp({ now: '2024-10-08T02:00:00.000Z' })
  admin = await loginAdmin(t.app)
}, 30_000)
afterAll(() => t.close())

test('an adjustment for a month with a scheme and a declaration names the approved payslip alone, and is taxed with them', async () => {
  const item = { code: 'pension', employee_rate: 0.08, employer_rate: 0.16, base_min: 5000, base_max: 30000 }
  const scheme = await must(t, admin, 'POST', '/api/v1/admin/payroll/schemes', { name: 'Adjust town', effective_from: '2024-01', items: [item] }, 201)
  const company = await must(t, admin, 'POST', '/api/v1/admin/companies', { name: 'Adjust Co', timezone: 'Asia/Shanghai' }, 201)
  const employee = await must(t, admin, 'POST', '/api/v1/admin/employees', { name: 'Ada', employee_no: 'A1', company_id: company.id, hire_date: '2024-08-01' }, 201)
  await must(t, admin, 'PUT', `/api/v1/admin/employees/${employee.id}/pay-profile`, { effective_month: '2024-08', basic_salary: 9300, contribution_base: 9300, scheme_id: scheme.id })
  const declaration = await must(t, admin, 'PUT', `/api/v1/admin/employees/${employee.id}/tax-deductions/2024`, { from_month: '2024-08', elderly_support: 1000 })
  const august = await must(t, admin, 'POST', '/api/v1/admin/payroll/runs', { company_id: company.id, month: '2024-08' }, 201)
  await must(t, admin, 'POST', `/api/v1/admin/payroll/runs/${august.id}/approve`)
  const [approved] = (await must(t, admin, 'GET', `/api/v1/admin/payroll/runs/${august.id}/payslips`)).payslips

  // hired on the 17th after all: August is paid 15 of 31 days, 9300 × 15 ÷ 31 = 4500.00, 4800.00 less
  await must(t, admin, 'PUT', `/api/v1/admin/employees/${employee.id}`, { hire_date: '2024-08-17' })
  const september = await must(t, admin, 'POST', '/api/v1/admin/payroll/runs', { company_id: company.id, month: '2024-09' }, 201)
  const [payslip] = (await must(t, admin, 'GET', `/api/v1/admin/payroll/runs/${september.id}/payslips`)).payslips
  const line = (code: string) => payslip.lines.find((each: { code: string }) => each.code === code)
  expect(line('adjustment')).toEqual({
    code: 'adjustment',
    label: 'Adjustment for 2024-08',
    kind: 'income',
    amount: -4800,
    formula: '4500.00 − 9300.00 − 0.00 = -4800.00',
    inputs: { month: '2024-08', recomputed_gross: 4500, approved_gross: 9300, carried: 0 },
    sources: [{ kind: 'payslip', id: approved.id }],
    month: '2024-08',
  })
  // September's gross 9300 − 4800 = 4500; pension 9300 × 0.08 = 744.00 both months;
  // taxable: 9300 + 4500 − 5000 × 2 − 744 × 2 − 1000 × 2 = 312.00 → 9.36 due, 9300 − 5000 − 744 − 1000 = 2556 × 0.03 = 76.68 withheld → 0.00
  expect([payslip.gross, line('personal_insurance').amount, line('personal_tax').amount]).toEqual([4500, 744, 0])
  expect(line('personal_tax').formula).toBe(
    'special deductions: 1000.00 × 2 = 2000.00; taxable: max(0, 13800.00 − 5000.00 × 2 − 1488.00 − 2000.00) = 312.00; tax: 312.00 × 0.03 − 0.00 = 9.36; this month: max(0, 9.36 − 76.68) = 0.00',
  )
  expect(line('personal_tax').sources).toEqual([
    { kind: 'payslip', id: approved.id },
    { kind: 'tax_deduction', id: declaration.id },
  ])
})
