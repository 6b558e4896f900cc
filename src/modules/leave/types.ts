import type { Database } from '../../db/client'
import { ConflictError, NotFoundError } from '../../http/errors'
import { pageWindow, p2Pagination } from '../../http/pagination'
import type { Clock } from '../../lib/clock'
import { onConstraint } from '../../lib/sqlite-errors'
import { requiredText } from '../../lib/text'
import { recordAudit, type Actor } from '../audit/recorder'
import { say } from './messages'
import type { CreateTypeInput, LeaveTypeResponse, TypeListQuery, UpdateTypeInput } from './model'
import * as repo from './repository'
import { halfDaysOf, toTypeResponse } from './shapes'

/** Leave types (CONTRACT §9): names unique ignoring case (an index decides), a type with requests or adjustments stays. */
export function createLeaveTypesService({ database, clock }: { database: Database; clock: Clock }) {
  const { db } = database
  const missingType = (id: number) => new NotFoundError(say.typeMissing({ id }))
  const typeName = (input: { name?: string }) => (input.name === undefined ? undefined : requiredText(input.name, 'name', 50))
  const duplicate = (name: string | undefined) => () => new ConflictError(say.typeNameTaken({ name: String(name) }))

  return {

    async createType(input: CreateTypeInput, actor: Actor): Promise<LeaveTypeResponse> {
      const name = typeName(input)!
      const annualHalfDays = halfDaysOf(input.annual_days ?? 0, 'annual_days')
      const now = clock.now()
      return onConstraint(
        () =>
          database.write(async (tx) => {
            const row = await repo.insertType(tx, {
              name,
              paid: input.paid ?? true,
              requiresBalance: input.requires_balance ?? true,
              annualHalfDays,
              status: input.status ?? 1,
              createdAt: now,
              updatedAt: now,
            })
            const type = toTypeResponse(row)
            await recordAudit(tx, actor, now, { action: 'leave_type.create', resource: 'leave_type', resourceId: row.id, after: type })
            return type
          }),
        { unique: duplicate(name) },
      )
    },

    async listTypes(query: TypeListQuery) {
      const window = pageWindow(query, 10)
      const { rows, total } = await repo.listTypes(db, query.status, window)
      return { types: rows.map(toTypeResponse), pagination: p2Pagination(total, window) }
    },

    async enabledTypes() {
      return { types: (await repo.listTypes(db, 1, null)).rows.map(toTypeResponse) }
    },

    async getType(id: number): Promise<LeaveTypeResponse> {
      const row = await repo.findType(db, id)
      if (!row) throw missingType(id)
      return toTypeResponse(row)
    },

    async updateType(id: number, input: UpdateTypeInput, actor: Actor): Promise<LeaveTypeResponse> {
      const name = typeName(input)
      const annualHalfDays = input.annual_days === undefined ? undefined : halfDaysOf(input.annual_days, 'annual_days')
      const now = clock.now()
      return onConstraint(
        () =>
          database.write(async (tx) => {
            const before = await repo.findType(tx, id)
            if (!before) throw missingType(id)
            const row = await repo.updateType(tx, id, {
              name,
              paid: input.paid,
              requiresBalance: input.requires_balance,
              annualHalfDays,
              status: input.status,
              updatedAt: now,
            })
            const type = toTypeResponse(row)
            await recordAudit(tx, actor, now, {
              action: 'leave_type.update',
              resource: 'leave_type',
              resourceId: id,
              before: toTypeResponse(before),
              after: type,
            })
            return type
          }),
        { unique: duplicate(name) },
      )
    },

    async removeType(id: number, actor: Actor): Promise<void> {
      const now = clock.now()
      await onConstraint(
        () =>
          database.write(async (tx) => {
            const before = await repo.findType(tx, id)
            if (!before) throw missingType(id)
            await repo.deleteType(tx, id)
            await recordAudit(tx, actor, now, { action: 'leave_type.delete', resource: 'leave_type', resourceId: id, before: toTypeResponse(before) })
          }),
        {
          foreignKey: () => new ConflictError(say.typeInUse({ id })),
        },
      )
    },
  }
}

export type LeaveTypesService = ReturnType<typeof createLeaveTypesService>
