import { Alert, Anchor, Button, Center, Group, Loader, Paper, SimpleGrid, Stack, Text } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { Link, useParams } from 'wouter'
import { ApiError } from '../../../api'
import { PageTitle } from '../../../components/PageTitle'
import { useT } from '../../../i18n'
import { fetchOwnPayslip, money, PayslipLines } from './PayslipLines'
import { usePayslipWords } from './words'

/**
 * One month's payslip of the caller, for the phone and for paper: the wage payable, the deductions
 * and the net pay, then every line, each opening to its formula, figures and sources. Printing
 * leaves out the navigation and the buttons and shows every line open (styles.css).
 */
export default function PayslipPage() {
  const t = useT()
  const w = usePayslipWords()
  const { month = '' } = useParams<{ month: string }>()
  const payslip = useQuery({ queryKey: ['payslips', 'own', 'month', month], queryFn: () => fetchOwnPayslip(month) })
  const shownMonth = w.monthName(month)

  return (
    <Stack maw={640} gap="md">
      <Group justify="space-between" className="wf-no-print">
        <Anchor component={Link} href="/me/payslips" size="sm">
          ← {w.back}
        </Anchor>
        {payslip.data && (
          <Button variant="default" size="xs" onClick={() => window.print()}>
            {w.print}
          </Button>
        )}
      </Group>
      <PageTitle>{w.payslipOf(shownMonth)}</PageTitle>
      {payslip.isPending && (
        <Center p="md">
          <Loader size="sm" role="status" aria-label={t.common.loading} />
        </Center>
      )}
      {payslip.error &&
        (payslip.error instanceof ApiError && payslip.error.status === 404 ? (
          <Alert color="yellow">{w.notFound(shownMonth)}</Alert>
        ) : (
          <Alert color="red" title={t.common.failed}>
            {payslip.error.message}
          </Alert>
        ))}
      {payslip.data && (
        <>
          <Text>
            {payslip.data.employee.name}
            {payslip.data.employee.employee_no ? ` · ${w.employeeNo} ${payslip.data.employee.employee_no}` : ''}
          </Text>
          <SimpleGrid cols={3} spacing="xs" role="group" aria-label={w.summary}>
            <Figure label={w.gross} amount={payslip.data.gross} />
            <Figure label={w.deductions} amount={payslip.data.deductions} />
            <Figure label={w.net} amount={payslip.data.net} strong />
          </SimpleGrid>
          <PayslipLines payslip={payslip.data} headingOrder={2} />
          {payslip.data.inputs.note && (
            <Text size="sm">
              {w.note}: {payslip.data.inputs.note}
            </Text>
          )}
        </>
      )}
    </Stack>
  )
}

function Figure({ label, amount, strong }: { label: string; amount: number; strong?: boolean }) {
  return (
    <Paper withBorder p="xs">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size={strong ? 'lg' : 'md'} style={{ fontVariantNumeric: 'tabular-nums' }}>
        {money(amount)}
      </Text>
    </Paper>
  )
}
