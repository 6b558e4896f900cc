import type { Database } from '../../../db/client'
import { NotFoundError, ValidationError, type FieldError } from '../../../http/errors'
import type { Clock } from '../../../lib/clock'
import { toFen, toYuan } from '../../../lib/money'
import { recordAudit, type Actor } from '../../audit/recorder'
import { findCompany } from '../../companies/repository'
import { findEmployee } from '../../employees/repository'
import { DEFAULT_PAY_SETTINGS, type PaySettings } from '../compute/types'
import { say } from '../messages'
import type { PayProfileInput, PayProfileResponse, PaySettingsInput, PaySettingsResponse } from './model'
import { findScheme } from '../schemes/repository'
import * as repo from './repository'

export interface ProfilesDeps {
  database: Database
  clock: Clock
}

export function toProfileResponse(row: repo.ProfileRow): PayProfileResponse {
  return {
    id: row.id,
    employee_id: row.employeeId,
    effective_month: row.effectiveMonth,
    basic_salary: toYuan(row.basicSalary),
    seniority_pay: toYuan(row.seniorityPay),
    allowance: toYuan(row.allowance),
    contribution_base: toYuan(row.contributionBase),
    housing_fund_base: toYuan(row.housingFundBase),
    scheme_id: row.schemeId,
    bank_account: row.bankAccount,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  }
}

/** The settings a company's payroll uses: its row, else the defaults of CONTRACT §16. */
export function settingsOf(row: repo.SettingsRow | null): PaySettings {
  if (!row) return DEFAULT_PAY_SETTINGS
  const { companyId, createdAt, updatedAt, ...settings } = row
  return settings
}

export function toSettingsResponse(companyId: number, settings: PaySettings): PaySettingsResponse {
  return {
    company_id: companyId,
    proration: settings.proration,
    days_per_month: settings.daysPerMonthHundredths / 100,
    late_deduction: {
      per_occurrence: toYuan(settings.latePerOccurrence),
      per_minute: toYuan(settings.latePerMinute),
      free_occurrences: settings.lateFreeOccurrences,
    },
    absence_deduction: settings.absenceFixed === null ? 'daily_wage' : toYuan(settings.absenceFixed),
    overtime_multipliers: {
      work_day: settings.overtimeWorkDay / 100,
      rest_day: settings.overtimeRestDay / 100,
      statutory_holiday: settings.overtimeStatutoryHoliday / 100,
    },
  }
}

/** A ratio sent as a JSON number with at most 2 decimals → integer hundredths, exactly (21.75 → 2175); null when it is not one in (min, max]. */
function hundredthsOf(value: number, min: number, max: number): number | null {
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(String(value))
  if (!match) return null
  const hundredths = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'))
  return hundredths > min * 100 && hundredths <= max * 100 ? hundredths : null
}

/** Every problem of a body at once: `read`'s field errors go to `problems` and it gives undefined. */
export function collect<T>(problems: FieldError[], read: () => T): T | undefined {
  try {
    return read()
  } catch (error) {
    if (error instanceof ValidationError && error.errors) problems.push(...error.errors)
    else throw error
    return undefined
  }
}

export function createProfilesService({ database, clock }: ProfilesDeps) {
  const { db } = database

  const requireEmployee = async (id: number) => {
    const employee = await findEmployee(db, id)
    if (!employee) throw new NotFoundError(say.employeeMissing({ id }))
    return employee
  }
  const requireCompany = async (id: number) => {
    const company = await findCompany(db, id)
    if (!company) throw new NotFoundError(say.companyMissing({ id }))
    return company
  }

  return {
    async profiles(employeeId: number): Promise<{ profiles: PayProfileResponse[] }> {
      await requireEmployee(employeeId)
      return { profiles: (await repo.profilesOf(db, employeeId)).map(toProfileResponse) }
    },

    async putProfile(employeeId: number, input: PayProfileInput, actor: Actor): Promise<PayProfileResponse> {
      const problems: FieldError[] = []
      const fen = (field: keyof PayProfileInput) => collect(problems, () => toFen(input[field] ?? 0, field)) ?? 0
      const amounts = {
        basicSalary: fen('basic_salary'),
        seniorityPay: fen('seniority_pay'),
        allowance: fen('allowance'),
        contributionBase: fen('contribution_base'),
        housingFundBase: fen('housing_fund_base'),
      }
      if (problems.length > 0) throw new ValidationError(say.invalidProfile({ problems: problems.map((p) => p.field).join(', ') }), problems)
      await requireEmployee(employeeId)
      const now = clock.now()
      return database.write(async (tx) => {
        if (input.scheme_id != null && !(await findScheme(tx, input.scheme_id)))
          throw new ValidationError(say.invalidProfile({ problems: 'scheme_id' }), [{ field: 'scheme_id', message: say.schemeMissingField() }])
        const before = (await repo.profilesOf(tx, employeeId)).find((row) => row.effectiveMonth === input.effective_month)
        const row = await repo.upsertProfile(tx, {
          employeeId,
          effectiveMonth: input.effective_month,
          ...amounts,
          schemeId: input.scheme_id ?? null,
          bankAccount: input.bank_account?.trim() || null,
          createdAt: now,
          updatedAt: now,
        })
        const after = toProfileResponse(row)
        await recordAudit(tx, actor, now, {
          action: before ? 'pay_profile.update' : 'pay_profile.create',
          resource: 'pay_profile',
          resourceId: row.id,
          before: before ? toProfileResponse(before) : undefined,
          after,
        })
        return after
      })
    },

    async settings(companyId: number): Promise<PaySettingsResponse> {
      await requireCompany(companyId)
      return toSettingsResponse(companyId, settingsOf(await repo.findSettings(db, companyId)))
    },

    async putSettings(companyId: number, input: PaySettingsInput, actor: Actor): Promise<PaySettingsResponse> {
      const problems: FieldError[] = []
      const d = DEFAULT_PAY_SETTINGS
      const ratio = (field: string, value: number | undefined, fallback: number, min: number, max: number, message: FieldError['message']) => {
        if (value === undefined) return fallback
        const hundredths = hundredthsOf(value, min, max)
        if (hundredths === null) problems.push({ field, message })
        return hundredths ?? fallback
      }
      const fen = (field: string, value: number | undefined, fallback: number) => (value === undefined ? fallback : (collect(problems, () => toFen(value, field)) ?? fallback))
      const multiplier = (kind: 'work_day' | 'rest_day' | 'statutory_holiday', fallback: number) =>
        ratio(`overtime_multipliers.${kind}`, input.overtime_multipliers?.[kind], fallback, -0.01, 10, say.multiplierField())
      const settings: PaySettings = {
        proration: input.proration ?? d.proration,
        daysPerMonthHundredths: ratio('days_per_month', input.days_per_month, d.daysPerMonthHundredths, 0, 31, say.daysPerMonthField()),
        latePerOccurrence: fen('late_deduction.per_occurrence', input.late_deduction?.per_occurrence, d.latePerOccurrence),
        latePerMinute: fen('late_deduction.per_minute', input.late_deduction?.per_minute, d.latePerMinute),
        lateFreeOccurrences: input.late_deduction?.free_occurrences ?? null,
        absenceFixed:
          input.absence_deduction === undefined || input.absence_deduction === 'daily_wage'
            ? null
            : fen('absence_deduction', input.absence_deduction, 0),
        overtimeWorkDay: multiplier('work_day', d.overtimeWorkDay),
        overtimeRestDay: multiplier('rest_day', d.overtimeRestDay),
        overtimeStatutoryHoliday: multiplier('statutory_holiday', d.overtimeStatutoryHoliday),
      }
      if (problems.length > 0) throw new ValidationError(say.invalid({ problems: problems.map((p) => p.field).join(', ') }), problems)
      await requireCompany(companyId)
      const now = clock.now()
      return database.write(async (tx) => {
        const before = await repo.findSettings(tx, companyId)
        await repo.upsertSettings(tx, { companyId, ...settings, createdAt: now, updatedAt: now })
        const after = toSettingsResponse(companyId, settings)
        await recordAudit(tx, actor, now, {
          action: 'pay_settings.update',
          resource: 'company',
          resourceId: companyId,
          before: toSettingsResponse(companyId, settingsOf(before)),
          after,
        })
        return after
      })
    },
  }
}

export type ProfilesService = ReturnType<typeof createProfilesService>
