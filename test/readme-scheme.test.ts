import { afterAll, beforeAll, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { loginAdmin, startApp, type TestApp } from './helpers'
import { must } from './payroll-fixtures'

/*
 * The README's example contribution scheme (Shanghai, July 2024 – June 2025) is taken as it stands
 * from the README, and pays what the README says it pays: a base of 10,000 → social insurance
 * 1,050.00, housing fund 700.00, employer's contributions 3,366.00; a base of 40,000 capped at
 * 36,921 → pension 2,953.68.
 */

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8')
const section = readme.slice(readme.indexOf("### Example: Shanghai's scheme"))
const example = JSON.parse(/```json\n([\s\S]*?)\n```/.exec(section)![1])

let t: TestApp
let admin: string
beforeAll(async () => {
  t = await startApp({ now: '2024-10-08T02:00:00.000Z' })
  admin = await loginAdmin(t.app)
}, 30_000)
afterAll(() => t.close())

const amountOf = (payslip: { lines: { code: string; amount: number; formula: string }[] }, code: string) => payslip.lines.find((line) => line.code === code)

test('the README scheme is accepted as written and computes the figures the README states', async () => {
  const scheme = await must(t, admin, 'POST', '/api/v1/admin/payroll/schemes', example, 201)
  expect(scheme).toMatchObject({ name: 'Shanghai', effective_from: '2024-07' })
  const company = await must(t, admin, 'POST', '/api/v1/admin/companies', { name: 'Readme Co', timezone: 'Asia/Shanghai' }, 201)
  const hire = async (name: string, base: number) => {
    const employee = await must(t, admin, 'POST', '/api/v1/admin/employees', { name, employee_no: name, company_id: company.id, hire_date: '2024-01-01' }, 201)
    await must(t, admin, 'PUT', `/api/v1/admin/employees/${employee.id}/pay-profile`, {
      effective_month: '2024-07',
      basic_salary: base,
      contribution_base: base,
      housing_fund_base: base,
      scheme_id: scheme.id,
    })
    return employee.id
  }
  const ten = await hire('R10', 10000)
  const forty = await hire('R40', 40000)
  const run = await must(t, admin, 'POST', '/api/v1/admin/payroll/runs', { company_id: company.id, month: '2024-09' }, 201)
  const { payslips } = await must(t, admin, 'GET', `/api/v1/admin/payroll/runs/${run.id}/payslips`)
  const of = (id: number) => payslips.find((payslip: { employee: { id: number } }) => payslip.employee.id === id)

  const tenThousand = of(ten)
  expect(amountOf(tenThousand, 'personal_insurance')).toMatchObject({
    amount: 1050,
    formula: 'pension: 10000.00 × 0.08 = 800.00; medical: 10000.00 × 0.02 = 200.00; unemployment: 10000.00 × 0.005 = 50.00; 800.00 + 200.00 + 50.00 = 1050.00',
  })
  expect(amountOf(tenThousand, 'housing_fund')).toMatchObject({ amount: 700, formula: 'housing_fund: 10000.00 × 0.07 = 700.00' })
  expect(amountOf(tenThousand, 'employer_contributions')).toMatchObject({
    amount: 3366,
    formula:
      'pension: 10000.00 × 0.16 = 1600.00; medical: 10000.00 × 0.10 = 1000.00; unemployment: 10000.00 × 0.005 = 50.00; work_injury: 10000.00 × 0.0016 = 16.00; housing_fund: 10000.00 × 0.07 = 700.00; 1600.00 + 1000.00 + 50.00 + 16.00 + 700.00 = 3366.00',
  })
  expect(amountOf(of(forty), 'personal_insurance')!.formula.split('; ')[0]).toBe('pension: min(40000.00, 36921.00) × 0.08 = 2953.68')
  expect(readme).toContain('social insurance 1,050.00 (800.00 + 200.00 +\n50.00), housing fund 700.00 and the employer\'s contributions 3,366.00')
  expect(readme).toContain('`pension: min(40000.00, 36921.00) × 0.08 = 2953.68`')
})
