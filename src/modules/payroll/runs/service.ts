import type { Locale } from '../../../config'
import type { Database } from '../../../db/client'
import { ConflictError, ForbiddenError, NotFoundError, ValidationError, type FieldError } from '../../../http/errors'
import type { Clock } from '../../../lib/clock'
import { isCalendarDate } from '../../../lib/dates'
import { messageList } from '../../../lib/messages'
import { memoryBudget } from '../../../lib/memory'
import { toFen } from '../../../lib/money'
import { isUniqueViolation } from '../../../lib/sqlite-errors'
import { recordAudit, type Actor } from '../../audit/recorder'
import type { RuleCache } from '../../attendance/setup/repository'
import { findCompany } from '../../companies/repository'
import type { Principal } from '../../rbac/access'
import { ADMIN_ROLE } from '../../rbac/catalogue'
import { ownEmployeesAmong, ownMatterRefused } from '../../rbac/own-matters'
import { FIRST_TAX_MONTH } from '../compute/tax'
import { NO_ENTERED_INPUTS, type EnteredInputs, type PayLine, type PaySettings } from '../compute/types'
import { say } from '../messages'
import { findSettings } from '../profiles/repository'
import { collect, settingsOf } from '../profiles/service'
import { computeRun, type ComputedPayslip, type RunScope } from './compute'
import type { CreateRunInput, Flag, InputsInput, PayslipResponse, RunListQuery, RunResponse } from './model'
import * as repo from './repository'
import { writePayouts } from './payouts'
import { salaryOf } from './salary'
import { employeeName, enteredOf, toPayslipResponse, toRunResponse } from './shapes'

export interface RunsDeps {
  database: Database
  clock: Clock
  defaultZone: string
  ruleCache: RuleCache
}


/** A computed payslip's columns, lines and facts as JSON text (see repo.PayslipValues). */
export function payslipValues(month: string, { employee, profileId, payslip, entered }: ComputedPayslip): repo.PayslipValues {
  let personalInsurance = 0
  let housingFund = 0
  let personalTax = 0
  // the scheme and the declaration the payslip used, named by its lines' sources (kept by foreign keys)
  let schemeId: number | null = null
  let taxDeductionId: number | null = null
  for (const line of payslip.lines)
    if (line.code === 'personal_insurance' || line.code === 'housing_fund' || line.code === 'employer_contributions') {
      if (line.code === 'personal_insurance') personalInsurance += line.amount
      else if (line.code === 'housing_fund') housingFund += line.amount
      schemeId = line.sources.find((source) => source.kind === 'contribution_scheme')?.id ?? schemeId
    } else if (line.code === 'personal_tax') {
      personalTax += line.amount
      taxDeductionId = line.sources.find((source) => source.kind === 'tax_deduction')?.id ?? null
    }
  return {
    employeeId: employee.id,
    month,
    profileId,
    gross: payslip.gross,
    baseGross: payslip.baseGross,
    deductions: payslip.deductions,
    net: payslip.net,
    personalInsurance,
    housingFund,
    specialDeductions: payslip.specialDeductions,
    personalTax,
    employerContributions: payslip.employerContributions,
    schemeId,
    taxDeductionId,
    lines: JSON.stringify(payslip.lines),
    facts: JSON.stringify(payslip.facts),
    ...entered,
  }
}

/**
 * How far a run's computing may grow the process before it collects the garbage of the pages done
 * (`memoryBudget`): a run of 5,500 employees makes some hundreds of MB of short-lived objects,
 * which the collector left to its own pace let grow it by 80–90 MB; checked every 100 employees
 * and after each page, the growth stays near twice this plus the text kept for the write
 * (bench/payroll.ts: S11's memory growth, 44–54 MB). Young collections until then: each takes
 * 2–15 ms of the run's thread, where a full one takes 40–80 ms.
 */
const RUN_MEMORY_BUDGET = 12 * 1024 * 1024

export function createRunsService({ database, clock, defaultZone, ruleCache }: RunsDeps) {
  const { db } = database

  const requireRun = async (id: number) => {
    const run = await repo.findRun(db, id)
    if (!run) throw new NotFoundError(say.runMissing({ id }))
    return run
  }
  const requireDraft = (found: repo.RunWithNames) => {
    if (found.run.status !== 'draft') throw new ConflictError(say.notDraft({ company: found.company, month: found.run.month }))
  }
  const runResponse = async (found: repo.RunWithNames) => toRunResponse(found, (await repo.runTotals(db, [found.run.id])).get(found.run.id))

  /** Every payslip of the scope, computed now, as the values its write binds. */
  const computeAll = async (scope: RunScope, now: Date): Promise<repo.PayslipValues[]> => {
    const computed: repo.PayslipValues[] = []
    // the text kept for the write: a formula's minus sign (U+2212) makes the lines' two bytes a character
    let kept = 0
    const withinBudget = memoryBudget(RUN_MEMORY_BUDGET, { kept: () => kept })
    for await (const page of computeRun({ db, defaultZone, ruleCache, now, every: withinBudget }, scope)) {
      for (const payslip of page) {
        const values = payslipValues(scope.month, payslip)
        kept += 2 * values.lines.length + values.facts.length
        computed.push(values)
      }
      withinBudget()
    }
    return computed
  }

  const enteredByEmployee = async (runId: number) =>
    new Map((await repo.payslipsOf(db, runId)).map(({ payslip }) => [payslip.employeeId, enteredOf(payslip)] as const))

  return {
    async create(input: CreateRunInput, actor: Actor): Promise<RunResponse> {
      if (!isCalendarDate(`${input.month}-01`)) throw ValidationError.of([{ field: 'month', message: say.notRealMonth({ month: input.month }) }])
      // cumulative withholding, as the tax tables hold it, starts in 2019: an earlier month has no tax to compute it by
      if (input.month < FIRST_TAX_MONTH) throw ValidationError.of([{ field: 'month', message: say.beforeTaxTables({ month: input.month, first: FIRST_TAX_MONTH }) }])
      const company = await findCompany(db, input.company_id)
      if (!company) throw ValidationError.of([{ field: 'company_id', message: say.companyMissing({ id: input.company_id }) }])
      const existing = await repo.findRunOf(db, company.id, input.month)
      const exists = (id: number) => new ConflictError(say.runExists({ company: company.name, month: input.month, id }))
      if (existing) throw exists(existing.id)
      const now = clock.now()
      const settings = settingsOf(await findSettings(db, company.id))
      const computed = await computeAll({ companyId: company.id, month: input.month, settings, entered: new Map() }, now)
      try {
        const id = await database.write(async (tx) => {
          const run = await repo.insertRun(tx, { companyId: company.id, month: input.month, settings, createdBy: actor.userId, computedAt: now, createdAt: now, updatedAt: now })
          await repo.writePayslips(tx, run.id, computed, now)
          await recordAudit(tx, actor, now, {
            action: 'payroll_run.create',
            resource: 'payroll_run',
            resourceId: run.id,
            after: { company_id: company.id, month: input.month, head_count: computed.length },
          })
          return run.id
        })
        return runResponse(await requireRun(id))
      } catch (error) {
        if (isUniqueViolation(error)) throw exists((await repo.findRunOf(db, company.id, input.month))?.id ?? 0)
        throw error
      }
    },

    async list(query: RunListQuery): Promise<{ runs: RunResponse[] }> {
      const rows = await repo.listRuns(db, { companyId: query.company_id, year: query.year, status: query.status })
      const totals = await repo.runTotals(db, rows.map((row) => row.run.id))
      return { runs: rows.map((row) => toRunResponse(row, totals.get(row.run.id))) }
    },

    get: async (id: number): Promise<RunResponse> => runResponse(await requireRun(id)),

    async payslips(id: number, flag: Flag | undefined, locale: Locale): Promise<{ payslips: PayslipResponse[] }> {
      const found = await requireRun(id)
      const shown = (await repo.payslipsOf(db, id)).map((row) => toPayslipResponse(row, found.run.status, locale))
      return { payslips: flag === undefined ? shown : shown.filter((payslip) => payslip.flags.includes(flag)) }
    },

    /** Computes every payslip again from today's attendance, leave, calendar, profiles and settings; HR's inputs and the payslips' ids are kept. */
    async recompute(id: number, actor: Actor): Promise<RunResponse> {
      const found = await requireRun(id)
      requireDraft(found)
      const now = clock.now()
      const settings = settingsOf(await findSettings(db, found.run.companyId))
      const entered = await enteredByEmployee(id)
      const computed = await computeAll({ companyId: found.run.companyId, month: found.run.month, settings, entered }, now)
      await database.write(async (tx) => {
        const current = await repo.findRun(tx, id)
        if (!current) throw new NotFoundError(say.runMissing({ id }))
        requireDraft(current)
        await repo.writePayslips(tx, id, computed, now, computed.map((values) => values.employeeId))
        await repo.touchRun(tx, id, now, settings)
        await recordAudit(tx, actor, now, {
          action: 'payroll_run.recompute',
          resource: 'payroll_run',
          resourceId: id,
          after: { company_id: found.run.companyId, month: found.run.month, head_count: computed.length },
        })
      })
      return runResponse(await requireRun(id))
    },

    async putInputs(id: number, payslipId: number, input: InputsInput, actor: Actor, locale: Locale): Promise<PayslipResponse> {
      const problems: FieldError[] = []
      const fen = (field: 'performance_pay' | 'bonus' | 'other_income' | 'other_deductions') => collect(problems, () => toFen(input[field] ?? 0, field)) ?? 0
      const entered: EnteredInputs = {
        ...NO_ENTERED_INPUTS,
        performancePay: fen('performance_pay'),
        bonus: fen('bonus'),
        otherIncome: fen('other_income'),
        otherDeductions: fen('other_deductions'),
        note: input.note?.trim() ?? '',
      }
      if (problems.length > 0) throw new ValidationError(say.invalidInputs({ problems: problems.map((p) => p.field).join(', ') }), problems)
      const found = await requireRun(id)
      const before = await repo.findPayslip(db, id, payslipId)
      if (!before) throw new NotFoundError(say.payslipMissing({ id: payslipId, run: id }))
      requireDraft(found)
      const now = clock.now()
      const settings = found.run.settings as PaySettings
      const employeeId = before.payslip.employeeId
      const computed = await computeAll({ companyId: found.run.companyId, month: found.run.month, settings, entered: new Map([[employeeId, entered]]), only: [employeeId] }, now)
      await database.write(async (tx) => {
        const current = await repo.findRun(tx, id)
        if (!current) throw new NotFoundError(say.runMissing({ id }))
        requireDraft(current)
        // the employee's hire date, leaving date, company or profile changed since: the run no longer pays them
        if (computed.length === 0) throw new ConflictError(say.noLongerPaid({ employee: employeeName(before), company: current.company, month: current.run.month }))
        await repo.writePayslips(tx, id, computed, now)
        await recordAudit(tx, actor, now, {
          action: 'payslip.inputs',
          resource: 'payslip',
          resourceId: payslipId,
          before: toPayslipResponse(before, 'draft', 'en').inputs,
          after: input,
        })
      })
      return toPayslipResponse((await repo.findPayslip(db, id, payslipId))!, 'draft', locale)
    },

    /**
     * Locks the run and writes each payslip into the salary record of its employee and month, in one
     * transaction (CONTRACT §16); the run's draft status is the gate, so of two approvals at once
     * exactly one writes. Nobody approves a run holding their own payslip, but the owner (§15).
     */
    async approve(id: number, actor: Actor, principal: Principal): Promise<RunResponse> {
      const found = await requireRun(id)
      requireDraft(found)
      const now = clock.now()
      await database.write(async (tx) => {
        const current = await repo.findRun(tx, id)
        if (!current) throw new NotFoundError(say.runMissing({ id }))
        requireDraft(current)
        const rows = await repo.payslipsOf(tx, id)
        if (!principal.roles.includes(ADMIN_ROLE)) {
          const own = await ownEmployeesAmong(tx, principal, rows.map((row) => row.payslip.employeeId))
          if (own.size > 0) throw ownMatterRefused(say.runOf({ company: current.company, month: current.run.month }), 'pay')
        }
        const negative = rows.filter((row) => row.payslip.net < 0)
        if (negative.length > 0)
          throw new ConflictError(say.negativeNet({ employees: messageList(negative.map(employeeName)), month: current.run.month }))
        const ids = rows.map((row) => row.payslip.employeeId)
        const existing = await repo.salariesOf(tx, ids, current.run.month)
        // a record of the month already there: one HR typed, or one another company's run wrote (the employee moved in the month)
        const [taken] = existing
        if (taken) {
          const employee = employeeName(rows.find((r) => r.payslip.employeeId === taken.employeeId)!)
          const values = { employee, month: current.run.month, id: taken.id }
          throw new ConflictError(taken.payrollRunId === null ? say.salaryNotByRun(values) : say.salaryByOtherRun({ ...values, run: taken.payrollRunId }))
        }
        if (!(await repo.approveRun(tx, id, actor.userId, now))) throw new ConflictError(say.notDraft({ company: current.company, month: current.run.month }))
        await repo.insertSalaries(tx, rows.map((row) => salaryOf(row.payslip, id, now)))
        // a leaver's remaining leave paid out: the ledger takes the days the payslip paid (CONTRACT §18)
        await writePayouts(
          tx,
          rows.map((row) => ({ employeeId: row.payslip.employeeId, month: row.payslip.month, lines: row.payslip.lines as PayLine[], employee: employeeName(row) })),
          actor.userId,
          now,
        )
        await recordAudit(tx, actor, now, {
          action: 'payroll_run.approve',
          resource: 'payroll_run',
          resourceId: id,
          after: { company_id: current.run.companyId, month: current.run.month, head_count: rows.length },
        })
      })
      return runResponse(await requireRun(id))
    },

    async remove(id: number, actor: Actor): Promise<void> {
      const found = await requireRun(id)
      requireDraft(found)
      const now = clock.now()
      await database.write(async (tx) => {
        if (!(await repo.deleteRun(tx, id))) throw new ConflictError(say.notDraft({ company: found.company, month: found.run.month }))
        await recordAudit(tx, actor, now, {
          action: 'payroll_run.delete',
          resource: 'payroll_run',
          resourceId: id,
          before: { company_id: found.run.companyId, month: found.run.month },
        })
      })
    },
  }
}

export type RunsService = ReturnType<typeof createRunsService>
