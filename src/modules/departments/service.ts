import type { Database } from '../../db/client'
import { ConflictError, NotFoundError } from '../../http/errors'
import { pageWindow } from '../../http/pagination'
import type { Clock } from '../../lib/clock'
import { onConstraint } from '../../lib/sqlite-errors'
import { requiredText } from '../../lib/text'
import { recordAudit, type Actor } from '../audit/recorder'
import { DEPARTMENT_NAME_MAX, type DepartmentInput, type DepartmentListQuery, type DepartmentResponse } from './model'
import { say } from './messages'
import * as repo from './repository'

export function toDepartmentResponse(row: repo.DepartmentRow): DepartmentResponse {
  return { id: row.id, name: row.name, created_at: row.createdAt.toISOString(), updated_at: row.updatedAt.toISOString() }
}

const missing = (id: number) => new NotFoundError(say.missing({ id }))

export function createDepartmentsService({ database, clock }: { database: Database; clock: Clock }) {
  const { db } = database

  /** Runs a change, turning the name index's refusal into a 409. */
  const saving = <T>(name: string, work: () => Promise<T>) =>
    onConstraint(work, { unique: () => new ConflictError(say.nameTaken({ name })) })

  return {
    async list(query: DepartmentListQuery) {
      const window = pageWindow(query, 10)
      const { rows, total } = await repo.listDepartments(db, query.name, window)
      return { departments: rows.map(toDepartmentResponse), total, page: window.page, page_size: window.pageSize }
    },

    /** The public list: every department's id and name, by id. */
    listPublic: () => repo.allDepartmentNames(db),

    async get(id: number): Promise<DepartmentResponse> {
      const row = await repo.findDepartment(db, id)
      if (!row) throw missing(id)
      return toDepartmentResponse(row)
    },

    create(input: DepartmentInput, actor: Actor): Promise<DepartmentResponse> {
      const name = requiredText(input.name, 'name', DEPARTMENT_NAME_MAX)
      const now = clock.now()
      return saving(name, () =>
        database.write(async (tx) => {
          const row = toDepartmentResponse(await repo.insertDepartment(tx, { name, createdAt: now, updatedAt: now }))
          await recordAudit(tx, actor, now, { action: 'department.create', resource: 'department', resourceId: row.id, after: row })
          return row
        }),
      )
    },

    update(id: number, input: DepartmentInput, actor: Actor): Promise<DepartmentResponse> {
      const name = requiredText(input.name, 'name', DEPARTMENT_NAME_MAX)
      const now = clock.now()
      return saving(name, () =>
        database.write(async (tx) => {
          const before = await repo.findDepartment(tx, id)
          if (!before) throw missing(id)
          const after = toDepartmentResponse((await repo.updateDepartment(tx, id, { name, updatedAt: now }))!)
          await recordAudit(tx, actor, now, {
            action: 'department.update',
            resource: 'department',
            resourceId: id,
            before: toDepartmentResponse(before),
            after,
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
            const before = await repo.findDepartment(tx, id)
            if (!before) throw missing(id)
            await repo.deleteDepartment(tx, id)
            await recordAudit(tx, actor, now, {
              action: 'department.delete',
              resource: 'department',
              resourceId: id,
              before: toDepartmentResponse(before),
            })
          }),
        { foreignKey: () => new ConflictError(say.stillUsed({ id })) },
      )
    },
  }
}

export type DepartmentsService = ReturnType<typeof createDepartmentsService>
