import { Badge, Button, Group, Stack, Text, TextInput } from '@mantine/core'
import { DateInput } from '@mantine/dates'
import { useDebouncedValue } from '@mantine/hooks'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { api, download, unwrap } from '../../../api'
import { DataTable } from '../../../components/DataTable'
import { browserZone, dateTimeIn } from '../../../components/format'
import { notifyFailed, notifySaved } from '../../../components/notify'
import { PageTitle } from '../../../components/PageTitle'
import { useT } from '../../../i18n'
import { ConfirmDelete } from '../../../components/ConfirmDelete'
import { keepEnter } from '../../../components/dates'
import { useWorkWords } from './words'

const PAGE_SIZE = 20

/** Every stored file (files:manage): search, download, delete. */
export default function Files() {
  const t = useT()
  const w = useWorkWords()
  const f = w.files
  const queryClient = useQueryClient()
  const [page, setPage] = useState(1)
  const [search, setSearch] = useState('')
  const [folder, setFolder] = useState('')
  const [from, setFrom] = useState<string | null>(null)
  const [to, setTo] = useState<string | null>(null)
  const [term] = useDebouncedValue(search.trim(), 300)
  const [folderTerm] = useDebouncedValue(folder.trim(), 300)
  const [deleting, setDeleting] = useState<FileRow | null>(null)
  const files = useQuery({
    queryKey: ['admin', 'files', page, term, folderTerm, from, to],
    queryFn: () =>
      unwrap(
        api.storage.files.get({
          query: {
            page,
            page_size: PAGE_SIZE,
            ...(term ? { search: term } : {}),
            ...(folderTerm ? { folder: folderTerm } : {}),
            ...(from ? { date_from: from } : {}),
            ...(to ? { date_to: to } : {}),
          },
        }),
      ),
  })
  type FileRow = NonNullable<typeof files.data>['files'][number]
  const remove = useMutation({
    mutationFn: (id: string) => unwrap(api.storage.delete.delete({ file_id: id })),
    onSuccess: () => {
      notifySaved(f.deleted)
      setDeleting(null)
      void queryClient.invalidateQueries({ queryKey: ['admin', 'files'] })
      void queryClient.invalidateQueries({ queryKey: ['files'] })
    },
    onError: (error) => notifyFailed(error),
  })
  const fetchFile = useMutation({
    mutationFn: (file: FileRow) => download(`/api/v1/storage/files/${file.id}/content`, file.original_name),
    onError: (error) => notifyFailed(error),
  })
  const zone = browserZone()
  const reset = <T,>(set: (value: T) => void) => (value: T) => {
    set(value)
    setPage(1)
  }

  return (
    <Stack gap="md">
      <PageTitle>{f.title}</PageTitle>
      <Group align="flex-end" gap="sm">
        <TextInput label={f.search} value={search} onChange={(event) => reset(setSearch)(event.currentTarget.value)} w={220} />
        <TextInput label={f.folder} value={folder} onChange={(event) => reset(setFolder)(event.currentTarget.value)} w={180} />
        <DateInput label={f.from} valueFormat="YYYY-MM-DD" value={from} onChange={reset(setFrom)} onKeyDown={keepEnter} clearable w={150} />
        <DateInput label={f.to} valueFormat="YYYY-MM-DD" value={to} onChange={reset(setTo)} onKeyDown={keepEnter} clearable w={150} />
      </Group>
      {files.data && (
        <Text size="sm" c="dimmed">
          {f.summary(files.data.summary.total_files, files.data.summary.total_size_formatted)}
        </Text>
      )}
      <DataTable
        label={f.table}
        rows={files.data?.files}
        rowKey={(file) => file.id}
        loading={files.isPending}
        error={files.error}
        page={page}
        pageSize={PAGE_SIZE}
        total={files.data?.pagination.total}
        onPage={setPage}
        columns={[
          {
            header: f.name,
            cell: (file) => (
              <Stack gap={0}>
                <Text size="sm" fw={600} style={{ wordBreak: 'break-all' }}>
                  {file.original_name}
                </Text>
                {file.description && (
                  <Text size="xs" c="dimmed">
                    {file.description}
                  </Text>
                )}
              </Stack>
            ),
          },
          { header: f.folder, cell: (file) => file.folder ?? '—' },
          { header: f.type, cell: (file) => <Text size="sm">{file.mime_type}</Text> },
          { header: f.size, cell: (file) => file.size_formatted },
          { header: f.uploadedBy, cell: (file) => file.uploaded_by?.name ?? '—' },
          {
            header: f.visibility,
            cell: (file) => (
              <Badge color={file.is_public ? 'blue' : 'gray'} variant="light" c="var(--mantine-color-text)">
                {file.is_public ? f.public : f.private}
              </Badge>
            ),
          },
          { header: f.uploadedAt, cell: (file) => dateTimeIn(file.created_at, zone) },
          {
            header: t.common.actions,
            cell: (file) => (
              <Group gap="xs" wrap="nowrap">
                <Button
                  size="xs"
                  variant="default"
                  aria-label={f.downloadOf(file.original_name)}
                  loading={fetchFile.isPending && fetchFile.variables?.id === file.id}
                  onClick={() => fetchFile.mutate(file)}
                >
                  {f.download}
                </Button>
                <Button size="xs" variant="default" color="red" aria-label={f.deleteOf(file.original_name)} onClick={() => setDeleting(file)}>
                  {t.common.delete}
                </Button>
              </Group>
            ),
          },
        ]}
      />
      <ConfirmDelete
        what={deleting?.original_name ?? null}
        note={f.deleteNote}
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
        loading={remove.isPending}
      />
    </Stack>
  )
}
