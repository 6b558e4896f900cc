import { Button, Group, Modal, Stack } from '@mantine/core'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { api, unwrap } from '../../../api'
import { DataTable } from '../../../components/DataTable'
import { notifyFailed, notifySaved } from '../../../components/notify'
import { useT } from '../../../i18n'
import type { AttendanceGroup } from './GroupForm'
import { EmployeeSelect } from './shared'
import { useWorkWords } from './words'

/** A group's members in a dialog: add an employee (moving them from any other group), remove one. */
export function GroupMembers({ group, editable, onClose }: { group: AttendanceGroup; editable: boolean; onClose: () => void }) {
  const t = useT()
  const w = useWorkWords()
  const g = w.groups
  const queryClient = useQueryClient()
  const [adding, setAdding] = useState<string | null>(null)
  const key = ['admin', 'attendance', 'groups', group.id, 'members']
  const members = useQuery({ queryKey: key, queryFn: () => unwrap(api.admin.attendance.groups({ id: group.id }).employees.get()) })
  const changed = (message: string) => {
    notifySaved(message)
    void queryClient.invalidateQueries({ queryKey: ['admin', 'attendance'] })
  }
  const add = useMutation({
    mutationFn: (id: number) => unwrap(api.admin.attendance.groups({ id: group.id }).employees.post({ employee_ids: [id] })),
    onSuccess: () => {
      setAdding(null)
      changed(g.memberAdded)
    },
    onError: (error) => notifyFailed(error),
  })
  const remove = useMutation({
    mutationFn: (id: number) => unwrap(api.admin.attendance.groups({ id: group.id }).employees.delete({ employee_ids: [id] })),
    onSuccess: () => changed(g.memberRemoved),
    onError: (error) => notifyFailed(error),
  })

  return (
    <Modal opened onClose={onClose} title={g.membersTitle(group.name)} size="lg" centered closeButtonProps={{ 'aria-label': t.common.close }}>
      <Stack gap="md">
        {editable && (
          <Group align="flex-end" wrap="nowrap">
            <EmployeeSelect label={g.addEmployee} description={g.addHint} value={adding} onChange={setAdding} clearable style={{ flex: 1 }} />
            <Button disabled={!adding} loading={add.isPending} onClick={() => adding && add.mutate(Number(adding))}>
              {g.add}
            </Button>
          </Group>
        )}
        <DataTable
          label={g.membersTable}
          rows={members.data}
          rowKey={(member) => member.id}
          loading={members.isPending}
          error={members.error}
          columns={[
            { header: g.employee, cell: (member) => member.name },
            { header: g.phone, cell: (member) => member.phone ?? '—' },
            ...(editable
              ? [
                  {
                    header: t.common.actions,
                    cell: (member: { id: number; name: string }) => (
                      <Button
                        size="xs"
                        variant="default"
                        loading={remove.isPending && remove.variables === member.id}
                        onClick={() => remove.mutate(member.id)}
                        aria-label={g.removeOf(member.name)}
                      >
                        {g.remove}
                      </Button>
                    ),
                  },
                ]
              : []),
          ]}
        />
      </Stack>
    </Modal>
  )
}
