import { Alert, Badge, Button, Center, Group, Loader, ScrollArea, Select, Stack, Table, Text, Title, UnstyledButton } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { Fragment, useState } from 'react'
import { useT } from '../../../i18n'
import { PayslipLines } from '../../me/payslips/PayslipLines'
import { fetchPayslips, FLAGS, PAYROLL_KEY, type Flag, type Run, type RunPayslip } from './data'
import { InputsForm } from './InputsForm'
import { money } from './parts'
import { usePayrollWords } from './words'

/** The amount of the payslip's income tax line (0 when it has none). */
const taxOf = (payslip: RunPayslip) => payslip.lines.find((line) => line.code === 'personal_tax')?.amount ?? 0

/**
 * A run's payslips, all or only those with an unusual line of one kind; each row opens to its
 * lines (a disclosure), and while the run is a draft HR enters a payslip's amounts in a dialog.
 */
export function RunPayslips({ run, editable }: { run: Run; editable: boolean }) {
  const t = useT()
  const p = usePayrollWords()
  const [flag, setFlag] = useState<Flag | 'all'>('all')
  const [open, setOpen] = useState<Set<number>>(new Set())
  const [entering, setEntering] = useState<RunPayslip | null>(null)
  const payslips = useQuery({
    queryKey: [...PAYROLL_KEY, 'run', run.id, 'payslips', flag],
    queryFn: () => fetchPayslips(run.id, flag === 'all' ? null : flag),
  })
  const toggle = (id: number) =>
    setOpen((current) => {
      const next = new Set(current)
      if (next.has(id)) next.delete(id)
      else next.add(id)
      return next
    })
  const caption = p.payslipsTable(run.month)
  const columns = 6 + (editable ? 1 : 0)

  return (
    <Stack gap="sm" component="section" aria-labelledby="run-payslips">
      <Group justify="space-between" align="flex-end">
        <Title order={2} size="h4" id="run-payslips">
          {caption}
        </Title>
        <Select
          label={p.flagFilter}
          data={[{ value: 'all', label: p.allPayslips }, ...FLAGS.map((value) => ({ value, label: p.flags[value] ?? value }))]}
          value={flag}
          onChange={(value) => setFlag((value as Flag | null) ?? 'all')}
          allowDeselect={false}
          w={220}
        />
      </Group>
      <ScrollArea type="auto" viewportProps={{ tabIndex: 0, 'aria-label': caption }}>
        <Table verticalSpacing="xs" miw={760} aria-labelledby="run-payslips">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{p.employee}</Table.Th>
              <Table.Th scope="col" ta="right">
                {p.gross}
              </Table.Th>
              <Table.Th scope="col" ta="right">
                {p.tax}
              </Table.Th>
              <Table.Th scope="col" ta="right">
                {p.deductions}
              </Table.Th>
              <Table.Th scope="col" ta="right">
                {p.net}
              </Table.Th>
              <Table.Th scope="col">{p.flagsColumn}</Table.Th>
              {editable && <Table.Th scope="col">{t.common.actions}</Table.Th>}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(payslips.data?.payslips ?? []).map((payslip) => {
              const expanded = open.has(payslip.id)
              const panel = `payslip-lines-${payslip.id}`
              const name = payslip.employee.name
              return (
                <Fragment key={payslip.id}>
                  <Table.Tr>
                    <Table.Td>
                      <UnstyledButton aria-expanded={expanded} aria-controls={panel} onClick={() => toggle(payslip.id)}>
                        <Group gap={6} wrap="nowrap">
                          <Text aria-hidden size="xs" w={12}>
                            {expanded ? '▾' : '▸'}
                          </Text>
                          <Text size="sm" fw={600}>
                            {name}
                          </Text>
                          {payslip.employee.employee_no && (
                            <Text size="sm" c="dimmed">
                              {payslip.employee.employee_no}
                            </Text>
                          )}
                        </Group>
                      </UnstyledButton>
                    </Table.Td>
                    <Table.Td ta="right">{money(payslip.gross)}</Table.Td>
                    <Table.Td ta="right">{money(taxOf(payslip))}</Table.Td>
                    <Table.Td ta="right">{money(payslip.deductions)}</Table.Td>
                    <Table.Td ta="right" fw={700} c={payslip.net < 0 ? 'red.9' : undefined}>
                      {money(payslip.net)}
                    </Table.Td>
                    <Table.Td>
                      <Group gap={4}>
                        {payslip.flags.map((code) => (
                          <Badge key={code} size="sm" variant="light" color={code === 'negative_net' ? 'red' : 'gray'} c="var(--mantine-color-text)">
                            {p.flags[code] ?? code}
                          </Badge>
                        ))}
                      </Group>
                    </Table.Td>
                    {editable && (
                      <Table.Td>
                        <Button size="xs" variant="default" aria-label={p.inputsOf(name)} onClick={() => setEntering(payslip)}>
                          {p.inputs}
                        </Button>
                      </Table.Td>
                    )}
                  </Table.Tr>
                  <Table.Tr id={panel} hidden={!expanded}>
                    <Table.Td colSpan={columns} bg="gray.0">
                      {expanded && (
                        <Stack maw={640} py="xs" aria-label={p.showLines(name)} role="group">
                          <PayslipLines payslip={payslip} headingOrder={3} />
                          {payslip.inputs.note && (
                            <Text size="sm">
                              {p.note}: {payslip.inputs.note}
                            </Text>
                          )}
                        </Stack>
                      )}
                    </Table.Td>
                  </Table.Tr>
                </Fragment>
              )
            })}
          </Table.Tbody>
        </Table>
      </ScrollArea>
      {payslips.isPending && (
        <Center p="md">
          <Loader size="sm" role="status" aria-label={t.common.loading} />
        </Center>
      )}
      {payslips.data?.payslips.length === 0 && <Text c="dimmed">{t.common.empty}</Text>}
      {payslips.error && (
        <Alert color="red" title={t.common.failed}>
          {payslips.error.message}
        </Alert>
      )}
      {entering && <InputsForm key={entering.id} run={run} payslip={entering} onClose={() => setEntering(null)} />}
    </Stack>
  )
}
