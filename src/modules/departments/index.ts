import { Elysia, t } from 'elysia'
import type { AuthGuard } from '../../http/auth'
import { Envelope, type Replier } from '../../http/envelope'
import { IdParams } from '../../http/models'
import { Department, DepartmentBody, DepartmentList, DepartmentListQuery, PublicDepartment } from './model'
import type { DepartmentsService } from './service'

const detail = (summary: string) => ({ tags: ['Departments'], summary })

export const departmentsController = (guard: AuthGuard, reply: Replier, departments: DepartmentsService) =>
  new Elysia({ name: 'departments' })
    .get('/api/v1/public/departments', async () => reply.ok(await departments.listPublic()), {
      response: Envelope(t.Array(PublicDepartment)),
      detail: detail('Every department’s id and name, without a token'),
    })
    .group('/api/v1/admin/departments', (admin) =>
      admin
        .use(guard)
        .post('', async ({ body, actor, set }) => reply.created(set, await departments.create(body, actor), 'Department created'), {
          permission: 'departments:create',
          body: DepartmentBody,
          response: { 201: Envelope(Department) },
          detail: detail('Create a department'),
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
          detail: detail('Read a department'),
        })
        .put('/:id', async ({ params, body, actor }) => reply.ok(await departments.update(params.id, body, actor), 'Department updated'), {
          permission: 'departments:update',
          params: IdParams,
          body: DepartmentBody,
          response: Envelope(Department),
          detail: detail('Rename a department'),
        })
        .delete(
          '/:id',
          async ({ params, actor }) => reply.ok(await departments.remove(params.id, actor).then(() => null), 'Department deleted'),
          {
            permission: 'departments:delete',
            params: IdParams,
            response: Envelope(t.Null()),
            detail: detail('Delete a department no employee belongs to'),
          },
        ),
    )
