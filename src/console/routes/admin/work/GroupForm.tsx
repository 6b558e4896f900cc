import { Button, Group, Modal, Select, Stack, Switch, Textarea, TextInput } from '@mantine/core'
import { useForm } from '@mantine/form'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useEffect, useMemo } from 'react'
import { api, unwrap } from '../../../api'
import { applyApiErrors } from '../../../components/form-errors'
import { notifyFailed, notifySaved } from '../../../components/notify'
import { useT } from '../../../i18n'
import { EmployeeSelect, useCompanyOptions } from './shared'
import { useWorkWords } from './words'

export type AttendanceGroup = Awaited<ReturnType<typeof fetchGroups>>['groups'][number]
export const fetchGroups = (page: number, search: string) =>
  unwrap(api.admin.attendance.groups.get({ query: { page, page_size: 10, ...(search ? { search } : {}) } }))

interface Values {
  name: string
  description: string
  company_id: string | null
  manager_id: string | null
  timezone: string | null
  enabled: boolean
}
const FIELDS = ['name', 'description', 'company_id', 'manager_id', 'timezone'] as const

/** Every IANA zone the browser knows (UTC included). */
function zones(): string[] {
  const list = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : []
  return list.includes('UTC') ? list : ['UTC', ...list]
}

/** The group form, in a dialog: "New group" creates, a group given edits it. */
export function GroupForm({ group, onClose }: { group: AttendanceGroup | null; onClose: () => void }) {
  const t = useT()
  const w = useWorkWords()
  const g = w.groups
  const queryClient = useQueryClient()
  const companies = useCompanyOptions()
  const zoneOptions = useMemo(zones, [])
  const form = useForm<Values>({
    initialValues: {
      name: group?.name ?? '',
      description: group?.description ?? '',
      company_id: group ? String(group.company_id) : null,
      manager_id: group?.manager_id ? String(group.manager_id) : null,
      timezone: group?.timezone ?? null,
      enabled: group ? group.status === 1 : true,
    },
    validate: {
      name: (value) => (!value.trim() ? w.shared.required : value.length > 100 ? w.shared.tooLong(100) : null),
      description: (value) => (value.length > 500 ? w.shared.tooLong(500) : null),
      company_id: (value) => (value ? null : w.shared.required),
    },
  })
  // a single company is the usual case: choose it
  const only = !group && companies.data?.length === 1 ? companies.data[0]!.value : null
  useEffect(() => {
    if (only) form.setFieldValue('company_id', (current) => current ?? only)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [only])

  const save = useMutation({
    mutationFn: (values: Values) => {
      const body = {
        name: values.name.trim(),
        description: values.description.trim(),
        company_id: Number(values.company_id),
        manager_id: values.manager_id ? Number(values.manager_id) : null,
        timezone: values.timezone || null,
      }
      return group
        ? unwrap(api.admin.attendance.groups({ id: group.id }).put({ ...body, status: values.enabled ? 1 : 0 }))
        : unwrap(api.admin.attendance.groups.post(body))
    },
    onSuccess: () => {
      notifySaved(group ? g.updated : g.created)
      void queryClient.invalidateQueries({ queryKey: ['admin', 'attendance'] })
      onClose()
    },
    onError: (error) => {
      const rest = applyApiErrors(form, error, FIELDS)
      if (rest) notifyFailed(error)
    },
  })

  return (
    <Modal opened onClose={onClose} title={group ? g.editTitle : g.createTitle} centered closeButtonProps={{ 'aria-label': t.common.close }}>
      <form onSubmit={form.onSubmit((values) => save.mutate(values))} noValidate>
        <Stack gap="sm">
          <TextInput label={g.name} withAsterisk {...form.getInputProps('name')} />
          <Select label={g.company} withAsterisk data={companies.data ?? []} searchable nothingFoundMessage={w.shared.nothingFound} {...form.getInputProps('company_id')} />
          <Select
            label={g.timezone}
            description={g.timezoneHint}
            data={zoneOptions}
            searchable
            clearable
            limit={50}
            nothingFoundMessage={w.shared.nothingFound}
            {...form.getInputProps('timezone')}
          />
          <EmployeeSelect label={g.manager} description={g.managerHint} clearable {...form.getInputProps('manager_id')} />
          <Textarea label={g.description} autosize minRows={1} {...form.getInputProps('description')} />
          {group && <Switch label={w.shared.enabled} {...form.getInputProps('enabled', { type: 'checkbox' })} />}
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onClose}>
              {t.common.cancel}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {group ? t.common.save : t.common.create}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  )
}
