import { ActionIcon, Alert, Badge, Box, Card, Group, Loader, SimpleGrid, Stack, Text, UnstyledButton, VisuallyHidden } from '@mantine/core'
import { MonthPickerInput } from '@mantine/dates'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { api, unwrap } from '../../api'
import { timeIn } from '../../components/format'
import { PageTitle } from '../../components/PageTitle'
import { useT } from '../../i18n'
import { useAttendanceZone } from './dates'
import { addMonths, todayIn } from '../../components/dates'
import { useMeWords } from './words'

type Month = Awaited<ReturnType<typeof fetchMonth>>
type Day = Month['days'][number]
type Kind = 'normal' | 'lateOrEarly' | 'absent' | 'exception' | 'leave' | 'holiday' | 'dayOff' | 'workDay'

const fetchMonth = (month: string | null) => unwrap(api.attendance.calendar.get({ query: month ? { month } : {} }))

/** What a date shows first: its record's status, else leave, a holiday, a day off or a plain work day. */
function kindOf(day: Day): Kind {
  if (day.record) {
    const status = day.record.status
    if (status === 0) return 'normal'
    if (status === 1 || status === 2) return 'lateOrEarly'
    if (status === 3) return day.leave ? 'leave' : 'absent'
    return 'exception'
  }
  if (day.leave) return 'leave'
  if (day.holiday_name) return 'holiday'
  return day.work_day ? 'workDay' : 'dayOff'
}

const COLORS: Record<Kind, string> = {
  normal: 'green',
  lateOrEarly: 'orange',
  absent: 'red',
  exception: 'grape',
  leave: 'blue',
  holiday: 'pink',
  dayOff: 'gray',
  workDay: 'gray',
}

/** The caller's month (CONTRACT §8): one cell a date, coloured by status, with the chosen date's details below. */
export default function Calendar() {
  const t = useT()
  const w = useMeWords().calendar
  const zone = useAttendanceZone()
  const [month, setMonth] = useState<string | null>(null)
  const [selected, setSelected] = useState<string | null>(null)
  const query = useQuery({ queryKey: ['calendar', month], queryFn: () => fetchMonth(month) })
  const shown = query.data?.month ?? month ?? todayIn().slice(0, 7)
  const today = todayIn(zone)

  const go = (next: string) => {
    setMonth(next)
    setSelected(null)
  }
  const label = (kind: Kind) => w[kind]
  /** Hourly leave (CONTRACT §18): its type and span, "Personal hours (10:00–14:00)". */
  const hoursOf = (hours: Day['leave_hours'][number]) => w.leaveOf(hours.type_name, `${hours.start_time}–${hours.end_time}`)
  const describe = (day: Day) => {
    const parts = [`${w.weekdayNames[day.weekday - 1]} ${day.date}`, day.work_day ? w.workDay : w.dayOff]
    if (day.holiday_name) parts.push(day.holiday_name)
    if (day.record) parts.push(day.record.status_text)
    if (day.leave) parts.push(w.leaveOf(day.leave.type_name, day.leave.half_day === null ? null : day.leave.half_day === 'am' ? w.halfAm : w.halfPm))
    for (const hours of day.leave_hours) parts.push(hoursOf(hours))
    return parts.join(', ')
  }

  const days = query.data?.days ?? []
  const leading = days.length > 0 ? days[0]!.weekday - 1 : 0
  const chosen = days.find((day) => day.date === selected) ?? null

  return (
    <Stack maw={560} gap="md">
      <PageTitle>{w.title}</PageTitle>
      <Group gap="xs" wrap="nowrap" align="flex-end">
        <ActionIcon variant="default" size="lg" aria-label={w.previousMonth} onClick={() => go(addMonths(shown, -1))}>
          <span aria-hidden="true">‹</span>
        </ActionIcon>
        <MonthPickerInput
          label={w.month}
          value={`${shown}-01`}
          onChange={(value) => value && go(value.slice(0, 7))}
          valueFormat="YYYY-MM"
          style={{ flex: 1 }}
        />
        <ActionIcon variant="default" size="lg" aria-label={w.nextMonth} onClick={() => go(addMonths(shown, 1))}>
          <span aria-hidden="true">›</span>
        </ActionIcon>
      </Group>

      {query.isError && <Alert color="red">{query.error.message}</Alert>}
      {query.isPending ? (
        <Loader role="status" aria-label={t.common.loading} />
      ) : (
        <section aria-label={w.caption(shown)}>
          <SimpleGrid cols={7} spacing={4} verticalSpacing={4}>
            {w.weekdays.map((name, index) => (
              <Text key={name} size="xs" fw={700} ta="center" aria-hidden="true" c={index >= 5 ? 'gray.7' : undefined}>
                {name}
              </Text>
            ))}
            {Array.from({ length: leading }, (_, index) => (
              <Box key={`blank-${index}`} />
            ))}
            {days.map((day) => {
              const kind = kindOf(day)
              const color = COLORS[kind]
              const active = selected === day.date
              return (
                <UnstyledButton
                  key={day.date}
                  onClick={() => setSelected(active ? null : day.date)}
                  aria-pressed={active}
                  style={{
                    minHeight: 52,
                    borderRadius: 6,
                    padding: 4,
                    background: kind === 'workDay' ? undefined : `var(--mantine-color-${color}-light)`,
                    border: active ? '2px solid var(--mantine-color-blue-8)' : day.date === today ? '2px solid var(--mantine-color-dark-3)' : '1px solid var(--mantine-color-gray-3)',
                    overflow: 'hidden',
                  }}
                >
                  <VisuallyHidden>{describe(day)}</VisuallyHidden>
                  <Text size="sm" fw={day.date === today ? 700 : 500} lh={1.2} aria-hidden="true">
                    {Number(day.date.slice(8))}
                  </Text>
                  <Text size="10px" lh={1.2} truncate="end" aria-hidden="true">
                    {kind === 'workDay' ? '' : day.record ? day.record.status_text : day.holiday_name ?? (day.leave ? day.leave.type_name : label(kind))}
                  </Text>
                </UnstyledButton>
              )
            })}
          </SimpleGrid>
        </section>
      )}

      <div aria-live="polite">
        {chosen ? (
          <Card withBorder padding="md">
            <Stack gap={6}>
              <Text fw={700}>{w.details(`${chosen.date} ${w.weekdayNames[chosen.weekday - 1]}`)}</Text>
              <Group gap="xs">
                <Badge variant="light" c="dark.7" color={chosen.work_day ? 'blue' : 'gray'}>
                  {chosen.work_day ? w.workDay : w.dayOff}
                </Badge>
                {chosen.holiday_name && (
                  <Badge variant="light" c="dark.7" color="pink">
                    {chosen.holiday_name}
                  </Badge>
                )}
                {chosen.leave && (
                  <Badge variant="light" c="dark.7" color="blue">
                    {w.leaveOf(chosen.leave.type_name, chosen.leave.half_day === null ? null : chosen.leave.half_day === 'am' ? w.halfAm : w.halfPm)}
                  </Badge>
                )}
                {chosen.leave_hours.map((hours) => (
                  <Badge key={hours.request_id} variant="light" c="dark.7" color="blue">
                    {hoursOf(hours)}
                  </Badge>
                ))}
              </Group>
              {chosen.record ? (
                <>
                  <Group gap="xs">
                    <Badge color={COLORS[kindOf(chosen)]} variant="light" c="dark.7">
                      {chosen.record.status_text}
                    </Badge>
                  </Group>
                  <Text size="sm">
                    {w.clockIn}: {timeIn(chosen.record.clock_in_time, zone)} · {w.clockOut}: {timeIn(chosen.record.clock_out_time, zone)}
                  </Text>
                  <Text size="sm">{w.hours(chosen.record.work_hours)}</Text>
                  <Text size="xs" c="gray.7">
                    {w.timeZone(zone)}
                  </Text>
                </>
              ) : (
                <Text size="sm">{w.noRecord}</Text>
              )}
            </Stack>
          </Card>
        ) : (
          <Text size="sm" c="gray.7">
            {w.pickDay}
          </Text>
        )}
      </div>

      <section aria-label={w.legend}>
        <Text size="sm" fw={700} mb={4}>
          {w.legend}
        </Text>
        <Group gap={6}>
          {(['normal', 'lateOrEarly', 'absent', 'exception', 'leave', 'holiday', 'dayOff'] as const).map((kind) => (
            <Badge key={kind} variant="light" c="dark.7" color={COLORS[kind]} radius="sm" tt="none">
              {label(kind)}
            </Badge>
          ))}
        </Group>
      </section>
    </Stack>
  )
}
