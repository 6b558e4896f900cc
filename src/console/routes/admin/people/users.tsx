import { Badge, Button, Group, Modal, MultiSelect, PasswordInput, Select, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core'
import { useForm } from '@mantine/form'
import { useDebouncedValue } from '@mantine/hooks'
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { api, unwrap } from '../../../api'
import { DataTable } from '../../../components/DataTable'
import { applyApiErrors } from '../../../components/form-errors'
import { can, ME_KEY, useMe } from '../../../components/me'
import { notifyFailed, notifySaved } from '../../../components/notify'
import { PageTitle } from '../../../components/PageTitle'
import { useT } from '../../../i18n'
import { ConfirmDelete } from '../../../components/ConfirmDelete'
import { useRoleOptions } from './options'
import { email, orNull, password, phone, required, USERNAME } from './rules'
import { usePeopleWords } from './words'
import { FormActions } from '../../../components/FormActions'

const PAGE_SIZE = 20
const USERS_KEY = ['admin', 'users'] as const

const fetchUsers = (query: { page: number; page_size: number; search?: string; status?: number }) => unwrap(api.admin.users.get({ query }))
type User = Awaited<ReturnType<typeof fetchUsers>>['list'][number]

/** User accounts: search, paging, create, edit (with roles), enable or disable, set a password, delete. */
export default function Users() {
  const t = useT()
  const w = usePeopleWords()
  const u = w.users
  const me = useMe().data
  const queryClient = useQueryClient()
  const [page, setPage] = useState(1)
  const [search, setSearch] = useState('')
  const [debounced] = useDebouncedValue(search.trim(), 300)
  const [status, setStatus] = useState('all')
  const [editing, setEditing] = useState<User | 'new' | null>(null)
  const [passwordOf, setPasswordOf] = useState<User | null>(null)
  const [deleting, setDeleting] = useState<User | null>(null)

  const roles = useRoleOptions(can(me, 'roles:read'))
  const query = { page, page_size: PAGE_SIZE, ...(debounced ? { search: debounced } : {}), ...(status !== 'all' ? { status: Number(status) } : {}) }
  const list = useQuery({ queryKey: [...USERS_KEY, query], queryFn: () => fetchUsers(query), placeholderData: keepPreviousData })

  const invalidate = () => void queryClient.invalidateQueries({ queryKey: USERS_KEY })
  const toggle = useMutation({
    mutationFn: (user: User) => unwrap(api.admin.users({ id: user.id }).put({ status: user.status === 1 ? 0 : 1 })),
    onSuccess: () => {
      notifySaved(u.updated)
      invalidate()
    },
    onError: (error) => notifyFailed(error),
  })
  const remove = useMutation({
    mutationFn: (id: number) => unwrap(api.admin.users({ id }).delete()),
    onSuccess: () => {
      notifySaved(u.deleted)
      setDeleting(null)
      invalidate()
    },
    onError: (error) => notifyFailed(error),
  })

  const isSelf = (user: User) => me?.user.id === user.id

  return (
    <Stack>
      <PageTitle>{u.title}</PageTitle>
      <Group justify="space-between" align="flex-end">
        <Group align="flex-end" gap="sm">
          <TextInput
            label={u.search}
            value={search}
            onChange={(event) => {
              setSearch(event.currentTarget.value)
              setPage(1)
            }}
            w={240}
          />
          <Select
            label={u.statusFilter}
            data={[
              { value: 'all', label: w.shared.all },
              { value: '1', label: w.shared.enabled },
              { value: '0', label: w.shared.disabled },
            ]}
            value={status}
            onChange={(value) => {
              setStatus(value ?? 'all')
              setPage(1)
            }}
            allowDeselect={false}
            w={150}
          />
        </Group>
        {can(me, 'users:create') && <Button onClick={() => setEditing('new')}>{u.create}</Button>}
      </Group>
      <DataTable
        label={u.table}
        rows={list.data?.list}
        rowKey={(row) => row.id}
        loading={list.isPending}
        error={list.error}
        page={page}
        pageSize={PAGE_SIZE}
        total={list.data?.total}
        onPage={setPage}
        columns={[
          { header: u.username, cell: (row) => row.username },
          { header: u.name, cell: (row) => row.name },
          { header: u.phone, cell: (row) => row.phone ?? '—' },
          { header: u.email, cell: (row) => row.email ?? '—' },
          {
            header: u.roles,
            cell: (row) =>
              row.roles.length === 0 ? (
                <Text size="sm" c="dimmed">
                  {u.noRoles}
                </Text>
              ) : (
                <Group gap={4}>
                  {row.roles.map((role) => (
                    <Badge key={role} variant="light" c="var(--mantine-color-text)" color={role === 'admin' ? 'red' : 'blue'}>
                      {role}
                    </Badge>
                  ))}
                </Group>
              ),
          },
          {
            header: u.status,
            cell: (row) => (
              <Badge color={row.status === 1 ? 'green' : 'gray'} variant="light" c="var(--mantine-color-text)">
                {row.status === 1 ? w.shared.enabled : w.shared.disabled}
              </Badge>
            ),
          },
          {
            header: t.common.actions,
            cell: (row) =>
              isSelf(row) ? null : (
                <Group gap="xs" wrap="nowrap">
                  {can(me, 'users:update') && (
                    <>
                      <Button size="xs" variant="default" aria-label={w.shared.editOf(row.username)} onClick={() => setEditing(row)}>
                        {t.common.edit}
                      </Button>
                      <Button
                        size="xs"
                        variant="default"
                        aria-label={row.status === 1 ? u.disableOf(row.username) : u.enableOf(row.username)}
                        loading={toggle.isPending && toggle.variables?.id === row.id}
                        onClick={() => toggle.mutate(row)}
                      >
                        {row.status === 1 ? u.disable : u.enable}
                      </Button>
                      <Button size="xs" variant="default" aria-label={u.setPasswordOf(row.username)} onClick={() => setPasswordOf(row)}>
                        {u.setPassword}
                      </Button>
                    </>
                  )}
                  {can(me, 'users:delete') && (
                    <Button size="xs" variant="subtle" color="red" aria-label={w.shared.deleteOf(row.username)} onClick={() => setDeleting(row)}>
                      {t.common.delete}
                    </Button>
                  )}
                </Group>
              ),
          },
        ]}
      />
      <Modal closeButtonProps={{ 'aria-label': t.common.close }} opened={editing !== null} onClose={() => setEditing(null)} title={editing === 'new' ? u.createTitle : u.editTitle} size="lg" centered>
        {editing !== null && (
          <UserForm
            user={editing === 'new' ? null : editing}
            roles={roles.data ?? []}
            canAssign={can(me, 'roles:read')}
            onDone={() => {
              setEditing(null)
              invalidate()
              void queryClient.invalidateQueries({ queryKey: ME_KEY })
            }}
            onCancel={() => setEditing(null)}
          />
        )}
      </Modal>
      <Modal closeButtonProps={{ 'aria-label': t.common.close }} opened={passwordOf !== null} onClose={() => setPasswordOf(null)} title={u.setPasswordTitle} centered>
        {passwordOf && <PasswordForm user={passwordOf} onDone={() => setPasswordOf(null)} />}
      </Modal>
      <ConfirmDelete
        what={deleting?.username ?? null}
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
        loading={remove.isPending}
      />
    </Stack>
  )
}

interface UserValues {
  username: string
  password: string
  name: string
  phone: string
  email: string
  enabled: boolean
  roles: string[]
}

const USER_FIELDS = ['username', 'password', 'name', 'phone', 'email', 'roles']

function UserForm({
  user,
  roles,
  canAssign,
  onDone,
  onCancel,
}: {
  user: User | null
  roles: { value: string; label: string }[]
  canAssign: boolean
  onDone: () => void
  onCancel: () => void
}) {
  const t = useT()
  const w = usePeopleWords()
  const u = w.users
  const [problem, setProblem] = useState<string | null>(null)
  const form = useForm<UserValues>({
    initialValues: {
      username: user?.username ?? '',
      password: '',
      name: user?.name ?? '',
      phone: user?.phone ?? '',
      email: user?.email ?? '',
      enabled: (user?.status ?? 1) === 1,
      roles: user?.roles ?? ['employee'],
    },
    validate: {
      username: (value) => (USERNAME.test(value.trim()) ? null : u.usernameRule),
      password: (value) => (user ? null : password(w.shared)(value)),
      name: required(w.shared, 100),
      phone: phone(w.shared),
      email: email(w.shared),
    },
  })
  // a role the list does not offer (no roles:read) still shows as held
  const roleData = [...roles, ...form.values.roles.filter((name) => !roles.some((role) => role.value === name)).map((name) => ({ value: name, label: name }))]

  const save = useMutation({
    mutationFn: (values: UserValues) => {
      const fields = {
        username: values.username.trim(),
        name: values.name.trim(),
        phone: orNull(values.phone),
        email: orNull(values.email),
        status: values.enabled ? (1 as const) : (0 as const),
        // roles are sent when changed: PUT replaces the roles held, and handing out roles needs their permissions
        ...(canAssign && (!user || [...values.roles].sort().join() !== [...user.roles].sort().join()) ? { roles: values.roles } : {}),
      }
      return user ? unwrap(api.admin.users({ id: user.id }).put(fields)) : unwrap(api.admin.users.post({ ...fields, password: values.password }))
    },
    onSuccess: () => {
      notifySaved(user ? u.updated : u.created)
      onDone()
    },
    onError: (error) => setProblem(applyApiErrors(form, error, USER_FIELDS)),
  })

  return (
    <form
      noValidate
      onSubmit={form.onSubmit((values) => {
        setProblem(null)
        save.mutate(values)
      })}
    >
      <Stack>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label={u.username} withAsterisk autoComplete="off" data-autofocus description={u.usernameRule} {...form.getInputProps('username')} />
          {!user && (
            <PasswordInput label={u.password} withAsterisk autoComplete="new-password" description={w.shared.badPassword} {...form.getInputProps('password')} />
          )}
          <TextInput label={u.name} withAsterisk {...form.getInputProps('name')} />
          <TextInput label={u.phone} type="tel" {...form.getInputProps('phone')} />
          <TextInput label={u.email} type="email" {...form.getInputProps('email')} />
        </SimpleGrid>
        {canAssign && <MultiSelect label={u.roles} data={roleData} searchable clearable {...form.getInputProps('roles')} />}
        <Switch label={u.enabledSwitch} {...form.getInputProps('enabled', { type: 'checkbox' })} />
        <FormActions problem={problem} onCancel={onCancel} saving={save.isPending} />
      </Stack>
    </form>
  )
}

function PasswordForm({ user, onDone }: { user: User; onDone: () => void }) {
  const t = useT()
  const w = usePeopleWords()
  const u = w.users
  const [problem, setProblem] = useState<string | null>(null)
  const form = useForm({ initialValues: { password: '' }, validate: { password: password(w.shared) } })
  const save = useMutation({
    mutationFn: (value: string) => unwrap(api.admin.users({ id: user.id }).password.put({ password: value })),
    onSuccess: () => {
      notifySaved(u.passwordSet)
      onDone()
    },
    onError: (error) => setProblem(applyApiErrors(form, error, ['password'])),
  })
  return (
    <form noValidate onSubmit={form.onSubmit((values) => save.mutate(values.password))}>
      <Stack>
        <Text size="sm">{user.username}</Text>
        <PasswordInput label={u.newPassword} withAsterisk autoComplete="new-password" data-autofocus description={u.passwordNote} {...form.getInputProps('password')} />
        <FormActions problem={problem} onCancel={onDone} saving={save.isPending} />
      </Stack>
    </form>
  )
}
