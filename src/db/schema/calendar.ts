import { sql } from 'drizzle-orm'
import { check, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { timestamps } from './columns'
import { companies } from './organization'

/**
 * A company's work calendar: dates that differ from its rules' weekly work days. A local
 * date (YYYY-MM-DD in each group's zone), never an instant. The days are the company's
 * own, so they go with it: they never keep a company from being deleted.
 */
export const calendarDays = sqliteTable(
  'calendar_days',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    /** YYYY-MM-DD, local */
    date: text('date').notNull(),
    /** holiday: a day off; workday: a working day on a weekly day off (a make-up day) */
    kind: text('kind', { enum: ['holiday', 'workday'] }).notNull(),
    name: text('name').notNull(),
    /** a statutory public holiday (paid at 300 % when worked, CONTRACT §16); holidays only */
    statutory: integer('statutory', { mode: 'boolean' }).notNull().default(false),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('calendar_days_company_date_unique').on(t.companyId, t.date),
    check('calendar_days_kind_check', sql`${t.kind} IN ('holiday', 'workday')`),
    check('calendar_days_statutory_check', sql`${t.statutory} = 0 OR ${t.kind} = 'holiday'`),
    check('calendar_days_date_check', sql`${t.date} GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'`),
  ],
)
