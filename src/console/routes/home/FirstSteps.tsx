import { Anchor, Badge, Card, Group, Loader, Stack, Text, Title } from '@mantine/core'
import { useQueries, useQuery } from '@tanstack/react-query'
import { Link } from 'wouter'
import { api, unwrap } from '../../api'
import { todayIn } from '../../components/dates'
import { useT } from '../../i18n'
import { useHomeWords } from './words'

/** Calendars looked at: a small company has one or two; the step is about having entered any. */
const CALENDARS_CHECKED = 5

interface Step {
  key: string
  title: string
  /** the page that does it, and its name in the navigation */
  href: string
  page: string
  /** null while its lists load, or when the caller may not read them */
  done: boolean | null
  detail: string | null
}

const list = <T,>(key: string, ask: () => Promise<T>) => ({ queryKey: ['admin', key, 'first-steps'], queryFn: ask, retry: false })

/**
 * The administrator's first-run checklist: what the service still lacks (company and zone,
 * calendar, group and rule, employees in groups, leave types, a second administrator), each
 * judged from the API's own lists and linking to the page that sets it up.
 */
export default function FirstSteps() {
  const t = useT()
  const w = useHomeWords().firstSteps
  const nav = t.common.nav
  const companies = useQuery(list('companies', () => unwrap(api.admin.companies.get({ query: { page: 1, page_size: 100 } }))))
  const groups = useQuery(list('groups', () => unwrap(api.admin.attendance.groups.get({ query: { page: 1, page_size: 100 } }))))
  const employees = useQuery(list('employees', () => unwrap(api.admin.employees.get({ query: { page: 1, page_size: 100, status: 1 } }))))
  const types = useQuery(list('leave-types', () => unwrap(api.admin.leave.types.get({ query: { page: 1, page_size: 1 } }))))
  const users = useQuery(list('users', () => unwrap(api.admin.users.get({ query: { page: 1, page_size: 100, status: 1 } }))))
  const checked = (companies.data?.list ?? []).slice(0, CALENDARS_CHECKED)
  const calendars = useQueries({
    queries: checked.map((company) => {
      const year = Number(todayIn(company.timezone ?? 'UTC').slice(0, 4))
      return list(`calendar-${company.id}-${year}`, async () => ({
        year,
        days: (await unwrap(api.admin.companies({ id: company.id }).calendar.get({ query: { year } }))).days.length,
      }))
    }),
  })

  const year = Number(todayIn().slice(0, 4))
  const names = (items: { name: string }[]) => items.map((item) => item.name).join(', ')
  const noZone = (companies.data?.list ?? []).filter((company) => !company.timezone)
  const calendarDays = calendars.reduce((sum, calendar) => sum + (calendar.data?.days ?? 0), 0)
  const calendarsKnown = companies.isSuccess && calendars.every((calendar) => calendar.isSuccess)
  const withoutRule = (groups.data?.groups ?? []).filter((group) => group.status === 1 && group.rule_count === 0)
  const withoutGroup = (employees.data?.list ?? []).filter((employee) => employee.attendance_group_id === null).length
  const admins = (users.data?.list ?? []).filter((user) => user.roles.includes('admin')).length

  const steps: Step[] = [
    {
      key: 'company',
      title: w.company,
      href: '/admin/companies',
      page: nav.companies,
      done: companies.isSuccess ? companies.data.list.length > 0 && noZone.length === 0 : null,
      detail: !companies.isSuccess
        ? null
        : companies.data.list.length === 0
          ? w.noCompany
          : noZone.length > 0
            ? w.companyNoZone(names(noZone))
            : w.companyDone(names(companies.data.list)),
    },
    {
      key: 'calendar',
      title: w.calendar,
      href: '/admin/companies',
      page: nav.companies,
      done: calendarsKnown ? calendarDays > 0 : null,
      detail: calendarsKnown ? (calendarDays > 0 ? w.calendarDone(calendarDays, calendars[0]?.data?.year ?? year) : w.noCalendar(year)) : null,
    },
    {
      key: 'group',
      title: w.group,
      href: '/admin/attendance/groups',
      page: nav.groups,
      done: groups.isSuccess ? groups.data.groups.length > 0 && withoutRule.length === 0 : null,
      detail: !groups.isSuccess
        ? null
        : groups.data.groups.length === 0
          ? w.noGroup
          : withoutRule.length > 0
            ? w.groupsWithoutRule(names(withoutRule))
            : w.groupDone(groups.data.groups.length),
    },
    {
      key: 'employees',
      title: w.employees,
      href: '/admin/employees',
      page: nav.employees,
      done: employees.isSuccess ? employees.data.total > 0 && withoutGroup === 0 : null,
      detail: !employees.isSuccess
        ? null
        : employees.data.total === 0
          ? w.noEmployees
          : withoutGroup > 0
            ? w.employeesWithoutGroup(withoutGroup)
            : w.employeesDone(employees.data.total),
    },
    {
      key: 'leave',
      title: w.leaveTypes,
      href: '/admin/leave',
      page: nav.leaveAdmin,
      done: types.isSuccess ? types.data.pagination.total_items > 0 : null,
      detail: types.isSuccess ? (types.data.pagination.total_items > 0 ? w.leaveTypesDone(types.data.pagination.total_items) : w.noLeaveTypes) : null,
    },
    {
      key: 'admin',
      title: w.secondAdmin,
      href: '/admin/users',
      page: nav.users,
      done: users.isSuccess ? admins >= 2 : null,
      detail: users.isSuccess ? (admins >= 2 ? w.adminsDone(admins) : w.oneAdmin) : null,
    },
  ]
  const known = steps.filter((step) => step.done !== null)
  const done = known.filter((step) => step.done).length
  const loading = [companies, groups, employees, types, users].some((query) => query.isPending)

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="first-steps-title" maw={760}>
      <Stack gap="sm">
        <Group justify="space-between" align="baseline">
          <Title order={2} size="h3" id="first-steps-title">
            {w.title}
          </Title>
          {!loading && <Text size="sm">{w.progress(done, known.length)}</Text>}
        </Group>
        {loading ? (
          <Loader size="sm" role="status" aria-label={t.common.loading} />
        ) : done === known.length ? (
          <Text>{w.allDone}</Text>
        ) : (
          <>
            <Text size="sm" c="dimmed">
              {w.intro}
            </Text>
            <Stack component="ol" gap="sm" p={0} m={0} style={{ listStyle: 'none' }}>
              {steps
                .filter((step) => step.done !== null)
                .map((step) => (
                  <li key={step.key}>
                    <Group gap="sm" wrap="nowrap" align="flex-start">
                      <Badge color={step.done ? 'green' : 'yellow'} variant="light" c="dark.7" miw={72}>
                        {step.done ? w.done : w.toDo}
                      </Badge>
                      <Stack gap={2}>
                        <Anchor component={Link} href={step.href} fw={600} underline="always" title={w.open(step.page)}>
                          {step.title}
                        </Anchor>
                        {step.detail && <Text size="sm">{step.detail}</Text>}
                      </Stack>
                    </Group>
                  </li>
                ))}
            </Stack>
          </>
        )}
      </Stack>
    </Card>
  )
}
