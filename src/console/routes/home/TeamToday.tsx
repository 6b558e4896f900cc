import { Alert, Anchor, Badge, Card, Group, Loader, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { Link } from 'wouter'
import { api, ApiError, unwrap } from '../../api'
import { DataTable } from '../../components/DataTable'
import { browserZone, timeIn } from '../../components/format'
import { useT } from '../../i18n'
import { useHomeWords } from './words'

const COUNTS = ['expected', 'in', 'late', 'absent', 'on_leave', 'not_yet', 'day_off'] as const

/** GET /api/v1/admin/attendance/today (CONTRACT §23): the board of the caller's scope, of one group or all. */
const fetchBoard = (group: string | null) => unwrap(api.admin.attendance.today.get({ query: group ? { group_id: Number(group) } : {} }))

const STATE_COLORS: Record<string, string> = { in: 'green', late: 'orange', absent: 'red', on_leave: 'blue', not_yet: 'yellow', day_off: 'gray' }

/** Today's board (who is in, late, absent, on leave, not yet in) and the requests that wait, for the caller's scope. */
export default function TeamToday({ quiet }: { quiet: boolean }) {
  const t = useT()
  const w = useHomeWords().board
  const [group, setGroup] = useState<string | null>(null)
  const board = useQuery({
    queryKey: ['attendance', 'board', group],
    queryFn: () => fetchBoard(group),
    placeholderData: keepPreviousData,
    refetchInterval: 60_000,
    retry: false,
  })
  const pending = useQuery({
    queryKey: ['approvals', 'pending-count'],
    queryFn: () => unwrap(api.approvals.get({ query: { page: 1, page_size: 1, status: 'pending' } })),
    select: (data) => data.pagination.total_items,
    retry: false,
  })

  // an employee's phone asks in case they manage someone: nobody to oversee (a refusal, an empty board) shows nothing
  const oversees = board.isSuccess && (board.data.groups.length > 0 || board.data.employees.length > 0)
  if (quiet && !oversees && !(pending.data ?? 0)) return null

  const refused = board.error instanceof ApiError && (board.error.status === 403 || board.error.status === 404)
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="board-title">
      <Stack gap="md">
        <Group justify="space-between" align="flex-end">
          <Stack gap={0}>
            <Title order={2} size="h3" id="board-title">
              {w.title}
            </Title>
            {board.data && <Text size="sm">{w.date(board.data.date)}</Text>}
          </Stack>
          {board.data && board.data.groups.length > 1 && (
            <Select
              label={w.group}
              placeholder={w.allGroups}
              data={board.data.groups.map((option) => ({ value: String(option.id), label: option.name }))}
              value={group}
              onChange={setGroup}
              clearable
              w={220}
            />
          )}
        </Group>

        {pending.data !== undefined && (
          <Group gap="sm">
            <Text fw={600}>{w.pending(pending.data)}</Text>
            {pending.data > 0 && (
              <Anchor component={Link} href="/approvals" underline="always">
                {w.openInbox}
              </Anchor>
            )}
          </Group>
        )}

        {board.isPending && <Loader size="sm" role="status" aria-label={t.common.loading} />}
        {board.isError && !(quiet && refused) && (
          <Alert color="red" title={t.common.failed}>
            {board.error.message}
          </Alert>
        )}
        {board.data && (
          <>
            <SimpleGrid cols={{ base: 2, xs: 4, md: 7 }} spacing="xs" aria-label={w.counts} role="list">
              {COUNTS.map((key) => (
                <Card key={key} withBorder padding="xs" role="listitem">
                  <Text size="xs">{w[key]}</Text>
                  <Text fw={700} size="xl">
                    {board.data.counts[key] ?? 0}
                  </Text>
                </Card>
              ))}
            </SimpleGrid>
            {board.data.employees.length === 0 ? (
              <Text c="dimmed">{w.nobody}</Text>
            ) : (
              <DataTable
                label={w.table}
                rows={board.data.employees}
                rowKey={(row) => row.id}
                columns={[
                  { header: w.name, cell: (row) => row.name },
                  {
                    header: w.state,
                    cell: (row) => (
                      <Badge variant="light" color={STATE_COLORS[row.state] ?? 'gray'} c="dark.7">
                        {w.states[row.state] ?? row.state}
                      </Badge>
                    ),
                  },
                  { header: w.clockIn, cell: (row) => timeIn(row.record?.clock_in_time, row.record?.timezone ?? browserZone()) },
                  { header: w.clockOut, cell: (row) => timeIn(row.record?.clock_out_time, row.record?.timezone ?? browserZone()) },
                ]}
              />
            )}
          </>
        )}
      </Stack>
    </Card>
  )
}
