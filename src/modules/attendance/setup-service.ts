import { eq } from 'drizzle-orm'
import type { Locale } from '../../config'
import type { Database, Queryable } from '../../db/client'
import { companies, employees } from '../../db/schema'
import { NotFoundError, ValidationError } from '../../http/errors'
import { pageWindow, p2Pagination } from '../../http/pagination'
import type { Clock } from '../../lib/clock'
import { statusText } from '../../lib/status-text'
import { requiredText } from '../../lib/text'
import { timeZoneField } from '../../lib/timezone'
import { recordAudit, type Actor } from '../audit/recorder'
import type {
  CreateGroupInput,
  CreateRuleInput,
  GroupListQuery,
  GroupResponse,
  RuleListQuery,
  RuleResponse,
  UpdateGroupInput,
  UpdateRuleInput,
} from './setup-model'
import * as repo from './setup-repository'

type Problem = { field: string; message: string }

function refuse(problems: Problem[]): never {
  throw new ValidationError(problems.map((p) => `${p.field} ${p.message}`).join('; '), problems)
}

export function toRuleResponse({ rule, groupName }: repo.RuleWithGroup, locale: Locale): RuleResponse {
  return {
    id: rule.id,
    name: rule.name,
    description: rule.description,
    group_id: rule.groupId,
    group: groupName === null ? null : { id: rule.groupId, name: groupName },
    work_start_time: rule.workStartTime,
    work_end_time: rule.workEndTime,
    break_start_time: rule.breakStartTime,
    break_end_time: rule.breakEndTime,
    late_grace_period: rule.lateGracePeriod,
    early_grace_period: rule.earlyGracePeriod,
    required_work_hours: rule.requiredWorkHours,
    allowed_late_days: rule.allowedLateDays,
    location_required: rule.locationRequired,
    allowed_latitude: rule.allowedLatitude,
    allowed_longitude: rule.allowedLongitude,
    location_radius: rule.locationRadius,
    work_days: rule.workDays,
    flexible_time: rule.flexibleTime,
    status: rule.status,
    status_text: statusText('switch', rule.status, locale),
    created_at: rule.createdAt.toISOString(),
    updated_at: rule.updatedAt.toISOString(),
  }
}

/** The zone a group's attendance is computed in: its own, else its company's, else the default. */
export function zoneOf(detail: Pick<repo.GroupDetail, 'group' | 'companyTimezone'>, defaultZone: string): string {
  return detail.group.timezone ?? detail.companyTimezone ?? defaultZone
}

export function toGroupResponse(detail: repo.GroupDetail, locale: Locale, defaultZone: string): GroupResponse {
  const { group } = detail
  return {
    id: group.id,
    name: group.name,
    description: group.description,
    company_id: group.companyId,
    company: detail.companyName === null ? null : { id: group.companyId, name: detail.companyName },
    manager_id: group.managerId,
    manager: detail.manager,
    timezone: group.timezone,
    effective_timezone: zoneOf(detail, defaultZone),
    status: group.status,
    status_text: statusText('switch', group.status, locale),
    employee_count: detail.employeeCount,
    rule_count: detail.ruleCount,
    created_at: group.createdAt.toISOString(),
    updated_at: group.updatedAt.toISOString(),
  }
}

/** A rule's full state must hang together; every problem is named at once. */
function checkRule(rule: repo.NewRule): void {
  const problems: Problem[] = []
  const days = rule.workDays.split(',')
  if (new Set(days).size !== days.length) problems.push({ field: 'work_days', message: 'must not repeat a weekday' })
  if (rule.workStartTime === rule.workEndTime) problems.push({ field: 'work_end_time', message: 'must differ from work_start_time' })
  if ((rule.breakStartTime == null) !== (rule.breakEndTime == null))
    problems.push({
      field: rule.breakStartTime == null ? 'break_start_time' : 'break_end_time',
      message: 'is required with the other break time',
    })
  else if (rule.breakStartTime != null && rule.breakStartTime === rule.breakEndTime)
    problems.push({ field: 'break_end_time', message: 'must differ from break_start_time' })
  if ((rule.allowedLatitude == null) !== (rule.allowedLongitude == null))
    problems.push({
      field: rule.allowedLatitude == null ? 'allowed_latitude' : 'allowed_longitude',
      message: 'is required with the other coordinate',
    })
  if (rule.locationRequired) {
    if (rule.allowedLatitude == null && rule.allowedLongitude == null)
      problems.push({ field: 'allowed_latitude', message: 'and allowed_longitude are required when location_required is true' })
    if (!rule.locationRadius) problems.push({ field: 'location_radius', message: 'must be above 0 when location_required is true' })
  }
  if (problems.length > 0) refuse(problems)
}

function ruleValues(input: Partial<CreateRuleInput> & { status?: number }): Partial<repo.NewRule> {
  return {
    name: input.name === undefined ? undefined : requiredText(input.name, 'name'),
    description: input.description?.trim(),
    groupId: input.group_id,
    workStartTime: input.work_start_time,
    workEndTime: input.work_end_time,
    breakStartTime: input.break_start_time,
    breakEndTime: input.break_end_time,
    lateGracePeriod: input.late_grace_period,
    earlyGracePeriod: input.early_grace_period,
    requiredWorkHours: input.required_work_hours,
    allowedLateDays: input.allowed_late_days,
    locationRequired: input.location_required,
    allowedLatitude: input.allowed_latitude,
    allowedLongitude: input.allowed_longitude,
    locationRadius: input.location_radius,
    workDays: input.work_days,
    flexibleTime: input.flexible_time,
    status: input.status,
  }
}

const withoutUndefined = <T extends object>(value: T): Partial<T> =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>

async function exists(db: Queryable, table: typeof companies | typeof employees, id: number): Promise<boolean> {
  return (await db.select({ id: table.id }).from(table).where(eq(table.id, id)).limit(1)).length > 0
}

export interface SetupDeps {
  database: Database
  clock: Clock
  defaultZone: string
}

export function createAttendanceSetupService({ database, clock, defaultZone }: SetupDeps) {
  const { db } = database
  const groupMissing = (id: number) => new NotFoundError(`Attendance group ${id} does not exist`)
  const ruleMissing = (id: number) => new NotFoundError(`Attendance rule ${id} does not exist`)

  const loadGroup = async (tx: Queryable, id: number) => {
    const detail = await repo.findGroup(tx, id)
    if (!detail) throw groupMissing(id)
    return detail
  }
  const ruleSnapshot = async (tx: Queryable, id: number) => toRuleResponse((await repo.findRule(tx, id))!, 'en')
  const groupSnapshot = async (tx: Queryable, id: number) => toGroupResponse(await loadGroup(tx, id), 'en', defaultZone)

  /** 400 naming a referenced group that does not exist (a reference in a body is bad input, not a missing resource). */
  const checkGroupRef = async (tx: Queryable, groupId: number | undefined) => {
    if (groupId !== undefined && !(await repo.findGroup(tx, groupId)))
      refuse([{ field: 'group_id', message: `names attendance group ${groupId}, which does not exist` }])
  }

  const checkGroupRefs = async (tx: Queryable, input: { company_id?: number; manager_id?: number | null }) => {
    const problems: Problem[] = []
    if (input.company_id !== undefined && !(await exists(tx, companies, input.company_id)))
      problems.push({ field: 'company_id', message: `names company ${input.company_id}, which does not exist` })
    if (input.manager_id != null && !(await exists(tx, employees, input.manager_id)))
      problems.push({ field: 'manager_id', message: `names employee ${input.manager_id}, which does not exist` })
    if (problems.length > 0) refuse(problems)
  }

  /** 400 naming every id that is not an employee; nothing changes then. */
  const checkEmployees = async (tx: Queryable, ids: number[]) => {
    const found = new Set(await repo.existingEmployeeIds(tx, ids))
    const missing = ids.filter((id) => !found.has(id))
    if (missing.length > 0) refuse([{ field: 'employee_ids', message: `names employees that do not exist: ${missing.join(', ')}` }])
  }

  return {
    async listRules(query: RuleListQuery, locale: Locale) {
      const window = pageWindow(query, 10)
      const { rows, total } = await repo.listRules(
        db,
        { groupId: query.group_id, status: query.status, sort: query.sort ?? 'created_at', order: query.order ?? 'desc' },
        window,
      )
      return { rules: rows.map((row) => toRuleResponse(row, locale)), pagination: p2Pagination(total, window) }
    },

    async getRule(id: number, locale: Locale): Promise<RuleResponse> {
      const row = await repo.findRule(db, id)
      if (!row) throw ruleMissing(id)
      return toRuleResponse(row, locale)
    },

    async createRule(input: CreateRuleInput, actor: Actor, locale: Locale): Promise<RuleResponse> {
      const now = clock.now()
      const values: repo.NewRule = {
        ...(withoutUndefined(ruleValues(input)) as repo.NewRule),
        description: input.description?.trim() ?? '',
        status: 1,
        createdAt: now,
        updatedAt: now,
      }
      checkRule(values)
      return database.write(async (tx) => {
        await checkGroupRef(tx, input.group_id)
        const id = await repo.insertRule(tx, values)
        const after = await ruleSnapshot(tx, id)
        await recordAudit(tx, actor, now, { action: 'attendance_rule.create', resource: 'attendance_rule', resourceId: id, after })
        return toRuleResponse((await repo.findRule(tx, id))!, locale)
      })
    },

    async updateRule(id: number, input: UpdateRuleInput, actor: Actor, locale: Locale): Promise<RuleResponse> {
      const now = clock.now()
      return database.write(async (tx) => {
        const current = await repo.findRule(tx, id)
        if (!current) throw ruleMissing(id)
        const changes = { ...withoutUndefined(ruleValues(input)), updatedAt: now }
        checkRule({ ...current.rule, ...changes })
        await checkGroupRef(tx, input.group_id)
        await repo.updateRule(tx, id, changes)
        const after = await ruleSnapshot(tx, id)
        await recordAudit(tx, actor, now, {
          action: 'attendance_rule.update',
          resource: 'attendance_rule',
          resourceId: id,
          before: toRuleResponse(current, 'en'),
          after,
        })
        return toRuleResponse((await repo.findRule(tx, id))!, locale)
      })
    },

    async removeRule(id: number, actor: Actor): Promise<void> {
      const now = clock.now()
      await database.write(async (tx) => {
        const current = await repo.findRule(tx, id)
        if (!current) throw ruleMissing(id)
        await repo.deleteRule(tx, id)
        await recordAudit(tx, actor, now, {
          action: 'attendance_rule.delete',
          resource: 'attendance_rule',
          resourceId: id,
          before: toRuleResponse(current, 'en'),
        })
      })
    },

    async listGroups(query: GroupListQuery, locale: Locale) {
      const window = pageWindow(query, 10)
      const { rows, total } = await repo.listGroups(db, { companyId: query.company_id, status: query.status, search: query.search }, window)
      return { groups: rows.map((row) => toGroupResponse(row, locale, defaultZone)), pagination: p2Pagination(total, window) }
    },

    async getGroup(id: number, locale: Locale): Promise<GroupResponse> {
      return toGroupResponse(await loadGroup(db, id), locale, defaultZone)
    },

    async createGroup(input: CreateGroupInput, actor: Actor, locale: Locale): Promise<GroupResponse> {
      const now = clock.now()
      const name = requiredText(input.name, 'name')
      const timezone = timeZoneField(input.timezone) ?? null
      return database.write(async (tx) => {
        await checkGroupRefs(tx, input)
        const id = await repo.insertGroup(tx, {
          name,
          description: input.description?.trim() ?? '',
          companyId: input.company_id,
          managerId: input.manager_id ?? null,
          timezone,
          status: 1,
          createdAt: now,
          updatedAt: now,
        })
        const after = await groupSnapshot(tx, id)
        await recordAudit(tx, actor, now, { action: 'attendance_group.create', resource: 'attendance_group', resourceId: id, after })
        return toGroupResponse(await loadGroup(tx, id), locale, defaultZone)
      })
    },

    async updateGroup(id: number, input: UpdateGroupInput, actor: Actor, locale: Locale): Promise<GroupResponse> {
      const now = clock.now()
      const timezone = timeZoneField(input.timezone)
      return database.write(async (tx) => {
        const before = await groupSnapshot(tx, id)
        await checkGroupRefs(tx, input)
        await repo.updateGroup(tx, id, {
          name: input.name === undefined ? undefined : requiredText(input.name, 'name'),
          description: input.description?.trim(),
          companyId: input.company_id,
          managerId: input.manager_id,
          timezone,
          status: input.status,
          updatedAt: now,
        })
        const after = await groupSnapshot(tx, id)
        await recordAudit(tx, actor, now, {
          action: 'attendance_group.update',
          resource: 'attendance_group',
          resourceId: id,
          before,
          after,
        })
        return toGroupResponse(await loadGroup(tx, id), locale, defaultZone)
      })
    },

    /** Deletes the group with its rules; members leave it; records keep their history. */
    async removeGroup(id: number, actor: Actor): Promise<void> {
      const now = clock.now()
      await database.write(async (tx) => {
        const before = await groupSnapshot(tx, id)
        const members = await repo.membersOfGroup(tx, id)
        await repo.deleteGroup(tx, id)
        await recordAudit(tx, actor, now, {
          action: 'attendance_group.delete',
          resource: 'attendance_group',
          resourceId: id,
          before: { ...before, employee_ids: members.map((m) => m.id) },
        })
      })
    },

    async members(id: number) {
      await loadGroup(db, id)
      return repo.membersOfGroup(db, id)
    },

    async addMembers(id: number, employeeIds: number[], actor: Actor): Promise<void> {
      await changeMembers(id, employeeIds, actor, 'add')
    },

    async removeMembers(id: number, employeeIds: number[], actor: Actor): Promise<void> {
      await changeMembers(id, employeeIds, actor, 'remove')
    },
  }

  async function changeMembers(id: number, employeeIds: number[], actor: Actor, verb: 'add' | 'remove') {
    const ids = [...new Set(employeeIds)]
    const now = clock.now()
    await database.write(async (tx) => {
      await loadGroup(tx, id)
      await checkEmployees(tx, ids)
      const before = (await repo.membersOfGroup(tx, id)).map((m) => m.id)
      if (verb === 'add') await repo.addMembers(tx, id, ids, now)
      else await repo.removeMembers(tx, id, ids)
      const after = (await repo.membersOfGroup(tx, id)).map((m) => m.id)
      await recordAudit(tx, actor, now, {
        action: `attendance_group.employees.${verb}`,
        resource: 'attendance_group',
        resourceId: id,
        before: { employee_ids: before },
        after: { employee_ids: after },
      })
    })
  }
}

export type AttendanceSetupService = ReturnType<typeof createAttendanceSetupService>
