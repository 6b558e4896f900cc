import { ActionIcon, Badge, Button, Group, NumberInput, Select, Stack, Text, Title } from '@mantine/core'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { api, unwrap } from '../../../api'
import { DataTable } from '../../../components/DataTable'
import { can, useMe } from '../../../components/me'
import { notifyFailed, notifySaved } from '../../../components/notify'
import { useT } from '../../../i18n'
import type { Day } from './calendar/lines'
import { PasteImport } from './calendar/PasteImport'
import { PresetPicker } from './calendar/PresetPicker'
import { RangeForm } from './calendar/RangeForm'
import { useCalendarWords } from './calendar/words'
import { usePeopleWords } from './words'

const CALENDAR_KEY = ['admin', 'calendar'] as const

const isYear = (value: number) => Number.isInteger(value) && value >= 1000 && value <= 9999

interface Props {
  companies: { value: string; label: string }[]
  company: string | null
  onCompany: (company: string | null) => void
}

/**
 * A company's work calendar (CONTRACT §8, §24): the holidays and make-up work days of one year,
 * added a range at a time, pasted as a list, or from a preset, and removed. The year box drives the
 * list: the list is always that year's, and a save into another year moves both to it.
 */
export function CompanyCalendar({ companies, company, onCompany }: Props) {
  const t = useT()
  const w = usePeopleWords()
  const c = w.companies.calendar
  const b = useCalendarWords()
  const me = useMe().data
  const queryClient = useQueryClient()
  const [year, setYear] = useState<number>(new Date().getFullYear())
  /** what the year box shows while it is typed in; the list follows once it is a whole year */
  const [yearText, setYearText] = useState<string | number>(year)
  const [pasting, setPasting] = useState(false)
  const [choosingPreset, setChoosingPreset] = useState(false)
  const id = company ? Number(company) : null
  const companyName = companies.find((option) => option.value === company)?.label ?? ''

  const showYear = (next: number) => {
    setYear(next)
    setYearText(next)
  }
  const days = useQuery({
    queryKey: [...CALENDAR_KEY, id, year],
    queryFn: () => unwrap(api.admin.companies({ id: id! }).calendar.get({ query: { year } })),
    enabled: id !== null,
  })
  const refresh = () => queryClient.invalidateQueries({ queryKey: [...CALENDAR_KEY, id] })
  /** After days were saved: the list stays on its year when it holds one of them, else moves (with the box) to the first one's. */
  const saved = (written: Day[]) => {
    const years = [...new Set(written.map((day) => Number(day.date.slice(0, 4))))].sort()
    const shown = years.includes(year) ? year : (years[0] ?? year)
    showYear(shown)
    notifySaved(b.savedIn(written.length, shown))
    void refresh()
  }
  const remove = useMutation({
    mutationFn: (date: string) => unwrap(api.admin.companies({ id: id! }).calendar({ date }).delete()),
    onSuccess: () => {
      notifySaved(c.removed)
      void refresh()
    },
    onError: (error) => notifyFailed(error),
  })
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
        <Group gap={4} align="flex-end">
          <ActionIcon variant="default" size="lg" aria-label={b.year.previous} onClick={() => showYear(Math.max(year - 1, 1000))}>
            ‹
          </ActionIcon>
          <NumberInput
            label={c.year}
            value={yearText}
            onChange={(value) => {
              setYearText(value)
              if (isYear(Number(value))) setYear(Number(value))
            }}
            onBlur={() => setYearText(year)}
            min={1000}
            max={9999}
            allowDecimal={false}
            allowNegative={false}
            clampBehavior="none"
            hideControls
            w={96}
          />
          <ActionIcon variant="default" size="lg" aria-label={b.year.next} onClick={() => showYear(Math.min(year + 1, 9999))}>
            ›
          </ActionIcon>
        </Group>
      </Group>
      {id === null ? (
        <Text>{c.pickCompany}</Text>
      ) : (
        <>
          {mayUpdate && (
            <>
              <RangeForm companyId={id} onSaved={saved} />
              <Group gap="xs">
                <Button variant="default" onClick={() => setPasting(true)}>
                  {b.paste.open}
                </Button>
                <Button variant="default" onClick={() => setChoosingPreset(true)}>
                  {b.preset.open}
                </Button>
              </Group>
              <PasteImport opened={pasting} onClose={() => setPasting(false)} companyId={id} onSaved={saved} />
              <PresetPicker
                opened={choosingPreset}
                onClose={() => setChoosingPreset(false)}
                companyId={id}
                companyName={companyName}
                onApplied={(applied) => {
                  showYear(applied.year)
                  notifySaved(b.preset.applied(applied.days, applied.year))
                  void refresh()
                }}
              />
            </>
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
              { header: b.statutoryColumn, cell: (day) => (day.statutory ? t.common.yes : '') },
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
