import { Button, Fieldset, Group, Modal, NumberInput, Radio, Select, Stack, Switch, Text, TextInput } from '@mantine/core'
import { useForm } from '@mantine/form'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, ApiError, unwrap } from '../../../api'
import { applyApiErrors } from '../../../components/form-errors'
import { notifyFailed, notifySaved } from '../../../components/notify'
import { useT } from '../../../i18n'
import type { LeaveType } from './LeaveTypes'
import { useWorkWords } from './words'

type Accrual = LeaveType['accrual']
type Unit = LeaveType['unit']
interface Tier {
  from_years: number | string
  days: number | string
}
interface Values {
  name: string
  paid: boolean
  requires_balance: boolean
  annual_days: number | string
  enabled: boolean
  accrual: Accrual
  tiers: Tier[]
  carry_over_max: number | string
  carry_over_expires: string
  unit: Unit
  payout_on_leaving: boolean
}

/** China's statutory annual leave (职工带薪年休假条例 §3): 5 days from 1 year of work, 10 from 10, 15 from 20. */
const STATUTORY: Tier[] = [
  { from_years: 1, days: 5 },
  { from_years: 10, days: 10 },
  { from_years: 20, days: 15 },
]
const ACCRUALS: Accrual[] = ['none', 'yearly', 'monthly']
const UNITS: Unit[] = ['day', 'hour']
const MONTH_DAY = /^(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/
const FIELDS = ['name', 'paid', 'requires_balance', 'annual_days', 'accrual', 'tiers', 'carry_over_max', 'carry_over_expires', 'unit', 'payout_on_leaving']
/** Not whole or half days from 0 to 366. */
const badHalfDays = (value: number | string) => {
  const n = value === '' ? NaN : Number(value)
  return Number.isNaN(n) || n < 0 || n > 366 || !Number.isInteger(n * 2)
}

/** A leave type's settings: new (type null) or edited; the API's refusals show on their fields. */
export function TypeForm({ type, onClose }: { type: LeaveType | null; onClose: () => void }) {
  const t = useT()
  const w = useWorkWords()
  const l = w.leave
  const queryClient = useQueryClient()
  const form = useForm<Values>({
    initialValues: {
      name: type?.name ?? '',
      paid: type?.paid ?? true,
      requires_balance: type?.requires_balance ?? true,
      annual_days: type?.annual_days ?? 0,
      enabled: type ? type.status === 1 : true,
      accrual: type?.accrual ?? 'none',
      tiers: type?.seniority_tiers ?? [],
      carry_over_max: type?.carry_over_max ?? 0,
      carry_over_expires: type?.carry_over_expires ?? '',
      unit: type?.unit ?? 'day',
      payout_on_leaving: type?.payout_on_leaving ?? false,
    },
    validate: {
      name: (value) => (!value.trim() ? w.shared.required : value.length > 50 ? w.shared.tooLong(50) : null),
      annual_days: (value) => (badHalfDays(value) ? l.badDays : null),
      tiers: {
        from_years: (value, values) => {
          const n = value === '' ? NaN : Number(value)
          return values.accrual !== 'none' && !(Number.isInteger(n) && n >= 0 && n <= 100) ? l.badYears : null
        },
        days: (value, values) => (values.accrual !== 'none' && badHalfDays(value) ? l.badDays : null),
      },
      carry_over_max: (value, values) => (values.accrual !== 'none' && badHalfDays(value) ? l.badDays : null),
      carry_over_expires: (value, values) => (values.accrual !== 'none' && value.trim() && !MONTH_DAY.test(value.trim()) ? l.badMonthDay : null),
    },
  })
  const accruing = form.values.accrual !== 'none'
  const hourly = form.values.unit === 'hour'
  const tierErrors = form.errors.tiers
  const save = useMutation({
    mutationFn: (values: Values) => {
      const body = {
        name: values.name.trim(),
        paid: values.paid,
        requires_balance: values.requires_balance,
        annual_days: Number(values.annual_days),
        status: values.enabled ? (1 as const) : (0 as const),
        accrual: values.accrual,
        unit: values.unit,
        // a payout counts days: the API refuses it on an hourly type, on its field
        payout_on_leaving: values.payout_on_leaving,
        // tiers and carry-over belong to a type that accrues: the API refuses them on one that does not
        ...(values.accrual === 'none'
          ? { seniority_tiers: null, carry_over_max: 0, carry_over_expires: null }
          : {
              seniority_tiers: values.tiers.length ? values.tiers.map((tier) => ({ from_years: Number(tier.from_years), days: Number(tier.days) })) : null,
              carry_over_max: Number(values.carry_over_max),
              carry_over_expires: values.carry_over_expires.trim() || null,
            }),
      }
      return type ? unwrap(api.admin.leave.types({ id: type.id }).put(body)) : unwrap(api.admin.leave.types.post(body))
    },
    onSuccess: () => {
      notifySaved(type ? l.typeUpdated : l.typeCreated)
      void queryClient.invalidateQueries({ queryKey: ['admin', 'leave'] })
      onClose()
    },
    onError: (error, values) => {
      // a type's unit stays once amounts were written in it: the API's conflict says so, shown on the unit
      if (error instanceof ApiError && error.status === 409 && type && values.unit !== type.unit) {
        form.setFieldError('unit', error.message)
        return
      }
      // a tier's field is `seniority_tiers.0.days` (the schema's) or `seniority_tiers[0].days` (the service's)
      const tiers: Record<string, string> = { seniority_tiers: 'tiers' }
      const known = [...FIELDS]
      form.values.tiers.forEach((_, at) => {
        for (const field of ['from_years', 'days']) {
          tiers[`seniority_tiers.${at}.${field}`] = tiers[`seniority_tiers[${at}].${field}`] = `tiers.${at}.${field}`
          known.push(`tiers.${at}.${field}`)
        }
      })
      const rest = applyApiErrors(form, error, known, tiers)
      if (rest) notifyFailed(error)
    },
  })
  return (
    <Modal opened onClose={onClose} title={type ? l.editTypeTitle : l.newTypeTitle} centered closeButtonProps={{ 'aria-label': t.common.close }}>
      <form onSubmit={form.onSubmit((values) => save.mutate(values))} noValidate>
        <Stack gap="sm">
          <TextInput label={l.typeName} withAsterisk {...form.getInputProps('name')} />
          <Radio.Group
            label={l.unit}
            description={
              <>
                {l.unitHints[form.values.unit]}
                {type && (
                  <>
                    <br />
                    {l.unitFixed}
                  </>
                )}
              </>
            }
            styles={{ description: { color: 'var(--mantine-color-gray-7)' } }}
            {...form.getInputProps('unit')}
          >
            <Group mt={4}>
              {UNITS.map((unit) => (
                <Radio key={unit} value={unit} label={l.units[unit]} />
              ))}
            </Group>
          </Radio.Group>
          <NumberInput label={l.annualDays} description={hourly ? l.annualHintHours : l.annualHint} min={0} max={366} step={0.5} decimalScale={1} {...form.getInputProps('annual_days')} />
          <Select
            label={l.accrual}
            description={l.accrualHints[form.values.accrual]}
            data={ACCRUALS.map((accrual) => ({ value: accrual, label: l.accruals[accrual] }))}
            allowDeselect={false}
            {...form.getInputProps('accrual')}
          />
          {accruing && (
            <>
              <Fieldset legend={l.tiers} variant="filled">
                <Stack gap="xs">
                  <Text size="sm" c="gray.7">
                    {l.tiersHint}
                  </Text>
                  {form.values.tiers.map((_, at) => (
                    <Group key={at} gap="xs" align="flex-start" wrap="nowrap" role="group" aria-label={l.tierOf(at + 1)}>
                      <NumberInput label={l.fromYears} min={0} max={100} allowDecimal={false} flex={1} {...form.getInputProps(`tiers.${at}.from_years`)} />
                      <NumberInput label={l.tierDays} min={0} max={366} step={0.5} decimalScale={1} flex={1} {...form.getInputProps(`tiers.${at}.days`)} />
                      <Button variant="default" color="red" mt={25} aria-label={l.removeTier(at + 1)} onClick={() => form.removeListItem('tiers', at)}>
                        ✕
                      </Button>
                    </Group>
                  ))}
                  {typeof tierErrors === 'string' && (
                    <Text size="sm" c="red.8" role="alert">
                      {tierErrors}
                    </Text>
                  )}
                  <Group gap="xs">
                    <Button size="xs" variant="default" onClick={() => form.insertListItem('tiers', { from_years: '', days: '' })}>
                      {l.addTier}
                    </Button>
                    <Button size="xs" variant="default" onClick={() => form.setFieldValue('tiers', STATUTORY.map((tier) => ({ ...tier })))}>
                      {l.statutoryTiers}
                    </Button>
                  </Group>
                </Stack>
              </Fieldset>
              <NumberInput label={l.carryOverMax} description={l.carryOverHint} min={0} max={366} step={0.5} decimalScale={1} {...form.getInputProps('carry_over_max')} />
              <TextInput label={l.carryOverExpires} description={l.carryOverExpiresHint} placeholder="03-31" maxLength={5} {...form.getInputProps('carry_over_expires')} />
            </>
          )}
          {/* a payout counts days; on an hourly type it shows only while on, so it can be seen and turned off */}
          {(!hourly || form.values.payout_on_leaving) && (
            <Switch
              label={l.payoutOnLeaving}
              description={hourly ? l.payoutDaysOnly : l.payoutHint}
              styles={{ description: { color: 'var(--mantine-color-gray-7)' } }}
              {...form.getInputProps('payout_on_leaving', { type: 'checkbox' })}
            />
          )}
          <Switch label={l.paid} {...form.getInputProps('paid', { type: 'checkbox' })} />
          <Switch label={l.requiresBalance} {...form.getInputProps('requires_balance', { type: 'checkbox' })} />
          <Switch label={w.shared.enabled} {...form.getInputProps('enabled', { type: 'checkbox' })} />
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onClose}>
              {t.common.cancel}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {type ? t.common.save : t.common.create}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  )
}
