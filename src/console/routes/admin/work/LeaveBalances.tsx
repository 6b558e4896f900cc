import { Button, Group, Modal, NumberInput, Select, Stack, Text, Textarea } from '@mantine/core'
import { useForm } from '@mantine/form'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { api, unwrap } from '../../../api'
import { DataTable } from '../../../components/DataTable'
import { LeaveLedger } from '../../../components/LeaveLedger'
import { applyApiErrors } from '../../../components/form-errors'
import { can, useMe } from '../../../components/me'
import { notifyFailed, notifySaved } from '../../../components/notify'
import { useT } from '../../../i18n'
import { EmployeeSelect, useLeaveTypes, useUnlimitedLeaveTypes } from './shared'
import { balanceFigure } from '../../../components/leave'
import { todayIn } from '../../../components/dates'
import { useWorkWords } from './words'

type Balance = Awaited<ReturnType<typeof fetchBalances>>['balances'][number]
const fetchBalances = (employeeId: number, year: number | null) =>
  unwrap(api.admin.leave.balances.get({ query: { employee_id: employeeId, ...(year ? { year } : {}) } }))

/** An employee's balances of a year, and adjustments of them (leave:manage). */
export function LeaveBalances() {
  const t = useT()
  const w = useWorkWords()
  const l = w.leave
  const me = useMe().data
  const [employee, setEmployee] = useState<string | null>(null)
  const [year, setYear] = useState<number | string>(Number(todayIn().slice(0, 4)))
  const [adjusting, setAdjusting] = useState<number | null>(null)
  const [explaining, setExplaining] = useState<Balance | null>(null)
  const unlimited = useUnlimitedLeaveTypes().data
  const amounts = t.common.leaveAmounts
  const validYear = typeof year === 'number' && Number.isInteger(year) && year >= 1 && year <= 9999 ? year : null
  const balances = useQuery({
    queryKey: ['admin', 'leave', 'balances', employee, validYear],
    queryFn: () => fetchBalances(Number(employee), validYear),
    enabled: employee !== null,
  })
  return (
    <Stack gap="md">
      <Group align="flex-end" gap="sm">
        <EmployeeSelect label={l.employee} value={employee} onChange={setEmployee} clearable w={240} />
        <NumberInput label={l.year} value={year} onChange={setYear} min={1} max={9999} allowDecimal={false} w={120} />
        {employee && validYear && can(me, 'leave:manage') && <Button onClick={() => setAdjusting(validYear)}>{l.adjust}</Button>}
      </Group>
      {employee === null ? (
        <Text c="dimmed">{l.chooseEmployee}</Text>
      ) : (
        <DataTable
          label={l.balancesTable}
          rows={balances.data?.balances}
          rowKey={(balance) => balance.type_id}
          loading={balances.isPending}
          error={balances.error}
          columns={[
            { header: l.type, cell: (balance) => balance.type_name },
            { header: l.granted, cell: (balance) => balanceFigure(balance.unit, balance.granted, amounts) },
            { header: l.taken, cell: (balance) => balanceFigure(balance.unit, balance.taken, amounts) },
            { header: l.pending, cell: (balance) => balanceFigure(balance.unit, balance.pending, amounts) },
            {
              header: l.remaining,
              cell: (balance) => <Text fw={700}>{unlimited?.has(balance.type_id) ? l.noLimit : balanceFigure(balance.unit, balance.remaining, amounts)}</Text>,
            },
            {
              header: t.common.actions,
              cell: (balance) => (
                <Button size="xs" variant="default" aria-label={t.common.leaveLedger.openOf(balance.type_name)} onClick={() => setExplaining(balance)}>
                  {t.common.leaveLedger.open}
                </Button>
              ),
            },
          ]}
        />
      )}
      {explaining && employee && <LeaveLedger employeeId={Number(employee)} balance={explaining} onClose={() => setExplaining(null)} />}
      {adjusting !== null && employee && <AdjustForm employeeId={Number(employee)} year={adjusting} onClose={() => setAdjusting(null)} />}
    </Stack>
  )
}

interface Values {
  type_id: string | null
  /** days, or hours for an hourly type */
  amount: number | string
  reason: string
}

/** Not a multiple of 0.5 days from -366 to 366 other than 0. */
const badDays = (n: number) => Number.isNaN(n) || n === 0 || n < -366 || n > 366 || !Number.isInteger(n * 2)
/** Not whole minutes of hours from -2928 (366 days of 8 hours) to 2928 other than 0. */
const badHours = (n: number) => Number.isNaN(n) || n === 0 || n < -2928 || n > 2928 || Math.abs(n * 60 - Math.round(n * 60)) > 1e-9

function AdjustForm({ employeeId, year, onClose }: { employeeId: number; year: number; onClose: () => void }) {
  const t = useT()
  const w = useWorkWords()
  const l = w.leave
  const queryClient = useQueryClient()
  const types = useLeaveTypes()
  // an hourly type's balance is adjusted in hours (the API's `hours` instead of `days`)
  const hourlyType = (id: string | null) => types.data?.types.find((type) => String(type.id) === id)?.unit === 'hour'
  const form = useForm<Values>({
    initialValues: { type_id: null, amount: '', reason: '' },
    validate: {
      type_id: (value) => (value ? null : w.shared.required),
      amount: (value, values) => {
        const n = value === '' ? NaN : Number(value)
        return hourlyType(values.type_id) ? (badHours(n) ? l.badAdjustHours : null) : badDays(n) ? l.badAdjustDays : null
      },
      reason: (value) => (!value.trim() ? w.shared.required : value.length > 500 ? w.shared.tooLong(500) : null),
    },
  })
  const hourly = hourlyType(form.values.type_id)
  const save = useMutation({
    mutationFn: (values: Values) =>
      unwrap(
        api.admin.leave.balances.adjust.post({
          employee_id: employeeId,
          type_id: Number(values.type_id),
          year,
          ...(hourlyType(values.type_id) ? { hours: Number(values.amount) } : { days: Number(values.amount) }),
          reason: values.reason.trim(),
        }),
      ),
    onSuccess: () => {
      notifySaved(l.adjusted)
      void queryClient.invalidateQueries({ queryKey: ['admin', 'leave', 'balances'] })
      onClose()
    },
    onError: (error) => {
      const rest = applyApiErrors(form, error, ['type_id', 'amount', 'reason'], { days: 'amount', hours: 'amount' })
      if (rest) notifyFailed(error)
    },
  })
  return (
    <Modal opened onClose={onClose} title={l.adjustTitle(year)} centered closeButtonProps={{ 'aria-label': t.common.close }}>
      <form onSubmit={form.onSubmit((values) => save.mutate(values))} noValidate>
        <Stack gap="sm">
          <Select label={l.type} withAsterisk data={(types.data?.types ?? []).map((type) => ({ value: String(type.id), label: type.name }))} {...form.getInputProps('type_id')} />
          {hourly ? (
            <NumberInput key="hours" label={l.hours} description={l.hoursHint} withAsterisk min={-2928} max={2928} step={0.25} decimalScale={2} {...form.getInputProps('amount')} />
          ) : (
            <NumberInput key="days" label={l.days} description={l.daysHint} withAsterisk min={-366} max={366} step={0.5} decimalScale={1} {...form.getInputProps('amount')} />
          )}
          <Textarea label={l.reason} withAsterisk autosize minRows={2} {...form.getInputProps('reason')} />
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onClose}>
              {t.common.cancel}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {l.adjustSubmit}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  )
}
