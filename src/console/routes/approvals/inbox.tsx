import { Alert, Badge, Button, Card, Center, Group, Loader, Modal, SegmentedControl, Select, Stack, Text, Textarea } from '@mantine/core'
import { useForm } from '@mantine/form'
import { useMediaQuery } from '@mantine/hooks'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Fragment, useEffect, useRef, useState, type ReactNode } from 'react'
import { api, unwrap } from '../../api'
import { DataTable, Pager } from '../../components/DataTable'
import { browserZone, dateTimeIn, timeIn } from '../../components/format'
import { requestDates, requestLength } from '../../components/leave'
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

/** How long a decision waits, undoable, before it is sent. */
const UNDO_SECONDS = 5
/** Below this width the inbox shows cards (requester, request and time above the buttons) instead of a table. */
const NARROW = '(max-width: 599.98px)'

interface Decision {
  item: Item
  verdict: 'approve' | 'reject'
  note?: string
}
const keyOf = (item: Item) => `${item.kind}-${item.id}`
const sendDecision = ({ item, verdict, note }: Decision) =>
  verdict === 'approve'
    ? unwrap(api.approvals({ kind: item.kind })({ id: item.id }).approve.post({}))
    : unwrap(api.approvals({ kind: item.kind })({ id: item.id }).reject.post({ note: note ?? '' }))

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
  const narrow = useMediaQuery(NARROW, window.matchMedia(NARROW).matches, { getInitialValueInEffect: false })

  const noteForm = useForm({
    initialValues: { note: '' },
    validate: { note: (value) => (!value.trim() ? w.noteRequired : value.trim().length > 500 ? w.noteTooLong : null) },
  })

  const decided = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ['approvals'] }),
      queryClient.invalidateQueries({ queryKey: ['leave'] }),
      queryClient.invalidateQueries({ queryKey: ['corrections'] }),
    ])

  // decisions made and not sent yet: each can be undone until its timer sends it
  const [waiting, setWaiting] = useState<(Decision & { sendAt: number })[]>([])
  const timers = useRef(new Map<string, { timer: ReturnType<typeof setTimeout>; decision: Decision }>())
  const [now, setNow] = useState(Date.now())
  const send = useMutation({
    mutationFn: sendDecision,
    onSuccess: (_, decision) => notifySaved(decision.verdict === 'approve' ? w.approved : w.rejected),
    onError: (error) => notifyFailed(error),
    // the request keeps showing what was decided until the inbox is fetched again without it
    onSettled: async (_, __, decision) => {
      await decided()
      setWaiting((list) => list.filter((held) => keyOf(held.item) !== keyOf(decision.item)))
    },
  })
  const decide = (decision: Decision) => {
    const key = keyOf(decision.item)
    if (timers.current.has(key)) return
    const timer = setTimeout(() => {
      timers.current.delete(key)
      send.mutate(decision)
    }, UNDO_SECONDS * 1000)
    timers.current.set(key, { timer, decision })
    setNow(Date.now())
    setWaiting((list) => [...list, { ...decision, sendAt: Date.now() + UNDO_SECONDS * 1000 }])
  }
  const undo = (item: Item) => {
    const key = keyOf(item)
    const held = timers.current.get(key)
    if (!held) return
    clearTimeout(held.timer)
    timers.current.delete(key)
    setWaiting((list) => list.filter((waiting) => keyOf(waiting.item) !== key))
    notifySaved(w.undone)
  }
  // the seconds left, shown beside Undo
  useEffect(() => {
    if (waiting.length === 0) return
    const tick = setInterval(() => setNow(Date.now()), 250)
    return () => clearInterval(tick)
  }, [waiting.length])
  // leaving the page sends what was decided (the window for undoing closes); closing the tab asks first
  useEffect(() => {
    const held = timers.current
    const ask = (event: BeforeUnloadEvent) => {
      if (held.size > 0) event.preventDefault()
    }
    window.addEventListener('beforeunload', ask)
    return () => {
      window.removeEventListener('beforeunload', ask)
      for (const { timer, decision } of held.values()) {
        clearTimeout(timer)
        sendDecision(decision).then(decided, (error: unknown) => notifyFailed(error))
      }
      held.clear()
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])
  const waitingFor = (item: Item) => waiting.find((decision) => keyOf(decision.item) === keyOf(item))

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
    if (isLeave(request)) return `${request.type_name} · ${requestLength(request, t.common.leaveAmounts)}`
    const times = [
      request.clock_in_time ? w.inTime(timeIn(request.clock_in_time, request.timezone)) : null,
      request.clock_out_time ? w.outTime(timeIn(request.clock_out_time, request.timezone)) : null,
    ].filter(Boolean)
    return `${w.correctionOf}: ${times.join(', ')}`
  }
  const dates = (item: Item) => {
    const request = item.request
    if (isLeave(request)) return requestDates(request, w.half)
    return request.work_date
  }
  // a decision held for undoing, or being sent: its buttons make way for what was decided
  const sending = (item: Item) => send.isPending && send.variables && keyOf(send.variables.item) === keyOf(item)
  const actions = (item: Item, wide: boolean): ReactNode => {
    const held = waitingFor(item)
    if (held) {
      const seconds = Math.max(0, Math.ceil((held.sendAt - now) / 1000))
      return (
        <Group gap={6} wrap="nowrap" justify={wide ? 'space-between' : undefined}>
          <Text size="sm" fw={600}>
            <span role="status">{held.verdict === 'approve' ? w.approvedUndo : w.rejectedUndo}</span>
            {seconds > 0 && !sending(item) && <span aria-hidden="true">{` · ${w.sendingIn(seconds)}`}</span>}
          </Text>
          {timers.current.has(keyOf(item)) ? (
            <Button size="xs" variant="default" onClick={() => undo(item)}>
              {w.undo}
            </Button>
          ) : (
            <Loader size="xs" role="status" aria-label={t.common.loading} />
          )}
        </Group>
      )
    }
    if (item.request.status !== 'pending')
      return (
        <Stack gap={2}>
          <Badge variant="light" c="dark.7" color={STATUS_COLORS[item.request.status] ?? 'gray'}>
            {w.statuses[item.request.status] ?? item.request.status}
          </Badge>
          {item.request.decision_note && <Text size="xs">{item.request.decision_note}</Text>}
        </Stack>
      )
    return (
      <Group gap={6} wrap="nowrap" grow={wide}>
        <Button size={wide ? 'sm' : 'xs'} onClick={() => decide({ item, verdict: 'approve' })}>
          {w.approve}
        </Button>
        <Button size={wide ? 'sm' : 'xs'} color="red.9" variant="outline" onClick={() => openReject(item)}>
          {w.reject}
        </Button>
      </Group>
    )
  }
  const caption = status === 'pending' ? w.caption : w.historyCaption(w.statuses[status] ?? status)

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

      {narrow ? (
        <Cards
          caption={caption}
          items={inbox.data?.items}
          loading={inbox.isPending}
          error={inbox.error}
          render={(item) => (
            <Card component="li" withBorder padding="sm" aria-labelledby={`request-${keyOf(item)}`}>
              <Stack gap={6}>
                <Group justify="space-between" wrap="nowrap" align="flex-start">
                  <Text fw={700} id={`request-${keyOf(item)}`}>
                    {item.employee.name}
                  </Text>
                  <Badge variant="light" c="dark.7" color={item.kind === 'leave' ? 'blue' : 'grape'} tt="none">
                    {item.kind === 'leave' ? w.leave : w.correction}
                  </Badge>
                </Group>
                <Text size="sm">{what(item)}</Text>
                <Text size="sm" fw={600}>
                  {dates(item)}
                </Text>
                {item.request.reason && <Text size="sm">{item.request.reason}</Text>}
                <Text size="xs" c="dimmed">
                  {w.submittedAt(dateTimeIn(item.created_at, browserZone()))}
                </Text>
                {actions(item, true)}
              </Stack>
            </Card>
          )}
        />
      ) : (
        <DataTable
          label={caption}
          rows={inbox.data?.items}
          rowKey={keyOf}
          loading={inbox.isPending}
          error={inbox.error}
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
            { header: status === 'pending' ? t.common.actions : w.decision, cell: (item) => actions(item, false) },
          ]}
        />
      )}
      {inbox.data && <Pager page={page} pageSize={PAGE_SIZE} total={inbox.data.pagination.total_items} onPage={setPage} />}

      <Modal opened={rejecting !== null} onClose={closeReject} title={w.rejectTitle} centered closeButtonProps={{ 'aria-label': t.common.close }}>
        {rejecting && (
          <form
            onSubmit={noteForm.onSubmit((values) => {
              decide({ item: rejecting, verdict: 'reject', note: values.note.trim() })
              closeReject()
            })}
            noValidate
          >
            <Stack>
              <Text size="sm">
                {w.rejectFor(rejecting.employee.name, `${what(rejecting)}, ${dates(rejecting)}`)}
              </Text>
              <Textarea label={w.note} description={w.noteHint} styles={{ description: { color: 'var(--mantine-color-gray-7)' } }} withAsterisk autosize minRows={3} maxLength={500} data-autofocus {...noteForm.getInputProps('note')} />
              <Group justify="flex-end">
                <Button variant="default" onClick={closeReject}>
                  {t.common.cancel}
                </Button>
                <Button type="submit" color="red.9">
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

/** The inbox on a narrow screen: one card per request, its requester, request and time above its buttons. */
function Cards({ caption, items, loading, error, render }: { caption: string; items: Item[] | undefined; loading: boolean; error: Error | null; render: (item: Item) => ReactNode }) {
  const t = useT()
  return (
    <Stack gap="xs">
      <Text fw={600} id="approvals-cards-caption">
        {caption}
      </Text>
      <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }} aria-labelledby="approvals-cards-caption">
        {(items ?? []).map((item) => (
          <Fragment key={keyOf(item)}>{render(item)}</Fragment>
        ))}
      </Stack>
      {loading && (
        <Center p="md">
          <Loader size="sm" role="status" aria-label={t.common.loading} />
        </Center>
      )}
      {!loading && !error && items?.length === 0 && <Text c="dimmed">{t.common.empty}</Text>}
      {error && (
        <Alert color="red" title={t.common.failed}>
          {error.message}
        </Alert>
      )}
    </Stack>
  )
}
