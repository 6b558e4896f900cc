import { Button, Group, Modal, Stack, Text, Textarea, TextInput } from '@mantine/core'
import { useForm } from '@mantine/form'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '../../../api'
import { applyApiErrors } from '../../../components/form-errors'
import { dateTimeIn } from '../../../components/format'
import { notifyFailed, notifySaved } from '../../../components/notify'
import { useT } from '../../../i18n'
import { localToInstant } from '../../../components/dates'
import { useWorkWords } from './words'

export type AttendanceRecord = Awaited<ReturnType<typeof fetchRecords>>['records'][number]
export interface RecordFilters {
  employee_id: string | null
  group_id: string | null
  start_date: string | null
  end_date: string | null
  status: string | null
}
export const fetchRecords = (page: number, filters: RecordFilters) =>
  unwrap(
    api.admin.attendance.records.get({
      query: {
        page,
        page_size: 20,
        ...(filters.employee_id ? { employee_id: Number(filters.employee_id) } : {}),
        ...(filters.group_id ? { group_id: Number(filters.group_id) } : {}),
        ...(filters.start_date ? { start_date: filters.start_date } : {}),
        ...(filters.end_date ? { end_date: filters.end_date } : {}),
        ...(filters.status ? { status: Number(filters.status) } : {}),
      },
    }),
  )

interface Values {
  clock_in_time: string
  clock_out_time: string
  reason: string
}
const FIELDS = ['clock_in_time', 'clock_out_time', 'reason'] as const
const local = (instant: string | null, zone: string) => (instant ? dateTimeIn(instant, zone) : '')

/** The administrator's correction of one record: new clock times (in the record's zone) and a reason. */
export function RecordEdit({ record, onClose }: { record: AttendanceRecord; onClose: () => void }) {
  const t = useT()
  const w = useWorkWords()
  const r = w.records
  const queryClient = useQueryClient()
  const zone = record.timezone
  const before = { clock_in_time: local(record.clock_in_time, zone), clock_out_time: local(record.clock_out_time, zone) }
  const time = (value: string) => (value.trim() && !localToInstant(value, zone) ? r.badDateTime : null)
  const form = useForm<Values>({
    initialValues: { ...before, reason: '' },
    validate: {
      clock_in_time: (value, values) =>
        time(value) ??
        (value.trim() === before.clock_in_time && values.clock_out_time.trim() === before.clock_out_time ? r.nothingChanged : null),
      clock_out_time: time,
      reason: (value) => (!value.trim() ? w.shared.required : value.length > 500 ? w.shared.tooLong(500) : null),
    },
  })

  const save = useMutation({
    mutationFn: (values: Values) => {
      const body: { clock_in_time?: string; clock_out_time?: string; reason: string } = { reason: values.reason.trim() }
      // only the times that changed are sent: an unchanged one keeps the record's
      if (values.clock_in_time.trim() && values.clock_in_time.trim() !== before.clock_in_time)
        body.clock_in_time = localToInstant(values.clock_in_time, zone)!
      if (values.clock_out_time.trim() && values.clock_out_time.trim() !== before.clock_out_time)
        body.clock_out_time = localToInstant(values.clock_out_time, zone)!
      return unwrap(api.admin.attendance.records({ id: record.id }).put(body))
    },
    onSuccess: () => {
      notifySaved(r.corrected)
      void queryClient.invalidateQueries({ queryKey: ['admin', 'attendance', 'records'] })
      onClose()
    },
    onError: (error) => {
      const rest = applyApiErrors(form, error, FIELDS)
      if (rest) notifyFailed(error)
    },
  })

  return (
    <Modal opened onClose={onClose} title={r.editTitle} centered closeButtonProps={{ 'aria-label': t.common.close }}>
      <form onSubmit={form.onSubmit((values) => save.mutate(values))} noValidate>
        <Stack gap="sm">
          <Text size="sm">{r.editOf(record.employee?.name ?? `#${record.employee_id}`, record.work_date)}</Text>
          <Text size="sm" c="dimmed">
            {r.timesIn(zone)}
          </Text>
          <TextInput label={r.clockIn} description={r.dateTimeHint} placeholder={`${record.work_date} 09:00`} {...form.getInputProps('clock_in_time')} />
          <TextInput label={r.clockOut} description={r.dateTimeHint} placeholder={`${record.work_date} 18:00`} {...form.getInputProps('clock_out_time')} />
          <Textarea label={r.reason} withAsterisk autosize minRows={2} {...form.getInputProps('reason')} />
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onClose}>
              {t.common.cancel}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {t.common.save}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  )
}
