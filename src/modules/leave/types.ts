import type { Database } from '../../db/client'
import { ConflictError, NotFoundError, ValidationError } from '../../http/errors'
import { pageWindow, p2Pagination } from '../../http/pagination'
import type { Clock } from '../../lib/clock'
import { isCalendarDate } from '../../lib/dates'
import { onConstraint } from '../../lib/sqlite-errors'
import { requiredText } from '../../lib/text'
import { recordAudit, type Actor } from '../audit/recorder'
import { say } from './messages'
import type { CreateTypeInput, LeaveTypeResponse, TypeListQuery, UpdateTypeInput } from './model'
import { accrueLeave } from './accrual-job'
import * as repo from './repository'
import { halfDaysOf, toTypeResponse } from './shapes'

type AccrualFields = Pick<repo.NewType, 'accrual' | 'seniorityTiers' | 'carryOverMaxHalfDays' | 'carryOverExpires'>

/** MM-DD of some year: a real date of a leap year (29 February too). */
const isMonthDay = (value: string) => /^\d{2}-\d{2}$/.test(value) && isCalendarDate(`2000-${value}`)

/** The accrual settings sent (CONTRACT §18) in their stored form; a field not sent is undefined. */
function accrualFields(input: UpdateTypeInput): AccrualFields {
  const tiers = input.seniority_tiers?.map((tier, at) => ({ fromYears: tier.from_years, halfDays: halfDaysOf(tier.days, `seniority_tiers[${at}].days`) }))
  tiers?.sort((a, b) => a.fromYears - b.fromYears)
  const twice = tiers?.find((tier, at) => at > 0 && tiers[at - 1].fromYears === tier.fromYears)
  if (twice) throw ValidationError.of([{ field: 'seniority_tiers', message: say.tierTwice({ years: twice.fromYears }) }])
  const expires = input.carry_over_expires
  if (expires != null) {
    if (!isMonthDay(expires))
      throw new ValidationError(say.notMonthDay({ value: expires }), [{ field: 'carry_over_expires', message: say.monthDay() }])
  }
  return {
    accrual: input.accrual,
    seniorityTiers: input.seniority_tiers === undefined ? undefined : tiers ?? null,
    carryOverMaxHalfDays: input.carry_over_max === undefined ? undefined : halfDaysOf(input.carry_over_max, 'carry_over_max'),
    carryOverExpires: expires,
  }
}

/** A new type's accrual settings: none. */
const NOT_ACCRUING: Required<AccrualFields> = { accrual: 'none', seniorityTiers: null, carryOverMaxHalfDays: 0, carryOverExpires: null }

/** The settings a type will have: those sent, else those it has (a new type: NOT_ACCRUING). */
const settled = (sent: AccrualFields, kept: Required<AccrualFields>): Required<AccrualFields> => ({
  accrual: sent.accrual ?? kept.accrual,
  seniorityTiers: sent.seniorityTiers === undefined ? kept.seniorityTiers : sent.seniorityTiers,
  carryOverMaxHalfDays: sent.carryOverMaxHalfDays ?? kept.carryOverMaxHalfDays,
  carryOverExpires: sent.carryOverExpires === undefined ? kept.carryOverExpires : sent.carryOverExpires,
})

/** Tiers and carry-over belong to a type that accrues: with accrual none they would say something no balance does. */
function requireAccruing(type: Required<AccrualFields>): void {
  if (type.accrual !== 'none') return
  const field = type.seniorityTiers !== null ? 'seniority_tiers' : type.carryOverMaxHalfDays > 0 ? 'carry_over_max' : type.carryOverExpires !== null ? 'carry_over_expires' : null
  if (field) throw ValidationError.of([{ field, message: say.onlyWhenAccruing() }])
}

/** A payout on leaving counts days (daily × 2 × days): an hourly type has none. */
function requirePayoutOfDays(unit: repo.TypeRow['unit'], payout: boolean): void {
  if (unit === 'hour' && payout) throw ValidationError.of([{ field: 'payout_on_leaving', message: say.payoutDaysOnly() }])
}

/** Leave types (CONTRACT §9): names unique ignoring case (an index decides), a type with requests or adjustments stays. */
export function createLeaveTypesService({ database, clock, defaultZone }: { database: Database; clock: Clock; defaultZone: string }) {
  const { db } = database
  const missingType = (id: number) => new NotFoundError(say.typeMissing({ id }))
  const typeName = (input: { name?: string }) => (input.name === undefined ? undefined : requiredText(input.name, 'name', 50))
  const duplicate = (name: string | undefined) => () => new ConflictError(say.typeNameTaken({ name: String(name) }))

  return {

    async createType(input: CreateTypeInput, actor: Actor): Promise<LeaveTypeResponse> {
      const name = typeName(input)!
      const annualHalfDays = halfDaysOf(input.annual_days ?? 0, 'annual_days')
      const accrual = settled(accrualFields(input), NOT_ACCRUING)
      requireAccruing(accrual)
      const unit = input.unit ?? 'day'
      const payoutOnLeaving = input.payout_on_leaving ?? false
      requirePayoutOfDays(unit, payoutOnLeaving)
      const now = clock.now()
      return onConstraint(
        () =>
          database.write(async (tx) => {
            const row = await repo.insertType(tx, {
              name,
              paid: input.paid ?? true,
              requiresBalance: input.requires_balance ?? true,
              annualHalfDays,
              ...accrual,
              unit,
              payoutOnLeaving,
              status: input.status ?? 1,
              createdAt: now,
              updatedAt: now,
            })
            // its grants due now, at once (CONTRACT §18)
            await accrueLeave(tx, now, defaultZone, { typeIds: [row.id] })
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
      const sent = accrualFields(input)
      const now = clock.now()
      return onConstraint(
        () =>
          database.write(async (tx) => {
            const before = await repo.findType(tx, id)
            if (!before) throw missingType(id)
            requireAccruing(settled(sent, before))
            requirePayoutOfDays(input.unit ?? before.unit, input.payout_on_leaving ?? before.payoutOnLeaving)
            // the amounts already written count in the unit they were written in
            if (input.unit !== undefined && input.unit !== before.unit && (await repo.hasLedgerOrRequests(tx, id)))
              throw new ConflictError(say.unitFixed({ type: before.name, unit: before.unit === 'hour' ? say.unitHour() : say.unitDay() }))
            const row = await repo.updateType(tx, id, {
              name,
              paid: input.paid,
              requiresBalance: input.requires_balance,
              annualHalfDays,
              ...sent,
              unit: input.unit,
              payoutOnLeaving: input.payout_on_leaving,
              status: input.status,
              updatedAt: now,
            })
            // the grants due now under the new settings, at once; rows written before stay (CONTRACT §18)
            await accrueLeave(tx, now, defaultZone, { typeIds: [id] })
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
