import { Badge, Button, Card, Group, Stack, Text, Textarea, Title } from '@mantine/core'
import { DateInput, TimeInput } from '@mantine/dates'
import { useForm } from '@mantine/form'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { api, unwrap } from '../../api'
import { DataTable } from '../../components/DataTable'
import { applyApiErrors } from '../../components/form-errors'
import { timeIn } from '../../components/format'
import { notifyFailed, notifySaved } from '../../components/notify'
import { PageTitle } from '../../components/PageTitle'
import { useT } from '../../i18n'
import { Confirm } from '../../components/Confirm'
import { useAttendanceZone } from './dates'
import { addDays, keepEnter, localInstant, todayIn } from '../../components/dates'
import { useMeWords } from './words'

const PAGE_SIZE = 10
const STATUS_COLORS: Record<string, string> = { pending: 'yellow', approved: 'green', rejected: 'red', cancelled: 'gray' }
type Correction = Awaited<ReturnType<typeof fetchCorrections>>['corrections'][number]
const fetchCorrections = (page: number) => unwrap(api.attendance.corrections.get({ query: { page, page_size: PAGE_SIZE } }))

interface Values {
  work_date: string | null
  clock_in_time: string
  clock_out_time: string
  reason: string
}
const FIELDS = ['work_date', 'clock_in_time', 'clock_out_time', 'reason'] as const

/** The caller's correction requests (CONTRACT §11): ask for one, see them decided, cancel a pending one. */
export default function Corrections() {
  const t = useT()
  const w = useMeWords().corrections
  const statuses = useMeWords().requestStatus
  const queryClient = useQueryClient()
  const zone = useAttendanceZone()
  const today = todayIn(zone)
  const [page, setPage] = useState(1)
  const [cancelling, setCancelling] = useState<Correction | null>(null)

  const form = useForm<Values>({
    initialValues: { work_date: today, clock_in_time: '', clock_out_time: '', reason: '' },
    validate: {
      work_date: (value) => (!value ? w.required : value > today || value < addDays(today, -31) ? w.tooOld : null),
      clock_in_time: (value, values) => (!value && !values.clock_out_time ? w.oneTime : null),
      reason: (value) => (!value.trim() ? w.required : null),
    },
  })
  const date = form.values.work_date

  const list = useQuery({ queryKey: ['corrections', page], queryFn: () => fetchCorrections(page) })
  const record = useQuery({
    queryKey: ['attendance', 'records', 'on', date],
    queryFn: () => unwrap(api.attendance.records.get({ query: { start_date: date!, end_date: date!, page_size: 5 } })),
    enabled: !!date,
  })
  const current = record.data?.records[0] ?? null

  const create = useMutation({
    mutationFn: (values: Values) => {
      const day = values.work_date!
      const clockIn = values.clock_in_time ? localInstant(day, values.clock_in_time, zone) : undefined
      // a clock-out earlier than the clock-in (the one asked for, else the recorded one) is the next morning's
      const inLocal = values.clock_in_time || (current?.clock_in_time ? timeIn(current.clock_in_time, zone) : '')
      const outDay = values.clock_out_time && inLocal && values.clock_out_time < inLocal ? addDays(day, 1) : day
      const clockOut = values.clock_out_time ? localInstant(outDay, values.clock_out_time, zone) : undefined
      return unwrap(
        api.attendance.corrections.post({
          work_date: day,
          ...(clockIn ? { clock_in_time: clockIn } : {}),
          ...(clockOut ? { clock_out_time: clockOut } : {}),
          reason: values.reason.trim(),
        }),
      )
    },
    onSuccess: () => {
      notifySaved(w.requested)
      form.reset()
      setPage(1)
      void queryClient.invalidateQueries({ queryKey: ['corrections'] })
    },
    onError: (error) => {
      const rest = applyApiErrors(form, error, FIELDS)
      if (rest) notifyFailed(error)
    },
  })
  const cancel = useMutation({
    mutationFn: (id: number) => unwrap(api.attendance.corrections({ id }).cancel.post()),
    onSuccess: () => {
      notifySaved(w.cancelled)
      setCancelling(null)
      void queryClient.invalidateQueries({ queryKey: ['corrections'] })
    },
    onError: (error) => notifyFailed(error),
  })

  return (
    <Stack maw={900} gap="lg">
      <PageTitle>{w.title}</PageTitle>

      <Card withBorder padding="md" maw={560} component="section" aria-labelledby="correction-form-title">
        <form onSubmit={form.onSubmit((values) => create.mutate(values))} noValidate>
          <Stack>
            <Title order={2} size="h4" id="correction-form-title">
              {w.newCorrection}
            </Title>
            <Text size="sm">{w.intro}</Text>
            <DateInput
              label={w.workDate}
              withAsterisk
              onKeyDown={keepEnter}
              valueFormat="YYYY-MM-DD"
              minDate={addDays(today, -31)}
              maxDate={today}
              {...form.getInputProps('work_date')}
            />
            <div aria-live="polite">
              {date && !record.isPending && (
                <Text size="sm">
                  {current ? w.current(timeIn(current.clock_in_time, zone), timeIn(current.clock_out_time, zone)) : w.noRecord}
                </Text>
              )}
            </div>
            <Group grow align="flex-start">
              <TimeInput label={w.clockIn} {...form.getInputProps('clock_in_time')} />
              <TimeInput label={w.clockOut} {...form.getInputProps('clock_out_time')} />
            </Group>
            <Text size="xs" c="gray.7">
              {w.timeZone(zone)}. {w.clockOutNextDay}
            </Text>
            <Textarea label={w.reason} withAsterisk autosize minRows={2} maxLength={500} {...form.getInputProps('reason')} />
            <Button type="submit" loading={create.isPending}>
              {w.submit}
            </Button>
          </Stack>
        </form>
      </Card>

      <DataTable
        label={w.listCaption}
        rows={list.data?.corrections}
        rowKey={(row) => row.id}
        loading={list.isPending}
        error={list.error}
        page={page}
        pageSize={PAGE_SIZE}
        total={list.data?.pagination.total_items}
        onPage={setPage}
        columns={[
          { header: w.workDate, cell: (row) => row.work_date },
          { header: w.times, cell: (row) => w.inOut(timeIn(row.clock_in_time, row.timezone), timeIn(row.clock_out_time, row.timezone)) },
          { header: w.reason, cell: (row) => row.reason },
          {
            header: w.status,
            cell: (row) => (
              <Badge variant="light" c="dark.7" color={STATUS_COLORS[row.status] ?? 'gray'}>
                {statuses[row.status] ?? row.status}
              </Badge>
            ),
          },
          {
            header: w.decision,
            cell: (row) => (
              <Stack gap={0}>
                {row.decided_by && <Text size="sm">{row.decided_by.name}</Text>}
                {row.decision_note && <Text size="sm">{row.decision_note}</Text>}
              </Stack>
            ),
          },
          {
            header: t.common.actions,
            cell: (row) =>
              row.status === 'pending' ? (
                <Button size="xs" variant="default" onClick={() => setCancelling(row)}>
                  {w.cancel}
                </Button>
              ) : null,
          },
        ]}
      />

      <Confirm
        opened={cancelling !== null}
        title={w.cancelTitle}
        text={cancelling ? w.cancelText(cancelling.work_date) : ''}
        confirm={w.cancel}
        dismiss={w.keep}
        loading={cancel.isPending}
        onClose={() => setCancelling(null)}
        onConfirm={() => cancelling && cancel.mutate(cancelling.id)}
      />
    </Stack>
  )
}
