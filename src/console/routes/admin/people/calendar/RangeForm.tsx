import { Alert, Button, Checkbox, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core'
import { useForm } from '@mantine/form'
import { useMutation } from '@tanstack/react-query'
import { useState } from 'react'
import { api, ApiError, unwrap } from '../../../../api'
import { keepEnter } from '../../../../components/dates'
import { DateField } from '../DateField'
import { DATE, required } from '../rules'
import { usePeopleWords } from '../words'
import { datesBetween, isRealDate, MAX_DAYS, type Day, type Kind } from './lines'
import { useCalendarWords } from './words'

interface Values {
  from: string | null
  to: string | null
  kind: Kind
  name: string
  statutory: boolean
}

/** The dates the form names: from `from` to `to` (or just `from`); [] while `from` is not a date. */
const datesOf = ({ from, to }: Pick<Values, 'from' | 'to'>) =>
  from && isRealDate(from) ? (to && isRealDate(to) ? datesBetween(from, to) : [from]) : []

/** Adds a range of dates, one kind and name, as one calendar import (all or none). */
export function RangeForm({ companyId, onSaved }: { companyId: number; onSaved: (days: Day[]) => void }) {
  const w = usePeopleWords()
  const c = w.companies.calendar
  const b = useCalendarWords()
  const [problem, setProblem] = useState<string | null>(null)
  const form = useForm<Values>({
    initialValues: { from: null, to: null, kind: 'holiday', name: '', statutory: false },
    validate: {
      from: (value) => (value && DATE.test(value) && isRealDate(value) ? null : w.shared.badDate),
      to: (value, values) => {
        if (!value) return null
        if (!DATE.test(value) || !isRealDate(value)) return w.shared.badDate
        if (values.from && value < values.from) return b.range.beforeFrom
        return datesOf(values).length > MAX_DAYS ? b.range.tooMany(MAX_DAYS) : null
      },
      name: required(w.shared, 100),
    },
  })
  const save = useMutation({
    mutationFn: (days: Day[]) => unwrap(api.admin.companies({ id: companyId }).calendar.import.post({ days })).then(() => days),
    onSuccess: (days) => {
      form.setValues({ from: null, to: null, name: '', statutory: false })
      onSaved(days)
    },
    onError: (error) => {
      // the API names days[i].field: every day of a range shares the form's fields
      const fields = error instanceof ApiError ? error.errors.map((e) => e.field.replace(/^days\[\d+\]\./, '')) : []
      for (const [i, field] of fields.entries())
        if (['kind', 'name', 'statutory'].includes(field)) form.setFieldError(field, (error as ApiError).errors[i].message)
      setProblem(error instanceof Error ? error.message : String(error))
    },
  })
  const count = datesOf(form.values).length
  const holiday = form.values.kind === 'holiday'

  return (
    <form
      noValidate
      aria-label={b.range.title}
      onSubmit={form.onSubmit((values) => {
        setProblem(null)
        const name = values.name.trim()
        save.mutate(datesOf(values).map((date) => ({ date, kind: values.kind, name, statutory: values.kind === 'holiday' && values.statutory })))
      })}
    >
      <Stack gap="xs">
        <Text fw={600} size="sm">
          {b.range.title}
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 3, lg: 6 }} style={{ alignItems: 'end' }}>
          <DateField label={b.range.from} withAsterisk onKeyDown={keepEnter} {...form.getInputProps('from')} />
          <DateField label={b.range.to} clearable onKeyDown={keepEnter} {...form.getInputProps('to')} />
          <Select
            label={c.kind}
            data={[
              { value: 'holiday', label: c.holiday },
              { value: 'workday', label: c.workday },
            ]}
            allowDeselect={false}
            {...form.getInputProps('kind')}
          />
          <TextInput label={c.dayName} withAsterisk {...form.getInputProps('name')} />
          <Checkbox
            label={b.statutory}
            description={b.statutoryHelp}
            disabled={!holiday}
            {...form.getInputProps('statutory', { type: 'checkbox' })}
            checked={holiday && form.values.statutory}
          />
          <Button type="submit" loading={save.isPending}>
            {b.range.add(Math.max(count, 1))}
          </Button>
        </SimpleGrid>
        <Text size="xs" c="dimmed">
          {b.range.note}
        </Text>
        {problem && (
          <Alert color="red" role="alert">
            {problem}
          </Alert>
        )}
      </Stack>
    </form>
  )
}
