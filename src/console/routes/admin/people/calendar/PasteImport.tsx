import { Alert, Badge, Button, FileInput, Group, Modal, Stack, Text, Textarea } from '@mantine/core'
import { useMutation } from '@tanstack/react-query'
import { useMemo, useState } from 'react'
import { api, ApiError, unwrap } from '../../../../api'
import { DataTable } from '../../../../components/DataTable'
import { useT } from '../../../../i18n'
import { usePeopleWords } from '../words'
import { MAX_DAYS, parseLines, type Day, type Line, type Problem } from './lines'
import { useCalendarWords } from './words'

interface Props {
  opened: boolean
  onClose: () => void
  companyId: number
  onSaved: (days: Day[]) => void
}

/**
 * Pasted lines (or a CSV file's) read into days, shown line by line with what is wrong with each,
 * and saved as one calendar import only when confirmed, and only when every line is right.
 */
export function PasteImport({ opened, onClose, companyId, onSaved }: Props) {
  const t = useT()
  const c = usePeopleWords().companies.calendar
  const b = useCalendarWords()
  const [text, setText] = useState('')
  const [file, setFile] = useState<File | null>(null)
  /** what the API refused, by line number (a problem the page could not see, such as a company gone) */
  const [refused, setRefused] = useState<{ message: string; byLine: Map<number, string[]> } | null>(null)
  const lines = useMemo(() => parseLines(text), [text])
  const wrong = lines.filter((line) => line.problems.length > 0).length

  const words = (problem: Problem) =>
    problem.code === 'repeated' ? b.paste.problems.repeated(problem.line) : problem.code === 'tooMany' ? b.paste.problems.tooMany(MAX_DAYS) : b.paste.problems[problem.code]

  const close = () => {
    setText('')
    setFile(null)
    setRefused(null)
    onClose()
  }
  const save = useMutation({
    mutationFn: (days: Day[]) => unwrap(api.admin.companies({ id: companyId }).calendar.import.post({ days })).then(() => days),
    onSuccess: (days) => {
      close()
      onSaved(days)
    },
    onError: (error) => {
      const byLine = new Map<number, string[]>()
      if (error instanceof ApiError)
        for (const problem of error.errors) {
          const index = /^days\[(\d+)\]/.exec(problem.field)
          const line = index ? lines[Number(index[1])]?.line : undefined
          if (line !== undefined) byLine.set(line, [...(byLine.get(line) ?? []), problem.message])
        }
      setRefused({ message: error instanceof Error ? error.message : String(error), byLine })
    },
  })

  const readFile = async (chosen: File | null) => {
    setFile(chosen)
    setRefused(null)
    if (chosen) setText((await chosen.text()).replace(/^\uFEFF/, ''))
  }

  const problemsOf = (line: Line) => [...line.problems.map(words), ...(refused?.byLine.get(line.line) ?? [])]

  return (
    <Modal opened={opened} onClose={close} title={b.paste.title} size="xl" closeButtonProps={{ 'aria-label': t.common.close }}>
      <Stack gap="sm">
        <Text size="sm">{b.paste.help}</Text>
        <Textarea
          label={b.paste.text}
          placeholder={'2026-10-01,holiday,国庆节,yes\n2026-10-10,workday,国庆节调休上班\n2026-12-25,Christmas'}
          autosize
          minRows={5}
          maxRows={14}
          value={text}
          onChange={(event) => {
            setText(event.currentTarget.value)
            setRefused(null)
          }}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        />
        <FileInput label={b.paste.file} accept=".csv,.txt,text/csv,text/plain" value={file} onChange={readFile} clearable />
        {lines.length === 0 ? (
          <Text size="sm" c="dimmed">
            {b.paste.empty}
          </Text>
        ) : (
          <>
            <Text size="sm" role="status">
              {b.paste.preview(lines.length, wrong)}
            </Text>
            <DataTable
              label={b.paste.table}
              rows={lines}
              rowKey={(line) => line.line}
              columns={[
                { header: b.paste.line, cell: (line) => line.line },
                { header: c.date, cell: (line) => line.day.date },
                { header: c.kind, cell: (line) => (line.day.kind === 'holiday' ? c.holiday : c.workday) },
                { header: c.dayName, cell: (line) => line.day.name },
                { header: b.statutoryColumn, cell: (line) => (line.day.statutory ? t.common.yes : '') },
                {
                  header: b.paste.check,
                  cell: (line) => {
                    const problems = problemsOf(line)
                    return problems.length === 0 ? (
                      <Badge color="green" variant="light" c="var(--mantine-color-text)">
                        {b.paste.correct}
                      </Badge>
                    ) : (
                      <Text size="sm" c="red.9">
                        {problems.join('; ')}
                      </Text>
                    )
                  },
                },
              ]}
            />
          </>
        )}
        {refused && (
          <Alert color="red" role="alert">
            {refused.message}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {t.common.cancel}
          </Button>
          <Button
            disabled={lines.length === 0 || wrong > 0}
            loading={save.isPending}
            onClick={() => save.mutate(lines.map((line) => line.day))}
          >
            {b.paste.save(lines.length)}
          </Button>
        </Group>
      </Stack>
    </Modal>
  )
}
