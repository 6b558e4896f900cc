import { Code, Group, Stack, Text, Title, UnstyledButton } from '@mantine/core'
import { useId, useState } from 'react'
import { api, unwrap } from '../../../api'
import { yuan } from '../../../components/format'
import { usePayslipWords } from './words'

/** A payslip as the API gives it (the employee's and HR's are one model): its totals and its lines. */
export type ShownPayslip = Pick<Awaited<ReturnType<typeof fetchOwnPayslip>>, 'gross' | 'deductions' | 'net' | 'lines'>
type ShownLine = ShownPayslip['lines'][number]

/** The caller's approved payslip of a month (404 when there is none). */
export const fetchOwnPayslip = (month: string) => unwrap(api.payslips({ month }).get())

/** The API's yuan (at most 2 decimals) as integer fen, shown by yuan(). */
export const money = (amount: number) => yuan(Math.round(amount * 100))

/** The figures of the computation that are money (yuan): shown with 2 decimals; days, minutes and ratios as they are. */
const MONEY_INPUTS = new Set([
  'monthly_wage',
  'basic_salary',
  'seniority_pay',
  'allowance',
  'performance_pay',
  'bonus',
  'other_income',
  'other_deductions',
  'personal_insurance',
  'housing_fund',
  'recomputed_gross',
  'approved_gross',
  'carried',
  'absence_per_day',
  'per_occurrence',
  'per_minute',
  'cumulative_gross',
  'basic_deduction',
  'cumulative_contributions',
  'cumulative_special_deductions',
  'cumulative_taxable',
  'quick_deduction',
  'cumulative_tax',
  'withheld',
  'special_deductions_per_month',
  'profile_contribution_base',
  'profile_housing_fund_base',
])
/** A contribution item's figure (`pension_base`, `medical_employee_rate`): the item, then the figure. */
const ITEM_INPUT = /^(pension|medical|unemployment|work_injury|maternity|housing_fund)_(base|base_min|base_max|employee_rate|employer_rate|employee_fixed)$/
const figureOf = (name: string, value: number | string) => {
  const item = ITEM_INPUT.exec(name)
  const isMoney = item ? !item[2]!.endsWith('rate') : MONEY_INPUTS.has(name)
  return typeof value === 'number' && isMoney ? money(value) : String(value)
}

/** A name the dictionary does not have yet: `employed_work_days` as "employed work days". */
const spelled = (key: string) => key.replace(/_/g, ' ')

/** A figure's name: the dictionary's, a contribution item's figure composed, else the API's key spelled out. */
function inputName(w: ReturnType<typeof usePayslipWords>, name: string): string {
  const item = ITEM_INPUT.exec(name)
  if (!item) return w.inputNames[name] ?? spelled(name)
  const [, code, figure] = item as unknown as [string, string, string]
  return w.itemFigure(w.contributionItems[code] ?? spelled(code), w.itemFigures[figure] ?? spelled(figure))
}

/**
 * A payslip's lines by kind (income, attendance deductions, deductions and tax) with the wage
 * payable and the net pay between them, and the employer's contributions after, apart. Each line is
 * a disclosure: its button (label and amount) opens the formula, the named figures it used and what
 * it was read from. Printed, every line is open.
 */
export function PayslipLines({ payslip, headingOrder }: { payslip: ShownPayslip; headingOrder: 2 | 3 | 4 }) {
  const w = usePayslipWords()
  const of = (kind: string) => payslip.lines.filter((line) => line.kind === kind)
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed" className="wf-no-print">
        {w.linesHint}
      </Text>
      <LineGroup title={w.income} lines={of('income')} headingOrder={headingOrder} />
      <LineGroup title={w.attendance} lines={of('attendance')} headingOrder={headingOrder} />
      <Total label={w.gross} amount={payslip.gross} />
      <LineGroup title={w.deductionLines} lines={of('deduction')} headingOrder={headingOrder} />
      <Total label={w.deductions} amount={payslip.deductions} />
      <Total label={w.net} amount={payslip.net} strong />
      {/* what the employer pays on top: not part of the wage payable, the deductions or the net pay */}
      <LineGroup title={w.employerLines} lines={of('employer')} headingOrder={headingOrder} />
    </Stack>
  )
}

function LineGroup({ title, lines, headingOrder }: { title: string; lines: ShownLine[]; headingOrder: 2 | 3 | 4 }) {
  if (lines.length === 0) return null
  return (
    <section>
      <Title order={headingOrder} size="h5" mb={4}>
        {title}
      </Title>
      <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        {lines.map((line, index) => (
          <Line key={`${line.code}-${line.month ?? ''}-${index}`} line={line} />
        ))}
      </ul>
    </section>
  )
}

function Total({ label, amount, strong }: { label: string; amount: number; strong?: boolean }) {
  return (
    <Group justify="space-between" wrap="nowrap" py={4} style={{ borderTop: '1px solid var(--mantine-color-gray-4)' }}>
      <Text fw={700} size={strong ? 'lg' : 'md'}>
        {label}
      </Text>
      <Text fw={700} size={strong ? 'lg' : 'md'} c={amount < 0 ? 'red.9' : undefined} style={{ fontVariantNumeric: 'tabular-nums' }}>
        {money(amount)}
      </Text>
    </Group>
  )
}

/** One line: a button that shows or hides its explanation (aria-expanded, aria-controls). */
function Line({ line }: { line: ShownLine }) {
  const w = usePayslipWords()
  const [open, setOpen] = useState(false)
  const panel = useId()
  const byKind = new Map<string, number[]>()
  for (const source of line.sources) byKind.set(source.kind, [...(byKind.get(source.kind) ?? []), source.id])
  const sources = [...byKind]
  const inputs = Object.entries(line.inputs)
  return (
    <li style={{ borderTop: '1px solid var(--mantine-color-gray-3)' }}>
      <UnstyledButton aria-expanded={open} aria-controls={panel} onClick={() => setOpen(!open)} w="100%" py={8} px={4}>
        <Group justify="space-between" wrap="nowrap" gap="sm">
          <Group gap={6} wrap="nowrap">
            <Text aria-hidden size="xs" w={12} className="wf-no-print">
              {open ? '▾' : '▸'}
            </Text>
            <Text>{line.label}</Text>
          </Group>
          <Text c={line.amount < 0 ? 'red.9' : undefined} style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
            {money(line.amount)}
          </Text>
        </Group>
      </UnstyledButton>
      <div id={panel} hidden={!open} className="wf-line-panel">
        <Stack gap={6} pb="sm" px={4} pl={22}>
          <div>
            <Text size="sm" fw={600}>
              {w.formula}
            </Text>
            <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
              {line.formula.split('; ').join('\n')}
            </Code>
          </div>
          {inputs.length > 0 && (
            <div>
              <Text size="sm" fw={600}>
                {w.inputs}
              </Text>
              <dl style={{ margin: 0, display: 'grid', gridTemplateColumns: 'auto auto', columnGap: 12, justifyContent: 'start' }}>
                {inputs.map(([name, value]) => (
                  <div key={name} style={{ display: 'contents' }}>
                    <Text component="dt" size="sm" c="dimmed">
                      {inputName(w, name)}
                    </Text>
                    <Text component="dd" size="sm" m={0} style={{ fontVariantNumeric: 'tabular-nums' }}>
                      {figureOf(name, value)}
                    </Text>
                  </div>
                ))}
              </dl>
            </div>
          )}
          <div>
            <Text size="sm" fw={600}>
              {w.sources}
            </Text>
            <Text size="sm">
              {sources.length === 0
                ? w.noSources
                : sources
                    .map(([kind, ids]) => `${w.sourceCount(ids.length, w.sourceKinds[kind]?.(ids.length) ?? spelled(kind))} (${ids.map((id) => `#${id}`).join(', ')})`)
                    .join('; ')}
            </Text>
          </div>
        </Stack>
      </div>
    </li>
  )
}
