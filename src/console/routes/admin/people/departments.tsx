import { Button, Group, Modal, Stack, TextInput } from '@mantine/core'
import { useForm } from '@mantine/form'
import { useDebouncedValue } from '@mantine/hooks'
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { api, unwrap } from '../../../api'
import { DataTable } from '../../../components/DataTable'
import { applyApiErrors } from '../../../components/form-errors'
import { dateTimeIn, browserZone } from '../../../components/format'
import { can, useMe } from '../../../components/me'
import { notifyFailed, notifySaved } from '../../../components/notify'
import { PageTitle } from '../../../components/PageTitle'
import { useT } from '../../../i18n'
import { ConfirmDelete } from '../../../components/ConfirmDelete'
import { DEPARTMENTS_KEY } from './options'
import { required } from './rules'
import { usePeopleWords } from './words'
import { FormActions } from '../../../components/FormActions'

const PAGE_SIZE = 20

type Department = Awaited<ReturnType<typeof listDepartments>>['departments'][number]

const listDepartments = (page: number, name: string) =>
  unwrap(api.admin.departments.get({ query: { page, page_size: PAGE_SIZE, ...(name ? { name } : {}) } }))

/** Departments: a searchable, paged list (the API's departments are flat, with no parent) with create, rename and delete. */
export default function Departments() {
  const t = useT()
  const w = usePeopleWords()
  const me = useMe().data
  const queryClient = useQueryClient()
  const [page, setPage] = useState(1)
  const [search, setSearch] = useState('')
  const [debounced] = useDebouncedValue(search.trim(), 300)
  const [editing, setEditing] = useState<Department | 'new' | null>(null)
  const [deleting, setDeleting] = useState<Department | null>(null)

  const list = useQuery({
    queryKey: [...DEPARTMENTS_KEY, 'list', page, debounced],
    queryFn: () => listDepartments(page, debounced),
    placeholderData: keepPreviousData,
  })

  const remove = useMutation({
    mutationFn: (id: number) => unwrap(api.admin.departments({ id }).delete()),
    onSuccess: () => {
      notifySaved(w.departments.deleted)
      setDeleting(null)
      void queryClient.invalidateQueries({ queryKey: DEPARTMENTS_KEY })
    },
    onError: (error) => notifyFailed(error),
  })

  const zone = browserZone()
  return (
    <Stack>
      <PageTitle>{w.departments.title}</PageTitle>
      <Group justify="space-between" align="flex-end">
        <TextInput
          label={w.departments.search}
          value={search}
          onChange={(event) => {
            setSearch(event.currentTarget.value)
            setPage(1)
          }}
          maw={320}
        />
        {can(me, 'departments:create') && <Button onClick={() => setEditing('new')}>{w.departments.create}</Button>}
      </Group>
      <DataTable
        label={w.departments.table}
        rows={list.data?.departments}
        rowKey={(row) => row.id}
        loading={list.isPending}
        error={list.error}
        page={page}
        pageSize={PAGE_SIZE}
        total={list.data?.total}
        onPage={setPage}
        columns={[
          { header: w.shared.id, cell: (row) => row.id },
          { header: w.departments.name, cell: (row) => row.name },
          { header: w.departments.createdAt, cell: (row) => dateTimeIn(row.created_at, zone) },
          {
            header: t.common.actions,
            cell: (row) => (
              <Group gap="xs" wrap="nowrap">
                {can(me, 'departments:update') && (
                  <Button size="xs" variant="default" aria-label={w.shared.editOf(row.name)} onClick={() => setEditing(row)}>
                    {t.common.edit}
                  </Button>
                )}
                {can(me, 'departments:delete') && (
                  <Button size="xs" variant="subtle" color="red" aria-label={w.shared.deleteOf(row.name)} onClick={() => setDeleting(row)}>
                    {t.common.delete}
                  </Button>
                )}
              </Group>
            ),
          },
        ]}
      />
      <Modal
        closeButtonProps={{ 'aria-label': t.common.close }}
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? w.departments.createTitle : w.departments.editTitle}
        centered
      >
        {editing !== null && <DepartmentForm department={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />}
      </Modal>
      <ConfirmDelete
        what={deleting?.name ?? null}
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
        loading={remove.isPending}
      />
    </Stack>
  )
}

function DepartmentForm({ department, onDone }: { department: Department | null; onDone: () => void }) {
  const t = useT()
  const w = usePeopleWords()
  const queryClient = useQueryClient()
  const form = useForm({
    initialValues: { name: department?.name ?? '' },
    validate: { name: required(w.shared, 100) },
  })
  const [problem, setProblem] = useState<string | null>(null)
  const save = useMutation({
    mutationFn: (values: { name: string }) =>
      department
        ? unwrap(api.admin.departments({ id: department.id }).put({ name: values.name.trim() }))
        : unwrap(api.admin.departments.post({ name: values.name.trim() })),
    onSuccess: () => {
      notifySaved(department ? w.departments.updated : w.departments.created)
      void queryClient.invalidateQueries({ queryKey: DEPARTMENTS_KEY })
      onDone()
    },
    onError: (error) => setProblem(applyApiErrors(form, error, ['name'])),
  })
  return (
    <form onSubmit={form.onSubmit((values) => save.mutate(values))}>
      <Stack>
        <TextInput label={w.departments.name} withAsterisk data-autofocus {...form.getInputProps('name')} />
        <FormActions problem={problem} onCancel={onDone} saving={save.isPending} />
      </Stack>
    </form>
  )
}
