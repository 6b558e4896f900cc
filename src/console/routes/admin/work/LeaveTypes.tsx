import { Badge, Button, Group, Modal, NumberInput, Stack, Switch, TextInput } from '@mantine/core'
import { useForm } from '@mantine/form'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { api, unwrap } from '../../../api'
import { DataTable } from '../../../components/DataTable'
import { applyApiErrors } from '../../../components/form-errors'
import { can, useMe } from '../../../components/me'
import { notifyFailed, notifySaved } from '../../../components/notify'
import { useT } from '../../../i18n'
import { ConfirmDelete } from '../../../components/ConfirmDelete'
import { useWorkWords } from './words'

type LeaveType = Awaited<ReturnType<typeof fetchTypes>>['types'][number]
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

interface Values {
  name: string
  paid: boolean
  requires_balance: boolean
  annual_days: number | string
  enabled: boolean
}

function TypeForm({ type, onClose }: { type: LeaveType | null; onClose: () => void }) {
  const t = useT()
  const w = useWorkWords()
  const l = w.leave
  const queryClient = useQueryClient()
  const form = useForm<Values>({
    initialValues: {
      name: type?.name ?? '',
      paid: type?.paid ?? true,
      requires_balance: type?.requires_balance ?? true,
      annual_days: type?.annual_days ?? 0,
      enabled: type ? type.status === 1 : true,
    },
    validate: {
      name: (value) => (!value.trim() ? w.shared.required : value.length > 50 ? w.shared.tooLong(50) : null),
      annual_days: (value) => {
        const n = value === '' ? NaN : Number(value)
        return Number.isNaN(n) || n < 0 || n > 366 || !Number.isInteger(n * 2) ? l.badDays : null
      },
    },
  })
  const save = useMutation({
    mutationFn: (values: Values) => {
      const body = {
        name: values.name.trim(),
        paid: values.paid,
        requires_balance: values.requires_balance,
        annual_days: Number(values.annual_days),
        status: values.enabled ? (1 as const) : (0 as const),
      }
      return type ? unwrap(api.admin.leave.types({ id: type.id }).put(body)) : unwrap(api.admin.leave.types.post(body))
    },
    onSuccess: () => {
      notifySaved(type ? l.typeUpdated : l.typeCreated)
      void queryClient.invalidateQueries({ queryKey: ['admin', 'leave'] })
      onClose()
    },
    onError: (error) => {
      const rest = applyApiErrors(form, error, ['name', 'paid', 'requires_balance', 'annual_days'])
      if (rest) notifyFailed(error)
    },
  })
  return (
    <Modal opened onClose={onClose} title={type ? l.editTypeTitle : l.newTypeTitle} centered closeButtonProps={{ 'aria-label': t.common.close }}>
      <form onSubmit={form.onSubmit((values) => save.mutate(values))} noValidate>
        <Stack gap="sm">
          <TextInput label={l.typeName} withAsterisk {...form.getInputProps('name')} />
          <NumberInput label={l.annualDays} description={l.annualHint} min={0} max={366} step={0.5} decimalScale={1} {...form.getInputProps('annual_days')} />
          <Switch label={l.paid} {...form.getInputProps('paid', { type: 'checkbox' })} />
          <Switch label={l.requiresBalance} {...form.getInputProps('requires_balance', { type: 'checkbox' })} />
          <Switch label={w.shared.enabled} {...form.getInputProps('enabled', { type: 'checkbox' })} />
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onClose}>
              {t.common.cancel}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {type ? t.common.save : t.common.create}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  )
}
