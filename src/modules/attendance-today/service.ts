import type { Locale } from '../../config'
import type { Database } from '../../db/client'
import { ForbiddenError, ValidationError } from '../../http/errors'
import type { Clock } from '../../lib/clock'
import { localDate } from '../../lib/local-time'
import { companyOf, contextFrom, employeeContext, todayWorkDate } from '../attendance/caller'
import { isWorkDay } from '../attendance/policy'
import { policyOf, ruleFor, toRecordResponse } from '../attendance/records'
import type { RecordRow } from '../attendance/repository'
import * as setup from '../attendance/setup/repository'
import { zoneOf } from '../attendance/setup/shapes'
import { kindOn } from '../calendar/repository'
import type { DayKind } from '../calendar/work-days'
import { onFullDayLeave } from '../leave/repository'
import { allows } from '../rbac/ability'
import type { Principal } from '../rbac/access'
import { say as common } from '../../http/messages'
import { say } from './messages'
import type { TodayBoardResponse, TodayQuery, TodayState } from './model'
import * as repo from './repository'

/*
 * Today's board (CONTRACT §23): who is in, late, absent, on leave or not yet in, each on the work
 * date a clock-in now gets in their group's zone, judged as day close, statistics and the month
 * calendar judge a date (the rule that applies on it, the company calendar, the attendance start,
 * full days of approved leave).
 */

/** Holders see everyone; without it, a manager sees their reports and their groups' members. */
export const READ_EVERYONE = 'attendance_records:read'

export interface TodayDeps {
  database: Database
  clock: Clock
  defaultZone: string
  ruleCache: setup.RuleCache
}

/**
 * An employee's state on their work date, from its record (late and absent as statistics count them:
 * status 1 or late minutes, status 3), whether the date is a work day for them, and whether a full day
 * of approved leave covers it. A record decides (one on a day off too); an absence on leave is leave.
 */
export function stateOf(record: Pick<RecordRow, 'status' | 'lateMinutes'> | undefined, workDay: boolean, onLeave: boolean): TodayState {
  if (record?.status === 3) return onLeave ? 'on_leave' : 'absent'
  if (record) return record.status === 1 || record.lateMinutes > 0 ? 'late' : 'in'
  if (!workDay) return 'day_off'
  return onLeave ? 'on_leave' : 'not_yet'
}

const dayKey = (company: number | null, date: string) => `${company ?? ''} ${date}`

export function createTodayBoard({ database, clock, defaultZone, ruleCache }: TodayDeps) {
  const { db } = database
  const ownContext = employeeContext({ db, defaultZone, ruleCache })
  const rulesOf = async (group: setup.GroupRow | null) =>
    group && group.status === 1 ? ruleCache.get(group.id, () => setup.enabledRulesOfGroup(db, group.id)) : []

  /** undefined: everyone; else the id of the manager whose scope the caller sees. */
  const scopeOf = async (principal: Principal): Promise<number | undefined> => {
    if (allows(principal.ability, READ_EVERYONE)) return undefined
    const managerId = await repo.activeManager(db, principal.userId)
    if (managerId === null)
      throw new ForbiddenError(say.notForYou({ permission: READ_EVERYONE }))
    return managerId
  }

  return {
    async board(principal: Principal, query: TodayQuery, locale: Locale): Promise<TodayBoardResponse> {
      const managerId = await scopeOf(principal)
      const only = query.group_id === undefined ? null : await setup.findGroup(db, query.group_id)
      if (query.group_id !== undefined && !only)
        throw new ValidationError(say.groupRefMissing({ id: query.group_id }), [{ field: 'group_id', message: common.doesNotExist() }])
      const now = clock.now()

      const people = await Promise.all(
        (await repo.boardEmployees(db, { managerId, groupId: query.group_id })).map(async (row) => {
          const context = contextFrom(row.id, row, await rulesOf(row.group), defaultZone)
          return { row, context, date: todayWorkDate(context, now) }
        }),
      )
      const byDate = new Map<string, number[]>()
      // the company calendars' marks are looked up once per company and date
      const days = new Map<string, { company: number | null; date: string }>()
      for (const { row, context, date } of people) {
        const ids = byDate.get(date) ?? []
        ids.push(row.id)
        byDate.set(date, ids)
        days.set(dayKey(companyOf(context), date), { company: companyOf(context), date })
      }
      const [records, onLeave, kinds] = await Promise.all([
        repo.recordsOn(db, people.map(({ row }) => row.id), [...byDate.keys()]),
        Promise.all([...byDate].map(async ([date, ids]) => [date, await onFullDayLeave(db, ids, date)] as const)).then((entries) => new Map(entries)),
        Promise.all([...days].map(async ([key, { company, date }]) => [key, await kindOn(db, company, date)] as const)).then(
          (entries) => new Map<string, DayKind | null>(entries),
        ),
      ])
      const recordOf = new Map(records.map((record) => [`${record.employeeId} ${record.workDate}`, record]))

      const counts = { expected: 0, in: 0, late: 0, absent: 0, on_leave: 0, not_yet: 0, day_off: 0 }
      const groups = new Map<number, { id: number; name: string; date: string }>()
      const employees = people.map(({ row, context, date }) => {
        const record = recordOf.get(`${row.id} ${date}`)
        const rule = ruleFor(context.rules, date)
        const kind = kinds.get(dayKey(companyOf(context), date)) ?? null
        const workDay = rule !== null && isWorkDay(policyOf(rule), date, kind, context.attendanceFrom)
        const leave = onLeave.get(date)?.has(row.id) ?? false
        const state = stateOf(record, workDay, leave)
        counts[state]++
        if (workDay && !leave) counts.expected++
        if (row.group) groups.set(row.group.id, { id: row.group.id, name: row.group.name, date })
        return { id: row.id, name: row.name, group_id: row.group?.id ?? null, state, record: record ? toRecordResponse(record, locale) : null }
      })

      const onlyDate = only ? todayWorkDate({ rules: await rulesOf(only.group), zone: zoneOf(only, defaultZone) }, now) : null
      if (only) groups.set(only.group.id, { id: only.group.id, name: only.group.name, date: onlyDate! })
      const date =
        onlyDate ?? (principal.employeeId === null ? localDate(now, defaultZone) : todayWorkDate(await ownContext(principal.employeeId), now))
      return { date, groups: [...groups.values()].sort((a, b) => a.id - b.id), counts, employees }
    },
  }
}

export type TodayBoard = ReturnType<typeof createTodayBoard>
