import { Elysia, t } from 'elysia'
import type { AuthGuard } from '../../http/auth'
import { Envelope, type Replier } from '../../http/envelope'
import { errors } from '../../http/openapi'
import { IdParams } from '../../http/models'
import { say } from './messages'
import { Department, DepartmentBody, DepartmentList, DepartmentListQuery, PublicDepartment } from './model'
import type { DepartmentsService } from './service'

const detail = (summary: string, extra: object = {}) => ({ tags: ['Departments'], summary, ...extra })

export const departmentsController = (guard: AuthGuard, reply: Replier, departments: DepartmentsService) =>
  new Elysia({ name: 'departments' })
    .get('/api/v1/public/departments', async () => reply.ok(await departments.listPublic()), {
      response: Envelope(t.Array(PublicDepartment)),
      detail: detail('Every department’s id and name, without a token', {
        description: 'For sign-up and display pages: every department, sorted by id, with only its id and name.',
      }),
    })
    .group('/api/v1/admin/departments', (admin) =>
      admin
        .use(guard)
        .post('', async ({ body, actor, set }) => reply.created(set, await departments.create(body, actor), say.created()), {
          permission: 'departments:create',
          body: DepartmentBody,
          response: { 201: Envelope(Department) },
          detail: detail('Create a department', errors({ 409: 'A department with this name exists (ignoring case)' })),
        })
        .get('', async ({ query }) => reply.ok(await departments.list(query)), {
          permission: 'departments:read',
          query: DepartmentListQuery,
          response: Envelope(DepartmentList),
          detail: detail('List departments'),
        })
        .get('/:id', async ({ params }) => reply.ok(await departments.get(params.id)), {
          permission: 'departments:read',
          params: IdParams,
          response: Envelope(Department),
          detail: detail('Read a department', errors({ 404: 'No such department' })),
        })
        .put('/:id', async ({ params, body, actor }) => reply.ok(await departments.update(params.id, body, actor), say.updated()), {
          permission: 'departments:update',
          params: IdParams,
          body: DepartmentBody,
          response: Envelope(Department),
          detail: detail('Rename a department', errors({ 404: 'No such department', 409: 'A department with this name exists (ignoring case)' })),
        })
        .delete(
          '/:id',
          async ({ params, actor }) => reply.ok(await departments.remove(params.id, actor).then(() => null), say.deleted()),
          {
            permission: 'departments:delete',
            params: IdParams,
            response: Envelope(t.Null()),
            detail: detail('Delete a department no employee belongs to', errors({ 404: 'No such department', 409: 'Employees still belong to it' })),
          },
        ),
    )
