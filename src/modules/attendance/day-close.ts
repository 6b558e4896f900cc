import { randomUUID } from 'node:crypto'
import { and, eq, gte } from 'drizzle-orm'
import type { Database, Queryable } from '../../db/client'
import { attendanceClosedDays, attendanceGroups, jobLeases } from '../../db/schema'
import { ValidationError } from '../../http/errors'
import type { Clock } from '../../lib/clock'
import { addDays, instantAt, localDate } from '../../lib/local-time'
import type { Logger } from '../../lib/logger'
import { recordAudit, type Actor } from '../audit/recorder'
import { kindOnIn } from '../calendar/repository'
import { attendanceStart } from '../calendar/work-days'
import { markLeavers } from '../employees/leavers'
import { accrueLeave } from '../leave/accrual-job'
import { onFullDayLeave } from '../leave/repository'
import type { CloseDayResponse } from './model'
import { say as common } from '../../http/messages'
import { say } from './messages'
import { closesAt, isWorkDay, shiftFor, shiftOf } from './policy'
import * as repo from './repository'
import { checkDate, policyOf, ruleFor, shiftColumns, shiftOfRecord } from './records'
import * as setup from './setup/repository'
import { zoneOf } from './setup/shapes'
import { databaseUnavailable } from '../../db/unavailable'
import { databaseError } from '../../lib/sqlite-errors'

const LEASE = 'attendance.day-close'
const LEASE_MS = 90_000
/** How far back the scheduled job looks for days it has not closed (e.g. after downtime). */
const CATCH_UP_DAYS = 31

type GroupResult = CloseDayResponse['groups'][number]

/**
 * When a work date is closed in the group's zone: when the shift of the rule that applies
 * on it closes (policy `closesAt`: its local midnight, a day later for an overnight
 * shift), after which no clock-in can be dated on it; its local midnight with no rule.
 */
export function dayClosesAt(rules: setup.RuleRow[], date: string, zone: string): Date {
  const rule = ruleFor(rules, date)
  return rule ? closesAt(shiftOf(policyOf(rule), zone, date).end, zone) : instantAt(addDays(date, 1), '00:00', zone)
}

export interface DayCloseDeps {
  database: Database
  clock: Clock
  defaultZone: string
  logger: Logger
}

/**
 * Day close: once a work day has closed in a group's zone, members with no record get an
 * absent record (on work days: the rule's, as its company's calendar corrects them); records
 * with a clock-in and no clock-out become exceptions once their own shift has closed. The
 * unique (employee, work date) index makes it idempotent; a lease row lets one instance at a
 * time run the scheduled job.
 */
export function createDayClose({ database, clock, defaultZone, logger }: DayCloseDeps) {
  const holder = randomUUID()
  /** The UTC hour the accrual job last ran in: it runs once an hour, so within an hour of any zone's midnight (CONTRACT §18). */
  let accruedIn: string | null = null
  /** The group's first day, in its zone: no day before it is closed. */
  const createdOn = (detail: setup.GroupDetail) => localDate(detail.group.createdAt, zoneOf(detail, defaultZone))

  /** Absences of a group's work date once it is closed, under the rule that applies on that date. */
  const closeGroup = async (tx: Queryable, detail: setup.GroupDetail, date: string, now: Date): Promise<GroupResult> => {
    const zone = zoneOf(detail, defaultZone)
    const rules = await setup.enabledRulesOfGroup(tx, detail.group.id)
    const result: GroupResult = { group_id: detail.group.id, timezone: zone, closed: false, absent_records: 0, exception_records: 0 }
    // a day that has not begun in the group's zone has not ended either (and 9999-12-31 has no day after it to compute)
    if (date > localDate(now, zone) || dayClosesAt(rules, date, zone) > now) return result
    const rule = ruleFor(rules, date)
    // the company calendar decides with the rule: no absences on a holiday, absences on a make-up workday;
    // and none before the company's attendance start (CONTRACT §23)
    const kind = rule ? await kindOnIn(tx, detail.group.companyId, date) : null
    const startsOn = detail.companyStartsOn
    if (rule && isWorkDay(policyOf(rule), date, kind, startsOn)) {
      // nor before each member's own attendance start (their hire date)
      const missing = (await repo.membersWithoutRecord(tx, detail.group.id, date))
        .filter((member) => isWorkDay(policyOf(rule), date, kind, attendanceStart(startsOn, member.hireDate)))
        .map((member) => member.id)
      // approved leave is not absence (CONTRACT §9): a full day of it gets no absent record
      const onLeave = await onFullDayLeave(tx, missing, date)
      const absent = missing.filter((id) => !onLeave.has(id))
      result.absent_records = await repo.insertAbsences(tx, absent, {
        ruleId: rule.id,
        groupId: detail.group.id,
        workDate: date,
        timezone: zone,
        ...shiftColumns(shiftFor(policyOf(rule), zone, date, kind, startsOn)),
        createdAt: now,
        updatedAt: now,
      })
    }
    await tx.insert(attendanceClosedDays).values({ groupId: detail.group.id, workDate: date, closedAt: now }).onConflictDoNothing()
    result.closed = true
    return result
  }

  /**
   * Open records become exceptions once their own shift has closed (policy `closesAt`,
   * in the record's zone), found by record: whatever group, zone or rule their employee
   * has now. Returns how many did.
   */
  const closeOpenRecords = async (tx: Queryable, now: Date, only: { workDate?: string; groupId?: number } = {}) => {
    const due: number[] = []
    for (const record of await repo.endedOpenRecords(tx, now, only)) {
      // a record from before records kept their shift goes by its rule, if there still is one
      const rule = record.shiftEnd || record.ruleId === null ? null : ((await setup.findRule(tx, record.ruleId))?.rule ?? null)
      if (closesAt(shiftOfRecord(record, rule).end, record.timezone) <= now) due.push(record.id)
    }
    return repo.markExceptions(tx, due, now)
  }

  /** Takes or renews the lease; false while another instance holds an unexpired one. */
  const takeLease = (now: Date) =>
    database.write(async (tx) => {
      const [lease] = await tx.select().from(jobLeases).where(eq(jobLeases.name, LEASE))
      if (lease && lease.holder !== holder && lease.expiresAt > now) return false
      const expiresAt = new Date(now.getTime() + LEASE_MS)
      await tx
        .insert(jobLeases)
        .values({ name: LEASE, holder, expiresAt })
        .onConflictDoUpdate({ target: jobLeases.name, set: { holder, expiresAt } })
      return true
    })

  const closedSince = async (groupId: number, start: string): Promise<Set<string>> => {
    const rows = await database.db
      .select({ date: attendanceClosedDays.workDate })
      .from(attendanceClosedDays)
      .where(and(eq(attendanceClosedDays.groupId, groupId), gte(attendanceClosedDays.workDate, start)))
    return new Set(rows.map((row) => row.date))
  }

  return {
    /** On demand: closes `date` for one group or every enabled group; days not yet ended are reported, not closed. */
    async close(date: string, groupId: number | undefined, actor: Actor): Promise<CloseDayResponse> {
      checkDate('date', date)
      const now = clock.now()
      return database.write(async (tx) => {
        const groups: setup.GroupDetail[] = []
        if (groupId !== undefined) {
          const detail = await setup.findGroup(tx, groupId)
          if (!detail)
            throw new ValidationError(say.groupRefMissing({ id: groupId }), [{ field: 'group_id', message: common.doesNotExist() }])
          if (detail.group.status !== 1)
            throw new ValidationError(say.groupDisabledClose({ group: detail.group.name }), [{ field: 'group_id', message: say.isDisabled() }])
          if (date < createdOn(detail))
            throw new ValidationError(say.groupNotYetCreated({ group: detail.group.name, date, created: createdOn(detail) }), [
              { field: 'date', message: say.beforeGroupCreated({ created: createdOn(detail) }) },
            ])
          groups.push(detail)
        } else {
          const ids = await tx.select({ id: attendanceGroups.id }).from(attendanceGroups).where(eq(attendanceGroups.status, 1))
          // a group that did not exist on the date has nothing to close
          for (const { id } of ids) {
            const detail = (await setup.findGroup(tx, id))!
            if (date >= createdOn(detail)) groups.push(detail)
          }
        }
        const results: GroupResult[] = []
        for (const detail of groups) {
          const result = await closeGroup(tx, detail, date, now)
          if (result.closed)
            result.exception_records = await closeOpenRecords(tx, now, { workDate: date, groupId: detail.group.id })
          results.push(result)
        }
        const response = { date, groups: results }
        await recordAudit(tx, actor, now, { action: 'attendance.close_day', resource: 'attendance_day', resourceId: date, after: response })
        return response
      })
    },

    /** The scheduled job: closes every ended, not yet closed day of every enabled group. */
    async tick(): Promise<number> {
      const now = clock.now()
      if (!(await takeLease(now))) return 0
      const exceptions = await database.write((tx) => closeOpenRecords(tx, now))
      if (exceptions > 0) logger.info('attendance records closed without a clock-out', { records: exceptions })
      // the day after a last day employed the employee is inactive (CONTRACT §18)
      const leavers = await database.write((tx) => markLeavers(tx, now, defaultZone))
      if (leavers.length > 0) logger.info('employees marked inactive after their last day employed', { employees: leavers })
      const hour = now.toISOString().slice(0, 13)
      if (hour !== accruedIn) {
        const rows = await database.write((tx) => accrueLeave(tx, now, defaultZone))
        accruedIn = hour
        if (rows > 0) logger.info('leave accrued', { ledger_rows: rows })
      }
      const groups = await database.db.select({ id: attendanceGroups.id }).from(attendanceGroups).where(eq(attendanceGroups.status, 1))
      let closed = 0
      for (const { id } of groups) {
        const detail = await setup.findGroup(database.db, id)
        if (!detail) continue
        const zone = zoneOf(detail, defaultZone)
        const today = localDate(now, zone)
        const created = createdOn(detail)
        const start = created > addDays(today, -CATCH_UP_DAYS) ? created : addDays(today, -CATCH_UP_DAYS)
        const done = await closedSince(id, start)
        for (let date = start; date <= today; date = addDays(date, 1)) {
          if (done.has(date)) continue
          const result = await database.write((tx) => closeGroup(tx, detail, date, now))
          if (!result.closed) break
          closed++
          if (result.absent_records) logger.info('attendance day closed', { ...result, date })
        }
      }
      return closed
    },
  }
}

export type DayClose = ReturnType<typeof createDayClose>

/** Runs the day-close job every `intervalMs`; returns a function that stops it. */
export function scheduleDayClose(dayClose: DayClose, logger: Logger, intervalMs = 15_000): () => void {
  let running = false
  const run = async () => {
    if (running) return
    running = true
    try {
      await dayClose.tick()
    } catch (error) {
      // a busy or stalled database is not a failure of the job: the next tick tries again
      const unavailable = databaseUnavailable(error)
      if (unavailable) logger.warn('attendance day close postponed: the database is unavailable', { reason: unavailable.reason })
      else logger.error('attendance day close failed', { error: String(error), database: databaseError(error) })
    } finally {
      running = false
    }
  }
  void run()
  const timer = setInterval(run, intervalMs)
  return () => clearInterval(timer)
}
