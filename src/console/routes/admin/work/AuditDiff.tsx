import { Checkbox, Code, Modal, ScrollArea, Stack, Table, Text } from '@mantine/core'
import { useState } from 'react'
import { useT } from '../../../i18n'
import { useWorkWords } from './words'

type Flat = Map<string, unknown>

/** Nested objects as dotted paths to their leaves ("address.city"); arrays and scalars are leaves. */
function flatten(value: unknown, prefix = '', into: Flat = new Map()): Flat {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const entries = Object.entries(value as Record<string, unknown>)
    if (entries.length === 0 && prefix) into.set(prefix, value)
    for (const [key, inner] of entries) flatten(inner, prefix ? `${prefix}.${key}` : key, into)
  } else if (prefix) into.set(prefix, value)
  else if (value !== null && value !== undefined) into.set('', value)
  return into
}

const show = (value: unknown): string => (value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value))

export interface DiffRow {
  field: string
  before: unknown
  after: unknown
  changed: boolean
}

/** Each field of before and after, and whether it changed. */
export function diff(before: unknown, after: unknown): DiffRow[] {
  const a = flatten(before)
  const b = flatten(after)
  const fields = [...new Set([...a.keys(), ...b.keys()])].sort()
  return fields.map((field) => ({
    field: field || '—',
    before: a.get(field),
    after: b.get(field),
    changed: JSON.stringify(a.get(field)) !== JSON.stringify(b.get(field)),
  }))
}

/** An entry's change as a table of fields: before and after; unchanged fields hidden unless asked for, then dimmed. */
export function AuditDiff({ title, before, after, onClose }: { title: string; before: unknown; after: unknown; onClose: () => void }) {
  const t = useT()
  const a = useWorkWords().audit
  const [all, setAll] = useState(false)
  const rows = diff(before, after)
  const shown = all ? rows : rows.filter((row) => row.changed)
  return (
    <Modal opened onClose={onClose} title={title} size="xl" centered closeButtonProps={{ 'aria-label': t.common.close }}>
      <Stack gap="sm">
        <Text size="sm">{before === null || before === undefined ? a.created : after === null || after === undefined ? a.deleted : a.changedCount(rows.filter((row) => row.changed).length)}</Text>
        <Checkbox label={a.showUnchanged} checked={all} onChange={(event) => setAll(event.currentTarget.checked)} />
        <ScrollArea type="auto">
          <Table striped miw={520}>
            <Table.Caption style={{ captionSide: 'top', textAlign: 'left' }}>
              <Text fw={600} c="dark">
                {a.diffTable}
              </Text>
            </Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{a.field}</Table.Th>
                <Table.Th scope="col">{a.before}</Table.Th>
                <Table.Th scope="col">{a.after}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {shown.map((row) => (
                <Table.Tr key={row.field}>
                  <Table.Td>
                    <Text size="sm" fw={row.changed ? 700 : 400} c={row.changed ? undefined : 'dimmed'}>
                      {row.field}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Value value={row.before} changed={row.changed} tone="before" />
                  </Table.Td>
                  <Table.Td>
                    <Value value={row.after} changed={row.changed} tone="after" />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea>
        {shown.length === 0 && <Text c="dimmed">{a.noChanges}</Text>}
      </Stack>
    </Modal>
  )
}

function Value({ value, changed, tone }: { value: unknown; changed: boolean; tone: 'before' | 'after' }) {
  const text = show(value)
  if (!changed)
    return (
      <Text size="sm" c="dimmed" style={{ wordBreak: 'break-all' }}>
        {text}
      </Text>
    )
  if (value === undefined) return <Text size="sm">—</Text>
  return (
    <Code color={tone === 'before' ? 'red.1' : 'green.1'} c="dark" style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
      {text}
    </Code>
  )
}
