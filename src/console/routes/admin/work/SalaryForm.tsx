import { Button, Divider, Group, Modal, NumberInput, Select, SimpleGrid, Stack, Text, Textarea } from '@mantine/core'
import { DateInput, MonthPickerInput } from '@mantine/dates'
import { useForm } from '@mantine/form'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '../../../api'
import { applyApiErrors } from '../../../components/form-errors'
import { yuan } from '../../../components/format'
import { notifyFailed, notifySaved } from '../../../components/notify'
import { useT } from '../../../i18n'
import { EmployeeSelect, toFen } from './shared'
import { keepEnter } from '../../../components/dates'
import { useWorkWords } from './words'

export const INCOME = ['basic_salary', 'seniority_pay', 'performance_pay', 'overtime_pay', 'bonus', 'allowance'] as const
export const DEDUCTIONS = ['attendance_deduction', 'personal_insurance', 'personal_tax', 'housing_fund', 'other_deductions'] as const
type Item = (typeof INCOME)[number] | (typeof DEDUCTIONS)[number]

export type Salary = Awaited<ReturnType<typeof fetchSalaries>>['salaries'][number]
export const fetchSalaries = (page: number, month: string, status: '0' | '1' | null) =>
  unwrap(api.admin.salaries.get({ query: { page, page_size: 50, month, ...(status ? { status } : {}) } }))

type Values = Record<Item, number | string> & {
  employee_id: string | null
  month: string | null
  status: '0' | '1'
  payment_date: string | null
  remarks: string
}
const FIELDS = ['employee_id', 'month', 'status', 'payment_date', 'remarks', 'net_salary', ...INCOME, ...DEDUCTIONS] as const

/** The amount of a field in fen, 0 when empty. */
const fenIn = (value: number | string) => toFen(value) ?? 0

/** A salary record in a dialog: create one for an employee and month, or edit a record's amounts, status and remarks. */
export function SalaryForm({ salary, month, onClose }: { salary: Salary | null; month: string; onClose: () => void }) {
  const t = useT()
  const w = useWorkWords()
  const s = w.salaries
  const queryClient = useQueryClient()
  const amounts = Object.fromEntries(
    [...INCOME.map((item) => [item, salary ? salary.income[item] : ''] as const), ...DEDUCTIONS.map((item) => [item, salary ? salary.deductions[item] : ''] as const)],
  ) as Record<Item, number | string>
  const amountRule = (value: number | string) => {
    if (value === '') return null
    const fen = toFen(value)
    return fen === null || fen > 10_000_000_000 ? s.badAmount : null
  }
  const form = useForm<Values>({
    initialValues: {
      ...amounts,
      employee_id: salary ? String(salary.employee_id) : null,
      month: `${month}-01`,
      status: salary?.status_code ?? '0',
      payment_date: salary?.payment_date ? salary.payment_date.slice(0, 10) : null,
      remarks: salary?.remarks ?? '',
    },
    validate: {
      ...(Object.fromEntries([...INCOME, ...DEDUCTIONS].map((item) => [item, amountRule])) as Record<Item, typeof amountRule>),
      employee_id: (value) => (value ? null : w.shared.required),
      month: (value) => (value ? null : w.shared.required),
      payment_date: (value, values) => (value && values.status === '0' ? s.dateOnlyPaid : null),
      remarks: (value) => (value.length > 1000 ? w.shared.tooLong(1000) : null),
    },
  })
  const income = INCOME.reduce((sum, item) => sum + fenIn(form.values[item]), 0)
  const deductions = DEDUCTIONS.reduce((sum, item) => sum + fenIn(form.values[item]), 0)

  const save = useMutation({
    mutationFn: (values: Values) => {
      // yuan to the API exactly: integer fen divided by 100 is the nearest number to the written amount
      const money = Object.fromEntries([...INCOME, ...DEDUCTIONS].map((item) => [item, fenIn(values[item]) / 100])) as Record<Item, number>
      const common = {
        ...money,
        status: values.status,
        remarks: values.remarks.trim(),
        ...(values.status === '1' && values.payment_date ? { payment_date: values.payment_date } : {}),
      }
      return salary
        ? unwrap(api.admin.salaries({ id: salary.id }).put(common))
        : unwrap(api.admin.salaries.post({ ...common, employee_id: Number(values.employee_id), month: values.month!.slice(0, 7) }))
    },
    onSuccess: () => {
      notifySaved(salary ? s.updated : s.created)
      void queryClient.invalidateQueries({ queryKey: ['admin', 'salaries'] })
      onClose()
    },
    onError: (error) => {
      const rest = applyApiErrors(form, error, FIELDS)
      if (rest) notifyFailed(error)
    },
  })

  const amountInput = (item: Item) => (
    <NumberInput
      key={item}
      label={s.items[item]}
      min={0}
      max={100_000_000}
      decimalScale={2}
      thousandSeparator=","
      hideControls
      {...form.getInputProps(item)}
    />
  )

  return (
    <Modal
      opened
      onClose={onClose}
      title={salary ? s.editTitle(salary.employee_name, salary.month) : s.createTitle}
      size="lg"
      centered
      closeButtonProps={{ 'aria-label': t.common.close }}
    >
      <form onSubmit={form.onSubmit((values) => save.mutate(values))} noValidate>
        <Stack gap="sm">
          {!salary && (
            <SimpleGrid cols={{ base: 1, xs: 2 }}>
              <EmployeeSelect label={s.employee} withAsterisk {...form.getInputProps('employee_id')} />
              <MonthPickerInput label={s.salaryMonth} valueFormat="YYYY-MM" withAsterisk {...form.getInputProps('month')} />
            </SimpleGrid>
          )}
          {salary?.status_code === '1' && (
            <Text size="sm" c="dimmed">
              {s.paidLocked}
            </Text>
          )}
          <Divider label={s.income} labelPosition="left" />
          <SimpleGrid cols={{ base: 1, xs: 3 }}>{INCOME.map(amountInput)}</SimpleGrid>
          <Divider label={s.deductions} labelPosition="left" />
          <SimpleGrid cols={{ base: 1, xs: 3 }}>{DEDUCTIONS.map(amountInput)}</SimpleGrid>
          <Group gap="lg" aria-live="polite">
            <Text size="sm">{s.totalIncome}: {yuan(income)}</Text>
            <Text size="sm">{s.totalDeductions}: {yuan(deductions)}</Text>
            <Text size="sm" fw={700} c={income - deductions < 0 ? 'red.9' : undefined}>
              {s.net}: {yuan(income - deductions)}
            </Text>
          </Group>
          <SimpleGrid cols={{ base: 1, xs: 2 }}>
            <Select
              label={s.status}
              data={[
                { value: '0', label: s.unconfirmed },
                { value: '1', label: s.paid },
              ]}
              allowDeselect={false}
              {...form.getInputProps('status')}
            />
            <DateInput
              label={s.paymentDate}
              description={s.paymentDateHint}
              valueFormat="YYYY-MM-DD"
              clearable
              disabled={form.values.status !== '1'}
              onKeyDown={keepEnter}
              {...form.getInputProps('payment_date')}
            />
          </SimpleGrid>
          <Textarea label={s.remarks} autosize minRows={1} {...form.getInputProps('remarks')} />
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onClose}>
              {t.common.cancel}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {salary ? t.common.save : t.common.create}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  )
}

