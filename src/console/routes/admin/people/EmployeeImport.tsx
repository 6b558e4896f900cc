import { Alert, Button, Group, Input, Stack, Text } from '@mantine/core'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useId, useState } from 'react'
import { ApiError, sendForm, type FieldProblem } from '../../../api'
import { DataTable } from '../../../components/DataTable'
import { notifySaved } from '../../../components/notify'
import { useT } from '../../../i18n'
import { EMPLOYEES_KEY } from './EmployeeForm'
import { usePeopleWords } from './words'

/** The import's answer (CONTRACT §12): how many employees were (or would be) created. */
interface ImportResult {
  created: number
  errors: FieldProblem[]
}

type Outcome = { kind: 'fine'; created: number } | { kind: 'problems'; message: string; problems: FieldProblem[] } | { kind: 'failed'; message: string } | null

const importFile = (file: File, dryRun: boolean) => {
  const form = new FormData()
  form.append('file', file)
  return sendForm<ImportResult>(`/api/v1/admin/employees/import?dry_run=${dryRun}`, form)
}

/** The CSV import: choose a file, check it (a dry run listing every row's problems), then import it all or nothing. */
export function EmployeeImport({ onDone }: { onDone: () => void }) {
  const t = useT()
  const w = usePeopleWords().employees.import
  const queryClient = useQueryClient()
  const inputId = useId()
  const [file, setFile] = useState<File | null>(null)
  const [outcome, setOutcome] = useState<Outcome>(null)

  const failed = (error: unknown): Outcome =>
    error instanceof ApiError && error.errors.length > 0
      ? { kind: 'problems', message: error.message, problems: error.errors }
      : { kind: 'failed', message: error instanceof Error ? error.message : String(error) }

  const check = useMutation({
    mutationFn: (chosen: File) => importFile(chosen, true),
    onSuccess: (result) => setOutcome({ kind: 'fine', created: result.created }),
    onError: (error) => setOutcome(failed(error)),
  })
  const apply = useMutation({
    mutationFn: (chosen: File) => importFile(chosen, false),
    onSuccess: (result) => {
      notifySaved(w.imported(result.created))
      void queryClient.invalidateQueries({ queryKey: EMPLOYEES_KEY })
      onDone()
    },
    onError: (error) => setOutcome(failed(error)),
  })

  return (
    <Stack>
      <Text size="sm">{w.help}</Text>
      <Input.Wrapper id={inputId} label={w.file} withAsterisk>
        <Input
          id={inputId}
          component="input"
          type="file"
          accept=".csv,text/csv"
          pt={6}
          onChange={(event: React.ChangeEvent<HTMLInputElement>) => {
            setFile(event.currentTarget.files?.[0] ?? null)
            setOutcome(null)
          }}
        />
      </Input.Wrapper>
      <div aria-live="polite">
        {outcome?.kind === 'fine' && (
          <Alert color="green" title={w.fine(outcome.created)}>
            {null}
          </Alert>
        )}
        {outcome?.kind === 'failed' && (
          <Alert color="red" role="alert">
            {outcome.message}
          </Alert>
        )}
        {outcome?.kind === 'problems' && (
          <Stack gap="xs">
            <Alert color="red" role="alert" title={outcome.message}>
              {w.problemCount(outcome.problems.length)}
            </Alert>
            <DataTable
              label={w.problems}
              rows={outcome.problems}
              rowKey={(problem) => `${problem.row ?? 0}|${problem.field}|${problem.message}`}
              columns={[
                { header: w.row, cell: (problem) => problem.row ?? '—' },
                { header: w.field, cell: (problem) => problem.field },
                { header: w.message, cell: (problem) => problem.message },
              ]}
            />
          </Stack>
        )}
      </div>
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          {t.common.close}
        </Button>
        <Button variant="light" disabled={!file} loading={check.isPending} onClick={() => file && check.mutate(file)}>
          {w.check}
        </Button>
        <Button disabled={!file || outcome?.kind !== 'fine'} loading={apply.isPending} onClick={() => file && apply.mutate(file)}>
          {w.apply}
        </Button>
      </Group>
    </Stack>
  )
}
