import { Alert, Anchor, Button, Center, Group, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { Link, useLocation, useParams } from 'wouter'
import { api, download, unwrap } from '../../../api'
import { Confirm } from '../../../components/Confirm'
import { ConfirmDelete } from '../../../components/ConfirmDelete'
import { browserZone, dateTimeIn } from '../../../components/format'
import { can, useMe } from '../../../components/me'
import { notifyFailed, notifySaved } from '../../../components/notify'
import { PageTitle } from '../../../components/PageTitle'
import { useT } from '../../../i18n'
import { fetchRun, PAYROLL_KEY, type Run } from './data'
import { Figure, money, StatusBadge } from './parts'
import { RunPayslips } from './RunPayslips'
import { usePayrollWords } from './words'

type Export = 'register' | 'bank-transfers'
type Format = 'csv' | 'xlsx'

/** A payroll run: its totals, its payslips (filtered, opened, amounts entered), recompute, approve, delete, the downloads. */
export default function RunPage() {
  const t = useT()
  const p = usePayrollWords()
  const { id: idText = '' } = useParams<{ id: string }>()
  const id = Number(idText)
  const run = useQuery({ queryKey: [...PAYROLL_KEY, 'run', id], queryFn: () => fetchRun(id), enabled: Number.isInteger(id) && id > 0 })

  if (run.isPending)
    return (
      <Center p="xl">
        <Loader role="status" aria-label={t.common.loading} />
      </Center>
    )
  if (run.error)
    return (
      <Stack>
        <BackLink />
        <Alert color="red" title={t.common.failed}>
          {run.error.message}
        </Alert>
      </Stack>
    )
  return <RunView run={run.data} />
}

function BackLink() {
  const p = usePayrollWords()
  return (
    <Anchor component={Link} href="/admin/payroll" size="sm">
      ← {p.back}
    </Anchor>
  )
}

function RunView({ run }: { run: Run }) {
  const p = usePayrollWords()
  const me = useMe().data
  const queryClient = useQueryClient()
  const [, navigate] = useLocation()
  const [approving, setApproving] = useState(false)
  const [deleting, setDeleting] = useState(false)
  const draft = run.status === 'draft'
  const manage = draft && can(me, 'payroll:manage')
  const refresh = () => queryClient.invalidateQueries({ queryKey: PAYROLL_KEY })
  const zone = browserZone()

  const recompute = useMutation({
    mutationFn: () => unwrap(api.admin.payroll.runs({ id: run.id }).recompute.post()),
    onSuccess: () => {
      notifySaved(p.recomputed)
      void refresh()
    },
    onError: (error) => notifyFailed(error),
  })
  const approve = useMutation({
    mutationFn: () => unwrap(api.admin.payroll.runs({ id: run.id }).approve.post()),
    onSuccess: () => {
      notifySaved(p.approved)
      setApproving(false)
      void refresh()
    },
    onError: (error) => {
      setApproving(false)
      notifyFailed(error)
    },
  })
  const remove = useMutation({
    mutationFn: () => unwrap(api.admin.payroll.runs({ id: run.id }).delete()),
    onSuccess: () => {
      notifySaved(p.runDeleted)
      void refresh()
      navigate('/admin/payroll')
    },
    onError: (error) => notifyFailed(error),
  })
  const fetchFile = useMutation({
    mutationFn: ({ kind, format }: { kind: Export; format: Format }) =>
      download(`/api/v1/admin/payroll/runs/${run.id}/${kind}?format=${format}`, `${kind}-${run.company.name}-${run.month}.${format}`),
    onError: (error) => notifyFailed(error),
  })

  const totals = run.totals
  return (
    <Stack gap="md">
      <BackLink />
      <PageTitle>{p.runTitle(run.company.name, run.month)}</PageTitle>
      <Group gap="sm">
        <StatusBadge status={run.status} />
        <Text size="sm" c="dimmed">
          {run.approved_at
            ? p.approvedBy(run.approved_by?.username ?? '—', dateTimeIn(run.approved_at, zone))
            : p.computedOn(dateTimeIn(run.computed_at, zone))}
        </Text>
      </Group>

      <section aria-labelledby="run-totals">
        <Title order={2} size="h4" id="run-totals" mb="xs">
          {p.totals(run.month)}
        </Title>
        <SimpleGrid cols={{ base: 2, sm: 4, lg: 7 }}>
          <Figure label={p.headCount} value={String(totals.head_count)} />
          <Figure label={p.gross} value={money(totals.gross)} />
          <Figure label={p.employeeContributions} value={money(totals.employee_contributions)} />
          <Figure label={p.tax} value={money(totals.tax)} />
          <Figure label={p.deductions} value={money(totals.deductions)} />
          <Figure label={p.net} value={money(totals.net)} />
          <Figure label={p.employerContributions} value={money(totals.employer_contributions)} />
        </SimpleGrid>
      </section>

      {draft ? (
        (manage || can(me, 'payroll:approve')) && (
          <Group gap="sm">
            {manage && (
              <Button variant="default" loading={recompute.isPending} onClick={() => recompute.mutate()} title={p.recomputeHint}>
                {p.recompute}
              </Button>
            )}
            {can(me, 'payroll:approve') && <Button onClick={() => setApproving(true)}>{p.approve}</Button>}
            {manage && (
              <Button variant="default" color="red" onClick={() => setDeleting(true)}>
                {p.deleteRun}
              </Button>
            )}
          </Group>
        )
      ) : (
        <Text size="sm">{p.lockedNote}</Text>
      )}

      <section aria-labelledby="run-downloads">
        <Title order={2} size="h4" id="run-downloads" mb="xs">
          {p.downloads}
        </Title>
        <Group gap="xs">
          {/* the bank's list only once approved: a draft's net pay may still change (the API answers 409) */}
          {(draft ? (['register'] as const) : (['register', 'bank-transfers'] as const)).flatMap((kind) =>
            (['xlsx', 'csv'] as const).map((format) => (
              <Button
                key={`${kind}-${format}`}
                size="xs"
                variant="default"
                loading={fetchFile.isPending && fetchFile.variables.kind === kind && fetchFile.variables.format === format}
                onClick={() => fetchFile.mutate({ kind, format })}
              >
                {p.downloadAs(kind === 'register' ? p.register : p.bankTransfers, format.toUpperCase())}
              </Button>
            )),
          )}
        </Group>
        {draft && (
          <Text size="sm" c="dimmed" mt={4}>
            {p.bankAfterApproval}
          </Text>
        )}
      </section>

      <RunPayslips run={run} editable={manage} />

      <Confirm
        opened={approving}
        title={p.approveTitle}
        text={p.approveText(run.company.name, run.month, totals.head_count)}
        note={p.approveNote}
        confirm={p.approve}
        onClose={() => setApproving(false)}
        onConfirm={() => approve.mutate()}
        loading={approve.isPending}
      />
      <ConfirmDelete
        what={deleting ? p.deleteWhat(run.company.name, run.month) : null}
        onClose={() => setDeleting(false)}
        onConfirm={() => remove.mutate()}
        loading={remove.isPending}
      />
    </Stack>
  )
}
