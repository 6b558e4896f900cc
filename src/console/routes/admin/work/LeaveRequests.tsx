import { Badge, Button, Group, Select, Stack, Text } from '@mantine/core'
import { DateInput } from '@mantine/dates'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { api, unwrap } from '../../../api'
import { DataTable } from '../../../components/DataTable'
import { can, useMe } from '../../../components/me'
import { notifyFailed, notifySaved } from '../../../components/notify'
import { useT } from '../../../i18n'
import { Confirm } from '../../../components/Confirm'
import { EmployeeSelect, useLeaveTypeOptions } from './shared'
import { keepEnter } from '../../../components/dates'
import { requestDates, requestLength } from '../../../components/leave'
import { useWorkWords } from './words'

const STATUSES = ['pending', 'approved', 'rejected', 'cancelled'] as const
type Status = (typeof STATUSES)[number]
const COLORS: Record<Status, string> = { pending: 'yellow', approved: 'green', rejected: 'red', cancelled: 'gray' }

interface Filters {
  employee_id: string | null
  type_id: string | null
  status: Status | null
  start_date: string | null
  end_date: string | null
}
const fetchRequests = (page: number, f: Filters) =>
  unwrap(
    api.admin.leave.requests.get({
      query: {
        page,
        page_size: 20,
        ...(f.employee_id ? { employee_id: Number(f.employee_id) } : {}),
        ...(f.type_id ? { type_id: Number(f.type_id) } : {}),
        ...(f.status ? { status: f.status } : {}),
        ...(f.start_date ? { start_date: f.start_date } : {}),
        ...(f.end_date ? { end_date: f.end_date } : {}),
      },
    }),
  )
type LeaveRequest = Awaited<ReturnType<typeof fetchRequests>>['requests'][number]

/** Every leave request, filtered; a pending or approved one may be cancelled (leave:manage). */
export function LeaveRequests() {
  const t = useT()
  const w = useWorkWords()
  const l = w.leave
  const me = useMe().data
  const queryClient = useQueryClient()
  const types = useLeaveTypeOptions()
  const [page, setPage] = useState(1)
  const [filters, setFilters] = useState<Filters>({ employee_id: null, type_id: null, status: null, start_date: null, end_date: null })
  const [cancelling, setCancelling] = useState<LeaveRequest | null>(null)
  const requests = useQuery({ queryKey: ['admin', 'leave', 'requests', page, filters], queryFn: () => fetchRequests(page, filters) })
  const filter = (key: keyof Filters) => (value: string | null) => {
    setFilters((current) => ({ ...current, [key]: value || null }))
    setPage(1)
  }
  const cancel = useMutation({
    mutationFn: (id: number) => unwrap(api.admin.leave.requests({ id }).cancel.post()),
    onSuccess: () => {
      notifySaved(l.requestCancelled)
      setCancelling(null)
      void queryClient.invalidateQueries({ queryKey: ['admin', 'leave'] })
    },
    onError: (error) => notifyFailed(error),
  })
  const manage = can(me, 'leave:manage')
  const dates = (request: LeaveRequest) => requestDates(request, (half) => (half === 'am' ? l.morning : l.afternoon))

  return (
    <Stack gap="md">
      <Group align="flex-end" gap="sm">
        <EmployeeSelect label={l.employee} placeholder={w.shared.all} value={filters.employee_id} onChange={filter('employee_id')} clearable w={220} />
        <Select label={l.type} placeholder={w.shared.all} data={types.data ?? []} value={filters.type_id} onChange={filter('type_id')} clearable w={180} />
        <Select
          label={l.status}
          placeholder={w.shared.all}
          data={STATUSES.map((status) => ({ value: status, label: l.statuses[status] }))}
          value={filters.status}
          onChange={filter('status')}
          clearable
          w={160}
        />
        <DateInput label={l.from} valueFormat="YYYY-MM-DD" value={filters.start_date} onChange={filter('start_date')} onKeyDown={keepEnter} clearable w={150} />
        <DateInput label={l.to} valueFormat="YYYY-MM-DD" value={filters.end_date} onChange={filter('end_date')} onKeyDown={keepEnter} clearable w={150} />
      </Group>
      <DataTable
        label={l.requestsTable}
        rows={requests.data?.requests}
        rowKey={(request) => request.id}
        loading={requests.isPending}
        error={requests.error}
        page={page}
        pageSize={20}
        total={requests.data?.pagination.total_items}
        onPage={setPage}
        columns={[
          { header: l.employee, cell: (request) => request.employee.name },
          { header: l.type, cell: (request) => request.type_name },
          { header: l.dates, cell: dates },
          { header: l.length, cell: (request) => requestLength(request, t.common.leaveAmounts) },
          {
            header: l.status,
            cell: (request) => (
              <Badge color={COLORS[request.status]} variant="light" c="var(--mantine-color-text)">
                {l.statuses[request.status]}
              </Badge>
            ),
          },
          { header: l.approver, cell: (request) => request.approver?.name ?? '—' },
          {
            header: l.reason,
            cell: (request) => (
              <Text size="sm" lineClamp={2}>
                {request.reason || '—'}
                {request.decision_note ? ` · ${request.decision_note}` : ''}
              </Text>
            ),
          },
          ...(manage
            ? [
                {
                  header: t.common.actions,
                  cell: (request: LeaveRequest) =>
                    request.status === 'pending' || request.status === 'approved' ? (
                      <Button size="xs" variant="default" color="red" onClick={() => setCancelling(request)}>
                        {l.cancelRequest}
                      </Button>
                    ) : null,
                },
              ]
            : []),
        ]}
      />
      <Confirm
        opened={cancelling !== null}
        title={l.cancelTitle}
        confirm={l.cancelRequest}
        text={cancelling ? l.cancelQuestion(cancelling.employee.name, dates(cancelling)) : ''}
        onClose={() => setCancelling(null)}
        onConfirm={() => cancelling && cancel.mutate(cancelling.id)}
        loading={cancel.isPending}
      />
    </Stack>
  )
}
