import { Alert, Button, Group, Modal, Select, Stack, TextInput } from '@mantine/core'
import { useForm } from '@mantine/form'
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { api, unwrap } from '../../../api'
import { DataTable } from '../../../components/DataTable'
import { applyApiErrors } from '../../../components/form-errors'
import { can, useMe } from '../../../components/me'
import { notifyFailed, notifySaved } from '../../../components/notify'
import { PageTitle } from '../../../components/PageTitle'
import { useT } from '../../../i18n'
import { CompanyCalendar } from './CompanyCalendar'
import { ConfirmDelete } from '../../../components/ConfirmDelete'
import { COMPANIES_KEY, useCompanyOptions } from './options'
import { required } from './rules'
import { usePeopleWords } from './words'
import { FormActions } from '../../../components/FormActions'
import { DateField } from './DateField'

const PAGE_SIZE = 20

const fetchCompanies = (page: number) => unwrap(api.admin.companies.get({ query: { page, page_size: PAGE_SIZE } }))
type Company = Awaited<ReturnType<typeof fetchCompanies>>['list'][number]

/** IANA zones the browser knows, for the time-zone picker. */
const ZONES: string[] = (() => {
  try {
    return Intl.supportedValuesOf('timeZone')
  } catch {
    return ['Asia/Shanghai', 'UTC']
  }
})()

/** Companies (create, edit, delete) and the work calendar of the company chosen. */
export default function Companies() {
  const t = useT()
  const w = usePeopleWords()
  const c = w.companies
  const me = useMe().data
  const queryClient = useQueryClient()
  const [page, setPage] = useState(1)
  const [editing, setEditing] = useState<Company | 'new' | null>(null)
  const [deleting, setDeleting] = useState<Company | null>(null)
  const [calendarOf, setCalendarOf] = useState<string | null>(null)
  const readable = can(me, 'companies:read')

  const list = useQuery({ queryKey: [...COMPANIES_KEY, 'list', page], queryFn: () => fetchCompanies(page), placeholderData: keepPreviousData, enabled: readable })
  const options = useCompanyOptions(readable)
  const remove = useMutation({
    mutationFn: (id: number) => unwrap(api.admin.companies({ id }).delete()),
    onSuccess: (_, id) => {
      notifySaved(c.deleted)
      setDeleting(null)
      if (calendarOf === String(id)) setCalendarOf(null)
      void queryClient.invalidateQueries({ queryKey: COMPANIES_KEY })
    },
    onError: (error) => notifyFailed(error),
  })

  return (
    <Stack>
      <PageTitle>{c.title}</PageTitle>
      {readable ? (
        <>
          <Group justify="flex-end">{can(me, 'companies:create') && <Button onClick={() => setEditing('new')}>{c.create}</Button>}</Group>
          {/* a company without a zone counts attendance in the service's default zone: said, not left silent */}
          {list.data && list.data.list.some((company) => !company.timezone) && (
            <Alert color="yellow">{c.noZoneWarning(list.data.list.filter((company) => !company.timezone).map((company) => company.name).join(', '))}</Alert>
          )}
          <DataTable
            label={c.table}
            rows={list.data?.list}
            rowKey={(row) => row.id}
            loading={list.isPending}
            error={list.error}
            page={page}
            pageSize={PAGE_SIZE}
            total={list.data?.total}
            onPage={setPage}
            columns={[
              { header: w.shared.id, cell: (row) => row.id },
              { header: c.name, cell: (row) => row.name },
              { header: c.timezone, cell: (row) => row.timezone ?? c.defaultZone },
              {
                header: t.common.actions,
                cell: (row) => (
                  <Group gap="xs" wrap="nowrap">
                    {can(me, 'calendar:read') && (
                      <Button size="xs" variant="default" aria-label={c.calendarOf(row.name)} onClick={() => setCalendarOf(String(row.id))}>
                        {c.showCalendar}
                      </Button>
                    )}
                    {can(me, 'companies:update') && (
                      <Button size="xs" variant="default" aria-label={w.shared.editOf(row.name)} onClick={() => setEditing(row)}>
                        {t.common.edit}
                      </Button>
                    )}
                    {can(me, 'companies:delete') && (
                      <Button size="xs" variant="subtle" color="red" aria-label={w.shared.deleteOf(row.name)} onClick={() => setDeleting(row)}>
                        {t.common.delete}
                      </Button>
                    )}
                  </Group>
                ),
              },
            ]}
          />
        </>
      ) : (
        <Alert color="yellow">{w.shared.noPermission}</Alert>
      )}
      {can(me, 'calendar:read') && <CompanyCalendar companies={options.data ?? []} company={calendarOf} onCompany={setCalendarOf} />}
      <Modal closeButtonProps={{ 'aria-label': t.common.close }} opened={editing !== null} onClose={() => setEditing(null)} title={editing === 'new' ? c.createTitle : c.editTitle} centered>
        {editing !== null && <CompanyForm company={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />}
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

function CompanyForm({ company, onDone }: { company: Company | null; onDone: () => void }) {
  const t = useT()
  const w = usePeopleWords()
  const c = w.companies
  const queryClient = useQueryClient()
  const [problem, setProblem] = useState<string | null>(null)
  type Values = { name: string; timezone: string | null; attendance_starts_on: string | null }
  const form = useForm<Values>({
    initialValues: { name: company?.name ?? '', timezone: company?.timezone ?? null, attendance_starts_on: company?.attendance_starts_on ?? null },
    validate: { name: required(w.shared, 100) },
  })
  const save = useMutation({
    mutationFn: (values: Values) => {
      const body = { name: values.name.trim(), timezone: values.timezone || null, attendance_starts_on: values.attendance_starts_on || null }
      return company ? unwrap(api.admin.companies({ id: company.id }).put(body)) : unwrap(api.admin.companies.post(body))
    },
    onSuccess: () => {
      notifySaved(company ? c.updated : c.created)
      void queryClient.invalidateQueries({ queryKey: COMPANIES_KEY })
      onDone()
    },
    onError: (error) => setProblem(applyApiErrors(form, error, ['name', 'timezone', 'attendance_starts_on'])),
  })
  const zones = company?.timezone && !ZONES.includes(company.timezone) ? [company.timezone, ...ZONES] : ZONES
  return (
    <form
      noValidate
      onSubmit={form.onSubmit((values) => {
        setProblem(null)
        save.mutate(values)
      })}
    >
      <Stack>
        <TextInput label={c.name} withAsterisk data-autofocus {...form.getInputProps('name')} />
        <Select label={c.timezone} description={c.timezoneHelp} data={zones} searchable clearable limit={50} {...form.getInputProps('timezone')} />
        <DateField label={c.attendanceStartsOn} description={c.attendanceStartsOnHelp} clearable {...form.getInputProps('attendance_starts_on')} />
        <FormActions problem={problem} onCancel={onDone} saving={save.isPending} />
      </Stack>
    </form>
  )
}
