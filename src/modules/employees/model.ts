import { t } from 'elysia'
import { DateString, Email, Id, Password, Phone, PositiveInt, Status, StatusFilter, Text, Timestamp } from '../../http/models'
import { pageQuery } from '../../http/pagination'
import { Username } from '../users/model'

export const Employee = t.Object({
  id: t.Integer(),
  employee_no: t.Nullable(t.String()),
  name: t.String(),
  phone: t.Nullable(t.String()),
  email: t.Nullable(t.String()),
  department_id: t.Nullable(t.Integer()),
  department: t.Nullable(t.Object({ id: t.Integer(), name: t.String() })),
  company_id: t.Nullable(t.Integer()),
  position: t.Nullable(t.String()),
  hire_date: t.Nullable(t.String({ description: 'YYYY-MM-DD' })),
  left_on: t.Nullable(t.String({ description: 'YYYY-MM-DD, the last day employed (extension, CONTRACT §18); null while employed' })),
  work_start_date: t.Nullable(t.String({ description: 'YYYY-MM-DD, when the years of work that leave seniority tiers count began (extension, CONTRACT §18); null: the hire date' })),
  status: t.Integer({ description: '1 = active, 0 = left' }),
  user_id: t.Nullable(t.Integer()),
  attendance_group_id: t.Nullable(t.Integer()),
  manager_id: t.Nullable(t.Integer({ description: 'the employee who decides this one’s requests (extension); null: their attendance group’s manager' })),
  created_at: Timestamp,
  updated_at: Timestamp,
})
export type EmployeeResponse = typeof Employee.static

const EmployeeNo = t.String({ minLength: 1, maxLength: 50 })
const Position = t.String({ maxLength: 100 })
const EmployeeStatus = Status('1 = active, 0 = left')

const employeeFields = {
  name: Text(100),
  phone: t.Optional(t.Nullable(Phone)),
  email: t.Optional(t.Nullable(Email)),
  employee_no: t.Optional(t.Nullable(EmployeeNo)),
  department_id: t.Optional(t.Nullable(Id)),
  company_id: t.Optional(t.Nullable(Id)),
  position: t.Optional(t.Nullable(Position)),
  hire_date: t.Optional(t.Nullable(DateString)),
  left_on: t.Optional(t.Nullable(DateString)),
  work_start_date: t.Optional(t.Nullable(DateString)),
  status: t.Optional(EmployeeStatus),
  user_id: t.Optional(Id),
  manager_id: t.Optional(t.Nullable(Id, { description: 'another employee, who decides this one’s leave and corrections; never a cycle' })),
  username: t.Optional(Username),
  password: t.Optional(Password),
}

export const CreateEmployeeBody = t.Object(employeeFields, {
  examples: [
    {
      name: 'Li Wei',
      employee_no: 'E0001',
      phone: '+86 138 0013 8000',
      email: 'li.wei@example.com',
      department_id: 1,
      company_id: 1,
      position: 'Software engineer',
      hire_date: '2024-01-02',
      user_id: 2,
    },
  ],
})
export type CreateEmployeeInput = typeof CreateEmployeeBody.static

export const UpdateEmployeeBody = t.Composite(
  [
    t.Partial(t.Omit(t.Object(employeeFields), ['username', 'password', 'user_id'])),
    t.Object({ user_id: t.Optional(t.Nullable(Id, { description: 'null unlinks the user' })) }),
  ],
  { examples: [{ position: 'Senior software engineer', phone: '+86 138 0013 8001' }] },
)
export type UpdateEmployeeInput = typeof UpdateEmployeeBody.static

export const AccountBody = t.Object(
  {
    username: t.Optional(Username),
    password: t.Optional(Password),
    user_id: t.Optional(Id),
  },
  {
    description: 'username and password create a new account (role employee); user_id links an existing one',
    examples: [{ username: 'zhang.min', password: 'first-password-2024' }],
  },
)
export type AccountInput = typeof AccountBody.static

export const EmployeeListQuery = t.Object({
  ...pageQuery(10),
  search: t.Optional(t.String({ maxLength: 100, description: 'matches name, employee_no, phone or e-mail' })),
  department_id: t.Optional(PositiveInt('department_id')),
  company_id: t.Optional(PositiveInt('company_id')),
  status: t.Optional(StatusFilter('1 = active, 0 = left')),
})
export type EmployeeListQuery = typeof EmployeeListQuery.static
