import { ActionIcon, Badge, Button, Card, Checkbox, FileInput, Group, Stack, Switch, Text, TextInput, Title } from '@mantine/core'
import { useForm } from '@mantine/form'
import { useDebouncedValue } from '@mantine/hooks'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { api, download, sendForm, unwrap } from '../../api'
import { DataTable } from '../../components/DataTable'
import { applyApiErrors } from '../../components/form-errors'
import { browserZone, dateTimeIn } from '../../components/format'
import { can, useMe } from '../../components/me'
import { notifyFailed, notifySaved } from '../../components/notify'
import { PageTitle } from '../../components/PageTitle'
import { useT } from '../../i18n'
import { Confirm } from '../../components/Confirm'
import { useMeWords } from './words'

const PAGE_SIZE = 20
type FileRow = Awaited<ReturnType<typeof fetchFiles>>['files'][number]
const fetchFiles = (page: number, search: string, mine: number | undefined) =>
  unwrap(
    api.storage.files.get({
      query: { page, page_size: PAGE_SIZE, ...(search ? { search } : {}), ...(mine ? { uploaded_by: mine } : {}) },
    }),
  )

interface Values {
  file: File | null
  description: string
  is_public: boolean
}

/** The caller's files: upload, list (theirs, or every file they may see), download and delete. */
export default function Files() {
  const t = useT()
  const w = useMeWords().files
  const me = useMe()
  const queryClient = useQueryClient()
  const [page, setPage] = useState(1)
  const [onlyMine, setOnlyMine] = useState(true)
  const [search, setSearch] = useState('')
  const [searched] = useDebouncedValue(search.trim(), 300)
  const [deleting, setDeleting] = useState<FileRow | null>(null)
  const userId = me.data?.user.id

  const config = useQuery({ queryKey: ['storage', 'config'], queryFn: () => unwrap(api.storage.config.get()), staleTime: 10 * 60_000 })
  const files = useQuery({
    queryKey: ['storage', 'files', page, searched, onlyMine ? userId : null],
    queryFn: () => fetchFiles(page, searched, onlyMine ? userId : undefined),
    enabled: !onlyMine || userId !== undefined,
  })

  const form = useForm<Values>({
    initialValues: { file: null, description: '', is_public: false },
    validate: {
      file: (value) =>
        !value ? w.chooseFile : config.data && value.size > config.data.max_file_size ? w.tooLarge(config.data.max_file_size_formatted) : null,
      description: (value) => (value.length > 500 ? '≤ 500' : null),
    },
  })
  const upload = useMutation({
    mutationFn: (values: Values) => {
      const body = new FormData()
      body.append('file', values.file!)
      if (values.description.trim()) body.append('description', values.description.trim())
      body.append('is_public', String(values.is_public))
      return sendForm<unknown>('/api/v1/storage/upload', body)
    },
    onSuccess: () => {
      notifySaved(w.uploaded)
      form.reset()
      setPage(1)
      void queryClient.invalidateQueries({ queryKey: ['storage', 'files'] })
    },
    onError: (error) => {
      const rest = applyApiErrors(form, error, ['file', 'description', 'is_public'])
      if (rest) notifyFailed(error)
    },
  })
  const remove = useMutation({
    mutationFn: (id: string) => unwrap(api.storage.delete.delete({ file_id: id })),
    onSuccess: () => {
      notifySaved(w.deleted)
      setDeleting(null)
      void queryClient.invalidateQueries({ queryKey: ['storage', 'files'] })
    },
    onError: (error) => notifyFailed(error),
  })
  const fetchFile = useMutation({
    mutationFn: (row: FileRow) => download(`/api/v1/storage/files/${row.id}/content`, row.original_name),
    onError: (error) => notifyFailed(error),
  })

  const mayDelete = (row: FileRow) => row.uploaded_by?.id === userId || can(me.data, 'files:manage')
  const summary = files.data?.summary

  return (
    <Stack maw={960} gap="lg">
      <PageTitle>{w.title}</PageTitle>

      <Card withBorder padding="md" maw={560} component="section" aria-labelledby="upload-title">
        <form onSubmit={form.onSubmit((values) => upload.mutate(values))} noValidate>
          <Stack>
            <Title order={2} size="h4" id="upload-title">
              {w.upload}
            </Title>
            {config.data && (
              <Text size="sm" c="gray.7">
                {w.limits(config.data.max_file_size_formatted, config.data.upload_quota_formatted)}
              </Text>
            )}
            <FileInput
              label={w.file}
              withAsterisk
              clearable
              accept={config.data?.allowed_types.join(',')}
              {...form.getInputProps('file')}
            />
            <TextInput label={w.description} maxLength={500} {...form.getInputProps('description')} />
            <Checkbox label={w.isPublic} {...form.getInputProps('is_public', { type: 'checkbox' })} />
            <Button type="submit" loading={upload.isPending}>
              {w.uploadButton}
            </Button>
          </Stack>
        </form>
      </Card>

      <Group align="flex-end">
        <TextInput
          label={w.search}
          value={search}
          onChange={(event) => {
            setSearch(event.currentTarget.value)
            setPage(1)
          }}
          style={{ flex: 1, minWidth: 200 }}
        />
        <Switch
          label={w.onlyMine}
          checked={onlyMine}
          onChange={(event) => {
            setOnlyMine(event.currentTarget.checked)
            setPage(1)
          }}
          mb={8}
        />
      </Group>
      {summary && <Text size="sm">{w.total(summary.total_files, summary.total_size_formatted)}</Text>}

      <DataTable
        label={w.caption}
        rows={files.data?.files}
        rowKey={(row) => row.id}
        loading={files.isPending && files.fetchStatus !== 'idle'}
        error={files.error}
        page={page}
        pageSize={PAGE_SIZE}
        total={files.data?.pagination.total}
        onPage={setPage}
        columns={[
          {
            header: w.name,
            cell: (row) => (
              <Stack gap={0}>
                <Text size="sm" fw={500} style={{ wordBreak: 'break-all' }}>
                  {row.original_name}
                </Text>
                {row.description && (
                  <Text size="xs" c="gray.7">
                    {row.description}
                  </Text>
                )}
              </Stack>
            ),
          },
          { header: w.size, cell: (row) => row.size_formatted },
          { header: w.uploadedAt, cell: (row) => dateTimeIn(row.created_at, browserZone()) },
          ...(onlyMine ? [] : [{ header: w.uploadedBy, cell: (row: FileRow) => row.uploaded_by?.name ?? '—' }]),
          {
            header: w.visibility,
            cell: (row) => (
              <Badge variant="light" c="dark.7" color={row.is_public ? 'blue' : 'gray'}>
                {row.is_public ? w.public : w.private}
              </Badge>
            ),
          },
          {
            header: t.common.actions,
            cell: (row) => (
              <Group gap={4} wrap="nowrap">
                <ActionIcon variant="default" aria-label={w.download(row.original_name)} onClick={() => fetchFile.mutate(row)}>
                  <span aria-hidden="true">⤓</span>
                </ActionIcon>
                {mayDelete(row) && (
                  <ActionIcon variant="default" color="red" aria-label={w.delete(row.original_name)} onClick={() => setDeleting(row)}>
                    <span aria-hidden="true">✕</span>
                  </ActionIcon>
                )}
              </Group>
            ),
          },
        ]}
      />

      <Confirm
        opened={deleting !== null}
        title={w.deleteTitle}
        text={deleting ? w.deleteText(deleting.original_name) : ''}
        confirm={t.common.delete}
        loading={remove.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
      />
    </Stack>
  )
}
