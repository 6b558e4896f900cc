import { Elysia, t } from 'elysia'
import type { AuthGuard } from '../../../http/auth'
import { Envelope, type Replier } from '../../../http/envelope'
import { errors } from '../../../http/openapi'
import type { LocalePlugin } from '../../../http/locale'
import { IdParams } from '../../../http/models'
import { say } from '../messages'
import {
  CreateGroupBody,
  CreateRuleBody,
  EmployeeIdsBody,
  EmployeeSummary,
  Group,
  GroupList,
  GroupListQuery,
  Rule,
  RuleList,
  RuleListQuery,
  UpdateGroupBody,
  UpdateRuleBody,
} from './model'
import type { AttendanceSetupService } from './service'

const rules = (summary: string, extra: object = {}) => ({ tags: ['Attendance rules'], summary, ...extra })
const groups = (summary: string, extra: object = {}) => ({ tags: ['Attendance groups'], summary, ...extra })
const TIMES = 'Times are `HH:MM` local to the group’s zone; an end before the start is an overnight shift.'
const Done = Envelope(t.Null())

export const attendanceSetupController = (guard: AuthGuard, locale: LocalePlugin, reply: Replier, setup: AttendanceSetupService) =>
  new Elysia({ name: 'attendance-setup', prefix: '/api/v1/admin/attendance' })
    .use(guard)
    .use(locale)
    .post(
      '/rules',
      async ({ body, actor, locale, set }) => reply.created(set, await setup.createRule(body, actor, locale), say.ruleCreated()),
      {
        permission: 'attendance_rules:create',
        body: CreateRuleBody,
        response: { 201: Envelope(Rule) },
        detail: rules('Create an attendance rule (status 1)', {
          description: TIMES,
          ...errors({ 400: 'the group does not exist, or times, break or area do not fit together' }),
        }),
      },
    )
    .get('/rules', async ({ query, locale }) => reply.ok(await setup.listRules(query, locale)), {
      permission: 'attendance_rules:read',
      query: RuleListQuery,
      response: Envelope(RuleList),
      detail: rules('List attendance rules'),
    })
    .get('/rules/:id', async ({ params, locale }) => reply.ok(await setup.getRule(params.id, locale)), {
      permission: 'attendance_rules:read',
      params: IdParams,
      response: Envelope(Rule),
      detail: rules('Read an attendance rule', errors({ 404: 'No such rule' })),
    })
    .put(
      '/rules/:id',
      async ({ params, body, actor, locale }) => reply.ok(await setup.updateRule(params.id, body, actor, locale), say.ruleUpdated()),
      {
        permission: 'attendance_rules:update',
        params: IdParams,
        body: UpdateRuleBody,
        response: Envelope(Rule),
        detail: rules('Update an attendance rule; every create field is accepted', {
          description: `${TIMES} Records already clocked keep the terms they were judged under.`,
          ...errors({ 400: 'the group does not exist, or times, break or area do not fit together', 404: 'No such rule' }),
        }),
      },
    )
    .delete(
      '/rules/:id',
      async ({ params, actor }) => reply.ok(await setup.removeRule(params.id, actor).then(() => null), say.ruleDeleted()),
      {
        permission: 'attendance_rules:delete',
        params: IdParams,
        response: Done,
        detail: rules('Delete an attendance rule (records keep their history)', errors({ 404: 'No such rule' })),
      },
    )
    .post(
      '/groups',
      async ({ body, actor, principal, locale, set }) => reply.created(set, await setup.createGroup(body, actor, principal, locale), say.groupCreated()),
      {
        permission: 'attendance_groups:create',
        body: CreateGroupBody,
        response: { 201: Envelope(Group) },
        detail: groups('Create an attendance group (status 1)', {
          description: 'The group’s zone is its own `timezone`, else its company’s, else the service default.',
          ...errors({ 400: 'the company or manager does not exist' }),
        }),
      },
    )
    .get('/groups', async ({ query, locale }) => reply.ok(await setup.listGroups(query, locale)), {
      permission: 'attendance_groups:read',
      query: GroupListQuery,
      response: Envelope(GroupList),
      detail: groups('List attendance groups'),
    })
    .get('/groups/:id', async ({ params, locale }) => reply.ok(await setup.getGroup(params.id, locale)), {
      permission: 'attendance_groups:read',
      params: IdParams,
      response: Envelope(Group),
      detail: groups('Read an attendance group', errors({ 404: 'No such group' })),
    })
    .put(
      '/groups/:id',
      async ({ params, body, actor, principal, locale }) => reply.ok(await setup.updateGroup(params.id, body, actor, principal, locale), say.groupUpdated()),
      {
        permission: 'attendance_groups:update',
        params: IdParams,
        body: UpdateGroupBody,
        response: Envelope(Group),
        detail: groups('Update an attendance group', {
          description: 'Fields left out stay as they are.',
          ...errors({ 400: 'the company or manager does not exist', 404: 'No such group' }),
        }),
      },
    )
    .delete(
      '/groups/:id',
      async ({ params, actor, principal }) => reply.ok(await setup.removeGroup(params.id, actor, principal).then(() => null), say.groupDeleted()),
      {
        permission: 'attendance_groups:delete',
        params: IdParams,
        response: Done,
        detail: groups('Delete an attendance group with its rules; members leave it, records stay', errors({ 404: 'No such group' })),
      },
    )
    .post(
      '/groups/:id/employees',
      async ({ params, body, actor, principal }) =>
        reply.ok(await setup.addMembers(params.id, body.employee_ids, actor, principal).then(() => null), say.employeesAdded()),
      {
        permission: 'attendance_groups:update',
        params: IdParams,
        body: EmployeeIdsBody,
        response: Done,
        detail: groups('Add employees to a group (moving them out of any other)', {
          description: 'All or nothing; their new group’s rules apply from their next work date.',
          ...errors({ 400: 'unknown employee ids (named in the message)', 404: 'No such group' }),
        }),
      },
    )
    .get('/groups/:id/employees', async ({ params }) => reply.ok(await setup.members(params.id)), {
      permission: 'attendance_groups:read',
      params: IdParams,
      response: Envelope(t.Array(EmployeeSummary)),
      detail: groups('Employees of a group', errors({ 404: 'No such group' })),
    })
    .delete(
      '/groups/:id/employees',
      async ({ params, body, actor, principal }) =>
        reply.ok(await setup.removeMembers(params.id, body.employee_ids, actor, principal).then(() => null), say.employeesRemoved()),
      {
        permission: 'attendance_groups:update',
        params: IdParams,
        body: EmployeeIdsBody,
        response: Done,
        detail: groups('Remove employees from a group', errors({ 400: 'unknown employee ids (named in the message)', 404: 'No such group' })),
      },
    )
