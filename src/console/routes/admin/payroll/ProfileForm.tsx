import { Button, Group, Modal, NumberInput, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core'
import { MonthPickerInput } from '@mantine/dates'
import { useForm } from '@mantine/form'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '../../../api'
import { applyApiErrors } from '../../../components/form-errors'
import { yuan } from '../../../components/format'
import { notifyFailed, notifySaved } from '../../../components/notify'
import { useT } from '../../../i18n'
import { currentMonth, toFen } from '../work/shared'
import { PAYROLL_KEY, yuanOfFen, type PayProfile } from './data'
import { useSchemes } from './Schemes'
import { usePickerLabels } from './parts'
import { usePayrollWords } from './words'

const AMOUNTS = ['basic_salary', 'seniority_pay', 'allowance', 'contribution_base', 'housing_fund_base'] as const
type Amount = (typeof AMOUNTS)[number]
type Values = Record<Amount, number | string> & { effective_month: string | null; scheme_id: string | null; bank_account: string }
const FIELDS = [...AMOUNTS, 'effective_month', 'scheme_id', 'bank_account'] as const
const BANK_ACCOUNT_MAX = 64

/** The amount of a field in fen; an empty field is 0. */
const fenIn = (value: number | string) => toFen(value === '' ? 0 : value) ?? 0

/** A pay profile in a dialog: a new one from a month on, or a month's profile changed (the same month replaces it). */
export function ProfileForm({ employee, profile, onClose }: { employee: { id: number; name: string }; profile: PayProfile | null; onClose: () => void }) {
  const t = useT()
  const p = usePayrollWords()
  const pickerLabels = usePickerLabels()
  const queryClient = useQueryClient()
  const labels: Record<Amount, string> = {
    basic_salary: p.basicSalary,
    seniority_pay: p.seniorityPay,
    allowance: p.allowance,
    contribution_base: p.contributionBase,
    housing_fund_base: p.housingFundBase,
  }
  const amountRule = (value: number | string) => {
    const fen = toFen(value === '' ? 0 : value)
    return fen === null || fen > 10_000_000_000 ? p.badAmount : null
  }
  const form = useForm<Values>({
    initialValues: {
      effective_month: `${profile?.effective_month ?? currentMonth()}-01`,
      basic_salary: profile?.basic_salary ?? '',
      seniority_pay: profile?.seniority_pay ?? '',
      allowance: profile?.allowance ?? '',
      contribution_base: profile?.contribution_base ?? '',
      housing_fund_base: profile?.housing_fund_base ?? '',
      scheme_id: profile?.scheme_id ? String(profile.scheme_id) : null,
      bank_account: profile?.bank_account ?? '',
    },
    validate: {
      ...(Object.fromEntries(AMOUNTS.map((field) => [field, amountRule])) as Record<Amount, typeof amountRule>),
      basic_salary: (value) => (value === '' ? p.required : amountRule(value)),
      effective_month: (value) => (value ? null : p.required),
      bank_account: (value) => (value.trim().length > BANK_ACCOUNT_MAX ? p.tooLong(BANK_ACCOUNT_MAX) : null),
    },
  })
  const schemes = useSchemes()
  const schemeOptions = (schemes.data?.schemes ?? []).map((scheme) => ({ value: String(scheme.id), label: p.schemeOption(scheme.name, scheme.effective_from) }))
  const monthly = fenIn(form.values.basic_salary) + fenIn(form.values.seniority_pay) + fenIn(form.values.allowance)

  const save = useMutation({
    mutationFn: (values: Values) =>
      unwrap(
        api.admin.employees({ id: employee.id })['pay-profile'].put({
          effective_month: values.effective_month!.slice(0, 7),
          basic_salary: yuanOfFen(fenIn(values.basic_salary)),
          seniority_pay: yuanOfFen(fenIn(values.seniority_pay)),
          allowance: yuanOfFen(fenIn(values.allowance)),
          contribution_base: yuanOfFen(fenIn(values.contribution_base)),
          housing_fund_base: yuanOfFen(fenIn(values.housing_fund_base)),
          scheme_id: values.scheme_id ? Number(values.scheme_id) : null,
          bank_account: values.bank_account.trim() || null,
        }),
      ),
    onSuccess: () => {
      notifySaved(p.profileSaved)
      void queryClient.invalidateQueries({ queryKey: [...PAYROLL_KEY, 'profiles'] })
      onClose()
    },
    onError: (error) => {
      if (applyApiErrors(form, error, FIELDS)) notifyFailed(error)
    },
  })

  return (
    <Modal opened onClose={onClose} title={p.profileTitle(employee.name)} size="lg" centered closeButtonProps={{ 'aria-label': t.common.close }}>
      <form onSubmit={form.onSubmit((values) => save.mutate(values))} noValidate>
        <Stack gap="sm">
          <MonthPickerInput
            ariaLabels={pickerLabels}
            label={p.effectiveMonth}
            description={p.effectiveHint}
            valueFormat="YYYY-MM"
            withAsterisk
            {...form.getInputProps('effective_month')}
            w={200}
          />
          <SimpleGrid cols={{ base: 1, xs: 3 }}>
            {(['basic_salary', 'seniority_pay', 'allowance'] as const).map((field) => (
              <NumberInput
                key={field}
                label={labels[field]}
                withAsterisk={field === 'basic_salary'}
                min={0}
                max={100_000_000}
                decimalScale={2}
                thousandSeparator=","
                hideControls
                {...form.getInputProps(field)}
              />
            ))}
          </SimpleGrid>
          <Text size="sm" aria-live="polite">
            {p.monthly}: {yuan(monthly)}
          </Text>
          <SimpleGrid cols={{ base: 1, xs: 2 }}>
            {(['contribution_base', 'housing_fund_base'] as const).map((field) => (
              <NumberInput key={field} label={labels[field]} min={0} max={100_000_000} decimalScale={2} thousandSeparator="," hideControls {...form.getInputProps(field)} />
            ))}
          </SimpleGrid>
          <Select
            label={p.profileScheme}
            description={p.profileSchemeHint}
            placeholder={p.noScheme}
            data={schemeOptions}
            clearable
            searchable
            {...form.getInputProps('scheme_id')}
          />
          <TextInput label={p.bankAccount} maxLength={BANK_ACCOUNT_MAX} {...form.getInputProps('bank_account')} />
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
