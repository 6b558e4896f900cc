import { Badge, Button, Group, Stack, Text, TextInput } from '@mantine/core'
import { useDebouncedValue } from '@mantine/hooks'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { api, unwrap } from '../../../api'
import { DataTable } from '../../../components/DataTable'
import { can, useMe } from '../../../components/me'
import { notifyFailed, notifySaved } from '../../../components/notify'
import { PageTitle } from '../../../components/PageTitle'
import { useT } from '../../../i18n'
import { fetchGroups, GroupForm, type AttendanceGroup } from './GroupForm'
import { GroupMembers } from './GroupMembers'
import { ConfirmDelete } from '../../../components/ConfirmDelete'
import { useWorkWords } from './words'

/** Attendance groups: a page of them, with create, edit, members and delete. */
export default function Groups() {
  const t = useT()
  const w = useWorkWords()
  const g = w.groups
  const me = useMe().data
  const queryClient = useQueryClient()
  const [page, setPage] = useState(1)
  const [search, setSearch] = useState('')
  const [debounced] = useDebouncedValue(search.trim(), 300)
  const [editing, setEditing] = useState<AttendanceGroup | 'new' | null>(null)
  const [members, setMembers] = useState<AttendanceGroup | null>(null)
  const [deleting, setDeleting] = useState<AttendanceGroup | null>(null)
  const groups = useQuery({ queryKey: ['admin', 'attendance', 'groups', page, debounced], queryFn: () => fetchGroups(page, debounced) })

  const remove = useMutation({
    mutationFn: (id: number) => unwrap(api.admin.attendance.groups({ id }).delete()),
    onSuccess: () => {
      notifySaved(g.deleted)
      setDeleting(null)
      void queryClient.invalidateQueries({ queryKey: ['admin', 'attendance'] })
    },
    onError: (error) => notifyFailed(error),
  })
  const editable = can(me, 'attendance_groups:update')

  return (
    <Stack gap="md">
      <PageTitle>{g.title}</PageTitle>
      <Group justify="space-between" align="flex-end">
        <TextInput
          label={g.search}
          value={search}
          onChange={(event) => {
            setSearch(event.currentTarget.value)
            setPage(1)
          }}
          w={260}
        />
        {can(me, 'attendance_groups:create') && <Button onClick={() => setEditing('new')}>{g.create}</Button>}
      </Group>
      <DataTable
        label={g.table}
        rows={groups.data?.groups}
        rowKey={(group) => group.id}
        loading={groups.isPending}
        error={groups.error}
        page={page}
        pageSize={10}
        total={groups.data?.pagination.total_items}
        onPage={setPage}
        columns={[
          { header: g.name, cell: (group) => <Text fw={600}>{group.name}</Text> },
          { header: g.company, cell: (group) => group.company?.name ?? `#${group.company_id}` },
          {
            header: g.timezone,
            cell: (group) => (
              <Text size="sm">
                {group.effective_timezone}
                {group.timezone ? '' : ` (${g.inherited})`}
              </Text>
            ),
          },
          { header: g.manager, cell: (group) => group.manager?.name ?? '—' },
          { header: g.employees, cell: (group) => group.employee_count },
          { header: g.rules, cell: (group) => group.rule_count },
          {
            header: w.shared.status,
            cell: (group) => (
              <Badge color={group.status === 1 ? 'green' : 'gray'} variant="light" c="var(--mantine-color-text)">
                {group.status_text}
              </Badge>
            ),
          },
          {
            header: t.common.actions,
            cell: (group) => (
              <Group gap="xs" wrap="nowrap">
                <Button size="xs" variant="default" onClick={() => setMembers(group)}>
                  {g.members}
                </Button>
                {editable && (
                  <Button size="xs" variant="default" onClick={() => setEditing(group)}>
                    {t.common.edit}
                  </Button>
                )}
                {can(me, 'attendance_groups:delete') && (
                  <Button size="xs" variant="default" color="red" onClick={() => setDeleting(group)}>
                    {t.common.delete}
                  </Button>
                )}
              </Group>
            ),
          },
        ]}
      />
      {editing !== null && <GroupForm key={editing === 'new' ? 'new' : editing.id} group={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      {members && <GroupMembers group={members} editable={editable} onClose={() => setMembers(null)} />}
      <ConfirmDelete
        what={deleting?.name ?? null}
        note={g.deleteNote}
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
        loading={remove.isPending}
      />
    </Stack>
  )
}
