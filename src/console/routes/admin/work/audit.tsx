import { Button, Group, Select, Stack, Text, TextInput } from '@mantine/core'
import { DateInput } from '@mantine/dates'
import { useDebouncedValue } from '@mantine/hooks'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { api, unwrap } from '../../../api'
import { DataTable } from '../../../components/DataTable'
import { browserZone, dateTimeIn } from '../../../components/format'
import { can, useMe } from '../../../components/me'
import { PageTitle } from '../../../components/PageTitle'
import { AuditDiff } from './AuditDiff'
import { keepEnter } from '../../../components/dates'
import { useWorkWords } from './words'

const PAGE_SIZE = 20

interface Filters {
  actor_id: string | null
  action: string
  resource: string
  from: string | null
  to: string | null
}

const fetchEntries = (page: number, f: Filters) =>
  unwrap(
    api.admin['audit-logs'].get({
      query: {
        page,
        page_size: PAGE_SIZE,
        ...(f.actor_id ? { actor_id: Number(f.actor_id) } : {}),
        ...(f.action ? { action: f.action } : {}),
        ...(f.resource ? { resource: f.resource } : {}),
        ...(f.from ? { from: f.from } : {}),
        ...(f.to ? { to: f.to } : {}),
      },
    }),
  )
/** An entry; `action_text` and `target_text` (the action and what it acted on, in words, in the console's language) where the server gives them. */
type Entry = Awaited<ReturnType<typeof fetchEntries>>['list'][number] & { action_text?: string | null; target_text?: string | null }

const targetCode = (entry: Entry) => `${entry.resource}${entry.resource_id ? ` #${entry.resource_id}` : ''}`
/** The action in words, else its code. */
const actionOf = (entry: Entry) => entry.action_text || entry.action
/** What the action acted on, in words, else the resource's code and id. */
const targetOf = (entry: Entry) => entry.target_text || targetCode(entry)

/** The audit log: who changed what and when, filtered, each change shown as a diff of its fields. */
export default function Audit() {
  const w = useWorkWords()
  const a = w.audit
  const me = useMe().data
  const [page, setPage] = useState(1)
  const [actor, setActor] = useState<string | null>(null)
  const [action, setAction] = useState('')
  const [resource, setResource] = useState('')
  const [from, setFrom] = useState<string | null>(null)
  const [to, setTo] = useState<string | null>(null)
  const [open, setOpen] = useState<Entry | null>(null)
  const [actionTerm] = useDebouncedValue(action.trim(), 300)
  const [resourceTerm] = useDebouncedValue(resource.trim(), 300)
  const filters: Filters = { actor_id: actor, action: actionTerm, resource: resourceTerm, from, to }
  const entries = useQuery({ queryKey: ['admin', 'audit', page, filters], queryFn: () => fetchEntries(page, filters) })
  const users = useQuery({
    queryKey: ['admin', 'users', 'options'],
    queryFn: () => unwrap(api.admin.users.get({ query: { page: 1, page_size: 100 } })),
    select: (data) => data.list.map((user) => ({ value: String(user.id), label: `${user.name} (${user.username})` })),
    enabled: can(me, 'users:read'),
    retry: false,
  })
  const zone = browserZone()
  const reset = <T,>(set: (value: T) => void) => (value: T) => {
    set(value)
    setPage(1)
  }

  return (
    <Stack gap="md">
      <PageTitle>{a.title}</PageTitle>
      <Group align="flex-end" gap="sm">
        {can(me, 'users:read') ? (
          <Select label={a.actor} placeholder={w.shared.all} data={users.data ?? []} value={actor} onChange={reset(setActor)} searchable clearable w={220} />
        ) : (
          <TextInput
            label={a.actorId}
            value={actor ?? ''}
            onChange={(event) => reset(setActor)(/^\d+$/.test(event.currentTarget.value) ? event.currentTarget.value : null)}
            w={140}
          />
        )}
        <TextInput label={a.action} placeholder="role.create" value={action} onChange={(event) => reset(setAction)(event.currentTarget.value)} w={200} />
        <TextInput label={a.resource} placeholder="role" value={resource} onChange={(event) => reset(setResource)(event.currentTarget.value)} w={160} />
        <DateInput label={a.from} valueFormat="YYYY-MM-DD" value={from} onChange={reset(setFrom)} onKeyDown={keepEnter} clearable w={150} />
        <DateInput label={a.to} valueFormat="YYYY-MM-DD" value={to} onChange={reset(setTo)} onKeyDown={keepEnter} clearable w={150} />
      </Group>
      <Text size="sm" c="dimmed">
        {a.note(zone)}
      </Text>
      <DataTable
        label={a.table}
        rows={entries.data?.list as Entry[] | undefined}
        rowKey={(entry) => entry.id}
        loading={entries.isPending}
        error={entries.error}
        page={page}
        pageSize={PAGE_SIZE}
        total={entries.data?.total}
        onPage={setPage}
        columns={[
          { header: a.time, cell: (entry) => dateTimeIn(entry.created_at, zone) },
          { header: a.actor, cell: (entry) => entry.actor_username ?? (entry.actor_id ? `#${entry.actor_id}` : a.nobody) },
          {
            header: a.action,
            // the code stays at hand (the Action filter takes it) as the text's tooltip
            cell: (entry) =>
              entry.action_text ? (
                <Text size="sm" title={entry.action}>
                  {entry.action_text}
                </Text>
              ) : (
                <Text size="sm" ff="monospace">
                  {entry.action}
                </Text>
              ),
          },
          {
            header: a.target,
            cell: (entry) =>
              entry.target_text ? (
                <Text size="sm" title={targetCode(entry)}>
                  {entry.target_text}
                </Text>
              ) : (
                targetCode(entry)
              ),
          },
          { header: a.ip, cell: (entry) => entry.ip ?? '—' },
          {
            header: a.changes,
            cell: (entry) =>
              entry.before === null && entry.after === null ? (
                <Text size="sm" c="dimmed">
                  {a.noDetail}
                </Text>
              ) : (
                <Button size="xs" variant="default" onClick={() => setOpen(entry)} aria-label={a.showChangesOf(entry.id)}>
                  {a.showChanges}
                </Button>
              ),
          },
        ]}
      />
      {open && (
        <AuditDiff
          title={a.diffTitle(actionOf(open), targetOf(open))}
          before={open.before}
          after={open.after}
          onClose={() => setOpen(null)}
        />
      )}
    </Stack>
  )
}
