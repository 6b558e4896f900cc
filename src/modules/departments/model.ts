import { t } from 'elysia'
import { Timestamp } from '../../http/models'
import { pageQuery } from '../../http/pagination'

export const DEPARTMENT_NAME_MAX = 100

/** The bound here leaves room for surrounding spaces; the service checks the trimmed length. */
const DepartmentName = t.String({
  minLength: 1,
  maxLength: 2 * DEPARTMENT_NAME_MAX,
  description: '1 to 100 characters after trimming; unique ignoring case',
  examples: ['Engineering'],
})

export const Department = t.Object({ id: t.Integer(), name: t.String(), created_at: Timestamp, updated_at: Timestamp })
export type DepartmentResponse = typeof Department.static

export const PublicDepartment = t.Object({ id: t.Integer(), name: t.String() })

export const DepartmentBody = t.Object({ name: DepartmentName }, { examples: [{ name: 'Engineering' }] })
export type DepartmentInput = typeof DepartmentBody.static

export const DepartmentListQuery = t.Object({
  ...pageQuery(10),
  name: t.Optional(t.String({ maxLength: 100, description: 'part of the name, ignoring case' })),
})
export type DepartmentListQuery = typeof DepartmentListQuery.static

export const DepartmentList = t.Object({
  departments: t.Array(Department),
  total: t.Integer(),
  page: t.Integer(),
  page_size: t.Integer(),
})
