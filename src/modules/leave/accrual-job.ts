import { and, eq, gte, inArray, isNotNull, ne, sql } from 'drizzle-orm'
import { inIds } from '../../db/batches'
import type { Queryable } from '../../db/client'
import { companies, employees, leaveLedger, leaveRequests, leaveTypes } from '../../db/schema'
import { localDate } from '../../lib/local-time'
import { closeYear, EVENTS, expireCarry, expiryDate, monthlyGrants, yearlyGrant, type AccrualEmployee, type AccrualType } from './accrual'
import { unitsPerHalfDay } from './hours'
import { remainingEffect, type TypeRow } from './repository'

/*
 * The accrual job (CONTRACT §18): for every active employee and enabled type that accrues, the
 * ledger rows due by the employee's date today (in their company's zone): this year's grants (and
 * last year's, where the type existed then and a row is missing), last year's close (its remaining
 * days carried up to the type's maximum, the rest lapsed) and, after the expiry date, the lapse of
 * the carried days not used. Each row names its event, and a unique index on (employee, type,
 * event) makes a second run, or a run on another instance at the same time, write nothing twice.
 * It runs from the day-close tick (under its lease), for a new hire in the same change, and for a
 * type whose accrual is set.
 */

export interface AccrualScope {
  employeeIds?: readonly number[]
  typeIds?: readonly number[]
}

type Row = typeof leaveLedger.$inferInsert

const ROWS_PER_INSERT = 200

const typeOf = (row: TypeRow): AccrualType => ({
  accrual: row.accrual,
  annualHalfDays: row.annualHalfDays,
  tiers: row.seniorityTiers ?? null,
  carryOverMaxHalfDays: row.carryOverMaxHalfDays,
  carryOverExpires: row.carryOverExpires,
})

const REASONS = {
  grant: (period: string) => `accrued: ${period}`,
  carryOut: (year: number) => `carried over to ${year + 1}`,
  carryIn: (year: number) => `carried over from ${year}`,
  lapse: (year: number) => `lapsed at the close of ${year}`,
  expire: (year: number, date: string) => `days carried over from ${year} lapsed after ${date}`,
}

/** Writes the accrual rows due by `now`; returns how many it wrote. */
export async function accrueLeave(db: Queryable, now: Date, defaultZone: string, scope: AccrualScope = {}): Promise<number> {
  const types = await db
    .select()
    .from(leaveTypes)
    .where(and(ne(leaveTypes.accrual, 'none'), eq(leaveTypes.status, 1), scope.typeIds ? inIds(leaveTypes.id, [...scope.typeIds]) : undefined))
  if (types.length === 0) return 0
  const people = await db
    .select({ id: employees.id, hireDate: employees.hireDate, workStartDate: employees.workStartDate, leftOn: employees.leftOn, zone: companies.timezone })
    .from(employees)
    .leftJoin(companies, eq(companies.id, employees.companyId))
    .where(and(eq(employees.status, 1), scope.employeeIds ? inIds(employees.id, [...scope.employeeIds]) : undefined))
  if (people.length === 0) return 0

  const todays = new Map<string, string>()
  const todayIn = (zone: string | null) => {
    const key = zone ?? defaultZone
    let today = todays.get(key)
    if (today === undefined) todays.set(key, (today = localDate(now, key)))
    return today
  }
  const firstYear = Math.min(...people.map((person) => Number(todayIn(person.zone).slice(0, 4)))) - 1
  const ids = people.map((person) => person.id)
  const typeIds = types.map((type) => type.id)
  const key = (employeeId: number, typeId: number, what: string | number) => `${employeeId} ${typeId} ${what}`
  const within = and(inIds(leaveLedger.employeeId, ids), inArray(leaveLedger.typeId, typeIds), gte(leaveLedger.year, firstYear))

  // what the ledger holds already: the events written (with their amounts) and each year's remaining
  const [events, sums] = await Promise.all([
    db
      .select({ employeeId: leaveLedger.employeeId, typeId: leaveLedger.typeId, event: leaveLedger.event, amount: leaveLedger.amount })
      .from(leaveLedger)
      .where(and(within, isNotNull(leaveLedger.event))),
    db
      .select({ employeeId: leaveLedger.employeeId, typeId: leaveLedger.typeId, year: leaveLedger.year, remaining: sql<number>`sum(${remainingEffect})` })
      .from(leaveLedger)
      .where(within)
      .groupBy(leaveLedger.employeeId, leaveLedger.typeId, leaveLedger.year),
  ])
  const written = new Map(events.map((row) => [key(row.employeeId, row.typeId, row.event!), row.amount]))
  const remaining = new Map(sums.map((row) => [key(row.employeeId, row.typeId, row.year), Number(row.remaining)]))

  const rows: Row[] = []
  /** amounts in the type's unit (accrual's half-days × unitsPerHalfDay) */
  const add = (employeeId: number, typeId: number, year: number, kind: Row['kind'], amount: number, event: string, reason: string) => {
    if (amount === 0 || written.has(key(employeeId, typeId, event))) return
    written.set(key(employeeId, typeId, event), amount)
    rows.push({ employeeId, typeId, year, kind, amount, event, reason, actorId: null, createdAt: now })
    const balance = key(employeeId, typeId, year)
    remaining.set(balance, (remaining.get(balance) ?? 0) + amount)
  }
  // carried days whose expiry has passed, by type, year and expiry date: the days used before it are read below
  const expiring: { employeeId: number; type: TypeRow; year: number; date: string }[] = []

  for (const person of people) {
    const today = todayIn(person.zone)
    const year = Number(today.slice(0, 4))
    const employee: AccrualEmployee = person
    for (const row of types) {
      const type = typeOf(row)
      // an hourly type's days are 8 hours each, in minutes
      const per = unitsPerHalfDay(row.unit)
      // last year's grants only where the type existed by its end: a type made this year accrues from this year
      const years = localDate(row.createdAt, person.zone ?? defaultZone) <= `${year - 1}-12-31` ? [year - 1, year] : [year]
      for (const y of years) {
        if (type.accrual === 'yearly') add(person.id, row.id, y, 'grant', yearlyGrant(type, employee, y) * per, EVENTS.grant(String(y)), REASONS.grant(String(y)))
        else
          for (const grant of monthlyGrants(type, employee, y, y < year ? `${y}-12-31` : today))
            add(person.id, row.id, y, 'grant', grant.halfDays * per, EVENTS.grant(grant.month), REASONS.grant(grant.month))
      }
      // last year's close, unless it was closed already
      const last = year - 1
      if (!written.has(key(person.id, row.id, EVENTS.carryOut(last))) && !written.has(key(person.id, row.id, EVENTS.lapse(last)))) {
        const { carried, lapsed } = closeYear(remaining.get(key(person.id, row.id, last)) ?? 0, type.carryOverMaxHalfDays * per)
        add(person.id, row.id, last, 'carry', -carried, EVENTS.carryOut(last), REASONS.carryOut(last))
        add(person.id, row.id, year, 'carry', carried, EVENTS.carryIn(last), REASONS.carryIn(last))
        add(person.id, row.id, last, 'lapse', -lapsed, EVENTS.lapse(last), REASONS.lapse(last))
      }
      if (type.carryOverExpires !== null && (written.get(key(person.id, row.id, EVENTS.carryIn(last))) ?? 0) > 0 && !written.has(key(person.id, row.id, EVENTS.expire(last)))) {
        const date = expiryDate(type.carryOverExpires, year)
        if (today > date) expiring.push({ employeeId: person.id, type: row, year, date })
      }
    }
  }

  // the days each expiring carry lost to leave starting on or before its expiry date
  const groups = Map.groupBy(expiring, (item) => `${item.type.id} ${item.year} ${item.date}`)
  for (const items of groups.values()) {
    const { type, year, date } = items[0]
    const used = await db
      .select({ employeeId: leaveLedger.employeeId, amount: sql<number>`sum(${leaveLedger.amount})` })
      .from(leaveLedger)
      .innerJoin(leaveRequests, eq(leaveRequests.id, leaveLedger.requestId))
      .where(
        and(
          inIds(leaveLedger.employeeId, items.map((item) => item.employeeId)),
          eq(leaveLedger.typeId, type.id),
          eq(leaveLedger.year, year),
          inArray(leaveLedger.kind, ['pending', 'release', 'taken', 'reversal']),
          sql`${leaveRequests.startDate} <= ${date}`,
        ),
      )
      .groupBy(leaveLedger.employeeId)
    const usedBy = new Map(used.map((row) => [row.employeeId, Number(row.amount)]))
    for (const { employeeId } of items) {
      const carried = written.get(key(employeeId, type.id, EVENTS.carryIn(year - 1)))!
      const lapsed = expireCarry(carried, usedBy.get(employeeId) ?? 0, remaining.get(key(employeeId, type.id, year)) ?? 0)
      add(employeeId, type.id, year, 'lapse', -lapsed, EVENTS.expire(year - 1), REASONS.expire(year - 1, date))
    }
  }

  let inserted = 0
  for (let at = 0; at < rows.length; at += ROWS_PER_INSERT)
    inserted += (await db.insert(leaveLedger).values(rows.slice(at, at + ROWS_PER_INSERT)).onConflictDoNothing().returning({ id: leaveLedger.id })).length
  return inserted
}
