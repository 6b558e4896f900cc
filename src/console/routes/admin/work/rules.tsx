import { Badge, Button, Group, Select, Stack, Text } from '@mantine/core'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { api, unwrap } from '../../../api'
import { DataTable } from '../../../components/DataTable'
import { can, useMe } from '../../../components/me'
import { notifyFailed, notifySaved } from '../../../components/notify'
import { PageTitle } from '../../../components/PageTitle'
import { useT } from '../../../i18n'
import { fetchRules, RuleForm, type Rule } from './RuleForm'
import { ConfirmDelete } from '../../../components/ConfirmDelete'
import { useGroupOptions } from './shared'
import { useWorkWords } from './words'

/** Attendance rules: a page of them (by group), with create, edit and delete. */
export default function Rules() {
  const t = useT()
  const w = useWorkWords()
  const r = w.rules
  const me = useMe().data
  const queryClient = useQueryClient()
  const [page, setPage] = useState(1)
  const [groupId, setGroupId] = useState<string | null>(null)
  const [editing, setEditing] = useState<Rule | 'new' | null>(null)
  const [deleting, setDeleting] = useState<Rule | null>(null)
  const groups = useGroupOptions()
  const rules = useQuery({ queryKey: ['admin', 'attendance', 'rules', page, groupId], queryFn: () => fetchRules(page, groupId) })

  const remove = useMutation({
    mutationFn: (id: number) => unwrap(api.admin.attendance.rules({ id }).delete()),
    onSuccess: () => {
      notifySaved(r.deleted)
      setDeleting(null)
      void queryClient.invalidateQueries({ queryKey: ['admin', 'attendance'] })
    },
    onError: (error) => notifyFailed(error),
  })

  const days = (rule: Rule) =>
    rule.work_days
      .split(',')
      .map((day) => w.shared.weekdaysShort[Number(day) - 1])
      .join(' ')

  return (
    <Stack gap="md">
      <PageTitle>{r.title}</PageTitle>
      <Group justify="space-between" align="flex-end">
        <Select
          label={r.groupFilter}
          placeholder={w.shared.all}
          data={groups.data ?? []}
          value={groupId}
          onChange={(value) => {
            setGroupId(value)
            setPage(1)
          }}
          clearable
          searchable
          w={260}
        />
        {can(me, 'attendance_rules:create') && <Button onClick={() => setEditing('new')}>{r.create}</Button>}
      </Group>
      <DataTable
        label={r.table}
        rows={rules.data?.rules}
        rowKey={(rule) => rule.id}
        loading={rules.isPending}
        error={rules.error}
        page={page}
        pageSize={10}
        total={rules.data?.pagination.total_items}
        onPage={setPage}
        columns={[
          { header: r.name, cell: (rule) => <Text fw={600}>{rule.name}</Text> },
          { header: r.group, cell: (rule) => rule.group?.name ?? `#${rule.group_id}` },
          {
            header: r.hours,
            cell: (rule) => (
              <Text size="sm">
                {rule.work_start_time}–{rule.work_end_time}
                {rule.break_start_time ? ` (${r.breakShort(rule.break_start_time, rule.break_end_time ?? '')})` : ''}
              </Text>
            ),
          },
          { header: r.workDays, cell: days },
          { header: r.requiredHours, cell: (rule) => rule.required_work_hours },
          {
            header: r.location,
            cell: (rule) =>
              rule.location_required ? (
                <Text size="sm">{r.area(rule.allowed_latitude ?? 0, rule.allowed_longitude ?? 0, rule.location_radius)}</Text>
              ) : (
                <Text size="sm">{r.noArea}</Text>
              ),
          },
          {
            header: w.shared.status,
            cell: (rule) => (
              <Badge color={rule.status === 1 ? 'green' : 'gray'} variant="light" c="var(--mantine-color-text)">
                {rule.status_text}
              </Badge>
            ),
          },
          {
            header: t.common.actions,
            cell: (rule) => (
              <Group gap="xs" wrap="nowrap">
                {can(me, 'attendance_rules:update') && (
                  <Button size="xs" variant="default" onClick={() => setEditing(rule)}>
                    {t.common.edit}
                  </Button>
                )}
                {can(me, 'attendance_rules:delete') && (
                  <Button size="xs" variant="default" color="red" onClick={() => setDeleting(rule)}>
                    {t.common.delete}
                  </Button>
                )}
              </Group>
            ),
          },
        ]}
      />
      {editing !== null && (
        <RuleForm key={editing === 'new' ? 'new' : editing.id} rule={editing === 'new' ? null : editing} opened onClose={() => setEditing(null)} />
      )}
      <ConfirmDelete
        what={deleting?.name ?? null}
        note={r.deleteNote}
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
        loading={remove.isPending}
      />
    </Stack>
  )
}
