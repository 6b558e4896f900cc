import { Alert, Badge, Button, Group, NumberInput, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core'
import { useForm } from '@mantine/form'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { api, unwrap } from '../../../api'
import { DataTable } from '../../../components/DataTable'
import { applyApiErrors } from '../../../components/form-errors'
import { can, useMe } from '../../../components/me'
import { notifyFailed, notifySaved } from '../../../components/notify'
import { useT } from '../../../i18n'
import { DATE, required } from './rules'
import { DateField } from './DateField'
import { usePeopleWords } from './words'

const CALENDAR_KEY = ['admin', 'calendar'] as const

type Kind = 'holiday' | 'workday'
interface DayValues {
  date: string | null
  kind: Kind
  name: string
}

interface Props {
  companies: { value: string; label: string }[]
  company: string | null
  onCompany: (company: string | null) => void
}

/** A company's work calendar (CONTRACT §8): the holidays and make-up work days of one year, added and removed. */
export function CompanyCalendar({ companies, company, onCompany }: Props) {
  const t = useT()
  const w = usePeopleWords()
  const c = w.companies.calendar
  const me = useMe().data
  const queryClient = useQueryClient()
  const [year, setYear] = useState<number>(new Date().getFullYear())
  const [problem, setProblem] = useState<string | null>(null)
  const id = company ? Number(company) : null
  const companyName = companies.find((option) => option.value === company)?.label ?? ''
  const validYear = Number.isInteger(year) && year >= 1 && year <= 9999

  const days = useQuery({
    queryKey: [...CALENDAR_KEY, id, year],
    queryFn: () => unwrap(api.admin.companies({ id: id! }).calendar.get({ query: { year } })),
    enabled: id !== null && validYear,
  })
  const form = useForm<DayValues>({
    initialValues: { date: null, kind: 'holiday', name: '' },
    validate: {
      date: (value) => (value && DATE.test(value) ? null : w.shared.badDate),
      name: required(w.shared, 100),
    },
  })
  const add = useMutation({
    mutationFn: (values: DayValues) => unwrap(api.admin.companies({ id: id! }).calendar({ date: values.date! }).put({ kind: values.kind, name: values.name.trim() })),
    onSuccess: (day) => {
      notifySaved(c.added)
      form.setFieldValue('date', null)
      form.setFieldValue('name', '')
      const dayYear = Number(day.date.slice(0, 4))
      if (dayYear !== year) setYear(dayYear)
      void queryClient.invalidateQueries({ queryKey: [...CALENDAR_KEY, id] })
    },
    onError: (error) => setProblem(applyApiErrors(form, error, ['date', 'kind', 'name'])),
  })
  const remove = useMutation({
    mutationFn: (date: string) => unwrap(api.admin.companies({ id: id! }).calendar({ date }).delete()),
    onSuccess: () => {
      notifySaved(c.removed)
      void queryClient.invalidateQueries({ queryKey: [...CALENDAR_KEY, id] })
    },
    onError: (error) => notifyFailed(error),
  })
  const kinds = [
    { value: 'holiday', label: c.holiday },
    { value: 'workday', label: c.workday },
  ]
  const mayUpdate = can(me, 'calendar:update')

  return (
    <Stack gap="sm" mt="lg">
      <Title order={2} size="h3">
        {c.title}
      </Title>
      <Text size="sm" c="dimmed">
        {c.help}
      </Text>
      <Group align="flex-end">
        <Select label={c.company} data={companies} value={company} onChange={onCompany} searchable w={240} />
        <NumberInput label={c.year} value={year} onChange={(value) => setYear(Number(value))} min={1} max={9999} allowDecimal={false} w={120} />
      </Group>
      {id === null ? (
        <Text>{c.pickCompany}</Text>
      ) : (
        <>
          {mayUpdate && (
            <form
              noValidate
              onSubmit={form.onSubmit((values) => {
                setProblem(null)
                add.mutate(values)
              })}
            >
              <Stack gap="xs">
                <Text fw={600} size="sm">
                  {c.addTitle}
                </Text>
                <SimpleGrid cols={{ base: 1, sm: 4 }} style={{ alignItems: 'end' }}>
                  <DateField label={c.date} withAsterisk {...form.getInputProps('date')} />
                  <Select label={c.kind} data={kinds} allowDeselect={false} {...form.getInputProps('kind')} />
                  <TextInput label={c.dayName} withAsterisk {...form.getInputProps('name')} />
                  <Button type="submit" loading={add.isPending}>
                    {c.add}
                  </Button>
                </SimpleGrid>
                <Text size="xs" c="dimmed">
                  {c.replaceNote}
                </Text>
                {problem && (
                  <Alert color="red" role="alert">
                    {problem}
                  </Alert>
                )}
              </Stack>
            </form>
          )}
          <DataTable
            label={c.table(companyName, year)}
            rows={days.data?.days}
            rowKey={(day) => day.date}
            loading={days.isPending && days.fetchStatus !== 'idle'}
            error={days.error}
            columns={[
              { header: c.date, cell: (day) => day.date },
              {
                header: c.kind,
                cell: (day) => (
                  <Badge color={day.kind === 'holiday' ? 'red' : 'blue'} variant="light" c="var(--mantine-color-text)">
                    {day.kind === 'holiday' ? c.holiday : c.workday}
                  </Badge>
                ),
              },
              { header: c.dayName, cell: (day) => day.name },
              {
                header: t.common.actions,
                cell: (day) =>
                  mayUpdate && (
                    <Button
                      size="xs"
                      variant="subtle"
                      color="red"
                      aria-label={c.removeOf(day.date)}
                      loading={remove.isPending && remove.variables === day.date}
                      onClick={() => remove.mutate(day.date)}
                    >
                      {c.remove}
                    </Button>
                  ),
              },
            ]}
          />
        </>
      )}
    </Stack>
  )
}
