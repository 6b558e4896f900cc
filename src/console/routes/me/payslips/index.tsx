import { Alert, Anchor, Card, Center, Group, Loader, Select, Stack, Text } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { Link } from 'wouter'
import { api, unwrap } from '../../../api'
import { todayIn, yearsUpTo } from '../../../components/dates'
import { PageTitle } from '../../../components/PageTitle'
import { useT } from '../../../i18n'
import { money } from './PayslipLines'
import { usePayslipWords } from './words'

/** The caller's approved payslips of a year, newest month first, each opening its payslip; and the year's income tax. */
export default function Payslips() {
  const t = useT()
  const w = usePayslipWords()
  const thisYear = Number(todayIn().slice(0, 4))
  const [year, setYear] = useState(String(thisYear))
  const list = useQuery({ queryKey: ['payslips', 'own', year], queryFn: () => unwrap(api.payslips.get({ query: { year: Number(year) } })) })

  return (
    <Stack maw={640}>
      <PageTitle>{w.title}</PageTitle>
      <Group justify="space-between" align="flex-end">
        <Select label={w.year} data={yearsUpTo(thisYear)} value={year} onChange={(value) => value && setYear(value)} allowDeselect={false} w={140} />
        <Anchor component={Link} href={`/me/payslips/tax-summary?year=${year}`} size="sm">
          {w.tax.open(year)}
        </Anchor>
      </Group>
      <section aria-label={w.listCaption(year)}>
        {list.isPending && (
          <Center p="md">
            <Loader size="sm" role="status" aria-label={t.common.loading} />
          </Center>
        )}
        {list.error && (
          <Alert color="red" title={t.common.failed}>
            {list.error.message}
          </Alert>
        )}
        {list.data?.payslips.length === 0 && <Text c="dimmed">{w.none(year)}</Text>}
        <Stack gap="xs" component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {list.data?.payslips.map((payslip) => (
            <li key={payslip.id}>
              <Card withBorder padding="sm" component={Link} href={`/me/payslips/${payslip.month}`}>
                <Group justify="space-between" wrap="nowrap">
                  <Text fw={600}>{w.monthName(payslip.month)}</Text>
                  <Stack gap={0} align="flex-end">
                    <Text size="xs" c="dimmed">
                      {w.net}
                    </Text>
                    <Text fw={700} style={{ fontVariantNumeric: 'tabular-nums' }}>
                      {money(payslip.net)}
                    </Text>
                  </Stack>
                </Group>
                <Group justify="space-between" wrap="nowrap" mt={4}>
                  <Text size="sm" c="dimmed">
                    {w.gross}
                  </Text>
                  <Text size="sm" style={{ fontVariantNumeric: 'tabular-nums' }}>
                    {money(payslip.gross)}
                  </Text>
                </Group>
              </Card>
            </li>
          ))}
        </Stack>
      </section>
    </Stack>
  )
}
