import type { Database, Queryable } from '../../db/client'
import { ConflictError, NotFoundError, ValidationError } from '../../http/errors'
import { isCalendarDate } from '../../lib/dates'
import { p1, pageWindow } from '../../http/pagination'
import type { Clock } from '../../lib/clock'
import { onConstraint } from '../../lib/sqlite-errors'
import { requiredText } from '../../lib/text'
import { timeZoneField } from '../../lib/timezone'
import { recordAudit, type Actor } from '../audit/recorder'
import { deleteAbsencesBefore, reopenClosedDaysBetween } from '../calendar/repository'
import type { CompanyListQuery, CompanyResponse, CreateCompanyInput, UpdateCompanyInput } from './model'
import { say as common } from '../../http/messages'
import { say } from './messages'
import * as repo from './repository'

export function toCompanyResponse(row: repo.CompanyRow): CompanyResponse {
  return {
    id: row.id,
    name: row.name,
    timezone: row.timezone,
    attendance_starts_on: row.attendanceStartsOn,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  }
}

const nameTaken = (name: string) => new ConflictError(say.nameTaken({ name }))

/** attendance_starts_on as given: a real date, null (no bound) or left out; else 400. */
function startsOnField(value: string | null | undefined): string | null | undefined {
  if (value === undefined || value === null || isCalendarDate(value)) return value
  throw new ValidationError(say.startsOnNotReal({ value }), [{ field: 'attendance_starts_on', message: common.notRealDate({ value }) }])
}

/**
 * What moving a company's attendance start (CONTRACT §23) does to days already past, as a calendar
 * change does (calendar/service.ts): the absent records its groups have before a later start go;
 * the day-close marks of dates an earlier start brings in are forgotten, so the next day close (or
 * close-day) judges them. Returns the deleted records, for the change's audit entry.
 */
async function applyStartToPast(tx: Queryable, companyId: number, before: string | null, after: string | null) {
  if (after === before) return []
  if (after === null || (before !== null && after < before)) await reopenClosedDaysBetween(tx, companyId, after, before!)
  if (after === null || (before !== null && after <= before)) return []
  const removed = await deleteAbsencesBefore(tx, companyId, after)
  return removed.map((row) => ({ id: row.id, employee_id: row.employeeId, work_date: row.workDate, group_id: row.groupId, rule_id: row.ruleId }))
}
const missing = (id: number) => new NotFoundError(say.missing({ id }))

export function createCompaniesService({ database, clock }: { database: Database; clock: Clock }) {
  const { db } = database
  const saving = <T>(name: string | undefined, work: () => Promise<T>) => onConstraint(work, { unique: () => nameTaken(name ?? '') })

  return {
    async list(query: CompanyListQuery) {
      const window = pageWindow(query, 10)
      const { rows, total } = await repo.listCompanies(db, query.search, window)
      return p1(rows.map(toCompanyResponse), total, window)
    },

    async get(id: number): Promise<CompanyResponse> {
      const row = await repo.findCompany(db, id)
      if (!row) throw missing(id)
      return toCompanyResponse(row)
    },

    create(input: CreateCompanyInput, actor: Actor): Promise<CompanyResponse> {
      const name = requiredText(input.name, 'name')
      const timezone = timeZoneField(input.timezone) ?? null
      const attendanceStartsOn = startsOnField(input.attendance_starts_on) ?? null
      const now = clock.now()
      return saving(name, () =>
        database.write(async (tx) => {
          const company = toCompanyResponse(await repo.insertCompany(tx, { name, timezone, attendanceStartsOn, createdAt: now, updatedAt: now }))
          await recordAudit(tx, actor, now, { action: 'company.create', resource: 'company', resourceId: company.id, after: company })
          return company
        }),
      )
    },

    update(id: number, input: UpdateCompanyInput, actor: Actor): Promise<CompanyResponse> {
      const name = input.name === undefined ? undefined : requiredText(input.name, 'name')
      const timezone = timeZoneField(input.timezone)
      const attendanceStartsOn = startsOnField(input.attendance_starts_on)
      const now = clock.now()
      return saving(name, () =>
        database.write(async (tx) => {
          const before = await repo.findCompany(tx, id)
          if (!before) throw missing(id)
          const after = toCompanyResponse((await repo.updateCompany(tx, id, { name, timezone, attendanceStartsOn, updatedAt: now }))!)
          const deleted = attendanceStartsOn === undefined ? [] : await applyStartToPast(tx, id, before.attendanceStartsOn, attendanceStartsOn)
          await recordAudit(tx, actor, now, {
            action: 'company.update',
            resource: 'company',
            resourceId: id,
            before: toCompanyResponse(before),
            after: deleted.length > 0 ? { ...after, deleted_absent_records: deleted } : after,
          })
          return after
        }),
      )
    },

    async remove(id: number, actor: Actor): Promise<void> {
      const now = clock.now()
      await onConstraint(
        () =>
          database.write(async (tx) => {
            const before = await repo.findCompany(tx, id)
            if (!before) throw missing(id)
            await repo.deleteCompany(tx, id)
            await recordAudit(tx, actor, now, { action: 'company.delete', resource: 'company', resourceId: id, before: toCompanyResponse(before) })
          }),
        { foreignKey: () => new ConflictError(say.stillUsed({ id })) },
      )
    },
  }
}

export type CompaniesService = ReturnType<typeof createCompaniesService>
