import { Elysia } from 'elysia'
import type { AuthGuard } from '../../http/auth'
import { Envelope, type Replier } from '../../http/envelope'
import type { LocalePlugin } from '../../http/locale'
import { errors } from '../../http/openapi'
import { TodayBoard, TodayQuery } from './model'
import { READ_EVERYONE, type TodayBoard as TodayBoardService } from './service'

/** Today's board (CONTRACT §23): any signed-in user; the caller's scope decides whom it shows, and whether it answers. */
export const attendanceTodayController = (guard: AuthGuard, locale: LocalePlugin, reply: Replier, today: TodayBoardService) =>
  new Elysia({ name: 'attendance-today', prefix: '/api/v1/admin/attendance/today' })
    .use(guard)
    .use(locale)
    .get('', async ({ principal, query, locale }) => reply.ok(await today.board(principal, query, locale)), {
      auth: true,
      query: TodayQuery,
      response: Envelope(TodayBoard),
      detail: {
        tags: ['Attendance records'],
        summary: 'Today’s board: who is in, late, absent, on leave or not yet in',
        description:
          `Holders of \`${READ_EVERYONE}\` see every active employee; a manager (an employee who is another’s \`manager_id\` or an attendance group’s) ` +
          'sees their reports and the members of their groups. Each employee is judged on the work date a clock-in now gets in their group’s zone ' +
          '(groups in different zones may be on different dates), by the rule that applies on it, the company calendar, their hire date and the ' +
          'company’s attendance start, and full days of approved leave, as day close and statistics judge it. Half a day of leave does not make ' +
          'an employee on_leave: their record (or none yet) decides.',
        ...errors({
          400: 'group_id names no attendance group',
          403: `You hold no ${READ_EVERYONE} and manage no one`,
        }),
      },
    })
