import { Button, Checkbox, Group, Modal, NumberInput, Select, SimpleGrid, Stack, Switch, Textarea, TextInput } from '@mantine/core'
import { useForm } from '@mantine/form'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '../../../api'
import { applyApiErrors } from '../../../components/form-errors'
import { notifyFailed, notifySaved } from '../../../components/notify'
import { useT } from '../../../i18n'
import { useGroupOptions } from './shared'
import { useWorkWords } from './words'

export type Rule = Awaited<ReturnType<typeof fetchRules>>['rules'][number]
export const fetchRules = (page: number, groupId: string | null) =>
  unwrap(api.admin.attendance.rules.get({ query: { page, page_size: 10, ...(groupId ? { group_id: Number(groupId) } : {}) } }))

interface Values {
  name: string
  description: string
  group_id: string | null
  work_start_time: string
  work_end_time: string
  break_start_time: string
  break_end_time: string
  late_grace_period: number | string
  early_grace_period: number | string
  required_work_hours: number | string
  allowed_late_days: number | string
  work_days: string[]
  flexible_time: boolean
  location_required: boolean
  allowed_latitude: number | string
  allowed_longitude: number | string
  location_radius: number | string
  overtime_threshold_minutes: number | string
  enabled: boolean
}

const FIELDS = [
  'name',
  'description',
  'group_id',
  'work_start_time',
  'work_end_time',
  'break_start_time',
  'break_end_time',
  'late_grace_period',
  'early_grace_period',
  'required_work_hours',
  'allowed_late_days',
  'work_days',
  'flexible_time',
  'location_required',
  'allowed_latitude',
  'allowed_longitude',
  'location_radius',
  'overtime_threshold_minutes',
] as const

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/
const WEEKDAYS = ['1', '2', '3', '4', '5', '6', '7'] as const

const initial = (rule: Rule | null): Values =>
  rule
    ? {
        name: rule.name,
        description: rule.description,
        group_id: String(rule.group_id),
        work_start_time: rule.work_start_time,
        work_end_time: rule.work_end_time,
        break_start_time: rule.break_start_time ?? '',
        break_end_time: rule.break_end_time ?? '',
        late_grace_period: rule.late_grace_period,
        early_grace_period: rule.early_grace_period,
        required_work_hours: rule.required_work_hours,
        allowed_late_days: rule.allowed_late_days,
        work_days: rule.work_days.split(','),
        flexible_time: rule.flexible_time,
        location_required: rule.location_required,
        allowed_latitude: rule.allowed_latitude ?? '',
        allowed_longitude: rule.allowed_longitude ?? '',
        location_radius: rule.location_radius,
        overtime_threshold_minutes: rule.overtime_threshold_minutes,
        enabled: rule.status === 1,
      }
    : {
        name: '',
        description: '',
        group_id: null,
        work_start_time: '09:00',
        work_end_time: '18:00',
        break_start_time: '',
        break_end_time: '',
        late_grace_period: 0,
        early_grace_period: 0,
        required_work_hours: 8,
        allowed_late_days: 0,
        work_days: ['1', '2', '3', '4', '5'],
        flexible_time: false,
        location_required: false,
        allowed_latitude: '',
        allowed_longitude: '',
        location_radius: 500,
        overtime_threshold_minutes: 30,
        enabled: true,
      }

const num = (value: number | string) => (value === '' ? null : Number(value))

/** The rule form, in a dialog: "New rule" creates, a rule given edits it. */
export function RuleForm({ rule, opened, onClose }: { rule: Rule | null; opened: boolean; onClose: () => void }) {
  const t = useT()
  const w = useWorkWords()
  const r = w.rules
  const queryClient = useQueryClient()
  const groups = useGroupOptions(opened)

  const whole = (min: number, max: number) => (value: number | string) => {
    const n = num(value)
    return n === null ? w.shared.required : !Number.isInteger(n) || n < min || n > max ? w.shared.wholeBetween(min, max) : null
  }
  const form = useForm<Values>({
    initialValues: initial(rule),
    validate: {
      name: (value) => (!value.trim() ? w.shared.required : value.length > 100 ? w.shared.tooLong(100) : null),
      description: (value) => (value.length > 500 ? w.shared.tooLong(500) : null),
      group_id: (value) => (value ? null : w.shared.required),
      work_start_time: (value) => (TIME.test(value) ? null : r.badTime),
      work_end_time: (value, values) => (!TIME.test(value) ? r.badTime : value === values.work_start_time ? r.sameTimes : null),
      break_start_time: (value, values) => (value && !TIME.test(value) ? r.badTime : !value && values.break_end_time ? r.bothBreaks : null),
      break_end_time: (value, values) =>
        value && !TIME.test(value) ? r.badTime : !value && values.break_start_time ? r.bothBreaks : value && value === values.break_start_time ? r.sameTimes : null,
      late_grace_period: whole(0, 1440),
      early_grace_period: whole(0, 1440),
      required_work_hours: (value) => {
        const n = num(value)
        return n === null ? w.shared.required : n < 0 || n > 24 ? r.badHours : null
      },
      allowed_late_days: whole(0, 31),
      work_days: (value) => (value.length === 0 ? r.noWorkDays : null),
      allowed_latitude: (value, values) => {
        const n = num(value)
        if (n === null) return values.location_required || num(values.allowed_longitude) !== null ? w.shared.required : null
        return n < -90 || n > 90 ? r.badLatitude : null
      },
      allowed_longitude: (value, values) => {
        const n = num(value)
        if (n === null) return values.location_required || num(values.allowed_latitude) !== null ? w.shared.required : null
        return n < -180 || n > 180 ? r.badLongitude : null
      },
      location_radius: (value, values) => {
        const problem = whole(0, 100_000)(value)
        if (problem) return problem
        return values.location_required && Number(value) === 0 ? r.radiusNeeded : null
      },
      overtime_threshold_minutes: whole(0, 1440),
    },
  })

  const save = useMutation({
    mutationFn: (values: Values) => {
      const body = {
        name: values.name.trim(),
        description: values.description.trim(),
        group_id: Number(values.group_id),
        work_start_time: values.work_start_time,
        work_end_time: values.work_end_time,
        break_start_time: values.break_start_time || null,
        break_end_time: values.break_end_time || null,
        late_grace_period: Number(values.late_grace_period),
        early_grace_period: Number(values.early_grace_period),
        required_work_hours: Number(values.required_work_hours),
        allowed_late_days: Number(values.allowed_late_days),
        work_days: [...values.work_days].sort().join(','),
        flexible_time: values.flexible_time,
        location_required: values.location_required,
        allowed_latitude: num(values.allowed_latitude),
        allowed_longitude: num(values.allowed_longitude),
        location_radius: Number(values.location_radius),
        overtime_threshold_minutes: Number(values.overtime_threshold_minutes),
      }
      return rule
        ? unwrap(api.admin.attendance.rules({ id: rule.id }).put({ ...body, status: values.enabled ? 1 : 0 }))
        : unwrap(api.admin.attendance.rules.post(body))
    },
    onSuccess: () => {
      notifySaved(rule ? r.updated : r.created)
      void queryClient.invalidateQueries({ queryKey: ['admin', 'attendance'] })
      onClose()
    },
    onError: (error) => {
      const rest = applyApiErrors(form, error, FIELDS)
      if (rest) notifyFailed(error)
    },
  })

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={rule ? r.editTitle : r.createTitle}
      size="lg"
      centered
      closeButtonProps={{ 'aria-label': t.common.close }}
    >
      <form onSubmit={form.onSubmit((values) => save.mutate(values))} noValidate>
        <Stack gap="sm">
          <TextInput label={r.name} withAsterisk {...form.getInputProps('name')} />
          <Select
            label={r.group}
            withAsterisk
            data={groups.data ?? []}
            searchable
            nothingFoundMessage={w.shared.nothingFound}
            {...form.getInputProps('group_id')}
          />
          <Textarea label={r.description} autosize minRows={1} {...form.getInputProps('description')} />
          <SimpleGrid cols={{ base: 1, xs: 2 }}>
            <TextInput label={r.workStart} description={r.timeHint} placeholder="09:00" withAsterisk {...form.getInputProps('work_start_time')} />
            <TextInput label={r.workEnd} description={r.timeHint} placeholder="18:00" withAsterisk {...form.getInputProps('work_end_time')} />
            <TextInput label={r.breakStart} description={r.optionalTime} placeholder="12:00" {...form.getInputProps('break_start_time')} />
            <TextInput label={r.breakEnd} description={r.optionalTime} placeholder="13:00" {...form.getInputProps('break_end_time')} />
            <NumberInput label={r.lateGrace} min={0} max={1440} allowDecimal={false} {...form.getInputProps('late_grace_period')} />
            <NumberInput label={r.earlyGrace} min={0} max={1440} allowDecimal={false} {...form.getInputProps('early_grace_period')} />
            <NumberInput label={r.requiredHours} withAsterisk min={0} max={24} decimalScale={2} {...form.getInputProps('required_work_hours')} />
            <NumberInput label={r.allowedLateDays} min={0} max={31} allowDecimal={false} {...form.getInputProps('allowed_late_days')} />
            <NumberInput label={r.overtimeThreshold} min={0} max={1440} allowDecimal={false} {...form.getInputProps('overtime_threshold_minutes')} />
          </SimpleGrid>
          <Checkbox.Group label={r.workDays} withAsterisk {...form.getInputProps('work_days')}>
            <Group gap="md" mt={4}>
              {WEEKDAYS.map((day, index) => (
                <Checkbox key={day} value={day} label={w.shared.weekdays[index]} />
              ))}
            </Group>
          </Checkbox.Group>
          <Switch label={r.flexible} {...form.getInputProps('flexible_time', { type: 'checkbox' })} />
          <Switch label={r.locationRequired} {...form.getInputProps('location_required', { type: 'checkbox' })} />
          <SimpleGrid cols={{ base: 1, xs: 3 }}>
            <NumberInput label={r.latitude} min={-90} max={90} decimalScale={7} {...form.getInputProps('allowed_latitude')} />
            <NumberInput label={r.longitude} min={-180} max={180} decimalScale={7} {...form.getInputProps('allowed_longitude')} />
            <NumberInput label={r.radius} min={0} max={100_000} allowDecimal={false} {...form.getInputProps('location_radius')} />
          </SimpleGrid>
          {rule && <Switch label={w.shared.enabled} {...form.getInputProps('enabled', { type: 'checkbox' })} />}
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onClose}>
              {t.common.cancel}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {rule ? t.common.save : t.common.create}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  )
}
