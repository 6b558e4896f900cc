import { eq } from 'drizzle-orm'
import type { Locale } from '../../../config'
import type { Database, Queryable, Tx } from '../../../db/client'
import { companies, employees } from '../../../db/schema'
import { ForbiddenError, NotFoundError } from '../../../http/errors'
import { pageWindow, p2Pagination } from '../../../http/pagination'
import type { Clock } from '../../../lib/clock'
import { requiredText } from '../../../lib/text'
import { timeZoneField } from '../../../lib/timezone'
import type { Principal } from '../../rbac/access'
import { keepOwnApprover, linkedEmployeeNow, MANAGE_APPROVALS, requireDeciderChoice } from '../../rbac/own-matters'
import { allows } from '../../rbac/ability'
import { recordAudit, type Actor } from '../../audit/recorder'
import type {
  CreateGroupInput,
  CreateRuleInput,
  GroupListQuery,
  GroupResponse,
  RuleListQuery,
  RuleResponse,
  UpdateGroupInput,
  UpdateRuleInput,
} from './model'
import * as repo from './repository'
import type { RuleCache } from './repository'
import { say } from '../messages'
import { checkRule, refuse, ruleValues, toGroupResponse, toRuleResponse, withoutUndefined, type Problem } from './shapes'

async function exists(db: Queryable, table: typeof companies | typeof employees, id: number): Promise<boolean> {
  return (await db.select({ id: table.id }).from(table).where(eq(table.id, id)).limit(1)).length > 0
}

export interface SetupDeps {
  database: Database
  clock: Clock
  defaultZone: string
  ruleCache: RuleCache
}

export function createAttendanceSetupService({ database, clock, defaultZone, ruleCache }: SetupDeps) {
  const { db } = database
  /** Every change here may change the rules someone clocks against: the cached rules go after each one. */
  const write = <T>(work: (tx: Tx) => Promise<T>) => database.write(work).finally(() => ruleCache.clear())
  const groupMissing = (id: number) => new NotFoundError(say.groupMissing({ id }))
  const ruleMissing = (id: number) => new NotFoundError(say.ruleMissing({ id }))

  const loadGroup = async (tx: Queryable, id: number) => {
    const detail = await repo.findGroup(tx, id)
    if (!detail) throw groupMissing(id)
    return detail
  }
  const groupSnapshot = async (tx: Queryable, id: number) => toGroupResponse(await loadGroup(tx, id), 'en', defaultZone)

  /** 400 naming a referenced group that does not exist (a reference in a body is bad input, not a missing resource). */
  const checkGroupRef = async (tx: Queryable, groupId: number | undefined) => {
    if (groupId !== undefined && !(await repo.findGroup(tx, groupId)))
      refuse([{ field: 'group_id', message: say.namesMissingGroup({ id: groupId }) }])
  }

  const checkGroupRefs = async (tx: Queryable, input: { company_id?: number; manager_id?: number | null }) => {
    const problems: Problem[] = []
    if (input.company_id !== undefined && !(await exists(tx, companies, input.company_id)))
      problems.push({ field: 'company_id', message: say.namesMissingCompany({ id: input.company_id }) })
    if (input.manager_id != null && !(await exists(tx, employees, input.manager_id)))
      problems.push({ field: 'manager_id', message: say.namesMissingEmployee({ id: input.manager_id }) })
    if (problems.length > 0) refuse(problems)
  }

  /** 400 naming every id that is not an employee; nothing changes then. */
  const checkEmployees = async (tx: Queryable, ids: number[]) => {
    const found = new Set(await repo.existingEmployeeIds(tx, ids))
    const missing = ids.filter((id) => !found.has(id))
    if (missing.length > 0) refuse([{ field: 'employee_ids', message: say.namesMissingEmployees({ ids: missing.join(', ') }) }])
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
      return write(async (tx) => {
        await checkGroupRef(tx, input.group_id)
        const id = await repo.insertRule(tx, values)
        const created = (await repo.findRule(tx, id))!
        await recordAudit(tx, actor, now, {
          action: 'attendance_rule.create',
          resource: 'attendance_rule',
          resourceId: id,
          after: toRuleResponse(created, 'en'),
        })
        return toRuleResponse(created, locale)
      })
    },

    async updateRule(id: number, input: UpdateRuleInput, actor: Actor, locale: Locale): Promise<RuleResponse> {
      const now = clock.now()
      return write(async (tx) => {
        const current = await repo.findRule(tx, id)
        if (!current) throw ruleMissing(id)
        const changes = { ...withoutUndefined(ruleValues(input)), updatedAt: now }
        checkRule({ ...current.rule, ...changes })
        await checkGroupRef(tx, input.group_id)
        await repo.updateRule(tx, id, changes)
        const updated = (await repo.findRule(tx, id))!
        await recordAudit(tx, actor, now, {
          action: 'attendance_rule.update',
          resource: 'attendance_rule',
          resourceId: id,
          before: toRuleResponse(current, 'en'),
          after: toRuleResponse(updated, 'en'),
        })
        return toRuleResponse(updated, locale)
      })
    },

    async removeRule(id: number, actor: Actor): Promise<void> {
      const now = clock.now()
      await write(async (tx) => {
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

    async createGroup(input: CreateGroupInput, actor: Actor, principal: Principal, locale: Locale): Promise<GroupResponse> {
      const now = clock.now()
      const name = requiredText(input.name, 'name')
      const timezone = timeZoneField(input.timezone) ?? null
      return write(async (tx) => {
        await requireDeciderChoice(tx, principal, input.manager_id, now)
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
        const created = await loadGroup(tx, id)
        await recordAudit(tx, actor, now, {
          action: 'attendance_group.create',
          resource: 'attendance_group',
          resourceId: id,
          after: toGroupResponse(created, 'en', defaultZone),
        })
        return toGroupResponse(created, locale, defaultZone)
      })
    },

    async updateGroup(id: number, input: UpdateGroupInput, actor: Actor, principal: Principal, locale: Locale): Promise<GroupResponse> {
      const now = clock.now()
      const timezone = timeZoneField(input.timezone)
      return write(async (tx) => {
        const before = await groupSnapshot(tx, id)
        if (input.manager_id !== undefined && input.manager_id !== before.manager_id) await requireDeciderChoice(tx, principal, input.manager_id, now)
        await checkGroupRefs(tx, input)
        await keepOwnApprover(tx, principal, say.changeOwnGroup({ id, name: before.name }), () => repo.updateGroup(tx, id, {
          name: input.name === undefined ? undefined : requiredText(input.name, 'name'),
          description: input.description?.trim(),
          companyId: input.company_id,
          managerId: input.manager_id,
          timezone,
          status: input.status,
          updatedAt: now,
        }))
        const updated = await loadGroup(tx, id)
        await recordAudit(tx, actor, now, {
          action: 'attendance_group.update',
          resource: 'attendance_group',
          resourceId: id,
          before,
          after: toGroupResponse(updated, 'en', defaultZone),
        })
        return toGroupResponse(updated, locale, defaultZone)
      })
    },

    /** Deletes the group with its rules; members leave it; records keep their history. */
    async removeGroup(id: number, actor: Actor, principal: Principal): Promise<void> {
      const now = clock.now()
      await write(async (tx) => {
        const before = await groupSnapshot(tx, id)
        const members = await repo.membersOfGroup(tx, id)
        await keepOwnApprover(tx, principal, say.deleteOwnGroup({ id, name: before.name }), () => repo.deleteGroup(tx, id))
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

    async addMembers(id: number, employeeIds: number[], actor: Actor, principal: Principal): Promise<void> {
      await changeMembers(id, employeeIds, actor, principal, 'add')
    },

    async removeMembers(id: number, employeeIds: number[], actor: Actor, principal: Principal): Promise<void> {
      await changeMembers(id, employeeIds, actor, principal, 'remove')
    },
  }

  async function memberIds(tx: Queryable, groupId: number) {
    return (await repo.membersOfGroup(tx, groupId)).map((m) => m.id)
  }

  async function changeMembers(id: number, employeeIds: number[], actor: Actor, principal: Principal, verb: 'add' | 'remove') {
    const ids = [...new Set(employeeIds)]
    const now = clock.now()
    await write(async (tx) => {
      const group = await loadGroup(tx, id)
      await checkEmployees(tx, ids)
      // the group's manager decides its members' requests: annexing employees into one's own group is choosing to decide for them
      const manager = group.group.managerId
      if (verb === 'add' && manager !== null && !allows(principal.ability, MANAGE_APPROVALS) && manager === (await linkedEmployeeNow(tx, principal.userId)))
        throw new ForbiddenError(say.cannotAddToManaged({ id, permission: MANAGE_APPROVALS }))
      const before = await memberIds(tx, id)
      // adding moves employees out of their groups: each of those groups gets its own entry
      const left = new Map<number, number[]>()
      await keepOwnApprover(tx, principal, verb === 'add' ? say.moveIntoGroup({ id }) : say.moveOutOfGroup({ id }), async () => {
        if (verb === 'add') {
          for (const groupId of await repo.otherGroupsOf(tx, ids, id)) left.set(groupId, await memberIds(tx, groupId))
          await repo.addMembers(tx, id, ids, now)
        } else await repo.removeMembers(tx, id, ids)
      })
      await recordAudit(tx, actor, now, {
        action: `attendance_group.employees.${verb}`,
        resource: 'attendance_group',
        resourceId: id,
        before: { employee_ids: before },
        after: { employee_ids: await memberIds(tx, id) },
      })
      for (const [groupId, members] of left)
        await recordAudit(tx, actor, now, {
          action: 'attendance_group.employees.move_out',
          resource: 'attendance_group',
          resourceId: groupId,
          before: { employee_ids: members },
          after: { employee_ids: await memberIds(tx, groupId), moved_to_group_id: id },
        })
    })
  }
}

export type AttendanceSetupService = ReturnType<typeof createAttendanceSetupService>
