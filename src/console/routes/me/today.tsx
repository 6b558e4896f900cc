import { Alert, Anchor, Badge, Button, Card, Group, Loader, Stack, Text } from '@mantine/core'
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { api, ApiError, early, unwrap } from '../../api'
import { browserZone, timeIn } from '../../components/format'
import { PageTitle } from '../../components/PageTitle'
import { useT } from '../../i18n'
import { currentPosition, positionNeedsHttps, secureAddress, type PositionResult } from './position'

export const TODAY_KEY = ['attendance', 'today'] as const
const RULE_KEY = ['attendance', 'rule'] as const

const STATUS_COLORS = ['green', 'orange', 'orange', 'red', 'grape']
/** stands for the https address in its sentence, which is split there to put a link in */
const HTTPS_MARK = '\u0000'

/** The rule that applies today, or null when the caller has none (a 404 of /attendance/rule). */
async function ruleOrNull() {
  try {
    return await early('rule', () => unwrap(api.attendance.rule.get()))
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null
    throw error
  }
}

const fetchToday = () => early('today', () => unwrap(api.attendance.today.get()))

/** Starts today's requests at once, beside /auth/me, rather than after it. */
export function prefetchToday(queryClient: QueryClient) {
  void queryClient.prefetchQuery({ queryKey: TODAY_KEY, queryFn: fetchToday })
  void queryClient.prefetchQuery({ queryKey: RULE_KEY, queryFn: ruleOrNull })
}

/** Today's card: the record so far and one large button, with the position when the rule asks for one. */
export default function Today() {
  const t = useT()
  const queryClient = useQueryClient()
  const today = useQuery({ queryKey: TODAY_KEY, queryFn: fetchToday })
  const rule = useQuery({ queryKey: RULE_KEY, queryFn: ruleOrNull })
  const [position, setPosition] = useState<PositionResult | 'locating' | null>(null)

  const record = today.data ?? null
  // no rule applies (in no attendance group, or a group without a rule): clock-in would be refused, so it is not offered
  const noRule = !record?.clock_in_time && rule.data === null
  const action: 'in' | 'out' | null = !record?.clock_in_time ? (noRule ? null : 'in') : !record.clock_out_time && record.status !== 3 ? 'out' : null
  // on a plain-http page the browser never gives a position: say what to open instead, and send nothing
  const needsHttps = rule.data?.location_required === true && positionNeedsHttps()

  const clock = useMutation({
    mutationFn: async (direction: 'in' | 'out') => {
      let body: { latitude?: number; longitude?: number } = {}
      if (rule.data?.location_required) {
        if (positionNeedsHttps()) return null
        setPosition('locating')
        const found = await currentPosition()
        setPosition(found)
        if (!found.ok) return null
        body = { latitude: found.latitude, longitude: found.longitude }
      }
      return direction === 'in' ? unwrap(api.attendance['clock-in'].post(body)) : unwrap(api.attendance['clock-out'].post(body))
    },
    onSuccess: (result) => {
      if (result === null) return
      void queryClient.invalidateQueries({ queryKey: ['attendance'] })
      void queryClient.invalidateQueries({ queryKey: ['calendar'] })
    },
  })

  if (today.isPending || rule.isPending) return <Loader role="status" aria-label={t.common.loading} />
  if (today.isError) return <Alert color="red">{today.error.message}</Alert>

  const zone = record?.timezone ?? browserZone()
  const positionProblem =
    position && position !== 'locating' && !position.ok
      ? {
          denied: t.common.today.positionDenied,
          unavailable: t.common.today.positionUnavailable,
          timeout: t.common.today.positionTimeout,
          unsupported: t.common.today.positionUnsupported,
        }[position.reason]
      : null

  return (
    <Stack maw={520}>
      <PageTitle>{t.common.today.title}</PageTitle>
      <Card withBorder shadow="xs" radius="md" p="lg">
        <Stack gap="sm">
          {record && (
            <Group justify="space-between">
              <Text fw={600}>{t.common.today.workDate(record.work_date)}</Text>
              <Badge color={STATUS_COLORS[record.status] ?? 'gray'} variant="light" c="dark.7" size="lg">
                {record.status_text}
              </Badge>
            </Group>
          )}
          {rule.data ? (
            <Text size="sm" c="dimmed">
              {t.common.today.rule(rule.data.name, rule.data.work_start_time, rule.data.work_end_time)}
            </Text>
          ) : (
            <Text size="sm" c="dimmed">
              {t.common.today.noRule}
            </Text>
          )}
          {!record?.clock_in_time && <Text>{t.common.today.noRecord}</Text>}
          {record?.clock_in_time && <Text>{t.common.today.clockedIn(timeIn(record.clock_in_time, zone))}</Text>}
          {record?.clock_out_time && <Text>{t.common.today.clockedOut(timeIn(record.clock_out_time, zone))}</Text>}
          {record?.clock_out_time && (
            <Group gap="xs">
              <Badge variant="outline" color="gray" c="dark.7">
                {t.common.today.hours(record.work_hours)}
              </Badge>
              {record.late_minutes > 0 && <Badge variant="outline" color="orange" c="dark.7">{t.common.today.late(record.late_minutes)}</Badge>}
              {record.early_minutes > 0 && <Badge variant="outline" color="orange" c="dark.7">{t.common.today.early(record.early_minutes)}</Badge>}
              {record.overtime_minutes > 0 && <Badge variant="outline" color="blue" c="dark.7">{t.common.today.overtime(record.overtime_minutes)}</Badge>}
            </Group>
          )}
          {action ? (
            <Button size="xl" h={72} fullWidth loading={clock.isPending} onClick={() => clock.mutate(action)}>
              {action === 'in' ? t.common.today.clockIn : t.common.today.clockOut}
            </Button>
          ) : (
            noRule ? (
              <Alert color="yellow" title={t.common.today.cannotClock}>
                {t.common.today.noGroupHelp}
              </Alert>
            ) : (
              <Text fw={600}>{t.common.today.done}</Text>
            )
          )}
          {needsHttps && (
            <Alert color="red" role="alert" title={t.common.today.httpsTitle}>
              <Stack gap="xs">
                <Text size="sm">
                  {/* the address as a link: one tap on the phone opens the secure page */}
                  {t.common.today.httpsOpen(HTTPS_MARK).split(HTTPS_MARK).flatMap((part, index) =>
                    index === 0 ? [part] : [<Anchor key={index} href={secureAddress()} fz="sm" fw={700} c="inherit" underline="always">{secureAddress()}</Anchor>, part],
                  )}
                </Text>
                <Text size="sm">{t.common.today.httpsAdministrator}</Text>
              </Stack>
            </Alert>
          )}
          {!needsHttps && rule.data?.location_required && position === null && (
            <Text size="sm" c="dimmed">
              {t.common.today.needsPosition}
            </Text>
          )}
          <div aria-live="polite">
            {position === 'locating' && <Text size="sm">{t.common.today.locating}</Text>}
            {position && position !== 'locating' && position.ok && (
              <Text size="sm">{t.common.today.accuracy(Math.round(position.accuracy))}</Text>
            )}
          </div>
          {positionProblem && (
            <Alert color="red" role="alert" title={t.common.today.refused}>
              {positionProblem}
            </Alert>
          )}
          {clock.isError && (
            <Alert color="red" role="alert" title={t.common.today.refused}>
              {clock.error.message}
            </Alert>
          )}
          <Text size="xs" c="dimmed">
            {t.common.today.timeZone(zone)}
          </Text>
        </Stack>
      </Card>
    </Stack>
  )
}
