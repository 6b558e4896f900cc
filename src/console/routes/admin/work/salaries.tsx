import { Badge, Button, Checkbox, Group, Select, SimpleGrid, Paper, Stack, Text } from '@mantine/core'
import { MonthPickerInput } from '@mantine/dates'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { api, unwrap } from '../../../api'
import { DataTable } from '../../../components/DataTable'
import { yuan } from '../../../components/format'
import { can, useMe } from '../../../components/me'
import { notifyFailed, notifySaved } from '../../../components/notify'
import { PageTitle } from '../../../components/PageTitle'
import { useT } from '../../../i18n'
import { fetchSalaries, SalaryForm, type Salary } from './SalaryForm'
import { ConfirmDelete } from '../../../components/ConfirmDelete'
import { currentMonth, fenOf } from './shared'
import { useWorkWords } from './words'

const PAGE_SIZE = 50

/** Salaries of a month: every employee's record with its status, create, edit, delete, and status for many at once. */
export default function Salaries() {
  const t = useT()
  const w = useWorkWords()
  const s = w.salaries
  const me = useMe().data
  const queryClient = useQueryClient()
  const [month, setMonth] = useState(currentMonth())
  const [status, setStatus] = useState<'0' | '1' | null>(null)
  const [page, setPage] = useState(1)
  const [selected, setSelected] = useState<Set<number>>(new Set())
  const [editing, setEditing] = useState<Salary | 'new' | null>(null)
  const [deleting, setDeleting] = useState<Salary | null>(null)

  const salaries = useQuery({ queryKey: ['admin', 'salaries', 'list', month, status, page], queryFn: () => fetchSalaries(page, month, status) })
  const stats = useQuery({ queryKey: ['admin', 'salaries', 'stats', month], queryFn: () => unwrap(api.admin.salaries.stats.get({ query: { month } })) })
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['admin', 'salaries'] })

  const batch = useMutation({
    mutationFn: (to: '0' | '1') => unwrap(api.admin.salaries['batch-status'].patch({ ids: [...selected], status: to })),
    onSuccess: () => {
      notifySaved(s.batchDone(selected.size))
      setSelected(new Set())
      refresh()
    },
    onError: (error) => notifyFailed(error),
  })
  const remove = useMutation({
    mutationFn: (id: number) => unwrap(api.admin.salaries({ id }).delete()),
    onSuccess: () => {
      notifySaved(s.deleted)
      setDeleting(null)
      refresh()
    },
    onError: (error) => notifyFailed(error),
  })

  const rows = salaries.data?.salaries ?? []
  const allChosen = rows.length > 0 && rows.every((row) => selected.has(row.id))
  const someChosen = rows.some((row) => selected.has(row.id))
  const toggle = (id: number) =>
    setSelected((current) => {
      const next = new Set(current)
      if (next.has(id)) next.delete(id)
      else next.add(id)
      return next
    })
  const changeView = () => {
    setPage(1)
    setSelected(new Set())
  }
  const updatable = can(me, 'salaries:update')

  return (
    <Stack gap="md">
      <PageTitle>{s.title}</PageTitle>
      <Group align="flex-end" justify="space-between">
        <Group align="flex-end" gap="sm">
          <MonthPickerInput
            label={s.month}
            valueFormat="YYYY-MM"
            value={`${month}-01`}
            onChange={(value) => {
              if (!value) return
              setMonth(String(value).slice(0, 7))
              changeView()
            }}
            w={160}
          />
          <Select
            label={s.statusFilter}
            placeholder={w.shared.all}
            data={[
              { value: '0', label: s.unconfirmed },
              { value: '1', label: s.paid },
            ]}
            value={status}
            onChange={(value) => {
              setStatus(value === '0' || value === '1' ? value : null)
              changeView()
            }}
            clearable
            w={180}
          />
        </Group>
        {can(me, 'salaries:create') && <Button onClick={() => setEditing('new')}>{s.create}</Button>}
      </Group>

      {stats.data && (
        <SimpleGrid cols={{ base: 2, sm: 5 }} aria-label={s.statsLabel(month)} role="group">
          <Stat label={s.statEmployees} value={String(stats.data.total_employees)} />
          <Stat label={s.statTotal} value={yuan(stats.data.total_salaries)} />
          <Stat label={s.statAverage} value={yuan(fenOf(stats.data.avg_salary))} />
          <Stat label={s.statMax} value={yuan(fenOf(stats.data.max_salary))} />
          <Stat label={s.statMin} value={yuan(fenOf(stats.data.min_salary))} />
        </SimpleGrid>
      )}

      {updatable && (
        <Group gap="sm">
          <Checkbox
            label={s.selectAll}
            checked={allChosen}
            indeterminate={someChosen && !allChosen}
            disabled={rows.length === 0}
            onChange={() =>
              setSelected((current) => {
                const next = new Set(current)
                for (const row of rows) {
                  if (allChosen) next.delete(row.id)
                  else next.add(row.id)
                }
                return next
              })
            }
          />
          <Text size="sm" c="dimmed" aria-live="polite">
            {s.selectedCount(selected.size)}
          </Text>
          <Button size="xs" disabled={selected.size === 0} loading={batch.isPending && batch.variables === '1'} onClick={() => batch.mutate('1')}>
            {s.markPaid}
          </Button>
          <Button size="xs" variant="default" disabled={selected.size === 0} loading={batch.isPending && batch.variables === '0'} onClick={() => batch.mutate('0')}>
            {s.markUnconfirmed}
          </Button>
        </Group>
      )}

      <DataTable
        label={s.table(month)}
        rows={salaries.data?.salaries}
        rowKey={(row) => row.id}
        loading={salaries.isPending}
        error={salaries.error}
        page={page}
        pageSize={PAGE_SIZE}
        total={salaries.data?.pagination.total_items}
        onPage={setPage}
        columns={[
          ...(updatable
            ? [
                {
                  header: s.select,
                  cell: (row: Salary) => <Checkbox aria-label={s.selectOf(row.employee_name)} checked={selected.has(row.id)} onChange={() => toggle(row.id)} />,
                },
              ]
            : []),
          { header: s.employee, cell: (row) => row.employee_name },
          { header: s.totalIncome, cell: (row) => yuan(fenOf(row.summary.total_income)) },
          { header: s.totalDeductions, cell: (row) => yuan(fenOf(row.summary.total_deductions)) },
          { header: s.net, cell: (row) => <Text fw={700}>{yuan(fenOf(row.net_salary))}</Text> },
          {
            header: s.status,
            cell: (row) => (
              <Badge color={row.status_code === '1' ? 'green' : 'yellow'} variant="light" c="var(--mantine-color-text)">
                {row.status}
              </Badge>
            ),
          },
          { header: s.paymentDate, cell: (row) => (row.payment_date ? row.payment_date.slice(0, 10) : '—') },
          {
            header: t.common.actions,
            cell: (row) => (
              <Group gap="xs" wrap="nowrap">
                {updatable && (
                  <Button size="xs" variant="default" onClick={() => setEditing(row)}>
                    {t.common.edit}
                  </Button>
                )}
                {can(me, 'salaries:delete') && (
                  <Button size="xs" variant="default" color="red" onClick={() => setDeleting(row)}>
                    {t.common.delete}
                  </Button>
                )}
              </Group>
            ),
          },
        ]}
      />
      {editing !== null && (
        <SalaryForm key={editing === 'new' ? 'new' : editing.id} salary={editing === 'new' ? null : editing} month={month} onClose={() => setEditing(null)} />
      )}
      <ConfirmDelete
        what={deleting ? s.deleteWhat(deleting.employee_name, deleting.month) : null}
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
        loading={remove.isPending}
      />
    </Stack>
  )
}

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <Paper withBorder p="sm">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700}>{value}</Text>
    </Paper>
  )
}
