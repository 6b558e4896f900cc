import { Badge, Button, Group, Modal, Select, Stack, TextInput } from '@mantine/core'
import { useDebouncedValue } from '@mantine/hooks'
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { api, unwrap } from '../../../api'
import { DataTable } from '../../../components/DataTable'
import { can, useMe } from '../../../components/me'
import { notifyFailed, notifySaved } from '../../../components/notify'
import { PageTitle } from '../../../components/PageTitle'
import { useT } from '../../../i18n'
import { ConfirmDelete } from '../../../components/ConfirmDelete'
import { EmployeeForm, EMPLOYEES_KEY, fetchEmployees, type Employee } from './EmployeeForm'
import { EmployeeImport } from './EmployeeImport'
import { EmployeeAccount } from './EmployeeAccount'
import { useCompanyOptions, useDepartmentOptions } from './options'
import { usePeopleWords } from './words'

const PAGE_SIZE = 20

/** Employees: filtered, paged list; create (with an account), edit, mark as left, delete, and the CSV import. */
export default function Employees() {
  const t = useT()
  const w = usePeopleWords()
  const e = w.employees
  const me = useMe().data
  const queryClient = useQueryClient()
  const [page, setPage] = useState(1)
  const [search, setSearch] = useState('')
  const [debounced] = useDebouncedValue(search.trim(), 300)
  const [department, setDepartment] = useState<string | null>(null)
  const [status, setStatus] = useState<string>('all')
  const [editing, setEditing] = useState<Employee | 'new' | null>(null)
  const [deleting, setDeleting] = useState<Employee | null>(null)
  const [importing, setImporting] = useState(false)
  const [loginFor, setLoginFor] = useState<Employee | null>(null)

  const departments = useDepartmentOptions(can(me, 'departments:read'))
  const companies = useCompanyOptions(can(me, 'companies:read'))
  const companyName = new Map((companies.data ?? []).map((option) => [Number(option.value), option.label]))

  const query = {
    page,
    page_size: PAGE_SIZE,
    ...(debounced ? { search: debounced } : {}),
    ...(department ? { department_id: Number(department) } : {}),
    ...(status !== 'all' ? { status: Number(status) } : {}),
  }
  const list = useQuery({ queryKey: [...EMPLOYEES_KEY, 'list', query], queryFn: () => fetchEmployees(query), placeholderData: keepPreviousData })

  const invalidate = () => void queryClient.invalidateQueries({ queryKey: EMPLOYEES_KEY })
  const setLeft = useMutation({
    mutationFn: ({ id, left }: { id: number; left: boolean }) => unwrap(api.admin.employees({ id }).put({ status: left ? 0 : 1 })),
    onSuccess: (_, { left }) => {
      notifySaved(left ? e.markedLeft : e.markedActive)
      invalidate()
    },
    onError: (error) => notifyFailed(error),
  })
  const remove = useMutation({
    mutationFn: (id: number) => unwrap(api.admin.employees({ id }).delete()),
    onSuccess: () => {
      notifySaved(e.deleted)
      setDeleting(null)
      invalidate()
    },
    onError: (error) => notifyFailed(error),
  })

  const statusOptions = [
    { value: 'all', label: w.shared.all },
    { value: '1', label: e.active },
    { value: '0', label: e.left },
  ]

  return (
    <Stack>
      <PageTitle>{e.title}</PageTitle>
      <Group justify="space-between" align="flex-end">
        <Group align="flex-end" gap="sm">
          <TextInput
            label={e.search}
            value={search}
            onChange={(event) => {
              setSearch(event.currentTarget.value)
              setPage(1)
            }}
            w={220}
          />
          <Select
            label={e.departmentFilter}
            data={departments.data ?? []}
            value={department}
            onChange={(value) => {
              setDepartment(value)
              setPage(1)
            }}
            clearable
            searchable
            placeholder={w.shared.all}
            w={200}
          />
          <Select
            label={e.statusFilter}
            data={statusOptions}
            value={status}
            onChange={(value) => {
              setStatus(value ?? 'all')
              setPage(1)
            }}
            allowDeselect={false}
            w={150}
          />
        </Group>
        {can(me, 'employees:create') && (
          <Group gap="sm">
            <Button variant="default" onClick={() => setImporting(true)}>
              {e.import.open}
            </Button>
            <Button onClick={() => setEditing('new')}>{e.create}</Button>
          </Group>
        )}
      </Group>
      <DataTable
        label={e.table}
        rows={list.data?.list}
        rowKey={(row) => row.id}
        loading={list.isPending}
        error={list.error}
        page={page}
        pageSize={PAGE_SIZE}
        total={list.data?.total}
        onPage={setPage}
        columns={[
          { header: e.employeeNo, cell: (row) => row.employee_no ?? '—' },
          { header: e.name, cell: (row) => row.name },
          { header: e.department, cell: (row) => row.department?.name ?? '—' },
          { header: e.company, cell: (row) => (row.company_id ? (companyName.get(row.company_id) ?? `#${row.company_id}`) : '—') },
          { header: e.position, cell: (row) => row.position ?? '—' },
          { header: e.phone, cell: (row) => row.phone ?? '—' },
          {
            header: e.status,
            cell: (row) => (
              <Badge color={row.status === 1 ? 'green' : 'gray'} variant="light" c="var(--mantine-color-text)">
                {row.status === 1 ? e.active : e.left}
              </Badge>
            ),
          },
          {
            header: e.account,
            cell: (row) =>
              row.user_id ? (
                e.linked
              ) : can(me, 'employees:update') ? (
                <Button size="xs" variant="default" aria-label={e.addLoginOf(row.name)} onClick={() => setLoginFor(row)}>
                  {e.addLogin}
                </Button>
              ) : (
                e.notLinked
              ),
          },
          {
            header: t.common.actions,
            cell: (row) => (
              <Group gap="xs" wrap="nowrap">
                {can(me, 'employees:update') && (
                  <>
                    <Button size="xs" variant="default" aria-label={w.shared.editOf(row.name)} onClick={() => setEditing(row)}>
                      {t.common.edit}
                    </Button>
                    <Button
                      size="xs"
                      variant="default"
                      aria-label={row.status === 1 ? e.markLeftOf(row.name) : e.markActiveOf(row.name)}
                      loading={setLeft.isPending && setLeft.variables?.id === row.id}
                      onClick={() => setLeft.mutate({ id: row.id, left: row.status === 1 })}
                    >
                      {row.status === 1 ? e.markLeft : e.markActive}
                    </Button>
                  </>
                )}
                {can(me, 'employees:delete') && (
                  <Button size="xs" variant="subtle" color="red" aria-label={w.shared.deleteOf(row.name)} onClick={() => setDeleting(row)}>
                    {t.common.delete}
                  </Button>
                )}
              </Group>
            ),
          },
        ]}
      />
      <Modal closeButtonProps={{ 'aria-label': t.common.close }} opened={editing !== null} onClose={() => setEditing(null)} title={editing === 'new' ? e.createTitle : e.editTitle} size="lg" centered>
        {editing !== null && (
          <EmployeeForm
            employee={editing === 'new' ? null : editing}
            departments={departments.data ?? []}
            companies={companies.data ?? []}
            onDone={() => setEditing(null)}
          />
        )}
      </Modal>
      <Modal closeButtonProps={{ 'aria-label': t.common.close }} opened={loginFor !== null} onClose={() => setLoginFor(null)} title={loginFor ? e.loginTitle(loginFor.name) : ''} size="lg" centered>
        {loginFor && <EmployeeAccount employee={loginFor} onDone={() => setLoginFor(null)} />}
      </Modal>
      <Modal closeButtonProps={{ 'aria-label': t.common.close }} opened={importing} onClose={() => setImporting(false)} title={e.import.title} size="xl" centered>
        {importing && <EmployeeImport onDone={() => setImporting(false)} />}
      </Modal>
      <ConfirmDelete
        what={deleting?.name ?? null}
        note={e.deleteNote}
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
        loading={remove.isPending}
      />
    </Stack>
  )
}
