import { Alert, Badge, Button, Card, Group, Radio, Select, Stack, Text, Textarea, Title } from '@mantine/core'
import { DateInput, TimeInput } from '@mantine/dates'
import { useForm } from '@mantine/form'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { api, unwrap } from '../../api'
import { DataTable } from '../../components/DataTable'
import { LeaveLedger } from '../../components/LeaveLedger'
import { applyApiErrors } from '../../components/form-errors'
import { notifyFailed, notifySaved } from '../../components/notify'
import { PageTitle } from '../../components/PageTitle'
import { useT } from '../../i18n'
import { Confirm } from '../../components/Confirm'
import { keepEnter, todayIn } from '../../components/dates'
import { balanceFigure, requestDates, requestLength } from '../../components/leave'
import { useMeWords } from './words'

const PAGE_SIZE = 10
/** Enter in a date field takes the typed date; it does not send the form. */
type LeaveRequest = Awaited<ReturnType<typeof fetchRequests>>['requests'][number]
const fetchRequests = (page: number) => unwrap(api.leave.requests.get({ query: { page, page_size: PAGE_SIZE } }))
type Balance = Awaited<ReturnType<typeof fetchBalances>>['balances'][number]
const fetchBalances = (year: number) => unwrap(api.leave.balances.get({ query: { year } }))

const STATUS_COLORS: Record<string, string> = { pending: 'yellow', approved: 'green', rejected: 'red', cancelled: 'gray' }

interface Values {
  type_id: string | null
  start_date: string | null
  end_date: string | null
  half_day: 'whole' | 'am' | 'pm'
  /** an hourly type's span on start_date, HH:MM */
  start_time: string
  end_time: string
  reason: string
}
const FIELDS = ['type_id', 'start_date', 'end_date', 'half_day', 'start_time', 'end_time', 'reason'] as const
/** HH:MM of a time field (a browser may add seconds). */
const hhmm = (value: string) => value.slice(0, 5)

/** The caller's leave: balances of a year, the request form, and their requests with cancel. */
export default function Leave() {
  const t = useT()
  const w = useMeWords().leave
  const statuses = useMeWords().requestStatus
  const queryClient = useQueryClient()
  const year = Number(todayIn().slice(0, 4))
  const [page, setPage] = useState(1)
  const [cancelling, setCancelling] = useState<LeaveRequest | null>(null)
  const [explaining, setExplaining] = useState<Balance | null>(null)

  const types = useQuery({ queryKey: ['leave', 'types'], queryFn: () => unwrap(api.leave.types.get()) })
  const balances = useQuery({ queryKey: ['leave', 'balances', year], queryFn: () => fetchBalances(year) })
  const requests = useQuery({ queryKey: ['leave', 'requests', page], queryFn: () => fetchRequests(page) })
  const unlimited = new Set((types.data?.types ?? []).filter((type) => !type.requires_balance).map((type) => type.id))
  const amounts = t.common.leaveAmounts
  /** whether the type chosen is taken by the hour: one date and a time span instead of a range and halves */
  const hourlyType = (id: string | null) => types.data?.types.find((type) => String(type.id) === id)?.unit === 'hour'

  const form = useForm<Values>({
    initialValues: { type_id: null, start_date: null, end_date: null, half_day: 'whole', start_time: '', end_time: '', reason: '' },
    validate: {
      type_id: (value) => (value ? null : w.required),
      start_date: (value) => (value ? null : w.required),
      end_date: (value, values) =>
        hourlyType(values.type_id) ? null : !value ? w.required : values.start_date && value < values.start_date ? w.endBeforeStart : null,
      half_day: (value, values) => (!hourlyType(values.type_id) && value !== 'whole' && values.start_date !== values.end_date ? w.halfDayOneDate : null),
      start_time: (value, values) => (hourlyType(values.type_id) && !value ? w.required : null),
      end_time: (value, values) =>
        !hourlyType(values.type_id) ? null : !value ? w.required : values.start_time && hhmm(value) <= hhmm(values.start_time) ? w.endTimeAfterStart : null,
      reason: (value) => (value.length > 500 ? w.tooLong : null),
    },
  })
  const hourly = hourlyType(form.values.type_id)
  const oneDate = !!form.values.start_date && form.values.start_date === form.values.end_date

  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['leave'] })
  const create = useMutation({
    mutationFn: (values: Values) =>
      unwrap(
        api.leave.requests.post(
          hourlyType(values.type_id)
            ? {
                type_id: Number(values.type_id),
                start_date: values.start_date!,
                end_date: values.start_date!,
                start_time: hhmm(values.start_time),
                end_time: hhmm(values.end_time),
                reason: values.reason.trim(),
              }
            : {
                type_id: Number(values.type_id),
                start_date: values.start_date!,
                end_date: values.end_date!,
                half_day: values.half_day === 'whole' ? null : values.half_day,
                reason: values.reason.trim(),
              },
        ),
      ),
    onSuccess: () => {
      notifySaved(w.requested)
      form.reset()
      setPage(1)
      refresh()
      void queryClient.invalidateQueries({ queryKey: ['calendar'] })
    },
    onError: (error, values) => {
      // an hourly request's one date is the start date's field
      const rest = applyApiErrors(form, error, FIELDS, hourlyType(values.type_id) ? { end_date: 'start_date' } : {})
      if (rest) notifyFailed(error)
    },
  })
  const cancel = useMutation({
    mutationFn: (id: number) => unwrap(api.leave.requests({ id }).cancel.post()),
    onSuccess: () => {
      notifySaved(w.cancelled)
      setCancelling(null)
      refresh()
      void queryClient.invalidateQueries({ queryKey: ['calendar'] })
    },
    onError: (error) => notifyFailed(error),
  })

  const today = todayIn()
  const datesOf = (request: LeaveRequest) => requestDates(request, w.half)
  const cancellable = (request: LeaveRequest) => request.status === 'pending' || (request.status === 'approved' && request.start_date > today)

  return (
    <Stack maw={900} gap="lg">
      <PageTitle>{w.title}</PageTitle>

      <DataTable
        label={w.balancesCaption(year)}
        rows={balances.data?.balances}
        rowKey={(row) => row.type_id}
        loading={balances.isPending}
        error={balances.error}
        columns={[
          { header: w.type, cell: (row) => row.type_name },
          // a type without a balance has no remaining days: "−1" would read as a debt
          { header: w.remaining, cell: (row) => <Text fw={700}>{unlimited.has(row.type_id) ? w.noLimit : balanceFigure(row.unit, row.remaining, amounts)}</Text> },
          { header: w.granted, cell: (row) => balanceFigure(row.unit, row.granted, amounts) },
          { header: w.taken, cell: (row) => balanceFigure(row.unit, row.taken, amounts) },
          { header: w.pending, cell: (row) => balanceFigure(row.unit, row.pending, amounts) },
          {
            header: t.common.actions,
            cell: (row) => (
              <Button size="xs" variant="default" aria-label={t.common.leaveLedger.openOf(row.type_name)} onClick={() => setExplaining(row)}>
                {t.common.leaveLedger.open}
              </Button>
            ),
          },
        ]}
      />
      {explaining && <LeaveLedger employeeId={null} balance={explaining} onClose={() => setExplaining(null)} />}

      <Card withBorder padding="md" maw={560} component="section" aria-labelledby="leave-form-title">
        <form onSubmit={form.onSubmit((values) => create.mutate(values))} noValidate>
          <Stack>
            <Title order={2} size="h4" id="leave-form-title">
              {w.newRequest}
            </Title>
            {types.data && types.data.types.length === 0 && <Alert color="yellow">{w.noTypes}</Alert>}
            <Select
              label={w.leaveType}
              withAsterisk
              data={(types.data?.types ?? []).map((type) => ({ value: String(type.id), label: type.name }))}
              {...form.getInputProps('type_id')}
            />
            <Group grow align="flex-start">
              <DateInput
                label={hourly ? w.date : w.startDate}
                withAsterisk
                onKeyDown={keepEnter}
                valueFormat="YYYY-MM-DD"
                {...form.getInputProps('start_date')}
                onChange={(value) => {
                  form.setFieldValue('start_date', value)
                  if (!form.values.end_date || (value && form.values.end_date < value)) form.setFieldValue('end_date', value)
                }}
              />
              {!hourly && (
                <DateInput label={w.endDate} withAsterisk onKeyDown={keepEnter} valueFormat="YYYY-MM-DD" minDate={form.values.start_date ?? undefined} {...form.getInputProps('end_date')} />
              )}
            </Group>
            {hourly ? (
              <Stack gap={4}>
                <Group grow align="flex-start">
                  <TimeInput label={w.startTime} withAsterisk {...form.getInputProps('start_time')} />
                  <TimeInput label={w.endTime} withAsterisk {...form.getInputProps('end_time')} />
                </Group>
                <Text size="xs" c="gray.7">
                  {w.hoursHint}
                </Text>
              </Stack>
            ) : (
              <Radio.Group label={w.halfDay} description={oneDate ? undefined : w.halfDayHint} styles={{ description: { color: 'var(--mantine-color-gray-7)' } }} {...form.getInputProps('half_day')}>
                <Group mt={4}>
                  <Radio value="whole" label={w.wholeDays} />
                  <Radio value="am" label={w.morning} disabled={!oneDate} />
                  <Radio value="pm" label={w.afternoon} disabled={!oneDate} />
                </Group>
              </Radio.Group>
            )}
            <Textarea label={w.reason} autosize minRows={2} maxLength={500} {...form.getInputProps('reason')} />
            <Button type="submit" loading={create.isPending}>
              {w.submit}
            </Button>
          </Stack>
        </form>
      </Card>

      <DataTable
        label={w.requestsCaption}
        rows={requests.data?.requests}
        rowKey={(row) => row.id}
        loading={requests.isPending}
        error={requests.error}
        page={page}
        pageSize={PAGE_SIZE}
        total={requests.data?.pagination.total_items}
        onPage={setPage}
        columns={[
          { header: w.type, cell: (row) => row.type_name },
          { header: w.dates, cell: (row) => datesOf(row) },
          {
            header: w.status,
            cell: (row) => (
              <Badge variant="light" c="dark.7" color={STATUS_COLORS[row.status] ?? 'gray'}>
                {statuses[row.status] ?? row.status}
              </Badge>
            ),
          },
          { header: w.lengthColumn, cell: (row) => requestLength(row, amounts) },
          {
            header: w.decision,
            cell: (row) =>
              row.status === 'pending' ? (
                row.approver ? w.waitingFor(row.approver.name) : '—'
              ) : (
                <Stack gap={0}>
                  {row.decided_by && <Text size="sm">{w.approver(row.decided_by.name)}</Text>}
                  {row.decision_note && <Text size="sm">{row.decision_note}</Text>}
                </Stack>
              ),
          },
          {
            header: t.common.actions,
            cell: (row) =>
              cancellable(row) ? (
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
        text={cancelling ? w.cancelText(cancelling.type_name, datesOf(cancelling)) : ''}
        confirm={w.cancel}
        dismiss={w.keep}
        loading={cancel.isPending}
        onClose={() => setCancelling(null)}
        onConfirm={() => cancelling && cancel.mutate(cancelling.id)}
      />
    </Stack>
  )
}
