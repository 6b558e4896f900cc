import type { Database } from '../../../db/client'
import { ConflictError, NotFoundError, ValidationError, type FieldError } from '../../../http/errors'
import type { Clock } from '../../../lib/clock'
import { toFen, toYuan } from '../../../lib/money'
import { isUniqueViolation } from '../../../lib/sqlite-errors'
import { recordAudit, type Actor } from '../../audit/recorder'
import { RATE_SCALE } from '../compute'
import { ITEM_CODES, type SchemeItem } from '../compute/types'
import { say } from '../messages'
import { collect } from '../profiles/service'
import { employeeName } from '../runs/shapes'
import type { SchemeInput, SchemeResponse } from './model'
import * as repo from './repository'

/*
 * Contribution schemes (CONTRACT §17): a city's rates, floors and ceilings from a month on. A
 * scheme a pay profile names, or that computed a payslip, is kept; editing one changes the
 * months computed after (an approved payslip keeps the figures it was approved with).
 */

export interface SchemesDeps {
  database: Database
  clock: Clock
}

export function toSchemeResponse(scheme: repo.SchemeWithItems): SchemeResponse {
  return {
    id: scheme.id,
    name: scheme.name,
    effective_from: scheme.effectiveFrom,
    items: scheme.items.map((item) => ({
      code: item.code,
      employee_rate: item.employeeRate / RATE_SCALE,
      employer_rate: item.employerRate / RATE_SCALE,
      base_min: toYuan(item.baseMin),
      base_max: toYuan(item.baseMax),
      employee_fixed: toYuan(item.employeeFixed),
    })),
    created_at: scheme.createdAt.toISOString(),
    updated_at: scheme.updatedAt.toISOString(),
  }
}

/** A rate sent as a JSON number → ten-thousandths, exactly: read through its shortest decimal spelling, as money is. */
export function rateOf(value: number): number | null {
  const match = /^(0|1)(?:\.(\d{1,4}))?$/.exec(String(value))
  if (!match) return null
  const tenThousandths = Number(match[1]) * RATE_SCALE + Number((match[2] ?? '').padEnd(4, '0'))
  return tenThousandths <= RATE_SCALE ? tenThousandths : null
}

/** The scheme's fields checked and converted (fen, ten-thousandths), or a 400 naming every field at fault. */
function readScheme(input: SchemeInput) {
  const problems: FieldError[] = []
  const name = input.name.trim()
  if (name === '') problems.push({ field: 'name', message: say.nameField() })
  const seen = new Set<string>()
  const items: SchemeItem[] = input.items.map((item, at) => {
    const field = (name: string) => `items[${at}].${name}`
    const rate = (key: 'employee_rate' | 'employer_rate') => {
      const value = rateOf(item[key])
      if (value === null) problems.push({ field: field(key), message: say.rateField() })
      return value ?? 0
    }
    const fen = (key: 'base_min' | 'base_max' | 'employee_fixed') => collect(problems, () => toFen(item[key] ?? 0, field(key))) ?? 0
    if (seen.has(item.code)) problems.push({ field: field('code'), message: say.codeTwiceField() })
    seen.add(item.code)
    const read: SchemeItem = {
      code: item.code,
      employeeRate: rate('employee_rate'),
      employerRate: rate('employer_rate'),
      baseMin: fen('base_min'),
      baseMax: fen('base_max'),
      employeeFixed: fen('employee_fixed'),
    }
    if (read.baseMax < read.baseMin) problems.push({ field: field('base_max'), message: say.baseMaxField() })
    return read
  })
  if (problems.length > 0) throw new ValidationError(say.invalidScheme({ problems: problems.map((p) => p.field).join(', ') }), problems)
  return { name, effectiveFrom: input.effective_from, items: items.sort((a, b) => ITEM_CODES.indexOf(a.code) - ITEM_CODES.indexOf(b.code)) }
}

export function createSchemesService({ database, clock }: SchemesDeps) {
  const { db } = database
  const requireScheme = async (id: number) => {
    const found = await repo.findScheme(db, id)
    if (!found) throw new NotFoundError(say.schemeMissing({ id }))
    return found
  }
  /** Writes the scheme (a new one without `id`) and its items, or 409 when its name and month are taken. */
  const save = async (input: SchemeInput, actor: Actor, id?: number): Promise<SchemeResponse> => {
    const { items, ...scheme } = readScheme(input)
    const now = clock.now()
    try {
      return await database.write(async (tx) => {
        const before = id === undefined ? null : await repo.findScheme(tx, id)
        if (id !== undefined && !before) throw new NotFoundError(say.schemeMissing({ id }))
        const schemeId = id ?? (await repo.insertScheme(tx, { ...scheme, createdAt: now, updatedAt: now })).id
        if (id !== undefined) await repo.updateScheme(tx, id, { ...scheme, updatedAt: now })
        await repo.replaceItems(tx, schemeId, items)
        const after = toSchemeResponse((await repo.findScheme(tx, schemeId))!)
        await recordAudit(tx, actor, now, {
          action: before ? 'contribution_scheme.update' : 'contribution_scheme.create',
          resource: 'contribution_scheme',
          resourceId: schemeId,
          before: before ? toSchemeResponse(before) : undefined,
          after,
        })
        return after
      })
    } catch (error) {
      if (!isUniqueViolation(error)) throw error
      const taken = await repo.schemeIdOf(db, scheme.name, scheme.effectiveFrom)
      throw new ConflictError(say.schemeExists({ name: scheme.name, month: scheme.effectiveFrom, id: taken ?? 0 }))
    }
  }

  return {
    list: async (): Promise<{ schemes: SchemeResponse[] }> => ({ schemes: (await repo.schemesWithItems(db)).map(toSchemeResponse) }),
    get: async (id: number): Promise<SchemeResponse> => toSchemeResponse(await requireScheme(id)),
    create: (input: SchemeInput, actor: Actor) => save(input, actor),
    update: (id: number, input: SchemeInput, actor: Actor) => save(input, actor, id),

    async remove(id: number, actor: Actor): Promise<void> {
      const now = clock.now()
      await database.write(async (tx) => {
        const before = await repo.findScheme(tx, id)
        if (!before) throw new NotFoundError(say.schemeMissing({ id }))
        const { profile, payslip } = await repo.schemeUses(tx, id)
        const scheme = say.schemeNamed({ name: before.name, month: before.effectiveFrom })
        if (profile) throw new ConflictError(say.schemeNamedByProfile({ scheme, employee: employeeName(profile), month: profile.effectiveMonth }))
        if (payslip) throw new ConflictError(say.schemeUsedByRun({ scheme, company: payslip.company, month: payslip.month, run: payslip.runId }))
        await repo.deleteScheme(tx, id)
        await recordAudit(tx, actor, now, { action: 'contribution_scheme.delete', resource: 'contribution_scheme', resourceId: id, before: toSchemeResponse(before) })
      })
    },
  }
}

export type SchemesService = ReturnType<typeof createSchemesService>
