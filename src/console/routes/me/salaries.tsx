import { Badge, Button, Modal, Stack, Table, Text } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { api, unwrap } from '../../api'
import { DataTable } from '../../components/DataTable'
import { browserZone, dateTimeIn, yuan } from '../../components/format'
import { PageTitle } from '../../components/PageTitle'
import { useLanguage, useT } from '../../i18n'
import { useMeWords } from './words'

const PAGE_SIZE = 12
type Salary = Awaited<ReturnType<typeof fetchSalaries>>['salaries'][number]
const fetchSalaries = (page: number) => unwrap(api.employees.salaries.get({ query: { page, page_size: PAGE_SIZE } }))

/** The API's yuan (at most 2 decimals) as integer fen, then shown by yuan(). */
const money = (amount: number) => yuan(Math.round(amount * 100))

/** The caller's salary records, newest month first, with each month's items. */
export default function Salaries() {
  const t = useT()
  const w = useMeWords().salaries
  const [language] = useLanguage()
  /** the API's month "2024年03月", as 2024-03 outside Chinese */
  const monthOf = (month: string) => (language === 'zh' ? month : month.replace(/^(\d{4})年(\d{2})月$/, '$1-$2'))
  const [page, setPage] = useState(1)
  const [open, setOpen] = useState<Salary | null>(null)
  const list = useQuery({ queryKey: ['salaries', 'own', page], queryFn: () => fetchSalaries(page) })

  const paidOn = (row: Salary) => (row.payment_date ? dateTimeIn(row.payment_date, browserZone()).slice(0, 10) : '—')

  return (
    <Stack maw={900}>
      <PageTitle>{w.title}</PageTitle>
      <DataTable
        label={w.caption}
        rows={list.data?.salaries}
        rowKey={(row) => row.id}
        loading={list.isPending}
        error={list.error}
        page={page}
        pageSize={PAGE_SIZE}
        total={list.data?.pagination.total_items}
        onPage={setPage}
        columns={[
          { header: w.month, cell: (row) => monthOf(row.month) },
          { header: w.net, cell: (row) => <Text fw={700}>{money(row.net_salary)}</Text> },
          {
            header: w.status,
            cell: (row) => (
              <Badge variant="light" c="dark.7" color={row.status_code === '1' ? 'green' : 'yellow'}>
                {row.status_code === '1' ? w.paid : w.unconfirmed}
              </Badge>
            ),
          },
          { header: w.paymentDate, cell: paidOn },
          {
            header: t.common.actions,
            cell: (row) => (
              <Button size="xs" variant="default" onClick={() => setOpen(row)} aria-label={`${w.details}: ${monthOf(row.month)}`}>
                {w.details}
              </Button>
            ),
          },
        ]}
      />
      <Modal opened={open !== null} onClose={() => setOpen(null)} title={open ? w.detailsOf(monthOf(open.month)) : ''} centered closeButtonProps={{ 'aria-label': t.common.close }}>
        {open && (
          <Stack>
            <AmountTable caption={w.income} totalLabel={w.totalIncome} amounts={open.income} />
            <AmountTable caption={w.deductions} totalLabel={w.totalDeductions} amounts={open.deductions} />
            <Text fw={700} size="lg">
              {w.net}: {money(open.summary.net_salary)}
            </Text>
            <Text size="sm">
              {w.status}: {open.status_code === '1' ? `${w.paid} (${paidOn(open)})` : w.unconfirmed}
            </Text>
            {open.remarks && (
              <Text size="sm">
                {w.remarks}: {open.remarks}
              </Text>
            )}
          </Stack>
        )}
      </Modal>
    </Stack>
  )
}

/** One side of a salary (income or deductions): each item's amount, the total last in bold. */
function AmountTable({ caption, totalLabel, amounts }: { caption: string; totalLabel: string; amounts: Record<string, number> }) {
  const w = useMeWords().salaries
  return (
    <Table>
      <Table.Caption style={{ captionSide: 'top', textAlign: 'left' }}>
        <Text fw={600} c="dark">
          {caption}
        </Text>
      </Table.Caption>
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">{w.item}</Table.Th>
          <Table.Th scope="col" ta="right">
            {w.amount}
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {Object.entries(amounts).map(([item, amount]) => (
          <Table.Tr key={item}>
            <Table.Td fw={item === 'total' ? 700 : undefined}>{item === 'total' ? totalLabel : w.items[item] ?? item}</Table.Td>
            <Table.Td ta="right" fw={item === 'total' ? 700 : undefined}>
              {money(amount)}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  )
}
