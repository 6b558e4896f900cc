import { Button, Group, Modal, NumberInput, SimpleGrid, Stack, Text, Textarea } from '@mantine/core'
import { useForm } from '@mantine/form'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '../../../api'
import { applyApiErrors } from '../../../components/form-errors'
import { notifyFailed, notifySaved } from '../../../components/notify'
import { useT } from '../../../i18n'
import { toFen } from '../work/shared'
import { PAYROLL_KEY, yuanOfFen, type Run, type RunPayslip } from './data'
import { usePayrollWords } from './words'

const AMOUNTS = ['performance_pay', 'bonus', 'other_income', 'other_deductions'] as const
type Amount = (typeof AMOUNTS)[number]
type Values = Record<Amount, number | string> & { note: string }
const FIELDS = [...AMOUNTS, 'note'] as const
const NOTE_MAX = 500

/** The amount of a field in fen; an empty field is 0. */
const fenIn = (value: number | string) => toFen(value === '' ? 0 : value) ?? 0

/** What HR enters on one payslip of a draft run (performance pay, bonus, other income and deductions, a note); the payslip is computed again. */
export function InputsForm({ run, payslip, onClose }: { run: Run; payslip: RunPayslip; onClose: () => void }) {
  const t = useT()
  const p = usePayrollWords()
  const queryClient = useQueryClient()
  const labels: Record<Amount, string> = {
    performance_pay: p.performancePay,
    bonus: p.bonus,
    other_income: p.otherIncome,
    other_deductions: p.otherDeductions,
  }
  const amountRule = (value: number | string) => {
    const fen = toFen(value === '' ? 0 : value)
    return fen === null || fen > 10_000_000_000 ? p.badAmount : null
  }
  const form = useForm<Values>({
    initialValues: { ...payslip.inputs, note: payslip.inputs.note ?? '' },
    validate: {
      ...(Object.fromEntries(AMOUNTS.map((field) => [field, amountRule])) as Record<Amount, typeof amountRule>),
      note: (value) => (value.length > NOTE_MAX ? p.tooLong(NOTE_MAX) : null),
    },
  })
  const save = useMutation({
    mutationFn: (values: Values) =>
      unwrap(
        api.admin.payroll
          .runs({ id: run.id })
          .payslips({ payslip_id: payslip.id })
          .inputs.put({
            performance_pay: yuanOfFen(fenIn(values.performance_pay)),
            bonus: yuanOfFen(fenIn(values.bonus)),
            other_income: yuanOfFen(fenIn(values.other_income)),
            other_deductions: yuanOfFen(fenIn(values.other_deductions)),
            note: values.note.trim(),
          }),
      ),
    onSuccess: () => {
      notifySaved(p.inputsSaved(payslip.employee.name))
      void queryClient.invalidateQueries({ queryKey: PAYROLL_KEY })
      onClose()
    },
    onError: (error) => {
      if (applyApiErrors(form, error, FIELDS)) notifyFailed(error)
    },
  })

  return (
    <Modal opened onClose={onClose} title={p.inputsTitle(payslip.employee.name, run.month)} centered closeButtonProps={{ 'aria-label': t.common.close }}>
      <form onSubmit={form.onSubmit((values) => save.mutate(values))} noValidate>
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {p.inputsHint}
          </Text>
          <SimpleGrid cols={{ base: 1, xs: 2 }}>
            {AMOUNTS.map((field) => (
              <NumberInput key={field} label={labels[field]} min={0} max={100_000_000} decimalScale={2} thousandSeparator="," hideControls {...form.getInputProps(field)} />
            ))}
          </SimpleGrid>
          <Textarea label={p.note} autosize minRows={1} maxLength={NOTE_MAX} {...form.getInputProps('note')} />
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
