import { Alert, Button, Group, Loader, Paper, RingProgress, SimpleGrid, Stack, Text } from '@mantine/core'
import { DateInput } from '@mantine/dates'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { api, unwrap } from '../../api'
import { PageTitle } from '../../components/PageTitle'
import { useT } from '../../i18n'
import { addMonths, lastDayOf, todayIn } from '../../components/dates'
import { useMeWords } from './words'

const daysBetween = (start: string, end: string) => Math.round((Date.parse(end) - Date.parse(start)) / 86_400_000)

/** The caller's statistics over a date range, this month by default. */
export default function Statistics() {
  const t = useT()
  const w = useMeWords().statistics
  const thisMonth = todayIn().slice(0, 7)
  const [start, setStart] = useState<string | null>(`${thisMonth}-01`)
  const [end, setEnd] = useState<string | null>(lastDayOf(thisMonth))

  const problem = !start || !end ? null : end < start ? w.endBeforeStart : daysBetween(start, end) > 365 ? w.tooLong : null
  const ready = !!start && !!end && !problem
  const stats = useQuery({
    queryKey: ['attendance', 'statistics', start, end],
    queryFn: () => unwrap(api.attendance.statistics.get({ query: { start_date: start!, end_date: end! } })),
    enabled: ready,
  })
  const setMonth = (month: string) => {
    setStart(`${month}-01`)
    setEnd(lastDayOf(month))
  }

  const s = stats.data
  const figures: [string, string | number][] = s
    ? [
        [w.workDays, s.work_days],
        [w.attendanceDays, s.attendance_days],
        [w.totalWorkHours, s.total_work_hours],
        [w.avgWorkHours, s.avg_work_hours],
        [w.overtimeHours, s.overtime_hours],
        [w.lateDays, s.late_days],
        [w.lateMinutes, s.total_late_minutes],
        [w.earlyDays, s.early_days],
        [w.earlyMinutes, s.total_early_minutes],
        [w.absentDays, s.absent_days],
        [w.exceptionDays, s.exception_days],
        [w.leaveDays, s.leave_days],
        [w.holidayDays, s.holiday_days],
        [w.lateAllowed, s.late_days_allowed],
        [w.lateOver, s.late_days_over_allowance],
        [w.totalDays, s.total_days],
      ]
    : []

  return (
    <Stack maw={640}>
      <PageTitle>{w.title}</PageTitle>
      <Group grow align="flex-start">
        <DateInput label={w.startDate} value={start} onChange={setStart} valueFormat="YYYY-MM-DD" error={problem ?? undefined} />
        <DateInput label={w.endDate} value={end} onChange={setEnd} valueFormat="YYYY-MM-DD" />
      </Group>
      <Group gap="xs">
        <Button variant="default" size="xs" onClick={() => setMonth(thisMonth)}>
          {w.thisMonth}
        </Button>
        <Button variant="default" size="xs" onClick={() => setMonth(addMonths(thisMonth, -1))}>
          {w.lastMonth}
        </Button>
      </Group>
      {stats.isError && <Alert color="red">{stats.error.message}</Alert>}
      {ready && stats.isPending && <Loader role="status" aria-label={t.common.loading} />}
      {s && (
        <section aria-label={w.summary(start!, end!)}>
          <Stack>
            <Group>
              <RingProgress
                size={110}
                thickness={10}
                roundCaps
                sections={[{ value: Math.min(100, s.attendance_rate), color: 'green' }]}
                label={
                  <Text ta="center" fw={700}>
                    {s.attendance_rate}%
                  </Text>
                }
                aria-hidden="true"
              />
              <div>
                <Text fw={700}>{w.attendanceRate}</Text>
                <Text size="xl" fw={700}>
                  {s.attendance_rate}%
                </Text>
              </div>
            </Group>
            <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="xs">
              {figures.map(([label, value]) => (
                <Paper key={label} withBorder p="sm" radius="md">
                  <Text size="xs" c="gray.7">
                    {label}
                  </Text>
                  <Text size="lg" fw={700}>
                    {value}
                  </Text>
                </Paper>
              ))}
            </SimpleGrid>
          </Stack>
        </section>
      )}
    </Stack>
  )
}
