import type { Queryable } from '../../../db/client'
import { contextFrom, todayWorkDate } from '../../attendance/caller'
import * as setup from '../../attendance/setup/repository'
import { computePayslip, monthBounds, schemeInEffect } from '../compute'
import {
  NO_ENTERED_INPUTS,
  type AdjustmentInput,
  type EnteredInputs,
  type PayCalendar,
  type PayLine,
  type Payslip,
  type PaySettings,
  type PayslipInput,
  type Source,
  type TaxYearToDate,
} from '../compute/types'
import { findProfile, profilesInEffect, type ProfileRow } from '../profiles/repository'
import { computeSchemes } from '../schemes/repository'
import { declarationsOf } from '../tax/repository'
import { paidPayouts, payoutsOf } from './payouts'
import { enteredOf, payProfileOf } from './shapes'
import * as repo from './repository'

/*
 * A run's payslips, a page of employees at a time: each page's rows in a fixed number of queries
 * (employees, profiles, records, leave, the year's approved payslips), plus one per attendance
 * group and company not seen before; then `computePayslip` (pure) for each employee.
 */

/** Employees per page: a few queries and about this many employees' month in memory. */
export const RUN_PAGE = 500

/** How far back an approved month is compared for adjustments: the year before the run's month. */
const ADJUSTMENT_MONTHS = 12

export interface RunScope {
  companyId: number
  month: string
  settings: PaySettings
  /** the inputs HR entered, by employee (kept across recomputations) */
  entered: ReadonlyMap<number, EnteredInputs>
  /** only these employees (an inputs change recomputes one payslip) */
  only?: number[]
}

export interface ComputedPayslip {
  employee: repo.RunEmployee
  profileId: number
  payslip: Payslip
  entered: EnteredInputs
}

/** Employees computed between two calls of `Deps.every`. */
export const EVERY = 100

interface Deps {
  db: Queryable
  defaultZone: string
  ruleCache: setup.RuleCache
  now: Date
  /** called after every `EVERY` employees computed (the service's memory budget checks there) */
  every?: () => void
}

export function addMonths(month: string, delta: number): string {
  const [year, number] = month.split('-').map(Number)
  const index = year * 12 + (number - 1) + delta
  return `${String(Math.floor(index / 12)).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}`
}

/** Loads what one month's payslips of a page of employees read, and computes them. */
async function monthOf(deps: Deps, month: string, employees: repo.RunEmployee[], companyCalendars: Map<string, PayCalendar>) {
  const { db, ruleCache, defaultZone, now } = deps
  const { first, last } = monthBounds(month)
  const ids = employees.map((employee) => employee.id)
  const [records, leave, payouts] = await Promise.all([
    repo.payRecordsOf(db, ids, first, last),
    repo.payLeaveOf(db, ids, first, last),
    payoutsOf(db, employees, first, last),
  ])
  const calendarKey = (companyId: number) => `${companyId} ${month}`
  /** The approved corrections behind a record of the employee's month. */
  const todays = new Map<number, string>()
  const correctionsOf = (employeeId: number, recordId: number) => records.get(employeeId)?.find((record) => record.id === recordId)?.correctionIds ?? []
  /** `rest.payouts`: what an approved month paid out (read back from its payslip); else the leaver's remaining balances now */
  const compute = async (
    employee: repo.RunEmployee,
    profile: ProfileRow,
    settings: PaySettings,
    rest: Pick<PayslipInput, 'entered' | 'adjustments' | 'tax' | 'scheme' | 'declaration'> & Partial<Pick<PayslipInput, 'payouts'>>,
  ) => {
    const group = employee.group
    const rules = group && group.status === 1 ? await ruleCache.get(group.id, () => setup.enabledRulesOfGroup(db, group.id)) : []
    const context = contextFrom(employee.id, employee, rules, defaultZone)
    let calendar: PayCalendar = new Map()
    if (group) {
      const key = calendarKey(group.companyId)
      calendar = companyCalendars.get(key) ?? (await repo.payCalendarOf(db, group.companyId, first, last))
      companyCalendars.set(key, calendar)
    }
    // the same for every member of a group (its rules and zone)
    const todayKey = group?.id ?? 0
    let today = todays.get(todayKey)
    if (today === undefined) todays.set(todayKey, (today = todayWorkDate(context, now)))
    return computePayslip({
      month,
      today,
      employee: { id: employee.id, hireDate: employee.hireDate, leftOn: employee.leftOn },
      attendanceFrom: context.attendanceFrom,
      rules: context.rules,
      calendar,
      records: records.get(employee.id) ?? [],
      leave: leave.get(employee.id) ?? [],
      profile: payProfileOf(profile),
      settings,
      payouts: payouts.get(employee.id) ?? [],
      ...rest,
    })
  }
  return { compute, correctionsOf }
}

/** The year so far of each employee before `month`, from their approved payslips at the company (CONTRACT §17). */
function taxYearToDate(month: string, earlier: repo.PayslipRow[]): TaxYearToDate {
  const ofYear = earlier.filter((p) => p.month.slice(0, 4) === month.slice(0, 4))
  return {
    firstMonth: ofYear[0]?.month ?? month,
    gross: ofYear.reduce((sum, p) => sum + p.gross, 0),
    contributions: ofYear.reduce((sum, p) => sum + p.personalInsurance + p.housingFund, 0),
    withheld: ofYear.reduce((sum, p) => sum + p.personalTax, 0),
    payslipIds: ofYear.map((p) => p.id),
  }
}

const NOT_CHANGES: ReadonlySet<Source['kind']> = new Set(['pay_profile', 'payslip', 'contribution_scheme', 'tax_deduction'])
const sourceKey = (source: Source) => `${source.kind} ${source.id}`
const sourcesOf = (lines: readonly PayLine[]) => new Map(lines.flatMap((line) => line.sources.map((s) => [sourceKey(s), s] as const)))

/**
 * What changed between an approved payslip's lines and the same month computed now: the sources in
 * one and not the other, with the approved corrections behind a changed record.
 */
function changedSources(approved: readonly PayLine[], now: readonly PayLine[], correctionsOf: (recordId: number) => readonly number[]): Source[] {
  const before = sourcesOf(approved)
  const after = sourcesOf(now)
  const changed = [...before].filter(([key]) => !after.has(key)).concat([...after].filter(([key]) => !before.has(key)))
  // what the month's wage payable came from: not its profile, scheme, declaration or earlier payslips (the recomputation takes the approved profile and computes no tax)
  const sources = changed.map(([, source]) => source).filter((source) => !NOT_CHANGES.has(source.kind))
  const corrections = sources
    .filter((source) => source.kind === 'attendance_record')
    .flatMap((source) => correctionsOf(source.id).map((id): Source => ({ kind: 'correction', id })))
  return [...new Map([...sources, ...corrections].map((source) => [sourceKey(source), source])).values()]
}

/** The adjustments a month's run carries for an employee: per approved earlier month whose base gross changed since, the difference not yet carried. */
async function adjustmentsOf(
  earlier: repo.PayslipRow[],
  recompute: (payslip: repo.PayslipRow) => Promise<{ now: Payslip; correctionsOf: (recordId: number) => readonly number[] } | null>,
): Promise<AdjustmentInput[]> {
  const adjustments: AdjustmentInput[] = []
  for (const approved of earlier) {
    const recomputed = await recompute(approved)
    if (!recomputed) continue
    const { now, correctionsOf } = recomputed
    const carried = earlier
      .filter((later) => later.month > approved.month)
      .flatMap((later) => (later.lines as PayLine[]).filter((line) => line.code === 'adjustment' && line.month === approved.month))
      .reduce((sum, line) => sum + line.amount, 0)
    if (now.baseGross === approved.baseGross + carried) continue
    const changed = changedSources(approved.lines as PayLine[], now.lines, correctionsOf)
    adjustments.push({
      month: approved.month,
      recomputedGross: now.baseGross,
      approvedGross: approved.baseGross,
      carried,
      sources: [{ kind: 'payslip', id: approved.id }, ...changed],
    })
  }
  return adjustments
}

/** Every payslip of the run's scope, a page at a time. */
export async function* computeRun(deps: Deps, scope: RunScope): AsyncGenerator<ComputedPayslip[]> {
  const { db } = deps
  const { month } = scope
  const { first, last } = monthBounds(month)
  const calendars = new Map<string, PayCalendar>()
  const lookback = addMonths(month, -ADJUSTMENT_MONTHS)
  const yearStart = `${month.slice(0, 4)}-01`
  const since = lookback < yearStart ? lookback : yearStart
  // the few schemes there are, read once; a profile's scheme names its city, whose scheme in effect the month uses (CONTRACT §17)
  const schemes = await computeSchemes(db)
  const schemesById = new Map(schemes.map((scheme) => [scheme.id, scheme]))
  const schemeOf = (profile: ProfileRow) => (profile.schemeId === null ? null : schemeInEffect(schemes, schemesById.get(profile.schemeId), month))
  let after = 0
  for (;;) {
    const employees = await repo.runEmployees(db, scope.companyId, first, last, after, RUN_PAGE, scope.only)
    if (employees.length === 0) return
    after = employees[employees.length - 1].id
    const ids = employees.map((employee) => employee.id)
    const [profiles, earlierRows, declarations] = await Promise.all([
      profilesInEffect(db, ids, month),
      repo.approvedPayslipsBetween(db, scope.companyId, ids, since, month),
      declarationsOf(db, ids, Number(month.slice(0, 4))),
    ])
    const earlierOf = new Map<number, repo.PayslipRow[]>()
    for (const { payslip } of earlierRows) earlierOf.set(payslip.employeeId, [...(earlierOf.get(payslip.employeeId) ?? []), payslip])
    const { compute } = await monthOf(deps, month, employees, calendars)
    // earlier months are loaded only when some employee of the page has an approved payslip in them
    const earlierMonths = new Map<string, Awaited<ReturnType<typeof monthOf>>>()
    const earlierCompute = async (m: string) => {
      let found = earlierMonths.get(m)
      if (!found) earlierMonths.set(m, (found = await monthOf(deps, m, employees, calendars)))
      return found
    }
    const oldProfiles = new Map<number, ProfileRow | null>()
    const runSettings = new Map<number, PaySettings>()
    const page: ComputedPayslip[] = []
    for (const [at, employee] of employees.entries()) {
      if (at % EVERY === EVERY - 1) deps.every?.()
      const profile = profiles.get(employee.id)
      if (!profile) continue
      const earlier = earlierOf.get(employee.id) ?? []
      // an approved month is computed again as it was then (its profile, its run's settings, its inputs): only attendance, leave and the calendar can differ
      const adjustments = await adjustmentsOf(earlier.filter((p) => p.month >= lookback), async (approved) => {
        if (!oldProfiles.has(approved.profileId)) oldProfiles.set(approved.profileId, await findProfile(db, approved.profileId))
        const oldProfile = oldProfiles.get(approved.profileId)
        if (!oldProfile) return null
        let settings = runSettings.get(approved.runId)
        if (!settings) runSettings.set(approved.runId, (settings = ((await repo.findRun(db, approved.runId))?.run.settings as PaySettings | undefined) ?? scope.settings))
        const then = await earlierCompute(approved.month)
        // its payout stays as paid: the ledger row its approval wrote took those days (CONTRACT §18);
        // contributions and tax are after the gross compared, so none are computed
        const now = await then.compute(employee, oldProfile, settings, {
          entered: enteredOf(approved),
          adjustments: [],
          tax: taxYearToDate(approved.month, []),
          scheme: null,
          declaration: null,
          payouts: paidPayouts(approved.month, approved.lines as PayLine[]),
        })
        return { now, correctionsOf: (recordId: number) => then.correctionsOf(employee.id, recordId) }
      })
      const entered = scope.entered.get(employee.id) ?? NO_ENTERED_INPUTS
      const payslip = await compute(employee, profile, scope.settings, {
        entered,
        adjustments,
        tax: taxYearToDate(month, earlier),
        scheme: schemeOf(profile),
        declaration: declarations.get(employee.id) ?? null,
      })
      page.push({ employee, profileId: profile.id, payslip, entered })
    }
    yield page
    if (employees.length < RUN_PAGE) return
  }
}
