import { Modal, Text } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { api, unwrap } from '../api'
import { useT } from '../i18n'
import { DataTable } from './DataTable'
import { browserZone, dateTimeIn } from './format'
import type { LeaveUnit } from './leave'

type Entry = Awaited<ReturnType<typeof ownLedger>>['entries'][number]
const ownLedger = (year: number) => unwrap(api.leave.ledger.get({ query: { year } }))
const employeeLedger = (employeeId: number, year: number) => unwrap(api.admin.leave.ledger.get({ query: { employee_id: employeeId, year } }))

/** The kinds of rows whose amounts count in `granted` (a 'none' type's annual days come on top, with no row). */
const GRANTING = new Set<Entry['kind']>(['adjustment', 'grant', 'carry', 'lapse', 'payout'])

/** A row's signed amount in its type's unit: days, or hours for an hourly type. */
const amountOf = (entry: Entry) => (entry.unit === 'hour' ? entry.hours : entry.days) ?? 0

/** The dialog's words (common.ts `leaveLedger`). */
type LedgerWords = ReturnType<typeof useT>['common']['leaveLedger']

interface Props {
  /** whose ledger: an employee's (HR, leave:read), or null for the caller's own */
  employeeId: number | null
  /** its figures are in `unit`: days, or hours for an hourly type */
  balance: { type_id: number; type_name: string; year: number; unit: LeaveUnit; granted: number }
  onClose: () => void
}

const EVENT = /^(grant|carry out|carry in|lapse|expire) (\d{4}(?:-\d{2})?)$/

/** An accrual row's event in the page's language; any other row's reason as written. */
function noteOf(entry: Entry, words: LedgerWords): string {
  const [, event, period] = EVENT.exec(entry.event ?? '') ?? []
  if (!event || !period) return entry.reason || entry.event || ''
  const { events } = words
  if (event === 'grant') return events.grant(period)
  const year = Number(period)
  return event === 'carry out' ? events.carryOut(year) : event === 'carry in' ? events.carryIn(year) : event === 'lapse' ? events.lapse(year) : events.expire(year)
}

const signed = (amount: number) => (amount > 0 ? `+${amount}` : amount < 0 ? `−${-amount}` : '0')

/** The ledger rows behind one balance (a type's, of a year), oldest first, in a dialog. */
export function LeaveLedger({ employeeId, balance, onClose }: Props) {
  const t = useT()
  const words = t.common.leaveLedger
  const { type_id, year } = balance
  const ledger = useQuery({
    queryKey: employeeId === null ? ['leave', 'ledger', year] : ['admin', 'leave', 'ledger', employeeId, year],
    queryFn: () => (employeeId === null ? ownLedger(year) : employeeLedger(employeeId, year)),
  })
  const entries = ledger.data?.entries.filter((entry) => entry.type_id === type_id)
  const hourly = balance.unit === 'hour'
  // what `granted` holds beyond its rows: the days per year of a type that does not accrue (8 hours a day
  // of an hourly type); hours come to the hundredth, so the difference is rounded to it
  const base = entries && Math.round((balance.granted - entries.reduce((sum, entry) => sum + (GRANTING.has(entry.kind) ? amountOf(entry) : 0), 0)) * 100) / 100
  const rows: (Entry | null)[] | undefined = entries && (base ? [null, ...entries] : entries)
  return (
    <Modal opened onClose={onClose} title={words.title(balance.type_name, year)} size="xl" centered closeButtonProps={{ 'aria-label': t.common.close }}>
      <DataTable
        label={words.table}
        rows={rows}
        rowKey={(entry) => entry?.id ?? 0}
        loading={ledger.isPending}
        error={ledger.error}
        columns={[
          { header: words.date, cell: (entry) => (entry ? dateTimeIn(entry.created_at, browserZone()) : '—') },
          { header: words.kind, cell: (entry) => (entry ? words.kinds[entry.kind] ?? entry.kind : hourly ? words.baseHours : words.base) },
          { header: hourly ? words.hours : words.days, cell: (entry) => <Text fw={600}>{signed(entry ? amountOf(entry) : base ?? 0)}</Text> },
          {
            header: words.note,
            cell: (entry) =>
              entry && (
                <>
                  <Text size="sm">{noteOf(entry, words)}</Text>
                  {entry.actor && (
                    <Text size="xs" c="gray.7">
                      {words.by(entry.actor.name)}
                    </Text>
                  )}
                </>
              ),
          },
        ]}
      />
    </Modal>
  )
}
