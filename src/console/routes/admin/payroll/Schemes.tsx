import { Button, Group, Stack, Text } from '@mantine/core'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { api, unwrap } from '../../../api'
import { ConfirmDelete } from '../../../components/ConfirmDelete'
import { DataTable } from '../../../components/DataTable'
import { can, useMe } from '../../../components/me'
import { notifyFailed, notifySaved } from '../../../components/notify'
import { useT } from '../../../i18n'
import { fetchSchemes, PAYROLL_KEY, type Scheme } from './data'
import { SchemeForm } from './SchemeForm'
import { usePayrollWords } from './words'

export const SCHEMES_KEY = [...PAYROLL_KEY, 'schemes'] as const

/** Every contribution scheme, the query pay profiles' forms share. */
export const useSchemes = (enabled = true) => useQuery({ queryKey: SCHEMES_KEY, queryFn: fetchSchemes, enabled })

/** Contribution schemes (CONTRACT §17): list, create, edit (a whole replacement), delete (refused while one is used). */
export function Schemes() {
  const t = useT()
  const p = usePayrollWords()
  const me = useMe().data
  const manage = can(me, 'payroll:manage')
  const queryClient = useQueryClient()
  const [editing, setEditing] = useState<Scheme | 'new' | null>(null)
  const [deleting, setDeleting] = useState<Scheme | null>(null)
  const schemes = useSchemes()
  const remove = useMutation({
    mutationFn: (id: number) => unwrap(api.admin.payroll.schemes({ id }).delete()),
    onSuccess: () => {
      notifySaved(p.schemeDeleted)
      setDeleting(null)
      void queryClient.invalidateQueries({ queryKey: SCHEMES_KEY })
    },
    onError: (error) => {
      setDeleting(null)
      notifyFailed(error)
    },
  })

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Text size="sm" c="dimmed" maw={760}>
          {p.schemesHint}
        </Text>
        {manage && <Button onClick={() => setEditing('new')}>{p.newScheme}</Button>}
      </Group>
      <DataTable
        label={p.schemesTable}
        rows={schemes.data?.schemes}
        rowKey={(scheme) => scheme.id}
        loading={schemes.isPending}
        error={schemes.error}
        columns={[
          { header: p.schemeName, cell: (scheme) => scheme.name },
          { header: p.effectiveFrom, cell: (scheme) => scheme.effective_from },
          {
            header: p.schemeItems,
            cell: (scheme) => (
              <Stack gap={0}>
                {scheme.items.map((item) => (
                  <Text key={item.code} size="sm" style={{ whiteSpace: 'nowrap' }}>
                    {p.itemRates(p.schemeCodes[item.code] ?? item.code, String(item.employee_rate), String(item.employer_rate))}
                  </Text>
                ))}
              </Stack>
            ),
          },
          ...(manage
            ? [
                {
                  header: t.common.actions,
                  cell: (scheme: Scheme) => (
                    <Group gap="xs" wrap="nowrap">
                      <Button size="xs" variant="default" aria-label={p.editSchemeOf(scheme.name, scheme.effective_from)} onClick={() => setEditing(scheme)}>
                        {t.common.edit}
                      </Button>
                      <Button size="xs" variant="default" color="red" aria-label={p.deleteSchemeOf(scheme.name, scheme.effective_from)} onClick={() => setDeleting(scheme)}>
                        {t.common.delete}
                      </Button>
                    </Group>
                  ),
                },
              ]
            : []),
        ]}
      />
      {editing !== null && <SchemeForm key={editing === 'new' ? 'new' : editing.id} scheme={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      <ConfirmDelete
        what={deleting ? p.schemeWhat(deleting.name, deleting.effective_from) : null}
        note={p.schemeDeleteNote}
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
        loading={remove.isPending}
      />
    </Stack>
  )
}
