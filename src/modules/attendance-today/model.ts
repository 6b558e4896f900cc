import { t } from 'elysia'
import { PositiveInt } from '../../http/models'
import { AttendanceRecord } from '../attendance/model'

export const TodayQuery = t.Object({
  group_id: t.Optional(PositiveInt('group_id', 'only the employees now in this group')),
})
export type TodayQuery = typeof TodayQuery.static


const LocalDate = (description: string) => t.String({ description: `YYYY-MM-DD: ${description}` })

export const TodayBoard = t.Object({
  date: LocalDate('today’s work date in the zone of group_id when given, else in your own group’s zone, else in the service’s default zone'),
  groups: t.Array(
    t.Object({
      id: t.Integer(),
      name: t.String(),
      date: LocalDate('today’s work date in the group’s zone (the date a clock-in now gets there)'),
    }),
    { description: 'the groups of the employees shown (and group_id’s), by id' },
  ),
  counts: t.Object(
    {
      expected: t.Integer({ description: 'employees for whom today is a work day and who are not on a full day of approved leave' }),
      in: t.Integer(),
      late: t.Integer(),
      absent: t.Integer(),
      on_leave: t.Integer(),
      not_yet: t.Integer(),
      day_off: t.Integer(),
    },
    { description: 'employees by state (these add up to the employees shown), and how many are expected at work today' },
  ),
  employees: t.Array(
    t.Object({
      id: t.Integer(),
      name: t.String(),
      group_id: t.Nullable(t.Integer({ description: 'the attendance group whose date applies; null: none (the default zone)' })),
      state: t.Union(
        [t.Literal('in'), t.Literal('late'), t.Literal('absent'), t.Literal('on_leave'), t.Literal('not_yet'), t.Literal('day_off')],
        {
          description:
            'in: has a record of today, on time; late: its record is late; absent: an absent record (day close); on_leave: a full day of approved leave on a work day; ' +
            'not_yet: a work day with no record yet (half a day of leave included); day_off: not a work day for them (rule, company calendar, hire date or attendance start) and no record',
        },
      ),
      record: t.Nullable(AttendanceRecord),
    }),
    { description: 'active employees (status 1) in your scope, by id' },
  ),
})
export type TodayBoardResponse = typeof TodayBoard.static
export type TodayState = TodayBoardResponse['employees'][number]['state']
