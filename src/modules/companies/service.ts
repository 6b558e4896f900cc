import type { Database } from '../../db/client'
import { ConflictError, NotFoundError } from '../../http/errors'
import { p1, pageWindow } from '../../http/pagination'
import type { Clock } from '../../lib/clock'
import { onConstraint } from '../../lib/sqlite-errors'
import { requiredText } from '../../lib/text'
import { timeZoneField } from '../../lib/timezone'
import { recordAudit, type Actor } from '../audit/recorder'
import type { CompanyListQuery, CompanyResponse, CreateCompanyInput, UpdateCompanyInput } from './model'
import * as repo from './repository'

export function toCompanyResponse(row: repo.CompanyRow): CompanyResponse {
  return {
    id: row.id,
    name: row.name,
    timezone: row.timezone,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  }
}

const nameTaken = (name: string) => new ConflictError(`A company named "${name}" already exists`)
const missing = (id: number) => new NotFoundError(`Company ${id} does not exist`)

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
      const now = clock.now()
      return saving(name, () =>
        database.write(async (tx) => {
          const company = toCompanyResponse(await repo.insertCompany(tx, { name, timezone, createdAt: now, updatedAt: now }))
          await recordAudit(tx, actor, now, { action: 'company.create', resource: 'company', resourceId: company.id, after: company })
          return company
        }),
      )
    },

    update(id: number, input: UpdateCompanyInput, actor: Actor): Promise<CompanyResponse> {
      const name = input.name === undefined ? undefined : requiredText(input.name, 'name')
      const timezone = timeZoneField(input.timezone)
      const now = clock.now()
      return saving(name, () =>
        database.write(async (tx) => {
          const before = await repo.findCompany(tx, id)
          if (!before) throw missing(id)
          const after = toCompanyResponse((await repo.updateCompany(tx, id, { name, timezone, updatedAt: now }))!)
          await recordAudit(tx, actor, now, { action: 'company.update', resource: 'company', resourceId: id, before: toCompanyResponse(before), after })
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
        { foreignKey: () => new ConflictError(`Company ${id} still has employees or attendance groups; move or delete them first`) },
      )
    },
  }
}

export type CompaniesService = ReturnType<typeof createCompaniesService>
