import { Elysia, t } from 'elysia'
import type { AuthGuard } from '../../http/auth'
import { Envelope, type Replier } from '../../http/envelope'
import { errors } from '../../http/openapi'
import { IdParams } from '../../http/models'
import { P1 } from '../../http/pagination'
import { say } from './messages'
import { AccountBody, CreateEmployeeBody, Employee, EmployeeListQuery, UpdateEmployeeBody } from './model'
import type { EmployeesService } from './service'

const detail = (summary: string, extra: object = {}) => ({ tags: ['Employees'], summary, ...extra })
const LINK_RULE =
  'Linking or unlinking an account needs every permission the accounts involved hold (and, for an existing record or your own account, salaries:read and attendance_records:read)'

export const employeesController = (guard: AuthGuard, reply: Replier, employees: EmployeesService) =>
  new Elysia({ name: 'employees', prefix: '/api/v1/admin/employees' })
    .use(guard)
    .post('', async ({ body, actor, principal, set }) => reply.created(set, await employees.create(body, actor, principal), say.created()), {
      permission: 'employees:create',
      body: CreateEmployeeBody,
      response: { 201: Envelope(Employee) },
      detail: detail('Create an employee; with username and password also their account (role employee)', {
        description: 'With `user_id`, an existing account is linked instead and given role `employee`.',
        ...errors({
          400: 'an unknown department, company or user',
          403: LINK_RULE,
          409: 'The employee number or username is taken, or the account is linked to another employee',
        }),
      }),
    })
    .get('', async ({ query }) => reply.ok(await employees.list(query)), {
      permission: 'employees:read',
      query: EmployeeListQuery,
      response: Envelope(P1(Employee)),
      detail: detail('List employees'),
    })
    .get('/:id', async ({ params }) => reply.ok(await employees.get(params.id)), {
      permission: 'employees:read',
      params: IdParams,
      response: Envelope(Employee),
      detail: detail('Read an employee', errors({ 404: 'No such employee' })),
    })
    .put('/:id', async ({ params, body, actor, principal }) => reply.ok(await employees.update(params.id, body, actor, principal), say.updated()), {
      permission: 'employees:update',
      params: IdParams,
      body: UpdateEmployeeBody,
      response: Envelope(Employee),
      detail: detail('Update an employee; null clears a field', {
        description: 'Fields left out stay as they are; `user_id` null unlinks the account.',
        ...errors({
          400: 'an unknown department, company or user',
          403: LINK_RULE,
          404: 'No such employee',
          409: 'The employee number is taken, or the account is linked to another employee',
        }),
      }),
    })
    .post(
      '/:id/account',
      async ({ params, body, actor, principal, set }) => {
        const { employee, created } = await employees.giveAccount(params.id, body, actor, principal)
        return created ? reply.created(set, employee, say.accountCreated()) : reply.ok(employee, say.accountLinked())
      },
      {
        permission: 'employees:update',
        params: IdParams,
        body: AccountBody,
        response: { 200: Envelope(Employee), 201: Envelope(Employee) },
        detail: detail('Give an employee who has no account one: create a login, or link an existing account', {
          description:
            'With `username` and `password`, a new account with role `employee` is created and linked (201); with `user_id`, an existing account is linked and given role `employee` (200). ' +
            'Either answers the employee as GET /api/v1/admin/employees/{id} does. Your own account cannot be linked to another record here.',
          ...errors({
            400: 'neither or both of username and user_id, a password without a username, or an unknown user',
            403: `${LINK_RULE}; a new account also needs the permissions of role employee`,
            404: 'No such employee',
            409: 'The employee already has an account, the username is taken, or the account is linked to another employee',
          }),
        }),
      },
    )
    .delete('/:id', async ({ params, actor, principal }) => reply.ok(await employees.remove(params.id, actor, principal).then(() => null), say.deleted()), {
      permission: 'employees:delete',
      params: IdParams,
      response: Envelope(t.Null()),
      detail: detail('Delete an employee that no attendance, leave or salary record references', {
        description: 'Set status 0 (left) instead for an employee with history.',
        ...errors({ 403: LINK_RULE, 404: 'No such employee', 409: 'Attendance or salary records reference the employee' }),
      }),
    })
