import { Badge, Button, Group, Modal, SegmentedControl, Select, Stack, Text, Textarea } from '@mantine/core'
import { useForm } from '@mantine/form'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { api, unwrap } from '../../api'
import { DataTable } from '../../components/DataTable'
import { applyApiErrors } from '../../components/form-errors'
import { browserZone, dateTimeIn, timeIn } from '../../components/format'
import { notifyFailed, notifySaved } from '../../components/notify'
import { PageTitle } from '../../components/PageTitle'
import { useT } from '../../i18n'
import { useApprovalsWords } from './words'

const PAGE_SIZE = 10
type Kind = 'all' | 'leave' | 'correction'
type Status = 'pending' | 'approved' | 'rejected' | 'cancelled'
type Item = Awaited<ReturnType<typeof fetchInbox>>['items'][number]
type LeaveRequest = Extract<Item['request'], { type_name: string }>
type Correction = Extract<Item['request'], { work_date: string }>

const fetchInbox = (page: number, kind: Kind, status: Status) =>
  unwrap(api.approvals.get({ query: { page, page_size: PAGE_SIZE, status, ...(kind === 'all' ? {} : { kind }) } }))

const isLeave = (request: Item['request']): request is LeaveRequest => 'type_name' in request
const STATUS_COLORS: Record<string, string> = { pending: 'yellow', approved: 'green', rejected: 'red', cancelled: 'gray' }

/** The approvals inbox (CONTRACT §10): the leave requests and corrections the caller may decide, oldest first. */
export default function Inbox() {
  const t = useT()
  const w = useApprovalsWords().inbox
  const queryClient = useQueryClient()
  const [page, setPage] = useState(1)
  const [kind, setKind] = useState<Kind>('all')
  const [status, setStatus] = useState<Status>('pending')
  const [rejecting, setRejecting] = useState<Item | null>(null)
  const inbox = useQuery({ queryKey: ['approvals', page, kind, status], queryFn: () => fetchInbox(page, kind, status) })

  const noteForm = useForm({
    initialValues: { note: '' },
    validate: { note: (value) => (!value.trim() ? w.noteRequired : value.trim().length > 500 ? w.noteTooLong : null) },
  })

  const decided = () => {
    void queryClient.invalidateQueries({ queryKey: ['approvals'] })
    void queryClient.invalidateQueries({ queryKey: ['leave'] })
    void queryClient.invalidateQueries({ queryKey: ['corrections'] })
  }
  const approve = useMutation({
    mutationFn: (item: Item) => unwrap(api.approvals({ kind: item.kind })({ id: item.id }).approve.post({})),
    onSuccess: () => {
      notifySaved(w.approved)
      decided()
    },
    onError: (error) => {
      notifyFailed(error)
      decided()
    },
  })
  const reject = useMutation({
    mutationFn: ({ item, note }: { item: Item; note: string }) => unwrap(api.approvals({ kind: item.kind })({ id: item.id }).reject.post({ note })),
    onSuccess: () => {
      notifySaved(w.rejected)
      closeReject()
      decided()
    },
    onError: (error) => {
      const rest = applyApiErrors(noteForm, error, ['note'])
      if (rest) notifyFailed(error)
      decided()
    },
  })
  const openReject = (item: Item) => {
    noteForm.reset()
    setRejecting(item)
  }
  const closeReject = () => {
    setRejecting(null)
    noteForm.reset()
  }

  const what = (item: Item) => {
    const request = item.request
    if (isLeave(request)) return `${request.type_name} · ${w.days(request.days)}`
    const times = [
      request.clock_in_time ? w.inTime(timeIn(request.clock_in_time, request.timezone)) : null,
      request.clock_out_time ? w.outTime(timeIn(request.clock_out_time, request.timezone)) : null,
    ].filter(Boolean)
    return `${w.correctionOf}: ${times.join(', ')}`
  }
  const dates = (item: Item) => {
    const request = item.request
    if (isLeave(request))
      return request.start_date === request.end_date
        ? `${request.start_date}${request.half_day ? ` (${w.half(request.half_day)})` : ''}`
        : `${request.start_date} – ${request.end_date}`
    return request.work_date
  }
  const busy = (item: Item) =>
    (approve.isPending && approve.variables?.kind === item.kind && approve.variables.id === item.id) ||
    (reject.isPending && reject.variables?.item.kind === item.kind && reject.variables.item.id === item.id)

  return (
    <Stack maw={1100}>
      <PageTitle>{w.title}</PageTitle>
      <Group align="flex-end" gap="md">
        <Stack gap={4}>
          <Text size="sm" fw={500} id="approvals-kind-label">
            {w.kind}
          </Text>
          <SegmentedControl
            aria-labelledby="approvals-kind-label"
            value={kind}
            onChange={(value) => {
              setKind(value as Kind)
              setPage(1)
            }}
            data={[
              { value: 'all', label: w.all },
              { value: 'leave', label: w.leave },
              { value: 'correction', label: w.correction },
            ]}
          />
        </Stack>
        <Select
          label={w.status}
          value={status}
          allowDeselect={false}
          w={180}
          onChange={(value) => {
            if (value) setStatus(value as Status)
            setPage(1)
          }}
          data={(['pending', 'approved', 'rejected', 'cancelled'] as const).map((value) => ({ value, label: w.statuses[value] ?? value }))}
        />
      </Group>

      <DataTable
        label={status === 'pending' ? w.caption : w.historyCaption(w.statuses[status] ?? status)}
        rows={inbox.data?.items}
        rowKey={(item) => `${item.kind}-${item.id}`}
        loading={inbox.isPending}
        error={inbox.error}
        page={page}
        pageSize={PAGE_SIZE}
        total={inbox.data?.pagination.total_items}
        onPage={setPage}
        columns={[
          { header: w.who, cell: (item) => <Text fw={600}>{item.employee.name}</Text> },
          {
            header: w.what,
            cell: (item) => (
              <Stack gap={2}>
                <Badge variant="light" c="dark.7" color={item.kind === 'leave' ? 'blue' : 'grape'} tt="none">
                  {item.kind === 'leave' ? w.leave : w.correction}
                </Badge>
                <Text size="sm">{what(item)}</Text>
              </Stack>
            ),
          },
          { header: w.dates, cell: (item) => <Text size="sm" style={{ whiteSpace: 'nowrap' }}>{dates(item)}</Text> },
          { header: w.reason, cell: (item) => <Text size="sm">{item.request.reason || '—'}</Text> },
          { header: w.submitted, cell: (item) => <Text size="sm">{dateTimeIn(item.created_at, browserZone())}</Text> },
          {
            header: status === 'pending' ? t.common.actions : w.decision,
            cell: (item) =>
              item.request.status === 'pending' ? (
                <Group gap={6} wrap="nowrap">
                  <Button size="xs" loading={busy(item) && approve.isPending} disabled={busy(item)} onClick={() => approve.mutate(item)}>
                    {w.approve}
                  </Button>
                  <Button size="xs" color="red.9" variant="outline" disabled={busy(item)} onClick={() => openReject(item)}>
                    {w.reject}
                  </Button>
                </Group>
              ) : (
                <Stack gap={2}>
                  <Badge variant="light" c="dark.7" color={STATUS_COLORS[item.request.status] ?? 'gray'}>
                    {w.statuses[item.request.status] ?? item.request.status}
                  </Badge>
                  {item.request.decision_note && <Text size="xs">{item.request.decision_note}</Text>}
                </Stack>
              ),
          },
        ]}
      />

      <Modal opened={rejecting !== null} onClose={closeReject} title={w.rejectTitle} centered closeButtonProps={{ 'aria-label': t.common.close }}>
        {rejecting && (
          <form onSubmit={noteForm.onSubmit((values) => reject.mutate({ item: rejecting, note: values.note.trim() }))} noValidate>
            <Stack>
              <Text size="sm">
                {w.rejectFor(rejecting.employee.name, `${what(rejecting)}, ${dates(rejecting)}`)}
              </Text>
              <Textarea label={w.note} description={w.noteHint} styles={{ description: { color: 'var(--mantine-color-gray-7)' } }} withAsterisk autosize minRows={3} maxLength={500} data-autofocus {...noteForm.getInputProps('note')} />
              <Group justify="flex-end">
                <Button variant="default" onClick={closeReject}>
                  {t.common.cancel}
                </Button>
                <Button type="submit" color="red.9" loading={reject.isPending}>
                  {w.confirmReject}
                </Button>
              </Group>
            </Stack>
          </form>
        )}
      </Modal>
    </Stack>
  )
}
