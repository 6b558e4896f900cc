import { sql } from 'drizzle-orm'
import { check, index, integer, sqliteTable, text, uniqueIndex, type AnySQLiteColumn } from 'drizzle-orm/sqlite-core'
import { timestamps } from './columns'
import { users } from './users'

export const companies = sqliteTable(
  'companies',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    name: text('name').notNull(),
    /** IANA zone; null means DEFAULT_TIMEZONE. */
    timezone: text('timezone'),
    /** YYYY-MM-DD, local: the first date attendance counts (CONTRACT §23); null: no bound */
    attendanceStartsOn: text('attendance_starts_on'),
    ...timestamps,
  },
  (t) => [uniqueIndex('companies_name_unique').on(sql`lower(${t.name})`)],
)

export const departments = sqliteTable(
  'departments',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    name: text('name').notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex('departments_name_unique').on(sql`lower(${t.name})`)],
)

export const employees = sqliteTable(
  'employees',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    employeeNo: text('employee_no'),
    name: text('name').notNull(),
    phone: text('phone'),
    email: text('email'),
    departmentId: integer('department_id').references(() => departments.id, { onDelete: 'restrict' }),
    companyId: integer('company_id').references(() => companies.id, { onDelete: 'restrict' }),
    position: text('position'),
    /** YYYY-MM-DD */
    hireDate: text('hire_date'),
    /** YYYY-MM-DD, the last day employed (CONTRACT §18); null while employed */
    leftOn: text('left_on'),
    /** YYYY-MM-DD, when the employee's years of work began (CONTRACT §18, leave seniority tiers); null: the hire date */
    workStartDate: text('work_start_date'),
    status: integer('status').notNull().default(1),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** Who decides this employee's requests (CONTRACT §10): another employee; never a cycle. */
    managerId: integer('manager_id').references((): AnySQLiteColumn => employees.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('employees_employee_no_unique').on(t.employeeNo),
    index('employees_manager_idx').on(t.managerId),
    uniqueIndex('employees_user_unique').on(t.userId),
    index('employees_department_idx').on(t.departmentId),
    index('employees_company_idx').on(t.companyId),
    index('employees_status_idx').on(t.status),
    check('employees_status_check', sql`${t.status} IN (0, 1)`),
  ],
)

/**
 * Every period an account was linked to an employee record (CONTRACT §15): a matter is one's own
 * when its employee was linked to one's account at any time since the matter was made, so
 * unlinking an account does not make its own requests someone else's. `unlinked_at` null: linked now.
 */
export const employeeLinks = sqliteTable(
  'employee_links',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    employeeId: integer('employee_id')
      .notNull()
      .references(() => employees.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    linkedAt: integer('linked_at', { mode: 'timestamp_ms' }).notNull(),
    unlinkedAt: integer('unlinked_at', { mode: 'timestamp_ms' }),
  },
  (t) => [
    index('employee_links_user_employee_idx').on(t.userId, t.employeeId),
    uniqueIndex('employee_links_open_employee_unique').on(t.employeeId).where(sql`unlinked_at IS NULL`),
    uniqueIndex('employee_links_open_user_unique').on(t.userId).where(sql`unlinked_at IS NULL`),
    check('employee_links_period_check', sql`${t.unlinkedAt} IS NULL OR ${t.unlinkedAt} >= ${t.linkedAt}`),
  ],
)
