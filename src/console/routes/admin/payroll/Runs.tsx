import { Button, Card, Group, Select, Stack, Text, Title } from '@mantine/core'
import { MonthPickerInput } from '@mantine/dates'
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { Link, useLocation } from 'wouter'
import { api, unwrap } from '../../../api'
import { DataTable } from '../../../components/DataTable'
import { addMonths } from '../../../components/dates'
import { can, useMe } from '../../../components/me'
import { notifyFailed, notifySaved } from '../../../components/notify'
import { useT } from '../../../i18n'
import { currentMonth, useCompanyOptions } from '../work/shared'
import { fetchRuns, PAYROLL_KEY, type RunStatus } from './data'
import { money, StatusBadge } from './parts'
import { usePayrollWords } from './words'

/** Payroll runs: compute a company's month (a draft run, then its page), and every run so far. */
export function Runs() {
  const t = useT()
  const p = usePayrollWords()
  const me = useMe().data
  const queryClient = useQueryClient()
  const [, navigate] = useLocation()
  const companies = useCompanyOptions(can(me, 'companies:read'))
  const [company, setCompany] = useState<string | null>(null)
  // pay is usually worked out after the month is over
  const [month, setMonth] = useState(addMonths(currentMonth(), -1))
  const [status, setStatus] = useState<string>('all')

  // one company: it is the one meant
  useEffect(() => {
    if (company === null && companies.data?.length === 1) setCompany(companies.data[0]!.value)
  }, [companies.data, company])

  const query = { ...(company ? { company_id: Number(company) } : {}), ...(status !== 'all' ? { status: status as RunStatus } : {}) }
  const runs = useQuery({ queryKey: [...PAYROLL_KEY, 'runs', query], queryFn: () => fetchRuns(query), placeholderData: keepPreviousData })

  const create = useMutation({
    mutationFn: () => unwrap(api.admin.payroll.runs.post({ company_id: Number(company), month })),
    onSuccess: (run) => {
      notifySaved(p.runCreated(run.month))
      void queryClient.invalidateQueries({ queryKey: PAYROLL_KEY })
      navigate(`/admin/payroll/runs/${run.id}`)
    },
    onError: (error) => notifyFailed(error),
  })

  return (
    <Stack gap="md">
      {can(me, 'payroll:manage') && (
        <Card withBorder component="section" aria-labelledby="payroll-new-run">
          <Stack gap="sm">
            <Title order={2} size="h4" id="payroll-new-run">
              {p.newRun}
            </Title>
            <Text size="sm" c="dimmed">
              {p.newRunHint}
            </Text>
            <Group align="flex-end" gap="sm">
              <Select label={p.company} data={companies.data ?? []} value={company} onChange={setCompany} searchable w={240} />
              <MonthPickerInput label={p.month} valueFormat="YYYY-MM" value={`${month}-01`} onChange={(value) => value && setMonth(String(value).slice(0, 7))} w={140} />
              <Button disabled={!company} loading={create.isPending} onClick={() => create.mutate()}>
                {p.createRun}
              </Button>
            </Group>
          </Stack>
        </Card>
      )}
      <Group align="flex-end">
        <Select
          label={p.status}
          data={[
            { value: 'all', label: p.all },
            { value: 'draft', label: p.statuses.draft! },
            { value: 'approved', label: p.statuses.approved! },
          ]}
          value={status}
          onChange={(value) => setStatus(value ?? 'all')}
          allowDeselect={false}
          w={160}
        />
      </Group>
      <DataTable
        label={p.runsTable}
        rows={runs.data?.runs}
        rowKey={(run) => run.id}
        loading={runs.isPending}
        error={runs.error}
        columns={[
          { header: p.company, cell: (run) => run.company.name },
          { header: p.month, cell: (run) => run.month },
          { header: p.status, cell: (run) => <StatusBadge status={run.status} /> },
          { header: p.headCount, cell: (run) => run.totals.head_count },
          { header: p.gross, cell: (run) => money(run.totals.gross) },
          { header: p.net, cell: (run) => money(run.totals.net) },
          {
            header: t.common.actions,
            cell: (run) => (
              <Button component={Link} href={`/admin/payroll/runs/${run.id}`} size="xs" variant="default" aria-label={p.openRun(run.company.name, run.month)}>
                {p.open}
              </Button>
            ),
          },
        ]}
      />
    </Stack>
  )
}
