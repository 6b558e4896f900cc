import { Badge, Paper, Text } from '@mantine/core'
import { yuan } from '../../../components/format'
import { usePayrollWords } from './words'

/** The API's yuan (a number with at most 2 decimals) as integer fen. */
export const fen = (amount: number) => Math.round(amount * 100)

/** The API's yuan shown with 2 decimals (through integer fen). */
export const money = (amount: number) => yuan(fen(amount))

export function StatusBadge({ status }: { status: string }) {
  const p = usePayrollWords()
  return (
    <Badge color={status === 'approved' ? 'green' : 'yellow'} variant="light" c="var(--mantine-color-text)">
      {p.statuses[status] ?? status}
    </Badge>
  )
}

/** A labelled total (a run's gross, tax, net…). */
export function Figure({ label, value }: { label: string; value: string }) {
  return (
    <Paper withBorder p="sm">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} style={{ fontVariantNumeric: 'tabular-nums' }}>
        {value}
      </Text>
    </Paper>
  )
}

/** Names of a month picker's year controls (Mantine leaves its arrows unnamed). */
export function usePickerLabels() {
  const p = usePayrollWords()
  return { previousYear: p.previousYear, nextYear: p.nextYear, previousDecade: p.previousDecade, nextDecade: p.nextDecade }
}
