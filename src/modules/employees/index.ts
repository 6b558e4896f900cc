import { Elysia, t } from 'elysia'
import type { AuthGuard } from '../../http/auth'
import { Envelope, type Replier } from '../../http/envelope'
import { IdParams } from '../../http/models'
import { P1 } from '../../http/pagination'
import { CreateEmployeeBody, Employee, EmployeeListQuery, UpdateEmployeeBody } from './model'
import type { EmployeesService } from './service'

const detail = (summary: string) => ({ tags: ['Employees'], summary })

export const employeesController = (guard: AuthGuard, reply: Replier, employees: EmployeesService) =>
  new Elysia({ name: 'employees', prefix: '/api/v1/admin/employees' })
    .use(guard)
    .post('', async ({ body, actor, principal, set }) => reply.created(set, await employees.create(body, actor, principal), 'Employee created'), {
      permission: 'employees:create',
      body: CreateEmployeeBody,
      response: { 201: Envelope(Employee) },
      detail: detail('Create an employee; with username and password also their account (role employee)'),
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
      detail: detail('Read an employee'),
    })
    .put('/:id', async ({ params, body, actor, principal }) => reply.ok(await employees.update(params.id, body, actor, principal), 'Employee updated'), {
      permission: 'employees:update',
      params: IdParams,
      body: UpdateEmployeeBody,
      response: Envelope(Employee),
      detail: detail('Update an employee; null clears a field'),
    })
    .delete('/:id', async ({ params, actor, principal }) => reply.ok(await employees.remove(params.id, actor, principal).then(() => null), 'Employee deleted'), {
      permission: 'employees:delete',
      params: IdParams,
      response: Envelope(t.Null()),
      detail: detail('Delete an employee that no attendance or salary record references'),
    })
