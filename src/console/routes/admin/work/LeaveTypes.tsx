import { Badge, Button, Group, Stack } from '@mantine/core'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { api, unwrap } from '../../../api'
import { DataTable } from '../../../components/DataTable'
import { can, useMe } from '../../../components/me'
import { notifyFailed, notifySaved } from '../../../components/notify'
import { useT } from '../../../i18n'
import { ConfirmDelete } from '../../../components/ConfirmDelete'
import { TypeForm } from './LeaveTypeForm'
import { useWorkWords } from './words'

export type LeaveType = Awaited<ReturnType<typeof fetchTypes>>['types'][number]
const fetchTypes = (page: number) => unwrap(api.admin.leave.types.get({ query: { page, page_size: 10 } }))

/** Leave types: list, create, edit, delete. */
export function LeaveTypes() {
  const t = useT()
  const w = useWorkWords()
  const l = w.leave
  const me = useMe().data
  const queryClient = useQueryClient()
  const [page, setPage] = useState(1)
  const [editing, setEditing] = useState<LeaveType | 'new' | null>(null)
  const [deleting, setDeleting] = useState<LeaveType | null>(null)
  const types = useQuery({ queryKey: ['admin', 'leave', 'types', page], queryFn: () => fetchTypes(page) })
  const manage = can(me, 'leave_types:manage')
  const remove = useMutation({
    mutationFn: (id: number) => unwrap(api.admin.leave.types({ id }).delete()),
    onSuccess: () => {
      notifySaved(l.typeDeleted)
      setDeleting(null)
      void queryClient.invalidateQueries({ queryKey: ['admin', 'leave'] })
    },
    onError: (error) => notifyFailed(error),
  })
  return (
    <Stack gap="md">
      {manage && (
        <Group justify="flex-end">
          <Button onClick={() => setEditing('new')}>{l.newType}</Button>
        </Group>
      )}
      <DataTable
        label={l.typesTable}
        rows={types.data?.types}
        rowKey={(type) => type.id}
        loading={types.isPending}
        error={types.error}
        page={page}
        pageSize={10}
        total={types.data?.pagination.total_items}
        onPage={setPage}
        columns={[
          { header: l.typeName, cell: (type) => type.name },
          { header: l.paid, cell: (type) => (type.paid ? t.common.yes : t.common.no) },
          { header: l.requiresBalance, cell: (type) => (type.requires_balance ? t.common.yes : t.common.no) },
          { header: l.annualDays, cell: (type) => type.annual_days },
          { header: l.accrual, cell: (type) => l.accruals[type.accrual] },
          { header: l.unit, cell: (type) => l.units[type.unit] },
          {
            header: w.shared.status,
            cell: (type) => (
              <Badge color={type.status === 1 ? 'green' : 'gray'} variant="light" c="var(--mantine-color-text)">
                {type.status === 1 ? w.shared.enabled : w.shared.disabled}
              </Badge>
            ),
          },
          ...(manage
            ? [
                {
                  header: t.common.actions,
                  cell: (type: LeaveType) => (
                    <Group gap="xs" wrap="nowrap">
                      <Button size="xs" variant="default" onClick={() => setEditing(type)}>
                        {t.common.edit}
                      </Button>
                      <Button size="xs" variant="default" color="red" onClick={() => setDeleting(type)}>
                        {t.common.delete}
                      </Button>
                    </Group>
                  ),
                },
              ]
            : []),
        ]}
      />
      {editing !== null && <TypeForm key={editing === 'new' ? 'new' : editing.id} type={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      <ConfirmDelete
        what={deleting?.name ?? null}
        note={l.typeDeleteNote}
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
        loading={remove.isPending}
      />
    </Stack>
  )
}
