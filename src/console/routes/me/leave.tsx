import { Alert, Badge, Button, Card, Group, Radio, Select, Stack, Text, Textarea, Title } from '@mantine/core'
import { DateInput } from '@mantine/dates'
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
  reason: string
}
const FIELDS = ['type_id', 'start_date', 'end_date', 'half_day', 'reason'] as const

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

  const form = useForm<Values>({
    initialValues: { type_id: null, start_date: null, end_date: null, half_day: 'whole', reason: '' },
    validate: {
      type_id: (value) => (value ? null : w.required),
      start_date: (value) => (value ? null : w.required),
      end_date: (value, values) => (!value ? w.required : values.start_date && value < values.start_date ? w.endBeforeStart : null),
      half_day: (value, values) => (value !== 'whole' && values.start_date !== values.end_date ? w.halfDayOneDate : null),
      reason: (value) => (value.length > 500 ? w.tooLong : null),
    },
  })
  const oneDate = !!form.values.start_date && form.values.start_date === form.values.end_date

  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['leave'] })
  const create = useMutation({
    mutationFn: (values: Values) =>
      unwrap(
        api.leave.requests.post({
          type_id: Number(values.type_id),
          start_date: values.start_date!,
          end_date: values.end_date!,
          half_day: values.half_day === 'whole' ? null : values.half_day,
          reason: values.reason.trim(),
        }),
      ),
    onSuccess: () => {
      notifySaved(w.requested)
      form.reset()
      setPage(1)
      refresh()
      void queryClient.invalidateQueries({ queryKey: ['calendar'] })
    },
    onError: (error) => {
      const rest = applyApiErrors(form, error, FIELDS)
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
  const datesOf = (request: LeaveRequest) =>
    request.start_date === request.end_date
      ? `${request.start_date}${request.half_day ? ` (${w.half(request.half_day)})` : ''}`
      : `${request.start_date} – ${request.end_date}`
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
          { header: w.remaining, cell: (row) => <Text fw={700}>{unlimited.has(row.type_id) ? w.noLimit : row.remaining}</Text> },
          { header: w.granted, cell: (row) => row.granted },
          { header: w.taken, cell: (row) => row.taken },
          { header: w.pending, cell: (row) => row.pending },
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
                label={w.startDate}
                withAsterisk
                onKeyDown={keepEnter}
                valueFormat="YYYY-MM-DD"
                {...form.getInputProps('start_date')}
                onChange={(value) => {
                  form.setFieldValue('start_date', value)
                  if (!form.values.end_date || (value && form.values.end_date < value)) form.setFieldValue('end_date', value)
                }}
              />
              <DateInput label={w.endDate} withAsterisk onKeyDown={keepEnter} valueFormat="YYYY-MM-DD" minDate={form.values.start_date ?? undefined} {...form.getInputProps('end_date')} />
            </Group>
            <Radio.Group label={w.halfDay} description={oneDate ? undefined : w.halfDayHint} styles={{ description: { color: 'var(--mantine-color-gray-7)' } }} {...form.getInputProps('half_day')}>
              <Group mt={4}>
                <Radio value="whole" label={w.wholeDays} />
                <Radio value="am" label={w.morning} disabled={!oneDate} />
                <Radio value="pm" label={w.afternoon} disabled={!oneDate} />
              </Group>
            </Radio.Group>
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
          { header: w.daysColumn, cell: (row) => row.days },
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
