import { Alert, Anchor, Center, Loader, Select, Stack, Text } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { Link, useSearch } from 'wouter'
import { todayIn, yearsUpTo } from '../../../components/dates'
import { PageTitle } from '../../../components/PageTitle'
import { useT } from '../../../i18n'
import { fetchOwnTaxSummary, TaxSummaryTable } from './TaxSummaryTable'
import { usePayslipWords } from './words'

/** The caller's income tax of a year, month by month, from their approved payslips (`?year=` chooses the year). */
export default function TaxSummaryPage() {
  const t = useT()
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
      {summary.isPending && (
        <Center p="md">
          <Loader size="sm" role="status" aria-label={t.common.loading} />
        </Center>
      )}
      {summary.error && (
        <Alert color="red" title={t.common.failed}>
          {summary.error.message}
        </Alert>
      )}
      {summary.data && <TaxSummaryTable summary={summary.data} />}
    </Stack>
  )
}
