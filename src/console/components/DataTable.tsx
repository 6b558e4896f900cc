import { Alert, Center, Group, Loader, Pagination, ScrollArea, Table, Text } from '@mantine/core'
import type { ReactNode } from 'react'
import { useT } from '../i18n'

export interface Column<Row> {
  /** the column's heading, also what screen readers announce for its cells */
  header: string
  cell: (row: Row) => ReactNode
}

interface Props<Row> {
  /** the table's accessible name (its caption) */
  label: string
  columns: Column<Row>[]
  rows: Row[] | undefined
  rowKey: (row: Row) => string | number
  loading?: boolean
  error?: unknown
  /** server-side paging: the page shown, the rows per page and how many rows there are in all */
  page?: number
  pageSize?: number
  total?: number
  onPage?: (page: number) => void
}

/** A table of API rows with its caption, loading and error states, and paging by the API's `page`. */
export function DataTable<Row>({ label, columns, rows, rowKey, loading, error, page, pageSize, total, onPage }: Props<Row>) {
  const t = useT()
  return (
    <div>
      <ScrollArea type="auto" viewportProps={{ tabIndex: 0, 'aria-label': label }}>
        <Table striped highlightOnHover verticalSpacing="xs" miw={columns.length * 110}>
          <Table.Caption style={{ captionSide: 'top', textAlign: 'left' }}>
            <Text fw={600} c="dark">
              {label}
            </Text>
          </Table.Caption>
          <Table.Thead>
            <Table.Tr>
              {columns.map((column) => (
                <Table.Th key={column.header} scope="col">
                  {column.header}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(rows ?? []).map((row) => (
              <Table.Tr key={rowKey(row)}>
                {columns.map((column) => (
                  <Table.Td key={column.header}>{column.cell(row)}</Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea>
      {loading && (
        <Center p="md">
          <Loader size="sm" role="status" aria-label={t.common.loading} />
        </Center>
      )}
      {!loading && !error && rows?.length === 0 && (
        <Text c="dimmed" p="md">
          {t.common.empty}
        </Text>
      )}
      {error !== undefined && error !== null && (
        <Alert color="red" title={t.common.failed} mt="sm">
          {error instanceof Error ? error.message : String(error)}
        </Alert>
      )}
      {onPage && total !== undefined && <Pager page={page} pageSize={pageSize} total={total} onPage={onPage} />}
    </div>
  )
}

/** How many rows there are in all, and the API's pages (a table's foot, or a list of cards'). */
export function Pager({ page, pageSize, total, onPage }: { page?: number; pageSize?: number; total: number; onPage: (page: number) => void }) {
  const t = useT()
  const pages = pageSize ? Math.max(1, Math.ceil(total / pageSize)) : 1
  return (
    <Group justify="space-between" mt="sm">
      <Text size="sm" c="dimmed">
        {t.common.totalRows(total)}
      </Text>
      {pages > 1 && (
        <Pagination
          total={pages}
          value={page ?? 1}
          onChange={onPage}
          size="sm"
          getControlProps={(control) => ({
            'aria-label': control === 'previous' ? t.common.previousPage : control === 'next' ? t.common.nextPage : control,
          })}
          getItemProps={(item) => ({ 'aria-label': `${t.common.page} ${item}` })}
        />
      )}
    </Group>
  )
}
