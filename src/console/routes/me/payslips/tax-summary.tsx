import { Anchor, Select, Stack, Text } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { Link, useSearch } from 'wouter'
import { todayIn, yearsUpTo } from '../../../components/dates'
import { PageTitle } from '../../../components/PageTitle'
import { fetchOwnTaxSummary, TaxSummaryResult } from './TaxSummaryTable'
import { usePayslipWords } from './words'

/** The caller's income tax of a year, month by month, from their approved payslips (`?year=` chooses the year). */
export default function TaxSummaryPage() {
  const w = usePayslipWords()
  const thisYear = Number(todayIn().slice(0, 4))
  const asked = new URLSearchParams(useSearch()).get('year')
  const [year, setYear] = useState(asked && /^\d{4}$/.test(asked) ? asked : String(thisYear))
  const summary = useQuery({ queryKey: ['payslips', 'own', 'tax-summary', year], queryFn: () => fetchOwnTaxSummary(Number(year)) })
  const years = yearsUpTo(thisYear)

  return (
    <Stack gap="md">
      <Anchor component={Link} href="/me/payslips" size="sm">
        ← {w.tax.back}
      </Anchor>
      <PageTitle>{w.tax.title}</PageTitle>
      <Text size="sm" c="dimmed" maw={640}>
        {w.tax.hint}
      </Text>
      <Select label={w.year} data={years.includes(year) ? years : [year, ...years]} value={year} onChange={(value) => value && setYear(value)} allowDeselect={false} w={140} />
      <TaxSummaryResult summary={summary} />
    </Stack>
  )
}
