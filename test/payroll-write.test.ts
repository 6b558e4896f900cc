import { afterAll, beforeAll, expect, test } from 'bun:test'
import { asc, eq } from 'drizzle-orm'
import { employees, payProfiles, payslips } from '../src/db/schema'
import { DEFAULT_PAY_SETTINGS } from '../src/modules/payroll/compute/types'
import * as repo from '../src/modules/payroll/runs/repository'
import { loginAdmin, startApp, type TestApp } from './helpers'
import { must } from './payroll-fixtures'

/*
 * A run's payslips are written many rows to a statement (runs/repository.ts writePayslips): more
 * rows than one statement takes, a last statement with the rest, a rewrite that keeps each
 * payslip's id and creation time, and a recomputation's whole set deleting the rest.
 */

const AT = new Date('2025-04-01T02:00:00.000Z')
const LATER = new Date('2025-04-02T02:00:00.000Z')
const COUNT = 123

let t: TestApp
let ids: number[]
let profileOf: Map<number, number>

beforeAll(async () => {
  t = await startApp({ now: AT.toISOString() })
  const admin = await loginAdmin(t.app)
  await must(t, admin, 'POST', '/api/v1/admin/companies', { name: 'Acme', timezone: 'Asia/Shanghai' }, 201)
  const { db } = t.deps.database
  const rows = await db
    .insert(employees)
    .values(Array.from({ length: COUNT }, (_, i) => ({ name: `E${i}`, companyId: 1, createdAt: AT, updatedAt: AT })))
    .returning({ id: employees.id })
  ids = rows.map((row) => row.id)
  const profiles = await db
    .insert(payProfiles)
    .values(ids.map((employeeId) => ({ employeeId, effectiveMonth: '2025-03', basicSalary: 100_000, seniorityPay: 0, allowance: 0, contributionBase: 0, housingFundBase: 0, createdAt: AT, updatedAt: AT })))
    .returning({ id: payProfiles.id, employeeId: payProfiles.employeeId })
  profileOf = new Map(profiles.map((row) => [row.employeeId, row.id]))
})
afterAll(() => t.close())

const values = (employeeId: number, gross: number): repo.PayslipValues => ({
  employeeId,
  month: '2025-03',
  profileId: profileOf.get(employeeId)!,
  gross,
  baseGross: gross,
  deductions: 0,
  net: gross,
  personalInsurance: 0,
  housingFund: 0,
  specialDeductions: 0,
  personalTax: 0,
  employerContributions: 0,
  schemeId: null,
  taxDeductionId: null,
  lines: JSON.stringify([{ code: 'basic_salary', amount: gross, formula: `${gross} − 0 = ${gross}` }]),
  facts: JSON.stringify({ employee: employeeId }),
  performancePay: 0,
  bonus: 0,
  otherIncome: 0,
  otherDeductions: 0,
  note: `n${employeeId}`,
})

const stored = (runId: number) =>
  t.deps.database.db
    .select({ id: payslips.id, employeeId: payslips.employeeId, gross: payslips.gross, lines: payslips.lines, facts: payslips.facts, note: payslips.note, createdAt: payslips.createdAt, updatedAt: payslips.updatedAt })
    .from(payslips)
    .where(eq(payslips.runId, runId))
    .orderBy(asc(payslips.employeeId))

/** A stored row as `values(employeeId, gross)` wrote it: the JSON columns read back as the objects written, not as strings of them. */
const storedAs = (employeeId: number, gross: number, updatedAt: Date) => ({
  employeeId,
  gross,
  lines: [{ code: 'basic_salary', amount: gross, formula: `${gross} − 0 = ${gross}` }],
  facts: { employee: employeeId },
  note: `n${employeeId}`,
  createdAt: AT,
  updatedAt,
})

test('123 payslips (statements of 50, 50 and 23): every row as given, lines and facts stored as the JSON they are', async () => {
  const { database } = t.deps
  const runId = await database.write(async (tx) => {
    const run = await repo.insertRun(tx, { companyId: 1, month: '2025-03', settings: DEFAULT_PAY_SETTINGS, createdBy: null, computedAt: AT, createdAt: AT, updatedAt: AT })
    await repo.writePayslips(tx, run.id, ids.map((id) => values(id, id * 10)), AT)
    return run.id
  })
  const first = await stored(runId)
  expect(first.map(({ id: _, ...row }) => row)).toEqual(ids.map((employeeId) => storedAs(employeeId, employeeId * 10, AT)))

  // a recomputation of the first 77: each keeps its id and creation time, takes the new figures; the other 46 go
  const kept = ids.slice(0, 77)
  await database.write((tx) => repo.writePayslips(tx, runId, kept.map((id) => values(id, id * 20)), LATER, kept))
  const idOf = new Map(first.map((row) => [row.employeeId, row.id]))
  expect(await stored(runId)).toEqual(kept.map((employeeId) => ({ id: idOf.get(employeeId)!, ...storedAs(employeeId, employeeId * 20, LATER) })))
})
