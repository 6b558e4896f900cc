import type { Database } from '../../../db/client'
import { ConflictError, ForbiddenError, NotFoundError, ValidationError, type FieldError } from '../../../http/errors'
import type { Clock } from '../../../lib/clock'
import { localDate } from '../../../lib/local-time'
import { toFen, toYuan } from '../../../lib/money'
import { parseDecimal, roundToFen } from '../../../lib/rational'
import { recordAudit, type Actor } from '../../audit/recorder'
import { findEmployee } from '../../employees/repository'
import type { Principal } from '../../rbac/access'
import { FIRST_TAX_MONTH } from '../compute'
import type { PayLine } from '../compute/types'
import { say } from '../messages'
import { collect } from '../profiles/service'
import type { DeclarationInput, DeclarationResponse, TaxSummaryResponse } from './model'
import * as repo from './repository'

/*
 * Special additional deductions declared per employee and year, and the year's tax summary
 * (CONTRACT §17). The caps are the 2023 standard's, a month: children's education and infant care
 * 2,000 per child (together: a child is one or the other), continuing education 400, housing loan
 * interest 1,000, housing rent 1,500 (not both), elderly support 3,000.
 */

export const CAPS = {
  perChild: 2_000_00,
  continuing_education: 400_00,
  housing_loan_interest: 1_000_00,
  housing_rent: 1_500_00,
  elderly_support: 3_000_00,
} as const

const AMOUNTS = ['children_education', 'infant_care', 'continuing_education', 'housing_loan_interest', 'housing_rent', 'elderly_support'] as const

export interface TaxDeps {
  database: Database
  clock: Clock
  defaultZone: string
}

export function toDeclarationResponse(row: repo.DeclarationRow): DeclarationResponse {
  return {
    id: row.id,
    employee_id: row.employeeId,
    year: row.year,
    from_month: row.fromMonth,
    children_education: toYuan(row.childrenEducation),
    infant_care: toYuan(row.infantCare),
    continuing_education: toYuan(row.continuingEducation),
    housing_loan_interest: toYuan(row.housingLoanInterest),
    housing_rent: toYuan(row.housingRent),
    elderly_support: toYuan(row.elderlySupport),
    children: row.children,
    monthly_total: toYuan(repo.monthlyTotal(row)),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  }
}

/** The declaration's fields checked against the caps and converted to fen, or a 400 naming every field at fault. */
function readDeclaration(year: number, input: DeclarationInput) {
  const problems: FieldError[] = []
  const fen = (field: (typeof AMOUNTS)[number]) => collect(problems, () => toFen(input[field] ?? 0, field)) ?? 0
  const [childrenEducation, infantCare, continuingEducation, housingLoanInterest, housingRent, elderlySupport] = AMOUNTS.map(fen)
  const children = input.children ?? 0
  const fromMonth = input.from_month ?? `${String(year).padStart(4, '0')}-01`
  if (fromMonth.slice(0, 4) !== String(year).padStart(4, '0')) problems.push({ field: 'from_month', message: say.fromMonthField({ year }) })
  const capped = (field: keyof typeof CAPS & (typeof AMOUNTS)[number], value: number) => {
    if (value > CAPS[field]) problems.push({ field, message: say.capField({ cap: toYuan(CAPS[field]) }) })
  }
  capped('continuing_education', continuingEducation)
  capped('housing_loan_interest', housingLoanInterest)
  capped('housing_rent', housingRent)
  capped('elderly_support', elderlySupport)
  if (childrenEducation + infantCare > CAPS.perChild * children) {
    const message = say.childrenCapField({ cap: toYuan(CAPS.perChild * children), children })
    problems.push(...(['children_education', 'infant_care'] as const).filter((field) => (input[field] ?? 0) > 0).map((field) => ({ field, message })))
  }
  if (housingLoanInterest > 0 && housingRent > 0) problems.push({ field: 'housing_rent', message: say.housingExclusiveField() })
  if (problems.length > 0) throw new ValidationError(say.invalidDeclaration({ problems: [...new Set(problems.map((p) => p.field))].join(', ') }), problems)
  return { fromMonth, childrenEducation, infantCare, continuingEducation, housingLoanInterest, housingRent, elderlySupport, children }
}

/** Yuan as a line's inputs hold it → fen, read through its decimal spelling (as `toFen` reads a request's), never by float arithmetic. */
const fenOfInput = (value: number | string | undefined): number => roundToFen(parseDecimal(String(value ?? 0)))

export function createTaxService({ database, clock, defaultZone }: TaxDeps) {
  const { db } = database
  const firstYear = Number(FIRST_TAX_MONTH.slice(0, 4))
  const requireEmployee = async (id: number) => {
    const employee = await findEmployee(db, id)
    if (!employee) throw new NotFoundError(say.employeeMissing({ id }))
    return employee
  }
  const requireTaxYear = (year: number) => {
    if (year < firstYear) throw ValidationError.of([{ field: 'year', message: say.taxYear({ year, first: firstYear }) }])
  }
  const requireDeclaration = async (employeeId: number, year: number) => {
    const row = await repo.findDeclaration(db, employeeId, year)
    if (!row) throw new NotFoundError(say.declarationMissing({ employee: employeeId, year }))
    return row
  }

  /** The year's months from the approved payslips, each with the cumulative figures its tax line computed. */
  const summaryOf = async (employee: { id: number; name: string; employeeNo: string | null }, year: number): Promise<TaxSummaryResponse> => {
    const rows = await repo.approvedOfYear(db, employee.id, year)
    // a month's special deductions: what it added to its company's cumulative figure (a declaration
    // made late takes in its earlier months at once), so the months add up to the cumulative figure
    const specialSoFar = new Map<number, number>()
    const months = rows.map(({ payslip, companyId, company }) => {
      const inputs = (payslip.lines as PayLine[]).find((line) => line.code === 'personal_tax')?.inputs ?? {}
      const contributions = payslip.personalInsurance + payslip.housingFund
      const cumulativeSpecial = fenOfInput(inputs.cumulative_special_deductions)
      const special = cumulativeSpecial - (specialSoFar.get(companyId) ?? 0)
      specialSoFar.set(companyId, cumulativeSpecial)
      return {
        month: payslip.month,
        company: { id: companyId, name: company },
        payslip_id: payslip.id,
        income: toYuan(payslip.gross),
        contributions: toYuan(contributions),
        special_deductions: toYuan(special),
        cumulative_income: toYuan(fenOfInput(inputs.cumulative_gross)),
        cumulative_basic_deduction: toYuan(fenOfInput(inputs.basic_deduction) * Number(inputs.months ?? 0)),
        cumulative_contributions: toYuan(fenOfInput(inputs.cumulative_contributions)),
        cumulative_special_deductions: toYuan(cumulativeSpecial),
        cumulative_taxable: toYuan(fenOfInput(inputs.cumulative_taxable)),
        cumulative_tax: toYuan(fenOfInput(inputs.cumulative_tax)),
        tax_withheld: toYuan(payslip.personalTax),
        cumulative_withheld: toYuan(fenOfInput(inputs.withheld) + payslip.personalTax),
      }
    })
    const total = (of: (row: (typeof rows)[number]['payslip']) => number) => toYuan(rows.reduce((sum, row) => sum + of(row.payslip), 0))
    const totalSpecial = [...specialSoFar.values()].reduce((sum, each) => sum + each, 0)
    return {
      year,
      employee: { id: employee.id, name: employee.name, employee_no: employee.employeeNo },
      months,
      totals: {
        income: total((p) => p.gross),
        contributions: total((p) => p.personalInsurance + p.housingFund),
        special_deductions: toYuan(totalSpecial),
        tax_withheld: total((p) => p.personalTax),
      },
    }
  }
  const thisYear = () => Number(localDate(clock.now(), defaultZone).slice(0, 4))

  return {
    async list(employeeId: number): Promise<{ tax_deductions: DeclarationResponse[] }> {
      await requireEmployee(employeeId)
      return { tax_deductions: (await repo.declarationsOfEmployee(db, employeeId)).map(toDeclarationResponse) }
    },

    async get(employeeId: number, year: number): Promise<DeclarationResponse> {
      await requireEmployee(employeeId)
      return toDeclarationResponse(await requireDeclaration(employeeId, year))
    },

    async put(employeeId: number, year: number, input: DeclarationInput, actor: Actor): Promise<DeclarationResponse> {
      requireTaxYear(year)
      const values = readDeclaration(year, input)
      await requireEmployee(employeeId)
      const now = clock.now()
      return database.write(async (tx) => {
        const before = await repo.findDeclaration(tx, employeeId, year)
        const row = await repo.upsertDeclaration(tx, { employeeId, year, ...values, createdAt: now, updatedAt: now })
        const after = toDeclarationResponse(row)
        await recordAudit(tx, actor, now, {
          action: before ? 'tax_deduction.update' : 'tax_deduction.create',
          resource: 'tax_deduction',
          resourceId: row.id,
          before: before ? toDeclarationResponse(before) : undefined,
          after,
        })
        return after
      })
    },

    async remove(employeeId: number, year: number, actor: Actor): Promise<void> {
      await requireEmployee(employeeId)
      const now = clock.now()
      await database.write(async (tx) => {
        const before = await repo.findDeclaration(tx, employeeId, year)
        if (!before) throw new NotFoundError(say.declarationMissing({ employee: employeeId, year }))
        const used = await repo.declarationUse(tx, before.id)
        if (used) throw new ConflictError(say.declarationUsed({ year, company: used.company, month: used.month, run: used.runId }))
        await repo.deleteDeclaration(tx, before.id)
        await recordAudit(tx, actor, now, { action: 'tax_deduction.delete', resource: 'tax_deduction', resourceId: before.id, before: toDeclarationResponse(before) })
      })
    },

    /** Any employee's; left out, the caller's own (as an administrator's first look at the page). */
    async summary(principal: Principal, employeeId: number | undefined, year: number | undefined): Promise<TaxSummaryResponse> {
      const id = employeeId ?? principal.employeeId
      if (id === null) throw ValidationError.of([{ field: 'employee_id', message: say.employeeIdNeeded() }])
      return summaryOf(await requireEmployee(id), year ?? thisYear())
    },

    async ownSummary(principal: Principal, year: number | undefined): Promise<TaxSummaryResponse> {
      if (principal.employeeId === null) throw new ForbiddenError(say.notLinked())
      return summaryOf(await requireEmployee(principal.employeeId), year ?? thisYear())
    },
  }
}

export type TaxService = ReturnType<typeof createTaxService>
