import { Button, Card, Group, Radio, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core'
import { MonthPickerInput } from '@mantine/dates'
import { useMutation } from '@tanstack/react-query'
import { useState } from 'react'
import { download } from '../../../api'
import { can, useMe } from '../../../components/me'
import { notifyFailed } from '../../../components/notify'
import { PageTitle } from '../../../components/PageTitle'
import { currentMonth, useDepartmentOptions, useGroupOptions } from './shared'
import { useWorkWords } from './words'

type Format = 'csv' | 'xlsx'
type Layout = 'sheet' | 'data'
/** What the API gives when no layout is named (CONTRACT §24): a sheet for XLSX, data for CSV. */
const defaultLayout = (format: Format): Layout => (format === 'xlsx' ? 'sheet' : 'data')

/** The exports of CONTRACT §12 and §24: a month's attendance sheet and payroll register, as CSV or XLSX, laid out as a sheet or as data. */
export default function Exports() {
  const w = useWorkWords()
  const e = w.exports
  const me = useMe().data
  const attendance = can(me, 'attendance_records:read')
  const payroll = can(me, 'salaries:read')
  const [month, setMonth] = useState(currentMonth())
  const [format, setFormat] = useState<Format>('xlsx')
  const [layout, setLayout] = useState<Layout>(defaultLayout('xlsx'))
  const [department, setDepartment] = useState<string | null>(null)
  const [group, setGroup] = useState<string | null>(null)
  const departments = useDepartmentOptions(attendance && can(me, 'departments:read'))
  const groups = useGroupOptions(attendance && can(me, 'attendance_groups:read'))

  const fetchFile = useMutation({
    mutationFn: (kind: 'attendance' | 'salaries') => {
      const query = new URLSearchParams({ month, format, layout })
      if (kind === 'attendance' && department) query.set('department_id', department)
      if (kind === 'attendance' && group) query.set('group_id', group)
      return download(`/api/v1/admin/exports/${kind}?${query}`, `${kind}-${month}.${format}`)
    },
    onError: (error) => notifyFailed(error),
  })

  return (
    <Stack gap="md" maw={900}>
      <PageTitle>{e.title}</PageTitle>
      <Group align="flex-end" gap="lg">
        <MonthPickerInput label={e.month} valueFormat="YYYY-MM" value={`${month}-01`} onChange={(value) => value && setMonth(String(value).slice(0, 7))} w={160} />
        <Radio.Group
          label={e.format}
          value={format}
          onChange={(value) => {
            const next = value === 'csv' ? 'csv' : 'xlsx'
            setFormat(next)
            // a new format brings its usual layout; the other stays one click away
            setLayout(defaultLayout(next))
          }}
        >
          <Group gap="md" mt={6}>
            <Radio value="xlsx" label={e.xlsx} />
            <Radio value="csv" label={e.csv} />
          </Group>
        </Radio.Group>
      </Group>
      <Radio.Group label={e.layout} value={layout} onChange={(value) => setLayout(value === 'data' ? 'data' : 'sheet')}>
        <SimpleGrid cols={{ base: 1, sm: 2 }} mt={6}>
          <Radio value="sheet" label={e.sheet} description={e.sheetHint} />
          <Radio value="data" label={e.data} description={e.dataHint} />
        </SimpleGrid>
      </Radio.Group>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        {attendance && (
          <Card withBorder component="section" aria-labelledby="export-attendance">
            <Stack gap="sm">
              <Title order={2} size="h4" id="export-attendance">
                {e.attendanceTitle}
              </Title>
              <Text size="sm" c="dimmed">
                {e.attendanceText}
              </Text>
              {departments.data && (
                <Select label={e.department} placeholder={w.shared.all} data={departments.data} value={department} onChange={setDepartment} clearable searchable />
              )}
              {groups.data && <Select label={e.group} placeholder={w.shared.all} data={groups.data} value={group} onChange={setGroup} clearable searchable />}
              <Group justify="flex-end">
                <Button loading={fetchFile.isPending && fetchFile.variables === 'attendance'} onClick={() => fetchFile.mutate('attendance')}>
                  {e.downloadAttendance}
                </Button>
              </Group>
            </Stack>
          </Card>
        )}
        {payroll && (
          <Card withBorder component="section" aria-labelledby="export-payroll">
            <Stack gap="sm">
              <Title order={2} size="h4" id="export-payroll">
                {e.payrollTitle}
              </Title>
              <Text size="sm" c="dimmed">
                {e.payrollText}
              </Text>
              <Group justify="flex-end">
                <Button loading={fetchFile.isPending && fetchFile.variables === 'salaries'} onClick={() => fetchFile.mutate('salaries')}>
                  {e.downloadPayroll}
                </Button>
              </Group>
            </Stack>
          </Card>
        )}
      </SimpleGrid>
    </Stack>
  )
}
