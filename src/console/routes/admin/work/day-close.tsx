import { Alert, Badge, Button, Card, Group, Select, Stack, Text } from '@mantine/core'
import { DateInput } from '@mantine/dates'
import { useForm } from '@mantine/form'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '../../../api'
import { DataTable } from '../../../components/DataTable'
import { applyApiErrors } from '../../../components/form-errors'
import { notifyNothing, notifySaved } from '../../../components/notify'
import { PageTitle } from '../../../components/PageTitle'
import { useT } from '../../../i18n'
import { useGroupOptions } from './shared'
import { keepEnter, todayIn } from '../../../components/dates'
import { useWorkWords } from './words'

interface Values {
  date: string | null
  group_id: string | null
}

/** Closes a work day now (absences and exceptions), for one group or all, and shows what the API did. */
export default function DayClose() {
  const t = useT()
  const w = useWorkWords()
  const d = w.dayClose
  const queryClient = useQueryClient()
  const groups = useGroupOptions()
  const form = useForm<Values>({
    initialValues: { date: todayIn(), group_id: null },
    validate: { date: (value) => (value ? null : w.shared.required) },
  })
  const close = useMutation({
    mutationFn: (values: Values) =>
      unwrap(api.admin.attendance['close-day'].post({ date: values.date!, ...(values.group_id ? { group_id: Number(values.group_id) } : {}) })),
    onSuccess: (result) => {
      // green only when a group's day was closed: how many were, or that none were and why
      const closed = result.groups.filter((group) => group.closed).length
      if (closed > 0) notifySaved(d.closedCount(closed, result.groups.length))
      else notifyNothing(d.noneClosed(result.groups.length))
      void queryClient.invalidateQueries({ queryKey: ['admin', 'attendance', 'records'] })
    },
    onError: (error) => void applyApiErrors(form, error, ['date', 'group_id']),
  })
  const groupName = (id: number) => groups.data?.find((group) => group.value === String(id))?.label ?? `#${id}`
  const failure = close.isError ? applyApiErrorsMessage(close.error) : null

  return (
    <Stack gap="md" maw={900}>
      <PageTitle>{d.title}</PageTitle>
      <Text c="dimmed" size="sm">
        {d.intro}
      </Text>
      <Card withBorder maw={520}>
        <form onSubmit={form.onSubmit((values) => close.mutate(values))} noValidate>
          <Stack gap="sm">
            <DateInput label={d.date} valueFormat="YYYY-MM-DD" withAsterisk onKeyDown={keepEnter} {...form.getInputProps('date')} />
            <Select label={d.group} description={d.groupHint} placeholder={d.allGroups} data={groups.data ?? []} clearable searchable {...form.getInputProps('group_id')} />
            <Group justify="flex-end">
              <Button type="submit" loading={close.isPending}>
                {d.submit}
              </Button>
            </Group>
          </Stack>
        </form>
      </Card>
      {failure && (
        <Alert color="red" role="alert" title={t.common.failed}>
          {failure}
        </Alert>
      )}
      {close.data && (
        <DataTable
          label={d.result(close.data.date)}
          rows={close.data.groups}
          rowKey={(group) => group.group_id}
          columns={[
            { header: d.group, cell: (group) => groupName(group.group_id) },
            { header: d.zone, cell: (group) => group.timezone },
            {
              header: d.closed,
              cell: (group) => (
                <Badge color={group.closed ? 'green' : 'yellow'} variant="light" c="var(--mantine-color-text)">
                  {group.closed ? d.closedYes : d.closedNo}
                </Badge>
              ),
            },
            { header: d.absent, cell: (group) => group.absent_records },
            { header: d.exceptions, cell: (group) => group.exception_records },
          ]}
        />
      )}
    </Stack>
  )
}

/** The API's message with its field problems, for an answer the form's fields do not show. */
function applyApiErrorsMessage(error: Error & { errors?: { field: string; message: string }[] }): string {
  const problems = (error.errors ?? []).filter((problem) => problem.field !== 'date' && problem.field !== 'group_id')
  return [error.message, ...problems.map((problem) => `${problem.field}: ${problem.message}`)].join(' — ')
}
