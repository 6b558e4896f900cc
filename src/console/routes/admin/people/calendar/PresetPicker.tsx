import { Alert, Anchor, Button, Group, Modal, Select, Stack, Text } from '@mantine/core'
import { useMutation, useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { api, unwrap } from '../../../../api'
import { useT } from '../../../../i18n'
import { useCalendarWords } from './words'

interface Props {
  opened: boolean
  onClose: () => void
  companyId: number
  companyName: string
  onApplied: (applied: { days: number; year: number }) => void
}

/** The presets shipped with the service (GET /admin/calendar-presets), one applied to the company in one step. */
export function PresetPicker({ opened, onClose, companyId, companyName, onApplied }: Props) {
  const t = useT()
  const b = useCalendarWords().preset
  const [chosen, setChosen] = useState<string | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const presets = useQuery({
    queryKey: ['admin', 'calendar-presets'],
    queryFn: () => unwrap(api.admin['calendar-presets'].get()),
    enabled: opened,
    staleTime: Infinity,
  })
  const list = presets.data?.presets ?? []
  const preset = list.find((item) => item.id === chosen) ?? null
  const close = () => {
    setChosen(null)
    setProblem(null)
    onClose()
  }
  const apply = useMutation({
    mutationFn: (id: string) => unwrap(api.admin.companies({ id: companyId }).calendar['apply-preset'].post({ preset_id: id })),
    onSuccess: ({ imported }) => {
      const year = preset?.year ?? new Date().getFullYear()
      close()
      onApplied({ days: imported, year })
    },
    onError: (error) => setProblem(error instanceof Error ? error.message : String(error)),
  })
  const label = (item: { country: string; year: number }) => b.option(b.countries[item.country] ?? item.country, item.year)

  return (
    <Modal opened={opened} onClose={close} title={b.title} size="lg" closeButtonProps={{ 'aria-label': t.common.close }}>
      <Stack gap="sm">
        <Select
          label={b.choose}
          data={list.map((item) => ({ value: item.id, label: label(item) }))}
          value={chosen}
          onChange={(value) => {
            setChosen(value)
            setProblem(null)
          }}
          disabled={presets.isPending}
          error={presets.error ? (presets.error as Error).message : undefined}
        />
        {preset && (
          <Stack gap={4}>
            <Text size="sm">
              {b.counts(
                preset.days.filter((day) => day.kind === 'holiday').length,
                preset.days.filter((day) => day.statutory).length,
                preset.days.filter((day) => day.kind === 'workday').length,
              )}
            </Text>
            <Text size="sm">
              {b.source}:{' '}
              <Anchor href={preset.source.url} target="_blank" rel="noreferrer">
                {preset.source.title}
              </Anchor>{' '}
              ({preset.source.number}, {b.published(preset.source.published)})
            </Text>
            <Text size="sm" c="dimmed">
              {b.note(companyName)}
            </Text>
          </Stack>
        )}
        {problem && (
          <Alert color="red" role="alert">
            {problem}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {t.common.cancel}
          </Button>
          <Button disabled={!preset} loading={apply.isPending} onClick={() => preset && apply.mutate(preset.id)}>
            {b.apply}
          </Button>
        </Group>
      </Stack>
    </Modal>
  )
}
