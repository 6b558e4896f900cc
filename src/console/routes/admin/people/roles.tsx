import { Alert, Badge, Button, Checkbox, Group, Modal, Stack, Switch, Text, Textarea, TextInput, Title } from '@mantine/core'
import { useForm } from '@mantine/form'
import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { api, unwrap } from '../../../api'
import { DataTable } from '../../../components/DataTable'
import { applyApiErrors } from '../../../components/form-errors'
import { can, ME_KEY, useMe } from '../../../components/me'
import { notifyFailed, notifySaved } from '../../../components/notify'
import { PageTitle } from '../../../components/PageTitle'
import { useT } from '../../../i18n'
import { ConfirmDelete } from '../../../components/ConfirmDelete'
import { ROLES_KEY } from './options'
import { optional, ROLE_NAME } from './rules'
import { usePeopleWords } from './words'
import { FormActions } from '../../../components/FormActions'

const PERMISSIONS_KEY = ['admin', 'permissions'] as const
/** The roles the API protects: admin holds every permission and is never disabled or deleted; employee is never deleted. */
const BUILT_IN = new Set(['admin', 'employee'])

/** Every role, page by page (the API's pages hold at most 100). */
async function allRoles() {
  const first = await unwrap(api.admin.roles.get({ query: { page: 1, page_size: 100 } }))
  const list = [...first.list]
  for (let page = 2; list.length < first.total && page <= 20; page++) list.push(...(await unwrap(api.admin.roles.get({ query: { page, page_size: 100 } }))).list)
  return list
}

async function allPermissions() {
  const first = await unwrap(api.admin.permissions.get({ query: { page: 1, page_size: 100 } }))
  const list = [...first.list]
  for (let page = 2; list.length < first.total && page <= 50; page++)
    list.push(...(await unwrap(api.admin.permissions.get({ query: { page, page_size: 100 } }))).list)
  return list.sort((a, b) => a.name.localeCompare(b.name))
}

type Role = Awaited<ReturnType<typeof allRoles>>[number]

/** Roles (create, edit, delete) and the role × permission grid that grants and revokes. */
export default function Roles() {
  const t = useT()
  const w = usePeopleWords()
  const r = w.roles
  const me = useMe().data
  const queryClient = useQueryClient()
  const [editing, setEditing] = useState<Role | 'new' | null>(null)
  const [deleting, setDeleting] = useState<Role | null>(null)

  const roles = useQuery({ queryKey: [...ROLES_KEY, 'all'], queryFn: allRoles })
  const remove = useMutation({
    mutationFn: (id: number) => unwrap(api.admin.roles({ id }).delete()),
    onSuccess: () => {
      notifySaved(r.deleted)
      setDeleting(null)
      void queryClient.invalidateQueries({ queryKey: ROLES_KEY })
    },
    onError: (error) => notifyFailed(error),
  })

  return (
    <Stack>
      <PageTitle>{r.title}</PageTitle>
      <Group justify="space-between" align="center">
        <Text size="sm" c="dimmed">
          {r.builtInNote}
        </Text>
        {can(me, 'roles:create') && <Button onClick={() => setEditing('new')}>{r.create}</Button>}
      </Group>
      <DataTable
        label={r.table}
        rows={roles.data}
        rowKey={(row) => row.id}
        loading={roles.isPending}
        error={roles.error}
        columns={[
          {
            header: r.name,
            cell: (row) => (
              <Group gap={6} wrap="nowrap">
                <Text size="sm" ff="monospace">
                  {row.name}
                </Text>
                {BUILT_IN.has(row.name) && (
                  <Badge size="sm" variant="outline" c="var(--mantine-color-text)" color="gray">
                    {r.builtIn}
                  </Badge>
                )}
              </Group>
            ),
          },
          { header: r.displayName, cell: (row) => row.display_name },
          { header: r.description, cell: (row) => row.description },
          {
            header: r.status,
            cell: (row) => (
              <Badge color={row.status === 1 ? 'green' : 'gray'} variant="light" c="var(--mantine-color-text)">
                {row.status_text}
              </Badge>
            ),
          },
          {
            header: t.common.actions,
            cell: (row) => (
              <Group gap="xs" wrap="nowrap">
                {can(me, 'roles:update') && (
                  <Button size="xs" variant="default" aria-label={w.shared.editOf(row.name)} onClick={() => setEditing(row)}>
                    {t.common.edit}
                  </Button>
                )}
                {can(me, 'roles:delete') && !BUILT_IN.has(row.name) && (
                  <Button size="xs" variant="subtle" color="red" aria-label={w.shared.deleteOf(row.name)} onClick={() => setDeleting(row)}>
                    {t.common.delete}
                  </Button>
                )}
              </Group>
            ),
          },
        ]}
      />
      <PermissionGrid roles={roles.data ?? []} />
      <Modal closeButtonProps={{ 'aria-label': t.common.close }} opened={editing !== null} onClose={() => setEditing(null)} title={editing === 'new' ? r.createTitle : r.editTitle} centered>
        {editing !== null && <RoleForm role={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />}
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

/** Rows: permissions; columns: roles; a ticked box is a permission the role grants (admin: all, fixed). */
function PermissionGrid({ roles }: { roles: Role[] }) {
  const w = usePeopleWords()
  const r = w.roles
  const me = useMe().data
  const queryClient = useQueryClient()
  const [pending, setPending] = useState<ReadonlySet<string>>(new Set())
  const readable = can(me, 'permissions:read')
  const permissions = useQuery({ queryKey: [...PERMISSIONS_KEY, 'all'], queryFn: allPermissions, enabled: readable })
  const held = useQueries({
    queries: roles.map((role) => ({
      queryKey: [...ROLES_KEY, 'permissions', role.name],
      queryFn: async () => new Set((await unwrap(api.admin.roles['by-name']({ role_name: role.name }).permissions.get())).map((p) => p.name)),
    })),
  })
  const mayGrant = can(me, 'permissions:grant')

  const change = useMutation({
    mutationFn: ({ role, permission, grant }: { role: string; permission: string; grant: boolean }) => {
      const body = { role_name: role, permission_name: permission }
      return grant ? unwrap(api.admin.roles.permissions.add.post(body)) : unwrap(api.admin.roles.permissions.remove.post(body))
    },
    // the box shows the change at once; a refusal puts it back (the refetch below) and says why
    onMutate: ({ role, permission, grant }) => {
      setPending((set) => new Set(set).add(`${role}|${permission}`))
      queryClient.setQueryData<Set<string>>([...ROLES_KEY, 'permissions', role], (before) => {
        const next = new Set(before)
        if (grant) next.add(permission)
        else next.delete(permission)
        return next
      })
    },
    onSuccess: (_, { role, permission, grant }) => notifySaved(grant ? r.granted(permission, role) : r.revoked(permission, role)),
    onError: (error) => notifyFailed(error),
    onSettled: async (_, __, { role, permission }) => {
      await queryClient.invalidateQueries({ queryKey: [...ROLES_KEY, 'permissions', role] })
      void queryClient.invalidateQueries({ queryKey: ME_KEY })
      setPending((set) => {
        const next = new Set(set)
        next.delete(`${role}|${permission}`)
        return next
      })
    },
  })

  if (!readable)
    return (
      <Alert color="yellow" title={r.grid}>
        {r.noPermissionsRead}
      </Alert>
    )

  type Permission = NonNullable<typeof permissions.data>[number]
  return (
    <Stack gap="xs" mt="lg">
      <Title order={2} size="h3">
        {r.grid}
      </Title>
      <Text size="sm" c="dimmed">
        {r.gridHelp}
      </Text>
      <DataTable<Permission>
        label={r.grid}
        rows={permissions.data}
        rowKey={(row) => row.name}
        loading={permissions.isPending}
        error={permissions.error}
        columns={[
          {
            header: r.permission,
            cell: (row) => (
              <div>
                <Text size="sm" ff="monospace">
                  {row.name}
                </Text>
                <Text size="xs" c="dimmed">
                  {row.display_name}
                </Text>
              </div>
            ),
          },
          ...roles.map((role, index) => ({
            header: role.name,
            cell: (row: Permission) => {
              const grants = held[index]?.data
              const key = `${role.name}|${row.name}`
              const isAdmin = role.name === 'admin'
              return (
                <Checkbox
                  aria-label={r.cell(row.name, role.name)}
                  checked={isAdmin || !!grants?.has(row.name)}
                  disabled={isAdmin || !mayGrant || !grants || pending.has(key)}
                  onChange={(event) => change.mutate({ role: role.name, permission: row.name, grant: event.currentTarget.checked })}
                />
              )
            },
          })),
        ]}
      />
    </Stack>
  )
}

interface RoleValues {
  name: string
  display_name: string
  description: string
  enabled: boolean
}

function RoleForm({ role, onDone }: { role: Role | null; onDone: () => void }) {
  const t = useT()
  const w = usePeopleWords()
  const r = w.roles
  const queryClient = useQueryClient()
  const [problem, setProblem] = useState<string | null>(null)
  const form = useForm<RoleValues>({
    initialValues: { name: role?.name ?? '', display_name: role?.display_name ?? '', description: role?.description ?? '', enabled: (role?.status ?? 1) === 1 },
    validate: {
      name: (value) => (role || ROLE_NAME.test(value) ? null : r.nameRule),
      display_name: optional(w.shared, 100),
      description: optional(w.shared, 500),
    },
  })
  const save = useMutation({
    mutationFn: (values: RoleValues) => {
      const fields = {
        ...(values.display_name.trim() ? { display_name: values.display_name.trim() } : {}),
        description: values.description.trim(),
        status: values.enabled ? (1 as const) : (0 as const),
      }
      return role ? unwrap(api.admin.roles({ id: role.id }).put(fields)) : unwrap(api.admin.roles.post({ name: values.name, ...fields }))
    },
    onSuccess: () => {
      notifySaved(role ? r.updated : r.created)
      void queryClient.invalidateQueries({ queryKey: ROLES_KEY })
      onDone()
    },
    onError: (error) => setProblem(applyApiErrors(form, error, ['name', 'display_name', 'description', 'status'], { status: 'enabled' })),
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
        {role ? (
          <Text>
            {r.name}: <Text span ff="monospace">{role.name}</Text>
          </Text>
        ) : (
          <TextInput label={r.name} withAsterisk data-autofocus description={r.nameRule} {...form.getInputProps('name')} />
        )}
        <TextInput label={r.displayName} {...form.getInputProps('display_name')} />
        <Textarea label={r.description} autosize minRows={2} {...form.getInputProps('description')} />
        <Switch label={r.enabledSwitch} disabled={role?.name === 'admin'} {...form.getInputProps('enabled', { type: 'checkbox' })} />
        <FormActions problem={problem} onCancel={onDone} saving={save.isPending} />
      </Stack>
    </form>
  )
}
