import { Checkbox, Modal, NumberInput, ScrollArea, Stack, Table, Text, TextInput } from '@mantine/core'
import { MonthPickerInput } from '@mantine/dates'
import { useForm } from '@mantine/form'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { api, unwrap } from '../../../api'
import { applyApiErrors } from '../../../components/form-errors'
import { FormActions } from '../../../components/FormActions'
import { notifySaved } from '../../../components/notify'
import { useT } from '../../../i18n'
import { currentMonth, toFen } from '../work/shared'
import { PAYROLL_KEY, SCHEME_CODES, yuanOfFen, type Scheme, type SchemeCode } from './data'
import { usePickerLabels } from './parts'
import { usePayrollWords } from './words'

const FIGURES = ['employee_rate', 'employer_rate', 'base_min', 'base_max', 'employee_fixed'] as const
type Figure = (typeof FIGURES)[number]
type ItemValues = Record<Figure, number | string> & { included: boolean }
interface Values {
  name: string
  effective_from: string | null
  items: Record<SchemeCode, ItemValues>
}
const NAME_MAX = 100
/** every field of the form by its path, as the API's errors[] are put on them */
const FIELDS = ['name', 'effective_from', ...SCHEME_CODES.flatMap((code) => FIGURES.map((figure) => `items.${code}.${figure}`))]

/** A rate with at most 4 decimals in ten-thousandths (0.08 → 800), exact; null when it is not one from 0 to 1. */
export function tenThousandths(value: number | string): number | null {
  const text = typeof value === 'number' ? value.toFixed(4) : value.trim()
  const match = /^(\d+)(?:\.(\d{1,4}))?$/.exec(text)
  if (!match) return null
  const rate = Number(match[1]) * 10_000 + Number((match[2] ?? '').padEnd(4, '0'))
  return rate <= 10_000 ? rate : null
}

/** The amount of a field in fen; an empty field is 0. */
const fenIn = (value: number | string) => toFen(value === '' ? 0 : value) ?? 0

const emptyItem = (): ItemValues => ({ included: false, employee_rate: '', employer_rate: '', base_min: '', base_max: '', employee_fixed: '' })

function initialValues(scheme: Scheme | null): Values {
  const items = Object.fromEntries(SCHEME_CODES.map((code) => [code, emptyItem()])) as Record<SchemeCode, ItemValues>
  for (const item of scheme?.items ?? []) items[item.code] = { included: true, ...item }
  return { name: scheme?.name ?? '', effective_from: `${scheme?.effective_from ?? currentMonth()}-01`, items }
}

/** A contribution scheme in a dialog: its name, the month it starts, and a row per insurance (and the housing fund) it has. Saving replaces it whole. */
export function SchemeForm({ scheme, onClose }: { scheme: Scheme | null; onClose: () => void }) {
  const t = useT()
  const p = usePayrollWords()
  const pickerLabels = usePickerLabels()
  const queryClient = useQueryClient()
  const [problem, setProblem] = useState<string | null>(null)
  const form = useForm<Values>({
    initialValues: initialValues(scheme),
    validate: (values) => {
      const errors: Record<string, string | null> = {
        name: values.name.trim() === '' ? p.required : values.name.trim().length > NAME_MAX ? p.tooLong(NAME_MAX) : null,
        effective_from: values.effective_from ? null : p.required,
      }
      for (const code of SCHEME_CODES) {
        const item = values.items[code]
        if (!item.included) continue
        const at = (figure: Figure) => `items.${code}.${figure}`
        for (const figure of ['employee_rate', 'employer_rate'] as const) errors[at(figure)] = item[figure] === '' ? p.required : tenThousandths(item[figure]) === null ? p.badRate : null
        for (const figure of ['base_min', 'base_max', 'employee_fixed'] as const) {
          const fen = toFen(item[figure] === '' && figure === 'employee_fixed' ? 0 : item[figure])
          errors[at(figure)] = item[figure] === '' && figure !== 'employee_fixed' ? p.required : fen === null || fen > 10_000_000_000 ? p.badAmount : null
        }
        const [min, max] = [toFen(item.base_min), toFen(item.base_max)]
        if (!errors[at('base_max')] && min !== null && max !== null && max < min) errors[at('base_max')] = p.badBaseMax
      }
      return errors
    },
  })
  const included = SCHEME_CODES.filter((code) => form.values.items[code].included)

  const save = useMutation({
    mutationFn: (values: Values) => {
      const body = {
        name: values.name.trim(),
        effective_from: values.effective_from!.slice(0, 7),
        items: SCHEME_CODES.filter((code) => values.items[code].included).map((code) => {
          const item = values.items[code]
          return {
            code,
            employee_rate: tenThousandths(item.employee_rate)! / 10_000,
            employer_rate: tenThousandths(item.employer_rate)! / 10_000,
            base_min: yuanOfFen(fenIn(item.base_min)),
            base_max: yuanOfFen(fenIn(item.base_max)),
            employee_fixed: yuanOfFen(fenIn(item.employee_fixed)),
          }
        }),
      }
      return scheme ? unwrap(api.admin.payroll.schemes({ id: scheme.id }).put(body)) : unwrap(api.admin.payroll.schemes.post(body))
    },
    onSuccess: () => {
      notifySaved(scheme ? p.schemeSaved : p.schemeCreated)
      void queryClient.invalidateQueries({ queryKey: [...PAYROLL_KEY, 'schemes'] })
      onClose()
    },
    onError: (error) => {
      // the API names an item by its place in the list sent (items.0.base_max, or items[0].base_max): the form, by its code
      const sent = SCHEME_CODES.filter((code) => form.values.items[code].included)
      const paths = Object.fromEntries(
        sent.flatMap((code, index) => FIGURES.flatMap((figure) => [`items.${index}.${figure}`, `items[${index}].${figure}`].map((path) => [path, `items.${code}.${figure}`]))),
      )
      setProblem(applyApiErrors(form, error, FIELDS, paths))
    },
  })

  const figureLabels: Record<Figure, string> = {
    employee_rate: p.employeeRate,
    employer_rate: p.employerRate,
    base_min: p.baseMin,
    base_max: p.baseMax,
    employee_fixed: p.employeeFixed,
  }
  return (
    <Modal
      opened
      onClose={onClose}
      title={scheme ? p.editSchemeTitle(scheme.name, scheme.effective_from) : p.createSchemeTitle}
      size="xl"
      centered
      closeButtonProps={{ 'aria-label': t.common.close }}
    >
      <form
        noValidate
        onSubmit={form.onSubmit((values) => {
          if (included.length === 0) return setProblem(p.noItems)
          setProblem(null)
          save.mutate(values)
        })}
      >
        <Stack gap="sm">
          <TextInput label={p.schemeName} withAsterisk maxLength={NAME_MAX} data-autofocus {...form.getInputProps('name')} />
          <MonthPickerInput ariaLabels={pickerLabels} label={p.effectiveFrom} valueFormat="YYYY-MM" withAsterisk {...form.getInputProps('effective_from')} w={200} />
          <Text size="sm" c="dimmed">
            {p.schemeItemsHint}
          </Text>
          <ScrollArea type="auto" viewportProps={{ tabIndex: 0, 'aria-label': p.schemeItems }}>
            <Table verticalSpacing={4} miw={760} aria-label={p.schemeItems}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{p.item}</Table.Th>
                  {FIGURES.map((figure) => (
                    <Table.Th key={figure} scope="col">
                      {figureLabels[figure]}
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {SCHEME_CODES.map((code) => {
                  const label = p.schemeCodes[code] ?? code
                  const on = form.values.items[code].included
                  return (
                    <Table.Tr key={code}>
                      <Table.Td>
                        <Checkbox label={label} aria-label={p.includeItem(label)} {...form.getInputProps(`items.${code}.included`, { type: 'checkbox' })} />
                      </Table.Td>
                      {FIGURES.map((figure) => (
                        <Table.Td key={figure}>
                          <NumberInput
                            aria-label={p.fieldOf(figureLabels[figure], label)}
                            disabled={!on}
                            min={0}
                            max={figure.endsWith('rate') ? 1 : 100_000_000}
                            decimalScale={figure.endsWith('rate') ? 4 : 2}
                            thousandSeparator={figure.endsWith('rate') ? undefined : ','}
                            hideControls
                            size="xs"
                            {...form.getInputProps(`items.${code}.${figure}`)}
                          />
                        </Table.Td>
                      ))}
                    </Table.Tr>
                  )
                })}
              </Table.Tbody>
            </Table>
          </ScrollArea>
          <FormActions problem={problem} onCancel={onClose} saving={save.isPending} />
        </Stack>
      </form>
    </Modal>
  )
}
