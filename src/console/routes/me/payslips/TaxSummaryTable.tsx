import { Alert, Center, Loader, ScrollArea, Table, Text } from '@mantine/core'
import type { UseQueryResult } from '@tanstack/react-query'
import { api, unwrap } from '../../../api'
import { useT } from '../../../i18n'
import { money } from './PayslipLines'
import { usePayslipWords } from './words'

/** The caller's own income tax of a year (the employee's and HR's answers are one model). */
export const fetchOwnTaxSummary = (year: number) => unwrap(api.payslips['tax-summary'].get({ query: { year } }))
export type TaxSummary = Awaited<ReturnType<typeof fetchOwnTaxSummary>>

/** A tax summary being read: a loader while it is fetched, its error, or the table (nothing while the query waits to be enabled). */
export function TaxSummaryResult({ summary }: { summary: UseQueryResult<TaxSummary, Error> }) {
  const t = useT()
  if (summary.data) return <TaxSummaryTable summary={summary.data} />
  if (summary.error)
    return (
      <Alert color="red" title={t.common.failed}>
        {summary.error.message}
      </Alert>
    )
  if (summary.fetchStatus === 'idle') return null
  return (
    <Center p="md">
      <Loader size="sm" role="status" aria-label={t.common.loading} />
    </Center>
  )
}

const figure = { ta: 'right', style: { fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' } } as const

/**
 * A year's income tax month by month, as each approved payslip computed it (cumulative withholding):
 * the month's income, contributions and special deductions, the year's taxable income and tax so far,
 * what the month withheld and the year so far; the year's totals at the foot.
 */
export function TaxSummaryTable({ summary }: { summary: TaxSummary }) {
  const w = usePayslipWords()
  const x = w.tax
  const caption = x.table(summary.employee.name, String(summary.year))
  if (summary.months.length === 0) return <Text c="dimmed">{x.none(String(summary.year))}</Text>
  return (
    <ScrollArea type="auto" viewportProps={{ tabIndex: 0, 'aria-label': caption }}>
      <Table striped verticalSpacing="xs" miw={1000}>
        <Table.Caption style={{ captionSide: 'top', textAlign: 'left' }}>
          <Text fw={600} c="dark">
            {caption}
          </Text>
        </Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{x.month}</Table.Th>
            <Table.Th scope="col">{x.company}</Table.Th>
            <Table.Th scope="col" ta="right">
              {x.income}
            </Table.Th>
            <Table.Th scope="col" ta="right">
              {x.contributions}
            </Table.Th>
            <Table.Th scope="col" ta="right">
              {x.specialDeductions}
            </Table.Th>
            <Table.Th scope="col" ta="right">
              {x.cumulativeTaxable}
            </Table.Th>
            <Table.Th scope="col" ta="right">
              {x.cumulativeTax}
            </Table.Th>
            <Table.Th scope="col" ta="right">
              {x.withheld}
            </Table.Th>
            <Table.Th scope="col" ta="right">
              {x.cumulativeWithheld}
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {summary.months.map((month) => (
            <Table.Tr key={month.payslip_id}>
              <Table.Th scope="row" fw={400} style={{ whiteSpace: 'nowrap' }}>
                {w.monthName(month.month)}
              </Table.Th>
              <Table.Td>{month.company.name}</Table.Td>
              <Table.Td {...figure}>{money(month.income)}</Table.Td>
              <Table.Td {...figure}>{money(month.contributions)}</Table.Td>
              <Table.Td {...figure}>{money(month.special_deductions)}</Table.Td>
              <Table.Td {...figure}>{money(month.cumulative_taxable)}</Table.Td>
              <Table.Td {...figure}>{money(month.cumulative_tax)}</Table.Td>
              <Table.Td {...figure} fw={700}>
                {money(month.tax_withheld)}
              </Table.Td>
              <Table.Td {...figure}>{money(month.cumulative_withheld)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
        <Table.Tfoot>
          <Table.Tr fw={700}>
            <Table.Th scope="row" colSpan={2}>
              {x.totals}
            </Table.Th>
            <Table.Td {...figure}>{money(summary.totals.income)}</Table.Td>
            <Table.Td {...figure}>{money(summary.totals.contributions)}</Table.Td>
            <Table.Td {...figure}>{money(summary.totals.special_deductions)}</Table.Td>
            <Table.Td />
            <Table.Td />
            <Table.Td {...figure}>{money(summary.totals.tax_withheld)}</Table.Td>
            <Table.Td />
          </Table.Tr>
        </Table.Tfoot>
      </Table>
    </ScrollArea>
  )
}
