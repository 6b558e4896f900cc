import { Group, Select, Stack, Text } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { todayIn, yearsUpTo } from '../../../components/dates'
import { TaxSummaryResult } from '../../me/payslips/TaxSummaryTable'
import { usePayslipWords } from '../../me/payslips/words'
import { EmployeeSelect } from '../work/shared'
import { fetchTaxSummary, PAYROLL_KEY } from './data'
import { usePayrollWords } from './words'

/** An employee's income tax of a year, month by month from the approved payslips, with the year's totals. */
export function TaxSummary() {
  const p = usePayrollWords()
  const w = usePayslipWords()
  const thisYear = Number(todayIn().slice(0, 4))
  const [employee, setEmployee] = useState<string | null>(null)
  const [year, setYear] = useState(String(thisYear))
  const summary = useQuery({
    queryKey: [...PAYROLL_KEY, 'tax-summary', employee, year],
    queryFn: () => fetchTaxSummary(Number(employee), Number(year)),
    enabled: employee !== null,
  })

  return (
    <Stack gap="md">
      <Group align="flex-end">
        <EmployeeSelect label={p.taxEmployee} value={employee} onChange={setEmployee} w={300} />
        <Select label={p.taxYear} data={yearsUpTo(thisYear)} value={year} onChange={(value) => value && setYear(value)} allowDeselect={false} w={120} />
      </Group>
      <Text size="sm" c="dimmed" maw={760}>
        {w.tax.hint}
      </Text>
      {employee === null && <Text c="dimmed">{p.chooseTaxEmployee}</Text>}
      <TaxSummaryResult summary={summary} />
    </Stack>
  )
}
