import { Button, Card, Group, Loader, Modal, NumberInput, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core'
import { MonthPickerInput } from '@mantine/dates'
import { useForm } from '@mantine/form'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { api, unwrap } from '../../../api'
import { ConfirmDelete } from '../../../components/ConfirmDelete'
import { todayIn } from '../../../components/dates'
import { applyApiErrors } from '../../../components/form-errors'
import { FormActions } from '../../../components/FormActions'
import { can, useMe } from '../../../components/me'
import { notifyFailed, notifySaved } from '../../../components/notify'
import { useT } from '../../../i18n'
import { toFen } from '../work/shared'
import { fetchDeclaration, PAYROLL_KEY, yuanOfFen, type Declaration } from './data'
import { Figure, money, usePickerLabels } from './parts'
import { usePayrollWords } from './words'

const AMOUNTS = ['children_education', 'infant_care', 'continuing_education', 'housing_loan_interest', 'housing_rent', 'elderly_support'] as const
type Amount = (typeof AMOUNTS)[number]
type Values = Record<Amount, number | string> & { from_month: string | null; children: number | string }
const FIELDS = [...AMOUNTS, 'from_month', 'children'] as const

const DECLARATIONS_KEY = [...PAYROLL_KEY, 'tax-deductions'] as const

/** The amount of a field in fen; an empty field is 0. */
const fenIn = (value: number | string) => toFen(value === '' ? 0 : value) ?? 0

function useAmountLabels(): Record<Amount, string> {
  const p = usePayrollWords()
  return {
    children_education: p.childrenEducation,
    infant_care: p.infantCare,
    continuing_education: p.continuingEducation,
    housing_loan_interest: p.housingLoanInterest,
    housing_rent: p.housingRent,
    elderly_support: p.elderlySupport,
  }
}

/** An employee's special additional deductions (CONTRACT §17), one declaration a year: shown, declared (replaced whole) or deleted. */
export function TaxDeclaration({ employee }: { employee: { id: number; name: string } }) {
  const t = useT()
  const p = usePayrollWords()
  const labels = useAmountLabels()
  const me = useMe().data
  const manage = can(me, 'payroll:manage')
  const queryClient = useQueryClient()
  const thisYear = Number(todayIn().slice(0, 4))
  const [year, setYear] = useState(String(thisYear))
  const [editing, setEditing] = useState(false)
  const [deleting, setDeleting] = useState(false)
  const declaration = useQuery({
    queryKey: [...DECLARATIONS_KEY, employee.id, year],
    queryFn: () => fetchDeclaration(employee.id, Number(year)),
  })
  const remove = useMutation({
    mutationFn: () => unwrap(api.admin.employees({ id: employee.id })['tax-deductions']({ year: Number(year) }).delete()),
    onSuccess: () => {
      notifySaved(p.declarationDeleted)
      setDeleting(false)
      void queryClient.invalidateQueries({ queryKey: DECLARATIONS_KEY })
    },
    onError: (error) => {
      setDeleting(false)
      notifyFailed(error)
    },
  })
  const shown = declaration.data

  return (
    <Card withBorder component="section" aria-labelledby="tax-declaration-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="tax-declaration-title">
          {p.declarationTitle(employee.name)}
        </Title>
        <Text size="sm" c="dimmed">
          {p.declarationHint}
        </Text>
        <Group align="flex-end" gap="sm">
          <Select
            label={p.declarationYear}
            data={Array.from({ length: 6 }, (_, index) => String(thisYear + 1 - index))}
            value={year}
            onChange={(value) => value && setYear(value)}
            allowDeselect={false}
            w={120}
          />
          {manage && declaration.isSuccess && (
            <>
              <Button onClick={() => setEditing(true)}>{shown ? p.editDeclaration : p.declare}</Button>
              {shown && (
                <Button variant="default" color="red" onClick={() => setDeleting(true)}>
                  {p.deleteDeclaration}
                </Button>
              )}
            </>
          )}
        </Group>
        {declaration.isPending && <Loader size="sm" role="status" aria-label={t.common.loading} />}
        {declaration.error && <Text c="red.9">{declaration.error.message}</Text>}
        {declaration.isSuccess && !shown && <Text c="dimmed">{p.noDeclaration(year)}</Text>}
        {shown && (
          <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} role="group" aria-label={p.declarationFormTitle(employee.name, year)}>
            <Figure label={p.fromMonth} value={shown.from_month} />
            {AMOUNTS.map((field) => (
              <Figure key={field} label={labels[field]} value={money(shown[field])} />
            ))}
            <Figure label={p.children} value={String(shown.children)} />
            <Figure label={p.monthlyTotal} value={money(shown.monthly_total)} />
          </SimpleGrid>
        )}
      </Stack>
      {editing && <DeclarationForm key={`${employee.id}-${year}`} employee={employee} year={year} declaration={shown ?? null} onClose={() => setEditing(false)} />}
      <ConfirmDelete
        what={deleting ? p.declarationWhat(employee.name, year) : null}
        onClose={() => setDeleting(false)}
        onConfirm={() => remove.mutate()}
        loading={remove.isPending}
      />
    </Card>
  )
}

function DeclarationForm({ employee, year, declaration, onClose }: { employee: { id: number; name: string }; year: string; declaration: Declaration | null; onClose: () => void }) {
  const t = useT()
  const p = usePayrollWords()
  const pickerLabels = usePickerLabels()
  const labels = useAmountLabels()
  const queryClient = useQueryClient()
  const [problem, setProblem] = useState<string | null>(null)
  const amountRule = (value: number | string) => {
    const fen = toFen(value === '' ? 0 : value)
    return fen === null || fen > 10_000_000_000 ? p.badAmount : null
  }
  const form = useForm<Values>({
    initialValues: {
      from_month: `${declaration?.from_month ?? `${year}-01`}-01`,
      children_education: declaration?.children_education ?? '',
      infant_care: declaration?.infant_care ?? '',
      continuing_education: declaration?.continuing_education ?? '',
      housing_loan_interest: declaration?.housing_loan_interest ?? '',
      housing_rent: declaration?.housing_rent ?? '',
      elderly_support: declaration?.elderly_support ?? '',
      children: declaration?.children ?? '',
    },
    validate: {
      ...(Object.fromEntries(AMOUNTS.map((field) => [field, amountRule])) as Record<Amount, typeof amountRule>),
      from_month: (value) => (value ? null : p.required),
      children: (value) => (value === '' || (Number.isInteger(Number(value)) && Number(value) >= 0) ? null : p.badChildren),
    },
  })
  const save = useMutation({
    mutationFn: (values: Values) =>
      unwrap(
        api.admin.employees({ id: employee.id })['tax-deductions']({ year: Number(year) }).put({
          from_month: values.from_month!.slice(0, 7),
          ...(Object.fromEntries(AMOUNTS.map((field) => [field, yuanOfFen(fenIn(values[field]))])) as Record<Amount, number>),
          children: values.children === '' ? 0 : Number(values.children),
        }),
      ),
    onSuccess: () => {
      notifySaved(p.declarationSaved)
      void queryClient.invalidateQueries({ queryKey: DECLARATIONS_KEY })
      // the tax of months to come changes with it
      void queryClient.invalidateQueries({ queryKey: [...PAYROLL_KEY, 'tax-summary'] })
      onClose()
    },
    onError: (error) => setProblem(applyApiErrors(form, error, FIELDS)),
  })

  return (
    <Modal opened onClose={onClose} title={p.declarationFormTitle(employee.name, year)} size="lg" centered closeButtonProps={{ 'aria-label': t.common.close }}>
      <form
        noValidate
        onSubmit={form.onSubmit((values) => {
          setProblem(null)
          save.mutate(values)
        })}
      >
        <Stack gap="sm">
          <MonthPickerInput
            ariaLabels={pickerLabels}
            label={p.fromMonth}
            description={p.fromMonthHint}
            valueFormat="YYYY-MM"
            withAsterisk
            minDate={`${year}-01-01`}
            maxDate={`${year}-12-31`}
            defaultDate={`${year}-01-01`}
            w={200}
            {...form.getInputProps('from_month')}
          />
          <Text size="sm" c="dimmed">
            {p.capsHint}
          </Text>
          <SimpleGrid cols={{ base: 1, xs: 2 }}>
            {AMOUNTS.map((field) => (
              <NumberInput key={field} label={labels[field]} min={0} max={100_000_000} decimalScale={2} thousandSeparator="," hideControls {...form.getInputProps(field)} />
            ))}
            <NumberInput label={p.children} min={0} max={99} decimalScale={0} allowDecimal={false} hideControls {...form.getInputProps('children')} />
          </SimpleGrid>
          <FormActions problem={problem} onCancel={onClose} saving={save.isPending} />
        </Stack>
      </form>
    </Modal>
  )
}
