import { Badge, Button, Group, Select, Stack, Tabs, Text } from '@mantine/core'
import { DateInput } from '@mantine/dates'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { api, unwrap } from '../../../api'
import { DataTable } from '../../../components/DataTable'
import { browserZone, dateTimeIn, timeIn } from '../../../components/format'
import { can, useMe } from '../../../components/me'
import { PageTitle } from '../../../components/PageTitle'
import { useT } from '../../../i18n'
import { fetchRecords, RecordEdit, type AttendanceRecord, type RecordFilters } from './RecordEdit'
import { ATTENDANCE_COLORS, EmployeeSelect, useGroupOptions } from './shared'
import { keepEnter } from '../../../components/dates'
import { useWorkWords } from './words'

const NO_FILTERS: RecordFilters = { employee_id: null, group_id: null, start_date: null, end_date: null, status: null }

/** Every employee's attendance records (times in each record's zone), the administrator's correction, and refused clock attempts. */
export default function Records() {
  const w = useWorkWords()
  const r = w.records
  return (
    <Stack gap="md">
      <PageTitle>{r.title}</PageTitle>
      <Tabs defaultValue="records" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="records">{r.recordsTab}</Tabs.Tab>
          <Tabs.Tab value="attempts">{r.attemptsTab}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="records" pt="md">
          <RecordsTab />
        </Tabs.Panel>
        <Tabs.Panel value="attempts" pt="md">
          <AttemptsTab />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  )
}

function RecordsTab() {
  const t = useT()
  const w = useWorkWords()
  const r = w.records
  const me = useMe().data
  const groups = useGroupOptions()
  const [page, setPage] = useState(1)
  const [filters, setFilters] = useState<RecordFilters>(NO_FILTERS)
  const [editing, setEditing] = useState<AttendanceRecord | null>(null)
  const records = useQuery({ queryKey: ['admin', 'attendance', 'records', page, filters], queryFn: () => fetchRecords(page, filters) })
  const filter = (key: keyof RecordFilters) => (value: string | null) => {
    setFilters((current) => ({ ...current, [key]: value || null }))
    setPage(1)
  }
  const editable = can(me, 'attendance_records:update')

  return (
    <Stack gap="md">
      <Group align="flex-end" gap="sm">
        <EmployeeSelect label={r.employee} placeholder={w.shared.all} value={filters.employee_id} onChange={filter('employee_id')} clearable w={220} />
        <Select label={r.group} placeholder={w.shared.all} data={groups.data ?? []} value={filters.group_id} onChange={filter('group_id')} clearable w={200} />
        <DateInput label={r.from} valueFormat="YYYY-MM-DD" value={filters.start_date} onChange={filter('start_date')} onKeyDown={keepEnter} clearable w={160} />
        <DateInput label={r.to} valueFormat="YYYY-MM-DD" value={filters.end_date} onChange={filter('end_date')} onKeyDown={keepEnter} clearable w={160} />
        <Select
          label={r.status}
          placeholder={w.shared.all}
          data={r.statuses.map((label, value) => ({ value: String(value), label }))}
          value={filters.status}
          onChange={filter('status')}
          clearable
          w={160}
        />
      </Group>
      <DataTable
        label={r.table}
        rows={records.data?.records}
        rowKey={(record) => record.id}
        loading={records.isPending}
        error={records.error}
        page={page}
        pageSize={20}
        total={records.data?.pagination.total_items}
        onPage={setPage}
        columns={[
          { header: r.employee, cell: (record) => record.employee?.name ?? `#${record.employee_id}` },
          { header: r.workDate, cell: (record) => record.work_date },
          { header: r.clockIn, cell: (record) => timeIn(record.clock_in_time, record.timezone) },
          {
            header: r.clockOut,
            cell: (record) =>
              record.clock_out_time && dateTimeIn(record.clock_out_time, record.timezone).slice(0, 10) !== record.work_date
                ? dateTimeIn(record.clock_out_time, record.timezone)
                : timeIn(record.clock_out_time, record.timezone),
          },
          {
            header: r.status,
            cell: (record) => (
              <Group gap={4} wrap="nowrap">
                <Badge color={ATTENDANCE_COLORS[record.status] ?? 'gray'} variant="light" c="var(--mantine-color-text)">
                  {record.status_text}
                </Badge>
                {record.corrected && (
                  <Badge color="blue" variant="outline" c="var(--mantine-color-text)">
                    {r.correctedBadge}
                  </Badge>
                )}
              </Group>
            ),
          },
          { header: r.hours, cell: (record) => record.work_hours },
          {
            header: r.minutes,
            cell: (record) => (
              <Text size="sm">{r.lateEarlyOvertime(record.late_minutes, record.early_minutes, record.overtime_minutes)}</Text>
            ),
          },
          { header: r.zone, cell: (record) => <Text size="sm">{record.timezone}</Text> },
          ...(editable
            ? [
                {
                  header: t.common.actions,
                  cell: (record: AttendanceRecord) => (
                    <Button size="xs" variant="default" onClick={() => setEditing(record)}>
                      {t.common.edit}
                    </Button>
                  ),
                },
              ]
            : []),
        ]}
      />
      {editing && <RecordEdit key={editing.id} record={editing} onClose={() => setEditing(null)} />}
    </Stack>
  )
}

function AttemptsTab() {
  const w = useWorkWords()
  const r = w.records
  const [page, setPage] = useState(1)
  const [employee, setEmployee] = useState<string | null>(null)
  const [from, setFrom] = useState<string | null>(null)
  const [to, setTo] = useState<string | null>(null)
  const attempts = useQuery({
    queryKey: ['admin', 'attendance', 'attempts', page, employee, from, to],
    queryFn: () =>
      unwrap(
        api.admin.attendance.attempts.get({
          query: {
            page,
            page_size: 20,
            ...(employee ? { employee_id: Number(employee) } : {}),
            ...(from ? { start_date: from } : {}),
            ...(to ? { end_date: to } : {}),
          },
        }),
      ),
  })
  const zone = browserZone()
  const reset = <T,>(set: (value: T) => void) => (value: T) => {
    set(value)
    setPage(1)
  }
  return (
    <Stack gap="md">
      <Group align="flex-end" gap="sm">
        <EmployeeSelect label={r.employee} placeholder={w.shared.all} value={employee} onChange={reset(setEmployee)} clearable w={220} />
        <DateInput label={r.from} valueFormat="YYYY-MM-DD" value={from} onChange={reset(setFrom)} onKeyDown={keepEnter} clearable w={160} />
        <DateInput label={r.to} valueFormat="YYYY-MM-DD" value={to} onChange={reset(setTo)} onKeyDown={keepEnter} clearable w={160} />
      </Group>
      <Text size="sm" c="dimmed">
        {r.attemptsNote(zone)}
      </Text>
      <DataTable
        label={r.attemptsTable}
        rows={attempts.data?.attempts}
        rowKey={(attempt) => attempt.id}
        loading={attempts.isPending}
        error={attempts.error}
        page={page}
        pageSize={20}
        total={attempts.data?.pagination.total_items}
        onPage={setPage}
        columns={[
          { header: r.employee, cell: (attempt) => attempt.employee?.name ?? `#${attempt.employee_id}` },
          { header: r.attemptedAt, cell: (attempt) => dateTimeIn(attempt.attempted_at, zone) },
          { header: r.kind, cell: (attempt) => (attempt.kind === 'clock_out' ? r.kindOut : r.kindIn) },
          {
            header: r.position,
            cell: (attempt) =>
              attempt.latitude !== null && attempt.longitude !== null ? `${attempt.latitude}, ${attempt.longitude}` : r.noPosition,
          },
          { header: r.distance, cell: (attempt) => (attempt.distance === null ? '—' : r.meters(Math.round(attempt.distance))) },
          { header: r.radius, cell: (attempt) => r.meters(attempt.radius) },
        ]}
      />
    </Stack>
  )
}
