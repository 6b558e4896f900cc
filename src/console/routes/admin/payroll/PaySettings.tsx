import { Button, Card, Group, NumberInput, Radio, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core'
import { useForm } from '@mantine/form'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { api, unwrap } from '../../../api'
import { applyApiErrors } from '../../../components/form-errors'
import { can, useMe } from '../../../components/me'
import { notifyFailed, notifySaved } from '../../../components/notify'
import { useT } from '../../../i18n'
import { toFen, useCompanyOptions } from '../work/shared'
import { fetchSettings, PAYROLL_KEY, yuanOfFen, type PaySettings as Settings } from './data'
import { usePayrollWords } from './words'

/** A company's pay settings (CONTRACT §16): how part months, lateness, absence and overtime are paid. */
export function PaySettings() {
  const p = usePayrollWords()
  const me = useMe().data
  const companies = useCompanyOptions(can(me, 'companies:read'))
  const [company, setCompany] = useState<string | null>(null)
  useEffect(() => {
    if (company === null && companies.data?.length === 1) setCompany(companies.data[0]!.value)
  }, [companies.data, company])
  const settings = useQuery({
    queryKey: [...PAYROLL_KEY, 'settings', company],
    queryFn: () => fetchSettings(Number(company)),
    enabled: company !== null,
  })
  const name = companies.data?.find((option) => option.value === company)?.label ?? ''

  return (
    <Stack gap="md" maw={760}>
      <Select label={p.settingsCompany} data={companies.data ?? []} value={company} onChange={setCompany} searchable w={300} />
      {company === null && <Text c="dimmed">{p.chooseCompany}</Text>}
      {settings.error && <Text c="red.9">{settings.error.message}</Text>}
      {settings.data && <SettingsForm key={company} settings={settings.data} title={p.settingsTitle(name)} editable={can(me, 'payroll:manage')} />}
    </Stack>
  )
}

/** Number fields hold numbers or '' (empty); the ratios and counts the API takes. */
interface Values {
  proration: 'work_days' | 'calendar_days'
  days_per_month: number | string
  per_occurrence: number | string
  per_minute: number | string
  free_occurrences: number | string
  absence: 'daily_wage' | 'fixed'
  absence_amount: number | string
  work_day: number | string
  rest_day: number | string
  statutory_holiday: number | string
}
const FIELDS = ['proration', 'days_per_month', 'per_occurrence', 'per_minute', 'free_occurrences', 'absence_amount', 'work_day', 'rest_day', 'statutory_holiday'] as const
/** the API's field paths, as its errors[] name them, on this form's fields */
const API_FIELDS: Record<string, string> = {
  'late_deduction.per_occurrence': 'per_occurrence',
  'late_deduction.per_minute': 'per_minute',
  'late_deduction.free_occurrences': 'free_occurrences',
  absence_deduction: 'absence_amount',
  'overtime_multipliers.work_day': 'work_day',
  'overtime_multipliers.rest_day': 'rest_day',
  'overtime_multipliers.statutory_holiday': 'statutory_holiday',
}

/** A ratio with at most 2 decimals (days per month, a multiplier), exactly as hundredths; null when it is not one. */
const hundredths = (value: number | string) => toFen(value)

function SettingsForm({ settings, title, editable }: { settings: Settings; title: string; editable: boolean }) {
  const t = useT()
  const p = usePayrollWords()
  const queryClient = useQueryClient()
  const amountRule = (value: number | string) => {
    const fen = toFen(value === '' ? 0 : value)
    return fen === null || fen > 10_000_000_000 ? p.badAmount : null
  }
  const multiplierRule = (value: number | string) => {
    const ratio = hundredths(value)
    return ratio === null || ratio > 1000 ? p.badMultiplier : null
  }
  const form = useForm<Values>({
    initialValues: {
      proration: settings.proration,
      days_per_month: settings.days_per_month,
      per_occurrence: settings.late_deduction.per_occurrence,
      per_minute: settings.late_deduction.per_minute,
      free_occurrences: settings.late_deduction.free_occurrences ?? '',
      absence: settings.absence_deduction === 'daily_wage' ? 'daily_wage' : 'fixed',
      absence_amount: settings.absence_deduction === 'daily_wage' ? '' : settings.absence_deduction,
      work_day: settings.overtime_multipliers.work_day,
      rest_day: settings.overtime_multipliers.rest_day,
      statutory_holiday: settings.overtime_multipliers.statutory_holiday,
    },
    validate: {
      days_per_month: (value) => {
        const days = hundredths(value)
        return days === null || days === 0 || days > 3100 ? p.badDays : null
      },
      per_occurrence: amountRule,
      per_minute: amountRule,
      free_occurrences: (value) => (value === '' || (Number.isInteger(Number(value)) && Number(value) >= 0 && Number(value) <= 31) ? null : p.badCount),
      absence_amount: (value, values) => (values.absence === 'fixed' ? (value === '' ? p.required : amountRule(value)) : null),
      work_day: multiplierRule,
      rest_day: multiplierRule,
      statutory_holiday: multiplierRule,
    },
  })
  const save = useMutation({
    mutationFn: (values: Values) =>
      unwrap(
        api.admin.companies({ id: settings.company_id })['pay-settings'].put({
          proration: values.proration,
          days_per_month: hundredths(values.days_per_month)! / 100,
          late_deduction: {
            per_occurrence: yuanOfFen(toFen(values.per_occurrence === '' ? 0 : values.per_occurrence)!),
            per_minute: yuanOfFen(toFen(values.per_minute === '' ? 0 : values.per_minute)!),
            free_occurrences: values.free_occurrences === '' ? null : Number(values.free_occurrences),
          },
          absence_deduction: values.absence === 'daily_wage' ? 'daily_wage' : yuanOfFen(toFen(values.absence_amount)!),
          overtime_multipliers: {
            work_day: hundredths(values.work_day)! / 100,
            rest_day: hundredths(values.rest_day)! / 100,
            statutory_holiday: hundredths(values.statutory_holiday)! / 100,
          },
        }),
      ),
    onSuccess: () => {
      notifySaved(p.settingsSaved)
      void queryClient.invalidateQueries({ queryKey: [...PAYROLL_KEY, 'settings'] })
    },
    onError: (error) => {
      if (applyApiErrors(form, error, FIELDS, API_FIELDS)) notifyFailed(error)
    },
  })
  const number = (field: (typeof FIELDS)[number], label: string, options: { description?: string; decimals?: number; max?: number } = {}) => (
    <NumberInput
      label={label}
      description={options.description}
      min={0}
      max={options.max ?? 100_000_000}
      decimalScale={options.decimals ?? 2}
      thousandSeparator=","
      hideControls
      disabled={!editable}
      {...form.getInputProps(field)}
    />
  )

  return (
    <Card withBorder component="section" aria-labelledby="pay-settings-title">
      <form onSubmit={form.onSubmit((values) => save.mutate(values))} noValidate>
        <Stack gap="md">
          <Title order={2} size="h4" id="pay-settings-title">
            {title}
          </Title>
          <Radio.Group label={p.proration} description={p.prorationHint} {...form.getInputProps('proration')}>
            <Group gap="md" mt={6}>
              <Radio value="work_days" label={p.prorationWorkDays} disabled={!editable} />
              <Radio value="calendar_days" label={p.prorationCalendarDays} disabled={!editable} />
            </Group>
          </Radio.Group>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>{number('days_per_month', p.daysPerMonth, { description: p.daysPerMonthHint, max: 31 })}</SimpleGrid>
          <fieldset style={{ border: 0, padding: 0, margin: 0 }}>
            <Text component="legend" fw={600} size="sm" mb={4}>
              {p.lateDeduction}
            </Text>
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              {number('per_occurrence', p.perOccurrence)}
              {number('per_minute', p.perMinute)}
              {number('free_occurrences', p.freeOccurrences, { description: p.freeHint, decimals: 0, max: 31 })}
            </SimpleGrid>
          </fieldset>
          <Radio.Group label={p.absenceDeduction} {...form.getInputProps('absence')}>
            <Stack gap="xs" mt={6}>
              <Radio value="daily_wage" label={p.absenceDaily} disabled={!editable} />
              <Radio value="fixed" label={p.absenceFixed} disabled={!editable} />
            </Stack>
          </Radio.Group>
          {form.values.absence === 'fixed' && <SimpleGrid cols={{ base: 1, sm: 3 }}>{number('absence_amount', p.absenceAmount)}</SimpleGrid>}
          <fieldset style={{ border: 0, padding: 0, margin: 0 }}>
            <Text component="legend" fw={600} size="sm" mb={4}>
              {p.overtimeMultipliers}
            </Text>
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              {number('work_day', p.multiplierWorkDay, { max: 10 })}
              {number('rest_day', p.multiplierRestDay, { max: 10 })}
              {number('statutory_holiday', p.multiplierHoliday, { max: 10 })}
            </SimpleGrid>
          </fieldset>
          {editable && (
            <Group justify="flex-end">
              <Button type="submit" loading={save.isPending}>
                {t.common.save}
              </Button>
            </Group>
          )}
        </Stack>
      </form>
    </Card>
  )
}
